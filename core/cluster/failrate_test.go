package cluster

import (
	"maps"
	"strings"
	"testing"
)

// setFailRate changes one member's listener from the moment it is applied: a member that
// consumed everything starts sending messages back (spec §3.15), and set back to 0 it stops,
// while the others' deliveries never fail; a restart keeps the rate, as a redeploy of the same
// listener would.
func TestSetFailRateChangesOneMembersListener(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Groups = []GroupConfig{{Name: "G"}} // with its retry topic (spec §3.14)
	c := mustNew(t, cfg)
	c.Advance(30000)
	if m := c.Metrics(); m.Retried != 0 {
		t.Fatalf("retried %d before any listener fails; want 0", m.Retried)
	}
	all, none := 100, 0
	mustApply(t, c, Command{Type: "setFailRate", ID: "c2", FailPercent: &all})
	c.Advance(60000)
	failing := c.Metrics().Retried
	if failing == 0 {
		t.Fatalf("c2 fails every delivery and nothing was sent back")
	}
	mustApply(t, c, Command{Type: "stopConsumer", ID: "c2"})
	mustApply(t, c, Command{Type: "restartConsumer", ID: "c2"})
	c.Advance(120000)
	restarted := c.Metrics().Retried
	if restarted <= failing {
		t.Errorf("retried %d after c2's restart, %d before; want its listener to keep failing", restarted, failing)
	}
	mustApply(t, c, Command{Type: "setFailRate", ID: "c2", FailPercent: &none})
	c.Advance(121000) // what was handed before it is consumed
	settled := c.Metrics().Retried
	c.Advance(180000)
	if m := c.Metrics(); m.Retried != settled {
		t.Errorf("retried went from %d to %d after c2's rate was set to 0; want no more", settled, m.Retried)
	}
	if err := c.Apply(Command{Type: "setFailRate", ID: "c9", FailPercent: &all}); err == nil {
		t.Errorf("setFailRate of an unknown consumer: no error")
	}
}

// setAutoscale arms a group's autoscaler while the run goes on: each reading (every 15 s, from
// one period after the command) starts a member while the backlog stays above the rule, never
// beyond maxMembers; a rule given again replaces the old one rather than adding readings; and
// maxMembers 0 turns it off.
func TestSetAutoscaleArmsReplacesAndStops(t *testing.T) {
	cfg := Config{Seed: 1, Brokers: []BrokerConfig{{Name: "broker-a", Queues: 8}},
		Groups:    []GroupConfig{{Name: "G"}},
		Consumers: []ConsumerConfig{{ID: "c1", ConsumeRate: 50}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 400}}}
	c := mustNew(t, cfg)
	var starts []int64
	c.SetObserver(func(e Event) {
		if e.Cause == CauseAutoscale && e.Arg == "start" {
			starts = append(starts, c.Now())
		}
	})
	above, most, off := 100, 3, 0
	c.Advance(10000)
	mustApply(t, c, Command{Type: "setAutoscale", OutAbove: &above, MaxMembers: &most})
	c.Advance(12000)
	mustApply(t, c, Command{Type: "setAutoscale", OutAbove: &above, MaxMembers: &most})
	c.Advance(70000)
	if len(starts) != 2 || starts[0] != 27000 || starts[1] != 42000 {
		t.Fatalf("autoscaler started members at %v; want at 27 s and 42 s (one a reading of the rule given again at 12 s, up to 3 members)", starts)
	}
	more := 6
	mustApply(t, c, Command{Type: "setAutoscale", OutAbove: &above, MaxMembers: &more})
	mustApply(t, c, Command{Type: "setAutoscale", OutAbove: &above, MaxMembers: &off})
	c.Advance(200000)
	if len(starts) != 2 {
		t.Errorf("autoscaler started members at %v after it was turned off at 70 s", starts)
	}
	bad := 2
	if err := c.Apply(Command{Type: "setAutoscale", OutAbove: &above, MaxMembers: &most, MinMembers: &more, InBelow: &bad}); err == nil {
		t.Errorf("setAutoscale with minMembers above maxMembers: no error")
	}
}

