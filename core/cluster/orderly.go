package cluster

import (
	"fmt"
	"math"
)

// Orderly consumption (spec §3.15 "Orderly"): one thread at a time consumes a queue, one
// message a call, in offset order. A listener answering SUSPEND_CURRENT_QUEUE_A_MOMENT stops
// the queue for suspendCurrentQueueTimeMillis (1000 ms) and the message comes again, its
// reconsume count one higher; with the default limit (maxReconsumeTimes −1: Integer.MAX_VALUE)
// a message that always fails blocks its queue forever. Past an explicit limit the message is
// sent to the retry topic, which the broker diverts to the DLQ for an orderly group. The
// queue locks of orderly consumers (lockBatchMQ, spec §8.5) are lock.go's.

// suspendMs is suspendCurrentQueueTimeMillis's default.
const suspendMs = 1000

// consumeOrderly spends one step of an orderly member's capacity: each queue with messages
// and not suspended gets at most one thread's share, message by message until its first
// failure.
func (c *Cluster) consumeOrderly(cs *consumer, step int64) {
	if cs.hung {
		return
	}
	threads := int64(c.t.ConsumeThreads)
	// One thread a queue: a queue's share of a step is a thread's part of the member's rate.
	perQueue := int64(cs.rate) * step / max(threads, 1)
	for _, pq := range cs.pqList {
		if pq.cached() == 0 || c.now < pq.suspendedUntil {
			pq.orderlyBudget = 0
			continue
		}
		if cs.locks() && !c.lockValid(pq) {
			c.relock(cs, pq)
			pq.orderlyBudget = 0 // consumed only under a lock younger than 30 s (spec §8.5.2)
			continue
		}
		budget := perQueue + pq.orderlyBudget
		k := min(budget/1000, pq.cached())
		pq.orderlyBudget = budget % 1000
		if k == 0 {
			continue
		}
		from := pq.consumedUpTo
		fail := int64(-1) // the index of the first message in [from, from+k) the listener fails
		if cs.failPPM > 0 {
			// The j-th message fails when the failure share's running sum crosses a whole.
			j := (1000000-cs.failAcc+cs.failPPM-1)/cs.failPPM - 1
			if j < k {
				fail = j
			}
		}
		if fail < 0 {
			c.deliver(cs, pq, from, from+k)
			cs.failAcc = (cs.failAcc + k*cs.failPPM) % 1000000
			pq.consumedUpTo += k
			pq.headReconsumed = 0
			cs.consumed += k
			continue
		}
		// The messages before the failing one succeed; the failing one is delivered and
		// answered SUSPEND_CURRENT_QUEUE_A_MOMENT.
		c.deliver(cs, pq, from, from+fail+1)
		cs.failAcc = cs.failAcc + (fail+1)*cs.failPPM - 1000000
		cs.consumed += fail + 1
		if fail > 0 {
			pq.headReconsumed = 0
		}
		limit := int64(math.MaxInt32)
		if cs.g.maxReconsume > 0 && cs.g.orderlyLimit {
			limit = int64(cs.g.maxReconsume)
		}
		if pq.headReconsumed >= limit {
			// Past the limit: sent as a new message to %RETRY%<group>, which the broker puts on
			// the DLQ for a group holding queue locks (spec §5.8).
			pq.consumedUpTo = from + fail + 1
			c.retryOrDeadLetter(cs, pq.b, 1, int32(cs.g.maxReconsume), 0, "orderly", false)
			pq.headReconsumed = 0
			continue
		}
		pq.consumedUpTo = from + fail // the message stays: it comes again after the pause
		pq.headReconsumed++
		pq.suspendedUntil = c.now + suspendMs
		c.metrics.Suspensions++
		c.emit(Event{Kind: EventInfo, Cause: CauseSuspend, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: pq.b.name,
			Queues: []string{pq.b.short(pq.t, pq.mq.QueueID)}, N: pq.headReconsumed, Until: pq.suspendedUntil,
			Text: fmt.Sprintf("%s's listener answers SUSPEND_CURRENT_QUEUE_A_MOMENT to offset %d of %s (failure %d): the queue waits 1 s and the message comes again, blocking the ones behind it",
				c.who(cs), pq.consumedUpTo, pq.b.short(pq.t, pq.mq.QueueID), pq.headReconsumed)})
	}
}
