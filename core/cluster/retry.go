package cluster

import (
	"fmt"
	"slices"
)

// Consume failures (spec §3.15, §5.8): a member's listener answers RECONSUME_LATER to a share
// of its deliveries (its failRate); each failed message is sent back, put on the broker's delay
// ladder and comes again on the group's retry topic, one more reconsume time on it, until the
// broker sends it to %DLQ%<group> instead.
//
// Messages flow in counted batches, so the ladder holds batches: the messages one member's
// listener failed in one step on one queue, with the reconsume times they had. A retry queue
// keeps, beside its offsets, the reconsume times of its messages as runs.

// delayLevels is the broker's messageDelayLevel in ms: "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m
// 9m 10m 20m 30m 1h 2h", level i the i-th (spec §5.8).
var delayLevels = [...]int64{1000, 5000, 10000, 30000, 60000, 120000, 180000, 240000, 300000,
	360000, 420000, 480000, 540000, 600000, 1200000, 1800000, 3600000, 7200000}

// delayOf is a delay level's delay, the level capped at the highest (18).
func delayOf(level int) int64 {
	return delayLevels[min(max(level, 1), len(delayLevels))-1]
}

// scheduleTick is how often a delay level's task looks at the head of its queue when it is not
// due yet (ScheduleMessageService's DELAY_FOR_A_WHILE); scheduleFirst is its first look after
// the broker starts.
const (
	scheduleTick  = 100
	scheduleFirst = 1000
)

// sendBackTimeout is CONSUMER_SEND_MSG_BACK's timeout (synchronous, 5 s), localRetryMs the
// wait before messages whose send-back failed are consumed again locally (spec §3.15 step 4).
const (
	sendBackTimeout = 5000
	localRetryMs    = 5000
)

// delayed is a batch of messages on a broker's delay ladder: they go to queue 0 of topic t
// (a group's retry topic) at visibleAt, with reconsume times r.
type delayed struct {
	visibleAt int64
	t         *topicState
	count     int64
	r         int32
}

// retryRun is a run of a retry queue's messages with one reconsume count: the messages below
// end (and at or above the previous run's end) were sent back r−1 times before.
type retryRun struct {
	end int64
	r   int32
}

// localRetry is messages whose send-back failed both ways, held in their process queue and
// consumed again at at (spec §3.15 step 4): their offset holds the queue's back meanwhile.
type localRetry struct {
	at     int64
	pq     *processQueue
	offset int64
	count  int64
	r      int32
}

// listen is a member's listener answering the k messages of pq from offset from that it was
// just handed: the share its failRate says fails, in the order they came, and is sent back
// (concurrent CLUSTERING consumption; a broadcasting group drops its failed messages, spec
// §3.15 step 3).
func (c *Cluster) listen(cs *consumer, pq *processQueue, from, k int64) {
	if cs.failPPM == 0 || k <= 0 {
		return
	}
	acc := cs.failAcc + k*cs.failPPM
	fails := acc / 1000000
	cs.failAcc = acc % 1000000
	if fails == 0 || cs.g.model == Broadcasting {
		return
	}
	// The failed ones are the last of the batch: a run of reconsume counts from the queue
	// (its retry topic's) split accordingly.
	at := from + k - fails
	for _, part := range c.reconsumeCounts(pq, at, from+k) {
		c.sendBack(cs, pq, at, part.count, part.r)
		at += part.count
	}
}

type countOf struct {
	count int64
	r     int32
}

// reconsumeCounts is the reconsume times of queue pq's messages [from, to), as runs: 0 for a
// topic's own messages, the retry queue's runs for a retry topic's.
func (c *Cluster) reconsumeCounts(pq *processQueue, from, to int64) []countOf {
	if !pq.t.isRetry() {
		return []countOf{{to - from, 0}}
	}
	var out []countOf
	lo := pq.bq.runsFrom
	for _, run := range pq.bq.runs {
		if run.end > from && lo < to {
			n := min(run.end, to) - max(lo, from)
			if n > 0 {
				out = append(out, countOf{n, run.r})
			}
		}
		lo = run.end
	}
	if covered := int64(0); true {
		for _, p := range out {
			covered += p.count
		}
		if covered < to-from {
			// Runs trimmed below the group's progress: a redelivery of old messages.
			out = append(out, countOf{to - from - covered, 1})
		}
	}
	return out
}

// sendBack is sendMessageBack for n failed messages of pq, each sent back r times before
// (spec §3.15 step 3): the direct CONSUMER_SEND_MSG_BACK to the master they were pulled from,
// else a normal send of the instance's internal producer to the retry topic on any broker,
// else a local retry 5 s later.
func (c *Cluster) sendBack(cs *consumer, pq *processQueue, offset, n int64, r int32) {
	c.sendBackAs(cs, pq, offset, n, r, false)
}

