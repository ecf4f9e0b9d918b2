package cluster

import (
	"strings"
	"testing"
)

// proxyWorld is a cluster-mode proxy with a slow Java PushConsumer s1 (it holds messages long
// enough for the proxy to renew them), a fast Java one j1 and a Go one g1.
func proxyWorld(t *testing.T) *Cluster {
	t.Helper()
	cfg := smallConfig(200)
	cfg.Proxies = []ProxyConfig{{Name: "proxy-1"}}
	cfg.Consumers = []ConsumerConfig{
		{ID: "s1", Kind: KindGrpcPush, ConsumeRate: 10},
		{ID: "j1", Kind: KindGrpcPush, ConsumeRate: 200},
		{ID: "g1", Kind: KindGrpcPush, ConsumeRate: 200, Client: "go"},
	}
	return mustNew(t, cfg)
}

// Spec §8.4.6: the renewal table lives in the proxy's memory. Killed, the proxy renews
// nothing more, and every message it was renewing comes back at the end of its current
// invisible time plus the revive delay (§8.3.7: at most R + 4.2 s); none waits for a renewal.
func TestKilledProxyRenewsNothing(t *testing.T) {
	c := proxyWorld(t)
	c.Advance(90000) // s1's first pops have been renewed once (at pop + 50–55 s, to 1 min)
	var renewed, last int64
	for _, b := range c.brokers {
		for _, ck := range b.cks {
			if ck.renew && !ck.revived && ck.acked < ck.n {
				last = max(last, ck.reviveAt)
				if ck.renews > 0 {
					renewed += ck.n - ck.acked
				}
			}
		}
	}
	if renewed == 0 {
		t.Fatal("no handle renewed before the kill; the test needs some")
	}
	var down Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseProxyDown {
			down = e
		}
	})
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	if down.Arg != "proxy-1" || down.N == 0 || down.Until != last+reviveQuietMs {
		t.Errorf("proxyDown %+v; want proxy-1, the messages it renewed, the last back at %d", down, last+reviveQuietMs)
	}
	before := c.metrics.Renewed
	c.Advance(last + 4200)
	if c.metrics.Renewed != before {
		t.Errorf("%d renewals while the proxy was down", c.metrics.Renewed-before)
	}
	for _, b := range c.brokers {
		for _, ck := range b.cks {
			if ck.popTime < 90000 && !ck.revived && ck.acked < ck.n {
				t.Errorf("%s: %d messages popped at %d still invisible at %d; want revived by their invisible time's end + 4.2 s", b.name, ck.n-ck.acked, ck.popTime, c.now)
			}
		}
	}
}

// Spec §8.4.4: while the proxy is down every receive fails (no pop reaches a broker, none is
// held there for its clients), the Java client keeps its process queues and the Go client
// drops them at its first failed assignment query (step 2); restored, the Go client takes
// its assignments again at its next scan, 5 s at most.
func TestKilledProxyFailsItsClientsCalls(t *testing.T) {
	c := proxyWorld(t)
	c.Advance(30000)
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	for _, b := range c.brokers {
		if len(b.parked) != 0 {
			t.Errorf("%s still holds %d pops of the dead proxy's clients", b.name, len(b.parked))
		}
	}
	popped := c.metrics.Popped
	c.Advance(c.now + 20000)
	if c.metrics.Popped != popped {
		t.Errorf("%d messages popped while the proxy was down", c.metrics.Popped-popped)
	}
	for _, cs := range c.consumers {
		switch {
		case cs.id == "g1" && len(cs.pops) != 0:
			t.Errorf("g1 (Go) keeps %d process queues after failed queries", len(cs.pops))
		case cs.id != "g1" && len(cs.pops) != 2:
			t.Errorf("%s (Java) has %d process queues; want both kept", cs.id, len(cs.pops))
		}
	}
	mustApply(t, c, Command{Type: "restoreProxy", Proxy: "proxy-1"})
	c.Advance(c.now + grpcScanEveryMs)
	for _, cs := range c.consumers {
		if len(cs.pops) != 2 {
			t.Errorf("%s has %d process queues 5 s after the restore; want 2", cs.id, len(cs.pops))
		}
	}
}

