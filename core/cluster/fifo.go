package cluster

import (
	"fmt"
)

// FIFO gRPC groups (spec §8.3.9, §8.4.3 FIFO, §8.4.4 FIFO, §8.4.5 step 4, §8.3.8): a gRPC
// PushConsumer of a group whose subscription config says consumeMessageOrderly (scenario
// groups[].orderly) receives through its proxy with order = true.
//
//   - Assignments: the proxy answers one (topic, broker, id) per read queue of each readable
//     broker, so each consumer has readQueueNums process queues per broker; the receive path
//     ignores the id, and each of them pops the whole broker (§8.4.3, §8.4.5 step 3).
//   - A FIFO pop never reads the retry topic, and skips a queue while any message of its last
//     popped batch is un-acked and still invisible (the attemptId exception, a retried receive
//     getting the same messages, is not modelled: a receive here never fails between the pop
//     and its answer). It commits the batch's start offset; acks advance it
//     (commitAndNext: the first un-acked offset, or past the batch). A batch whose invisible
//     time ends is read again from that offset, in order, its reconsume count one more; no
//     checkpoint is revived onto a retry topic.
//   - Freeing a queue (the last ack of its batch, or the end of its first un-acked message's
//     invisible time) wakes a parked pop through the 100 ms lock-free timer, at its next tick,
//     and only if the queue has more messages (§8.3.5). A pop that is not parked reads the
//     freed queue at once.
//   - The client consumes one answer's messages one after the other, whatever queue they
//     come from (enableFifoConsumeAccelerator off, the default); a failed message is retried
//     locally after the retry policy's delay (1 s, 5 s, 10 s, …) and blocks the messages
//     behind it; after maxAttempts (17) the client forwards it to %DLQ%<group> (§8.3.8,
//     §8.4.4 FIFO consume service). A message the proxy's filter finds at its 17th reconsume
//     count goes to the DLQ at the proxy, which acks it (§8.4.5 step 5).
//   - The proxy renews the batch's invisible time as for any PushConsumer (§8.4.6), and a dead
//     client's handles are cleared 120–130 s after its last heartbeat: its queues stay blocked
//     until then, and then the others receive the batch again, in order.
//
// The model's choices: a killed client's parked receive woken by a message is nacked with 1 s
// and its renewal entries dropped (inferred: a renewal of a FIFO handle only moves the order
// info's visible time, so it makes no second delivery); FIFO SimpleConsumers are not
// modelled.

// fifoPops reports whether cs pops with order = true: a gRPC PushConsumer of an orderly group.
func (cs *consumer) fifoPops() bool { return cs.grpc && !cs.simple.on && cs.g.orderly }

// fifoKey is a queue of a topic on a broker.
type fifoKey struct {
	t int
	q int32
}

// fifoQueue is a group's order info of one queue (ConsumerOrderInfoManager, §8.3.9).
type fifoQueue struct {
	cks    []int64 // the checkpoints of its last popped batch
	end    int64   // the offset past that batch
	freeAt int64   // the lock-free timer's tick that frees it for a parked pop
	// redo: offsets below it come back with reconsume count redoR (their batch expired).
	redo  int64
	redoR int32
	seen  int64 // offsets below it reached a listener: read again, they are duplicates
}

// fifoOf is group bg's order info of queue q of topic t.
func (bg *brokerGroup) fifoOf(t int, q int32) *fifoQueue {
	if bg.fifo == nil {
		bg.fifo = map[fifoKey]*fifoQueue{}
	}
	k := fifoKey{t, q}
	fq := bg.fifo[k]
	if fq == nil {
		fq = &fifoQueue{}
		bg.fifo[k] = fq
	}
	return fq
}

// fifoBlocked reports whether queue q of t is blocked for group g's FIFO pops now: a message
// of its last batch is un-acked and still invisible. Batches whose invisible time ended are
// expired on the way (see fifoExpire).
func (c *Cluster) fifoBlocked(b *broker, g *groupState, t *topicState, q int32) bool {
	fq := b.groups[g.idx].fifoOf(t.idx, q)
	blocked := false
	for _, id := range fq.cks {
		ck := b.ck(id)
		if ck == nil || ck.revived || ck.acked >= ck.n {
			continue
		}
		if c.now < ck.reviveAt {
			blocked = true
			continue
		}
		c.fifoExpire(b, g, fq, ck)
	}
	return blocked
}

// fifoExpire is the end of ck's invisible time with messages un-acked: they are visible again
// where they are, to be read again from the committed offset with a reconsume count one more.
func (c *Cluster) fifoExpire(b *broker, g *groupState, fq *fifoQueue, ck *popCK) {
	m := ck.n - ck.acked
	ck.revived = true
	c.metrics.Revived += m
	c.metrics.Invisible -= m
	fq.redo = max(fq.redo, ck.from+ck.n)
	fq.redoR = max(fq.redoR, ck.r+1)
	fq.freeAt = max(fq.freeAt, nextTick(ck.reviveAt))
	cs := c.consumers[ck.cons]
	t := c.topics[ck.t]
	c.emit(Event{Kind: EventInfo, Cause: CauseRevive, Consumer: cs.id, Group: cs.g.name, ClientID: cs.cid, Broker: b.name, N: m, Arg: t.name,
		Text: fmt.Sprintf("%s: %s of %s's FIFO batch on %s, popped at %s, %s visible again where %s (%s invisible time ended): the next FIFO pop reads %s again from offset %d, in order, reconsume count %d",
			b.name, messages(m), c.who(cs), b.short(t, ck.q), clockMs(ck.popTime), pick(m, "is", "are"), pick(m, "it is", "they are"), pick(m, "its", "their"), them(m), ck.from+ck.acked, ck.r+1)})
}

