package cluster

import (
	"fmt"
	"slices"

	"github.com/lbscope/lbscope/core/route"
)

// flow is one message-flow step, in a fixed phase order: producers send, brokers store what
// arrived, consumers pull and consume.
func (c *Cluster) flow() {
	if len(c.markOffset) < len(c.marks) {
		c.recordMarks()
	}
	for _, p := range c.producers {
		c.flowProducer(p)
	}
	for _, b := range c.brokers {
		c.arrivals(b)
		if len(b.delayed) > 0 {
			c.deliverDelayed(b)
		}
		if len(b.cks) > 0 {
			c.revive(b)
		}
		if len(b.parked) > 0 {
			c.wakeParked(b)
		}
	}
	for _, cs := range c.consumers {
		c.flowConsumer(cs, c.t.FlowStepMs)
	}
}

// anomalyKey is a queue as one group pulls it: anomalies are a group's.
type anomalyKey struct {
	g  int
	mq route.MessageQueue
}

// noteOwnership compares who pulls each queue now with the open anomalies: a queue of a live
// broker pulled by two members of its group at once (overlap) or by none (orphan), spec §3.9,
// for every topic a group subscribes. A consumer that is cut off or gone does not pull,
// whatever it believes.
func (c *Cluster) noteOwnership() {
	owners, popped := c.owners(), c.popped()
	seen := map[anomalyKey]bool{}
	for _, g := range c.groups {
		if g.model == Broadcasting {
			continue // its open anomalies close below
		}
		// Every queue of the route counts, write queues beyond the read count too: no member
		// can hold one, so it stays an orphan while messages are written to it (spec §1.3).
		for _, t := range g.topics {
			for _, mq := range c.allQueues(t) {
				k := anomalyKey{g.idx, mq}
				seen[k] = true
				who := owners[k]
				kind := ""
				switch {
				case popped[k]:
				case len(who) == 0:
					kind = "orphan"
				case len(who) > 1:
					kind = "overlap"
				}
				a := c.open[k]
				if a != nil && (a.Kind != kind || (kind == "overlap" && !slices.Equal(a.Owners, who))) {
					c.closeAnomaly(k, a)
					a = nil
				}
				if a == nil && kind != "" {
					name := c.queueName(mq)
					a = &Anomaly{Kind: kind, Queue: name, Owners: who, Start: c.now}
					if len(c.groups) > 1 {
						a.Group = g.name
					}
					c.open[k] = a
					if kind == "overlap" {
						c.emit(Event{Kind: EventAnomaly, Cause: CauseOverlap, Broker: mq.BrokerName, Queues: []string{name},
							Owners: slices.Clone(who), Text: fmt.Sprintf("%s is pulled by %s at once", name, clientIDsText(who))})
					}
				}
			}
		}
	}
	// Those of queues no longer routed close, in queue order (the order they are kept in).
	var gone []anomalyKey
	for k := range c.open {
		if !seen[k] {
			gone = append(gone, k)
		}
	}
	c.sortKeys(gone)
	for _, k := range gone {
		c.closeAnomaly(k, c.open[k])
	}
}

// queueName is a queue's name in outputs (see the package's queueName).
func (c *Cluster) queueName(mq route.MessageQueue) string {
	t := c.topicBy[mq.Topic]
	return queueName(mq, t == nil || t.idx == 0)
}

// owners maps each queue of each group to the members pulling it, in process order.
func (c *Cluster) owners() map[anomalyKey][]string {
	m := make(map[anomalyKey][]string, c.totalQueues()) // sized once: growing it was a tenth of a frame's snapshot
	for _, cs := range c.consumers {
		if cs.dead || cs.partitioned {
			continue
		}
		for _, pq := range cs.pqList {
			k := anomalyKey{cs.g.idx, pq.mq}
			m[k] = append(m[k], cs.id)
		}
	}
	return m
}

