package profile

import (
	"errors"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
)

func TestLookup(t *testing.T) {
	for in, want := range map[string]Name{"": Java, "java": Java, "GO": Go212, "go-2.1.2": Go212, "java-4.9": Java49, "java49": Java49} {
		p, err := Lookup(in)
		if err != nil || p.Name != want {
			t.Errorf("Lookup(%q) = %v, %v; want %s", in, p, err, want)
		}
	}
	if _, err := Lookup("python"); err == nil {
		t.Error("an unknown profile must be an error")
	}
	if p, ok := ByVectorClient("rocketmq-client-go/v2@v2.1.2"); !ok || p.Name != Go212 {
		t.Error("the Go vectors' client field names go-2.1.2")
	}
}

func TestStrategyPerProfile(t *testing.T) {
	java, _ := Lookup("java")
	gp, _ := Lookup("go")
	zero := 0
	js, err := java.Strategy("CONSISTENT_HASH", allocate.Params{VirtualNodeCnt: &zero})
	if err != nil {
		t.Fatal(err)
	}
	gs, err := gp.Strategy("CONSISTENT_HASH", allocate.Params{VirtualNodeCnt: &zero})
	if err != nil {
		t.Fatal(err)
	}
	all := []route.MessageQueue{{Topic: "T", BrokerName: "b", QueueID: 0}}
	if res, err := js.Allocate("g", "c1", all, []string{"c1"}); err != nil || len(res) != 0 {
		t.Errorf("Java with 0 nodes: %v %v, want an empty ring", res, err)
	}
	var p *goclient.Panic
	if _, err := gs.Allocate("g", "c1", all, []string{"c1"}); !errors.As(err, &p) {
		t.Errorf("Go with 0 nodes: %v, want a panic", err)
	}
	if _, err := gp.Strategy("MACHINE_ROOM_NEARBY-CONSISTENT_HASH", allocate.Params{}); err == nil {
		t.Error("the Go nearby strategy has no inner strategy to set")
	}
	if gp.Timing.Failure != FailureCrashesProcess || java.Timing.Failure != FailureRetryUnbalanced {
		t.Error("a Go strategy failure crashes the process; Java's is retried")
	}
}

func TestClientIDAndSort(t *testing.T) {
	java, _ := Lookup("java")
	gp, _ := Lookup("go")
	h := ClientHost{IP: "10.0.0.5", PID: 1, NanoTime: 918273645566}
	if got := java.ClientID(h); got != "10.0.0.5@1#918273645566" {
		t.Errorf("Java id %q", got)
	}
	if got := gp.ClientID(h); got != "10.0.0.5@1" || !gp.RestartKeepsID() || java.RestartKeepsID() {
		t.Errorf("Go id %q", got)
	}
	// U+FF21 against U+1F600: Java's UTF-16 order and Go's byte order disagree.
	ids := []string{"\U0001F600", "\uff21"}
	_, j := java.SortInputs(nil, ids)
	_, g := gp.SortInputs(nil, ids)
	if j[0] != "\U0001F600" || g[0] != "\uff21" || ids[0] != "\U0001F600" {
		t.Errorf("Java %q, Go %q", j, g)
	}
}

// The same failures decide differently per profile (spec §9.1.4's table).
func TestRebalancePerProfile(t *testing.T) {
	java, _ := Lookup("java")
	j49, _ := Lookup("java-4.9")
	gp, _ := Lookup("go")
	all := []route.MessageQueue{{Topic: "T", BrokerName: "b", QueueID: 1}, {Topic: "T", BrokerName: "b", QueueID: 0}}
	for _, p := range []*Profile{java, j49, gp} {
		s, _ := p.Strategy("AVG", allocate.Params{})
		// SYSTEM_ERROR from the broker: Java does nothing, Go drops everything.
		r := p.Rebalance(s, "g", "c1", all, p.ConsumerList(AnswerError, nil))
		if r.Decided != p.IsGo() || (p.IsGo() && len(r.Target) != 0) {
			t.Errorf("%s, error answer: %+v", p.Name, r)
		}
		// Zero readable queues: Java throws and keeps its table; Go drops.
		r = p.Rebalance(s, "g", "c1", []route.MessageQueue{}, []string{"c1"})
		if r.Decided != p.IsGo() || r.Unbalanced != (p.Name == Java) {
			t.Errorf("%s, no queues: %+v", p.Name, r)
		}
		// A transport error: nobody does anything.
		if r := p.Rebalance(s, "g", "c1", all, p.ConsumerList(AnswerTransport, nil)); r.Decided || r.Err != nil {
			t.Errorf("%s, transport error: %+v", p.Name, r)
		}
		// A normal round, sorted by the client.
		r = p.Rebalance(s, "g", "c1", all, []string{"c2", "c1"})
		if !r.Decided || len(r.Target) != 1 || r.Target[0].QueueID != 0 {
			t.Errorf("%s, normal round: %+v", p.Name, r)
		}
	}
	zero := 0
	s, _ := gp.Strategy("CONSISTENT_HASH", allocate.Params{VirtualNodeCnt: &zero})
	if r := gp.Rebalance(s, "g", "c1", all, []string{"c1"}); !r.Crash || r.Decided {
		t.Errorf("Go CONSISTENT_HASH(0): %+v, want a crash", r)
	}
}
