package cluster

import (
	"testing"
)

// fifoConfig is a FIFO gRPC group: an orderly group's gRPC PushConsumers, a gRPC producer of
// message groups.
func fifoConfig(ids ...string) Config {
	cfg := grpcConfig(ids, nil)
	cfg.Groups[0].Orderly = true
	cfg.Producers = []ProducerConfig{{ID: "orders", Rate: 100, Kind: ProducerGrpc, Keys: &KeysConfig{Count: 16, Prefix: "order-"}}}
	return cfg
}

// liveFifo lists the live FIFO batches by queue: un-acked and still invisible.
func liveFifo(c *Cluster) map[fifoKey][]popCK {
	out := map[fifoKey][]popCK{}
	for _, b := range c.brokers {
		for _, ck := range b.cks {
			if ck.fifo && !ck.revived && ck.acked < ck.n && c.now < ck.reviveAt {
				k := fifoKey{t: ck.t, q: ck.q + int32(100*b.idx)}
				out[k] = append(out[k], ck)
			}
		}
	}
	return out
}

// The proxy answers a FIFO group one assignment per read queue of each broker, so each
// consumer receives readQueueNums times per broker (spec §8.4.3, §8.4.4 FIFO).
func TestFifoAssignmentsPerQueue(t *testing.T) {
	for _, orderly := range []bool{true, false} {
		cfg := fifoConfig("f1", "f2")
		cfg.Groups[0].Orderly = orderly
		c := mustNew(t, cfg)
		c.Advance(3000)
		want := 2
		if orderly {
			want = 8
		}
		for _, id := range []string{"f1", "f2"} {
			if n := len(c.process(id)[0].pops); n != want {
				t.Errorf("orderly %v: %s has %d process queues; want %d", orderly, id, n, want)
			}
		}
	}
}

// A queue's batch blocks it until acked or invisible no more: never two live batches on one
// queue, and the committed offset is the first un-acked one (spec §8.3.9, §8.3.5). A killed
// consumer's batches, renewed by the proxy, are read again by the other one only after its
// channel expires, from the offset where it stopped (§8.4.6).
func TestFifoBatchBlocksItsQueue(t *testing.T) {
	cfg := fifoConfig("f1", "f2")
	cfg.Consumers[0].ConsumeRate = 5 // f1 holds its batches a while
	c := mustNew(t, cfg)
	var held map[fifoKey]popCK
	var lastHB int64
	for c.now < 240_000 {
		c.Advance(c.now + 100)
		for k, cks := range liveFifo(c) {
			if len(cks) > 1 && cks[0].cons != cks[1].cons {
				t.Fatalf("%s: two consumers' live batches on queue %v: %+v", clock(c.now), k, cks)
			}
		}
		if c.now == 60_000 {
			held = map[fifoKey]popCK{}
			f1 := c.process("f1")[0]
			for k, cks := range liveFifo(c) {
				if cks[0].cons == f1.idx {
					held[k] = cks[0]
				}
			}
			if len(held) == 0 {
				t.Fatal("f1 holds no batch at 1:00")
			}
			t.Logf("f1 holds batches on %d queues at 1:00", len(held))
			lastHB = c.proxies[0].chans[0].lastHB
			mustApply(t, c, Command{Type: "killConsumer", ID: "f1"})
		}
		if held == nil {
			continue
		}
		f2 := c.process("f2")[0]
		for k, cks := range liveFifo(c) {
			h, ok := held[k]
			if !ok || cks[0].cons != f2.idx {
				continue
			}
			if c.now < lastHB+proxyExpiredMs {
				t.Errorf("%s: f2 pops queue %v, which dead f1's renewed batch blocks until its channel expires (after %s)", clock(c.now), k, clock(lastHB+proxyExpiredMs))
			}
			if cks[0].from > h.from+h.n {
				t.Errorf("queue %v: f2 resumes at offset %d; f1's batch was %d…%d", k, cks[0].from, h.from, h.from+h.n)
			}
			delete(held, k)
		}
	}
	if len(held) > 0 {
		t.Errorf("queues %v of f1's batches were never read again", held)
	}
	if m := c.Metrics(); m.Lost != 0 || m.Acked+m.Revived+m.Invisible != m.Popped {
		t.Errorf("metrics %+v", m)
	}
}

// A FIFO message its listener fails is retried by the client itself after the retry policy's
// delays, 1 s, 5 s, 10 s, …, while the messages behind it wait (spec §8.3.8, §8.4.4 FIFO).
func TestFifoLocalRetry(t *testing.T) {
	cfg := fifoConfig("f1")
	cfg.Consumers[0].Groups = []MembershipConfig{{Group: "G", FailRate: 1}}
	c := mustNew(t, cfg)
	var delays []int64
	c.SetObserver(func(e Event) {
		if e.Cause == CauseChangeInvisible && e.Consumer == "f1" && e.Broker == "broker-a" && len(delays) < 3 {
			delays = append(delays, e.Until-e.T)
		}
	})
	c.Advance(30_000)
	if len(delays) < 3 || delays[0] != 1000 || delays[1] != 5000 || delays[2] != 10000 {
		t.Errorf("local retries after %v ms; want 1000, 5000, 10000 first", delays)
	}
	if m := c.Metrics(); m.Acked != 0 || m.Revived != 0 {
		t.Errorf("a failing FIFO consumer acked %d, revived %d; want nothing: each queue waits for its first message", m.Acked, m.Revived)
	}
}

// A FIFO SimpleConsumer is refused with its reason.
func TestFifoSimpleConsumerRefused(t *testing.T) {
	cfg := fifoConfig("f1")
	cfg.Consumers[0].Kind = KindGrpcSimple
	if _, err := New(cfg); err == nil {
		t.Error("a FIFO SimpleConsumer was accepted")
	}
}

// At maxAttempts the client forwards a failing FIFO message to the DLQ and goes on with the
// next one: the queue is not stuck (spec §8.3.8, §8.4.4 FIFO).
func TestFifoDeadLetterAfterMaxAttempts(t *testing.T) {
	cfg := fifoConfig("f1")
	cfg.Groups[0].MaxReconsumeTimes = 2 // maxAttempts 3: 1 s, 5 s, then the DLQ
	cfg.Consumers[0].Groups = []MembershipConfig{{Group: "G", FailRate: 1}}
	c := mustNew(t, cfg)
	c.Advance(5_000)
	dlqAt := c.Metrics().DeadLettered
	c.Advance(60_000)
	m := c.Metrics()
	if dlqAt != 0 || m.DeadLettered == 0 || m.Acked != m.DeadLettered {
		t.Errorf("dead-lettered %d by 0:05, then %d (acked %d); want none before the third attempt, then each failing message forwarded and acked", dlqAt, m.DeadLettered, m.Acked)
	}
	// Each failing message holds the rest of its answer 1 s + 5 s (an answer's messages are
	// consumed one after the other, whatever queue they come from).
	if m.DeadLettered < 10 {
		t.Errorf("dead-lettered %d in a minute; want at least 10", m.DeadLettered)
	}
	c.Advance(125_000)
	if later := c.Metrics().DeadLettered; later < m.DeadLettered+10 {
		t.Errorf("dead-lettered %d, then %d a minute later: the queues are stuck", m.DeadLettered, later)
	}
}