// pick is one's word for a single message, many's for several.
func pick(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// nextTick is the lock-free timer's tick at or after t (a 100 ms HashedWheelTimer, §8.3.5).
func nextTick(t int64) int64 { return (t + 99) / 100 * 100 }

// fifoAvailable reports whether a FIFO pop of group g would find a message of queue q of t
// on b now: messages past the committed offset, the queue not blocked, and, for a parked pop,
// the lock-free timer's tick reached since it was freed.
func (c *Cluster) fifoAvailable(b *broker, g *groupState, t *topicState, q int32) bool {
	bt := b.topicOf(t)
	o := b.offsetsOf(g, t)[q]
	if bt.qs[q].maxOffset <= max(o.committed, 0) || c.fifoBlocked(b, g, t, q) {
		return false
	}
	return c.now >= b.groups[g.idx].fifoOf(t.idx, q).freeAt
}

// fifoCommit is commitAndNext after acks of ck's messages (§8.3.5): the committed offset moves
// to the first un-acked offset of the batch, or past it; a batch fully acked frees the queue
// at the timer's next tick.
func (c *Cluster) fifoCommit(b *broker, ck *popCK) {
	g := c.consumers[ck.cons].g
	fq := b.groups[g.idx].fifoOf(ck.t, ck.q)
	next := fq.end
	for _, id := range fq.cks {
		if x := b.ck(id); x != nil && !x.revived && x.acked < x.n {
			next = min(next, x.from+x.acked)
		}
	}
	o := b.offsetsOf(g, c.topics[ck.t])[ck.q]
	if next > o.committed {
		o.committed = next
	}
	if next == fq.end {
		fq.freeAt = nextTick(c.now)
	}
}

// consumeFifo is cs's FIFO consume service on up to m messages of item it (of ck, popped by
// pq): one after the other; a failure stops the queue for the retry policy's delay, and at
// maxAttempts the message goes to the DLQ. It returns how many messages are done and whether
// the queue now waits.
func (c *Cluster) consumeFifo(cs *consumer, pq *popQueue, b *broker, ck *popCK, it *popItem, m int64) (done int64, wait bool) {
	held := c.proxies[cs.px].down || ck.orphan && ck.renews > 0
	fq := b.groups[cs.g.idx].fifoOf(ck.t, ck.q)
	var ok int64
	for done < m {
		fq.seen = max(fq.seen, ck.from+ck.acked+done+1)
		switch {
		case it.attempt > 0:
			c.metrics.Reconsumed++
		case ck.kind == kindFresh:
			c.metrics.Consumed++
		case ck.kind == kindDelivered:
			c.metrics.Duplicates++
		default:
			c.metrics.Reconsumed++
		}
		cs.consumed++
		fail := false
		if cs.failPPM > 0 {
			acc := cs.failAcc + cs.failPPM
			fail, cs.failAcc = acc >= 1000000, acc%1000000
		}
		if fail && int(ck.r)+int(it.attempt)+1 < cs.g.maxReconsume+grpcMaxAttemptsAdd {
			// Retried locally after the next backoff delay (§8.3.8).
			delay := grpcRetryDelay(ck.r + it.attempt)
			it.attempt++
			pq.fifoWait = c.now + delay
			c.metrics.ChangedInvisible++
			c.emit(Event{Kind: EventInfo, Cause: CauseChangeInvisible, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: 1, Until: pq.fifoWait, Arg: "retry",
				Text: fmt.Sprintf("%s's listener failed a FIFO message of %s (delivery attempt %d): the client retries it itself in %s, and the messages behind it wait", c.who(cs), b.name, ck.r+it.attempt, durationText(delay))})
			wait = true
			break
		}
		if fail {
			// ForwardMessageToDeadLetterQueue, then the message is done.
			dlq := c.deadLetterTopic(cs.g)
			if b.topicOf(dlq) == nil {
				c.setQueueNums(b, dlq, 1, 1)
			}
			b.appendMessages(dlq, 0, 1)
			c.metrics.DeadLettered++
			c.emit(Event{Kind: EventInfo, Cause: CauseDeadLetter, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: 1, Arg: dlq.name,
				Text: fmt.Sprintf("%s's listener failed a FIFO message of %s at its last attempt: the client forwards it to %s", c.who(cs), b.name, dlq.name)})
		}
		it.attempt = 0
		ok++
		done++
	}
	if ok > 0 {
		if held {
			c.holdAck(cs, b, ck, ok, 0)
		} else {
			ck.acked += ok
			c.metrics.Acked += ok
			c.metrics.Invisible -= ok
			c.fifoCommit(b, ck)
		}
	}
	return done, wait
}
