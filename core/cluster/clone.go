package cluster

import (
	"maps"
	"slices"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/profile/java49"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// Clone returns a deep copy of the world at this instant: fed the same commands and advanced
// to the same times, the copy and the original tell the same events and reach the same
// snapshots, and nothing done to one is seen by the other. The observer is not copied (the
// copy has none). It is what a driver keeps to travel back in time without replaying from 0.
//
// Shared, because nothing ever writes them: the allocation strategy and the fault table (both
// immutable once built), the name server's cached queue list, event texts and queue lists, and
// the closed anomaly intervals and log entries already written (append-only: the copy's slices
// are capped at their length, so an append on either side never lands in the other's array).
func (c *Cluster) Clone() *Cluster {
	if c.held != nil {
		panic("cluster: Clone while a command is being applied") // only Apply sets held
	}
	n := &Cluster{
		cfg: cloneConfig(c.cfg), t: c.t, now: c.now, events: c.events.Clone(),
		latencyFault: c.latencyFault, faultTable: c.faultTable,
		metrics:    c.metrics,
		pub:        c.pub.clone(),
		log:        c.log[:len(c.log):len(c.log)],
		anomalies:  c.anomalies[:len(c.anomalies):len(c.anomalies)],
		isolations: slices.Clone(c.isolations),
		history:    c.history,
		net:        cloneRandom(c.net),
		marks:      slices.Clone(c.marks),
		markOffset: c.markOffset[:len(c.markOffset):len(c.markOffset)], // rows are never written again
	}
	if c.metrics.SendsPerBroker != nil {
		n.metrics.SendsPerBroker = maps.Clone(c.metrics.SendsPerBroker)
	}
	n.topics, n.topicBy = make([]*topicState, len(c.topics)), make(map[string]*topicState, len(c.topics))
	for i, t := range c.topics {
		n.topics[i] = t.clone()
		n.topicBy[t.name] = n.topics[i]
	}
	n.groups, n.groupBy = make([]*groupState, len(c.groups)), make(map[string]*groupState, len(c.groups))
	for i, g := range c.groups {
		n.groups[i] = g.clone()
		if g.scaler != nil {
			sc := *g.scaler
			sc.startedByID = slices.Clone(g.scaler.startedByID)
			n.groups[i].scaler = &sc
		}
		n.groups[i].topics = make([]*topicState, len(g.topics))
		for j, t := range g.topics {
			n.groups[i].topics[j] = n.topics[t.idx]
		}
		n.groupBy[g.name] = n.groups[i]
	}
	for i, t := range c.topics {
		if t.group != nil {
			n.topics[i].group = n.groups[t.group.idx]
		}
	}
	for i, g := range c.groups {
		if g.retry != nil {
			n.groups[i].retry = n.topics[g.retry.idx]
		}
		if g.dlq != nil {
			n.groups[i].dlq = n.topics[g.dlq.idx]
		}
	}
	n.open = make(map[anomalyKey]*Anomaly, len(c.open))
	for k, a := range c.open {
		cp := *a
		cp.Owners = slices.Clone(a.Owners)
		n.open[k] = &cp
	}

	// Brokers, with a map from each old channel and queue to its copy: process queues point
	// into them.
	chans := map[*channel]*channel{}
	bqs := map[*brokerQueue]*brokerQueue{}
	offs := map[*queueOffset]*queueOffset{}
	n.brokers = make([]*broker, len(c.brokers))
	n.brokerBy = make(map[string]*broker, len(c.brokers))
	for i, b := range c.brokers {
		nb := *b
		nb.rnd = cloneRandom(b.rnd)
		nb.topics = make([]*brokerTopic, len(b.topics))
		for ti, bt := range b.topics {
			if bt == nil {
				continue
			}
			nt := *bt
			nt.t = n.topics[bt.t.idx]
			nt.qs = make([]*brokerQueue, len(bt.qs))
			for j, q := range bt.qs {
				cp := *q
				cp.runs = slices.Clone(q.runs)
				cp.segs = slices.Clone(q.segs)
				nt.qs[j] = &cp
				bqs[q] = &cp
			}
			nt.shorts = bt.shorts[:len(bt.shorts):len(bt.shorts)]
			nb.topics[ti] = &nt
		}
		nb.groups = make([]*brokerGroup, len(b.groups))
		for gi, bg := range b.groups {
			ng := *bg
			ng.offsets = make([][]*queueOffset, len(bg.offsets))
			for ti, os := range bg.offsets {
				if os == nil {
					continue
				}
				ng.offsets[ti] = make([]*queueOffset, len(os))
				for j, o := range os {
					cp := *o
					ng.offsets[ti][j] = &cp
					offs[o] = &cp
				}
			}
			ng.listed = nil // the copy fills in its own sorts: nothing is written to the original's
			if bg.table != nil {
				ng.table = make(map[string]*subEntry, len(bg.table))
				for k, e := range bg.table {
					cp := *e
					ng.table[k] = &cp
				}
			}
			ng.locks = maps.Clone(bg.locks)
			if bg.fifo != nil {
				ng.fifo = make(map[fifoKey]*fifoQueue, len(bg.fifo))
				for k, fq := range bg.fifo {
					cp := *fq
					cp.cks = slices.Clone(fq.cks)
					ng.fifo[k] = &cp
				}
			}
			ng.chans = make(map[int]*channel, len(bg.chans))
			for k, ch := range bg.chans {
				cp := *ch
				ng.chans[k] = &cp
				chans[ch] = &cp
			}
			nb.groups[gi] = &ng
		}
		nb.pending = slices.Clone(b.pending)
		nb.delayed = slices.Clone(b.delayed)
		for j := range nb.delayed {
			nb.delayed[j].t = n.topics[b.delayed[j].t.idx]
		}
		nb.stepCount = slices.Clone(b.stepCount)
		nb.cks = slices.Clone(b.cks)
		nb.parked = slices.Clone(b.parked)
		n.brokers[i] = &nb
		n.brokerBy[nb.name] = &nb
	}
	n.proxies = make([]*proxyState, len(c.proxies))
	for i, px := range c.proxies {
		np := *px
		np.chans = slices.Clone(px.chans)
		np.sendIndex = maps.Clone(px.sendIndex)
		if px.routes != nil {
			np.routes = map[int]*proxyRoute{}
			for k, r := range px.routes {
				nr := *r // its slices are replaced, never written in place
				np.routes[k] = &nr
			}
		}
		if px.rnd != nil {
			np.rnd = cloneRandom(px.rnd)
		}
		n.proxies[i] = &np
	}

	// Consumers. Every process of one client id shares one broadcasting offset file (a restart
	// takes its predecessor's), so the copy shares one copied map per id as well.
	locals := map[string]map[route.MessageQueue]int64{}
	n.consumers = make([]*consumer, len(c.consumers))
	n.current = make(map[memberKey]*consumer, len(c.current))
	for i, cs := range c.consumers {
		nc := *cs
		nc.rnd = cloneRandom(cs.rnd)
		nc.g = n.groups[cs.g.idx]
		if cs.own != nil {
			own := *cs.own
			own.params = cloneParams(cs.own.params)
			nc.own = &own
		}
		nc.subs = make([]*subscription, len(cs.subs))
		for j, sub := range cs.subs {
			cp := *sub
			cp.t = n.topics[sub.t.idx]
			cp.brokers = slices.Clone(sub.brokers) // mqSet is the route's cached list: shared, read-only
			nc.subs[j] = &cp
		}
		nc.order = slices.Clone(cs.order)
		nc.lead = nil // set below, once every member is copied
		nc.slowRnd = cloneRandom(cs.slowRnd)
		nc.slowRunning = slices.Clone(cs.slowRunning)
		nc.brokers = slices.Clone(cs.brokers) // refreshed in place
		nc.frontier = maps.Clone(cs.frontier)
		if l, ok := locals[cs.id]; ok {
			nc.local = l
		} else {
			nc.local = maps.Clone(cs.local)
			locals[cs.id] = nc.local
		}
		nc.pqs = make(map[route.MessageQueue]*processQueue, len(cs.pqs))
		nc.pqList = make([]*processQueue, len(cs.pqList))
		for j, pq := range cs.pqList {
			cp := *pq
			cp.slow = slices.Clone(pq.slow)
			cp.holds = slices.Clone(pq.holds)
			cp.b = n.brokers[pq.b.idx]
			cp.t = n.topics[pq.t.idx]
			cp.bq = bqs[pq.bq]
			cp.off = offs[pq.off]
			if pq.ch != nil {
				if ch, ok := chans[pq.ch]; ok {
					cp.ch = ch
				} else {
					// A channel the broker dropped since: only its gone flag is ever read.
					stale := *pq.ch
					cp.ch = &stale
					chans[pq.ch] = &stale
				}
			}
			nc.pqList[j] = &cp
			nc.pqs[cp.mq] = &cp
		}
		nc.lockWait = maps.Clone(cs.lockWait)
		nc.unlockLater = make([]*processQueue, len(cs.unlockLater))
		for j, pq := range cs.unlockLater {
			cp := *pq
			cp.slow = slices.Clone(pq.slow)
			cp.b, cp.t = n.brokers[pq.b.idx], n.topics[pq.t.idx]
			nc.unlockLater[j] = &cp
		}
		nc.pops = slices.Clone(cs.pops)
		nc.held = slices.Clone(cs.held)
		for j := range nc.pops {
			nc.pops[j].items = slices.Clone(cs.pops[j].items)
		}
		nc.localRetries = slices.Clone(cs.localRetries)
		for j, lr := range cs.localRetries {
			// A local retry's queue is one of the consumer's, or one dropped since (its
			// retry then does nothing but release the hold): a copy of its own.
			if k := slices.Index(cs.pqList, lr.pq); k >= 0 {
				nc.localRetries[j].pq = nc.pqList[k]
			} else {
				stale := *lr.pq
				nc.localRetries[j].pq = &stale
			}
		}
		n.consumers[i] = &nc
	}
	for k, cs := range c.current {
		n.current[k] = n.consumers[cs.idx]
	}
	for i, cs := range c.consumers {
		nc := n.consumers[i]
		nc.lead = n.consumers[cs.lead.idx]
		nc.peers = make([]*consumer, len(cs.peers))
		for j, p := range cs.peers {
			nc.peers[j] = n.consumers[p.idx]
		}
	}

	n.producers = make([]*producer, len(c.producers))
	for i, p := range c.producers {
		np := *p
		np.rnd = cloneRandom(p.rnd)
		np.t = n.topics[p.t.idx]
		np.fs = p.fs.Clone()
		if p.tp != nil {
			np.tp = p.tp.Clone(np.rnd) // its index draws from the producer's own stream
		}
		np.threadTP = make([]*selector.TopicPublishInfo, len(p.threadTP))
		for j, tp := range p.threadTP {
			np.threadTP[j] = tp.Clone(np.rnd)
		}
		np.threads = slices.Clone(p.threads)
		np.heap = slices.Clone(p.heap)
		np.keyRnd = cloneRandom(p.keyRnd)
		np.keyBuf = nil
		np.timeouts = slices.Clone(p.timeouts)
		np.isolatedTill = maps.Clone(p.isolatedTill)
		np.isolatedFor = maps.Clone(p.isolatedFor)
		np.isolation = maps.Clone(p.isolation)
		if p.j49 != nil {
			np.j49 = p.j49.Clone(np.rnd)
			np.j49TP = make([]*java49.TopicPublishInfo, len(p.j49TP))
			for j, tp := range p.j49TP {
				cp := *tp
				cp.SendWhichQueue = tp.SendWhichQueue.Clone(np.rnd)
				np.j49TP[j] = &cp // the list and route are never written
			}
			np.j49Worst = make([]*java49.ThreadLocalIndex, len(p.j49Worst))
			for j, x := range p.j49Worst {
				np.j49Worst[j] = x.Clone(np.rnd)
			}
		}
		if p.goRR != nil {
			np.goRR = p.goRR.Clone()
		}
		n.producers[i] = &np
	}
	return n
}

// clone copies the topic; the route cache is shared, read-only.
func (t *topicState) clone() *topicState {
	cp := *t
	return &cp
}

// clone copies the group; its strategies are shared, immutable once built.
func (g *groupState) clone() *groupState {
	cp := *g
	cp.params = cloneParams(g.params)
	cp.popRetry = maps.Clone(g.popRetry)
	return &cp
}

func cloneRandom(r *jrand.Random) *jrand.Random {
	if r == nil {
		return nil
	}
	cp := *r
	return &cp
}

func cloneConfig(cfg Config) Config {
	cfg.Brokers = slices.Clone(cfg.Brokers)
	cfg.Consumers = slices.Clone(cfg.Consumers)
	cfg.Producers = slices.Clone(cfg.Producers)
	cfg.Params = cloneParams(cfg.Params)
	return cfg
}

func cloneParams(p allocate.Params) allocate.Params {
	cloneInt := func(v *int) *int {
		if v == nil {
			return nil
		}
		x := *v
		return &x
	}
	p.VirtualNodeCnt = cloneInt(p.VirtualNodeCnt)
	p.InnerVirtualNodeCnt = cloneInt(p.InnerVirtualNodeCnt)
	p.ConsumerIDCs = slices.Clone(p.ConsumerIDCs)
	p.MessageQueueList = slices.Clone(p.MessageQueueList)
	p.Values = maps.Clone(p.Values) // JSON's values, never changed in place
	return p
}
