package cluster

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomPopConfig draws a cluster whose group the brokers serve by POP: one to three brokers,
// members that let the brokers allocate (now and then one that computes its own queues, or a
// gRPC PushConsumer through a proxy, of cluster or local mode),
// popShareQueueNum in and out of range, slow members, listeners that fail a share of their
// deliveries.
func randomPopConfig(r *rand.Rand, seed int64) Config {
	cfg := Config{Seed: seed, Producers: []ProducerConfig{{ID: "p1", Rate: 20 + r.IntN(600), Threads: 4}},
		Proxies: []ProxyConfig{{Name: "proxy-1"}}}
	if r.IntN(3) == 0 {
		cfg.Proxies[0].Mode = ProxyLocal // the proxy inside each broker (spec §8.4.1)
	}
	for i := range 1 + r.IntN(3) {
		cfg.Brokers = append(cfg.Brokers, BrokerConfig{Name: fmt.Sprintf("broker-%c", 'a'+i), Queues: 1 + r.IntN(6)})
	}
	g := GroupConfig{Name: "G", ConsumeMode: ModePop, MaxReconsumeTimes: 1 + r.IntN(4)}
	if r.IntN(3) == 0 {
		g.PopShareQueueNum = ptr(r.IntN(3))
	}
	// An orderly group now and then (drawn from the seed, so that the other draws stay), of
	// gRPC PushConsumers only: they pop FIFO (spec §8.3.9). (Its remoting members would pull
	// with locks, §8.5, from the offsets the FIFO pops commit.)
	g.Orderly = seed%5 == 4
	cfg.Groups = []GroupConfig{g}
	off := false
	for i := range 1 + r.IntN(5) {
		cc := ConsumerConfig{ID: fmt.Sprintf("c%d", i+1), ConsumeRate: []int{20, 100, 400}[r.IntN(3)], ClientRebalance: &off}
		switch r.IntN(7) {
		case 0:
			cc.ClientRebalance = nil // one that pulls its own queues beside the poppers
		case 1:
			cc.ClientRebalance, cc.Kind = nil, KindGrpcPush // a gRPC PushConsumer through the proxy
		case 2:
			// A gRPC SimpleConsumer: nothing renewed, its own invisible time.
			cc.ClientRebalance, cc.Kind, cc.InvisibleDurationMs = nil, KindGrpcSimple, []int64{10000, 30000}[r.IntN(2)]
		}
		if g.Orderly {
			cc.ClientRebalance, cc.Kind, cc.InvisibleDurationMs = nil, KindGrpcPush, 0
		}
		if r.IntN(3) == 0 {
			cc.Groups = []MembershipConfig{{Group: "G", FailRate: []float64{0.1, 0.5, 1}[r.IntN(3)]}}
		}
		cfg.Consumers = append(cfg.Consumers, cc)
	}
	return cfg
}

// randomPopCommand draws an action on a POP cluster: the playground's usual ones, a member
// added that lets the brokers allocate, a switch of mode or of popShareQueueNum.
func randomPopCommand(r *rand.Rand, c *Cluster) Command {
	off := false
	switch r.IntN(8) {
	case 0:
		if c.groups[0].orderly {
			return Command{Type: "addConsumer", ID: fmt.Sprintf("c%d", 10+r.IntN(20)), Kind: KindGrpcPush}
		}
		return Command{Type: "addConsumer", ID: fmt.Sprintf("c%d", 10+r.IntN(20)), ClientRebalance: &off}
	case 1:
		return Command{Type: "setConsumeMode", ConsumeMode: ModePop, PopShareQueueNum: ptr(r.IntN(3))}
	case 2:
		if r.IntN(4) == 0 {
			return Command{Type: "setConsumeMode", ConsumeMode: ModePull}
		}
		return Command{Type: "setConsumeMode", ConsumeMode: ModePop}
	}
	return randomCommand(r, c)
}

