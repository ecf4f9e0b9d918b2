package fault

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

type fixedSource struct{ reset int32 }

func (fixedSource) NextInt() int32               { return 0 }
func (s fixedSource) NextIntn(bound int32) int32 { return s.reset }

func publishInfo(start int32, spec ...string) *selector.TopicPublishInfo {
	var qs []route.MessageQueue
	for _, s := range spec {
		name, count, _ := strings.Cut(s, ":")
		var n int32
		fmt.Sscan(count, &n)
		for i := range n {
			qs = append(qs, route.MessageQueue{Topic: "TopicTest", BrokerName: name, QueueID: i})
		}
	}
	tp := selector.NewTopicPublishInfo(qs, fixedSource{reset: 100})
	tp.SendWhichQueue().SetStored(start)
	return tp
}

func stored(tp *selector.TopicPublishInfo) int32 {
	v, _ := tp.SendWhichQueue().Stored()
	return v
}

func TestUpdateFaultItemNoOpWhenDisabled(t *testing.T) {
	s := NewMQFaultStrategy(DefaultTable())
	if s.SendLatencyFaultEnable() || s.StartDetectorEnable() {
		t.Fatalf("both switches must default to off")
	}
	s.UpdateFaultItem("broker-a", 20000, true, false, 0)
	if len(s.FaultItems()) != 0 || !s.IsAvailable("broker-a", 0) || !s.IsReachable("broker-a") {
		t.Errorf("an update with the switch off changed the fault table")
	}
}

func TestIsolationSubstitutionKeepsRealLatency(t *testing.T) {
	tests := []struct {
		table        Table
		latency      int64
		wantDeadline int64
	}{
		{DefaultTable(), 5, 1000 + 10000},
		{DefaultTable(), 20000, 1000 + 10000}, // isolation uses 10000 even for a slower call
		{LegacyTable(), 5, 1000 + 600000},
	}
	for _, tt := range tests {
		s := NewMQFaultStrategy(tt.table)
		s.SetSendLatencyFaultEnable(true)
		s.UpdateFaultItem("broker-a", tt.latency, true, false, 1000)
		it, ok := s.FaultItem("broker-a")
		if !ok || it.CurrentLatency != tt.latency || it.StartTimestamp != tt.wantDeadline || it.ReachableFlag {
			t.Errorf("%s latency %d: got %+v; want latency %d, deadline %d, unreachable", tt.table.Name(), tt.latency, it, tt.latency, tt.wantDeadline)
		}
	}
}

func TestSetStartDetectorEnableReachesTheTolerance(t *testing.T) {
	s := NewMQFaultStrategy(DefaultTable())
	s.SetSendLatencyFaultEnable(true)
	s.UpdateFaultItem("broker-a", 10, false, false, 0)
	revive := func(string, int64) (bool, bool) { return true, true }
	s.DetectTask(3000, revive)
	if s.IsReachable("broker-a") {
		t.Fatalf("the detector ran while disabled")
	}
	s.SetStartDetectorEnable(true)
	s.DetectTask(6000, revive)
	if !s.IsReachable("broker-a") {
		t.Errorf("the detector did not revive the broker once enabled")
	}
}

func TestSelectLatencyModeFallbacks(t *testing.T) {
	tests := []struct {
		name       string
		faults     func(s *MQFaultStrategy)
		last       selector.LastBroker
		want       string
		wantStored int32
	}{
		{"no-faults", func(*MQFaultStrategy) {}, selector.LastBroker{}, "broker-a:1", 1},
		{"isolated-skipped", func(s *MQFaultStrategy) { s.UpdateFaultItem("broker-a", 3000, false, true, 0) },
			selector.LastBroker{}, "broker-b:0", 3},
		{"last-broker-avoided", func(*MQFaultStrategy) {}, selector.Last("broker-a"), "broker-b:0", 3},
		// Every broker unavailable: the reachable pass takes over (n+k increments).
		{"reachable-pass", func(s *MQFaultStrategy) {
			s.UpdateFaultItem("broker-a", 3000, false, true, 0)
			s.UpdateFaultItem("broker-b", 3000, false, false, 0)
		}, selector.LastBroker{}, "broker-a:1", 6 + 1},
		// Unavailable and unreachable everywhere: 2n increments, then a plain pick (2n+1).
		{"plain-fallback", func(s *MQFaultStrategy) {
			s.UpdateFaultItem("broker-a", 0, true, false, 0)
			s.UpdateFaultItem("broker-b", 9000, false, false, 0)
		}, selector.LastBroker{}, "broker-a:1", 2*6 + 1},
		// The plain fallback ignores lastBrokerName.
		{"plain-fallback-ignores-last", func(s *MQFaultStrategy) {
			s.UpdateFaultItem("broker-a", 0, true, false, 0)
			s.UpdateFaultItem("broker-b", 9000, false, false, 0)
		}, selector.Last("broker-a"), "broker-a:1", 2*6 + 1},
		// The only reachable broker is the last one: the brokerFilter rejects it in both passes.
		{"last-is-only-reachable", func(s *MQFaultStrategy) {
			s.UpdateFaultItem("broker-a", 3000, false, true, 0)
			s.UpdateFaultItem("broker-b", 3000, false, false, 0)
		}, selector.Last("broker-a"), "broker-a:1", 2*6 + 1},
	}
	for _, tt := range tests {
		s := NewMQFaultStrategy(DefaultTable())
		s.SetSendLatencyFaultEnable(true)
		tt.faults(s)
		tp := publishInfo(0, "broker-a:3", "broker-b:3")
		mq, err := s.SelectOneMessageQueue(tp, tt.last, false, 0)
		if err != nil || mq.Short() != tt.want || stored(tp) != tt.wantStored {
			t.Errorf("%s: got %s, %v, stored %d; want %s, stored %d", tt.name, mq.Short(), err, stored(tp), tt.want, tt.wantStored)
		}
	}
}

