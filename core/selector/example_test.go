package selector_test

import (
	"fmt"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// A SYNC send with latency fault tolerance on: broker-a times out, the retry goes to
// another broker, and broker-a stays isolated for 10 s (spec §2.5, §2.3).
func ExampleSendSync() {
	var qs []route.MessageQueue
	for _, b := range []string{"broker-a", "broker-b"} {
		for q := range int32(2) {
			qs = append(qs, route.MessageQueue{Topic: "TopicTest", BrokerName: b, QueueID: q})
		}
	}
	tp := selector.NewTopicPublishInfo(qs, jrand.New(42))
	tp.SendWhichQueue().SetStored(0) // pin the random start for the example
	strategy := fault.NewMQFaultStrategy(fault.DefaultTable())
	strategy.SetSendLatencyFaultEnable(true)

	res, err := selector.SendSync(tp, strategy, selector.DefaultSendConfig(), 1000,
		func(mq route.MessageQueue, timeout int64) selector.AttemptResult {
			if mq.BrokerName == "broker-a" {
				return selector.AttemptResult{Outcome: selector.OutcomeRemotingException, Elapsed: timeout}
			}
			return selector.AttemptResult{Outcome: selector.OutcomeOK, Elapsed: 4}
		})
	for _, a := range res.Attempts {
		fmt.Println(a.Queue.Short(), a.Result.Outcome, a.Result.Elapsed, "ms")
	}
	fmt.Println("answered by", res.Queue.Short(), err)
	it, _ := strategy.FaultItem("broker-a")
	fmt.Println("broker-a isolated until", it.StartTimestamp)
	// Output:
	// broker-a:1 REMOTING_EXCEPTION 3000 ms
	// broker-b:1 OK 4 ms
	// answered by broker-b:1 <nil>
	// broker-a isolated until 14000
}