// popped is the queues some live member of a group pops (pop.go): shared by design, never an
// orphan or an overlap.
func (c *Cluster) popped() map[anomalyKey]bool {
	var m map[anomalyKey]bool
	for _, cs := range c.consumers {
		if cs.dead || cs.partitioned || len(cs.pops) == 0 {
			continue
		}
		if m == nil {
			m = map[anomalyKey]bool{}
		}
		for _, p := range cs.pops {
			serves := c.brokers[p.b : p.b+1]
			if cs.simple.on {
				serves = c.brokers // its one receive loop serves every broker in turn
			}
			for _, b := range serves {
				bt := b.topicOf(c.topics[p.t])
				if bt == nil {
					continue
				}
				for id := range bt.readQ {
					if p.mq.QueueID < 0 || int32(id) == p.mq.QueueID {
						m[anomalyKey{cs.g.idx, route.MessageQueue{Topic: p.mq.Topic, BrokerName: b.name, QueueID: int32(id)}}] = true
					}
				}
			}
		}
	}
	return m
}

func (c *Cluster) openKeys() []anomalyKey {
	keys := make([]anomalyKey, 0, len(c.open))
	for k := range c.open {
		keys = append(keys, k)
	}
	c.sortKeys(keys)
	return keys
}

// sortKeys puts anomaly keys in group, then queue order.
func (c *Cluster) sortKeys(keys []anomalyKey) {
	slices.SortFunc(keys, func(a, b anomalyKey) int {
		if a.g != b.g {
			return a.g - b.g
		}
		return route.Compare(a.mq, b.mq)
	})
}

func (c *Cluster) closeAnomaly(k anomalyKey, a *Anomaly) {
	delete(c.open, k)
	if a.Start == c.now {
		return // opened and closed within one instant: nobody saw it
	}
	a.End = c.now
	if len(c.anomalies) < maxAnomalies {
		c.anomalies = append(c.anomalies, *a)
	}
}

// Anomalies returns every overlap and orphan interval so far, closed and open, by start time.
func (c *Cluster) Anomalies() []Anomaly {
	out := slices.Clone(c.anomalies)
	for _, k := range c.openKeys() {
		a := *c.open[k]
		a.Owners = slices.Clone(a.Owners)
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b Anomaly) int {
		switch {
		case a.Start < b.Start:
			return -1
		case a.Start > b.Start:
			return 1
		}
		return 0
	})
	return out
}

// Metrics returns the counts so far. The backlog is every clustering group's, over the topics
// it subscribes.
func (c *Cluster) Metrics() Metrics {
	m := c.metrics
	m.SendsPerBroker = make(map[string]int64, len(c.brokers))
	for _, b := range c.brokers {
		m.SendsPerBroker[b.name] = b.sends
	}
	m.Backlog = 0
	for _, b := range c.brokers {
		for _, bt := range b.topics {
			if bt == nil {
				continue
			}
			for _, g := range c.groups {
				if g.model != Clustering || !slices.Contains(g.topics, bt.t) {
					continue
				}
				offs := b.offsetsOf(g, bt.t)
				for id, q := range bt.qs {
					if bt.t.isRetry() {
						m.RetryBacklog += q.maxOffset - offs[id].frontier
					} else {
						m.Backlog += q.maxOffset - offs[id].frontier
					}
				}
			}
			if bt.t.popFor > 0 {
				// A POP retry topic (pop.go): its group's, which pops rather than subscribes it.
				m.RetryBacklog += bt.qs[0].maxOffset - max(b.offsetsOf(bt.t.group, bt.t)[0].frontier, 0)
			}
			for id, q := range bt.qs {
				if id >= bt.readQ && id < bt.queues {
					// Nobody reads it, whatever the model: every message stored there is unread.
					m.Unread += q.maxOffset - q.minOffset
				}
			}
		}
	}
	return m
}

// Isolations returns every interval during which a producer avoided a broker, in start order.
func (c *Cluster) Isolations() []Isolation { return slices.Clone(c.isolations) }