// addTopic creates a topic on every broker with a producer sending to it; once every member
// subscribes it (setSubscription) its queues are shared among them (spec §1.3, §3.2) and every
// message sent to it is consumed, while one member alone subscribing it gets only its AVG
// share of the group's members, the rest pulled by nobody (spec §5.7). A topic of that name
// again, or a name already taken by a retry topic, is refused.
func TestAddTopicThenSubscribeIt(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Topics = []TopicConfig{{Name: "TopicTest", Queues: 4}}
	cfg.Groups = []GroupConfig{{Name: "G"}}
	for i := range cfg.Brokers {
		cfg.Brokers[i].Queues = 0
	}
	c := mustNew(t, cfg)
	c.Advance(10000)
	n, rate := 2, 50
	mustApply(t, c, Command{Type: "addTopic", Topic: "TopicNew", Queues: &n, Rate: &rate})
	mustApply(t, c, Command{Type: "setSubscription", ID: "c1", Subscription: "TopicTest;TopicNew"})
	owners := func() map[string]string {
		out := map[string]string{}
		for _, q := range c.Snapshot().Queues {
			if q.Topic == "TopicNew" {
				out[q.Queue] = strings.Join(q.Owners, ",")
			}
		}
		return out
	}
	c.Advance(60000)
	if got, want := owners(), map[string]string{"TopicNew/broker-a:0": "c1", "TopicNew/broker-a:1": "c1", "TopicNew/broker-b:0": "", "TopicNew/broker-b:1": ""}; !maps.Equal(got, want) {
		t.Errorf("c1 alone subscribing TopicNew: owners %v; want %v", got, want)
	}
	mustApply(t, c, Command{Type: "setSubscription", ID: "c2", Subscription: "TopicTest;TopicNew"})
	mustApply(t, c, Command{Type: "setSubscription", ID: "c3", Subscription: "TopicTest;TopicNew"})
	c.Advance(120000)
	if got, want := owners(), map[string]string{"TopicNew/broker-a:0": "c1", "TopicNew/broker-a:1": "c1", "TopicNew/broker-b:0": "c2", "TopicNew/broker-b:1": "c3"}; !maps.Equal(got, want) {
		t.Errorf("every member subscribing TopicNew: owners %v; want %v", got, want)
	}
	c.Advance(300000) // the backlog of the orphaned queues drains
	m := c.Metrics()
	if m.Produced < 100*300+50*290 || m.Lost != 0 || m.Backlog > 200 {
		t.Errorf("produced %d, lost %d, backlog %d; want TopicNew's messages produced and consumed too", m.Produced, m.Lost, m.Backlog)
	}
	if err := c.Apply(Command{Type: "addTopic"}); err == nil || c.topicBy[""] != nil {
		t.Errorf("addTopic without a name: %v; want it refused, no topic made", err)
	}
	for _, name := range []string{"TopicNew", "%RETRY%G"} {
		if err := c.Apply(Command{Type: "addTopic", Topic: name}); err == nil {
			t.Errorf("addTopic %s: no error; want it refused as existing", name)
		}
	}
}

// A message whose send-back fails both ways is consumed again locally 5 s later, and one that
// fails again there with its broker still down is one more local retry (spec §3.15 step 4
// starts again at step 1): each one keeps waiting in its process queue, holding the offset
// back, until a retry succeeds. Once the broker is back and the listener succeeds, nothing
// waits and the group's offset reaches the end of the queue: a local retry that failed again
// is not lost with its hold left behind, which would pin the uploaded offset forever.
func TestLocalRetryThatFailsAgainIsKept(t *testing.T) {
	cfg := Config{Seed: 1, Brokers: []BrokerConfig{{Name: "broker-a", Queues: 1}},
		Groups:    []GroupConfig{{Name: "G"}},
		Consumers: []ConsumerConfig{{ID: "c1", ConsumeRate: 20}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 100}}}
	c := mustNew(t, cfg)
	c.Advance(20000) // a backlog cached in c1's process queue
	all, none, stop := 100, 0, 0
	mustApply(t, c, Command{Type: "setProducerRate", Rate: &stop})
	mustApply(t, c, Command{Type: "setFailRate", ID: "c1", FailPercent: &all})
	mustApply(t, c, Command{Type: "killBroker", Broker: "broker-a"})
	// Every failure's send-back finds its only broker down; the first local retries come at
	// 5 s and fail the same way.
	c.Advance(c.Now() + 12000)
	cs := c.consumers[0]
	var waiting, holds int64
	for _, lr := range cs.localRetries {
		waiting += lr.count
	}
	for _, pq := range cs.pqList {
		holds += int64(len(pq.holds))
	}
	if m := c.Metrics(); m.LocalRetries == 0 || m.LocalRetries != waiting || holds != int64(len(cs.localRetries)) {
		t.Fatalf("at %s: %d messages counted waiting for a local retry, %d in %d retries, %d holds; want the same, more than 0, and one hold a retry",
			clock(c.Now()), m.LocalRetries, waiting, len(cs.localRetries), holds)
	}
	mustApply(t, c, Command{Type: "restoreBroker", Broker: "broker-a"})
	mustApply(t, c, Command{Type: "setFailRate", ID: "c1", FailPercent: &none})
	c.Advance(c.Now() + 120000)
	if m := c.Metrics(); m.LocalRetries != 0 {
		t.Errorf("%d messages still wait for a local retry 2 minutes after the broker came back", m.LocalRetries)
	}
	b := c.brokers[0]
	for _, pq := range cs.pqList {
		if len(pq.holds) > 0 {
			t.Errorf("%s: holds %v left after every local retry ran", pq.mq, pq.holds)
		}
		if pq.t.isRetry() {
			continue
		}
		if o, end := b.offsetsOf(cs.g, pq.t)[pq.mq.QueueID].committed, pq.bq.maxOffset; o != end {
			t.Errorf("%s: the group's offset is %d of %d: held back by a local retry that no longer runs", pq.mq, o, end)
		}
	}
}
