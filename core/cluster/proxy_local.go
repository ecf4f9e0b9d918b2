package cluster

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/core/sim"
)

// A local-mode proxy (scenario proxies[].mode "local"; spec §8.4.1 "Local mode", §8.4.5,
// §8.4.6, §8.4.8): the proxy runs inside each broker, one per broker, and the scenario's entry
// names them all. What changes against a cluster-mode proxy:
//
//   - Registration. Each proxy uses its broker's own ConsumerManager
//     (LocalServiceManager.getConsumerManager), and a gRPC client calls every endpoint of its
//     routes, i.e. every broker. So a gRPC consumer is registered on every broker beside the
//     classic members: GET_CONSUMER_LIST_BY_GROUP lists its client id, and a classic member's
//     rebalance in the same group gives it queues (it receives from every broker all the same).
//     Its registration fires CHANGE like a classic one. Its heartbeats (every 10 s) only refresh
//     it; its settings (at its first call to each broker, and again every 5 min, §8.4.9) replace
//     the group's subscription table with its topics, which never include the retry topic
//     (ClientActivity registerConsumer with updateSubscription true; ConsumerGroupInfo
//     .updateSubscription removes a topic the new set lacks). In a group mixing classic members,
//     each settings sync therefore drops %RETRY%<group> from the table (a CHANGE), and the next
//     classic heartbeat puts it back (another CHANGE).
//   - Expiry. The broker's own 10 s scan expires the channel 120 s after its last heartbeat
//     (spec §5.1) and its CLIENT_UNREGISTER reaches the proxy inside that broker, which clears
//     the handles it holds there (§8.4.6). Nothing unregisters it when its connection breaks.
//   - Renewal. Each proxy renews the handles of the receives it served, i.e. of its own broker.
//     A killed broker takes its proxy's renewal table along: those messages come back at the end
//     of their current invisible time, and an ack sent with a handle that proxy had renewed
//     misses, as after killProxy (proxy.go).
//   - Sends. The client's choice decides the broker (each broker is its own endpoint): Java's
//     list is the writable route entries of the masters, in route order, one per write queue,
//     and each send takes the entry at index++ (random start); its retries take the next entries
//     of other brokers (takeMessageQueues, up to 3 distinct brokers). The proxy inside that
//     broker builds a new queue view per call from its broker's own topic config, so a send
//     without a message group lands on a uniformly random writable queue of that broker
//     (a new selector with a new random index each time), not a rotation; a message group's
//     broker is list[SipHash-2-4(group) mod n] at the client, and its queue the consistent hash
//     over that broker's queues.
//
// Unchanged: receives pop the broker named in the request (here the local one, §8.4.5), and
// every local proxy answers an assignment query alike from the name server's route (§8.4.4
// step 1), so which one a Java client asks changes nothing while its brokers are up.
//
// The model's choices: the client's routes are the name server's route as it is now, so a
// killed broker drops out of its heartbeats, assignments and sends at once, and no endpoint is
// ever isolated; the renew and expiry timers of the proxies inside the brokers run in one
// phase, the scenario's proxy's (inferred: each starts with its broker).

// grpcSettingsEveryMs is how often a gRPC client sends its settings again (§8.4.9).
const grpcSettingsEveryMs = 300_000

// local reports whether px stands for the proxies inside the brokers.
func (px *proxyState) local() bool { return px.mode == ProxyLocal }

// nameOn names the proxy that serves a call to broker b.
func (px *proxyState) nameOn(b *broker) string {
	if px.local() {
		return px.name + " (inside " + b.name + ")"
	}
	return px.name
}

// insideBrokers is killProxy's and restoreProxy's refusal of a local-mode proxy.
func (px *proxyState) insideBrokers() error {
	return fmt.Errorf("proxy %q runs inside every broker (mode local): it stops and starts with its broker (killBroker, restoreBroker)", px.name)
}

// localHeartbeat is a gRPC client's heartbeat to every endpoint of its routes when they are
// the brokers' own proxies: each registers it in its broker's ConsumerManager or refreshes it;
// a first call to a broker, and every 5 min, also carries its settings (see the file comment).
func (c *Cluster) localHeartbeat(cs *consumer) {
	settings := c.now >= cs.settingsAt
	if settings {
		cs.settingsAt = c.now + grpcSettingsEveryMs
	}
	for _, b := range c.brokers {
		if b.down || !c.inRoutesOf(cs, b) {
			continue
		}
		ch := b.groupOf(cs).chans[cs.idx]
		c.register(b, cs, settings || ch == nil || !ch.registered)
	}
}

// inRoutesOf reports whether broker b is in the name server's route of a topic cs subscribes.
func (c *Cluster) inRoutesOf(cs *consumer, b *broker) bool {
	for _, sub := range cs.subs {
		if bt := b.topicOf(sub.t); bt != nil && !b.removed {
			return true
		}
	}
	return false
}

