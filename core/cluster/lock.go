package cluster

import (
	"fmt"
	"slices"

	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
)

// Queue locks of orderly consumers (spec §8.5): the broker keeps, per group, which client id
// holds each queue, for 60 s after its last refresh; a Java orderly member locks a queue before
// it takes it (refused: the queue waits and the round is unbalanced), renews its queues' locks
// every 20 s, consumes a queue only while its own lock is younger than 30 s, and, giving a queue
// up, unlocks it once its listener is free (or, 20 s after its last lock, regardless). A killed
// owner's locks stay until they expire: the queue is paused 40–60 s between owners.

// Lock timings (spec §8.0, §8.5).
const (
	brokerLockLive   = 60000 // rocketmq.broker.rebalance.lockMaxLiveTime
	clientLockLive   = 30000 // rocketmq.client.rebalance.lockMaxLiveTime: isLockExpired
	lockRenewEvery   = 20000 // rocketmq.client.rebalance.lockInterval
	lockRenewFirst   = 1000  // the renewal's first run after start
	lockRPCTimeout   = 1000  // LOCK_BATCH_MQ and the shutdown's UNLOCK_BATCH_MQ
	forceUnlockAfter = 20000 // rocketmq.client.unlockDelayTimeMills: unlock a queue given up regardless
	relockDelay      = 100   // tryLockLaterAndReconsume: the lock attempt after a failed check
	relockGranted    = 10    // … then consume again this soon when granted
	relockRefused    = 3000  // … or this late when refused
	unlockedPullWait = 1000  // a pull of a queue not locked retries after
)

// lockKey is a queue in a broker's lock table (per group).
type lockKey struct {
	topic int
	queue int32
}

// lockEntry is a broker's LockEntry: the holder's client id and its last refresh.
type lockEntry struct {
	cid  string
	last int64
}

// locks reports whether cs's queues go through the broker's locks: a Java member of an
// orderly CLUSTERING group (spec §8.5; a broadcasting rebalance passes isOrder false, and
// the Go client's orderly path is not modelled).
func (cs *consumer) locks() bool {
	return cs.g.orderly && cs.g.model == Clustering && cs.prof.Name != profile.Go212 && !cs.grpc // a gRPC client's FIFO is the broker's (fifo.go)
}

// tryLock is RebalanceLockManager.tryLockBatch for one queue: granted when the queue has no
// entry, the caller's entry, or an entry not refreshed for more than 60 s (spec §8.5.1).
func (bg *brokerGroup) tryLock(k lockKey, cid string, now int64) (granted bool, holder string) {
	e, ok := bg.locks[k]
	if ok && e.cid != cid && now-e.last <= brokerLockLive {
		return false, e.cid
	}
	if bg.locks == nil {
		bg.locks = map[lockKey]lockEntry{}
	}
	bg.locks[k] = lockEntry{cid: cid, last: now}
	if ok && e.cid != cid {
		return true, e.cid
	}
	return true, ""
}

// unlock is unlockBatch for one queue: the caller's entry goes, another's stays.
func (bg *brokerGroup) unlock(k lockKey, cid string) {
	if e, ok := bg.locks[k]; ok && e.cid == cid {
		delete(bg.locks, k)
	}
}

func keyOf(t *topicState, mq route.MessageQueue) lockKey { return lockKey{t.idx, mq.QueueID} }

// lockQueue is RebalanceImpl.lock(mq): LOCK_BATCH_MQ for the one queue, synchronously, to its
// broker. It reports whether the lock was granted and what the call cost.
func (c *Cluster) lockQueue(cs *consumer, t *topicState, mq route.MessageQueue) (granted bool, cost int64) {
	b := c.brokerBy[mq.BrokerName]
	if b == nil {
		return false, 0
	}
	ok, cost := c.rpc(cs, b, lockRPCTimeout)
	if !ok {
		return false, cost
	}
	granted, holder := b.groupOf(cs).tryLock(keyOf(t, mq), cs.cid, c.now)
	name := b.short(t, mq.QueueID)
	since, waited := cs.lockWait[mq]
	switch {
	case !granted && !waited:
		if cs.lockWait == nil {
			cs.lockWait = map[route.MessageQueue]int64{}
		}
		cs.lockWait[mq] = c.now
		c.emit(Event{Kind: EventInfo, Cause: CauseLockRefused, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name,
			Queues: []string{name}, Owners: []string{holder},
			Text: fmt.Sprintf("%s cannot lock %s: %s holds its lock on %s; it tries again every round, the round unbalanced", c.who(cs), name, holder, b.name)})
	case granted && waited:
		delete(cs.lockWait, mq)
		c.emit(Event{Kind: EventInfo, Cause: CauseLock, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name,
			Queues: []string{name}, N: (c.now - since) / 1000,
			Text: fmt.Sprintf("%s locks %s on %s after %s of refusals: the queue, paused between owners, goes on", c.who(cs), name, b.name, spanText(c.now-since))})
	}
	return granted, cost
}