// sendBackAs is sendBack; expired says the consume-timeout clean-up sends it (delay level 3).
func (c *Cluster) sendBackAs(cs *consumer, pq *processQueue, offset, n int64, r int32, expired bool) {
	g := cs.g
	if g.retry == nil {
		return // the group has no retry topic in this run: nothing is sent back
	}
	if ok, _ := c.rpc(cs, pq.b, sendBackTimeout); ok {
		// The broker takes the reconsume count from the message in its commit log, and
		// with delay level 0 decides the level itself: 3 + that count (spec §5.8); the
		// consume-timeout clean-up asks for 3 itself.
		level := 3 + int(r)
		if expired {
			level = 3
		}
		c.retryOrDeadLetter(cs, pq.b, n, r, level, "direct", expired)
		return
	}
	// The fallback: the internal producer's send to %RETRY%<group>, to a live broker of its
	// route, with the client's own delay level 3 + reconsumeTimes (spec §3.15 step 3.2).
	if b := c.fallbackBroker(cs); b != nil {
		c.retryOrDeadLetter(cs, b, n, r, 3+int(r), "fallback", expired)
		return
	}
	// Both failed: the messages stay in the process queue, consumed again in 5 s.
	cs.localRetries = append(cs.localRetries, localRetry{at: c.now + localRetryMs, pq: pq, offset: offset, count: n, r: r})
	pq.holds = append(pq.holds, offset)
	c.metrics.LocalRetries += n
}

// fallbackBroker is where the internal producer's send to the retry topic lands: the next live
// broker of the retry topic's route the member holds, in turn (nil: none is reachable).
func (c *Cluster) fallbackBroker(cs *consumer) *broker {
	if cs.partitioned {
		return nil
	}
	for _, sub := range cs.subs {
		if sub.t != cs.g.retry || len(sub.brokers) == 0 {
			continue
		}
		for range sub.brokers {
			name := sub.brokers[cs.fallbackNext%len(sub.brokers)]
			cs.fallbackNext++
			if b := c.brokerBy[name]; b != nil && !b.down {
				return b
			}
		}
	}
	return nil
}

// retryOrDeadLetter is a broker storing n sent-back messages with reconsume count r: on the
// delay ladder at level for the group's retry topic (visible again delay + ≤ 100 ms later),
// or, once r reached the group's maxReconsumeTimes, on %DLQ%<group> (spec §5.8).
func (c *Cluster) retryOrDeadLetter(cs *consumer, b *broker, n int64, r int32, level int, path string, expired bool) {
	g := cs.g
	if int(r) >= g.maxReconsume {
		dlq := c.deadLetterTopic(g)
		if b.topicOf(dlq) == nil {
			c.setQueueNums(b, dlq, 1, 1) // created on demand, one queue (spec §5.8)
		}
		b.appendMessages(dlq, 0, n)
		c.metrics.DeadLettered += n
		c.emit(Event{Kind: EventInfo, Cause: CauseDeadLetter, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: n, Arg: dlq.name,
			Text: fmt.Sprintf("%s's listener failed %s %d times: %s puts %s on %s", c.who(cs), messages(n), r+1, b.name, them(n), dlq.name)})
		return
	}
	due := c.now + delayOf(level)
	at := b.scheduleAt(due)
	// Kept in visibility order: batches of one level keep their order, and a later level's
	// batch may become visible before an earlier one of a longer level.
	i, _ := slices.BinarySearchFunc(b.delayed, at, func(d delayed, at int64) int {
		if d.visibleAt <= at {
			return -1
		}
		return 1
	})
	b.delayed = slices.Insert(b.delayed, i, delayed{visibleAt: at, t: g.retry, count: n, r: r + 1})
	c.metrics.Retried += n
	c.metrics.Delayed += n
	if expired {
		path = "expired"
	}
	c.emit(Event{Kind: EventInfo, Cause: CauseSendBack, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: n, Until: at, Arg: path,
		Text: fmt.Sprintf("%s%s (%s): %s holds %s %s at delay level %d, back on %s at %s", c.who(cs), failedHow(n, expired, c.t.ConsumeTimeout), reconsumed(r), b.name, them(n), durationText(delayOf(level)), level, g.retry.name, clockMs(at))})
}

// scheduleAt is when a delay level's task, looking at its head every 100 ms from 1 s after the
// broker started, first finds a message due at due (spec §5.8).
func (b *broker) scheduleAt(due int64) int64 {
	first := b.startedAt + scheduleFirst
	if due <= first {
		return first
	}
	return first + (due-first+scheduleTick-1)/scheduleTick*scheduleTick
}

// deliverDelayed puts the broker's delayed batches that are due back on their retry queues;
// a down broker's wait until it is back (its schedule is on disk).
func (c *Cluster) deliverDelayed(b *broker) {
	if b.down {
		return
	}
	k := 0
	for k < len(b.delayed) && b.delayed[k].visibleAt <= c.now {
		d := b.delayed[k]
		if b.topicOf(d.t) == nil {
			c.setQueueNums(b, d.t, 1, 1)
		}
		bq := b.topics[d.t.idx].qs[0]
		b.appendMessages(d.t, 0, d.count)
		if n := len(bq.runs); n > 0 && bq.runs[n-1].r == d.r {
			bq.runs[n-1].end = bq.maxOffset
		} else {
			bq.runs = append(bq.runs, retryRun{end: bq.maxOffset, r: d.r})
		}
		c.metrics.Delayed -= d.count
		if offs := b.offsetsOf(d.t.group, d.t); len(offs) > 0 {
			bq.trimRuns(offs[0].frontier)
		}
		k++
	}
	if k > 0 {
		b.delayed = b.delayed[:copy(b.delayed, b.delayed[k:])]
	}
}