// Spec §8.4.9, §8.4.6: a restored proxy is a fresh process. Each client registers at its next
// heartbeat (within 10 s); until then a receive that pops messages finds no channel, and the
// proxy makes them invisible for 1 s instead of handing them over.
func TestRestoredProxyRegistersAtHeartbeats(t *testing.T) {
	c := proxyWorld(t)
	c.Advance(30000)
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	c.Advance(43500) // a backlog builds; the heartbeats come at 10 s + 1 s, so 6.5 s after the restore
	px := c.proxies[0]
	mustApply(t, c, Command{Type: "restoreProxy", Proxy: "proxy-1"})
	if len(px.chans) != 0 {
		t.Fatalf("the restarted proxy lists %d channels; want none", len(px.chans))
	}
	regs := map[string]Event{}
	var nacks []Event
	c.SetObserver(func(e Event) {
		switch e.Cause {
		case CauseProxyRegister:
			regs[e.Consumer] = e
		case CauseProxyClear:
			nacks = append(nacks, e)
		}
	})
	c.Advance(c.now + grpcHeartbeatMs)
	if len(px.chans) != 3 || len(regs) != 3 {
		t.Fatalf("%d channels, %d registrations 10 s after the restore; want all 3", len(px.chans), len(regs))
	}
	if len(nacks) == 0 {
		t.Fatal("no receive met the restarted proxy before its client's heartbeat")
	}
	for _, e := range nacks {
		if e.Until != e.T+proxyNackUnknownMs+reviveQuietMs || e.T >= regs[e.Consumer].T {
			t.Errorf("nack %+v; want a 1 s invisible time, before %s's registration at %d", e, e.Consumer, regs[e.Consumer].T)
		}
		if regs[e.Consumer].N < e.N {
			t.Errorf("%s's registration counts %d nacked messages; want at least %d", e.Consumer, regs[e.Consumer].N, e.N)
		}
	}
	// Renewed again from then on.
	before := c.metrics.Renewed
	c.Advance(c.now + 70000)
	if c.metrics.Renewed == before {
		t.Error("the restarted proxy renews nothing")
	}
}

// Spec §8.4.6, §8.3.6: each renewal writes a new checkpoint, and only the proxy knew the
// latest; a handle the dead proxy renewed is acked in vain (the ack names the old checkpoint),
// so its message comes back and is delivered again: a duplicate, never a loss.
func TestAckAfterProxyDeathMissesRenewedHandles(t *testing.T) {
	c := proxyWorld(t)
	c.Advance(90000)
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	c.Advance(c.now + 5000)
	mustApply(t, c, Command{Type: "restoreProxy", Proxy: "proxy-1"})
	c.Advance(c.now + 240000)
	if m := c.metrics; m.Duplicates == 0 || m.Lost != 0 {
		t.Errorf("duplicates %d, lost %d; want duplicates and nothing lost", m.Duplicates, m.Lost)
	}
}

// Acks taken while the proxy is down are retried (§8.4.4, every 1 s) and reach the restored
// proxy: those naming a live checkpoint it never renewed take.
func TestHeldAcksReachTheRestoredProxy(t *testing.T) {
	cfg := smallConfig(200)
	cfg.Proxies = []ProxyConfig{{Name: "proxy-1"}}
	cfg.Consumers = []ConsumerConfig{{ID: "j1", Kind: KindGrpcPush, ConsumeRate: 50}}
	c := mustNew(t, cfg)
	c.Advance(20000) // j1 holds a cache it consumes at 50/s; nothing renewed yet
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	c.Advance(c.now + 3000)
	j1 := c.consumers[0]
	if len(j1.held) == 0 {
		t.Fatal("j1 consumed nothing while the proxy was down")
	}
	acked := c.metrics.Acked
	var told Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseAckHeld {
			told = e
		}
	})
	mustApply(t, c, Command{Type: "restoreProxy", Proxy: "proxy-1"})
	if len(j1.held) != 0 || told.N == 0 || c.metrics.Acked-acked != told.N {
		t.Errorf("held %d after the restore, told %+v, acked %d more; want every held ack taken", len(j1.held), told, c.metrics.Acked-acked)
	}
}

// The commands' limits: a proxy by name, transitions that make sense, a proxy only for a gRPC
// consumer, at most MaxProxies, and a local-mode proxy is killed with its broker only.
func TestProxyCommandErrors(t *testing.T) {
	c := proxyWorld(t)
	c.Advance(2000)
	for _, tc := range []struct {
		cmd  Command
		want string
	}{
		{Command{Type: "killProxy", Proxy: "proxy-9"}, `no proxy "proxy-9" (proxies: proxy-1)`},
		{Command{Type: "killProxy"}, `no proxy "" (proxies: proxy-1)`},
		{Command{Type: "killProxy", Proxy: "bad name!"}, "proxy"},
		{Command{Type: "restoreProxy", Proxy: "proxy-1"}, `proxy "proxy-1" is running`},
		{Command{Type: "addProxy", Proxy: "proxy-1"}, `proxy "proxy-1" exists already`},
		{Command{Type: "addConsumer", ID: "c9", Kind: KindPush, Proxy: "proxy-1"}, "computing its own queues is not modelled behind a proxy"},
		{Command{Type: "addConsumer", ID: "c9", Kind: KindGrpcPush, Proxy: "proxy-9"}, `proxy "proxy-9" is no proxy`},
		{Command{Type: "killProxy", Proxy: "proxy-1", ID: "s1"}, "takes no id"},
	} {
		if err := c.Apply(tc.cmd); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v; want it to contain %q", tc.cmd, err, tc.want)
		}
	}
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	if err := c.Apply(Command{Type: "killProxy", Proxy: "proxy-1"}); err == nil || !strings.Contains(err.Error(), "down already") {
		t.Errorf("a second kill: %v", err)
	}
	for i := len(c.proxies); i < MaxProxies; i++ {
		mustApply(t, c, Command{Type: "addProxy", Proxy: "px-" + string(rune('a'+i))})
	}
	if err := c.Apply(Command{Type: "addProxy", Proxy: "one-more"}); err == nil || !strings.Contains(err.Error(), "the limit is 16") {
		t.Errorf("a 17th proxy: %v", err)
	}
	// A consumer of an added proxy connects to it.
	mustApply(t, c, Command{Type: "addConsumer", ID: "c9", Kind: KindGrpcPush, Proxy: "px-b"})
	if cs := c.process("c9")[0]; c.proxies[cs.px].name != "px-b" {
		t.Errorf("c9 connects to %s; want px-b", c.proxies[cs.px].name)
	}
	cfg := smallConfig(10)
	cfg.Proxies = []ProxyConfig{{Name: "proxy-1", Mode: ProxyLocal}}
	c = mustNew(t, cfg)
	for _, typ := range []string{"killProxy", "restoreProxy"} {
		if err := c.Apply(Command{Type: typ, Proxy: "proxy-1"}); err == nil || !strings.Contains(err.Error(), "inside every broker") {
			t.Errorf("%s of a local-mode proxy: %v; want a refusal saying it lives in the brokers", typ, err)
		}
	}
}

