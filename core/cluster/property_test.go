package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// randomCommand draws an action a user could take in the playground.
func randomCommand(r *rand.Rand, c *Cluster) Command {
	ids := c.consumerIDs()
	id := ids[r.IntN(len(ids))]
	broker := c.brokers[r.IntN(len(c.brokers))].name
	switch r.IntN(16) {
	case 0, 1:
		return Command{Type: "killConsumer", ID: id}
	case 2:
		return Command{Type: "stopConsumer", ID: id}
	case 3, 4:
		return Command{Type: "partitionConsumer", ID: id}
	case 5:
		return Command{Type: "healConsumer", ID: id}
	case 6, 7:
		return Command{Type: "restartConsumer", ID: id}
	case 8:
		if r.IntN(2) == 0 {
			return Command{Type: "hangConsumer", ID: id}
		}
		return Command{Type: "resumeConsumer", ID: id}
	case 9:
		return Command{Type: "addConsumer", ID: fmt.Sprintf("c%d", 10+r.IntN(20))}
	case 10:
		return Command{Type: "slowBroker", Broker: broker, LatencyMs: ptr([]int{0, 100, 600, 2000, 6000}[r.IntN(5)])}
	case 11:
		if r.IntN(2) == 0 {
			return Command{Type: "killBroker", Broker: broker}
		}
		return Command{Type: "restoreBroker", Broker: broker}
	case 12:
		return Command{Type: "setQueues", Broker: broker, Queues: ptr(1 + r.IntN(8))}
	case 13:
		return Command{Type: "setStrategy", Strategy: []string{"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH"}[r.IntN(3)]}
	case 14:
		return Command{Type: "setProducerRate", Rate: ptr(r.IntN(3000))}
	}
	return Command{Type: "setLatencyFault", On: ptr(r.IntN(2) == 0)}
}

// randomProducerCommand draws a change of how the producers send.
func randomProducerCommand(r *rand.Rand) Command {
	switch r.IntN(4) {
	case 0:
		return Command{Type: "setProducerThreads", Threads: ptr(1 + r.IntN(12))}
	case 1:
		return Command{Type: "setSendMode", Mode: SendAsync}
	case 2:
		return Command{Type: "setSendMode", Mode: SendSync, Threads: ptr(1 + r.IntN(8))}
	}
	return Command{Type: "setLatencyTiers", LatencyMax: []int64{50, 100, int64(r.IntN(3000))}, NotAvailableDuration: []int64{0, int64(r.IntN(20000)), int64(r.IntN(60000))}}
}

// holders lists, per queue (keyed by the group's offset of it), the processes holding a process
// queue for it (cut-off ones included: they believe they own it and write their offset once
// they can).
func holders(c *Cluster) map[*queueOffset][]int {
	m := map[*queueOffset][]int{}
	for _, cs := range c.consumers {
		if cs.dead {
			continue
		}
		for _, pq := range cs.pqList {
			m[pq.off] = append(m[pq.off], cs.idx)
		}
	}
	return m
}

