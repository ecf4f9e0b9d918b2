package cluster

import (
	"slices"
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
	s := Snapshot{
		TimeMs: c.now, Seed: c.cfg.Seed, Topic: c.topic.name, Group: c.group.name, Strategy: c.group.strategy.Name(),
		MessageModel: c.group.model, LatencyFault: c.latencyFault, FaultTable: c.faultTable.Name(),
		Metrics: c.Metrics(), Anomalies: []Anomaly{},
	}
	// Sized once: growing the queue list by append was a third of a full snapshot's bytes.
	n := c.totalQueues()
	if len(c.brokers) > 0 {
		s.Brokers = make([]BrokerView, 0, len(c.brokers))
	}
	if n > 0 {
		s.Queues = make([]QueueView, 0, n)
	}
	var owners queueOwners
	if full {
		owners = c.queueOwners(n)
	}
	for _, b := range c.brokers {
		bv := BrokerView{Name: b.name, Queues: b.topic.queues, LatencyMs: b.latencyMs, Down: b.down,
			Sends: b.sends, Failures: b.failures, SendLatencyMs: b.lastResponse}
		if b.topic.readQ != b.topic.writeQ {
			bv.ReadQueues, bv.WriteQueues = b.topic.readQ, b.topic.writeQ
		}
		if !full {
			s.Brokers = append(s.Brokers, bv)
			for id := range b.topic.queues {
				q, o := b.topic.qs[id], b.group.offsets[id]
				s.Queues = append(s.Queues, QueueView{Queue: b.short(int32(id)), Broker: b.name, ID: id,
					MaxOffset: q.maxOffset, Committed: o.committed, Backlog: q.maxOffset - o.frontier})
			}
			continue
		}
		bv.Consumers = c.registeredView(b).ids // shared by snapshots: read-only
		for _, p := range c.producers {
			// The broker is as isolated as the producer that avoids it longest.
			if until, latency, ok := p.faultItem(b.name); ok && until > bv.IsolatedUntilMs {
				bv.IsolatedUntilMs = until
				bv.LastLatencyMs = latency
				bv.IsolatedForMs = p.isolatedFor[b.name]
			}
		}
		s.Brokers = append(s.Brokers, bv)
		for id := range b.topic.queues {
			q, o := b.topic.qs[id], b.group.offsets[id]
			// Filled in place: appending a built view copied it again, under the GC's write
			// barriers (a tenth of the snapshot's time).
			i := len(s.Queues)
			s.Queues = s.Queues[:i+1]
			v := &s.Queues[i]
			v.Queue, v.Broker, v.ID = b.short(int32(id)), b.name, id
			v.MaxOffset, v.Committed, v.Backlog = q.maxOffset, o.committed, q.maxOffset-o.frontier
			v.Owners, v.Access = owners.of(i), b.access(id)
		}
		for _, ps := range b.pending {
			if len(s.Sends) == maxSendSamples {
				break
			}
			s.Sends = append(s.Sends, SendSample{Producer: c.producers[ps.producer].id,
				Queue: b.short(ps.queue), Count: int(ps.count),
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
		cs := c.current[first.id]
		var cached int64
		for _, pq := range cs.pqList {
			cached += pq.cached()
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
		if !full {
			continue
		}
		v.ClientID, v.NextRebalanceMs, v.Cached, v.ConsumeRate = cs.cid, next, int(cached), cs.rate
		v.Client, v.ClientMark, v.Subscription = string(cs.prof.Name), cs.prof.Mark, cs.subTopic
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
			LatencyMax: lm, NotAvailableDuration: nad})
	}
	for _, mq := range c.openKeys() {
		a := *c.open[mq]
		a.Owners = slices.Clone(a.Owners)
		s.Anomalies = append(s.Anomalies, a)
	}
	return s
}

// queueOwners is owners() for the snapshot's queues, in one array: the owners of the i-th
// queue of the topic (brokers in creation order, then queue ids) are ids[end[i-1]:end[i]].
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

// queueOwners lists each of the topic's n queues' owners as owners() does, in process order,
// without the map and a slice per queue that owners() makes: a fifth of a full snapshot's bytes.
func (c *Cluster) queueOwners(n int) queueOwners {
	// base[b.idx] is the position of broker b's queue 0 among the topic's queues.
	ints := make([]int, len(c.brokers)+n)
	base, end := ints[:len(c.brokers)], ints[len(c.brokers):]
	k := 0
	for _, b := range c.brokers {
		base[b.idx] = k
		k += b.topic.queues
	}
	// at is pq's queue's position, or -1 for a queue the snapshot does not list (another topic,
	// or an id the broker no longer has).
	at := func(pq *processQueue) int {
		if pq.mq.Topic != c.topic.name || pq.mq.QueueID < 0 || int(pq.mq.QueueID) >= pq.b.topic.queues {
			return -1
		}
		return base[pq.b.idx] + int(pq.mq.QueueID)
	}
	// Count each queue's owners, turn the counts into starts, then fill each queue's part in
	// process order; filling moves every start to its queue's end.
	total := 0
	for _, cs := range c.consumers {
		if cs.dead || cs.partitioned {
			continue
		}
		for _, pq := range cs.pqList {
			if i := at(pq); i >= 0 {
				end[i]++
				total++
			}
		}
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
		for _, pq := range cs.pqList {
			if i := at(pq); i >= 0 {
				o.ids[end[i]] = cs.id
				end[i]++
			}
		}
	}
	return o
}

// shortQueues is cs's process queues' short names in pqList order, never nil; made once per
// change of pqList and shared by every snapshot until the next: read-only.
func (cs *consumer) shortQueues() []string {
	if cs.queueNames == nil {
		names := make([]string, len(cs.pqList))
		for i, pq := range cs.pqList {
			names[i] = pq.b.short(pq.mq.QueueID) // pq.b is the broker pq.mq names
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
