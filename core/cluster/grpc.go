package cluster

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/route"
)

// gRPC PushConsumers through a proxy (spec §8.1 item 3, §8.4): the RocketMQ 5 clients of
// apache/rocketmq-clients. A gRPC consumer is registered on its proxy, not on the brokers
// (cluster mode, §8.4.1), so it is in no broker's member list and no strategy, rebalance or
// notification concerns it. Every 5 s (first after 1 s) it asks the proxy for its assignments,
// and the proxy answers every consumer of the group alike: each readable broker's acting queue
// (topic, broker, −1) (§8.4.3). One process queue per assignment receives: the proxy pops that
// broker (§8.4.5) with a 20 s long poll and 60 s of invisible time, whatever queue was asked,
// and registers each message for auto-renewal; the client sends its next receive as soon as an
// answer comes, unless its cache is full (§8.4.4). A message its listener fails is made
// invisible for the retry policy's next delay (1 s, 5 s, 10 s, …); one popped with its 17th
// reconsume count goes to %DLQ%<group> at the proxy, never to the client (§8.3.8).
//
// The proxy renews every handle that comes within 10 s of its end, to 1, 3, 5, 10, 30, 60
// minutes (§8.4.6); a client whose heartbeats stopped is noticed at the proxy's first 10 s scan
// 120 s after its last one (its channel expires) and every handle it held is made visible in
// 1 s, so a killed consumer's messages come back about two minutes later, not after their
// invisible time. A graceful shutdown clears them at once.
//
// A proxy can be killed and restored (killProxy, restoreProxy; proxy.go): its clients' calls
// fail while it is down, and what it held in memory, its ConsumerManager and its renewal
// table, is gone with the process.
//
// A killed client's receives stay parked on the proxy's connection until their poll ends
// (inferred, §8.4.6): one woken by a message pops for the dead client, and the proxy nacks
// those messages with 1 s and renews them under their first handles all the same, a second
// checkpoint each, cleared when the channel expires: they reach the others twice.
//
// The assignment query reads the proxy's route cache (§8.4.5, grpc_producer.go), shared with
// the sends, and each receive is an access to it too, so a broker added or gone reaches the
// assignments only after the reload an access 20 s or more after the last one starts
// (§8.6.4 step 4).
//
// The model's choices: the clients' own routes (their 30 s refresh, §8.4.9) are the name
// server's route as it is now; renewals always succeed. An orderly group's PushConsumers receive FIFO (fifo.go). A
// local-mode proxy, inside each broker, registers its clients on the brokers instead
// (proxy_local.go).

// Consumer kinds (scenario consumers[].kind).
const (
	KindPush     = "push"      // the classic remoting push consumer (§3, §8.2)
	KindGrpcPush = "grpc-push" // the gRPC PushConsumer through a proxy (§8.4.4)
)

// ConsumerKinds are the kinds a consumer may have.
var ConsumerKinds = []string{KindPush, KindGrpcPush, KindGrpcSimple}

// Proxy modes (scenario proxies[].mode).
const (
	ProxyCluster = "cluster"
	ProxyLocal   = "local" // a proxy inside each broker (§8.4.1, proxy_local.go)
)

// The gRPC clients' and the proxy's numbers (spec §8.0).
const (
	grpcScanFirstMs    = 1000   // PushConsumer assignment scan: first after 1 s
	grpcScanEveryMs    = 5000   // then every 5 s
	grpcHeartbeatMs    = 10_000 // heartbeats every 10 s, first after 1 s
	grpcPollMs         = 20_000 // the proxy's long poll (grpcClientConsumerMaxLongPollingTimeoutMillis)
	grpcCacheCount     = 4096   // Java maxCacheMessageCount, shared by the process queues
	grpcCacheFullMs    = 1000   // cache full: receive again after 1 s
	proxyRenewEveryMs  = 5000   // renewSchedulePeriodMillis
	proxyRenewAheadMs  = 10_000 // renewAheadTimeMillis
	proxyRenewMaxMs    = 3 * 3600_000
	proxyScanEveryMs   = 10_000 // the channel expiry scan
	proxyExpiredMs     = 120_000
	proxyClearMs       = 1000 // invisibleTimeMillisWhenClear
	grpcMaxAttemptsAdd = 1    // maxAttempts = retryMaxTimes + 1
)

// proxyRenew are RenewStrategyPolicy's durations by renew count, in ms (the last repeats).
var proxyRenew = [...]int64{60_000, 180_000, 300_000, 600_000, 1_800_000, 3_600_000}

