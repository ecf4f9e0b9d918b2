package cluster

import (
	"strings"
	"testing"
)

// simpleConfig is brokers broker-a…, one proxy and the gRPC SimpleConsumers ids of group G.
func simpleConfig(brokers int, rate int, ids ...string) Config {
	cfg := Config{Seed: 5, Groups: []GroupConfig{{Name: "G"}}, Proxies: []ProxyConfig{{Name: "proxy-1"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: rate}}}
	for i := range brokers {
		cfg.Brokers = append(cfg.Brokers, BrokerConfig{Name: "broker-" + string(rune('a'+i)), Queues: 2})
	}
	for _, id := range ids {
		cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: id, Kind: KindGrpcSimple})
	}
	return cfg
}

// popsOf collects the pops (receives) c tells from now on, per consumer: the brokers, in order.
func popsOf(c *Cluster) map[string][]string {
	got := map[string][]string{}
	c.SetDetail(true)
	c.SetObserver(func(e Event) {
		if e.Cause == CausePop {
			got[e.Consumer] = append(got[e.Consumer], e.Broker)
		}
	})
	return got
}

// A SimpleConsumer is given nothing and receives from one broker after another (Java: readable
// brokers from a random start, spec §8.4.7), consumes everything and acks it; nothing is
// renewed.
func TestSimpleConsumerReceivesRoundRobin(t *testing.T) {
	c := mustNew(t, simpleConfig(3, 100, "s1", "s2"))
	pops := popsOf(c)
	c.Advance(60000)
	for _, id := range []string{"s1", "s2"} {
		seq := pops[id]
		if len(seq) < 6 {
			t.Fatalf("%s received %d times; want many", id, len(seq))
		}
		order := []string{"broker-a", "broker-b", "broker-c"}
		start := strings.Index(strings.Join(order, " "), seq[0]) / len("broker-a ")
		for i, b := range seq[:12] {
			if want := order[(start+i)%3]; b != want {
				t.Fatalf("%s's receives %v; want the brokers in turn", id, seq[:12])
			}
		}
	}
	m := c.Metrics()
	if m.Renewed != 0 || m.Lost != 0 || m.Produced-m.Consumed > 200 || m.Acked != m.Consumed {
		t.Errorf("metrics %+v; want everything but the last moments consumed and acked, nothing renewed", m)
	}
	for _, v := range c.Snapshot().Consumers {
		if v.Kind != KindGrpcSimple || v.Proxy != "proxy-1" || len(v.Queues) != 1 {
			t.Errorf("%s: kind %q, proxy %q, queues %v; want grpc-simple through proxy-1, drawn on the broker it receives from", v.ID, v.Kind, v.Proxy, v.Queues)
		}
	}
}

// The Go client's balancer starts at 0 and its first receive takes position 2 mod n, and it
// does not filter the route (spec §8.4.7).
func TestSimpleConsumerGoStartsAtTwo(t *testing.T) {
	cfg := simpleConfig(3, 0, "s1")
	cfg.Consumers[0].Client = "go"
	c := mustNew(t, cfg)
	pops := popsOf(c)
	c.Advance(60000)
	if got := pops["s1"]; len(got) < 3 || got[0] != "broker-c" || got[1] != "broker-a" || got[2] != "broker-b" {
		t.Errorf("the Go SimpleConsumer's receives went to %v; want broker-c, broker-a, broker-b, …", got)
	}
}

// What a SimpleConsumer received and did not ack comes back invisibleDuration after the
// receive plus the revive delay, killed or not — not two minutes later as a PushConsumer's
// (spec §8.4.6).
func TestKilledSimpleConsumerMessagesComeBackAfterTheirInvisibleTime(t *testing.T) {
	cfg := simpleConfig(1, 100, "s1", "s2")
	cfg.Consumers[0].ConsumeRate = 5
	cfg.Consumers[0].InvisibleDurationMs = 20000
	c := mustNew(t, cfg)
	var lastPop, revivedAt, revived int64
	c.SetDetail(true)
	c.SetObserver(func(e Event) {
		switch {
		case e.Cause == CausePop && e.Consumer == "s1" && e.N > 0:
			lastPop = e.T
			if e.Until != e.T+20000 {
				t.Errorf("%s; want invisible for its invisibleDuration of 20 s", e.Text)
			}
		case e.Cause == CauseRevive && e.Consumer == "s1":
			revived += e.N
			revivedAt = e.T
		}
	})
	c.Advance(30100) // s1 received 50 ms ago
	mustApply(t, c, Command{Type: "killConsumer", ID: "s1"})
	killedAt := c.Now()
	c.Advance(90000)
	if revived == 0 || lastPop == 0 || revivedAt < lastPop+20000+2000 || revivedAt > lastPop+20000+4200 || revivedAt > killedAt+25000 {
		t.Errorf("s1's %d messages revived at %d (last pop %d, killed %d); want them 22–24.2 s after its last receive", revived, revivedAt, lastPop, killedAt)
	}
	if m := c.Metrics(); m.Lost != 0 || m.Invisible != 0 && m.Invisible > 32 {
		t.Errorf("metrics %+v; want nothing lost, s2 consuming what came back", m)
	}
}

