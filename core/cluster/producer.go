package cluster

import (
	"fmt"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/core/sim"
)

// producer is one producer process sending from one thread at a steady rate, with the core's
// TopicPublishInfo and MQFaultStrategy (spec §2).
type producer struct {
	idx          int
	id           string
	rate         int
	rateSince    int64 // sends are due at rate from this time …
	sentSince    int64 // … and this many were sent since
	sent         int64
	fs           *fault.MQFaultStrategy
	tp           *selector.TopicPublishInfo
	routeVersion int
	rnd          *jrand.Random
	isolatedTill map[string]int64 // the deadline last reported as an isolation event
	isolatedFor  map[string]int64 // the tier duration that set it
	isolation    map[string]int   // index in Cluster.isolations of the current interval
}

// pendingSend is a batch of messages sent in one step to one queue, arriving together.
type pendingSend struct {
	producer int
	queue    int32
	count    int64
	sentAt   int64
	arriveAt int64
	latency  int64
	timeout  bool // the send outlives sendMsgTimeout: it fails when the timeout fires
}

func (c *Cluster) startProducer(id string, rate int) *producer {
	p := &producer{idx: len(c.producers), id: id, rate: rate, rateSince: c.now,
		fs: fault.NewMQFaultStrategy(c.faultTable), rnd: sim.Stream(c.cfg.Seed, "producer/"+id),
		isolatedTill: map[string]int64{}, isolatedFor: map[string]int64{}, isolation: map[string]int{}}
	p.fs.SetSendLatencyFaultEnable(c.latencyFault)
	c.producers = append(c.producers, p)
	c.refreshProducerRoute(p)
	c.events.Push(sim.Event{At: c.now + c.t.PollNameServerInterval, Kind: evProducerRoute, A: p.idx})
	return p
}

// refreshProducerRoute is the producer's route poll. A changed route gives a brand-new
// TopicPublishInfo, hence a new send index starting at a random value (spec §1.3, §6.3).
func (c *Cluster) refreshProducerRoute(p *producer) {
	if p.tp != nil && p.routeVersion == c.routeVersion {
		return
	}
	p.tp = selector.NewTopicPublishInfo(c.routeQueues(), p.rnd)
	p.routeVersion = c.routeVersion
}

// setRate changes a producer's rate from now on.
func (p *producer) setRate(rate int, now int64) {
	p.rate, p.rateSince, p.sentSince = rate, now, 0
}

// flowProducer sends the messages due in this step, each through the sync send path (spec
// §2.5): a pick, and on an immediate failure (a broker that refuses the connection) a retry
// that avoids it. Successful sends are counted per queue and leave together at the end of the
// step (queueSends), arriving after the broker's latency.
func (c *Cluster) flowProducer(p *producer) {
	due := int64(p.rate)*(c.now-p.rateSince)/1000 - p.sentSince
	if due <= 0 {
		return
	}
	p.sentSince += due
	var cached *broker // picks run through a broker's queues in turn: usually the same broker
	for range due {
		p.sent++
		last := selector.LastBroker{}
		sentOK := false
		for attempt := 0; attempt <= c.t.RetryTimesWhenSendFail; attempt++ {
			if !p.tp.Ok() {
				break
			}
			mq, err := p.fs.SelectOneMessageQueue(p.tp, last, attempt > 0, c.now)
			if err != nil {
				break
			}
			b := cached
			if b == nil || b.name != mq.BrokerName {
				b = c.brokerBy[mq.BrokerName]
				cached = b
			}
			if b == nil || b.down {
				// RemotingConnectException: isolation, reachable = !startDetectorEnable.
				if b != nil {
					b.failures++
				}
				c.faultUpdate(p, mq.BrokerName, 0, true)
				last = selector.Last(mq.BrokerName)
				continue
			}
			if b.stepAt != c.now { // one latency per broker per step: its jitter draw
				b.stepAt, b.stepLatency = c.now, c.sendLatency(b)
			}
			if b.stepCount[mq.QueueID] == 0 {
				b.stepTouched = true
			}
			b.stepCount[mq.QueueID]++
			sentOK = true
			break
		}
		if !sentOK {
			c.metrics.SendFailures++
		}
	}
	c.queueSends(p)
}