// grpcRetryDelays is the group's CUSTOMIZED retry policy, indexed by delivery attempt − 1
// (spec §8.3.8: 1 s, 5 s, 10 s, 30 s, 1 m, …, 2 h; the last repeats).
var grpcRetryDelays = [...]int64{1, 5, 10, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600, 7200}

// ProxyConfig is a proxy of the scenario (format 2's proxies[]).
type ProxyConfig struct {
	Name string `json:"name"`
	Mode string `json:"mode,omitempty"` // cluster (the default) or local
}

// proxyState is one proxy process: the gRPC clients registered on it (its ConsumerManager).
type proxyState struct {
	idx        int
	name, mode string
	chans      []proxyChan // in registration order
	// Its write views' round-robin index by topic, and the stream of their random starts
	// (grpc_producer.go).
	sendIndex map[int]int64
	rnd       *jrand.Random
	routes    map[int]*proxyRoute // its route cache's write views by topic
	// down: killed (killProxy) and not restored; gen counts its starts, so that the timers
	// of a process that died stop; restarted: started again, its clients' registrations
	// are told.
	down      bool
	gen       int
	restarted bool
}

// proxyChan is a registered client's channel and its last heartbeat.
type proxyChan struct {
	cons   int
	lastHB int64
}

// addProxies declares the scenario's proxies and starts their renew and expiry timers.
func (c *Cluster) addProxies(cfg Config) error {
	for i, pc := range cfg.Proxies {
		if pc.Name == "" {
			return fmt.Errorf("proxies[%d].name: empty", i)
		}
		if slices.ContainsFunc(c.proxies, func(p *proxyState) bool { return p.name == pc.Name }) {
			return fmt.Errorf("proxies[%d].name: %q appears twice", i, pc.Name)
		}
		if err := checkProxyMode(pc.Mode); err != nil {
			return fmt.Errorf("proxies[%d].mode: %w", i, err)
		}
		c.addProxy(pc.Name, cmp.Or(pc.Mode, ProxyCluster))
	}
	return nil
}

// proxyFor is the proxy a gRPC consumer connects to: the one it names, else the first.
func (c *Cluster) proxyFor(name string) (*proxyState, error) {
	if len(c.proxies) == 0 {
		return nil, fmt.Errorf("a gRPC consumer reaches the brokers through a proxy, and the scenario has none (proxies: [{\"name\": \"proxy-1\"}])")
	}
	if name == "" {
		return c.proxies[0], nil
	}
	for _, px := range c.proxies {
		if px.name == name {
			return px, nil
		}
	}
	return nil, fmt.Errorf("proxy %q is no proxy of proxies", name)
}

// checkGrpcGroup refuses a gRPC consumer in a group whose gRPC behaviour is not modelled.
func checkGrpcGroup(g *groupState, simple bool) error {
	switch {
	case g.orderly && simple:
		return fmt.Errorf("group %s is orderly: a FIFO SimpleConsumer is not modelled (grpc-push consumes FIFO)", g.name)
	case g.model == Broadcasting:
		return fmt.Errorf("group %s is BROADCASTING: gRPC consumers consume in CLUSTERING only", g.name)
	}
	return nil
}

// startGrpc sets a new process up as a gRPC PushConsumer of proxy px: it subscribes no retry
// topic, heartbeats the proxy and scans its assignments; nothing goes to the brokers.
func (c *Cluster) startGrpc(cs *consumer, px *proxyState) {
	cs.grpc, cs.px = true, px.idx
	cs.subs = slices.DeleteFunc(cs.subs, func(s *subscription) bool { return s.t.isRetry() })
	cs.order = nil
	for i := range cs.subs {
		cs.order = append(cs.order, i)
	}
	cs.subsGen++
	cs.lead, cs.peers = cs, []*consumer{cs}
	c.schedule(cs, genRebalance, evRebalance, c.now+grpcScanFirstMs)
	c.schedule(cs, genHeartbeat, evHeartbeat, c.now+grpcScanFirstMs)
}

// grpcHeartbeat is a gRPC client's heartbeat: it registers or refreshes its channel on its
// proxy (spec §8.4.9).
func (c *Cluster) grpcHeartbeat(cs *consumer) {
	if cs.dead || cs.partitioned {
		return
	}
	px := c.proxies[cs.px]
	if px.local() {
		c.localHeartbeat(cs)
		return
	}
	if px.down {
		return // the call fails: nothing listens at the proxy's address
	}
	if i := slices.IndexFunc(px.chans, func(ch proxyChan) bool { return ch.cons == cs.idx }); i >= 0 {
		px.chans[i].lastHB = c.now
		return
	}
	px.chans = append(px.chans, proxyChan{cons: cs.idx, lastHB: c.now})
	if px.restarted {
		text := fmt.Sprintf("%s's heartbeat registers it with the restarted %s: its receives are answered and its handles renewed again", c.who(cs), px.name)
		if cs.unknownNacked > 0 {
			text += fmt.Sprintf("; until now the proxy made the %s it popped for it invisible for 1 s", messages(cs.unknownNacked))
		}
		c.emit(Event{Kind: EventInfo, Cause: CauseProxyRegister, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Arg: px.name, N: cs.unknownNacked, Text: text})
		cs.unknownNacked, cs.toldUnknown = 0, false
	}
}

