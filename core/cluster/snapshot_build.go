package cluster

import (
	"slices"

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
	s := Snapshot{
		TimeMs: c.now, Seed: c.cfg.Seed, Topic: c.topic, Group: c.group, Strategy: c.strategy.Name(),
		MessageModel: c.model, LatencyFault: c.latencyFault, FaultTable: c.faultTable.Name(),
		Metrics: c.Metrics(), Anomalies: []Anomaly{},
	}
	var owners map[route.MessageQueue][]string
	if full {
		owners = c.owners()
	}
	for _, b := range c.brokers {
		bv := BrokerView{Name: b.name, Queues: b.queues, LatencyMs: b.latencyMs, Down: b.down,
			Sends: b.sends, Failures: b.failures, SendLatencyMs: b.lastResponse}
		if b.readQ != b.writeQ {
			bv.ReadQueues, bv.WriteQueues = b.readQ, b.writeQ
		}
		if !full {
			s.Brokers = append(s.Brokers, bv)
			for id := range b.queues {
				q := b.qs[id]
				mq := route.MessageQueue{Topic: c.topic, BrokerName: b.name, QueueID: int32(id)}
				s.Queues = append(s.Queues, QueueView{Queue: mq.Short(), Broker: b.name, ID: id,
					MaxOffset: q.maxOffset, Committed: q.committed, Backlog: q.maxOffset - q.frontier})
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
		for id := range b.queues {
			q := b.qs[id]
			mq := route.MessageQueue{Topic: c.topic, BrokerName: b.name, QueueID: int32(id)}
			s.Queues = append(s.Queues, QueueView{Queue: mq.Short(), Broker: b.name, ID: id,
				MaxOffset: q.maxOffset, Committed: q.committed, Backlog: q.maxOffset - q.frontier,
				Owners: orEmpty(slices.Clone(owners[mq])), Access: b.access(id)})
		}
		for _, ps := range b.pending {
			if len(s.Sends) == maxSendSamples {
				break
			}
			s.Sends = append(s.Sends, SendSample{Producer: c.producers[ps.producer].id,
				Queue: route.MessageQueue{BrokerName: b.name, QueueID: ps.queue}.Short(), Count: int(ps.count),
				SentAt: ps.sentAt, ArriveAt: ps.arriveAt, Resend: ps.resend || ps.tries > 0, Late: ps.late})
		}
	}
	ids := c.consumerIDs()
	if len(ids) > 0 {
		s.Consumers = make([]ConsumerView, 0, len(ids))
	}
	for _, id := range ids {
		cs := c.current[id]
		var cached int64
		for _, pq := range cs.pqList {
			cached += pq.cached()
		}
		next := cs.next
		if cs.dead {
			next = 0
		}
		queues := orEmpty(shortNames(cs.queues()))
		if !full {
			s.Consumers = append(s.Consumers, ConsumerView{ID: cs.id, Status: c.status(cs), Queues: queues, Consumed: cs.consumed})
			continue
		}
		s.Consumers = append(s.Consumers, ConsumerView{ID: cs.id, ClientID: cs.cid, Status: c.status(cs),
			Queues: queues, NextRebalanceMs: next, Consumed: cs.consumed,
			Cached: int(cached), ConsumeRate: cs.rate, Client: string(cs.prof.Name), ClientMark: cs.prof.Mark,
			View: c.rebalanceViewOf(cs, queues), Subscription: cs.subTopic})
	}
	if !full {
		return s
	}
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

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