// A message the listener fails is not acked: it comes back after the invisible duration with
// its reconsume count one more, and the proxy dead-letters it at the 17th (spec §8.3.8).
func TestSimpleConsumerFailedMessageComesBackThenDeadLetters(t *testing.T) {
	cfg := simpleConfig(1, 0, "s1")
	cfg.Consumers[0].InvisibleDurationMs = 10000
	cfg.Consumers[0].Groups = []MembershipConfig{{Group: "G", FailRate: 1}}
	c := mustNew(t, cfg)
	var deliveries []int64
	deadAt := int64(-1)
	c.SetDetail(true)
	c.SetObserver(func(e Event) {
		switch {
		case e.Cause == CausePop && e.N > 0:
			deliveries = append(deliveries, e.T)
		case e.Cause == CauseDeadLetter:
			deadAt = e.T
		}
	})
	c.Advance(1000)
	mustApply(t, c, Command{Type: "setProducerRate", Rate: ptr(1)})
	c.Advance(1500)
	mustApply(t, c, Command{Type: "setProducerRate", Rate: ptr(0)})
	c.Advance(17 * 20000)
	// 17 deliveries (reconsume counts 0…16), then the pop with count 17 that the proxy
	// dead-letters instead of delivering.
	if len(deliveries) != 18 || deadAt != deliveries[17] {
		t.Fatalf("%d pops %v, dead-lettered at %d; want 18, the last dead-lettered", len(deliveries), deliveries, deadAt)
	}
	for i := 1; i < len(deliveries); i++ {
		// invisible 10 s, revived 2–3 s later onto the retry topic, popped within a long poll
		if d := deliveries[i] - deliveries[i-1]; d < 12000 || d > 13500 {
			t.Errorf("delivery %d came %d ms after the last; want 12–13.5 s (10 s invisible, the revive's 2–3 s)", i+1, d)
		}
	}
	if m := c.Metrics(); m.DeadLettered != 1 || m.Consumed != 1 || m.Reconsumed != 16 || m.Invisible != 0 {
		t.Errorf("metrics %+v; want 1 consumed, 16 reconsumptions, 1 dead-lettered, nothing invisible", m)
	}
}

// The proxy refuses every receive of an awaitDuration under 2 s or an invisibleDuration
// outside 10 s … 12 h, told once; addConsumer starts a SimpleConsumer when told.
func TestSimpleConsumerRefusalsAndAdd(t *testing.T) {
	cfg := simpleConfig(1, 50, "s1", "s2", "s3")
	cfg.Consumers[0].AwaitDurationMs = 1500
	cfg.Consumers[1].InvisibleDurationMs = 5000
	c := mustNew(t, cfg)
	refused := map[string]string{}
	c.SetObserver(func(e Event) {
		if e.Cause == CauseReceiveRefused {
			if refused[e.Consumer] != "" {
				t.Errorf("%s refused twice in the story", e.Consumer)
			}
			refused[e.Consumer] = e.Arg
		}
	})
	mustApply(t, c, Command{Type: "addConsumer", ID: "s4", Kind: KindGrpcSimple})
	c.Advance(30000)
	if refused["s1"] != "ILLEGAL_POLLING_TIME" || refused["s2"] != "ILLEGAL_INVISIBLE_TIME" || len(refused) != 2 {
		t.Errorf("refused %v; want s1 ILLEGAL_POLLING_TIME, s2 ILLEGAL_INVISIBLE_TIME", refused)
	}
	for _, v := range c.Snapshot().Consumers {
		want := v.ID == "s3" || v.ID == "s4"
		if (v.Consumed > 0) != want || v.Kind != KindGrpcSimple {
			t.Errorf("%s: kind %q consumed %d; want grpc-simple, consuming only if not refused", v.ID, v.Kind, v.Consumed)
		}
	}
	cfg = simpleConfig(1, 0, "s1")
	cfg.Consumers[0].Kind = KindGrpcPush
	cfg.Consumers[0].AwaitDurationMs = 5000
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "grpc-simple") {
		t.Errorf("awaitDurationMs on a grpc-push consumer: %v; want an error naming grpc-simple", err)
	}
}