// proxyOf is the proxy gRPC client cs calls through (nil: a remoting client).
func (c *Cluster) proxyOf(cs *consumer) *proxyState {
	if !cs.grpc {
		return nil
	}
	return c.proxies[cs.px]
}

// registered reports whether cs's channel is on the proxy that serves its calls to broker b:
// its cluster-mode proxy's ConsumerManager, or b's own (local mode, proxy_local.go).
func (c *Cluster) registered(cs *consumer, b *broker) bool {
	if c.proxies[cs.px].local() {
		ch := b.groupOf(cs).chans[cs.idx]
		return !b.down && ch != nil && ch.registered
	}
	return slices.ContainsFunc(c.proxies[cs.px].chans, func(ch proxyChan) bool { return ch.cons == cs.idx })
}

// scanAssignments is the PushConsumer's scanAssignments (spec §8.4.4): for each topic it
// subscribes, QueryAssignment at the proxy, then syncProcessQueue. A failed query (the client
// cut off) keeps everything, as the Java client does.
func (c *Cluster) scanAssignments(cs *consumer) {
	if cs.dead || cs.partitioned {
		return
	}
	before := cs.queues()
	changed := false
	if c.proxies[cs.px].down {
		// The query fails (spec §8.4.4 step 2): Java logs it and keeps everything; Go takes
		// the failure for an empty answer and drops every process queue of the topic.
		if cs.prof.IsGo() && len(cs.pops) > 0 {
			for _, sub := range cs.subs {
				changed = c.updatePopQueues(cs, sub.t, nil, 0) || changed
			}
		}
		if changed {
			c.tellRebalance(cs, before)
			c.noteOwnership()
		}
		return
	}
	px := c.proxies[cs.px]
	for _, sub := range cs.subs {
		// The answer comes from the proxy's route cache (§8.4.5, §8.6.4 step 4). The proxies
		// inside the brokers each have their own; the model reads the name server's route
		// for them (proxy_local.go).
		reads := c.readableBrokers(sub.t)
		if !px.local() {
			reads = c.proxyView(px, sub.t).assign
		}
		target := proxyAnswer(sub.t, reads, cs.fifoPops())
		if len(target) == 0 {
			continue // FORBIDDEN "no readable queue": Java keeps its queues (§8.4.4 step 3)
		}
		changed = c.updatePopQueues(cs, sub.t, target, 0) || changed
	}
	if changed {
		c.tellRebalance(cs, before)
		c.noteOwnership()
	}
}

// readableBrokers is what the proxy's QueryAssignment answer for topic t is built from (spec
// §8.4.3, proxyAnswer): the route's readable brokers with read queues, in route order.
func (c *Cluster) readableBrokers(t *topicState) []route.QueueData {
	var out []route.QueueData
	for _, qd := range c.nameServerRoute(t).QueueDatas {
		if qd.Perm&route.PermRead != 0 && qd.ReadQueueNums > 0 {
			out = append(out, qd)
		}
	}
	return out
}

// proxyAnswer is the answer built from the readable brokers reads (§8.4.3): each one's
// broker-acting queue, or for a FIFO group each of its read queues.
func proxyAnswer(t *topicState, reads []route.QueueData, fifo bool) []route.MessageQueue {
	var out []route.MessageQueue
	for _, qd := range reads {
		if !fifo {
			out = append(out, route.MessageQueue{Topic: t.name, BrokerName: qd.BrokerName, QueueID: -1})
			continue
		}
		for i := range qd.ReadQueueNums {
			out = append(out, route.MessageQueue{Topic: t.name, BrokerName: qd.BrokerName, QueueID: i})
		}
	}
	route.SortQueues(out)
	return out
}

// grpcBatch is how many messages pq's next receive asks for, 0 when the cache is full
// (spec §8.4.4: the threshold per queue is maxCacheMessageCount over the process queues).
func (cs *consumer) grpcBatch(pq *popQueue) int64 {
	threshold := max(1, grpcCacheCount/int64(max(len(cs.pops), 1)))
	if pq.waitAck >= threshold {
		return 0
	}
	return min(popBatchNums, max(1, threshold-pq.waitAck))
}

