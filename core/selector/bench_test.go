package selector_test

import (
	"fmt"
	"testing"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// bigTopic is 64 brokers × 16 queues with latency fault tolerance on and every eighth
// broker isolated, plus one unreachable.
func bigTopic() (*selector.TopicPublishInfo, *fault.MQFaultStrategy) {
	var qs []route.MessageQueue
	for b := range 64 {
		for q := range int32(16) {
			qs = append(qs, route.MessageQueue{Topic: "TopicTest", BrokerName: fmt.Sprintf("broker-%02d", b), QueueID: q})
		}
	}
	tp := selector.NewTopicPublishInfo(qs, jrand.New(1))
	s := fault.NewMQFaultStrategy(fault.DefaultTable())
	s.SetSendLatencyFaultEnable(true)
	for b := 0; b < 64; b += 8 {
		s.UpdateFaultItem(fmt.Sprintf("broker-%02d", b), 3000, true, true, 0)
	}
	s.UpdateFaultItem("broker-03", 10, false, false, 0)
	return tp, s
}

func BenchmarkSelectFaultTolerance(b *testing.B) {
	tp, s := bigTopic()
	last := selector.Last("broker-05")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SelectOneMessageQueue(tp, last, false, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

func TestSelectFaultToleranceDoesNotAllocate(t *testing.T) {
	tp, s := bigTopic()
	for _, last := range []selector.LastBroker{{}, selector.Last("broker-05")} {
		for _, reset := range []bool{false, true} {
			allocs := testing.AllocsPerRun(1000, func() {
				s.SelectOneMessageQueue(tp, last, reset, 1000)
			})
			if allocs != 0 {
				t.Errorf("last %v reset %v: %v allocations per pick; want 0", last, reset, allocs)
			}
		}
	}
}
