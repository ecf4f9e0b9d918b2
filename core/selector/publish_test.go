package selector_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// queues builds a publish list from "broker:count" pairs, e.g. queues("a:2", "b:3").
func queues(spec ...string) []route.MessageQueue {
	var qs []route.MessageQueue
	for _, s := range spec {
		var n int32
		name, count, _ := strings.Cut(s, ":")
		fmt.Sscan(count, &n)
		for i := range n {
			qs = append(qs, route.MessageQueue{Topic: "TopicTest", BrokerName: name, QueueID: i})
		}
	}
	return qs
}

func newInfo(start int32, spec ...string) *selector.TopicPublishInfo {
	tp := selector.NewTopicPublishInfo(queues(spec...), &fixedSource{})
	tp.SendWhichQueue().SetStored(start)
	return tp
}

func stored(tp *selector.TopicPublishInfo) int32 {
	v, _ := tp.SendWhichQueue().Stored()
	return v
}

// rejectAll records the positions a pass visits.
type recorder struct {
	list    []route.MessageQueue
	visited []int
	accept  func(route.MessageQueue) bool
}

func (r *recorder) Filter(mq route.MessageQueue) bool {
	r.visited = append(r.visited, slices.Index(r.list, mq))
	return r.accept(mq)
}

func TestPlainPick(t *testing.T) {
	// Recorded from Java (select.json plain/7q-odd/start=-5): stored -4 → 2147483644 % 7 = 5;
	// the masked counter restarts at 0 after -1 (2147483647), so the rotation jumps.
	tp := newInfo(-5, "broker-a:2", "broker-b:3", "broker-c:2")
	var got []string
	for range 6 {
		mq, err := tp.SelectOneMessageQueue()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, mq.Short())
	}
	want := []string{"broker-c:0", "broker-c:1", "broker-a:0", "broker-a:1", "broker-a:0", "broker-a:1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v; want %v", got, want)
	}
	if s := stored(tp); s != 1 {
		t.Errorf("stored %d; want 1", s)
	}
}

func TestPlainPickEmptyListIncrementsThenDividesByZero(t *testing.T) {
	tp := newInfo(0)
	_, err := tp.SelectOneMessageQueue()
	if !errors.Is(err, selector.ErrDivideByZero) {
		t.Errorf("got error %v; want / by zero", err)
	}
	if s := stored(tp); s != 1 {
		t.Errorf("stored %d; want 1 (incremented before the division)", s)
	}
	if tp.Ok() {
		t.Errorf("Ok() on an empty list = true")
	}
}

func TestFailedFilteredPassAdvancesByN(t *testing.T) {
	reject := &recorder{accept: func(route.MessageQueue) bool { return false }}
	for n := 1; n <= 9; n++ {
		for _, start := range []int32{0, 4, -1, -5, -2147483646, math.MinInt32, 2147483640, math.MaxInt32 - 1, math.MaxInt32} {
			tp := newInfo(start, fmt.Sprintf("broker-a:%d", n))
			if _, ok := tp.SelectFiltered(reject); ok {
				t.Fatalf("n=%d start=%d: a rejecting filter accepted", n, start)
			}
			if got, want := stored(tp), start+int32(n); got != want {
				t.Errorf("n=%d start=%d: stored %d; want %d", n, start, got, want)
			}
		}
	}
}

func TestFilteredPassAcrossWrapRevisits(t *testing.T) {
	// Spec §2.2: with n=3 the masked counter 2147483646, 2147483647, 0, 1, 2 visits
	// positions 0,1,0 in the first pass and 1,2 in the second.
	list := queues("broker-a:1", "broker-b:1", "broker-c:1")
	tp := selector.NewTopicPublishInfo(list, &fixedSource{})
	tp.SendWhichQueue().SetStored(math.MaxInt32 - 2)
	r := &recorder{list: list, accept: func(mq route.MessageQueue) bool { return mq.BrokerName == "broker-c" }}
	if _, ok := tp.SelectFiltered(r); ok {
		t.Fatalf("first pass found broker-c; want it missed across the wrap")
	}
	mq, ok := tp.SelectFiltered(r)
	if !ok || mq.BrokerName != "broker-c" {
		t.Fatalf("second pass got %v, %v; want broker-c", mq, ok)
	}
	if want := []int{0, 1, 0, 1, 2}; !slices.Equal(r.visited, want) {
		t.Errorf("visited %v; want %v", r.visited, want)
	}
}

