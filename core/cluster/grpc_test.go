package cluster

import (
	"slices"
	"strings"
	"testing"
)

// grpcConfig is two brokers, one proxy, the gRPC consumers ids and the classic ones classic,
// all of group G.
func grpcConfig(ids, classic []string) Config {
	cfg := Config{Seed: 3, Brokers: []BrokerConfig{{Name: "broker-a", Queues: 4}, {Name: "broker-b", Queues: 4}},
		Groups: []GroupConfig{{Name: "G"}}, Proxies: []ProxyConfig{{Name: "proxy-1"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 200}}}
	for _, id := range ids {
		cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: id, Kind: KindGrpcPush})
	}
	for _, id := range classic {
		cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: id})
	}
	return cfg
}

// A gRPC consumer is on its proxy, not on the brokers: a classic member of the same group
// allocates as if it were alone, and the gRPC ones still pop every broker (spec §8.4.1,
// §8.4.3).
func TestGrpcConsumersAreNotOnTheBrokers(t *testing.T) {
	c := mustNew(t, grpcConfig([]string{"g1", "g2"}, []string{"c1"}))
	c.Advance(30000)
	for _, b := range c.brokers {
		for idx, ch := range b.groups[0].chans {
			if ch != nil && c.consumers[idx].grpc {
				t.Errorf("%s lists gRPC consumer %s", b.name, c.consumers[idx].id)
			}
		}
	}
	snap := c.Snapshot()
	for _, v := range snap.Consumers {
		switch v.ID {
		case "c1":
			if n := len(slices.DeleteFunc(slices.Clone(v.Queues), func(q string) bool { return strings.HasPrefix(q, "%") })); n != 8 {
				t.Errorf("c1 holds %v; alone on the brokers' lists it takes all 8 queues", v.Queues)
			}
		case "g1", "g2":
			if !slices.Equal(v.Queues, []string{"broker-a:-1", "broker-b:-1"}) || v.Kind != KindGrpcPush || v.Consumed == 0 {
				t.Errorf("%s: kind %q, queues %v, consumed %d; want grpc-push popping broker-a:-1 and broker-b:-1", v.ID, v.Kind, v.Queues, v.Consumed)
			}
		}
	}
}

// addConsumer starts a gRPC consumer when told, or by default in a group whose first member is
// one; without a proxy it says what is missing.
func TestAddGrpcConsumer(t *testing.T) {
	c := mustNew(t, grpcConfig([]string{"g1"}, nil))
	mustApply(t, c, Command{Type: "addConsumer", ID: "g2"})
	mustApply(t, c, Command{Type: "addConsumer", ID: "c9", Kind: KindPush})
	c.Advance(20000)
	kinds := map[string]string{}
	for _, v := range c.Snapshot().Consumers {
		kinds[v.ID] = v.Kind
	}
	if kinds["g2"] != KindGrpcPush || kinds["c9"] != "" {
		t.Errorf("kinds %v; want g2 grpc-push (as the group's first member), c9 classic (told)", kinds)
	}

	cfg := smallConfig(10)
	plain := mustNew(t, cfg)
	err := plain.Apply(Command{Type: "addConsumer", ID: "g1", Kind: KindGrpcPush})
	if err == nil || !strings.Contains(err.Error(), "proxy") {
		t.Errorf("addConsumer grpc-push without a proxy: %v; want an error naming the missing proxy", err)
	}
	cfg.Consumers[0].Kind = KindGrpcPush
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "consumers: c1") || !strings.Contains(err.Error(), "proxies") {
		t.Errorf("a grpc-push consumer without proxies: %v; want an error naming c1 and proxies", err)
	}
	cfg = grpcConfig([]string{"g1"}, nil)
	cfg.Groups[0].Orderly = true
	cfg.Consumers[0].Kind = KindGrpcSimple
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "FIFO SimpleConsumer") {
		t.Errorf("a SimpleConsumer of an orderly group: %v; want an error saying a FIFO SimpleConsumer is not modelled", err)
	}
	cfg = grpcConfig([]string{"g1"}, nil)
	cfg.Groups[0].Orderly = true
	c = mustNew(t, cfg)
	if err := c.Apply(Command{Type: "addConsumer", ID: "s1", Kind: KindGrpcSimple}); err == nil || !strings.Contains(err.Error(), "FIFO SimpleConsumer") {
		t.Errorf("addConsumer grpc-simple to an orderly group: %v; want the FIFO refusal", err)
	}
	cfg = grpcConfig(nil, nil)
	cfg.Proxies[0].Mode = "remote"
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "proxies[0].mode") || !strings.Contains(err.Error(), "local") {
		t.Errorf("an unknown proxy mode: %v; want an error naming proxies[0].mode and the modes", err)
	}
}