// TestInvariantsUnderRandomActions drives 200 seeded runs with random actions and checks,
// after every 50 ms step: no message is lost (spec §3.9); a queue's stored offset never goes
// back while one process holds it alone (it may flip during an overlap); and once the group has
// been quiet for a rebalance period plus the expiry window, every queue of a live broker has
// exactly one live owner.
func TestInvariantsUnderRandomActions(t *testing.T) {
	seeds := 200
	if testing.Short() {
		seeds = 20
	}
	settled := 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		cfg := smallConfig(100 + r.IntN(1500))
		cfg.Seed = int64(seed)
		// Blocking producers with a few threads, and now and then an async one beside them.
		cfg.Producers[0].Threads = 1 + r.IntN(8)
		cfg.Producers[0].Client = []string{"", "", "java-4.9", "go-2.1.2"}[r.IntN(4)]
		if r.IntN(4) == 0 {
			cfg.Producers[0].Keys = &KeysConfig{Count: 1 + r.IntN(500), HotShare: r.IntN(90)} // selector sends
		}
		if r.IntN(3) == 0 {
			cfg.Producers = append(cfg.Producers, ProducerConfig{ID: "p2", Rate: 50 + r.IntN(500), Mode: SendAsync,
				Client: []string{"", "java-4.9", "go-2.1.2"}[r.IntN(3)]})
		}
		if r.IntN(3) == 0 {
			// Slow messages hold offsets back (spec §3.16); the invariants hold all the same.
			cfg.Consumers[0].SlowEvery, cfg.Consumers[0].SlowMs = int64(50+r.IntN(500)), int64(1000+r.IntN(20000))
		}
		c := mustNew(t, cfg)
		var applied []string
		prevHolders := holders(c)
		prevCommitted := map[*queueOffset]int64{}
		prevWriter := map[*queueOffset]int{}
		prevGen := map[*broker]int{}
		check := func() {
			if m := c.Metrics(); m.Lost != 0 {
				t.Fatalf("seed %d at %s: %d messages lost after %v", seed, clock(c.now), m.Lost, applied)
			}
			if err := checkSends(c); err != nil {
				t.Fatalf("seed %d at %s: %v after %v", seed, clock(c.now), err, applied)
			}
			now := holders(c)
			for _, b := range c.brokers {
				if prevGen[b] != b.flushGen {
					// A crash restored the offsets of its last flush (spec §5.5): start over.
					prevGen[b] = b.flushGen
					for _, o := range b.groups[0].offsets[0] {
						delete(prevCommitted, o)
					}
				}
				for _, o := range b.groups[0].offsets[0] {
					// The sole holder's own writes never go back; a value another process wrote
					// (an overlap's last writer) may be replaced by a smaller one (spec §3.9).
					if p, n := prevHolders[o], now[o]; len(p) == 1 && slices.Equal(p, n) &&
						prevWriter[o] == p[0] && o.writer == p[0] && o.committed < prevCommitted[o] {
						t.Fatalf("seed %d at %s: %s's offset went back %d → %d under one owner %s (%v)",
							seed, clock(c.now), b.name, prevCommitted[o], o.committed, c.consumers[n[0]].id, applied)
					}
					prevCommitted[o], prevWriter[o] = o.committed, o.writer
				}
			}
			prevHolders = now
		}
		next := int64(5000 + r.IntN(30000))
		for c.now < 600000 {
			if c.now >= next {
				cmd := randomCommand(r, c)
				if r.IntN(5) == 0 {
					cmd = randomProducerCommand(r)
				}
				if err := c.Apply(cmd); err == nil {
					applied = append(applied, fmt.Sprintf("%s %s%s", clock(c.now), cmd.Type, cmd.ID+cmd.Broker))
				}
				check()
				next = c.now + int64(1000+r.IntN(60000))
			}
			c.Advance(c.now + 50)
			check()
		}
		// Quiet: a rebalance period, the expiry window and a route refresh, with margin.
		quiet := c.t.RebalanceWaitInterval + c.t.ChannelExpiredTimeout + c.t.ScanInterval + c.t.PollNameServerInterval + 30000
		for end := c.now + quiet; c.now < end; {
			c.Advance(c.now + 50)
			check()
		}
		if c.groups[0].model != Clustering || !slices.ContainsFunc(c.consumers, func(cs *consumer) bool { return !cs.dead && !cs.partitioned }) {
			continue // nobody left to own anything
		}
		settled++
		for _, q := range c.Snapshot().Queues {
			if b := c.brokerBy[q.Broker]; !b.down && len(q.Owners) != 1 {
				t.Fatalf("seed %d: after a quiet %s, %s has owners %v; want exactly one (actions %v)", seed, clock(quiet), q.Queue, q.Owners, applied)
			}
		}
	}
	if settled < seeds/2 {
		t.Fatalf("only %d of %d runs ended with a live consumer: the settle check was barely exercised", settled, seeds)
	}
	t.Logf("%d of %d runs ended with live consumers and settled", settled, seeds)
}

// checkSends: every send a producer started has ended in success or failure or is still on
// its way, exactly once; messages in flight are exactly those in the brokers' pending lists.
func checkSends(c *Cluster) error {
	var pending int64
	for _, b := range c.brokers {
		for _, ps := range b.pending {
			pending += ps.count
		}
	}
	if m := c.Metrics(); m.InFlight != pending {
		return fmt.Errorf("in flight %d; the brokers' pending lists hold %d", m.InFlight, pending)
	}
	for _, p := range c.producers {
		open := p.asyncFlight
		for _, to := range p.timeouts {
			open += to.count
		}
		for _, th := range p.threads {
			if th.busy {
				open++
			}
		}
		if p.asyncFlight < 0 || p.sent != p.acked+p.failed+open {
			return fmt.Errorf("%s: sent %d, acked %d, failed %d, open %d (async permits held %d)", p.id, p.sent, p.acked, p.failed, open, p.asyncFlight)
		}
	}
	return nil
}

// TestDeterminism: the same seed and actions give a byte-identical story.
func TestDeterminism(t *testing.T) {
	for seed := range 10 {
		digest := func() string {
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			cfg := smallConfig(800)
			cfg.Seed = int64(seed)
			c := mustNew(t, cfg)
			h := sha256.New()
			enc := json.NewEncoder(h) // every field, causes and their values included
			c.SetObserver(func(e Event) {
				if err := enc.Encode(e); err != nil {
					t.Fatal(err)
				}
			})
			for c.now < 400000 {
				c.Advance(c.now + int64(1000+r.IntN(40000)))
				_ = c.Apply(randomCommand(r, c))
			}
			fmt.Fprintf(h, "%+v %+v", c.Metrics(), c.Snapshot())
			return hex.EncodeToString(h.Sum(nil))
		}
		if a, b := digest(), digest(); a != b {
			t.Fatalf("seed %d: digests differ: %s vs %s", seed, a, b)
		}
	}
}
