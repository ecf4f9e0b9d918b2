package cluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// popConfig is one broker with queues queues, n members that let the brokers allocate, each
// consuming 100 msg/s, a producer of rate msg/s, and their group G in mode.
func popConfig(queues, n, rate int, mode string) Config {
	off := false
	cfg := Config{Seed: 7, Brokers: []BrokerConfig{{Name: "broker-a", Queues: queues}},
		Groups:    []GroupConfig{{Name: "G", ConsumeMode: mode}},
		Producers: []ProducerConfig{{ID: "p1", Rate: rate}}}
	for i := range n {
		cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: fmt.Sprintf("c%d", i+1), ConsumeRate: 100, ClientRebalance: &off})
	}
	return cfg
}

// consumedBy is each consumer's consumed count, by id.
func consumedBy(c *Cluster) map[string]int64 {
	out := map[string]int64{}
	for _, v := range c.Snapshot().Consumers {
		out[v.ID] = v.Consumed
	}
	return out
}

// undelivered is what POP holds that no listener has had yet: popped and not acked (their
// first delivery), and revived first deliveries on the POP retry queues not popped yet.
func undelivered(c *Cluster) int64 {
	var n int64
	for _, b := range c.brokers {
		for _, ck := range b.cks {
			if !ck.revived && ck.kind == kindFresh {
				n += ck.n - ck.acked
			}
		}
		for _, bt := range b.topics {
			if bt == nil || bt.t.popFor == 0 {
				continue
			}
			bq, o := bt.qs[0], b.offsetsOf(bt.t.group, bt.t)[0]
			lo := int64(0)
			for _, s := range bq.segs {
				if s.kind == kindFresh {
					n += max(0, s.end-max(lo, o.committed))
				}
				lo = s.end
			}
		}
	}
	return n
}

// Four members on three queues: by PULL the brokers give one of them nothing; by POP all four
// consume (spec §8.2.2, §8.6.2).
func TestPopFourthConsumerOnThreeQueuesConsumes(t *testing.T) {
	for _, mode := range []string{ModePull, ModePop} {
		c := mustNew(t, popConfig(3, 4, 300, mode))
		c.Advance(60000)
		got := consumedBy(c)
		idle := 0
		for _, n := range got {
			if n == 0 {
				idle++
			}
		}
		switch mode {
		case ModePull:
			if idle != 1 {
				t.Errorf("PULL: %d members consumed nothing (%v); want one", idle, got)
			}
		case ModePop:
			if idle != 0 {
				t.Errorf("POP: %d members consumed nothing (%v); want none", idle, got)
			}
			for _, v := range c.Snapshot().Consumers {
				if !slices.Contains(v.Queues, "broker-a:-1") || len(v.Queues) > 2 {
					t.Errorf("POP: %s holds %v; want broker-a:-1 (and the retry queue at most)", v.ID, v.Queues)
				}
			}
			m := c.Metrics()
			if m.Popped == 0 || m.Acked == 0 || m.Consumed != m.Acked {
				t.Errorf("POP: popped %d, acked %d, consumed %d; want every consumed message acked", m.Popped, m.Acked, m.Consumed)
			}
			if m.Produced != m.Consumed+m.Backlog+undelivered(c)+m.Skipped {
				t.Errorf("POP: produced %d ≠ consumed %d + backlog %d + popped not yet delivered %d + skipped %d",
					m.Produced, m.Consumed, m.Backlog, undelivered(c), m.Skipped)
			}
			for _, q := range c.Snapshot().Queues {
				if q.Topic == "TopicTest" && len(q.Owners) != 4 {
					t.Errorf("POP: %s is popped by %v; want all four", q.Queue, q.Owners)
				}
			}
			if len(c.Anomalies()) > 0 {
				t.Errorf("POP: shared queues reported as anomalies: %+v", c.Anomalies())
			}
		}
	}
}

// A member killed holding popped messages: they stay invisible for 60 s, are revived 2–3 s
// after, onto %RETRY%G_TopicTest with reconsume count 1, and consumed by the others; nothing
// is lost (spec §8.3.10, §8.6.3).
func TestPopKilledMemberMessagesComeBack(t *testing.T) {
	cfg := popConfig(4, 3, 600, ModePop)
	cfg.Consumers[1].ConsumeRate = 20 // c2 pops more than it can consume: it always holds some
	c := mustNew(t, cfg)
	var revived []Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseRevive {
			revived = append(revived, e)
		}
	})
	c.Advance(30000)
	var held int64
	for _, pq := range c.current[memberKey{"c2", 0}].pops {
		for _, it := range pq.items {
			held += it.n
		}
	}
	if held == 0 {
		t.Fatal("c2 holds no popped message at 30 s")
	}
	mustApply(t, c, Command{Type: "killConsumer", ID: "c2"})
	c.Advance(89000)
	for _, e := range revived {
		if e.Consumer == "c2" && e.T < 60000 {
			t.Fatalf("c2's messages revived at %d, before their invisible time ended: %+v", e.T, e)
		}
	}
	c.Advance(200000)
	var back int64
	for _, e := range revived {
		if e.Consumer != "c2" {
			continue
		}
		back += e.N
		if e.Arg != "%RETRY%G_TopicTest" || !strings.Contains(e.Text, "reconsume count 1") {
			t.Errorf("revived: %+v", e)
		}
	}
	if back < held {
		t.Errorf("%d of c2's messages revived; it held %d popped, unconsumed", back, held)
	}
	m := c.Metrics()
	if m.Produced != m.Consumed+m.Backlog+undelivered(c)+m.Skipped {
		t.Errorf("produced %d ≠ consumed %d + backlog %d + undelivered %d + skipped %d",
			m.Produced, m.Consumed, m.Backlog, undelivered(c), m.Skipped)
	}
	if m.Duplicates != 0 {
		t.Errorf("%d duplicates: every message c2 consumed was acked at once", m.Duplicates)
	}
	rt := c.topicBy["%RETRY%G_TopicTest"]
	if rt == nil || c.brokers[0].offsetsOf(c.groups[0], rt)[0].committed < back {
		t.Errorf("the revived messages were not popped again by the survivors")
	}
}