func TestFilteredPassEvaluatesEveryFilter(t *testing.T) {
	list := queues("broker-a:2")
	tp := selector.NewTopicPublishInfo(list, &fixedSource{})
	tp.SendWhichQueue().SetStored(0)
	first := &recorder{list: list, accept: func(route.MessageQueue) bool { return false }}
	second := &recorder{list: list, accept: func(route.MessageQueue) bool { return true }}
	tp.SelectFiltered(first, second)
	if len(first.visited) != 2 || len(second.visited) != 2 {
		t.Errorf("filters ran %d and %d times; want 2 and 2 (no short-circuit)", len(first.visited), len(second.visited))
	}
}

func TestFilteredPickEdgeCases(t *testing.T) {
	// Empty list: null without touching the index, even an unset one.
	tp := selector.NewTopicPublishInfo(nil, &fixedSource{first: 99})
	reject := &recorder{accept: func(route.MessageQueue) bool { return false }}
	if _, ok := tp.SelectFiltered(reject); ok {
		t.Errorf("empty list: got a queue")
	}
	if _, set := tp.SendWhichQueue().Stored(); set {
		t.Errorf("empty list: index touched; want untouched")
	}
	// No filters: a plain pick.
	tp = newInfo(2, "broker-a:2", "broker-b:2")
	mq, ok := tp.SelectFiltered()
	if !ok || mq.Short() != "broker-b:1" || stored(tp) != 3 {
		t.Errorf("no filters: got %v, %v, stored %d; want broker-b:1, stored 3", mq.Short(), ok, stored(tp))
	}
}

func TestSelectAvoiding(t *testing.T) {
	tests := []struct {
		name       string
		start      int32
		spec       []string
		last       selector.LastBroker
		want       string
		wantStored int32
	}{
		// All on the last broker: n plain picks, then one more (n+1 increments).
		{"single-broker", 0, []string{"broker-a:4"}, selector.Last("broker-a"), "broker-a:1", 5},
		{"avoids-last", 0, []string{"broker-a:2", "broker-b:2"}, selector.Last("broker-a"), "broker-b:0", 2},
		{"null-is-plain", 0, []string{"broker-a:2", "broker-b:2"}, selector.LastBroker{}, "broker-a:1", 1},
		{"empty-name-is-not-null", 0, []string{"broker-a:2"}, selector.Last(""), "broker-a:1", 1},
		{"case-sensitive", 0, []string{"broker-a:2"}, selector.Last("BROKER-A"), "broker-a:1", 1},
		{"negative-start", -3, []string{"broker-a:3", "broker-b:1"}, selector.Last("broker-a"), "broker-b:0", -1},
	}
	for _, tt := range tests {
		tp := newInfo(tt.start, tt.spec...)
		mq, err := tp.SelectAvoiding(tt.last)
		if err != nil || mq.Short() != tt.want || stored(tp) != tt.wantStored {
			t.Errorf("%s: got %s, %v, stored %d; want %s, stored %d", tt.name, mq.Short(), err, stored(tp), tt.want, tt.wantStored)
		}
	}
	tp := newInfo(0)
	if _, err := tp.SelectAvoiding(selector.Last("broker-a")); !errors.Is(err, selector.ErrDivideByZero) {
		t.Errorf("empty list: got %v; want / by zero", err)
	}
}

func TestResetIndex(t *testing.T) {
	tp := selector.NewTopicPublishInfo(queues("broker-a:3"), &fixedSource{reset: 10})
	tp.ResetIndex()
	if s := stored(tp); s != 10 {
		t.Errorf("stored %d after reset; want 10", s)
	}
}

func TestNewTopicPublishInfoCopiesList(t *testing.T) {
	list := queues("broker-a:2")
	tp := selector.NewTopicPublishInfo(list, &fixedSource{})
	list[0].BrokerName = "changed"
	got := tp.MessageQueueList()
	got[1].BrokerName = "changed"
	if l := tp.MessageQueueList(); l[0].BrokerName != "broker-a" || l[1].BrokerName != "broker-a" {
		t.Errorf("publish list changed through a caller's slice: %v", l)
	}
}

func master(name string) route.BrokerData {
	return route.BrokerData{Cluster: "c", BrokerName: name, BrokerAddrs: map[int64]string{0: name + ":10911", 1: name + "-s:10911"}}
}

