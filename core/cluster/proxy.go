package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/sim"
)

// Killing and restoring a cluster-mode proxy (killProxy, restoreProxy, addProxy; spec §8.4.1,
// §8.4.4, §8.4.6, §8.4.9). The proxy is a process of its own between the gRPC clients and the
// brokers; what it holds lives in its memory only: the ConsumerManager where its clients are
// registered (their channels, refreshed by their heartbeats) and the receipt-handle manager
// that renews their messages' invisible time. Killed, it takes both with it:
//
//   - every call of its clients fails while it is down. A PushConsumer's receive is retried
//     after 1 s (Java) or 20 ms (Go); a SimpleConsumer's application loop calls again after
//     1 s (the model's choice, as after a refusal); the assignment query fails, and Java keeps
//     its process queues while Go takes the failure for an empty answer and drops them
//     (§8.4.4 step 2); heartbeats fail (§8.4.9); acks and nacks fail and are retried every
//     1 s (§8.4.4), so they reach the restored proxy;
//   - the pops it had parked on the brokers for its clients are dropped: the broker's
//     connection to the proxy is gone, and a pop held for a dead connection answers nobody
//     (inferred);
//   - the handles it was renewing are renewed by nobody: each message comes back at the end
//     of its current invisible time plus the revive delay (§8.4.6, §8.3.7). A handle it had
//     renewed at least once names a checkpoint that is no longer the live one (each renewal
//     is a new checkpoint, §8.3.6); only the dead proxy knew the latest, so the client's ack
//     with its own handle acks the old checkpoint and the message still comes back, a
//     duplicate (inferred from §8.4.6's handle replacement, which needs the proxy's table).
//     A handle it never renewed still names the live checkpoint, and its held ack takes.
//
// restoreProxy starts a fresh process: an empty ConsumerManager and renewal table. Each
// client registers again at its next heartbeat (10 s apart, §8.4.9); its held acks and nacks
// go through at their next retry (inferred: the client's gRPC channel reconnects by itself,
// the Java transport recovery of §8.4.9 only hastens that; the model lets every call through
// as soon as the proxy is back, the held acks at once). A receive the new proxy completes
// before the client's heartbeat has registered it finds no channel: the proxy makes the
// popped messages invisible for 1 s and answers MESSAGE_NOT_FOUND "client … is disconnected"
// (§8.4.6, the last cases), so they come back about 3 s later, their reconsume count one more.
//
// The model's choices: killing a client's proxy does not end the client; the old process's
// renew and expiry timers stop, the new one's start with it (first renewal pass 5 s, first
// expiry scan 10 s after its start, §8.0). A stale nack (its message's live checkpoint renewed
// by the dead proxy) writes a second live checkpoint on the broker (§8.3.6); the model drops it
// (inferred: the message comes back once, at the live checkpoint's end).
//
// A local-mode proxy (proxy_local.go) lives inside each broker: it is killed and restored with
// its broker, and killProxy and restoreProxy refuse it.

// Proxy limits and numbers.
const (
	grpcReceiveRetryJavaMs = 1000 // a failed receive: Java retries after 1 s (§8.4.4)
	grpcReceiveRetryGoMs   = 20   // Go after 20 ms
	proxyNackUnknownMs     = 1000 // NACK_INVISIBLE_TIME (§8.0)
)

// heldAck is n messages of checkpoint ck on broker b its listener finished while the proxy
// was down: acked (fail false) or to be made invisible for the retry delay (fail true).
type heldAck struct {
	b    int
	ck   int64
	n    int64
	fail bool
}

// checkProxyMode checks a proxy's mode: cluster, or "" for it.
func checkProxyMode(mode string) error {
	switch mode {
	case "", ProxyCluster, ProxyLocal:
		return nil
	}
	return fmt.Errorf("%s; want %s or %s", Quote(mode), ProxyCluster, ProxyLocal)
}

// addProxy starts a proxy named name, of mode cluster or local, and its renew and expiry
// timers (a local one's stand for the timers of the proxy inside each broker).
func (c *Cluster) addProxy(name, mode string) *proxyState {
	px := &proxyState{idx: len(c.proxies), name: name, mode: mode}
	c.proxies = append(c.proxies, px)
	c.startProxyTimers(px)
	return px
}

// startProxyTimers starts the renewal pass (every 5 s) and the channel expiry scan (every
// 10 s) of px's current process.
func (c *Cluster) startProxyTimers(px *proxyState) {
	c.events.Push(sim.Event{At: c.now + proxyRenewEveryMs, Kind: evProxyRenew, A: px.idx, B: px.gen})
	c.events.Push(sim.Event{At: c.now + proxyScanEveryMs, Kind: evProxyScan, A: px.idx, B: px.gen})
}