func TestSelectResetIndexOnlyInLatencyMode(t *testing.T) {
	for _, latency := range []bool{false, true} {
		s := NewMQFaultStrategy(DefaultTable())
		s.SetSendLatencyFaultEnable(latency)
		tp := publishInfo(7, "broker-a:3", "broker-b:3")
		s.SelectOneMessageQueue(tp, selector.LastBroker{}, true, 0)
		want := int32(8)
		if latency {
			want = 101 // reset stored 100, then the first pass took one step
		}
		if got := stored(tp); got != want {
			t.Errorf("latency mode %v: stored %d; want %d", latency, got, want)
		}
	}
}

func TestSelectDefaultModeAvoidsLastBroker(t *testing.T) {
	s := NewMQFaultStrategy(DefaultTable())
	// Faults are not consulted with the switch off, even if the table has some.
	s.SetSendLatencyFaultEnable(true)
	s.UpdateFaultItem("broker-b", 0, true, false, 0)
	s.SetSendLatencyFaultEnable(false)
	tp := publishInfo(2, "broker-a:3", "broker-b:3")
	mq, _ := s.SelectOneMessageQueue(tp, selector.Last("broker-a"), false, 0)
	if mq.Short() != "broker-b:0" || stored(tp) != 3 {
		t.Errorf("got %s stored %d; want broker-b:0 stored 3", mq.Short(), stored(tp))
	}
	// Single-broker topic: the filtered pass fails (n increments), the plain pick reuses it.
	tp = publishInfo(0, "broker-a:4")
	mq, _ = s.SelectOneMessageQueue(tp, selector.Last("broker-a"), false, 0)
	if mq.Short() != "broker-a:1" || stored(tp) != 5 {
		t.Errorf("single broker: got %s stored %d; want broker-a:1 stored 5", mq.Short(), stored(tp))
	}
}

func TestSelectEmptyListDividesByZero(t *testing.T) {
	for _, latency := range []bool{false, true} {
		s := NewMQFaultStrategy(DefaultTable())
		s.SetSendLatencyFaultEnable(latency)
		tp := publishInfo(0)
		_, err := s.SelectOneMessageQueue(tp, selector.Last("broker-a"), false, 0)
		if !errors.Is(err, selector.ErrDivideByZero) || stored(tp) != 1 {
			t.Errorf("latency %v: got %v stored %d; want / by zero, stored 1", latency, err, stored(tp))
		}
	}
}

func TestIsolationExpiresInVirtualTime(t *testing.T) {
	s := NewMQFaultStrategy(DefaultTable())
	s.SetSendLatencyFaultEnable(true)
	s.UpdateFaultItem("broker-a", 600, false, true, 1000) // 2000 ms
	tp := publishInfo(-1, "broker-a:1", "broker-b:1")
	if mq, _ := s.SelectOneMessageQueue(tp, selector.LastBroker{}, false, 2999); mq.BrokerName != "broker-b" {
		t.Errorf("at 2999 got %s; want broker-b", mq.Short())
	}
	tp.SendWhichQueue().SetStored(-1)
	if mq, _ := s.SelectOneMessageQueue(tp, selector.LastBroker{}, false, 3000); mq.BrokerName != "broker-a" {
		t.Errorf("at 3000 got %s; want broker-a again", mq.Short())
	}
}

func TestCloneIsIndependent(t *testing.T) {
	s := NewMQFaultStrategy(DefaultTable())
	s.SetSendLatencyFaultEnable(true)
	s.UpdateFaultItem("broker-a", 2000, false, true, 1000)
	c := s.Clone()
	if !c.SendLatencyFaultEnable() || c.IsAvailable("broker-a", 1001) != s.IsAvailable("broker-a", 1001) {
		t.Fatalf("the clone lost the switch or the fault item: items %v, want %v", c.FaultItems(), s.FaultItems())
	}
	// Isolate broker-b on the original only, and extend broker-a on the clone only.
	s.UpdateFaultItem("broker-b", 0, true, false, 1000)
	c.UpdateFaultItem("broker-a", 6000, false, true, 2000)
	if _, ok := c.FaultItem("broker-b"); ok {
		t.Errorf("an update of the original reached the clone")
	}
	orig, _ := s.FaultItem("broker-a")
	cl, _ := c.FaultItem("broker-a")
	if orig.StartTimestamp == cl.StartTimestamp || orig.CurrentLatency != 2000 {
		t.Errorf("an update of the clone reached the original: original %+v, clone %+v", orig, cl)
	}
}