// renewLocks is lockMQPeriodically (every 20 s): per broker, one LOCK_BATCH_MQ with the
// member's queues there; granted ones are locked and stamped, refused ones unlocked, and an
// unreachable broker changes nothing, so their stamps age (spec §8.5.2).
func (c *Cluster) renewLocks(cs *consumer) {
	for _, b := range c.brokers {
		var mine []*processQueue
		for _, pq := range cs.pqList {
			if pq.b == b {
				mine = append(mine, pq)
			}
		}
		if len(mine) == 0 {
			continue
		}
		if ok, _ := c.rpc(cs, b, lockRPCTimeout); !ok {
			continue
		}
		bg := b.groupOf(cs)
		for _, pq := range mine {
			granted, _ := bg.tryLock(keyOf(pq.t, pq.mq), cs.cid, c.now)
			pq.locked = granted
			if granted {
				pq.lastLock = c.now
			}
		}
	}
}

// lockValid is the consume check: locked, and locked less than 30 s ago.
func (c *Cluster) lockValid(pq *processQueue) bool {
	return pq.locked && c.now-pq.lastLock <= clientLockLive
}

// relock is tryLockLaterAndReconsume for a queue whose lock failed the consume check: 100 ms
// later the queue is locked again; granted, it is consumed 10 ms after, refused, 3 s after.
// The queue is not consumed in the step that calls it either way.
func (c *Cluster) relock(cs *consumer, pq *processQueue) {
	if pq.relockAt == 0 {
		pq.relockAt = c.now + relockDelay
	}
	if c.now < pq.relockAt {
		return
	}
	if granted, _ := c.lockQueue(cs, pq.t, pq.mq); granted {
		pq.locked, pq.lastLock, pq.relockAt = true, c.now, 0
		pq.suspendedUntil = max(pq.suspendedUntil, c.now+relockGranted)
		return
	}
	pq.locked = false
	pq.relockAt = c.now + relockRefused + relockDelay
}

// giveUpLocked is tryRemoveOrderMessageQueue for a queue leaving a locking member (spec
// §8.5.2): consumption has stopped and its offset is uploaded; once the listener is free (no
// call running on it: the member is not hung and no slow call holds it) or 20 s after its
// last lock, the offset goes up again and the queue is unlocked one-way. Otherwise it waits in
// unlockLater for the member's next round.
func (c *Cluster) giveUpLocked(cs *consumer, pq *processQueue) {
	c.dropQueue(cs, pq, true)
	if !cs.hung && len(pq.slow) == 0 || c.now > pq.lastLock+forceUnlockAfter {
		c.unlockQueue(cs, pq)
		return
	}
	cs.unlockLater = append(cs.unlockLater, pq)
}

// unlockQueue sends UNLOCK_BATCH_MQ one-way for pq: the broker removes the member's entry.
func (c *Cluster) unlockQueue(cs *consumer, pq *processQueue) {
	if cs.partitioned || pq.b.down {
		return
	}
	pq.b.groupOf(cs).unlock(keyOf(pq.t, pq.mq), cs.cid)
}

// retryUnlocks is a round's retry of the queues given up whose listener was busy: those no
// longer allocated are unlocked once free or 20 s after their last lock; one allocated to the
// member again stays, neither pulled nor consumed, until 120 s after its last pull, and then
// is unlocked and taken anew (spec §8.5.2, inferred there). It reports the queues of t that
// must not be added this round.
func (c *Cluster) retryUnlocks(cs *consumer, t *topicState, want map[route.MessageQueue]bool) (stuck map[route.MessageQueue]bool) {
	kept := cs.unlockLater[:0]
	for _, pq := range cs.unlockLater {
		switch {
		case pq.t != t:
			kept = append(kept, pq)
		case want[pq.mq] && c.now-pq.lastPull <= c.t.PullMaxIdleTime:
			if stuck == nil {
				stuck = map[route.MessageQueue]bool{}
			}
			stuck[pq.mq] = true
			kept = append(kept, pq)
		case !cs.hung && len(pq.slow) == 0 || c.now > pq.lastLock+forceUnlockAfter || want[pq.mq]:
			c.unlockQueue(cs, pq)
		default:
			kept = append(kept, pq)
		}
	}
	clear(cs.unlockLater[len(kept):])
	cs.unlockLater = kept
	return stuck
}

// unlockAll is the graceful shutdown's unlock of every queue, synchronously (spec §3.11).
func (c *Cluster) unlockAll(cs *consumer) {
	for _, pq := range slices.Concat(cs.pqList, cs.unlockLater) {
		c.unlockQueue(cs, pq)
	}
	cs.unlockLater = nil
}
