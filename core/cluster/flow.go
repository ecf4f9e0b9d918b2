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
	}
	for _, cs := range c.consumers {
		c.flowConsumer(cs, c.t.FlowStepMs)
	}
}

// noteOwnership compares who pulls each queue now with the open anomalies: a queue of a live
// broker pulled by two consumers at once (overlap) or by none (orphan), spec §3.9. A consumer
// that is cut off or gone does not pull, whatever it believes.
func (c *Cluster) noteOwnership() {
	if c.group.model == Broadcasting {
		c.closeAllAnomalies()
		return
	}
	owners := c.owners()
	seen := map[route.MessageQueue]bool{}
	// Every queue of the route counts, write queues beyond the read count too: no member
	// can hold one, so it stays an orphan while messages are written to it (spec §1.3).
	for _, mq := range c.allQueues() {
		seen[mq] = true
		who := owners[mq]
		kind := ""
		switch {
		case len(who) == 0:
			kind = "orphan"
		case len(who) > 1:
			kind = "overlap"
		}
		a := c.open[mq]
		if a != nil && (a.Kind != kind || (kind == "overlap" && !slices.Equal(a.Owners, who))) {
			c.closeAnomaly(mq, a)
			a = nil
		}
		if a == nil && kind != "" {
			a = &Anomaly{Kind: kind, Queue: mq.Short(), Owners: who, Start: c.now}
			c.open[mq] = a
			if kind == "overlap" {
				c.emit(Event{Kind: EventAnomaly, Cause: CauseOverlap, Broker: mq.BrokerName, Queues: []string{mq.Short()},
					Owners: slices.Clone(who), Text: fmt.Sprintf("%s is pulled by %s at once", mq.Short(), clientIDsText(who))})
			}
		}
	}
	for _, mq := range c.openKeys() {
		if !seen[mq] {
			c.closeAnomaly(mq, c.open[mq])
		}
	}
}

// owners maps each queue to the consumers pulling it, in process order.
func (c *Cluster) owners() map[route.MessageQueue][]string {
	n := 0
	for _, b := range c.brokers {
		n += b.topic.queues
	}
	m := make(map[route.MessageQueue][]string, n) // sized once: growing it was a tenth of a frame's snapshot
	for _, cs := range c.consumers {
		if cs.dead || cs.partitioned {
			continue
		}
		for _, pq := range cs.pqList {
			m[pq.mq] = append(m[pq.mq], cs.id)
		}
	}
	return m
}

func (c *Cluster) openKeys() []route.MessageQueue {
	keys := make([]route.MessageQueue, 0, len(c.open))
	for k := range c.open {
		keys = append(keys, k)
	}
	route.SortQueues(keys)
	return keys
}

func (c *Cluster) closeAnomaly(mq route.MessageQueue, a *Anomaly) {
	delete(c.open, mq)
	if a.Start == c.now {
		return // opened and closed within one instant: nobody saw it
	}
	a.End = c.now
	if len(c.anomalies) < maxAnomalies {
		c.anomalies = append(c.anomalies, *a)
	}
}

func (c *Cluster) closeAllAnomalies() {
	for _, mq := range c.openKeys() {
		c.closeAnomaly(mq, c.open[mq])
	}
}

// Anomalies returns every overlap and orphan interval so far, closed and open, by start time.
func (c *Cluster) Anomalies() []Anomaly {
	out := slices.Clone(c.anomalies)
	for _, mq := range c.openKeys() {
		a := *c.open[mq]
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

// Metrics returns the counts so far.
func (c *Cluster) Metrics() Metrics {
	m := c.metrics
	m.SendsPerBroker = make(map[string]int64, len(c.brokers))
	for _, b := range c.brokers {
		m.SendsPerBroker[b.name] = b.sends
	}
	m.Backlog = 0
	for _, b := range c.brokers {
		for id, q := range b.topic.qs {
			if c.group.model == Clustering {
				m.Backlog += q.maxOffset - b.group.offsets[id].frontier
			}
			if id >= b.topic.readQ && id < b.topic.queues {
				// Nobody reads it, whatever the model: every message stored there is unread.
				m.Unread += q.maxOffset - q.minOffset
			}
		}
	}
	return m
}

// Isolations returns every interval during which a producer avoided a broker, in start order.
func (c *Cluster) Isolations() []Isolation { return slices.Clone(c.isolations) }