func TestTopicPublishInfoFromRoute(t *testing.T) {
	rw := route.PermRead | route.PermWrite
	rd := &route.TopicRouteData{
		QueueDatas: []route.QueueData{
			{BrokerName: "broker-b", ReadQueueNums: 4, WriteQueueNums: 2, Perm: rw},
			{BrokerName: "broker-a-1", ReadQueueNums: 1, WriteQueueNums: 1, Perm: rw},
			{BrokerName: "broker-A", ReadQueueNums: 1, WriteQueueNums: 1, Perm: rw},
			{BrokerName: "broker-a", ReadQueueNums: 2, WriteQueueNums: 2, Perm: rw},
			{BrokerName: "broker-ro", ReadQueueNums: 2, WriteQueueNums: 2, Perm: route.PermRead},
			{BrokerName: "broker-noslave", ReadQueueNums: 1, WriteQueueNums: 1, Perm: rw},
			{BrokerName: "broker-gone", ReadQueueNums: 1, WriteQueueNums: 1, Perm: rw},
		},
		BrokerDatas: []route.BrokerData{
			master("broker-a"), master("broker-b"), master("broker-a-1"), master("broker-A"), master("broker-ro"),
			{BrokerName: "broker-noslave", BrokerAddrs: map[int64]string{1: "x:1"}},
		},
	}
	tp, err := selector.TopicPublishInfoFromRoute("T", rd, &fixedSource{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mq := range tp.MessageQueueList() {
		got = append(got, mq.Short())
	}
	// Java string order (broker-A < broker-a < broker-a-1 < broker-b); read-only, slave-only
	// and unknown brokers left out.
	want := []string{"broker-A:0", "broker-a:0", "broker-a:1", "broker-a-1:0", "broker-b:0", "broker-b:1"}
	if !slices.Equal(got, want) {
		t.Errorf("publish list %v; want %v", got, want)
	}
	if tp.OrderTopic() {
		t.Errorf("OrderTopic() = true for a plain route")
	}
	if n := tp.WriteQueueNumsByBroker("broker-b"); n != 2 {
		t.Errorf("WriteQueueNumsByBroker(broker-b) = %d; want 2", n)
	}
	if n := tp.WriteQueueNumsByBroker("nope"); n != -1 {
		t.Errorf("WriteQueueNumsByBroker(nope) = %d; want -1", n)
	}

	sub := rd.SubscribeQueues("T")
	got = got[:0]
	for _, mq := range sub {
		got = append(got, mq.Short())
	}
	want = []string{"broker-A:0", "broker-a:0", "broker-a:1", "broker-a-1:0", "broker-b:0", "broker-b:1", "broker-b:2", "broker-b:3",
		"broker-gone:0", "broker-noslave:0", "broker-ro:0", "broker-ro:1"}
	if !slices.Equal(got, want) {
		t.Errorf("subscribe set %v; want %v", got, want)
	}
}

func TestTopicPublishInfoFromOrderTopicConf(t *testing.T) {
	rd := &route.TopicRouteData{OrderTopicConf: "broker-b:2;broker-a:1;"}
	tp, err := selector.TopicPublishInfoFromRoute("T", rd, &fixedSource{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, mq := range tp.MessageQueueList() {
		got = append(got, mq.Short())
	}
	if want := []string{"broker-b:0", "broker-b:1", "broker-a:0"}; !slices.Equal(got, want) || !tp.OrderTopic() {
		t.Errorf("got %v (order %v); want %v in text order", got, tp.OrderTopic(), want)
	}
	for _, bad := range []string{"broker-a", "broker-a:x", "broker-a:1;;broker-b:1", ";broker-a:1"} {
		rd := &route.TopicRouteData{OrderTopicConf: bad}
		if _, err := selector.TopicPublishInfoFromRoute("T", rd, &fixedSource{}); err == nil {
			t.Errorf("orderTopicConf %q: no error", bad)
		}
	}
}

func TestClonePicksTheSameQueuesIndependently(t *testing.T) {
	tp := newInfo(math.MaxInt32-1, "a:2", "b:3") // the next picks wrap around int32
	c := tp.Clone(&fixedSource{})
	for i := range 4 {
		want, err1 := tp.SelectOneMessageQueue()
		got, err2 := c.SelectOneMessageQueue()
		if err1 != nil || err2 != nil || got != want {
			t.Fatalf("pick %d: clone %v (%v), original %v (%v)", i, got, err2, want, err1)
		}
	}
	tp.SelectOneMessageQueue()
	if stored(tp) == stored(c) {
		t.Errorf("a pick on the original moved the clone's index too (both %d)", stored(c))
	}
}
