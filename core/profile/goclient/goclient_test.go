package goclient

import (
	"errors"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

func mqs(topic, broker string, ids ...int) []route.MessageQueue {
	var out []route.MessageQueue
	for _, id := range ids {
		out = append(out, route.MessageQueue{Topic: topic, BrokerName: broker, QueueID: int32(id)})
	}
	return out
}

func short(qs []route.MessageQueue) string {
	if qs == nil {
		return "null"
	}
	var parts []string
	for _, q := range qs {
		parts = append(parts, q.Short())
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// The worked example of spec §9.1.3: with 2 virtual nodes every queue of broker-a falls
// between the same two node hashes, so one consumer gets all four (Java splits them 2/2).
func TestConsistentHashWorkedExample(t *testing.T) {
	cids := []string{"192.168.0.3@12345", "192.168.0.4@12346"}
	all := mqs("TopicTest", "broker-a", 0, 1, 2, 3)
	for key, want := range map[string]uint32{
		"0192.168.0.4@12346": 62301392, "0192.168.0.3@12345": 1595460580,
		"1192.168.0.3@12345": 2957671685, "1192.168.0.4@12346": 3974369841,
		all[0].String(): 478125763, all[3].String(): 928173312,
	} {
		if got := RingHash(key); got != want {
			t.Errorf("RingHash(%q) = %d, want %d", key, got, want)
		}
	}
	s := ConsistentHash{VirtualNodeCnt: 2}
	a, _ := s.Allocate("g", cids[0], all, cids)
	b, _ := s.Allocate("g", cids[1], all, cids)
	if short(a) != "[broker-a:0 broker-a:1 broker-a:2 broker-a:3]" || short(b) != "[]" {
		t.Errorf("got %s / %s, want all four / []", short(a), short(b))
	}
	v := GroupView(s, "g", all, cids)
	if short(v.Assignments[0].Queues) != short(a) || short(v.Assignments[1].Queues) != short(b) {
		t.Errorf("GroupView %s / %s differs from the per-consumer calls", short(v.Assignments[0].Queues), short(v.Assignments[1].Queues))
	}
}

func TestConsistentHashZeroNodesPanicsOnlyPastTheGuard(t *testing.T) {
	all := mqs("T", "b", 0, 1)
	s := ConsistentHash{VirtualNodeCnt: 0}
	_, err := s.Allocate("g", "c1", all, []string{"c1"})
	var p *Panic
	if !errors.As(err, &p) || err.Error() != "panic: runtime error: integer divide by zero" {
		t.Fatalf("got %v, want the divide-by-zero panic", err)
	}
	if res, err := s.Allocate("g", "c1", nil, []string{"c1"}); res != nil || err != nil {
		t.Errorf("guarded call: %v %v, want nil without panic", res, err)
	}
	if res, err := (ConsistentHash{VirtualNodeCnt: -1}).Allocate("g", "c1", all, []string{"c1"}); err != nil || res == nil || len(res) != 0 {
		t.Errorf("negative count: %v %v, want [] (empty ring)", short(res), err)
	}
	v := GroupView(s, "g", all, []string{"c1", "c2"})
	for _, a := range v.Assignments {
		if !errors.As(a.Err, &p) {
			t.Errorf("%s: %v, want a panic for every member", a.ClientID, a.Err)
		}
	}
}

// Identical node keys from the concatenation (spec §9.1.3): the id added later owns them.
func TestRingLaterAddWins(t *testing.T) {
	r, err := NewRing([]string{"12.168.1.10@1", "2.168.1.10@1"}, 12)
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 23 {
		t.Errorf("%d nodes, want 23 (one key shared)", r.Len())
	}
	h := RingHash("112.168.1.10@1")
	hashes, owners := r.Nodes()
	for i, x := range hashes {
		if x == h && owners[i] != "2.168.1.10@1" {
			t.Errorf("shared node owned by %s, want the later id", owners[i])
		}
	}
	dup, _ := NewRing([]string{"a@1", "a@1"}, 5)
	if dup.Len() != 5 {
		t.Errorf("a duplicated id made %d nodes, want 5", dup.Len())
	}
}

func TestGuardGivesNil(t *testing.T) {
	all := mqs("T", "b", 0, 1, 2)
	for _, s := range []Strategy{Averagely{}, AveragelyByCircle{}, ConsistentHash{VirtualNodeCnt: 10}, ByMachineRoom{}, MachineNearby{}} {
		for _, in := range []struct {
			cid  string
			mq   []route.MessageQueue
			cids []string
		}{{"", all, []string{"c1"}}, {"c1", nil, []string{"c1"}}, {"c1", all, nil}, {"c9", all, []string{"c1"}}} {
			if res, err := s.Allocate("g", in.cid, in.mq, in.cids); res != nil || err != nil {
				t.Errorf("%s(%q, %d queues, %v) = %s %v, want nil", s.Name(), in.cid, len(in.mq), in.cids, short(res), err)
			}
		}
	}
	if res, _ := (Averagely{}).Allocate("g", "c3", all[:1], []string{"c1", "c2", "c3"}); res == nil || len(res) != 0 {
		t.Errorf("AVG past the queues = %s, want []", short(res))
	}
}

// The worked example of spec §9.1.3: consumeridcs [room2] hands out room1 queues.
func TestMachineRoomReadsTheBlockFromMQAll(t *testing.T) {
	all := append(mqs("topic", "room1@broker-a", 0, 1, 2, 3, 4), mqs("topic", "room2@broker-b", 5, 6, 7, 8, 9)...)
	cids := []string{"CID_PREFIX0", "CID_PREFIX1"}
	s := ByMachineRoom{ConsumerIDCs: []string{"room2"}}
	a, _ := s.Allocate("g", cids[0], all, cids)
	b, _ := s.Allocate("g", cids[1], all, cids)
	if short(a) != "[room1@broker-a:0 room1@broker-a:1 room2@broker-b:9]" || short(b) != "[room1@broker-a:2 room1@broker-a:3]" {
		t.Errorf("got %s / %s", short(a), short(b))
	}
	// A room listed three times makes the block run past mqAll.
	small := mqs("t", "r@b", 0, 1)
	_, err := ByMachineRoom{ConsumerIDCs: []string{"r", "r", "r"}}.Allocate("g", "c1", small, []string{"c1"})
	if err == nil || err.Error() != "panic: runtime error: index out of range [2] with length 2" {
		t.Errorf("got %v, want index out of range [2] with length 2", err)
	}
	// strings.Split keeps empty pieces: "room1@" is room1; three pieces never match.
	odd := append(mqs("t", "room1@", 0), mqs("t", "room1@b@c", 0)...)
	res, _ := ByMachineRoom{ConsumerIDCs: []string{"room1"}}.Allocate("g", "c1", odd, []string{"c1"})
	if short(res) != "[room1@:0]" {
		t.Errorf("got %s, want [room1@:0]", short(res))
	}
}

func TestDoBalanceSortsByBytesAndDropsOnEmptyAnswer(t *testing.T) {
	sub := append(mqs("T", "\uff21-broker", 0), mqs("T", "z-broker", 0)...)
	sub = append(sub, mqs("T", "\U0001F600-broker", 0)...)
	r := DoBalance(Averagely{}, "g", "c1", sub, []string{"c2", "c1"})
	if short(r.SortedMQAll) != "[z-broker:0 \uff21-broker:0 \U0001F600-broker:0]" || r.SortedCIDAll[0] != "c1" {
		t.Errorf("sorted %s %v", short(r.SortedMQAll), r.SortedCIDAll)
	}
	if sub[0].BrokerName != "\uff21-broker" {
		t.Error("DoBalance modified its input")
	}
	if r := DoBalance(Averagely{}, "g", "c1", sub, ParseConsumerList(true, nil)); r.Skipped || r.Result != nil {
		t.Errorf("an error answer: %+v, want a round that owns nothing", r)
	}
	if r := DoBalance(Averagely{}, "g", "c1", sub, ParseConsumerList(false, nil)); !r.Skipped {
		t.Error("a transport error must skip the topic")
	}
}

func TestClientID(t *testing.T) {
	for _, tt := range []struct{ ip, inst, unit, want string }{
		{"10.0.0.5", "DEFAULT", "", "10.0.0.5@4242"},
		{"10.0.0.5", "myInstance", "", "10.0.0.5@myInstance"},
		{"10.0.0.5", "DEFAULT", "unitA", "10.0.0.5@4242@unitA"},
		{"", "DEFAULT", "", "@4242"},
	} {
		if got := ClientID(tt.ip, tt.inst, tt.unit, 4242); got != tt.want {
			t.Errorf("ClientID(%q, %q, %q) = %q, want %q", tt.ip, tt.inst, tt.unit, got, tt.want)
		}
	}
}

func TestRoundRobin(t *testing.T) {
	qs := append(mqs("T", "a", 0, 1, 2, 3), mqs("T", "b", 0, 1, 2, 3)...)
	rr := NewRoundRobin()
	first, _ := rr.Select("T", "", qs, "")
	if first.Short() != "a:1" {
		t.Errorf("first pick %s, want a:1", first.Short())
	}
	rr.SetCounter("T", 4294967295)
	wrapped, _ := rr.Select("T", "", qs, "")
	if c, _ := rr.Counter("T"); c != 0 || wrapped.Short() != "a:0" {
		t.Errorf("after the wrap: counter %d pick %s, want 0 a:0", c, wrapped.Short())
	}
	// SYNC passes "" every attempt: four attempts from a fresh counter go a1 a2 a3 b0.
	rr = NewRoundRobin()
	send := NewSend(SendSync, DefaultRetryTimes)
	var got []string
	for {
		_, last, ok := send.Next()
		if !ok {
			break
		}
		mq, _ := rr.Select("T", "", qs, last)
		got = append(got, mq.Short())
		send.Report(mq.BrokerName, AttemptTransportError)
	}
	if strings.Join(got, " ") != "a:1 a:2 a:3 b:0" {
		t.Errorf("SYNC attempts %v, want a:1 a:2 a:3 b:0", got)
	}
	if _, err := rr.Select("T", "", nil, ""); err == nil {
		t.Error("an empty list must panic")
	}
}

func TestPublishListPasses(t *testing.T) {
	rd := &route.TopicRouteData{}
	for _, b := range []string{"b1", "b2", "b3"} {
		rd.QueueDatas = append(rd.QueueDatas, route.QueueData{BrokerName: b, WriteQueueNums: 1, ReadQueueNums: 1, Perm: 6})
		rd.BrokerDatas = append(rd.BrokerDatas, route.BrokerData{BrokerName: b, BrokerAddrs: map[int64]string{0: "x"}})
	}
	rd.BrokerDatas[1].BrokerAddrs = map[int64]string{1: "replica only"}
	one, _ := RouteAlreadyCached.Passes()
	two, _ := FirstSend.Passes()
	if got := short(PublishList("T", rd, one)); got != "[b3:0 b1:0]" {
		t.Errorf("one pass: %s, want reversed without b2 (no master)", got)
	}
	if got := short(PublishList("T", rd, two)); got != "[b1:0 b3:0]" {
		t.Errorf("two passes: %s, want name-server order", got)
	}
	if rd.QueueDatas[0].BrokerName != "b1" {
		t.Error("PublishList modified the route")
	}
}