// A hung gRPC consumer's messages stay invisible while the proxy renews them, and it consumes
// them when it resumes; a partitioned one's are cleared when its channel expires (spec §8.4.6).
func TestGrpcRenewAndExpiry(t *testing.T) {
	c := mustNew(t, grpcConfig([]string{"g1", "g2"}, nil))
	c.Advance(10000)
	mustApply(t, c, Command{Type: "hangConsumer", ID: "g1"})
	c.Advance(10000 + 5*60000)
	if m := c.Metrics(); m.Renewed == 0 || m.Revived != 0 {
		t.Fatalf("after five minutes hung: renewed %d, revived %d; want renewals and nothing revived", m.Renewed, m.Revived)
	}
	mustApply(t, c, Command{Type: "resumeConsumer", ID: "g1"})
	c.Advance(c.Now() + 60000)
	if m := c.Metrics(); m.Invisible > 400 || m.Revived != 0 {
		t.Fatalf("a minute after resuming: invisible %d, revived %d; want what it held consumed, nothing revived", m.Invisible, m.Revived)
	}
	mustApply(t, c, Command{Type: "partitionConsumer", ID: "g2"})
	cut := c.Now()
	c.Advance(cut + 140000)
	var cleared int64
	for _, e := range c.Log() {
		if e.Cause == CauseProxyClear && e.Consumer == "g2" {
			cleared = e.T
		}
	}
	if cleared == 0 || cleared-cut > 130000 || cleared-cut < 100000 {
		t.Errorf("g2 cut off at %d, cleared at %d; want its channel to expire 110–130 s after", cut, cleared)
	}
}

// A message a live client holds is renewed for 3 h at most (spec §8.4.6): the proxy renews it to
// 1, 3, 5, 10, 30, 60, 60 … minutes while it comes within 10 s of its end; the first renewal
// found 3 h after the receipt makes it visible in the retry policy's delay instead, and it is
// revived onto the retry topic.
func TestProxyRenewsForThreeHoursAtMost(t *testing.T) {
	cfg := grpcConfig([]string{"g1"}, nil)
	cfg.Producers[0].Rate = 0
	c := mustNew(t, cfg)
	var popped, revivedAt int64 = -1, -1
	c.SetDetail(true)
	c.SetObserver(func(e Event) {
		switch {
		case e.Cause == CausePop && e.N > 0 && popped < 0:
			popped = e.T
		case e.Cause == CauseRevive && revivedAt < 0:
			revivedAt = e.T
		}
	})
	c.Advance(1000)
	mustApply(t, c, Command{Type: "hangConsumer", ID: "g1"}) // it receives, and never finishes
	mustApply(t, c, Command{Type: "setProducerRate", Rate: ptr(1)})
	c.Advance(1500) // one message
	mustApply(t, c, Command{Type: "setProducerRate", Rate: ptr(0)})
	c.Advance(popped + 13720_000 + 5000) // past the revive, before its next receipt's first renewal
	if popped < 0 {
		t.Fatal("the message was never received")
	}
	// Renewals end at +110 s, +280 s, +570 s, +1160 s, +2950 s, +6540 s, +10130 s (< 3 h),
	// +13720 s; the one at about +13710 s, past 3 h, is the last: visible 1 s later, revived
	// 2 s after that.
	if m := c.Metrics(); m.Renewed != 8 {
		t.Errorf("renewed %d times (produced %d); want 8 renewals of one message before the 3 h limit", m.Renewed, m.Produced)
	}
	if revivedAt < popped+3*3600_000 || revivedAt > popped+13720_000+5000 {
		t.Errorf("received at %s, revived at %s; want after 3 h, at the first renewal past it (about +3:48:34)", clockMs(popped), clockMs(revivedAt))
	}
}

