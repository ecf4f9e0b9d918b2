package cluster

import (
	"slices"
	"strings"
	"testing"
)

// localConfig is grpcConfig with the proxies inside the brokers.
func localConfig(ids, classic []string) Config {
	cfg := grpcConfig(ids, classic)
	cfg.Proxies[0].Mode = ProxyLocal
	return cfg
}

// ownQueues is how many queues of the main topic consumer id holds.
func ownQueues(c *Cluster, id string) int {
	for _, v := range c.Snapshot().Consumers {
		if v.ID == id {
			return len(slices.DeleteFunc(slices.Clone(v.Queues), func(q string) bool { return strings.HasPrefix(q, "%") }))
		}
	}
	return -1
}

// Through the proxies inside the brokers, a gRPC consumer is registered in every broker's
// ConsumerManager, so a classic member of its group counts it in its rebalance and takes half
// the queues; the brokers' own scan expires it 120 s after its last heartbeat, and each
// broker's proxy clears what it held there (spec §8.4.1 local mode, §8.4.6, §5.1).
func TestLocalProxyRegistersOnTheBrokers(t *testing.T) {
	c := mustNew(t, localConfig([]string{"g1"}, []string{"c1"}))
	var clears []Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseProxyClear {
			clears = append(clears, e)
		}
	})
	c.Advance(30000)
	g1 := c.process("g1")[0]
	for _, b := range c.brokers {
		if !c.registered(g1, b) {
			t.Errorf("%s does not list g1", b.name)
		}
	}
	if n := ownQueues(c, "c1"); n != 4 {
		t.Errorf("c1 holds %d of the 8 queues beside a registered gRPC member; want 4 (AVG over two client ids)", n)
	}
	if px := c.Snapshot().Proxies; len(px) != 1 || px[0].Mode != ProxyLocal || !slices.Equal(px[0].Clients, []string{"g1"}) {
		t.Errorf("snapshot proxies %+v; want the local proxy with client g1", px)
	}
	mustApply(t, c, Command{Type: "killConsumer", ID: "g1"})
	lastHB := c.brokers[0].groups[0].chans[g1.idx].lastHeartbeat
	c.Advance(30000 + 180000)
	if n := ownQueues(c, "c1"); n != 8 {
		t.Errorf("c1 holds %d queues after g1 expired; want all 8", n)
	}
	var on []string
	for _, e := range clears {
		on = append(on, e.Broker)
		if d := e.T - lastHB; d <= 120000 || d > 130000 {
			t.Errorf("the proxy inside %s cleared g1's messages %d ms after its last heartbeat; want 120–130 s", e.Broker, d)
		}
		if !strings.Contains(e.Text, "inside "+e.Broker) {
			t.Errorf("clear event %q does not name the proxy inside %s", e.Text, e.Broker)
		}
	}
	if slices.Sort(on); !slices.Equal(on, []string{"broker-a", "broker-b"}) {
		t.Errorf("cleared on %v; want once by the proxy inside each broker", on)
	}
}

// A gRPC client's settings, sent at its start and every 5 min, replace the group's table on
// each broker with its topics, which lack the retry topic; the next classic heartbeat puts
// it back. A cluster-mode proxy touches no broker's table (spec §8.4.9, §5.7).
func TestLocalProxySettingsFlipTheTable(t *testing.T) {
	for _, mode := range []string{ProxyLocal, ProxyCluster} {
		cfg := localConfig([]string{"g1"}, []string{"c1"})
		cfg.Proxies[0].Mode = mode
		c := mustNew(t, cfg)
		by := map[string][]int64{}
		c.SetObserver(func(e Event) {
			if e.Cause == CauseSubscription {
				by[e.Consumer] = append(by[e.Consumer], e.T)
			}
		})
		c.Advance(310000)
		if mode == ProxyCluster {
			if len(by["g1"]) != 0 {
				t.Errorf("cluster mode: g1 changed a broker's table at %v", by["g1"])
			}
			continue
		}
		var late []int64
		for _, at := range by["g1"] {
			if at >= 300000 {
				late = append(late, at)
			}
		}
		if len(late) != 2 || late[0] > 302000 {
			t.Errorf("g1's settings 5 min on changed the tables at %v; want twice (one per broker) at 5:01", late)
		}
		if !slices.ContainsFunc(by["c1"], func(at int64) bool { return at > late[0] }) {
			t.Errorf("c1's heartbeats did not put the retry topic back after 5:01 (its table changes at %v)", by["c1"])
		}
	}
}