// A message whose listener fails is made invisible for 10 s, revived 2 s after (12 s after
// the failure), and its k-th failure waits popDelayLevel[k−1]; after its 17th delivery the
// client acks and drops it (spec §8.2.4 step 7, §8.6.5).
func TestPopFailingMessageClimbsTheRetryDelays(t *testing.T) {
	cfg := popConfig(1, 1, 0, ModePop)
	cfg.Producers = []ProducerConfig{{ID: "p1", Rate: 1}}
	cfg.Consumers[0].Groups = []MembershipConfig{{Group: "G", FailRate: 1}}
	c := mustNew(t, cfg)
	var changes, revives []Event
	c.SetObserver(func(e Event) {
		switch e.Cause {
		case CauseChangeInvisible:
			changes = append(changes, e)
		case CauseRevive:
			revives = append(revives, e)
		}
	})
	for c.Metrics().Produced == 0 {
		c.Advance(c.Now() + 50)
	}
	mustApply(t, c, Command{Type: "setProducerRate", ID: "p1", Rate: ptr(0)}) // one message
	c.Advance(6 * 3600 * 1000)
	if len(changes) != 17 || changes[16].Arg != "drop" || changes[15].Arg != "retry" {
		t.Fatalf("%d failures, the last %+v; want 16 retries and a drop at the 17th", len(changes), changes[len(changes)-1])
	}
	for k := 1; k < 17; k++ {
		f, r := changes[k-1], revives[k-1]
		if want := f.T + popDelayLevel[k-1]*1000 + reviveQuietMs; r.T < want || r.T >= want+1000 || r.T%1000 != 0 {
			t.Errorf("failure %d at %d: revived at %d; want the revive round within a second of %d", k, f.T, r.T, want)
		}
	}
	if m := c.Metrics(); m.PopDropped != 1 || m.DeadLettered != 0 || m.Reconsumed != 16 || m.Consumed != 1 {
		t.Errorf("dropped %d, dead-lettered %d, reconsumed %d, consumed %d; want 1, 0, 16, 1", m.PopDropped, m.DeadLettered, m.Reconsumed, m.Consumed)
	}
}

// allocate4Pop's worked examples (spec §8.2.2), AVG over a0..a3, b0..b3.
func TestAllocate4Pop(t *testing.T) {
	var mqAll []route.MessageQueue
	for _, b := range []string{"a", "b"} {
		for q := range 4 {
			mqAll = append(mqAll, route.MessageQueue{Topic: "T", BrokerName: b, QueueID: int32(q)})
		}
	}
	ids := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("c%d", i))
		}
		return out
	}
	got := func(cid string, n, k int) string {
		qs, err := allocate4Pop(allocate.Averagely{}, "G", cid, mqAll, ids(n), k)
		if err != nil {
			t.Fatal(err)
		}
		return route.Compact(qs)
	}
	for _, c := range []struct {
		cid  string
		n, k int
		want string
	}{
		{"c0", 3, -1, "a:-1 b:-1"}, {"c9", 3, -1, "a:-1 b:-1"}, {"c0", 2, 1, "a:-1 b:-1"}, {"c0", 4, 3, "a:-1 b:-1"},
		{"c0", 4, 1, "a:0-3"}, {"c1", 4, 1, "a:2-3 b:0-1"}, {"c2", 4, 1, "b:0-3"}, {"c3", 4, 1, "a:0-1 b:2-3"},
		{"c0", 4, 2, "a:0-3 b:0-1"}, {"c8", 10, 1, "a:0"}, {"c9", 10, 1, "a:1"}, {"cx", 10, 1, ""},
		{"c0", 3, 1, "a:0-3 b:0-1"}, {"c1", 3, 1, "a:3 b:0-3"}, {"c2", 3, 1, "a:0-2 b:2-3"},
	} {
		if g := got(c.cid, c.n, c.k); g != c.want {
			t.Errorf("%s of %d, k %d: %q; want %q", c.cid, c.n, c.k, g, c.want)
		}
	}
}