// A snapshot taken while the proxy is down runs on as the original does (the playground's
// seeks and comparisons clone the cluster).
func TestCloneWithProxyDown(t *testing.T) {
	c := proxyWorld(t)
	c.Advance(90000)
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	c.Advance(c.now + 2000)
	d := c.Clone()
	for _, x := range []*Cluster{c, d} {
		mustApply(t, x, Command{Type: "restoreProxy", Proxy: "proxy-1"})
		x.Advance(x.now + 60000)
	}
	if a, b := c.metrics, d.metrics; a.Consumed != b.Consumed || a.Popped != b.Popped || a.Acked != b.Acked || a.Revived != b.Revived || a.Duplicates != b.Duplicates || a.Renewed != b.Renewed {
		t.Errorf("the clone's metrics %+v differ from the original's %+v", d.metrics, c.metrics)
	}
}

// A graceful shutdown while the proxy is down: its NotifyClientTermination fails too, and
// nobody clears its messages; they come back at the end of their invisible time (§8.4.6).
func TestStopWhileProxyDown(t *testing.T) {
	c := proxyWorld(t)
	c.Advance(30000)
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	var cleared bool
	c.SetObserver(func(e Event) { cleared = cleared || e.Cause == CauseProxyClear })
	mustApply(t, c, Command{Type: "stopConsumer", ID: "s1"})
	if cleared {
		t.Error("a dead proxy cleared the stopped consumer's messages")
	}
	if e := c.Log()[len(c.Log())-1]; !strings.Contains(e.Text, "NotifyClientTermination fails") {
		t.Errorf("the stop says %q", e.Text)
	}
}

// The snapshot shows each proxy, whether it is down and whom it has registered, and a gRPC
// producer's kind and proxy.
func TestSnapshotShowsProxies(t *testing.T) {
	cfg := grpcConfig([]string{"g1", "g2"}, nil)
	cfg.Producers[0].Kind = ProducerGrpc
	c := mustNew(t, cfg)
	c.Advance(5000)
	s := c.Snapshot()
	if len(s.Proxies) != 1 || s.Proxies[0].Name != "proxy-1" || s.Proxies[0].Down || strings.Join(s.Proxies[0].Clients, " ") != "g1 g2" {
		t.Errorf("proxies %+v; want proxy-1 up with g1 and g2 registered", s.Proxies)
	}
	if p := s.Producers[0]; p.Kind != ProducerGrpc || p.Proxy != "proxy-1" || p.Client != "" {
		t.Errorf("producer %+v; want a gRPC producer of proxy-1", p)
	}
	mustApply(t, c, Command{Type: "killProxy", Proxy: "proxy-1"})
	if s := c.Snapshot(); !s.Proxies[0].Down || len(s.Proxies[0].Clients) != 0 {
		t.Errorf("after killProxy: %+v; want down, nobody registered", s.Proxies)
	}
	if s := mustNew(t, smallConfig(10)).Snapshot(); s.Proxies != nil {
		t.Errorf("a run without proxies shows %+v", s.Proxies)
	}
}

// addProxy without a name is refused, so nothing unnamed enters the cluster or a shared
// timeline.
func TestAddProxyNeedsAName(t *testing.T) {
	c := mustNew(t, grpcConfig([]string{"g1"}, nil))
	if err := c.Apply(Command{Type: "addProxy"}); err == nil || !strings.Contains(err.Error(), "needs proxy") {
		t.Errorf("addProxy without a name: %v; want an error saying it needs proxy", err)
	}
	if n := len(c.Snapshot().Proxies); n != 1 {
		t.Errorf("%d proxies after a refused addProxy; want 1", n)
	}
}
