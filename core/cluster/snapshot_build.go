package cluster

import (
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// maxSendSamples bounds the in-flight sample a snapshot carries for animation.
const maxSendSamples = 64

// Snapshot copies the state a renderer needs at this instant.
func (c *Cluster) Snapshot() Snapshot { return c.snapshot(true) }

// Counts is the part of Snapshot that a metrics recorder samples, at a fraction of its cost:
// the time and the header (seed, topic, group, strategy, …), Metrics, each broker's Name, Queues, Sends and Failures, each queue's offsets and
// backlog, each consumer's ID, Status, Queues and Consumed — equal to Snapshot's — and
// nothing else (no owners, views, registered ids, isolation, sends in flight, producers or
// anomalies). A long replay samples every second, and with the large preset the full
// snapshot's copies were most of what it allocated.
func (c *Cluster) Counts() Snapshot { return c.snapshot(false) }

func (c *Cluster) snapshot(full bool) Snapshot {
	g0, t0 := c.groups[0], c.topics[0]
	s := Snapshot{
		TimeMs: c.now, Seed: c.cfg.Seed, Topic: t0.name, Group: g0.name, Strategy: g0.strategy.Name(),
		MessageModel: g0.model, LatencyFault: c.latencyFault, FaultTable: c.faultTable.Name(),
		Metrics: c.Metrics(), Anomalies: []Anomaly{},
	}
	// Sized once: growing the queue list by append was a third of a full snapshot's bytes.
	blocks, n := c.queueBlocks()
	if len(c.brokers) > 0 {
		s.Brokers = make([]BrokerView, 0, len(c.brokers))
	}
	if n > 0 {
		s.Queues = make([]QueueView, 0, n)
	}
	var owners queueOwners
	if full {
		owners = c.queueOwners(blocks, n)
	}
	several := len(c.groups) > 1
	plural := c.Plural()
	var holders lockHolders // built once, when an orderly group's lock is first shown
	popped := c.popped()    // nil unless a member pops
	for _, b := range c.brokers {
		inv := b.invisibleByQueue(c)
		bv := BrokerView{Name: b.name, LatencyMs: b.latencyMs, Down: b.down,
			Sends: b.sends, Failures: b.failures, SendLatencyMs: b.lastResponse}
		if bt := b.topicOf(t0); bt != nil {
			bv.Queues = bt.queues
			if bt.readQ != bt.writeQ {
				bv.ReadQueues, bv.WriteQueues = bt.readQ, bt.writeQ
			}
		}
		if full {
			bv.Perm, bv.Removed = permOr(b.perm, PermRW), b.removed
			bv.Consumers = c.registeredView(b.groups[g0.idx]).ids // shared by snapshots: read-only
			for _, p := range c.producers {
				// The broker is as isolated as the producer that avoids it longest.
				if until, latency, ok := p.faultItem(b.name); ok && until > bv.IsolatedUntilMs {
					bv.IsolatedUntilMs = until
					bv.LastLatencyMs = latency
					bv.IsolatedForMs = p.isolatedFor[b.name]
				}
			}
		}
		s.Brokers = append(s.Brokers, bv)
		for _, blk := range blocks {
			if blk.b != b {
				continue
			}
			bt := b.topics[blk.t.idx]
			var offs []*queueOffset
			group := ""
			if blk.g != nil {
				offs = b.offsetsOf(blk.g, blk.t)
				if several {
					group = blk.g.name
				}
			}
			for id := range bt.queues {
				q := bt.qs[id]
				// Filled in place: appending a built view copied it again, under the GC's write
				// barriers (a tenth of the snapshot's time).
				i := len(s.Queues)
				s.Queues = s.Queues[:i+1]
				v := &s.Queues[i]
				v.Queue, v.Broker, v.ID, v.Topic, v.Group = b.short(blk.t, int32(id)), b.name, id, blk.t.name, group
				v.MaxOffset, v.Committed, v.Backlog = q.maxOffset, -1, 0
				if offs != nil {
					o := offs[id]
					v.Committed, v.Backlog = o.committed, q.maxOffset-o.frontier
				}
				if full {
					v.Owners, v.Access = owners.of(i), bt.access(id)
				}
				v.LockedBy, v.LockUntil = "", 0
				v.Popped, v.Invisible, v.InvisibleUntil = false, 0, 0
				if popped != nil && blk.g != nil {
					v.Popped = popped[anomalyKey{blk.g.idx, route.MessageQueue{Topic: blk.t.name, BrokerName: b.name, QueueID: int32(id)}}]
				}
				if inv != nil && blk.g != nil {
					if x, ok := inv[popKey{blk.g.idx, blk.t.idx, int32(id)}]; ok {
						v.Invisible, v.InvisibleUntil = x.n, x.until
					}
				}
				if blk.g != nil && blk.g.orderly {
					if e, ok := b.groups[blk.g.idx].locks[lockKey{blk.t.idx, int32(id)}]; ok && c.now-e.last <= brokerLockLive {
						v.LockedBy, v.LockUntil = holders.name(c, e.cid), e.last+brokerLockLive
					}
				}
			}
		}
		if !full {
			continue
		}
		for _, ps := range b.pending {
			if len(s.Sends) == maxSendSamples {
				break
			}
			p := c.producers[ps.producer]
			s.Sends = append(s.Sends, SendSample{Producer: p.id,
				Queue: b.short(p.t, ps.queue), Count: int(ps.count),
				SentAt: ps.sentAt, ArriveAt: ps.arriveAt, Resend: ps.resend || ps.tries > 0, Late: ps.late})
		}
	}
	if len(c.current) > 0 {
		s.Consumers = make([]ConsumerView, 0, len(c.current))
	}
	// One entry per client id, in the order the ids first started (consumerIDs), showing the
	// id's latest process.
	for _, first := range c.consumers {
		if !first.first {
			continue
		}
		cs := c.current[memberKey{first.id, first.g.idx}]
		var cached int64
		for _, pq := range cs.pqList {
			cached += pq.cached()
		}
		for _, p := range cs.pops {
			for _, it := range p.items {
				cached += it.n // popped, waiting for its listener
			}
		}
		next := cs.next
		if cs.dead {
			next = 0
		}
		queues := cs.shortQueues()
		// Filled in place, as the queues are.
		i := len(s.Consumers)
		s.Consumers = s.Consumers[:i+1]
		v := &s.Consumers[i]
		v.ID, v.Status, v.Queues, v.Consumed = cs.id, c.status(cs), queues, cs.consumed
		if plural {
			v.Group, v.Topics = cs.g.name, cs.topicNames()
		}
		if !full {
			continue
		}
		v.Tags = cs.tagExprs()
		v.ClientID, v.NextRebalanceMs, v.Cached, v.ConsumeRate = cs.cid, next, int(cached), cs.rate
		v.ClientRebalance = !cs.brokerSide
		if cs.grpc {
			v.Kind, v.Proxy, v.ClientRebalance = KindGrpcPush, c.proxies[cs.px].name, false
			if cs.simple.on {
				v.Kind = KindGrpcSimple
			}
		}
		v.Client, v.ClientMark = string(cs.prof.Name), cs.prof.Mark
		if cs.own != nil && cs.own.strategy.Name() != cs.g.strategy.Name() {
			v.Strategy = cs.own.strategy.Name()
		}
		if t := cs.subs[0].t; t.unsimulated {
			v.Subscription = t.name
		}
		v.Attributes, v.pubConsumed, v.pubAt = cs.attrs, cs.pubConsumed, cs.pubAt
		c.rebalanceViewOf(&v.View, cs, queues)
	}
	if !full {
		return s
	}
	s.published, s.baseLatency = c.pub.store, c.t.BrokerBaseLatency
	c.sendWindows(s.Brokers)
	for _, p := range c.producers {
		lm, nad := p.tiers()
		s.Producers = append(s.Producers, ProducerView{ID: p.id, Rate: p.rate, Sent: p.sent,
			Client: string(p.prof.Name), ClientMark: p.prof.Mark, Mode: p.mode, Threads: p.active,
			LatencyMax: lm, NotAvailableDuration: nad, Selector: p.customName})
		if p.grpc {
			pv := &s.Producers[len(s.Producers)-1]
			pv.Kind, pv.Proxy, pv.Client, pv.ClientMark = ProducerGrpc, c.proxies[p.px].name, "", ""
		}
	}
	for _, px := range c.proxies {
		v := ProxyView{Name: px.name, Mode: px.mode, Down: px.down, Clients: []string{}}
		for _, ch := range px.chans {
			v.Clients = append(v.Clients, c.consumers[ch.cons].id)
		}
		if px.local() {
			// Registered on some broker (each broker's own ConsumerManager).
			for _, cs := range c.consumers {
				if cs.grpc && cs.px == px.idx && slices.ContainsFunc(c.brokers, func(b *broker) bool { return c.registered(cs, b) }) {
					v.Clients = append(v.Clients, cs.id)
				}
			}
		}
		s.Proxies = append(s.Proxies, v)
	}
	if plural {
		s.Groups = make([]GroupView, len(c.groups))
		for i, g := range c.groups {
			gv := &s.Groups[i]
			gv.Name, gv.Strategy, gv.MessageModel, gv.Backlog = g.name, g.strategy.Name(), g.model, c.groupBacklog(g)
			gv.Topics = make([]string, 0, len(g.topics))
			for _, t := range g.topics {
				if !t.unsimulated {
					gv.Topics = append(gv.Topics, t.name)
				}
			}
			gv.Listed = make([][]string, len(c.brokers))
			for k, b := range c.brokers {
				gv.Listed[k] = c.registeredView(b.groups[g.idx]).ids // shared by snapshots: read-only
			}
			if g.scaler != nil {
				gv.Autoscale = g.scaler.cfg // immutable
			}
		}
	}
	for _, k := range c.openKeys() {
		a := *c.open[k]
		a.Owners = slices.Clone(a.Owners)
		s.Anomalies = append(s.Anomalies, a)
	}
	return s
}

// Plural reports whether the run has several topics or several groups (a group's retry topic
// counts): outputs then name the topic and group of what they show.
func (c *Cluster) Plural() bool {
	n := 0
	for _, t := range c.topics {
		if !t.unsimulated {
			n++
		}
	}
	return n > 1 || len(c.groups) > 1
}

// topicNames is the names of what cs subscribes, in the scenario's order; made once (a
// member's subscriptions never change), shared by snapshots: read-only.
func (cs *consumer) topicNames() []string {
	if cs.subNames == nil {
		cs.subNames = make([]string, len(cs.subs))
		for i, sub := range cs.subs {
			cs.subNames[i] = sub.t.name
		}
	}
	return cs.subNames
}

// tagExprs is, for each topic cs subscribes with tags, its expression ("TagA||TagB"); nil
// when it takes every message of every topic. Made once per subscription (subscribe resets
// it), shared by snapshots: read-only.
func (cs *consumer) tagExprs() map[string]string {
	if cs.subTags == nil {
		cs.subTags = map[string]string{}
		for _, sub := range cs.subs {
			if len(sub.tags) > 0 {
				cs.subTags[sub.t.name] = strings.Join(sub.tags, "||")
			}
		}
	}
	if len(cs.subTags) == 0 {
		return nil
	}
	return cs.subTags
}

// queueBlock is a run of a snapshot's queues: one topic's queues on one broker, as group g
// pulls them (nil: a topic no group subscribes).
type queueBlock struct {
	b *broker
	t *topicState
	g *groupState
}

// queueBlocks lists the snapshot's runs of queues in their order, brokers in creation order,
// then topics, then the groups subscribing each, with the number of queues in all. A topic the
// run does not simulate has none.
func (c *Cluster) queueBlocks() ([]queueBlock, int) {
	var out []queueBlock
	n := 0
	for _, b := range c.brokers {
		for _, t := range c.topics {
			bt := b.topicOf(t)
			if bt == nil || t.unsimulated {
				continue
			}
			subscribed := false
			for _, g := range c.groups {
				if slices.Contains(g.topics, t) {
					out = append(out, queueBlock{b, t, g})
					n += bt.queues
					subscribed = true
				}
			}
			if !subscribed {
				out = append(out, queueBlock{b, t, nil})
				n += bt.queues
			}
		}
	}
	return out, n
}

// queueOwners is owners() for the snapshot's queues, in one array: the owners of the i-th
// queue of the snapshot are ids[end[i-1]:end[i]].
type queueOwners struct {
	ids []string
	end []int
}

// of is the i-th queue's owners, capped at their length so that an append to one queue's
// list cannot write into the next one's; never nil (JSON []).
func (o queueOwners) of(i int) []string {
	lo, hi := 0, o.end[i]
	if i > 0 {
		lo = o.end[i-1]
	}
	if lo == hi {
		return []string{}
	}
	return o.ids[lo:hi:hi]
}

// queueOwners lists each of the snapshot's n queues' owners as owners() does, in process
// order, without the map and a slice per queue that owners() makes: a fifth of a full
// snapshot's bytes.
func (c *Cluster) queueOwners(blocks []queueBlock, n int) queueOwners {
	// base[(b·topics + t)·groups + g] is the position of that block's queue 0 (-1: none).
	nt, ng := len(c.topics), len(c.groups)
	ints := make([]int, len(c.brokers)*nt*ng+n)
	base, end := ints[:len(c.brokers)*nt*ng], ints[len(c.brokers)*nt*ng:]
	for i := range base {
		base[i] = -1
	}
	k := 0
	for _, blk := range blocks {
		if blk.g != nil {
			base[(blk.b.idx*nt+blk.t.idx)*ng+blk.g.idx] = k
		}
		k += blk.b.topics[blk.t.idx].queues
	}
	// at is pq's queue's position, or -1 for a queue the snapshot does not list (an id the
	// broker no longer has).
	at := func(cs *consumer, pq *processQueue) int {
		bt := pq.b.topicOf(pq.t)
		if bt == nil || pq.mq.QueueID < 0 || int(pq.mq.QueueID) >= bt.queues {
			return -1
		}
		start := base[(pq.b.idx*nt+pq.t.idx)*ng+cs.g.idx]
		if start < 0 {
			return -1
		}
		return start + int(pq.mq.QueueID)
	}
	// visit calls fn with the position of each queue cs pulls or pops: a POP queue of id −1
	// is every read queue of its broker (spec §8.2.2).
	visit := func(cs *consumer, fn func(i int)) {
		for _, pq := range cs.pqList {
			if i := at(cs, pq); i >= 0 {
				fn(i)
			}
		}
		for _, p := range cs.pops {
			b, t := c.brokers[p.b], c.topics[p.t]
			bt := b.topicOf(t)
			start := base[(b.idx*nt+t.idx)*ng+cs.g.idx]
			if bt == nil || start < 0 {
				continue
			}
			for id := range bt.readQ {
				if p.mq.QueueID < 0 || int32(id) == p.mq.QueueID {
					fn(start + id)
				}
			}
		}
	}
	// Count each queue's owners, turn the counts into starts, then fill each queue's part in
	// process order; filling moves every start to its queue's end.
	total := 0
	for _, cs := range c.consumers {
		if cs.dead || cs.partitioned {
			continue
		}
		visit(cs, func(i int) {
			end[i]++
			total++
		})
	}
	start := 0
	for i, m := range end {
		end[i] = start
		start += m
	}
	o := queueOwners{ids: make([]string, total), end: end}
	for _, cs := range c.consumers {
		if cs.dead || cs.partitioned {
			continue
		}
		visit(cs, func(i int) {
			o.ids[end[i]] = cs.id
			end[i]++
		})
	}
	return o
}

// shortQueues is cs's process queues' short names in pqList order, never nil; made once per
// change of pqList and shared by every snapshot until the next: read-only.
func (cs *consumer) shortQueues() []string {
	if cs.queueNames == nil {
		names := make([]string, len(cs.pqList), len(cs.pqList)+len(cs.pops))
		for i, pq := range cs.pqList {
			names[i] = pq.b.short(pq.t, pq.mq.QueueID) // pq.b is the broker pq.mq names
		}
		for _, p := range cs.pops {
			names = append(names, queueName(p.mq, p.t == 0)) // "broker-a:-1": a POP queue
		}
		cs.queueNames = names
	}
	return cs.queueNames
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// lockHolders names the members whose client ids hold queue locks, built once a snapshot
// needs it: the latest process of each client id.
type lockHolders map[string]string

func (h *lockHolders) name(c *Cluster, cid string) string {
	if *h == nil {
		*h = make(lockHolders, len(c.consumers))
		for _, cs := range c.consumers {
			(*h)[cs.cid] = cs.id
		}
	}
	if n, ok := (*h)[cid]; ok {
		return n
	}
	return cid
}