// A POP run is deterministic and its clone goes on as it does.
func TestPopCloneGoesOnTheSame(t *testing.T) {
	cfg := popConfig(4, 3, 400, ModePop)
	cfg.Consumers[0].Groups = []MembershipConfig{{Group: "G", FailRate: 0.2}}
	a := mustNew(t, cfg)
	a.Advance(20000)
	b := a.Clone()
	mustApply(t, a, Command{Type: "killConsumer", ID: "c3"})
	mustApply(t, b, Command{Type: "killConsumer", ID: "c3"})
	a.Advance(120000)
	b.Advance(120000)
	if world(t, a) != world(t, b) || a.Metrics().Revived != b.Metrics().Revived {
		t.Error("the clone of a POP run went another way")
	}
	if a.Metrics().Revived == 0 || a.Metrics().ChangedInvisible == 0 {
		t.Errorf("nothing revived or changed: %+v", a.Metrics())
	}
}

// checkParked is what wakeParked relies on: a live member's parked pop on a broker is its
// PopProcessQueue of that broker, parked, listed once; a parked PopProcessQueue is listed.
func checkParked(t *testing.T, c *Cluster, when string) (parked int) {
	t.Helper()
	type key struct {
		cons int
		mq   route.MessageQueue
	}
	for _, cs := range c.consumers {
		for _, pq := range cs.pops {
			if pq.mq.Topic != c.topics[pq.t].name || pq.mq.BrokerName != c.brokers[pq.b].name {
				t.Fatalf("%s: %s's PopProcessQueue %v is kept as topic %s on %s", when, cs.id, pq.mq, c.topics[pq.t].name, c.brokers[pq.b].name)
			}
		}
	}
	listed := map[key]int{}
	for _, b := range c.brokers {
		for _, p := range b.parked {
			cs := c.consumers[p.cons]
			if cs.dead {
				continue
			}
			pq := cs.popQueueOn(b.idx, p.t, p.q)
			if pq == nil || !pq.parked {
				t.Fatalf("%s: %s's parked pop of %s:%d on %s is not its parked PopProcessQueue there", when, cs.id, c.topics[p.t].name, p.q, b.name)
			}
			listed[key{p.cons, pq.mq}]++
			parked++
		}
	}
	for k, n := range listed {
		if n != 1 {
			t.Fatalf("%s: %s's pop of %v is parked %d times", when, c.consumers[k.cons].id, k.mq, n)
		}
	}
	for _, cs := range c.consumers {
		for _, pq := range cs.pops {
			if !cs.dead && pq.parked && listed[key{cs.idx, pq.mq}] != 1 {
				t.Fatalf("%s: %s's PopProcessQueue %v is parked but its broker holds no pop of it", when, cs.id, pq.mq)
			}
		}
	}
	return parked
}

// Through kills, restarts, shutdowns, partitions, newcomers, client rebalance and consume
// mode switches and a broker's death, the brokers' parked pops stay their members' parked
// PopProcessQueues (checkParked).
func TestPopParkedPopsStayTheirQueues(t *testing.T) {
	cfg := popConfig(4, 4, 40, ModePop)
	cfg.Brokers = append(cfg.Brokers, BrokerConfig{Name: "broker-b", Queues: 4})
	c := mustNew(t, cfg)
	on, off, one := true, false, 1
	parked := 0
	for i, cmd := range []Command{
		{Type: "partitionConsumer", ID: "c1"},
		{Type: "killConsumer", ID: "c2"},
		{Type: "healConsumer", ID: "c1"},
		{Type: "restartConsumer", ID: "c2"},
		{Type: "addConsumer", ID: "c5", ClientRebalance: &off},
		{Type: "stopConsumer", ID: "c3"},
		{Type: "setClientRebalance", ID: "c4", ClientRebalance: &on},
		{Type: "setClientRebalance", ID: "c4", ClientRebalance: &off},
		{Type: "setConsumeMode", Group: "G", ConsumeMode: ModePop, PopShareQueueNum: &one},
		{Type: "killBroker", Broker: "broker-b"},
		{Type: "restoreBroker", Broker: "broker-b"},
		{Type: "setConsumeMode", Group: "G", ConsumeMode: ModePull},
		{Type: "setConsumeMode", Group: "G", ConsumeMode: ModePop},
		{Type: "killConsumer", ID: "c1"},
		{Type: "restartConsumer", ID: "c1"},
	} {
		for range 40 {
			c.Advance(c.Now() + 1000)
			parked += checkParked(t, c, fmt.Sprintf("before %s %s", cmd.Type, cmd.ID))
		}
		if err := c.Apply(cmd); err != nil {
			t.Fatalf("%d %s: %v", i, cmd.Type, err)
		}
	}
	for range 120 {
		c.Advance(c.Now() + 1000)
		parked += checkParked(t, c, "at the end")
	}
	if parked == 0 {
		t.Fatal("no pop was ever parked")
	}
}