// proxyRenewHandles is the proxy's renew task (spec §8.4.6): every handle of a registered
// client within 10 s of its end is made invisible for the next renew duration; after 3 h, a
// last change to the retry policy's delay, and no more renewals.
func (c *Cluster) proxyRenewHandles(px *proxyState) {
	for _, b := range c.brokers {
		if b.down {
			continue
		}
		for i := range b.cks {
			ck := &b.cks[i]
			if !ck.renew || ck.revived || ck.acked >= ck.n || ck.reviveAt-c.now > proxyRenewAheadMs {
				continue
			}
			cs := c.consumers[ck.cons]
			if cs.px != px.idx || !cs.grpc || !c.registered(cs, b) {
				continue
			}
			// Each renewal is a CHANGE_INVISIBLE_TIME: a new one-message checkpoint per
			// handle, whose revive waits 2 s (§8.3.6, §8.3.7 case (a)).
			ck.quiet = true
			if c.now-ck.popTime >= proxyRenewMaxMs { // a renewable checkpoint is its first receipt
				ck.reviveAt, ck.renew = c.now+grpcRetryDelay(ck.r), false
				continue
			}
			ck.reviveAt = c.now + proxyRenew[min(int(ck.renews), len(proxyRenew)-1)]
			ck.renews++
			c.metrics.Renewed += ck.n - ck.acked
		}
	}
}

// proxyExpire is the proxy's channel expiry scan (spec §8.4.6): a client with no heartbeat for
// 120 s is unregistered, and its handles cleared.
func (c *Cluster) proxyExpire(px *proxyState) {
	keep := px.chans[:0]
	var gone []proxyChan
	for _, ch := range px.chans {
		if c.now-ch.lastHB > proxyExpiredMs {
			gone = append(gone, ch)
			continue
		}
		keep = append(keep, ch)
	}
	px.chans = keep
	for _, ch := range gone {
		c.clearHandles(px, c.consumers[ch.cons], ch.lastHB, nil)
	}
}

// clearHandles is the proxy's clearGroup for client cs (spec §8.4.6): each message it holds
// is made invisible for 1 s only, so the revive service puts it back about 3 s later. lastHB
// is when its expired channel last heard it (−1: it shut down); on is the broker whose local
// proxy clears its own handles (nil: the proxy holds every broker's).
func (c *Cluster) clearHandles(px *proxyState, cs *consumer, lastHB int64, on *broker) {
	var n int64
	for _, b := range c.brokers {
		if on != nil && b != on {
			continue
		}
		for i := range b.cks {
			ck := &b.cks[i]
			if ck.cons != cs.idx || !ck.renew || ck.revived || ck.acked >= ck.n {
				continue
			}
			ck.reviveAt, ck.renew, ck.quiet = c.now+proxyClearMs, false, true
			n += ck.n - ck.acked
		}
	}
	why := fmt.Sprintf("%s's channel expired (its last heartbeat at %s)", c.who(cs), clockMs(lastHB))
	if lastHB < 0 {
		why = c.who(cs) + " shut down (NotifyClientTermination)"
	}
	name := px.name
	if on != nil {
		name = px.nameOn(on)
	}
	text := fmt.Sprintf("%s: %s; it held no message", name, why)
	if n > 0 {
		text = fmt.Sprintf("%s: %s; the %s it held are made invisible for 1 s, revived at about %s", name, why, messages(n), clockMs(c.now+proxyClearMs+reviveQuietMs))
	}
	e := Event{Kind: EventInfo, Cause: CauseProxyClear, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, N: n, Arg: px.name, Until: c.now + proxyClearMs + reviveQuietMs, Text: text}
	if on != nil {
		e.Broker = on.name
	}
	c.emit(e)
}

// ghostParked reports whether dead client cs's parked pop p still holds: a killed gRPC
// client's receives were forwarded by its proxy on the proxy's own connection, which lives,
// so they stay parked until their poll ends (spec §8.4.6, inferred there), while its channel
// is still registered.
func (c *Cluster) ghostParked(cs *consumer, b *broker, p *parkedPop) bool {
	return cs.grpc && cs.killed && c.now < p.until && !c.proxies[cs.px].down && c.registered(cs, b)
}

