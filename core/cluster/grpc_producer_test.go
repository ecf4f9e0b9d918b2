package cluster

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/selector"
)

// Guava's own checks of consistentHash: its values for 1…5 over 100 buckets, and that a
// growing bucket count moves an input only to the new bucket (spec §8.4.8).
func TestConsistentHashIsGuavas(t *testing.T) {
	for in, want := range map[int64]int{1: 55, 2: 62, 3: 8, 4: 45, 5: 59} {
		if got := consistentHash(in, 100); got != want {
			t.Errorf("consistentHash(%d, 100) = %d; Guava's is %d", in, got, want)
		}
	}
	for _, h := range []int64{-1, 0, 1, 2, 1<<63 - 1, -1 << 63, 8675309, -271828182845} {
		last := 0
		for buckets := 1; buckets <= 3000; buckets++ {
			b := consistentHash(h, buckets)
			if b != last {
				if b != buckets-1 {
					t.Fatalf("consistentHash(%d, %d) = %d: moved to an old bucket (last %d)", h, buckets, b, last)
				}
				last = b
			}
		}
	}
}

// grpcProducerConfig is two brokers of 4 queues, a proxy, one gRPC producer and a classic
// consumer.
func grpcProducerConfig() Config {
	return Config{Seed: 9, Brokers: []BrokerConfig{{Name: "broker-a", Queues: 4}, {Name: "broker-b", Queues: 4}},
		Proxies:   []ProxyConfig{{Name: "proxy-1"}},
		Consumers: []ConsumerConfig{{ID: "c1"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 80, Kind: ProducerGrpc}}}
}

// The proxy, not the client, chooses the queue: round robin over every writable queue of
// every broker in (broker, id) order, so the sends spread evenly over all 8 queues; a message
// group always lands on its consistent-hash queue (spec §8.4.8).
func TestGrpcProducerProxyChoosesTheQueue(t *testing.T) {
	c := mustNew(t, grpcProducerConfig())
	c.Advance(60000)
	per := map[string]int64{}
	for _, b := range c.brokers {
		bt := b.topicOf(c.topics[0])
		for id, q := range bt.qs {
			per[b.name+":"+string(rune('0'+id))] = q.maxOffset
		}
	}
	lo, hi := int64(1<<62), int64(0)
	for _, n := range per {
		lo, hi = min(lo, n), max(hi, n)
	}
	// Each reload of the proxy's view (every 20 s or so) restarts the round robin at a random
	// queue: a queue may be skipped or taken twice at each.
	if len(per) != 8 || hi-lo > 4 || lo == 0 {
		t.Errorf("stored per queue %v; want the round robin's even spread (within one a reload)", per)
	}

	cfg := grpcProducerConfig()
	cfg.Producers[0].Keys = &KeysConfig{Count: 1, Prefix: "order-"}
	k := mustNew(t, cfg)
	k.Advance(30000)
	want := consistentHash(int64(selector.StringHashCode("order-0")), 8)
	qs := k.proxyWriteQueues(k.topics[0])
	got := map[string]int64{}
	for _, b := range k.brokers {
		for id, q := range b.topicOf(k.topics[0]).qs {
			if q.maxOffset > 0 {
				got[b.name+":"+string(rune('0'+id))] = q.maxOffset
			}
		}
	}
	if len(got) != 1 || got[qs[want].Short()] == 0 {
		t.Errorf("message group order-0 stored on %v; want all on %s (consistentHash over the 8 sorted queues)", got, qs[want].Short())
	}
}

// A dead broker's queues stay in the proxy's cached view until a reload started 20 s or more
// after the last one has ended (§8.4.5): sends the proxy puts there fail, and so do their
// retries, which the round robin puts on the next queues, of the same broker (§8.4.8). Then
// every send goes to broker-a.
func TestGrpcProducerRetriesThroughTheProxy(t *testing.T) {
	c := mustNew(t, grpcProducerConfig())
	c.Advance(10000)
	mustApply(t, c, Command{Type: "killBroker", Broker: "broker-b"})
	killed := c.Metrics()
	c.Advance(c.Now() + 41000) // two refreshes at most: the view is reloaded by then
	reloaded := c.Metrics()
	c.Advance(c.Now() + 90000)
	m := c.Metrics()
	if reloaded.SendFailures == killed.SendFailures {
		t.Errorf("no send failed after broker-b died; want the proxy's stale view to put some there")
	}
	if m.SendFailures != reloaded.SendFailures || m.SendsPerBroker["broker-b"] != reloaded.SendsPerBroker["broker-b"] {
		t.Errorf("failures %d → %d, broker-b %d → %d after the reload; want none more", reloaded.SendFailures, m.SendFailures,
			reloaded.SendsPerBroker["broker-b"], m.SendsPerBroker["broker-b"])
	}
	if got := m.SendsPerBroker["broker-a"] - reloaded.SendsPerBroker["broker-a"]; got < 80*90-100 {
		t.Errorf("broker-a stored %d in the last 90 s; want every send (80/s)", got)
	}
}

// A gRPC producer needs a proxy and refuses what it does not have.
func TestGrpcProducerRefusals(t *testing.T) {
	cfg := grpcProducerConfig()
	cfg.Proxies = nil
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "producers[0]") || !strings.Contains(err.Error(), "proxies") {
		t.Errorf("no proxy: %v; want an error naming producers[0] and proxies", err)
	}
	for _, bad := range []func(*ProducerConfig){
		func(p *ProducerConfig) { p.Mode = SendAsync },
		func(p *ProducerConfig) { p.Client = "go" },
		func(p *ProducerConfig) { p.Kind = "http" },
		func(p *ProducerConfig) { p.Kind, p.Proxy = "", "proxy-1" },
	} {
		cfg := grpcProducerConfig()
		bad(&cfg.Producers[0])
		if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "producers[0]") {
			t.Errorf("%+v: %v; want an error naming producers[0]", cfg.Producers[0], err)
		}
	}
}