// The proxy inside a broker puts each send without a message group on a random queue of its
// broker (a new view per call), where a cluster-mode proxy rotates over every queue; the
// client's index takes the brokers in turn (spec §8.4.5, §8.4.8).
func TestLocalProxySendsARandomQueue(t *testing.T) {
	for _, mode := range []string{ProxyLocal, ProxyCluster} {
		cfg := grpcConfig(nil, nil)
		cfg.Proxies[0].Mode = mode
		cfg.Producers[0].Kind = ProducerGrpc
		c := mustNew(t, cfg)
		c.Advance(60000)
		t0 := c.topics[0]
		var totals []int64
		for _, b := range c.brokers {
			var per []int64
			var sum int64
			for _, q := range b.topicOf(t0).qs {
				per = append(per, q.maxOffset)
				sum += q.maxOffset
			}
			totals = append(totals, sum)
			// A rotation restarted at each of the view's reloads (every 20 s) stays within a
			// few messages; 1,500 random draws per queue spread by tens.
			spread := slices.Max(per) - slices.Min(per)
			switch {
			case mode == ProxyCluster && spread > 8:
				t.Errorf("cluster mode: %s's queues hold %v; want a rotation", b.name, per)
			case mode == ProxyLocal && spread <= 8:
				t.Errorf("local mode: %s's queues hold %v, a rotation; want random queues", b.name, per)
			}
			t.Logf("%s mode: %s holds %v", mode, b.name, per)
		}
		if d := totals[0] - totals[1]; d > 4 || d < -4 || totals[0]+totals[1] < 11000 {
			t.Errorf("%s mode: the brokers store %v; want 12000 sends split within one run of 4", mode, totals)
		}
	}
}

// A killed broker takes the proxy inside it along, and its renewal table: the messages it was
// renewing are told, and come back once the broker is back (spec §8.4.6).
func TestLocalProxyDiesWithItsBroker(t *testing.T) {
	cfg := localConfig(nil, nil)
	cfg.Consumers = []ConsumerConfig{{ID: "slow", Kind: KindGrpcPush, ConsumeRate: 5}}
	c := mustNew(t, cfg)
	var down []Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseProxyDown {
			down = append(down, e)
		}
	})
	c.Advance(70000)
	mustApply(t, c, Command{Type: "killBroker", Broker: "broker-b"})
	if len(down) != 1 || down[0].Broker != "broker-b" || down[0].N == 0 || !strings.Contains(down[0].Text, "inside broker-b") {
		t.Fatalf("proxyDown events %+v; want one for the proxy inside broker-b, with the messages it renewed", down)
	}
	revived := c.Metrics().Revived
	mustApply(t, c, Command{Type: "restoreBroker", Broker: "broker-b"})
	c.Advance(down[0].Until + 5000)
	if got := c.Metrics().Revived; got <= revived {
		t.Errorf("revived %d → %d after the restart; want the messages the dead proxy renewed back", revived, got)
	}
}

// SipHash-2-4 with Guava's default key: the reference vectors of the SipHash paper (input
// 00 01 02 … of length 0 and 15).
func TestSipHash24(t *testing.T) {
	msg := make([]byte, 15)
	for i := range msg {
		msg[i] = byte(i)
	}
	if got := sipHash24(nil); got != 0x726fdb47dd0e0e31 {
		t.Errorf("SipHash-2-4 of nothing = %#x", got)
	}
	if got := sipHash24(msg); got != 0xa129ca6149be45e5 {
		t.Errorf("SipHash-2-4 of 00…0e = %#x", got)
	}
}