// ghostReceive is a killed gRPC client's parked receive woken by a message (spec §8.4.6,
// inferred there): the broker pops up to 32 messages for it; the proxy registers their handles
// for renewal, fails to write them to the cancelled stream and changes each to 1 s. The
// renewal entries stay and are renewed anyway, which makes a second live checkpoint of each
// message, renewed until the client's channel expires and then cleared: the messages reach
// the others twice, 3–4 s after this pop and again about two minutes after the kill.
func (c *Cluster) ghostReceive(cs *consumer, b *broker, p parkedPop) {
	t := c.topics[p.t]
	pq := popQueue{mq: route.MessageQueue{Topic: t.name, BrokerName: b.name, QueueID: p.q}, t: p.t, b: b.idx}
	first := len(b.cks)
	found, _ := c.pop(cs, &pq, popBatchNums)
	if found == 0 {
		return
	}
	end := len(b.cks)
	var twice int64
	for i := first; i < end; i++ {
		ck := &b.cks[i]
		if ck.acked >= ck.n || ck.cons != cs.idx {
			continue // dead-lettered by the proxy's filter
		}
		n := ck.n - ck.acked
		// NACK_INVISIBLE_TIME: the write to the closed stream failed.
		ck.reviveAt, ck.renew, ck.quiet = c.now+proxyClearMs, false, true
		if ck.fifo {
			continue // a FIFO handle's renewal moves the order info only (fifo.go)
		}
		// The renewal entry under the original handle: renewed at pop + 50–55 s, a second
		// checkpoint, whose messages come back as duplicates.
		b.ckSeq++
		b.cks = append(b.cks, popCK{id: b.ckSeq, cons: cs.idx, t: ck.t, q: ck.q, n: n, popTime: c.now, reviveAt: c.now + popInvisibleMs,
			r: ck.r, kind: kindDelivered, renew: true})
		twice += n
	}
	c.metrics.Popped += twice // the broker holds two checkpoints of them
	c.metrics.Invisible += twice
	if cs.fifoPops() {
		c.emit(Event{Kind: EventInfo, Cause: CauseGhostReceive, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: found, Arg: c.proxies[cs.px].name, Until: c.now + proxyClearMs,
			Text: fmt.Sprintf("%s is dead, but its FIFO receive parked on %s through %s is woken: the broker pops %s for it, and the proxy fails to write %s to the closed stream and makes %s visible in 1 s, where %s: the queue's next FIFO pop reads %s again, in order",
				c.who(cs), b.name, c.proxies[cs.px].name, messages(found), them(found), them(found), pick(found, "it is", "they are"), them(found))})
		return
	}
	c.emit(Event{Kind: EventInfo, Cause: CauseGhostReceive, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: found, Arg: c.proxies[cs.px].name, Until: c.now + proxyClearMs + reviveQuietMs,
		Text: fmt.Sprintf("%s is dead, but its receive parked on %s through %s is woken: the broker pops %s for it, the proxy fails to write %s to the closed stream and makes %s visible in 1 s (revived at about %s), and keeps renewing %s under the first handles until %s's channel expires: %s will come back twice",
			c.who(cs), b.name, c.proxies[cs.px].name, messages(found), them(found), them(found), clockMs(c.now+proxyClearMs+reviveQuietMs), them(found), c.who(cs), theyOf(found))})
}

// grpcRetryDelay is the retry policy's delay, in ms, for a message with reconsume count r
// (delivery attempt r + 1).
func grpcRetryDelay(r int32) int64 {
	return grpcRetryDelays[min(int(r), len(grpcRetryDelays)-1)] * 1000
}

// grpcDeadLetter is the proxy's receive filter (spec §8.3.8, §8.4.5 step 5): n popped messages
// of ck whose reconsume count reached maxAttempts go to %DLQ%<group>, acked, never delivered.
func (c *Cluster) grpcDeadLetter(cs *consumer, b *broker, ck *popCK) {
	dlq := c.deadLetterTopic(cs.g)
	if b.topicOf(dlq) == nil {
		c.setQueueNums(b, dlq, 1, 1)
	}
	b.appendMessages(dlq, 0, ck.n)
	ck.acked = ck.n
	c.metrics.DeadLettered += ck.n
	if ck.kind == kindFresh {
		c.metrics.DeadLetteredUnseen += ck.n
	}
	c.metrics.Acked += ck.n
	c.metrics.Invisible -= ck.n
	c.emit(Event{Kind: EventInfo, Cause: CauseDeadLetter, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: ck.n, Arg: dlq.name,
		Text: fmt.Sprintf("%s pops %s for %s with reconsume count %d: the proxy puts %s on %s and acks %s (maxAttempts %d)",
			b.name, messages(ck.n), c.who(cs), ck.r, them(ck.n), dlq.name, them(ck.n), cs.g.maxReconsume+grpcMaxAttemptsAdd)})
}
