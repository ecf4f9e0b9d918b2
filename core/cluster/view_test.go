package cluster

import (
	"slices"
	"strings"
	"testing"
)

func brokerView(t *testing.T, s Snapshot, name string) BrokerView {
	t.Helper()
	for _, b := range s.Brokers {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no broker %s", name)
	return BrokerView{}
}

// A consumer cut off from the network keeps the view of its last round before the cut: the
// client list one broker answered then, and the queues it computed from it. Once the brokers
// have expired it, that list is stale, and all along its pulls reach nobody, while the others'
// views match what the brokers hold.
func TestRebalanceViewStaleAfterPartition(t *testing.T) {
	c := mustNew(t, smallConfig(200))
	c.Advance(30000)
	s := c.Snapshot()
	before := consumerView(t, s, "c2")
	v := before.View
	if v.IsZero() || v.Stale || v.LastAnswer != AnswerOK {
		t.Fatalf("c2 before the cut: %+v", v)
	}
	if want := []string{"c1", "c2", "c3"}; !slices.Equal(v.Cids, want) || !slices.Equal(v.Now, want) {
		t.Errorf("c2's list %v, %s now %v; want %v both", v.Cids, v.NowBroker, v.Now, want)
	}
	if v.Broker != "broker-a" && v.Broker != "broker-b" || v.AtMs <= 0 || v.AtMs > 30000 || v.AtMs > v.LastAskMs {
		t.Errorf("c2's view from %q at %d, last asked at %d", v.Broker, v.AtMs, v.LastAskMs)
	}
	if !slices.Equal(v.Computed, before.Queues) || !slices.Equal(v.Pulled, before.Queues) || len(v.Computed) == 0 {
		t.Errorf("c2 computed %v, pulls %v, holds %v", v.Computed, v.Pulled, before.Queues)
	}

	mustApply(t, c, Command{Type: "partitionConsumer", ID: "c2"})
	c.Advance(35000)
	cut := consumerView(t, c.Snapshot(), "c2").View
	// The brokers still list it: its list is not stale yet, but it pulls nothing.
	if cut.Stale || !slices.Equal(cut.Computed, v.Computed) || len(cut.Pulled) != 0 {
		t.Errorf("c2 just cut off: stale %v, computed %v, pulls %v", cut.Stale, cut.Computed, cut.Pulled)
	}

	c.Advance(200000) // past the brokers' expiry of its channel (120 s, spec §5.1)
	s = c.Snapshot()
	cv := consumerView(t, s, "c2")
	stale := cv.View
	if stale.AtMs != v.AtMs && stale.AtMs > 30000 {
		t.Errorf("c2's view moved to %d while it was cut off", stale.AtMs)
	}
	if !slices.Equal(stale.Cids, []string{"c1", "c2", "c3"}) || !slices.Equal(stale.Now, []string{"c1", "c3"}) || !stale.Stale {
		t.Errorf("c2 cut off: list %v, %s now %v, stale %v", stale.Cids, stale.NowBroker, stale.Now, stale.Stale)
	}
	if slices.Equal(stale.Computed, stale.Pulled) || len(stale.Pulled) != 0 || !slices.Equal(stale.Computed, cv.Queues) {
		t.Errorf("c2 cut off: computed %v, pulls %v, holds %v", stale.Computed, stale.Pulled, cv.Queues)
	}
	if stale.LastAnswer != AnswerFailed || stale.LastAskMs <= 30000 {
		t.Errorf("c2's latest query: %q at %d; want a failure after the cut", stale.LastAnswer, stale.LastAskMs)
	}
	for _, id := range []string{"c1", "c3"} {
		o := consumerView(t, s, id)
		ov := o.View
		if ov.Stale || !slices.Equal(ov.Cids, []string{"c1", "c3"}) || !slices.Equal(ov.Computed, o.Queues) || !slices.Equal(ov.Pulled, o.Queues) {
			t.Errorf("%s: %+v, holds %v", id, ov, o.Queues)
		}
	}
	// Between them c1 and c3 compute every queue, c2's included: an overlap with c2's table.
	all := append(slices.Clone(consumerView(t, s, "c1").View.Computed), consumerView(t, s, "c3").View.Computed...)
	slices.Sort(all)
	if len(all) != 8 {
		t.Errorf("c1 and c3 compute %v; want all 8 queues", all)
	}
	for _, q := range stale.Computed {
		if _, found := slices.BinarySearch(all, q); !found {
			t.Errorf("%s, computed by cut-off c2, is computed by neither c1 nor c3", q)
		}
	}

	// A killed process has no view; a healed one takes a fresh one.
	mustApply(t, c, Command{Type: "healConsumer", ID: "c2"})
	c.Advance(260000)
	healed := consumerView(t, c.Snapshot(), "c2").View
	if healed.Stale || healed.AtMs <= 230000 || !slices.Equal(healed.Computed, healed.Pulled) || healed.LastAnswer != AnswerOK {
		t.Errorf("c2 healed: %+v", healed)
	}
	mustApply(t, c, Command{Type: "killConsumer", ID: "c3"})
	if v := consumerView(t, c.Snapshot(), "c3").View; !v.IsZero() {
		t.Errorf("killed c3 has a view: %+v", v)
	}
}

// A broker's window counts the sends of the current virtual second and the four before it.
// One sync producer at 10 msg/s sends at 0, 100, 200, … ms, each stored 2–5 ms later (base
// latency 2, jitter 3). At 35.750 s the window is 31.000–35.750: sends 310…357, 48 of them.
// The publish list is a0 a1 b0 b1, taken in turn, so 48 consecutive sends are 24 on each
// broker. After broker-b is killed at 40 s (the route poll at 60 s has not dropped it yet), a
// pick of b0 or b1 fails at once and is sent again to the next queue on another broker (spec
// §2.2, §2.7): the picks go a1, b0→(b1 skipped)→a0, a1, b0→…, so in 41.000–45.750 all 48 sends
// are stored on broker-a and every second one failed first on broker-b.
func TestSendWindowShares(t *testing.T) {
	cfg := Config{Seed: 3,
		Brokers:   []BrokerConfig{{Name: "broker-a", Queues: 2}, {Name: "broker-b", Queues: 2}},
		Consumers: []ConsumerConfig{{ID: "c1"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 10}}}
	c := mustNew(t, cfg)
	c.Advance(35750)
	s := c.Snapshot()
	a, b := brokerView(t, s, "broker-a"), brokerView(t, s, "broker-b")
	for _, bv := range []BrokerView{a, b} {
		w := bv.Window
		if w.FromMs != 31000 || w.Stored != 24 || w.Share != 0.5 || w.Failed != 0 || w.Resent != 0 {
			t.Errorf("%s at 35.750: %+v; want 24 stored from 31.000, share 0.5", bv.Name, w)
		}
		if bv.SendLatencyMs < 3 || bv.SendLatencyMs > 6 {
			t.Errorf("%s: latest response %d ms; want 2–5 ms and the 1 ms round trip", bv.Name, bv.SendLatencyMs)
		}
	}
	mustApply(t, c, Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: ptr(40)})
	c.Advance(40000)
	mustApply(t, c, Command{Type: "killBroker", Broker: "broker-b"})
	c.Advance(45750)
	s = c.Snapshot()
	a, b = brokerView(t, s, "broker-a"), brokerView(t, s, "broker-b")
	if w := a.Window; w.FromMs != 41000 || w.Stored != 48 || w.Share != 1 || w.Failed != 0 {
		t.Errorf("broker-a after broker-b's kill: %+v; want all 48 sends", w)
	}
	if w := b.Window; w.Stored != 0 || w.Share != 0 || w.Failed != 24 || w.Resent != 24 {
		t.Errorf("broker-b down: %+v; want 24 failed attempts, each sent again", w)
	}
	if a.SendLatencyMs < 43 || a.SendLatencyMs > 46 {
		t.Errorf("slowed broker-a: latest response %d ms; want 40 + 2–5 + 1", a.SendLatencyMs)
	}
	// Messages on their way after a failed attempt say so.
	resend := false
	for at := int64(45750); at < 47000 && !resend; at += 10 {
		c.Advance(at)
		for _, ps := range c.Snapshot().Sends {
			resend = resend || ps.Resend
		}
	}
	if !resend {
		t.Error("no send on its way is marked as sent again")
	}
}

