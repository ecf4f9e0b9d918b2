package cluster

import (
	"fmt"

	"github.com/lbscope/lbscope/core/route"
)

// The gRPC SimpleConsumer through a proxy (spec §8.4.5, §8.4.7, §8.6.6): the application
// calls receive(maxMessageNum, invisibleDuration) in a loop, handles what comes, acks each
// message its listener took and calls receive again. Nothing is assigned to it: each receive
// takes the next broker of its topic's route round robin (Java: readable master entries from a
// random index; Go: every entry, the first receive at position 2 mod n) and the proxy pops
// that broker's acting queue, holding an empty pop for the pollingTime its awaitDuration
// gives (below about 2 s the proxy refuses every call, ILLEGAL_POLLING_TIME; under 5 s it
// holds 5 s; above 20 s, 20 s). Its messages are not renewed: one it has not acked comes back
// invisibleDuration after its receive, plus the revive service's delay, whether it is alive or
// not (§8.4.6); the proxy refuses an invisibleDuration outside 10 s … 12 h
// (ILLEGAL_INVISIBLE_TIME).
//
// The model's choices: the application's loop receives again as soon as it has handled the
// last answer (checked every 50 ms), and 1 s after a refused call (a loop that retries a refusal
// at once would spin); a message its listener fails is simply not acked; the receive reads the
// name server's route as it is now (the client's 30 s route refresh is not modelled); a topic
// of several subscriptions is chosen round robin too.

// KindGrpcSimple is the gRPC SimpleConsumer's kind (scenario consumers[].kind).
const KindGrpcSimple = "grpc-simple"

// The SimpleConsumer's defaults, those of the client's own example (the builder requires an
// awaitDuration; receive takes the other two), and the proxy's bounds (spec §8.4.5).
const (
	simpleAwaitMs       = 30_000
	simpleInvisibleMs   = 15_000
	simpleMaxMessages   = 16
	simpleRefusedWaitMs = 1000
	proxyPollMinMs      = 5000
	proxyInvisibleMinMs = 10_000
	proxyInvisibleMaxMs = 12 * 3600_000
)

// simpleClient is a SimpleConsumer's settings and its balancer's index.
type simpleClient struct {
	on                   bool
	awaitMs, invisibleMs int64
	maxMessages          int64
	index, topicIndex    int64
	drawn, toldRefusal   bool
}

// newSimpleClient is a SimpleConsumer with the given settings (0: the defaults).
func newSimpleClient(awaitMs, invisibleMs int64, maxMessages int) simpleClient {
	s := simpleClient{on: true, awaitMs: awaitMs, invisibleMs: invisibleMs, maxMessages: int64(maxMessages)}
	if s.awaitMs == 0 {
		s.awaitMs = simpleAwaitMs
	}
	if s.invisibleMs == 0 {
		s.invisibleMs = simpleInvisibleMs
	}
	if s.maxMessages == 0 {
		s.maxMessages = simpleMaxMessages
	}
	return s
}

// pollingTime is how long the proxy holds an empty receive of awaitDuration a, or a refusal
// (spec §8.4.5 step 1; the transit time is taken as 0): the deadline left on arrival is
// a + 3 s, the hold a clamped to 5 s … 20 s, refused when that is more than is left.
func pollingTime(a int64) (hold int64, refused bool) {
	hold = min(max(a, proxyPollMinMs), grpcPollMs)
	return hold, hold > a+grpcRequestTimeoutMs
}

// simpleRefusal is the proxy's answer to every receive of cs when it refuses them: its code
// and why ("" when it does not).
func (cs *consumer) simpleRefusal() (code, why string) {
	if _, refused := pollingTime(cs.simple.awaitMs); refused {
		return "ILLEGAL_POLLING_TIME", fmt.Sprintf("an awaitDuration of %s leaves %s of its deadline, less than the proxy's least pollingTime of 5 s", durationText(cs.simple.awaitMs), durationText(cs.simple.awaitMs+grpcRequestTimeoutMs))
	}
	if d := cs.simple.invisibleMs; d < proxyInvisibleMinMs || d > proxyInvisibleMaxMs {
		return "ILLEGAL_INVISIBLE_TIME", fmt.Sprintf("an invisibleDuration of %s is outside 10 s … 12 h", durationText(d))
	}
	return "", ""
}

// simpleStart is the SimpleConsumer's first receive, once it has started (its routes fetched,
// its settings synced): one receive loop, pointed at a broker at each call.
func (c *Cluster) simpleStart(cs *consumer) {
	if cs.dead || len(cs.pops) > 0 || len(cs.subs) == 0 {
		return
	}
	// Drawn until its first receive as on the first broker of the topic (any broker: a
	// receive points it anew).
	t, b := cs.subs[0].t, c.brokers[0]
	for _, qd := range c.nameServerRoute(t).QueueDatas {
		b = c.brokerBy[qd.BrokerName]
		break
	}
	cs.pops = append(cs.pops, popQueue{mq: route.MessageQueue{Topic: t.name, BrokerName: b.name, QueueID: -1}, t: t.idx, b: b.idx, nextPop: c.now, lastPop: c.now})
	cs.queueNames = nil
	c.noteOwnership()
}

// simpleReceive points cs's receive loop pq at the broker its next receive goes to and
// returns how many messages it asks for; 0 when it does not receive now (its application
// still handles the last answer, the proxy refuses it, or no broker can be read), with the
// loop's next try set.
func (c *Cluster) simpleReceive(cs *consumer, pq *popQueue) int64 {
	s := &cs.simple
	if pq.waitAck > 0 {
		pq.nextPop = c.now + popFlowWaitMs
		return 0
	}
	if code, why := cs.simpleRefusal(); code != "" {
		pq.nextPop = c.now + simpleRefusedWaitMs
		if !s.toldRefusal {
			s.toldRefusal = true
			c.emit(Event{Kind: EventInfo, Cause: CauseReceiveRefused, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Arg: code, Error: why,
				Text: fmt.Sprintf("%s refuses %s's receive, %s: %s; it refuses every call, so %s consumes nothing", c.proxies[cs.px].name, c.who(cs), code, why, c.who(cs))})
		}
		return 0
	}
	if !s.drawn {
		// Java: random starts in [0, 2³¹−1); Go: 0 (spec §8.4.7).
		s.drawn = true
		if !cs.prof.IsGo() {
			s.index, s.topicIndex = int64(cs.rnd.NextIntn(1<<31-1)), int64(cs.rnd.NextIntn(1<<31-1))
		}
	}
	t := cs.subs[s.topicIndex%int64(len(cs.subs))].t
	s.topicIndex++
	var list []string
	for _, qd := range c.nameServerRoute(t).QueueDatas {
		if cs.prof.IsGo() || qd.Perm&route.PermRead != 0 {
			list = append(list, qd.BrokerName)
		}
	}
	if len(list) == 0 {
		pq.nextPop = c.now + simpleRefusedWaitMs
		return 0
	}
	pos := s.index
	s.index++
	if cs.prof.IsGo() {
		pos = s.index + 1 // list[mod(++index + 1, n)]
	}
	b := c.brokerBy[list[pos%int64(len(list))]]
	mq := route.MessageQueue{Topic: t.name, BrokerName: b.name, QueueID: -1}
	if pq.mq != mq {
		pq.mq, pq.t, pq.b = mq, t.idx, b.idx
		cs.queueNames = nil
	}
	return min(s.maxMessages, popBatchNums)
}