// localRetries consumes again the messages of cs whose send-back failed, once due: each is one
// more delivery, failing or not as the listener says. One that fails again and whose send-back
// fails again is one more local retry, 5 s later (spec §3.15 step 4 starts again at step 1):
// sendBack appends it to a list of its own while the due ones are taken, then it goes after
// the ones kept, which are due earlier.
func (c *Cluster) runLocalRetries(cs *consumer) {
	pending := cs.localRetries
	cs.localRetries = nil
	keep := pending[:0]
	for _, lr := range pending {
		if lr.at > c.now {
			keep = append(keep, lr)
			continue
		}
		if i := slices.Index(lr.pq.holds, lr.offset); i >= 0 {
			lr.pq.holds = slices.Delete(lr.pq.holds, i, i+1)
		}
		c.metrics.LocalRetries -= lr.count
		if cs.pqs[lr.pq.mq] != lr.pq || cs.dead {
			continue // the queue was dropped meanwhile: its messages come again to its next owner
		}
		c.metrics.Duplicates += lr.count // delivered again: the group's progress passed them before
		acc := cs.failAcc + lr.count*cs.failPPM
		fails := acc / 1000000
		cs.failAcc = acc % 1000000
		if fails > 0 {
			c.sendBack(cs, lr.pq, lr.offset, fails, lr.r)
		}
	}
	cs.localRetries = append(keep, cs.localRetries...)
}

// trimRuns forgets the runs of a retry queue wholly below every group's progress on it.
func (bq *brokerQueue) trimRuns(frontier int64) {
	k := 0
	for k < len(bq.runs)-1 && bq.runs[k].end <= frontier {
		k++
	}
	if k > 0 {
		bq.runsFrom = bq.runs[k-1].end
		bq.runs = bq.runs[:copy(bq.runs, bq.runs[k:])]
	}
}

func messages(n int64) string {
	if n == 1 {
		return "1 message"
	}
	return fmt.Sprintf("%d messages", n)
}

// failedHow words why messages are sent back: the listener failed them, or they outstayed
// consumeTimeout in it.
func failedHow(n int64, expired bool, timeout int64) string {
	if expired {
		return fmt.Sprintf("'s consume-timeout clean-up sends back %s its listener has held over %s", messages(n), spanText(timeout))
	}
	return "'s listener fails " + messages(n)
}

// reconsumed words a reconsume count.
func reconsumed(r int32) string {
	switch r {
	case 0:
		return "a first delivery"
	case 1:
		return "reconsumed once before"
	}
	return fmt.Sprintf("reconsumed %d times before", r)
}

func them(n int64) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// theyOf is "it" for one message, "they" for several.
func theyOf(n int64) string {
	if n == 1 {
		return "it"
	}
	return "they"
}

// durationText is a delay level's delay as its table writes it: 10s, 2m, 1h.
func durationText(ms int64) string {
	switch {
	case ms%3600000 == 0:
		return fmt.Sprintf("%dh", ms/3600000)
	case ms%60000 == 0:
		return fmt.Sprintf("%dm", ms/60000)
	}
	return fmt.Sprintf("%ds", ms/1000)
}

// clockMs is Clock with milliseconds when they are not 0: a retry's exact time.
func clockMs(ms int64) string {
	if ms%1000 == 0 {
		return Clock(ms)
	}
	return fmt.Sprintf("%s.%03d", Clock(ms), ms%1000)
}

// cleanExpired is the consume-timeout clean-up, every consumeTimeout (15 min) from the consume
// service's start (spec §3.15, concurrent consumption only): in each process queue, while the
// lowest-offset message has been in its listener longer than consumeTimeout, it is sent back at
// delay level 3 and removed, so the queue's offset moves past it — at most 16 a queue a run.
// The listener call goes on on its thread: a designed duplicate, the message coming again from
// the retry topic while the first call may still run.
func (c *Cluster) cleanExpired(cs *consumer) {
	if cs.dead || cs.g.orderly {
		return
	}
	for _, pq := range cs.pqList {
		for range 16 {
			if len(pq.slow) == 0 {
				break // the head is a message no listener has started yet
			}
			head := pq.slow[0]
			if c.now-(head.doneAt-cs.slowMs) <= c.t.ConsumeTimeout {
				break
			}
			for _, part := range c.reconsumeCounts(pq, head.offset, head.offset+1) {
				c.sendBackAs(cs, pq, head.offset, part.count, part.r, true)
			}
			pq.slow = pq.slow[1:]
			c.metrics.Expired++
		}
	}
}