// An async producer's sends in flight to a broker that goes down fail in their callbacks and
// are sent again to the other broker (spec §2.9): the down broker's window counts them as
// failed and re-sent, the messages on their way say so, and within a window's span every
// stored message is the live broker's.
func TestSendWindowAsyncResends(t *testing.T) {
	cfg := Config{Seed: 5,
		Brokers:   []BrokerConfig{{Name: "broker-a", Queues: 2}, {Name: "broker-b", Queues: 2, LatencyMs: 200}},
		Consumers: []ConsumerConfig{{ID: "c1"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 1000, Mode: SendAsync}}}
	c := mustNew(t, cfg)
	c.Advance(40000)
	inFlight := 0
	for _, ps := range c.Snapshot().Sends {
		if strings.HasPrefix(ps.Queue, "broker-b:") {
			inFlight += ps.Count
		}
	}
	if inFlight == 0 {
		t.Fatal("nothing on its way to the slow broker-b")
	}
	mustApply(t, c, Command{Type: "killBroker", Broker: "broker-b"})
	s := c.Snapshot()
	b := brokerView(t, s, "broker-b")
	if b.Window.Failed < int64(inFlight) || b.Window.Resent < int64(inFlight) || b.Window.Resent > b.Window.Failed {
		t.Errorf("broker-b killed with %d messages on their way: window %+v", inFlight, b.Window)
	}
	resent := 0
	for _, ps := range s.Sends {
		if ps.Resend {
			resent += ps.Count
			if !strings.HasPrefix(ps.Queue, "broker-a:") {
				t.Errorf("a re-sent batch goes to %s", ps.Queue)
			}
		}
	}
	if resent == 0 {
		t.Error("no re-sent message on its way to broker-a")
	}
	c.Advance(40000 + 1000*SendWindowSeconds + 1000)
	a := brokerView(t, c.Snapshot(), "broker-a")
	if a.Window.Share != 1 || a.Window.Stored == 0 {
		t.Errorf("broker-a, the only one up: %+v", a.Window)
	}
}
