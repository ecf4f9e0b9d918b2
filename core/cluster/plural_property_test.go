package cluster

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// randomPluralConfig draws a cluster of several topics and groups: memberships of one or two
// groups per process, subscriptions with and without tags, producers with tag mixes, listeners
// that fail a share of their deliveries, groups that dead-letter after a few failures.
func randomPluralConfig(r *rand.Rand, seed int64) Config {
	cfg := Config{Seed: seed, Brokers: []BrokerConfig{{Name: "broker-a"}, {Name: "broker-b"}, {Name: "broker-c"}}}
	nt := 2 + r.IntN(2)
	for i := range nt {
		cfg.Topics = append(cfg.Topics, TopicConfig{Name: fmt.Sprintf("T%d", i), Queues: 1 + r.IntN(4)})
	}
	ng := 1 + r.IntN(3)
	for i := range ng {
		cfg.Groups = append(cfg.Groups, GroupConfig{Name: fmt.Sprintf("G%d", i), MaxReconsumeTimes: 1 + r.IntN(3),
			Strategy: allocate.Named([]string{"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH"}[r.IntN(3)])})
	}
	tags := []string{"A", "B", "C"}
	for i := range 2 + r.IntN(4) {
		cc := ConsumerConfig{ID: fmt.Sprintf("c%d", i+1)}
		for _, g := range r.Perm(ng)[:1+r.IntN(min(ng, 2))] {
			m := MembershipConfig{Group: cfg.Groups[g].Name, FailRate: []float64{0, 0, 0.1, 0.5, 1}[r.IntN(5)]}
			for _, t := range r.Perm(nt)[:1+r.IntN(2)] {
				sc := SubscriptionConfig{Topic: cfg.Topics[t].Name}
				if r.IntN(3) == 0 {
					sc.Tags = []string{tags[r.IntN(3)]}
				}
				m.Subscriptions = append(m.Subscriptions, sc)
			}
			cc.Groups = append(cc.Groups, m)
		}
		cfg.Consumers = append(cfg.Consumers, cc)
	}
	for i, t := range cfg.Topics {
		p := ProducerConfig{ID: fmt.Sprintf("p%d", i), Rate: 20 + r.IntN(200), Threads: 2, Topic: t.Name}
		if r.IntN(2) == 0 {
			p.Tags = map[string]float64{"A": 0.5, "B": 0.3}
		}
		cfg.Producers = append(cfg.Producers, p)
	}
	return cfg
}

// conservation checks that no message vanishes: every message a group's frontier passed on a
// queue of a topic it subscribes was consumed (its first delivery), reconsumed (a retry's),
// filtered, skipped by ConsumeFromWhere or lost in a hand-over (spec §3.9); every message sent
// back waits on a delay ladder or was put on its retry queue; every dead letter is on a DLQ.
func conservation(c *Cluster) error {
	m := c.Metrics()
	var passed, onRetry, onDLQ int64
	for _, b := range c.brokers {
		for _, bt := range b.topics {
			if bt == nil {
				continue
			}
			switch {
			case bt.t.dlq:
				onDLQ += bt.qs[0].maxOffset
				continue
			case bt.t.isRetry():
				for _, q := range bt.qs {
					onRetry += q.maxOffset
				}
			}
			for _, g := range c.groups {
				if !slices.Contains(g.topics, bt.t) {
					continue
				}
				for _, o := range b.offsetsOf(g, bt.t) {
					passed += o.frontier
				}
			}
		}
	}
	if want := m.Consumed + m.Reconsumed + m.Filtered + m.Skipped + m.Lost; passed != want {
		return fmt.Errorf("the groups passed %d messages; consumed %d + reconsumed %d + filtered %d + skipped %d + lost %d = %d", passed, m.Consumed, m.Reconsumed, m.Filtered, m.Skipped, m.Lost, want)
	}
	if m.Retried != m.Delayed+onRetry {
		return fmt.Errorf("%d messages sent back; %d on the delay ladders + %d put on retry queues = %d", m.Retried, m.Delayed, onRetry, m.Delayed+onRetry)
	}
	if m.DeadLettered != onDLQ {
		return fmt.Errorf("%d messages dead-lettered; %d on DLQs", m.DeadLettered, onDLQ)
	}
	// The rebalance hands its subscribe sets to the strategy unsorted (RebalanceSorted): each
	// must be in MessageQueue order as the route built it.
	for _, cs := range c.consumers {
		for _, sub := range cs.subs {
			if !slices.IsSortedFunc(sub.mqSet, route.Compare) {
				return fmt.Errorf("%s's subscribe set of %s is out of order: %v", cs.id, sub.t.name, sub.mqSet)
			}
		}
	}
	return nil
}

// Several topics and groups, failures, tags, subscription and permission changes, kills and
// restarts at random: no message vanishes at any moment, the run is deterministic, and a
// clone runs the same story.
func TestPluralConservation(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 6
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 42))
		cfg := randomPluralConfig(r, int64(seed))
		c, err := New(cfg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var applied []Command
		next := int64(3000)
		for c.now < 240000 {
			if c.now >= next {
				cmd := randomPluralCommand(r, c, cfg)
				if c.Apply(cmd) == nil {
					applied = append(applied, cmd)
				}
				next = c.now + int64(1000+r.IntN(20000))
			}
			c.Advance(c.now + 250)
			if err := conservation(c); err != nil {
				t.Fatalf("seed %d at %s: %v after %v", seed, clock(c.now), err, applied)
			}
		}
		if m := c.Metrics(); m.Consumed == 0 {
			t.Errorf("seed %d: nothing was consumed", seed)
		}
	}
}

// randomPluralCommand draws an action on a cluster of several topics and groups.
func randomPluralCommand(r *rand.Rand, c *Cluster, cfg Config) Command {
	if r.IntN(3) > 0 {
		return randomCommand(r, c)
	}
	ids := c.consumerIDs()
	id := ids[r.IntN(len(ids))]
	broker := c.brokers[r.IntN(len(c.brokers))].name
	switch r.IntN(4) {
	case 0:
		t := cfg.Topics[r.IntN(len(cfg.Topics))].Name
		group := ""
		if ms := c.process(id); len(ms) > 1 {
			group = ms[r.IntN(len(ms))].g.name
		}
		return Command{Type: "setSubscription", ID: id, Group: group, Subscription: t + []string{"", ":A", ":B||C"}[r.IntN(3)]}
	case 1:
		return Command{Type: "setPerm", Broker: broker, Perm: Perms[r.IntN(len(Perms))]}
	case 2:
		g := cfg.Groups[r.IntN(len(cfg.Groups))].Name
		return Command{Type: "setStrategy", Strategy: "AVG_BY_CIRCLE", Group: g, ID: []string{"", id}[r.IntN(2)]}
	}
	return Command{Type: "setQueues", Broker: broker, Topic: cfg.Topics[r.IntN(len(cfg.Topics))].Name, Queues: ptr(1 + r.IntN(4))}
}
