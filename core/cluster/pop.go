package cluster

import (
	"fmt"
	"slices"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// POP consumption by the classic remoting push consumer (spec §8.1 item 2, §8.2.2–§8.2.4,
// §8.3): a member whose queues the brokers compute (clientRebalance false) of a group whose
// message request mode is POP (mqadmin setConsumeMode -m POP, for the group's topics on every
// broker) is assigned one "broker-acting" queue per broker, (topic, broker, −1), or real queues
// when popShareQueueNum is in range. Members no longer own queues: each pop takes up to 32
// messages from whatever queue of the broker has them, they turn invisible for 60 s, and the
// group's offset moves at pop time. An acked message is done; a failed one is made invisible
// again for the POP retry delay (10 s, 30 s, …); one not acked in time, its popper killed
// included, is revived onto %RETRY%<group>_<topic> with its reconsume count raised by one.
//
// The model's choices, where the real timing is a range (§8.3.7): the revive thread works in
// rounds, one at every whole second of the broker's clock, and a round re-puts each
// checkpoint whose wait is over — 2.0 s after its revive time when nothing of its pop was
// acked (case (a)), 3.0 s when something was (case (b)) — so a checkpoint comes back 2.0–3.0 s
// (3.0–4.0 s) after its revive time, within the spec's bound of R + 4.2 s (inferred: the
// thread's scans and rests are not modelled one by one);
// concurrent pops never meet on one queue's lock, because pops run one after another
// within a moment (inferred: the real ones skip a queue another pop holds, §8.3.2 step 2).
// Tag filtering is not modelled for POP, nor FIFO pops of a remoting member (an orderly
// member always allocates locally, §8.1); FIFO pops are the gRPC ones (fifo.go).

// Message request modes (spec §8.1 item 2).
const (
	ModePull = "PULL"
	ModePop  = "POP"
)

// The remoting POP consumer's and the broker's numbers (spec §8.0).
const (
	popBatchNums      = 32     // popBatchNums; also the broker's most per pop
	popInvisibleMs    = 60_000 // popInvisibleTime
	popThreshold      = 96     // popThresholdForQueue: no new pop while more wait for their ack
	popPollMs         = 15_000 // the pop's pollTime: the broker holds an empty pop that long
	popParkMarginMs   = 50     // a parked pop times out 50 ms before its expiry (§8.3.4)
	popCheckMs        = 20     // the pop long-polling checker's period
	popFirstDelayMs   = 500    // a new PopProcessQueue's first pop
	popRetryPercent   = 20     // popFromRetryProbability: pops that read the retry topic first
	popFlowWaitMs     = 50     // flow control's re-check
	popErrorWaitMs    = 1000   // an unreadable broker or topic
	reviveQuietMs     = 2000   // §8.3.7 case (a): nothing of the pop acked
	reviveAckedMs     = 3000   // case (b): an ACK of the pop carries the revive time
	popDelayLevelSize = 16
)

// popDelayLevel is the remoting client's POP retry delays, in seconds, by reconsume count
// (spec §8.0; the last applies from 15 on).
var popDelayLevel = [popDelayLevelSize]int64{10, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600, 7200}

// msgKind is what a popped message was before this delivery, for the counts: a first delivery
// is a consumption; a message delivered before and never acked (its popper died after its
// listener ran) a duplicate; one its listener failed a reconsumption.
type msgKind uint8

const (
	kindFresh msgKind = iota
	kindDelivered
	kindFailed
)

// popQueue is a PopProcessQueue (spec §8.2.3 step 6, §8.2.4): one pop outstanding at a time.
type popQueue struct {
	mq      route.MessageQueue // (topic, broker, −1), or a real queue of the broker
	t, b    int                // its topic's and broker's indexes
	nextPop int64              // when its next pop leaves; parked: when the broker answers it empty
	parked  bool               // its pop is held by the broker (spec §8.3.4)
	waitAck int64              // waitAckCount: messages popped whose consume task has not ended
	lastPop int64
	items   []popItem // popped messages not yet handed to the listener, in pop order
	// fifoWait: a FIFO queue's failed message is retried locally then (fifo.go).
	fifoWait int64
}

// popItem is n messages of checkpoint ck (on the queue's broker) waiting for the listener.
type popItem struct {
	ck      int64
	n       int64
	attempt int32 // a FIFO message's local retries so far (fifo.go)
}

// popCK is a checkpoint (spec §8.3.3): messages of one queue one pop returned, invisible
// until reviveAt.
type popCK struct {
	id                int64
	cons              int   // the process that popped them
	t                 int   // the topic read: the group's topic or its POP retry topic
	q                 int32 // the queue read
	n                 int64
	popTime, reviveAt int64
	acked             int64 // acked, or changed (their change wrote a checkpoint of its own)
	r                 int32 // their reconsume count
	kind              msgKind
	revived           bool
	// A gRPC consumer's pop (grpc.go): renew while the proxy renews its handles (popTime is
	// then their first receipt, for the 3 h limit), renews how often it did; quiet: its
	// revive waits 2 s whatever was acked (one-message checkpoints).
	renew, quiet bool
	renews       int8
	// orphan: the proxy that registered it for renewal died (proxy.go); renewed by it, the
	// live checkpoint is no longer the one the client's receipt handle names.
	orphan bool
	// fifo: a FIFO pop's batch (fifo.go), from offset from of its queue.
	fifo bool
	from int64
}

// parkedPop is a pop the broker holds (spec §8.3.4), in expiry then arrival order: member
// cons's PopProcessQueue of topic t and queue id q (−1: the broker-acting queue) on that
// broker. It holds no pointer (no queue names): the list is shifted every flow step.
type parkedPop struct {
	cons   int
	q      int32
	g, t   int
	until  int64
	seq    int64
	parked int64
	all    bool // parked under key −1 whatever its queue (a FIFO gRPC receive, fifo.go)
}

// popSeg is a run of a POP retry queue's messages, up to offset end, with one reconsume count
// and kind.
type popSeg struct {
	end  int64
	r    int32
	kind msgKind
}

// pops reports whether cs pops topic t rather than pulling it: a member the brokers allocate
// for, of a group in POP mode, for a topic that is not a retry topic (retry topics are always
// PULL, spec §8.1).
func (c *Cluster) pops(cs *consumer, t *topicState) bool {
	return cs.brokerAllocates() && cs.g.mode == ModePop && !t.isRetry()
}

// allocate4Pop is the broker's POP allocation (spec §8.2.2): every broker's −1 queue when k is
// out of range, the member's block and the next k members' otherwise, or one real queue each
// when the members outnumber the queues.
func allocate4Pop(s allocate.Strategy, group, cid string, mqAll []route.MessageQueue, cidAll []string, k int) ([]route.MessageQueue, error) {
	var out []route.MessageQueue
	switch {
	case k <= 0 || k >= len(cidAll)-1:
		for _, q := range mqAll {
			mq := route.MessageQueue{Topic: q.Topic, BrokerName: q.BrokerName, QueueID: -1}
			if !slices.Contains(out, mq) {
				out = append(out, mq)
			}
		}
		return out, nil
	case len(cidAll) <= len(mqAll):
		own, err := s.Allocate(group, cid, mqAll, cidAll)
		if err != nil {
			return nil, err
		}
		out = append(out, own...)
		if i := slices.Index(cidAll, cid); i >= 0 {
			for range k {
				i = (i + 1) % len(cidAll)
				more, err := s.Allocate(group, cidAll[i], mqAll, cidAll)
				if err != nil {
					return nil, err
				}
				out = append(out, more...)
			}
		}
	default:
		if cid == "" || len(mqAll) == 0 || len(cidAll) == 0 {
			return nil, fmt.Errorf("allocate4Pop: empty input")
		}
		if i := slices.Index(cidAll, cid); i >= 0 {
			out = append(out, mqAll[i%len(mqAll)])
		}
	}
	// The answer is a HashSet: each queue once. (route.SortQueues rather than a new
	// slices.SortFunc instantiation: each costs the wasm some 20 KB.)
	route.SortQueues(out)
	return slices.Compact(out), nil
}

// updatePopQueues is step 4 and 6 of updateMessageQueueAssignment (spec §8.2.3) for topic t:
// PopProcessQueues no longer assigned, or without a pop for 120 s, are dropped without an ack
// (what they popped stays invisible until revived); new ones pop 500 ms later.
func (c *Cluster) updatePopQueues(cs *consumer, t *topicState, target []route.MessageQueue, cost int64) (changed bool) {
	keep := cs.pops[:0]
	for _, pq := range cs.pops {
		if pq.t == t.idx && (!slices.Contains(target, pq.mq) || (!cs.grpc && c.now-pq.lastPop > c.t.PullMaxIdleTime)) {
			c.unpark(cs, &pq)
			changed = true
			continue
		}
		keep = append(keep, pq)
	}
	cs.pops = keep
	for _, mq := range target {
		if slices.ContainsFunc(cs.pops, func(p popQueue) bool { return p.mq == mq }) {
			continue
		}
		b := c.brokerBy[mq.BrokerName]
		if b == nil {
			continue
		}
		first := int64(popFirstDelayMs)
		if cs.grpc {
			first = 0 // a gRPC process queue starts receiving at once (spec §8.4.4 step 4)
		}
		cs.pops = append(cs.pops, popQueue{mq: mq, t: t.idx, b: b.idx, nextPop: c.now + cost + first, lastPop: c.now})
		changed = true
	}
	// Kept in queue order: the kept ones are in order already and a round adds few, so an
	// insertion sort (each queue is there once, so any sort gives this order).
	for i := 1; i < len(cs.pops); i++ {
		for j := i; j > 0 && route.Compare(cs.pops[j-1].mq, cs.pops[j].mq) > 0; j-- {
			cs.pops[j-1], cs.pops[j] = cs.pops[j], cs.pops[j-1]
		}
	}
	if changed {
		cs.queueNames = nil
	}
	return changed
}

// popQueues is cs's POP queues' names, after its pulled ones.
func (cs *consumer) popMQs() []route.MessageQueue {
	out := make([]route.MessageQueue, len(cs.pops))
	for i, p := range cs.pops {
		out[i] = p.mq
	}
	return out
}

// unpark takes pq's held pop off its broker's list.
func (c *Cluster) unpark(cs *consumer, pq *popQueue) {
	if !pq.parked {
		return
	}
	pq.parked = false
	b := c.brokers[pq.b]
	b.parked = slices.DeleteFunc(b.parked, func(p parkedPop) bool { return p.cons == cs.idx && p.t == pq.t && p.q == pq.mq.QueueID })
}

// flowPops is one step of cs's pop loops (spec §8.2.4): each queue pops while it finds
// messages and its member is under the flow-control threshold, and parks its pop when it
// finds none.
func (c *Cluster) flowPops(cs *consumer) {
	for i := range cs.pops {
		pq := &cs.pops[i]
		for range 8 { // at most 8 pops of one queue a step: 256 messages
			if c.now < pq.nextPop {
				break
			}
			if pq.parked {
				// The broker answers the held pop: it reads again (a message it was not
				// woken for is still found), then POLLING_TIMEOUT, and the client pops again.
				c.unpark(cs, pq)
			}
			want := int64(popBatchNums)
			if cs.simple.on {
				// The application's receive loop: the next broker, or not now.
				if want = c.simpleReceive(cs, pq); want == 0 {
					break
				}
			} else if cs.grpc {
				// The cache's share of this process queue (spec §8.4.4).
				if want = cs.grpcBatch(pq); want == 0 {
					pq.nextPop = c.now + grpcCacheFullMs
					break
				}
			} else if pq.waitAck > popThreshold {
				pq.nextPop = c.now + popFlowWaitMs
				break
			}
			b := c.brokers[pq.b]
			if cs.partitioned || b.down {
				pq.nextPop = c.now + popErrorWaitMs
				break
			}
			if px := c.proxyOf(cs); px != nil {
				if px.down {
					pq.nextPop = c.now + cs.receiveRetryMs() // the receive fails (proxy.go)
					break
				}
				if !px.local() {
					// The receive reads the proxy's cached view: an access, which may start
					// its reload (§8.4.5, §8.6.4 step 4).
					c.proxyView(px, c.topics[pq.t])
				}
			}
			found, ok := c.pop(cs, pq, want)
			pq.lastPop = c.now
			if !ok {
				pq.nextPop = c.now + popErrorWaitMs
				break
			}
			if found > 0 {
				continue // the next pop leaves at once
			}
			c.park(cs, pq, b)
			break
		}
	}
}

// park has the broker hold pq's empty pop: answered POLLING_TIMEOUT 14.95–14.97 s after it
// left (pollTime − 50 ms, at the checker's next pass), unless a message wakes it first.
func (c *Cluster) park(cs *consumer, pq *popQueue, b *broker) {
	poll := int64(popPollMs)
	if cs.simple.on {
		poll, _ = pollingTime(cs.simple.awaitMs) // spec §8.4.5 step 1
	} else if cs.grpc {
		poll = grpcPollMs // the proxy's pollTime (spec §8.4.5 step 1)
	}
	due := c.now + poll - popParkMarginMs
	pq.parked, pq.nextPop = true, (due/popCheckMs+1)*popCheckMs
	b.parkSeq++
	p := parkedPop{cons: cs.idx, q: pq.mq.QueueID, g: cs.g.idx, t: pq.t, until: pq.nextPop, seq: b.parkSeq, parked: c.now, all: cs.fifoPops()}
	// In expiry then arrival order: after every pop that expires no later. Pops park in time
	// order, so this one almost always goes last; the list is searched from its end.
	i := len(b.parked)
	for i > 0 && (b.parked[i-1].until > p.until || (b.parked[i-1].until == p.until && b.parked[i-1].seq > p.seq)) {
		i--
	}
	b.parked = append(b.parked, parkedPop{})
	copy(b.parked[i+1:], b.parked[i:])
	b.parked[i] = p
	c.tellParked(cs, pq, b, pq.nextPop)
}

// wakeParked is the broker's message-arrival notification (spec §8.3.4): while a group's
// topic has messages to pop, its earliest parked pop is woken and runs again at once (a pop
// that leaves messages behind wakes the next). Pops of a dead process are dropped.
//
// This loop runs every flow step on every broker, so it does little for a pop that stays
// parked. A live member's parked pop is always its PopProcessQueue's, parked: park adds it,
// unpark and this take it off with the flag, updatePopQueues unparks what it drops, and only
// a dead process loses its queues otherwise (clearQueues); so the queue is looked up only for
// a pop that is woken. popAvailable's answer for one group, topic and queue holds until the
// next pop here moves an offset, and the parked pops of a group's topic mostly ask the same:
// the last answer is kept until then.
func (c *Cluster) wakeParked(b *broker) {
	type availKey struct {
		g, t int
		q    int32
	}
	var last availKey
	lastOK, known := false, false
	for i := 0; i < len(b.parked); {
		p := &b.parked[i]
		cs := c.consumers[p.cons]
		if cs.dead && !c.ghostParked(cs, b, p) {
			b.parked = slices.Delete(b.parked, i, i+1)
			continue
		}
		q := p.q
		if p.all {
			q = -1
		}
		if k := (availKey{p.g, p.t, q}); !known || k != last {
			last, lastOK, known = k, c.popAvailable(b, c.groups[p.g], c.topics[p.t], q), true
		}
		if cs.dead && lastOK {
			// A killed gRPC client's receive, still parked on the proxy's connection.
			pp := *p
			b.parked = slices.Delete(b.parked, i, i+1)
			c.ghostReceive(cs, b, pp)
			known = false
			continue
		}
		if !lastOK || cs.partitioned {
			i++
			continue
		}
		pq := cs.popQueueOn(b.idx, p.t, p.q)
		b.parked = slices.Delete(b.parked, i, i+1)
		if pq == nil || !pq.parked {
			continue // not the case (see above); dropped as a dead process's would be
		}
		pq.parked = false
		known = false
		want := int64(popBatchNums)
		if cs.simple.on {
			want = min(cs.simple.maxMessages, popBatchNums)
		} else if cs.grpc {
			want = max(cs.grpcBatch(pq), 1)
		}
		found, _ := c.pop(cs, pq, want)
		pq.lastPop = c.now
		if found == 0 {
			c.park(cs, pq, b)
			i++
		} else {
			pq.nextPop = c.now
		}
	}
}

// popQueueOn is cs's PopProcessQueue of topic t's queue id q on broker b (nil: none): its
// queue's topic is t's name and its broker b's, so this is its queue.
func (cs *consumer) popQueueOn(b, t int, q int32) *popQueue {
	for i := range cs.pops {
		if pq := &cs.pops[i]; pq.b == b && pq.t == t && pq.mq.QueueID == q {
			return pq
		}
	}
	return nil
}

// popAvailable reports whether a pop of group g for topic t (queue id q, −1: any) on b would
// find a message now.
func (c *Cluster) popAvailable(b *broker, g *groupState, t *topicState, q int32) bool {
	bt := b.topicOf(t)
	if bt == nil {
		return false
	}
	offs := b.offsetsOf(g, t)
	for id := range bt.readQ {
		if q >= 0 && int32(id) != q {
			continue
		}
		if g.orderly {
			if c.fifoAvailable(b, g, t, int32(id)) {
				return true
			}
			continue
		}
		if o := offs[id]; bt.qs[id].maxOffset > max(o.committed, 0) {
			return true
		}
	}
	if g.orderly {
		return false // a FIFO pop never reads the retry topic (§8.3.2)
	}
	if rt := c.popRetryOf(g, t); rt != nil {
		if rbt := b.topicOf(rt); rbt != nil && len(rbt.qs) > 0 {
			if o := b.offsetsOf(g, rt)[0]; rbt.qs[0].maxOffset > max(o.committed, 0) {
				return true
			}
		}
	}
	return false
}

// pop is one POP_MESSAGE of cs's queue pq on its broker (spec §8.3.1, §8.3.2): the retry
// topic first one time in five, then the topic's read queues from a random start, then the
// retry topic if the batch is not full; each queue read is a checkpoint. ok is false when the
// broker or the topic may not be read (NO_PERMISSION).
func (c *Cluster) pop(cs *consumer, pq *popQueue, want int64) (found int64, ok bool) {
	b, t, g := c.brokers[pq.b], c.topics[pq.t], cs.g
	bt := b.topicOf(t)
	if bt == nil || b.permOf(bt)&route.PermRead == 0 {
		return 0, false
	}
	first := len(b.cks)
	randomQ := int(b.rnd.NextIntn(100))
	needRetry := randomQ < popRetryPercent
	rt := c.popRetryOf(g, t)
	if cs.fifoPops() {
		rt = nil // order = true: no retry topic (§8.3.2)
	}
	if needRetry && rt != nil {
		found += c.popRead(cs, pq, b, rt, 0, want-found)
	}
	if pq.mq.QueueID < 0 || cs.fifoPops() { // a FIFO receive pops the whole broker (§8.4.5 step 3)
		for i := range bt.readQ {
			found += c.popRead(cs, pq, b, t, int32((randomQ+i)%bt.readQ), want-found)
		}
	} else if int(pq.mq.QueueID) < bt.readQ {
		found += c.popRead(cs, pq, b, t, pq.mq.QueueID, want-found)
	}
	if !needRetry && rt != nil && found < want {
		found += c.popRead(cs, pq, b, rt, 0, want-found)
	}
	if found > 0 {
		pq.waitAck += found
		c.metrics.Popped += found
		c.metrics.Invisible += found
		c.tellPop(cs, pq, b, first, found)
		if cs.grpc && !c.registered(cs, b) {
			c.nackUnknown(cs, pq, b, first)
		}
	}
	return found, true
}

// popRead is popMsgFromQueue (spec §8.3.2): up to want messages of queue q of t from the
// group's offset, which moves past them at once; each run of one reconsume count is a
// checkpoint, and the messages wait for cs's listener.
func (c *Cluster) popRead(cs *consumer, pq *popQueue, b *broker, t *topicState, q int32, want int64) int64 {
	if want <= 0 || b.topicOf(t) == nil || int(q) >= len(b.topicOf(t).qs) {
		return 0
	}
	g := cs.g
	bq := b.queueOf(t, q)
	o := b.offsetsOf(g, t)[q]
	if o.committed < 0 {
		// getInitOffset (spec §8.3.2): a retry topic, or CONSUME_FROM_FIRST_OFFSET, from the
		// minimum; otherwise 0 while message 0 is in memory, else the last message.
		start := bq.minOffset
		if !t.isRetry() && cs.from != FromFirstOffset && !b.zeroInMemory(bq) {
			start = max(0, bq.maxOffset-1)
		}
		if start > o.frontier {
			c.metrics.Skipped += start - o.frontier
		}
		o.committed, o.frontier, o.writer = start, start, cs.idx
	}
	fifo := cs.fifoPops()
	var fq *fifoQueue
	if fifo {
		if c.fifoBlocked(b, g, t, q) {
			return 0 // skipped, no backlog added (§8.3.2 step 4)
		}
		fq = b.groups[g.idx].fifoOf(t.idx, q)
	}
	n := min(bq.maxOffset-o.committed, want)
	if n <= 0 {
		return 0
	}
	if fifo {
		fq.cks, fq.end = fq.cks[:0], o.committed+n
	}
	from, dead := o.committed, false
	for from < o.committed+n {
		end, r, kind := o.committed+n, int32(0), kindFresh
		if t.isRetry() {
			end, r, kind = bq.segAt(from, end)
		}
		if fifo && from < fq.redo {
			// Read again after their batch expired: one reconsume count more (§8.3.9).
			end, r = min(end, fq.redo), fq.redoR
		}
		switch {
		case fifo && from < fq.seen:
			// A FIFO batch read again: what a listener saw of it is a duplicate (fifo.go).
			end, kind = min(end, fq.seen), kindDelivered
		case fifo:
			// Never handed to a listener, popped before or not: a first delivery.
		case from < o.frontier:
			// Delivered before: the offset went back (a crash restored an older flush, or a
			// member that pulls this queue itself committed what it had consumed), so the pop
			// returns them again, duplicates (inferred: one offset serves both, §8.3.3).
			end, kind = min(end, o.frontier), kindDelivered
		}
		b.ckSeq++
		ck := popCK{id: b.ckSeq, cons: cs.idx, t: t.idx, q: q, n: end - from, popTime: c.now, reviveAt: c.now + cs.invisibleMs(), r: r, kind: kind,
			renew: cs.grpc && !cs.simple.on, fifo: fifo, from: from}
		b.cks = append(b.cks, ck)
		if fifo {
			fq.cks = append(fq.cks, ck.id)
		}
		from = end
		if cs.grpc && int(r) >= cs.g.maxReconsume+grpcMaxAttemptsAdd {
			// Popped (pop counts them), then the proxy's filter dead-letters them: they
			// never reach the client's cache.
			pq.waitAck -= ck.n
			c.grpcDeadLetter(cs, b, &b.cks[len(b.cks)-1])
			dead = true
			continue
		}
		pq.items = append(pq.items, popItem{ck: ck.id, n: ck.n})
	}
	if fifo {
		// A FIFO pop commits the batch's start offset; acks move it (§8.3.9), the proxy's
		// dead-lettering ones included.
		o.frontier = max(o.frontier, o.committed+n)
		if dead {
			c.fifoCommit(b, b.ck(fq.cks[0]))
		}
		return n
	}
	o.committed += n
	o.frontier = max(o.frontier, o.committed) // the offset moves at pop time: the lag reads 0 (spec §8.3.3)
	return n
}

// invisibleMs is how long cs's pops stay invisible: popInvisibleTime (remoting), the proxy's
// 60 s for a PushConsumer (§8.4.5 step 2), a SimpleConsumer's own invisibleDuration.
func (cs *consumer) invisibleMs() int64 {
	if cs.simple.on {
		return cs.simple.invisibleMs
	}
	return popInvisibleMs
}

// popTopicOf is the group's topic a POP retry topic serves (t itself when it is one).
func (c *Cluster) popTopicOf(t *topicState) *topicState {
	if t.popFor > 0 {
		return c.topics[t.popFor-1]
	}
	return t
}

// segAt is the run of the POP retry queue's messages at offset from: where it ends (at most
// to), their reconsume count and kind.
func (bq *brokerQueue) segAt(from, to int64) (end int64, r int32, kind msgKind) {
	for _, s := range bq.segs {
		if s.end > from {
			return min(s.end, to), s.r, s.kind
		}
	}
	return to, 1, kindFresh
}

// popRetryOf is g's POP retry topic for t, %RETRY%<group>_<topic> (nil: none yet); t's own
// when t is one.
func (c *Cluster) popRetryOf(g *groupState, t *topicState) *topicState {
	if t.popFor > 0 {
		return t
	}
	if i, ok := g.popRetry[t.idx]; ok {
		return c.topics[i]
	}
	return nil
}

// ck is b's checkpoint id (nil: done and gone). The checkpoints are in id order: a binary
// search, written out (the listener looks one up for each batch it takes, and
// slices.BinarySearchFunc's callback took each checkpoint by value).
func (b *broker) ck(id int64) *popCK {
	lo, hi := 0, len(b.cks)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if b.cks[h].id < id {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if lo < len(b.cks) && b.cks[lo].id == id {
		return &b.cks[lo]
	}
	return nil
}

// consumePops spends up to n of cs's capacity on the messages its pops returned, queue by
// queue in turn, and returns what is left. Messages whose invisible time ended before their
// turn are skipped (spec §8.2.4 step 7): they will be revived.
func (c *Cluster) consumePops(cs *consumer, n int64) int64 {
	for n > 0 {
		busy := int64(0)
		for i := range cs.pops {
			if len(cs.pops[i].items) > 0 && c.now >= cs.pops[i].fifoWait {
				busy++
			}
		}
		if busy == 0 {
			return n
		}
		share := max(n/busy, 1)
		// The queues take turns leading: a member consuming less than one message a queue
		// a step still serves each of them (its consume pool takes the pops' batches in turn).
		cs.popTurn++
		for j := range cs.pops {
			pq := &cs.pops[(j+cs.popTurn)%len(cs.pops)]
			k := min(share, n)
			acked := int64(0)
			for k > 0 && len(pq.items) > 0 && c.now >= pq.fifoWait {
				it := &pq.items[0]
				b := c.brokers[pq.b]
				ck := b.ck(it.ck)
				if ck == nil || ck.revived || c.now >= ck.reviveAt { // popTime + 60 s, or later once a proxy renewed it
					pq.waitAck -= it.n
					pq.items = slices.Delete(pq.items, 0, 1) // not items[1:]: its capacity stays for the next pops
					continue
				}
				m := min(it.n, k)
				if ck.fifo {
					done, wait := c.consumeFifo(cs, pq, b, ck, it, m)
					acked += done
					it.n -= done
					pq.waitAck -= done
					k -= done
					n -= done
					if it.n == 0 {
						pq.items = slices.Delete(pq.items, 0, 1)
					}
					if wait {
						break
					}
					continue
				}
				acked += c.consumePopped(cs, b, ck, m)
				it.n -= m
				pq.waitAck -= m
				k -= m
				n -= m
				if it.n == 0 {
					pq.items = slices.Delete(pq.items, 0, 1) // not items[1:]: its capacity stays for the next pops
				}
			}
			c.tellAck(cs, pq, acked)
			if n == 0 {
				break
			}
		}
	}
	return 0
}

// consumePopped is cs's listener on m messages of checkpoint ck: counted by what they were
// before, the failed share made invisible again for the retry delay, the rest acked (how many
// it returns).
func (c *Cluster) consumePopped(cs *consumer, b *broker, ck *popCK, m int64) (acked int64) {
	switch ck.kind {
	case kindFresh:
		c.metrics.Consumed += m
	case kindDelivered:
		c.metrics.Duplicates += m
	case kindFailed:
		c.metrics.Reconsumed += m
	}
	cs.consumed += m
	fails := int64(0)
	if cs.failPPM > 0 {
		acc := cs.failAcc + m*cs.failPPM
		fails = acc / 1000000
		cs.failAcc = acc % 1000000
	}
	ok := m - fails
	if cs.grpc && (c.proxies[cs.px].down || ck.orphan && ck.renews > 0) {
		// The ack cannot reach the live checkpoint now (proxy.go): held while the proxy is
		// down, or naming a checkpoint the dead proxy renewed since.
		c.holdAck(cs, b, ck, ok, fails)
		return 0
	}
	ck.acked += ok
	c.metrics.Acked += ok
	c.metrics.Invisible -= ok
	switch {
	case fails > 0 && cs.simple.on:
		// A SimpleConsumer's application does not ack what failed: the messages wait for
		// the end of their invisible time (a checkpoint of their own, counted as failed).
		// ck points into b.cks, which the append may move: it is done with first.
		ck.acked += fails
		b.ckSeq++
		b.cks = append(b.cks, popCK{id: b.ckSeq, cons: cs.idx, t: ck.t, q: ck.q, n: fails, popTime: ck.popTime, reviveAt: ck.reviveAt, r: ck.r, kind: kindFailed})
	case fails > 0:
		c.changeInvisible(cs, b, ck, fails)
	}
	return ok
}

// changeInvisible is the client's answer to failed POP messages (spec §8.2.4 step 7): below
// maxReconsumeTimes, CHANGE_MESSAGE_INVISIBLETIME to popDelayLevel[reconsumeTimes] — a new
// checkpoint of their own (§8.3.6); from it on, the client acks them, as each such message is
// older than 4 h by then: dropped, never on a DLQ.
func (c *Cluster) changeInvisible(cs *consumer, b *broker, ck *popCK, n int64) {
	ck.acked += n
	if cs.grpc {
		// The gRPC PushConsumer nacks with its retry policy's next delay; the proxy's
		// filter dead-letters the message at its 17th reconsume count (spec §8.3.8).
		delay := grpcRetryDelay(ck.r)
		b.ckSeq++
		nc := popCK{id: b.ckSeq, cons: cs.idx, t: ck.t, q: ck.q, n: n, popTime: c.now, reviveAt: c.now + delay, r: ck.r, kind: kindFailed, quiet: true}
		b.cks = append(b.cks, nc)
		c.metrics.ChangedInvisible += n
		c.emit(Event{Kind: EventInfo, Cause: CauseChangeInvisible, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: n, Until: nc.reviveAt, Arg: "retry",
			Text: fmt.Sprintf("%s's listener failed %s (delivery attempt %d): it sets the invisible duration of %s to %s, revived at about %s", c.who(cs), messages(n), ck.r+1, them(n), durationText(delay), clockMs(nc.reviveAt+reviveQuietMs))})
		return
	}
	if int(ck.r) >= cs.g.maxReconsume {
		c.metrics.Acked += n
		c.metrics.Invisible -= n
		c.metrics.PopDropped += n
		c.emit(Event{Kind: EventInfo, Cause: CauseChangeInvisible, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: n, Arg: "drop",
			Text: fmt.Sprintf("%s's listener failed %s at delivery %d: the POP client acks %s and drops %s, without a dead-letter topic", c.who(cs), messages(n), ck.r+1, them(n), them(n))})
		return
	}
	delay := popDelayLevel[min(int(ck.r), popDelayLevelSize-1)] * 1000
	b.ckSeq++
	nc := popCK{id: b.ckSeq, cons: cs.idx, t: ck.t, q: ck.q, n: n, popTime: c.now, reviveAt: c.now + delay, r: ck.r, kind: kindFailed}
	b.cks = append(b.cks, nc)
	c.metrics.ChangedInvisible += n
	c.emit(Event{Kind: EventInfo, Cause: CauseChangeInvisible, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: n, Until: nc.reviveAt, Arg: "retry",
		Text: fmt.Sprintf("%s's listener failed %s (%s): it makes %s invisible for %s, revived at about %s", c.who(cs), messages(n), reconsumed(ck.r), them(n), durationText(delay), clockMs(nc.reviveAt+reviveQuietMs))})
}

// revive is the broker's revive service (spec §8.3.7) as the model times it: a checkpoint's
// messages not acked by its revive time go to %RETRY%<group>_<topic> queue 0 of the broker
// 2.0 s later (3.0 s when something of its pop was acked), their reconsume count one more,
// popped again like any message; done checkpoints go.
func (c *Cluster) revive(b *broker) {
	if b.down {
		return
	}
	// One event per popper and retry topic a pass: the checkpoints of one pop (one a queue
	// read) and of the pops of one step are revived together.
	type told struct {
		cons     int
		rt       *topicState
		n        int64
		from, to int64
		r        int32
		failed   bool // every checkpoint was a failure's (CHANGE_MESSAGE_INVISIBLETIME), none a pop's
	}
	var tell []told
	if c.now%1000 != 0 {
		b.cks = slices.DeleteFunc(b.cks, func(ck popCK) bool { return ck.acked >= ck.n })
		return // a round a second (see above)
	}
	for i := range b.cks {
		ck := &b.cks[i]
		if ck.revived || ck.acked >= ck.n {
			continue
		}
		wait := int64(reviveQuietMs)
		if ck.acked > 0 && !ck.quiet {
			wait = reviveAckedMs
		}
		if ck.fifo {
			if c.now >= ck.reviveAt {
				g := c.consumers[ck.cons].g
				c.fifoExpire(b, g, b.groups[g.idx].fifoOf(ck.t, ck.q), ck)
			}
			continue
		}
		if c.now < ck.reviveAt+wait {
			continue
		}
		ck.revived = true
		m := ck.n - ck.acked
		g := c.consumers[ck.cons].g
		rt := c.ensurePopRetry(b, g, c.topics[ck.t])
		b.appendMessages(rt, 0, m)
		bq := b.queueOf(rt, 0)
		bq.segs = append(bq.segs, popSeg{end: bq.maxOffset, r: ck.r + 1, kind: ck.kind})
		c.metrics.Revived += m
		c.metrics.Invisible -= m
		if k := len(tell) - 1; k >= 0 && tell[k].cons == ck.cons && tell[k].rt == rt {
			tell[k].n += m
			tell[k].from, tell[k].to = min(tell[k].from, ck.popTime), max(tell[k].to, ck.popTime)
			tell[k].r = max(tell[k].r, ck.r+1)
			tell[k].failed = tell[k].failed && ck.kind == kindFailed
		} else {
			tell = append(tell, told{cons: ck.cons, rt: rt, n: m, from: ck.popTime, to: ck.popTime, r: ck.r + 1, failed: ck.kind == kindFailed})
		}
	}
	b.cks = slices.DeleteFunc(b.cks, func(ck popCK) bool { return ck.revived || ck.acked >= ck.n })
	for _, x := range tell {
		cs := c.consumers[x.cons]
		when := clockMs(x.from)
		if x.to != x.from {
			when = clockMs(x.from) + "–" + clockMs(x.to)
		}
		how := fmt.Sprintf("%s popped at %s and left unacked", c.who(cs), when)
		if x.failed {
			how = fmt.Sprintf("%s's listener failed at %s", c.who(cs), when)
		}
		c.emit(Event{Kind: EventInfo, Cause: CauseRevive, Consumer: cs.id, Group: cs.g.name, ClientID: cs.cid, Broker: b.name, N: x.n, Arg: x.rt.name,
			Text: fmt.Sprintf("%s revives %s %s: back on %s with reconsume count %d", b.name, messages(x.n), how, x.rt.name, x.r)})
	}
}

// ensurePopRetry is g's POP retry topic for t on b, created on first use with one queue and
// the group's offset 0 (spec §8.3.7).
func (c *Cluster) ensurePopRetry(b *broker, g *groupState, t *topicState) *topicState {
	rt := c.popRetryTopic(g, t)
	if b.topicOf(rt) == nil {
		c.setQueueNums(b, rt, 1, 1)
		b.offsetsOf(g, rt)[0].committed = 0
	}
	return rt
}

// countRevived counts the POP retry queue's messages [from, to) reaching a listener by what
// they were: never delivered (consumed now), delivered (a duplicate) or failed (reconsumed).
func (c *Cluster) countRevived(bq *brokerQueue, from, to int64) {
	for from < to {
		end, _, kind := bq.segAt(from, to)
		switch kind {
		case kindFresh:
			c.metrics.Consumed += end - from
		case kindDelivered:
			c.metrics.Duplicates += end - from
		case kindFailed:
			c.metrics.Reconsumed += end - from
		}
		from = end
	}
}

// popRetryTopic is g's POP retry topic for t, declared on first use (on no broker yet).
func (c *Cluster) popRetryTopic(g *groupState, t *topicState) *topicState {
	rt := c.popRetryOf(g, t)
	if rt == nil {
		rt = c.addTopic("%RETRY%" + g.name + "_" + t.name)
		rt.group, rt.popFor = g, t.idx+1
		if g.popRetry == nil {
			g.popRetry = map[int]int{}
		}
		g.popRetry[t.idx] = rt.idx
	}
	return rt
}

// popKey is a group's queue of a topic on a broker, for the snapshot's counts.
type popKey struct {
	g, t int
	q    int32
}

// invisibleCount is a queue's messages popped and not yet acked or revived, and the earliest
// end of their invisible time.
type invisibleCount struct{ n, until int64 }

// invisibleByQueue counts b's invisible messages by group and queue (nil: none).
func (b *broker) invisibleByQueue(c *Cluster) map[popKey]invisibleCount {
	var m map[popKey]invisibleCount
	for _, ck := range b.cks {
		if ck.revived || ck.acked >= ck.n {
			continue
		}
		if m == nil {
			m = map[popKey]invisibleCount{}
		}
		k := popKey{c.consumers[ck.cons].g.idx, ck.t, ck.q}
		x := m[k]
		if x.n == 0 || ck.reviveAt < x.until {
			x.until = ck.reviveAt
		}
		x.n += ck.n - ck.acked
		m[k] = x
	}
	return m
}