// popLedger checks POP's books at one moment: every message popped is acked (dropped ones
// included), revived or still invisible, and the invisible count is what the brokers'
// checkpoints hold; a revived message's reconsume count is at least one.
func popLedger(c *Cluster) error {
	m := c.Metrics()
	if m.Popped != m.Acked+m.Revived+m.Invisible {
		return fmt.Errorf("popped %d; acked %d + revived %d + invisible %d = %d", m.Popped, m.Acked, m.Revived, m.Invisible, m.Acked+m.Revived+m.Invisible)
	}
	var held int64
	for _, b := range c.brokers {
		for _, ck := range b.cks {
			if ck.acked > ck.n || ck.acked < 0 {
				return fmt.Errorf("%s's checkpoint %d acked %d of %d", b.name, ck.id, ck.acked, ck.n)
			}
			if !ck.revived {
				held += ck.n - ck.acked
			}
		}
		for _, bt := range b.topics {
			if bt == nil || bt.t.popFor == 0 {
				continue
			}
			for _, s := range bt.qs[0].segs {
				if s.r < 1 {
					return fmt.Errorf("%s: a revived run on %s with reconsume count %d", b.name, bt.t.name, s.r)
				}
			}
		}
	}
	if held != m.Invisible {
		return fmt.Errorf("invisible %d; the brokers' checkpoints hold %d", m.Invisible, held)
	}
	return nil
}

// storedOnTopics is what the producers stored on the group's own topics (not its retry
// topics), on the queues the brokers let it read: a queue beyond a shrunk read-queue count
// keeps its messages from everyone, as RocketMQ's does (spec §1.3).
func storedOnTopics(c *Cluster) int64 {
	var n int64
	for _, b := range c.brokers {
		for _, bt := range b.topics {
			if bt == nil || bt.t.isRetry() || bt.t.dlq {
				continue
			}
			for _, q := range bt.qs[:min(bt.readQ, len(bt.qs))] {
				n += q.maxOffset
			}
		}
	}
	return n
}

// unread is what the group has not popped or pulled yet of the queues it may read, its POP
// retry queues included.
func unread(c *Cluster) int64 {
	var n int64
	for _, b := range c.brokers {
		for _, bt := range b.topics {
			if bt == nil || bt.t.dlq {
				continue
			}
			offs := b.offsetsOf(c.groups[0], bt.t)
			for i, q := range bt.qs[:min(bt.readQ, len(bt.qs))] {
				n += max(0, q.maxOffset-max(offs[i].frontier, 0))
			}
		}
	}
	return n
}