// localProxyDown is the proxy inside broker b dying with it: its renewal table is gone, so
// every message it was renewing comes back at the end of its current invisible time, and a
// handle it had renewed no longer names the live checkpoint (as in applyKillProxy).
func (c *Cluster) localProxyDown(b *broker) {
	for _, px := range c.proxies {
		if !px.local() {
			continue
		}
		n, last := c.dropRenewals(b, px)
		if n == 0 {
			continue
		}
		c.emit(Event{Kind: EventInfo, Cause: CauseProxyDown, Broker: b.name, N: n, Arg: px.name, Until: last + reviveQuietMs,
			Text: fmt.Sprintf("%s dies with %s: the %s it was renewing are renewed by nobody now; each comes back at the end of its invisible time plus the revive delay, the last at about %s",
				px.nameOn(b), b.name, messages(n), clockMs(last+reviveQuietMs))})
	}
}

// localSendQueue is the queue p's attempt (0-based) of its current send by thread th lands on
// through the proxies inside the brokers (see the file comment), with its broker; false when
// the route has no writable queue.
func (c *Cluster) localSendQueue(p *producer, th *sendThread) (route.MessageQueue, *broker, bool) {
	px := c.proxies[p.px]
	// The client's list: one entry per writable queue of each broker, in route order.
	var list []*broker
	for _, b := range c.brokers {
		bt := b.topicOf(p.t)
		if b.down || b.removed || bt == nil || b.permOf(bt)&route.PermWrite == 0 {
			continue
		}
		for range bt.writeQ {
			list = append(list, b)
		}
	}
	if len(list) == 0 {
		return route.MessageQueue{}, nil, false
	}
	var b *broker
	if p.keys != nil {
		if th.attempt == 0 {
			k := p.drawKey()
			p.keyBuf = strconv.AppendInt(append(p.keyBuf[:0], p.keys.Prefix...), k, 10)
		}
		// FIFO: a single candidate, list[SipHash-2-4(group) mod n] (§8.4.8).
		b = list[floorMod(int64(sipHash24(p.keyBuf)), int64(len(list)))]
	} else {
		if th.attempt == 0 {
			th.localBase = p.localIndex
			p.localIndex++
		}
		// takeMessageQueues: from the index, up to maxAttempts entries of distinct brokers;
		// attempt a takes candidates[a mod len].
		var cands []*broker
		for i := range int64(len(list)) {
			e := list[floorMod(th.localBase+i, int64(len(list)))]
			if !slices.Contains(cands, e) {
				cands = append(cands, e)
				if len(cands) == grpcMaxAttempts {
					break
				}
			}
		}
		b = cands[th.attempt%len(cands)]
	}
	// The proxy inside b: a new view of its own writable queues for this call.
	qs := make([]route.MessageQueue, 0, b.topicOf(p.t).writeQ)
	for id := range b.topicOf(p.t).writeQ {
		qs = append(qs, route.MessageQueue{Topic: p.t.name, BrokerName: b.name, QueueID: int32(id)})
	}
	var i int
	if p.keys != nil {
		i = consistentHash(int64(selector.StringHashCode(string(p.keyBuf))), len(qs))
	} else {
		i = int(floorMod(int64(px.rnd.NextInt()), int64(len(qs)))) // new Random().nextInt()
	}
	return qs[i], b, true
}

// floorMod is Java's Math.floorMod / Guava's IntMath.mod: non-negative for n > 0.
func floorMod(x, n int64) int64 {
	if m := x % n; m < 0 {
		return m + n
	} else {
		return m
	}
}

// startLocalProducer draws the Java client's random start of its publishing index.
func (c *Cluster) startLocalProducer(p *producer) {
	p.localIndex = int64(sim.Stream(c.cfg.Seed, "grpc-producer/"+p.id).NextIntn(1<<31 - 1))
}

// sipHash24 is SipHash-2-4 of msg with Guava's default key (k0 = 0x0706050403020100,
// k1 = 0x0f0e0d0c0b0a0908), Hashing.sipHash24() (spec §8.4.8).
func sipHash24(msg []byte) uint64 {
	const k0, k1 = 0x0706050403020100, 0x0f0e0d0c0b0a0908
	v0 := uint64(0x736f6d6570736575) ^ k0
	v1 := uint64(0x646f72616e646f6d) ^ k1
	v2 := uint64(0x6c7967656e657261) ^ k0
	v3 := uint64(0x7465646279746573) ^ k1
	round := func() {
		v0 += v1
		v1 = bits.RotateLeft64(v1, 13) ^ v0
		v0 = bits.RotateLeft64(v0, 32)
		v2 += v3
		v3 = bits.RotateLeft64(v3, 16) ^ v2
		v0 += v3
		v3 = bits.RotateLeft64(v3, 21) ^ v0
		v2 += v1
		v1 = bits.RotateLeft64(v1, 17) ^ v2
		v2 = bits.RotateLeft64(v2, 32)
	}
	n := len(msg)
	for len(msg) >= 8 {
		m := binary.LittleEndian.Uint64(msg)
		v3 ^= m
		round()
		round()
		v0 ^= m
		msg = msg[8:]
	}
	last := uint64(n) << 56
	for i, b := range msg {
		last |= uint64(b) << (8 * i)
	}
	v3 ^= last
	round()
	round()
	v0 ^= last
	v2 ^= 0xff
	round()
	round()
	round()
	round()
	return v0 ^ v1 ^ v2 ^ v3
}