// queueSends turns the step's per-queue counts into batches on their way, broker by broker in
// creation order and queue by queue, so no map order decides anything.
func (c *Cluster) queueSends(p *producer) {
	for _, b := range c.brokers {
		if !b.stepTouched {
			continue
		}
		b.stepTouched = false
		for id, n := range b.stepCount {
			if n == 0 {
				continue
			}
			b.stepCount[id] = 0
			ps := pendingSend{producer: p.idx, queue: int32(id), count: n, sentAt: c.now, latency: b.stepLatency}
			if b.stepLatency >= c.t.SendMsgTimeout {
				ps.timeout, ps.arriveAt = true, c.now+c.t.SendMsgTimeout
			} else {
				ps.arriveAt = c.now + b.stepLatency
			}
			b.pending = append(b.pending, ps)
			c.metrics.InFlight += n
		}
	}
}

// arrivals completes the sends due by now on broker b: stored and acknowledged (the producer
// records the latency), or timed out (isolation). A send reaching a broker that went down on
// the way fails.
func (c *Cluster) arrivals(b *broker) {
	i := 0
	for ; i < len(b.pending) && b.pending[i].arriveAt <= c.now; i++ {
		ps := b.pending[i]
		p := c.producers[ps.producer]
		c.metrics.InFlight -= ps.count
		switch {
		case b.down || ps.timeout || int(ps.queue) >= b.queues:
			b.failures += ps.count
			c.metrics.SendFailures += ps.count
			c.faultUpdateAt(p, b.name, min(ps.latency, c.t.SendMsgTimeout), true, ps.arriveAt)
		default:
			b.qs[ps.queue].maxOffset += ps.count
			b.sends += ps.count
			c.metrics.Produced += ps.count
			c.faultUpdateAt(p, b.name, ps.latency, false, ps.arriveAt)
		}
	}
	b.pending = b.pending[:copy(b.pending, b.pending[i:])]
}

func (c *Cluster) faultUpdate(p *producer, broker string, latency int64, isolation bool) {
	c.faultUpdateAt(p, broker, latency, isolation, c.now)
}

// faultUpdateAt tells the producer's MQFaultStrategy about an attempt (spec §2.5 table) and
// reports a new isolation in the log.
func (c *Cluster) faultUpdateAt(p *producer, broker string, latency int64, isolation bool, at int64) {
	p.fs.UpdateFaultItem(broker, latency, isolation, true, at)
	if !p.fs.SendLatencyFaultEnable() {
		return
	}
	it, ok := p.fs.FaultItem(broker)
	if !ok || it.StartTimestamp <= at || it.StartTimestamp <= p.isolatedTill[broker] {
		return
	}
	was := p.isolatedTill[broker]
	p.isolatedTill[broker] = it.StartTimestamp
	p.isolatedFor[broker] = it.StartTimestamp - at
	if was > at {
		// An extension of an isolation already reported.
		if i := p.isolation[broker]; i >= 0 && i < len(c.isolations) {
			c.isolations[i].Until = it.StartTimestamp
		}
		return
	}
	e := Event{Kind: EventIsolation, Cause: CauseIsolateSlow, Broker: broker, Arg: p.id, LatencyMs: latency,
		Until: it.StartTimestamp, N: (it.StartTimestamp - at + 999) / 1000}
	why, cause := fmt.Sprintf("a send took %d ms", latency), fmt.Sprintf("latency %d ms", latency)
	if isolation {
		e.Cause, e.LatencyMs = CauseIsolateFailed, 0
		why, cause = "a send failed", "send failed"
	}
	p.isolation[broker] = -1
	if len(c.isolations) < maxAnomalies {
		p.isolation[broker] = len(c.isolations)
		c.isolations = append(c.isolations, Isolation{Producer: p.id, Broker: broker, Start: at, Until: it.StartTimestamp, Cause: cause})
	}
	e.Text = fmt.Sprintf("%s avoids %s until %s: %s, tier %d s", p.id, broker, clock(it.StartTimestamp), why, e.N)
	c.emit(e)
}
