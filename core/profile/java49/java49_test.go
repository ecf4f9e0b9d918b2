package java49

import (
	"math"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

type noDraw struct{ t *testing.T }

func (s noDraw) NextInt() int32 { s.t.Helper(); s.t.Fatal("unexpected draw"); return 0 }

type draw int32

func (d draw) NextInt() int32 { return int32(d) }

func TestIsolationIsTenMinutesAndClientErrorsIsolate(t *testing.T) {
	s := NewStrategy(noDraw{t})
	s.SendLatencyFaultEnable = true
	if err := s.UpdateFaultItem("broker-a", 3, true, 1000); err != nil {
		t.Fatal(err)
	}
	it, _ := s.Tolerance.Item("broker-a")
	if it.StartTimestamp != 1000+600000 || it.CurrentLatency != 3 {
		t.Errorf("item %+v, want available again at 601000 with the real latency 3", it)
	}
	if s.Tolerance.IsAvailable("broker-a", 600999) || !s.Tolerance.IsAvailable("broker-a", 601000) {
		t.Error("available exactly at the deadline, not before")
	}
	// Every update overwrites the deadline: a fast success lifts the isolation.
	s.UpdateFaultItem("broker-a", 20, false, 2000)
	if !s.Tolerance.IsAvailable("broker-a", 2000) {
		t.Error("a fast success must lift the isolation at once")
	}
	off := NewStrategy(noDraw{t})
	off.UpdateFaultItem("broker-a", 3, true, 0)
	if _, ok := off.Tolerance.Item("broker-a"); ok {
		t.Error("latency mode off: updates are no-ops")
	}
}

func TestShortTableThrows(t *testing.T) {
	tb := Table{LatencyMax: []int64{50, 100, 550}, NotAvailableDuration: []int64{0, 0}}
	if _, err := tb.ComputeNotAvailableDuration(600); err == nil {
		t.Error("a lookup past notAvailableDuration must throw")
	}
	if d, err := tb.ComputeNotAvailableDuration(99); err != nil || d != 0 {
		t.Errorf("%d %v", d, err)
	}
}

func TestPickOneAtLeastRoundRobinsTheBetterHalf(t *testing.T) {
	tol := NewTolerance(noDraw{t})
	tol.WhichItemWorst.SetStored(0)
	for i, b := range []string{"d", "c", "b", "a"} { // latencies 4, 3, 2, 1, all isolated
		tol.UpdateFaultItem(b, int64(4-i), 60000, 0)
	}
	var got []string
	for range 4 {
		name, _ := tol.PickOneAtLeast(10)
		got = append(got, name)
	}
	// Sorted a b c d; half = 2; whichItemWorst 1, 2, 3, 4 → b a b a.
	if want := []string{"b", "a", "b", "a"}; !equal(got, want) {
		t.Errorf("picks %v, want %v", got, want)
	}
	one := NewTolerance(noDraw{t})
	one.UpdateFaultItem("x", 1, 0, 0)
	if name, ok := one.PickOneAtLeast(0); !ok || name != "x" {
		t.Error("a single item is returned without touching the index")
	}
	if _, ok := NewTolerance(noDraw{t}).PickOneAtLeast(0); ok {
		t.Error("an empty table gives null")
	}
}

func TestIndexHasNoResetAndAbsFirstDraw(t *testing.T) {
	x := NewThreadLocalIndex(draw(-7))
	if v := x.IncrementAndGet(); v != 8 {
		t.Errorf("first value %d, want abs(-7)+1 = 8", v)
	}
	m := NewThreadLocalIndex(draw(math.MinInt32))
	m.IncrementAndGet()
	if v, _ := m.Stored(); v != math.MinInt32+1 {
		t.Errorf("MinInt32 first draw stored %d, want MinInt32+1", v)
	}
}

func TestLatencyFallbackBuildsQueueFromRoute(t *testing.T) {
	var qs []route.MessageQueue
	for _, b := range []string{"a", "b"} {
		for id := range 2 {
			qs = append(qs, route.MessageQueue{Topic: "T", BrokerName: b, QueueID: int32(id)})
		}
	}
	rd := &route.TopicRouteData{QueueDatas: []route.QueueData{
		{BrokerName: "a", WriteQueueNums: 4, Perm: 6}, {BrokerName: "b", WriteQueueNums: 2, Perm: 6},
	}}
	tp := &TopicPublishInfo{Queues: qs, Route: rd, SendWhichQueue: NewThreadLocalIndex(noDraw{t})}
	tp.SendWhichQueue.SetStored(0)
	s := NewStrategy(noDraw{t})
	s.SendLatencyFaultEnable = true
	s.Tolerance.WhichItemWorst.SetStored(0)
	s.UpdateFaultItem("a", 2000, false, 0) // 120 s
	s.UpdateFaultItem("b", 1000, false, 0) // 60 s
	mq, sel, err := s.SelectOneMessageQueue(tp, nil, 10)
	if err != nil || !sel.Picked || sel.PickedName != "b" {
		t.Fatalf("%v %+v %v: want the fallback to pick b (lower latency)", mq, sel, err)
	}
	// Increments: 1 (walk), 2 (plain pick), 3 → queue id 3 % 2 = 1.
	if mq.BrokerName != "b" || mq.QueueID != 1 {
		t.Errorf("got %s, want b:1", mq.Short())
	}
	if v, _ := tp.SendWhichQueue.Stored(); v != 3 {
		t.Errorf("index %d, want 3", v)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A client exception isolates its broker for 10 minutes in 4.9 and the retry is told that
// broker; the next message skips it while isolated.
func TestSendLoopIsolatesClientExceptions(t *testing.T) {
	var qs []route.MessageQueue
	for _, b := range []string{"a", "b"} {
		qs = append(qs, route.MessageQueue{Topic: "T", BrokerName: b})
	}
	tp := &TopicPublishInfo{Queues: qs, Route: &route.TopicRouteData{}, SendWhichQueue: NewThreadLocalIndex(noDraw{t})}
	tp.SendWhichQueue.SetStored(-1) // first pick: index 0 → a
	s := NewStrategy(noDraw{t})
	s.SendLatencyFaultEnable = true
	send := NewSend(tp, s, DefaultRetryTimes, DefaultSendTimeout, 0)
	mq, _, ok, _ := send.Next(0)
	if !ok || mq.BrokerName != "a" {
		t.Fatalf("first attempt %v %v", mq, ok)
	}
	send.Report(ClientException, 5, 5)
	if s.Tolerance.IsAvailable("a", 5+599999) || send.Done() || *send.LastBrokerName() != "a" {
		t.Error("a client exception must isolate a for 10 minutes and retry")
	}
	mq, _, _, _ = send.Next(5)
	if mq.BrokerName != "b" {
		t.Errorf("retry went to %s, want b", mq.BrokerName)
	}
	send.Report(OK, 10, 15)
	if !send.Done() {
		t.Error("a success ends the message")
	}
	late := NewSend(tp, s, DefaultRetryTimes, DefaultSendTimeout, 0)
	if _, _, ok, _ := late.Next(3001); ok || !late.TimedOut() {
		t.Error("past the 3 s budget the attempt is selected but not sent")
	}
}