// POP under random kills, partitions, restarts, hangs, slow and dead brokers, queue counts,
// joins and mode switches: POP's books balance after every step; once everything is healed,
// the producers stopped and the listeners succeed, every stored message has been consumed at
// least once (none lost) and nothing stays invisible; a redelivery after a revive carries a
// reconsume count one higher (the counts the listener sees are checked by kind: a first
// delivery counts consumed, a failed one's reconsumed); and a clone taken midway tells the
// same story as the run it was taken from.
func TestPopConservation(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 6
	}
	var reconsumedRuns, revivedRuns int
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 8))
		cfg := randomPopConfig(r, int64(seed))
		c := mustNew(t, cfg)
		var applied []string
		var clone *Cluster
		next := int64(2000 + r.IntN(20000))
		for c.now < 300000 {
			if c.now >= next {
				cmd := randomPopCommand(r, c)
				if c.Apply(cmd) == nil {
					applied = append(applied, fmt.Sprintf("%s %s %s%s%s", clock(c.now), cmd.Type, cmd.ID, cmd.Broker, cmd.ConsumeMode))
				}
				if clone != nil {
					_ = clone.Apply(cmd)
				}
				next = c.now + int64(1000+r.IntN(40000))
			}
			if clone == nil && c.now >= 150000 {
				clone = c.Clone()
			}
			c.Advance(c.now + 250)
			if clone != nil {
				clone.Advance(c.now)
			}
			if err := popLedger(c); err != nil {
				t.Fatalf("seed %d at %s: %v after %v", seed, clock(c.now), err, applied)
			}
		}
		// The clone, given the same steps and actions, is the same cluster.
		a, _ := json.Marshal(c.Snapshot())
		b, _ := json.Marshal(clone.Snapshot())
		if string(a) != string(b) {
			t.Fatalf("seed %d: a clone taken at 02:30 differs at %s (actions %v)", seed, clock(c.now), applied)
		}

		// Quiet: everything healed and restored, the producers stopped, every listener
		// succeeding, the strategy one the brokers run, one live member that pops; then wait until nothing is invisible or
		// waiting (a failed message's last delay is at most 2 minutes with these counts).
		mustApply(t, c, Command{Type: "setProducerRate", Rate: ptr(0)})
		mustApply(t, c, Command{Type: "setConsumeMode", ConsumeMode: ModePop})
		// Brokers allocate only by AVG and AVG_BY_CIRCLE (spec §8.2.2): under another
		// strategy a newcomer would get nothing.
		mustApply(t, c, Command{Type: "setStrategy", Strategy: "AVG"})
		for _, b := range c.brokers {
			if b.down {
				mustApply(t, c, Command{Type: "restoreBroker", Broker: b.name})
			}
		}
		for _, id := range c.consumerIDs() {
			for _, typ := range []string{"healConsumer", "resumeConsumer"} {
				_ = c.Apply(Command{Type: typ, ID: id}) // refused when it does not apply
			}
			_ = c.Apply(Command{Type: "setFailRate", ID: id, FailPercent: ptr(0)})
		}
		if c.proxies[0].local() {
			// A gRPC client of the proxies inside the brokers is on the brokers' member lists,
			// and a classic member's rebalance may give it the group's retry queue, which it
			// never reads (spec §8.4.1 local mode; see grpc-local-proxy.json): the quiet stops
			// them, and their unregistering hands the queues back.
			for _, cs := range c.consumers {
				if cs.grpc && !cs.dead {
					mustApply(t, c, Command{Type: "stopConsumer", ID: cs.id})
				}
			}
		}
		off := false
		// A remoting POP consumer: it pops every broker at once. (A SimpleConsumer's receives
		// take the brokers in turn, and each one on an empty broker waits 20 s: a group of them
		// drains a backlog left on one broker slowly, by design, spec §8.4.5, §8.4.7.)
		last := Command{Type: "addConsumer", ID: "last", ClientRebalance: &off, ConsumeRate: ptr(2000), Kind: KindPush}
		if c.groups[0].orderly {
			last = Command{Type: "addConsumer", ID: "last", ConsumeRate: ptr(2000), Kind: KindGrpcPush} // it pops FIFO
		}
		mustApply(t, c, last)
		deadline := c.now + 3*3600_000
		for c.now < deadline {
			c.Advance(c.now + 1000)
			if err := popLedger(c); err != nil {
				t.Fatalf("seed %d at %s (quiet): %v after %v", seed, clock(c.now), err, applied)
			}
			if m := c.Metrics(); m.Invisible == 0 && unread(c) == 0 && m.InFlight == 0 && c.now%60000 == 0 {
				break
			}
		}
		m := c.Metrics()
		if m.Invisible != 0 || unread(c) != 0 {
			t.Fatalf("seed %d: after a quiet %s, %d invisible and %d not popped (actions %v)", seed, clock(c.now), m.Invisible, unread(c), applied)
		}
		if m.Lost != 0 {
			t.Fatalf("seed %d: %d lost (actions %v)", seed, m.Lost, applied)
		}
		// Every stored message was delivered at least once: a first delivery counts consumed,
		// and what a crash or ConsumeFromWhere passed over counts skipped.
		// A gRPC consumer's message can also be dead-lettered by the proxy before any listener
		// saw it: held by a hung or slow member past its invisible time, revived, and popped
		// with its last reconsume count (spec §8.3.8, §8.4.5 step 5) — by design.
		if stored := storedOnTopics(c); m.Consumed+m.Skipped+m.DeadLetteredUnseen < stored {
			t.Fatalf("seed %d: %d stored, consumed %d + skipped %d + dead-lettered unseen %d: %d never delivered (actions %v)",
				seed, stored, m.Consumed, m.Skipped, m.DeadLetteredUnseen, stored-m.Consumed-m.Skipped-m.DeadLetteredUnseen, applied)
		}
		if m.Popped == 0 {
			t.Errorf("seed %d: nothing was popped", seed)
		}
		if m.Reconsumed > 0 {
			reconsumedRuns++
		}
		if m.Revived > 0 {
			revivedRuns++
		}
	}
	// The runs reach the paths the test is about.
	if reconsumedRuns == 0 || revivedRuns == 0 {
		t.Fatalf("of %d runs, %d reconsumed a failed message and %d revived one: the POP paths were not exercised", seeds, reconsumedRuns, revivedRuns)
	}
	t.Logf("%d runs: %d reconsumed failed messages, %d revived", seeds, reconsumedRuns, revivedRuns)
}