// proxyNames lists the proxies' names for errors.
func (c *Cluster) proxyNames() string {
	names := make([]string, len(c.proxies))
	for i, px := range c.proxies {
		names[i] = px.name
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// onProxy is the apply function of a command on an existing proxy.
func onProxy(f func(c *Cluster, px *proxyState) error) func(*Cluster, Command) error {
	return func(c *Cluster, cmd Command) error {
		for _, px := range c.proxies {
			if px.name == cmd.Proxy {
				return f(c, px)
			}
		}
		return fmt.Errorf("no proxy %q (proxies: %s)", cmd.Proxy, c.proxyNames())
	}
}

// receiveRetryMs is when a gRPC consumer's failed receive goes out again.
func (cs *consumer) receiveRetryMs() int64 {
	switch {
	case cs.simple.on:
		return simpleRefusedWaitMs
	case cs.prof.IsGo():
		return grpcReceiveRetryGoMs
	}
	return grpcReceiveRetryJavaMs
}

func applyAddProxy(c *Cluster, cmd Command) error {
	if cmd.Proxy == "" {
		return errors.New("needs proxy, the new proxy's name")
	}
	if slices.ContainsFunc(c.proxies, func(px *proxyState) bool { return px.name == cmd.Proxy }) {
		return fmt.Errorf("proxy %q exists already", cmd.Proxy)
	}
	if len(c.proxies) >= MaxProxies {
		return fmt.Errorf("the cluster would have %d proxies; the limit is %d", len(c.proxies)+1, MaxProxies)
	}
	c.addProxy(cmd.Proxy, ProxyCluster)
	return nil
}

// applyKillProxy kills px's process: see the file's comment.
func applyKillProxy(c *Cluster, px *proxyState) error {
	if px.local() {
		return px.insideBrokers()
	}
	if px.down {
		return fmt.Errorf("proxy %q is down already", px.name)
	}
	px.down = true
	px.gen++
	px.chans = nil
	px.routes, px.sendIndex = nil, nil // its route cache and write selectors (grpc_producer.go)
	// Its clients' parked pops are dropped, and their receives in flight fail.
	var clients []string
	parked := 0
	for _, cs := range c.consumers {
		if cs.dead || !cs.grpc || cs.px != px.idx {
			continue
		}
		clients = append(clients, cs.id)
		for i := range cs.pops {
			pq := &cs.pops[i]
			if pq.parked {
				parked++
				c.unpark(cs, pq)
			}
			pq.nextPop = c.now + cs.receiveRetryMs()
		}
	}
	// Its renewal table is gone.
	var n, last int64
	for _, b := range c.brokers {
		bn, bl := c.dropRenewals(b, px)
		n, last = n+bn, max(last, bl)
	}
	who := "no client"
	if len(clients) > 0 {
		who = strings.Join(clients, ", ")
	}
	text := fmt.Sprintf("%s's memory is gone: the registrations of %s, %d pops it held on the brokers, and its renewal table; every call of its clients fails until it is back (receives retried after 1 s, Java, or 20 ms, Go)", px.name, who, parked)
	if n > 0 {
		text += fmt.Sprintf("; the %s it was renewing are renewed by nobody now: each comes back at the end of its invisible time plus the revive delay, the last at about %s", messages(n), clockMs(last+reviveQuietMs))
	}
	c.emit(Event{Kind: EventInfo, Cause: CauseProxyDown, N: n, Arg: px.name, Until: last + reviveQuietMs, Text: text})
	return nil
}

// dropRenewals is the end of proxy px's renewal table for broker b's checkpoints: nobody
// renews them now, and a handle px had renewed no longer names the live checkpoint. It returns
// how many messages they hold, and when the last of them reaches its revive time.
func (c *Cluster) dropRenewals(b *broker, px *proxyState) (n, last int64) {
	for i := range b.cks {
		ck := &b.cks[i]
		if cs := c.consumers[ck.cons]; !ck.renew || ck.revived || ck.acked >= ck.n || !cs.grpc || cs.px != px.idx {
			continue
		}
		ck.renew, ck.orphan = false, true
		n += ck.n - ck.acked
		last = max(last, ck.reviveAt)
	}
	return n, last
}

// applyRestoreProxy starts px anew: empty tables, new timers; the held acks go through.
func applyRestoreProxy(c *Cluster, px *proxyState) error {
	if px.local() {
		return px.insideBrokers()
	}
	if !px.down {
		return fmt.Errorf("proxy %q is running", px.name)
	}
	px.down, px.restarted = false, true
	px.gen++
	c.startProxyTimers(px)
	for _, cs := range c.consumers {
		if !cs.dead && cs.grpc && cs.px == px.idx && len(cs.held) > 0 {
			c.flushHeld(cs)
		}
	}
	return nil
}

// holdAck is cs's listener finishing m messages of ck (fails of them failed) when its ack
// cannot reach the live checkpoint: the proxy is down (the ack is held and retried), or ck
// was renewed by a proxy that died (the ack names the old checkpoint and takes no effect).
// Either way the messages were delivered: they are split off ck as a checkpoint of their own,
// so that what comes back of them counts as a duplicate.
func (c *Cluster) holdAck(cs *consumer, b *broker, ck *popCK, ok, fails int64) {
	m := ok + fails
	ck.acked += m
	split := *ck
	b.ckSeq++
	split.id, split.n, split.acked, split.kind, split.from = b.ckSeq, m, 0, kindDelivered, ck.from+ck.acked-m
	if ck.kind == kindFailed {
		split.kind = kindFailed
	}
	if ck.fifo {
		// The split belongs to the queue's batch: it blocks it until acked (fifo.go).
		fq := b.groups[cs.g.idx].fifoOf(ck.t, ck.q)
		fq.cks = append(fq.cks, b.ckSeq)
	}
	stale := ck.orphan && ck.renews > 0
	b.cks = append(b.cks, split) // ck may move: not used after this
	if stale {
		return
	}
	if ok > 0 {
		cs.held = append(cs.held, heldAck{b: b.idx, ck: split.id, n: ok})
	}
	if fails > 0 {
		cs.held = append(cs.held, heldAck{b: b.idx, ck: split.id, n: fails, fail: true})
	}
}

// flushHeld sends cs's held acks and nacks to its restored proxy: each takes where its
// checkpoint is still live and was not renewed by the dead proxy.
func (c *Cluster) flushHeld(cs *consumer) {
	var acked, nacked, missed int64
	for _, h := range cs.held {
		b := c.brokers[h.b]
		ck := b.ck(h.ck)
		if ck == nil || ck.revived || ck.acked >= ck.n || ck.renews > 0 || c.now >= ck.reviveAt {
			missed += h.n
			continue
		}
		if h.fail {
			c.changeInvisible(cs, b, ck, h.n)
			nacked += h.n
			continue
		}
		ck.acked += h.n
		c.metrics.Acked += h.n
		c.metrics.Invisible -= h.n
		acked += h.n
		if ck.fifo {
			c.fifoCommit(b, ck)
		}
	}
	cs.held = nil
	text := fmt.Sprintf("%s's acks held while %s was down reach the new %s: %s acked", c.who(cs), c.proxies[cs.px].name, c.proxies[cs.px].name, messages(acked))
	if nacked > 0 {
		text += fmt.Sprintf(", %s made invisible for their retry delay", messages(nacked))
	}
	if missed > 0 {
		text += fmt.Sprintf("; %s were revived or renewed meanwhile, so they come back (duplicates)", messages(missed))
	}
	c.emit(Event{Kind: EventInfo, Cause: CauseAckHeld, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, N: acked, Arg: c.proxies[cs.px].name, Text: text})
}

// nackUnknown is the proxy's answer to a receive whose pop found messages for a client it has
// no channel of (restarted since its last heartbeat): each popped message is made invisible
// for 1 s, the client gets MESSAGE_NOT_FOUND (spec §8.4.6).
func (c *Cluster) nackUnknown(cs *consumer, pq *popQueue, b *broker, first int) {
	var n int64
	for i := first; i < len(b.cks); i++ {
		ck := &b.cks[i]
		if ck.cons != cs.idx || ck.acked >= ck.n {
			continue
		}
		ck.reviveAt, ck.renew, ck.quiet = c.now+proxyNackUnknownMs, false, true
		n += ck.n - ck.acked
	}
	// They never reach the client's cache.
	pq.items = slices.DeleteFunc(pq.items, func(it popItem) bool {
		if ck := b.ck(it.ck); ck != nil && ck.cons == cs.idx && ck.popTime == c.now {
			pq.waitAck -= it.n
			return true
		}
		return false
	})
	if n == 0 {
		return
	}
	// The client receives again at once (Java; Go after 20 ms, §8.4.4) and meets the same
	// answer until its heartbeat registers it: told once, counted until then (inferred).
	cs.unknownNacked += n
	if cs.toldUnknown {
		return
	}
	cs.toldUnknown = true
	px := c.proxies[cs.px]
	c.emit(Event{Kind: EventInfo, Cause: CauseProxyClear, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, N: n, Arg: px.name, Until: c.now + proxyNackUnknownMs + reviveQuietMs,
		Text: fmt.Sprintf("%s pops %s for %s, whose heartbeat has not registered it with the restarted %s yet: the proxy makes %s invisible for 1 s and answers MESSAGE_NOT_FOUND (client disconnected), revived at about %s; %s receives again at once, and each receive goes the same way until its heartbeat",
			b.name, messages(n), c.who(cs), px.nameOn(b), them(n), clockMs(c.now+proxyNackUnknownMs+reviveQuietMs), c.who(cs))})
}