// A killed PushConsumer's receives stay parked on the proxy's connection (spec §8.4.6,
// inferred there): a message arriving within their poll wakes one, whose messages the proxy
// nacks with 1 s and renews under their first handles all the same, so the others get them
// twice: a few seconds later, and again once the dead client's channel expires.
func TestKilledGrpcClientsParkedReceiveDeliversTwice(t *testing.T) {
	cfg := grpcConfig([]string{"g1", "g2"}, nil)
	cfg.Producers[0].Rate = 0
	c := mustNew(t, cfg)
	c.Advance(5000) // every receive parked: the topic is empty
	mustApply(t, c, Command{Type: "killConsumer", ID: "g1"})
	var ghost Event
	var revives []int64
	c.SetObserver(func(e Event) {
		switch {
		case e.Cause == CauseGhostReceive:
			ghost = e
		case e.Cause == CauseRevive && e.Consumer == "g1":
			revives = append(revives, e.T)
		}
	})
	c.Advance(7000) // (times are absolute)
	mustApply(t, c, Command{Type: "setProducerRate", Rate: ptr(20)})
	c.Advance(7500) // a few messages
	mustApply(t, c, Command{Type: "setProducerRate", Rate: ptr(0)})
	c.Advance(300000)
	if ghost.Consumer != "g1" || ghost.N == 0 || ghost.T > 5000+20000 {
		t.Fatalf("ghost receive %+v; want g1's parked receive woken within its 20 s poll", ghost)
	}
	if len(revives) < 2 || revives[0] < ghost.T+3000 || revives[0] > ghost.T+4100 || revives[len(revives)-1] < 5000+110000 {
		t.Errorf("g1's messages revived at %v (woken at %d); want 3.0–4.1 s after, and again after its channel expired", revives, ghost.T)
	}
	m := c.Metrics()
	if m.Duplicates < ghost.N || m.Lost != 0 || m.Consumed != m.Produced || m.Invisible != 0 {
		t.Errorf("metrics %+v; want the %d messages delivered twice, nothing lost", m, ghost.N)
	}
}

// A broker added to the cluster reaches the gRPC consumers' assignments through the proxy's
// route cache: the access 20 s or more after the view was written still gets the old view and
// starts a reload, so the new broker shows up at the first scan after that reload has ended,
// 0–25 s after the name server knew it when receives touch the cache too (spec §8.4.5,
// §8.6.4 step 4); the name server's own route would have shown it within one 5 s scan.
func TestGrpcAssignmentsReadTheProxysCache(t *testing.T) {
	var firstSeen []int64
	for _, at := range []int64{61_000, 67_000, 73_000, 79_000} {
		c := mustNew(t, grpcConfig([]string{"g1"}, nil))
		c.Advance(at)
		written := c.proxies[0].routes[c.topics[0].idx].written
		mustApply(t, c, Command{Type: "addBroker", Broker: "broker-c", Queues: ptr(4)})
		seen := int64(-1)
		for c.now < at+40_000 {
			c.Advance(c.now + 100)
			if slices.ContainsFunc(c.process("g1")[0].pops, func(pq popQueue) bool { return pq.mq.BrokerName == "broker-c" }) {
				seen = c.now
				break
			}
		}
		if seen < 0 || seen-at > 25_000 {
			t.Errorf("broker-c added at %s (the view written at %s): in g1's assignments at %s; want within 25 s", clock(at), clock(written), clock(seen))
			continue
		}
		// Not before the reload the first access 20 s after the last write started.
		if seen < written+proxyRefreshMs {
			t.Errorf("broker-c added at %s: seen at %s, before the view written at %s could be reloaded", clock(at), clock(seen), clock(written))
		}
		firstSeen = append(firstSeen, seen-at)
	}
	// The lag depends on where in the 20 s cycle the broker came: not always one scan.
	if len(firstSeen) == 4 && slices.Max(firstSeen) <= 5_000 {
		t.Errorf("broker-c seen %v ms after its addition; want the cache's lag, more than one 5 s scan at least once", firstSeen)
	}
	t.Logf("seen after %v ms", firstSeen)
}
