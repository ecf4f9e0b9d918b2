package cluster

import (
	"slices"
	"testing"
)

// brokerSideConfig is three members of one group on two brokers of 4 queues, the first two
// with clientRebalance false, under strategy.
func brokerSideConfig(strategy string) Config {
	off := false
	cfg := Config{Seed: 1, Brokers: []BrokerConfig{{Name: "broker-a", Queues: 4}, {Name: "broker-b", Queues: 4}},
		Topics:    []TopicConfig{{Name: "TopicTest"}},
		Groups:    []GroupConfig{{Name: "G"}},
		Consumers: []ConsumerConfig{{ID: "c1", ClientRebalance: &off}, {ID: "c2", ClientRebalance: &off}, {ID: "c3"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 100}}}
	cfg.Groups[0].Strategy.Name = strategy
	return cfg
}

// With clientRebalance false and AVG, the brokers compute what each member would have
// computed itself (spec §8.2.2: the same classes, the same sorting): the same queues as a
// group allocating on the client, its retry topic's included.
func TestBrokerSideAVGIsTheClientsAllocation(t *testing.T) {
	owners := func(cfg Config) map[string][]string {
		c := mustNew(t, cfg)
		c.Advance(60000)
		out := map[string][]string{}
		for _, q := range c.Snapshot().Queues {
			out[q.Queue] = q.Owners
		}
		return out
	}
	local := brokerSideConfig("AVG")
	for i := range local.Consumers {
		local.Consumers[i].ClientRebalance = nil
	}
	got, want := owners(brokerSideConfig("AVG")), owners(local)
	if len(got) != 10 {
		t.Fatalf("%d queues; want 8 and the retry topic's 2", len(got))
	}
	for q, o := range want {
		if !slices.Equal(got[q], o) {
			t.Errorf("%s: owners %v with the brokers allocating, %v with the client; want the same", q, got[q], o)
		}
	}
}

// A strategy the brokers do not run (CONSISTENT_HASH) leaves the members that ask them without
// any queue, rebalancing every second, while the member allocating itself takes its share
// (spec §8.2.2, inferred there): the others' shares are pulled by nobody.
func TestBrokerSideUnsupportedStrategyTakesNothing(t *testing.T) {
	c := mustNew(t, brokerSideConfig("CONSISTENT_HASH"))
	var told []string
	c.SetObserver(func(e Event) {
		if e.Cause == CauseAssignmentNull {
			told = append(told, e.Consumer)
		}
	})
	c.Advance(60000)
	held := map[string]int{}
	orphans := 0
	for _, q := range c.Snapshot().Queues {
		for _, o := range q.Owners {
			held[o]++
		}
		if len(q.Owners) == 0 {
			orphans++
		}
	}
	if held["c1"] != 0 || held["c2"] != 0 || held["c3"] == 0 || orphans == 0 {
		t.Errorf("held %v, %d orphans; want c1 and c2 without queues, c3 with its share, the rest pulled by nobody", held, orphans)
	}
	slices.Sort(told)
	if !slices.Equal(told, []string{"c1", "c2"}) {
		t.Errorf("told %v; want c1 and c2 once each", told)
	}
	if m := c.Metrics(); m.Rounds < 100 {
		t.Errorf("%d rounds in a minute; want c1's and c2's unbalanced rounds every second", m.Rounds)
	}
	// Back to client-side rebalance: c1 computes its own share again.
	on := true
	mustApply(t, c, Command{Type: "setClientRebalance", ID: "c1", ClientRebalance: &on})
	c.Advance(90000)
	n := 0
	for _, q := range c.Snapshot().Queues {
		if slices.Contains(q.Owners, "c1") {
			n++
		}
	}
	if n == 0 {
		t.Error("c1 holds nothing after clientRebalance was turned back on")
	}
}

// A classic member with clientRebalance false behind a proxy's remoting port is refused every
// assignment query (REQUEST_CODE_NOT_SUPPORTED): it never gets a queue, its retry topic's
// included, and rounds every second; it is on no broker's list, so the member connected to the
// brokers takes every queue (spec §8.1, §8.2.1).
func TestBrokerSideBehindAProxyTakesNothing(t *testing.T) {
	off := false
	cfg := brokerSideConfig("AVG")
	cfg.Proxies = []ProxyConfig{{Name: "proxy-1"}}
	cfg.Consumers = []ConsumerConfig{{ID: "c1", ClientRebalance: &off, Proxy: "proxy-1"}, {ID: "c3"}}
	c := mustNew(t, cfg)
	var told []Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseAssignmentRefused {
			told = append(told, e)
		}
	})
	c.Advance(60000)
	for _, v := range c.Snapshot().Consumers {
		switch {
		case v.ID == "c1" && len(v.Queues) != 0:
			t.Errorf("c1 holds %v; want nothing", v.Queues)
		case v.ID == "c3" && len(v.Queues) != 10: // 8 queues and the retry topic's one per broker
			t.Errorf("c3 holds %v; want every queue, the retry topic's too", v.Queues)
		}
	}
	for _, b := range c.brokers {
		if ch := b.groups[0].chans[c.process("c1")[0].idx]; ch != nil {
			t.Errorf("%s lists c1, which heartbeats its proxy", b.name)
		}
	}
	if len(told) != 1 || told[0].Arg != "proxy-1" {
		t.Errorf("told %+v; want once, naming proxy-1", told)
	}
	if m := c.Metrics(); m.Rounds < 50 {
		t.Errorf("%d rounds in a minute; want c1's unbalanced rounds every second", m.Rounds)
	}
	// addConsumer may start one too; one computing its own queues behind a proxy is refused.
	if err := c.Apply(Command{Type: "addConsumer", ID: "c4", Kind: KindPush, Proxy: "proxy-1"}); err == nil {
		t.Error("addConsumer of a classic consumer computing its own queues behind a proxy was accepted")
	}
	mustApply(t, c, Command{Type: "addConsumer", ID: "c5", Kind: KindPush, Proxy: "proxy-1", ClientRebalance: &off})
	c.Advance(90000)
	if cs := c.process("c5")[0]; cs.viaProxy != 1 || len(cs.queues()) != 0 || len(told) != 2 {
		t.Errorf("c5 via proxy %d, queues %v, told %d times; want behind proxy-1, no queue, told once more", cs.viaProxy, cs.queues(), len(told))
	}
	// Refused: through a proxy with clientRebalance true (not modelled), or a local proxy.
	cfg.Consumers[0].ClientRebalance = nil
	if _, err := New(cfg); err == nil {
		t.Error("a classic consumer allocating itself behind a proxy was accepted")
	}
	cfg.Consumers[0].ClientRebalance = &off
	cfg.Proxies[0].Mode = ProxyLocal
	if _, err := New(cfg); err == nil {
		t.Error("a classic consumer behind a local-mode proxy was accepted")
	}
}
