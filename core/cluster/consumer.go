package cluster

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/jmap"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/sim"
)

// Timers a consumer process owns; each has a generation so a stale scheduled event is ignored.
const (
	genRebalance = iota
	genHeartbeat
	genRoute
	genPersist
	genClean
	genLock
	genCount
)

// consumer is one consumer process (a client instance with one push consumer). A restart
// starts a new process with the same client id; the old one stays in the list, dead.
type consumer struct {
	// lockWait: when each queue's lock was first refused (lock.go); unlockLater: queues given
	// up whose unlock waits for a busy listener.
	lockWait    map[route.MessageQueue]int64
	unlockLater []*processQueue
	idx         int
	id          string // the name commands use: the first process's client id
	cid         string // this process's client id, the one brokers list (spec §1.2)
	fixedName   bool   // a fixed instanceName: a restart keeps the client id
	// brokerSide: clientRebalance false, its queues the brokers' to compute (assignment.go);
	// warnedAssign: it was told once that the brokers do not run its strategy.
	brokerSide, warnedAssign bool
	rate                     int            // messages per second it can consume
	dead                     bool           // killed or stopped: the process is gone
	attrs                    map[string]any // the scenario's attributes, for strategies' views (never written)
	pubConsumed              int64          // consumed, and the time, when it last published (metrics.go)
	pubAt                    int64
	first                    bool // the first process of its id (consumerIDs' order)
	killed                   bool
	partitioned              bool   // alive but cut off: no packet in or out, no connection closes
	hung                     bool   // alive and heart-beating, listener stuck
	closedTo                 uint64 // brokers (bit = index) it closed its connection to after a timed-out call
	rnd                      *jrand.Random
	gen                      [genCount]int
	simple                   simpleClient     // a gRPC SimpleConsumer's (simple.go); off for the others
	prof                     *profile.Profile // the client SDK it runs (spec §9); never nil, never written
	g                        *groupState      // the group it is a member of
	// lead is the member whose client instance this one runs in: itself, unless another
	// member of its process (one client id, spec §1.2) started first. The lead's timers drive
	// the instance: one rebalance thread for all its groups, one heartbeat, one route poll
	// (spec §3.14). peers is the lead's list of the instance's members, in the order of its
	// consumerTable (a ConcurrentHashMap of group names).
	lead      *consumer
	peers     []*consumer
	own       *groupState // its own strategy, when a rolling deploy gave it one (nil: its group's)
	failPPM   int64       // its listener answers RECONSUME_LATER to this many deliveries in a million
	consumeMs int64       // its listener's time per message (0: rate decides)
	failAcc   int64       // failPPM's carry between deliveries: the failures are exact
	// localRetries are its messages whose send-back failed, consumed again later (spec §3.15).
	localRetries []localRetry
	fallbackNext int // the internal producer's next broker of the retry topic's route
	// subs are its subscriptions, in the order the scenario gives them; order is the order its
	// rebalance visits them (RebalanceImpl.subscriptionInner's, spec §3.14).
	subs     []*subscription
	order    []int
	subNames []string          // the topics' names, made by a snapshot (nil: not yet); read-only once made
	subTags  map[string]string // the topics' tag expressions, made by a snapshot (nil: not yet); read-only once made
	subsGen  int               // counts changes of subs

	// A fixed-ticker client (Go, spec §9.1.5): its ticker, and the rounds it owes.
	nextTick int64 // the ticker's next tick
	tickDue  bool  // a tick fired and waits for its round
	pending  int   // notifications whose rounds have not run yet (they do not coalesce)

	// RebalanceService (spec §3.1)
	next     int64    // when the next round starts
	roundEnd int64    // end of the previous round (creation time before the first)
	brokers  []string // brokers of the cached routes, sorted: those its heartbeats go to

	pqs    map[route.MessageQueue]*processQueue
	pqList []*processQueue // the values of pqs sorted by queue: iteration never depends on map order
	// queueNames are pqList's short names, made by a snapshot once per change of pqList (nil:
	// not made since). Read-only once made: snapshots and clones share it.
	queueNames []string

	from      string // ConsumeFromWhere (spec §3.6)
	timestamp int64  // TIMESTAMP's time
	fixedTS   bool   // timestamp was configured, not RocketMQ's default

	slowEvery   int64   // one message in about this many is slow (0: none)
	slowMs      int64   // how long a slow message's listener call takes
	untilSlow   int64   // messages before the next slow one
	slowRunning []int64 // end times of the slow calls running, in start order
	slowRnd     *jrand.Random

	// view is the client list its last decided round of its first subscription used and what
	// it computed from it (replaced whole, never written: a clone shares it); lastAsk is that
	// topic's latest query.
	view    *rebalanceView
	lastAsk askRecord
	// stale is the snapshot's last comparison of view's list with the brokers' (a value: a
	// clone has its own).
	stale equalMemo

	// pops are its PopProcessQueues, in queue order (pop.go); popTurn rotates which of them
	// its listener serves first.
	pops    []popQueue
	popTurn int
	// grpc: a gRPC PushConsumer registered on proxy px (grpc.go), not on the brokers.
	grpc bool
	px   int
	// settingsAt is when a gRPC client of local-mode proxies sends its settings again
	// (proxy_local.go).
	settingsAt int64
	// viaProxy: a classic client connected through proxy viaProxy−1's remoting port
	// (assignment.go); 0: to the brokers.
	viaProxy int
	// held are the acks and nacks its proxy could not take while it was down (proxy.go),
	// retried every second.
	held []heldAck
	// unknownNacked counts the messages a restarted proxy popped for it and made invisible
	// for 1 s before its heartbeat registered it (toldUnknown: the first such pop was told).
	unknownNacked int64
	toldUnknown   bool

	consumed     int64
	budgetRemain int64                        // fractional consumption carried between steps, in thousandths
	frontier     map[route.MessageQueue]int64 // broadcasting: this consumer's delivered prefix
	local        map[route.MessageQueue]int64 // broadcasting: offsets kept in a local file
}

// subscription is one topic a consumer subscribes, with the route it has cached for it.
type subscription struct {
	t       *topicState
	tags    []string             // its expression's tags; none: "*"
	version int64                // its subVersion: when subscribed, raised when its allocation changes (spec §5.7)
	mqSet   []route.MessageQueue // subscribe set from the last route refresh, sorted
	routeOK bool                 // a route has been fetched
	brokers []string             // brokers of the cached route, sorted
}

// processQueue is the consumer's state for one queue it pulls (spec §3.8).
type processQueue struct {
	mq           route.MessageQueue
	t            *topicState
	b            *broker
	bq           *brokerQueue
	off          *queueOffset // the group's offset of the queue on the broker
	ch           *channel     // the broker's channel for this process, cached for the pull loop
	nextPull     int64        // next offset to fetch
	consumedUpTo int64        // every message below it was handed to the listener
	slow         []slowCall   // slow listener calls still running on this queue, oldest first
	pullResumeAt int64        // the pull loop acts on this queue from then on
	lastPull     int64        // lastPullTimestamp (spec §3.8)
	heldUntil    int64        // >0: an empty pull is held by the broker until then
	outstanding  bool         // a pull is on its way or held (matters once the consumer is cut off)
	// erased: a Go client dropped another queue, which erased this one's in-memory offset;
	// until it consumes again nothing of it is uploaded, by pulls or the timer (spec §9.1.7).
	erased bool
	// holds are offsets of messages waiting for a local retry: still in its map, they hold
	// its offset back (spec §3.15 step 4, §3.16).
	holds []int64
	// Orderly consumption: the queue waits until suspendedUntil after a failed message, whose
	// reconsume count is headReconsumed; orderlyBudget is its thread's fractional share carried
	// between steps, in thousandths.
	suspendedUntil int64
	headReconsumed int64
	orderlyBudget  int64
	// The queue's lock (a locking member's, lock.go): locked and when it was last granted;
	// relockAt is when a failed consume check locks it again (0: none pending).
	locked             bool
	lastLock, relockAt int64
	// seen is what the queue's pulls and consumption derived from its group's subscription
	// table on its broker and its member's subscriptions: good while neither changed.
	seen queueSeen
}

// queueSeen caches a process queue's view of the subscriptions that decide its pulls and
// filters: whether the broker lets its pulls through, and which tags reach its listener.
type queueSeen struct {
	tableGen, subsGen int // the generations it was made at, +1 (0: never made)
	ok                bool
	mask              uint32
	active            bool
}

// cached is the messages pulled and not yet handed to the listener.
func (pq *processQueue) cached() int64 { return pq.nextPull - pq.consumedUpTo }

// msgCount is the ProcessQueue's message count: cached, plus the calls still running.
func (pq *processQueue) msgCount() int64 { return pq.cached() + int64(len(pq.slow)) }

// offset is the in-memory offset the ProcessQueue rule gives (spec §3.8, §3.16): the smallest
// offset still in its map, i.e. a slow message still running holds it back while later ones
// finish around it; with nothing left, one past the last message cached.
func (pq *processQueue) offset() int64 {
	off := pq.consumedUpTo
	if len(pq.slow) > 0 {
		off = min(pq.slow[0].offset, off)
	}
	for _, h := range pq.holds {
		off = min(off, h)
	}
	return off
}

// slowCall is one slow message's listener call.
type slowCall struct {
	offset int64
	doneAt int64
}

// queues lists the queues of the process-queue table, sorted.
func (cs *consumer) queues() []route.MessageQueue {
	out := make([]route.MessageQueue, len(cs.pqList), len(cs.pqList)+len(cs.pops))
	for i, pq := range cs.pqList {
		out[i] = pq.mq
	}
	for _, p := range cs.pops {
		out = append(out, p.mq)
	}
	return out
}

func (cs *consumer) clearQueues() {
	cs.pqs, cs.pqList, cs.queueNames, cs.pops = map[route.MessageQueue]*processQueue{}, nil, nil, nil
}

func (cs *consumer) running() bool { return !cs.dead }

// silent is a process the brokers cannot hear from: cut off or gone without a close.
func (cs *consumer) silent() bool { return cs.partitioned || cs.dead }

func (c *Cluster) status(cs *consumer) string {
	switch {
	case cs.killed:
		return StatusKilled
	case cs.dead:
		return StatusStopped
	case cs.partitioned:
		return StatusPartitioned
	case cs.hung:
		return StatusHung
	case len(cs.pqList) == 0 && len(cs.pops) == 0:
		return StatusIdle
	}
	return StatusAlive
}

// memberKey names a member: a consumer process's client id (the name commands use) and its
// group.
type memberKey struct {
	id string
	g  int
}

// startConsumer starts a consumer process's member of group g at the current time (spec §3.1,
// §3.10, §5.4): it fetches the routes, heartbeats every broker (each registers it and notifies
// the group), then wakes its own rebalance, whose first round cannot come before 1 s after
// creation (the current Java client; 4.9 and Go run it at once). p is the client it runs;
// nil: the one the member's previous process ran, or the default. subs is what it subscribes;
// nil: what its previous process subscribed, or what the group's first member did.
//
// px is the proxy of a gRPC PushConsumer (nil: a classic client; a restart is what it was).
func (c *Cluster) startConsumer(id string, rate int, p *profile.Profile, g *groupState, subs []subscription, px *proxyState) *consumer {
	key := memberKey{id, g.idx}
	if rate <= 0 {
		rate = c.t.ConsumeRate
	}
	if p == nil {
		if prev := c.current[key]; prev != nil {
			p = prev.prof
		} else {
			p, _ = profile.Lookup("")
		}
	}
	cs := &consumer{idx: len(c.consumers), id: id, rate: rate, prof: p, from: g.from, timestamp: c.now - 30*60*1000,
		rnd: sim.Stream(c.cfg.Seed, fmt.Sprintf("consumer/%s/%d", id, len(c.consumers))),
		pqs: map[route.MessageQueue]*processQueue{}, roundEnd: c.now,
		frontier: map[route.MessageQueue]int64{}, local: map[route.MessageQueue]int64{}}
	if cs.from == "" {
		cs.from = FromLastOffset
	}
	cs.cid = id
	cs.g = g
	cs.viaProxy, c.nextViaProxy = c.nextViaProxy, 0
	cs.first = c.current[key] == nil
	lead := c.instanceOf(id, g)
	if lead != nil {
		cs.cid = lead.cid // another group's member of the same running process: its instance
	}
	if prev := c.current[key]; prev != nil {
		if subs == nil {
			subs = prev.subscriptions() // the same program starts again
		}
		cs.failPPM, cs.consumeMs, cs.own, cs.brokerSide = prev.failPPM, prev.consumeMs, prev.own, prev.brokerSide
		if cs.viaProxy == 0 {
			cs.viaProxy = prev.viaProxy // the same program starts again
		}
		if px == nil && prev.grpc {
			px = c.proxies[prev.px] // the same program starts again
		}
		if px != nil && prev.simple.on {
			cs.simple = newSimpleClient(prev.simple.awaitMs, prev.simple.invisibleMs, int(prev.simple.maxMessages))
		}
		// A new process: with the default instance name, a new client id (spec §1.2).
		cs.fixedName = prev.fixedName
		if lead == nil {
			cs.cid = c.restartedID(prev, p)
		}
		if cs.cid == prev.cid {
			cs.local = prev.local // broadcasting offsets live in a file under the client id (spec §3.12)
		}
		cs.from = prev.from // the same program starts again
		cs.setSlow(c.cfg.Seed, prev.slowEvery, prev.slowMs)
		if prev.fixedTS {
			cs.timestamp, cs.fixedTS = prev.timestamp, true
		}
	}
	if subs == nil {
		subs = c.defaultSubscriptions(g)
	}
	cs.subscribe(subs, c.now)
	c.consumers = append(c.consumers, cs)
	c.current[key] = cs
	if px != nil {
		c.startGrpc(cs, px)
		return cs
	}
	if cs.locks() {
		c.schedule(cs, genLock, evLockRenew, c.now+lockRenewFirst) // lockMQPeriodically (spec §8.5.2)
	}
	if lead != nil {
		// It joins the running instance: its start fetches its topics' routes, sends the
		// instance's heartbeat (now carrying its group too) and wakes the instance's
		// rebalance, which takes it in its next round (spec §3.14).
		cs.lead = lead
		c.joinInstance(lead, cs)
		c.refreshConsumerRoute(cs)
		c.heartbeatAll(lead, 0)
		c.wakeUp(lead)
		return cs
	}
	cs.lead, cs.peers = cs, []*consumer{cs}
	c.refreshConsumerRoute(cs)
	if hb := c.heartbeatAll(cs, 0); c.rebalanceSpacing(cs) == 0 && !c.starting {
		// The start round follows the synchronous heartbeat round (spec §5.4 step 2, §9.1.5):
		// without a spacing to wait for, it must not ask a broker its heartbeat has not
		// reached yet. (The current Java client's 1 s spacing already waits longer, and the
		// initial consumers are registered at 00:00.)
		cs.roundEnd = c.now + hb
	}
	cs.next = c.now + c.t.RebalanceWaitInterval
	cs.nextTick = cs.next // a fixed ticker's grid starts with the client (spec §9.1.5)
	c.schedule(cs, genRebalance, evRebalance, cs.next)
	c.wakeUp(cs)
	c.schedule(cs, genHeartbeat, evHeartbeat, c.now+1000)
	c.schedule(cs, genRoute, evRoute, c.now+c.t.PollNameServerInterval)
	c.schedule(cs, genPersist, evPersist, c.now+10000)
	if cs.slowMs > c.t.ConsumeTimeout {
		c.schedule(cs, genClean, evCleanExpired, c.now+c.t.ConsumeTimeout)
	}
	return cs
}

// instanceOf is the running client instance a new member of group g in process id joins: the
// lead of another group's running member of that process (nil: it starts its own).
func (c *Cluster) instanceOf(id string, g *groupState) *consumer {
	for _, x := range c.groups {
		if m := c.current[memberKey{id, x.idx}]; x != g && m != nil && !m.dead && m.lead != nil {
			return m.lead
		}
	}
	return nil
}

// joinInstance adds cs to lead's instance, the members kept in its consumerTable's order.
func (c *Cluster) joinInstance(lead, cs *consumer) {
	names := make([]string, 0, len(lead.peers)+1)
	for _, p := range lead.peers {
		names = append(names, p.g.name)
	}
	names = append(names, cs.g.name)
	all := append(slices.Clone(lead.peers), cs)
	lead.peers = lead.peers[:0:0]
	for _, name := range jmap.Of(0, names...) {
		lead.peers = append(lead.peers, all[slices.IndexFunc(all, func(p *consumer) bool { return p.g.name == name })])
	}
}

// subscribe sets what the consumer subscribes: subs in that order, visited by its rebalance in
// the order of Java's ConcurrentHashMap of topic names (RebalanceImpl.subscriptionInner, spec
// §3.14).
func (cs *consumer) subscribe(subs []subscription, now int64) {
	cs.subs, cs.subNames, cs.subTags = make([]*subscription, len(subs)), nil, nil
	cs.subsGen++
	names := make([]string, len(subs))
	for i := range subs {
		sub := subs[i]
		sub.mqSet, sub.brokers, sub.routeOK, sub.version = nil, nil, false, now
		cs.subs[i] = &sub
		names[i] = sub.t.name
		if !slices.Contains(cs.g.topics, sub.t) && sub.t.popFor == 0 { // a POP retry topic is counted as its topic's (flow.go)
			cs.g.topics = append(cs.g.topics, sub.t)
		}
	}
	cs.order = cs.order[:0]
	for _, name := range jmap.Of(0, names...) {
		cs.order = append(cs.order, slices.IndexFunc(cs.subs, func(s *subscription) bool { return s.t.name == name }))
	}
}

// plainSubs is how many topics it subscribes, leaving out the POP retry topics a member the
// brokers allocate for subscribes by itself (spec §8.2.3 step 2): a member of one topic still
// tells its rebalances as one topic's.
func (cs *consumer) plainSubs() int {
	n := 0
	for _, s := range cs.subs {
		if s.t.popFor == 0 {
			n++
		}
	}
	return n
}

// subscriptions is what it subscribes, in the scenario's order, without the routes cached.
func (cs *consumer) subscriptions() []subscription {
	out := make([]subscription, len(cs.subs))
	for i, sub := range cs.subs {
		out[i] = subscription{t: sub.t, tags: sub.tags}
	}
	return out
}

// defaultSubscriptions is what a new member of g subscribes when nothing says: what the
// group's first member subscribed, else the first topic and the group's retry topic.
func (c *Cluster) defaultSubscriptions(g *groupState) []subscription {
	for _, cs := range c.consumers {
		if cs.g == g {
			subs := cs.subscriptions()
			if cs.grpc && g.retry != nil {
				// A gRPC member subscribes no retry topic; a classic one does (spec §3.14).
				subs = append(subs, subscription{t: g.retry})
			}
			return subs
		}
	}
	out := []subscription{{t: c.topics[0]}}
	if g.retry != nil {
		out = append(out, subscription{t: g.retry})
	}
	return out
}

// setListener sets how its listener answers: the share of deliveries it fails, in parts per
// million, and its time per message.
func (cs *consumer) setListener(m MembershipConfig, threads int) {
	cs.failPPM = int64(math.Round(m.FailRate * 1e6))
	cs.consumeMs = m.ConsumeMs
	if cs.consumeMs > 0 {
		// Each of its threads is busy consumeMs per message.
		cs.rate = int(max(min(int64(cs.rate), int64(threads)*1000/cs.consumeMs), 1))
	}
}

// restartedID is the client id of a process started where prev ran (spec §1.2): the same with
// a fixed instance name or a name that is not a pid (ip@worker-1, ip@DEFAULT); otherwise
// ip@pid#nanoTime with a new pid and the host's nanoTime now; a Go client keeps its IP@PID
// (spec §9.1.2). A plain id (c1) becomes c1#2,
// c1#3, … by process.
func (c *Cluster) restartedID(prev *consumer, prof *profile.Profile) string {
	if prev.fixedName || prof.RestartKeepsID() {
		return prev.cid // a Go client's IP@PID: the same pid in a container (spec §9.1.2)
	}
	n := 1
	for _, x := range c.consumers {
		if x.id == prev.id {
			n++
		}
	}
	ip, inst, ok := strings.Cut(prev.id, "@")
	if !ok {
		return prev.id + "#" + strconv.Itoa(n)
	}
	pid, nano, _ := strings.Cut(inst, "#")
	if pid == "" || strings.Trim(pid, "0123456789") != "" || strings.Trim(nano, "0123456789") != "" || strings.Contains(nano, "@") {
		return prev.cid // a fixed instanceName: the same id (spec §1.2 consequence 2)
	}
	// A new pid a little above the old one, and nanoTime as the host's time since boot.
	p, _ := strconv.Atoi(pid)
	boot := int64(c.net.NextIntn(1 << 30))
	newPid := p + n*7 + int(c.net.NextIntn(50))
	return fmt.Sprintf("%s@%d#%d", ip, newPid, (boot+c.now)*1000000+int64(c.net.NextIntn(1000000)))
}

func (c *Cluster) schedule(cs *consumer, timer, kind int, at int64) {
	cs.gen[timer]++
	c.events.Push(sim.Event{At: at, Kind: kind, A: cs.idx, B: cs.gen[timer]})
}

// wakeUp is rebalanceImmediately (spec §3.1): the next round starts at the wake-up, but never
// earlier than minInterval after the previous round ended; wake-ups coalesce. A Go client's
// do not: each is one more full round, back to back, with no spacing (spec §9.1.5).
func (c *Cluster) wakeUp(cs *consumer) {
	cs = cs.lead // the instance's one rebalance service (spec §3.14)
	if cs.dead || cs.grpc {
		return
	}
	if !cs.prof.Timing.CoalesceWakeups {
		cs.pending++
	}
	at := max(c.now, cs.roundEnd+c.rebalanceSpacing(cs))
	if at < cs.next {
		cs.next = at
		c.schedule(cs, genRebalance, evRebalance, at)
	}
}

// rpc reports whether a request from cs reaches broker b, and what it costs: a round trip,
// the timeout when the client is cut off, nothing more when the broker refuses the connection.
func (c *Cluster) rpc(cs *consumer, b *broker, timeout int64) (ok bool, cost int64) {
	switch {
	case cs.partitioned:
		if b != nil && timeout > 100 {
			// A synchronous call timed out: the client closes the connection
			// (clientCloseSocketIfTimeout, spec §2.8, §3.13); the broker never hears of it.
			cs.closedTo |= 1 << uint(b.idx)
		}
		return false, timeout
	case b == nil || b.down:
		return false, c.t.NetworkRTT
	}
	return true, c.t.NetworkRTT
}

// reconnect is a healed consumer's first traffic to each broker whose connection it closed,
// or whose channel the broker no longer has: a new connection, whose activation heartbeats
// that broker at once and then wakes the rebalance (5.2.0+, spec §3.13). A broker that still
// holds the old channel registers the new one (CHANGE) and drops the old one at its next write
// to it, the notification it sends right then, which the client's host answers with a reset
// (CHANGE again, spec §5.6).
func (c *Cluster) reconnect(cs *consumer) {
	if cs.grpc {
		return // its next heartbeat registers it on its proxy again
	}
	woke := false
	for _, name := range cs.brokers {
		b := c.brokerBy[name]
		if b == nil || b.down {
			continue
		}
		bg := b.groupOf(cs)
		ch := bg.chans[cs.idx]
		if cs.closedTo&(1<<uint(b.idx)) == 0 && ch != nil && ch.registered {
			continue // its connection is still open at both ends
		}
		woke = true
		if ch == nil || !ch.registered {
			bg.dropChannel(cs.idx)
			if cs.prof.Timing.HeartbeatOnConnect {
				c.heartbeat(b, cs)
			}
			// Without the hook (Java ≤ 5.1.x, 4.9, Go) the broker learns of the new
			// connection at the next periodic heartbeat, ≤ 30 s on; until then every round
			// that asks it, the client's own included, leaves the client out (spec §3.13
			// item 4, §9.1.5).
			continue
		}
		bg.dropChannel(cs.idx)
		nch := c.channelFor(b, cs)
		nch.traffic(c.now)
		nch.lastHeartbeat, nch.registered = c.now, true
		bg.listed = nil
		c.emitMember(cs, EventChange, CauseReconnect, b.name, "%s registers %s on its new connection (heartbeat on connect); %s", b.name, c.who(cs), notifies(cs.g))
		c.change(bg, cs.g)
		if cs.g.model == Broadcasting {
			continue // nothing is written to the old connection: it stays until it expires
		}
		c.emitMember(cs, EventChange, CauseConnectionReset, b.name, "%s drops %s's old connection: the notification it wrote there got a reset; it notifies the group", b.name, c.who(cs))
		c.change(bg, cs.g)
	}
	cs.closedTo = 0
	if woke && cs.prof.Timing.HeartbeatOnConnect { // the hook's rebalanceImmediately; none in 4.9 or Go (spec §3.13, §9.1.5)
		c.wakeUp(cs)
	}
}

// refreshConsumerRoute is the 30 s route poll: the subscribe set and the brokers of the topic
// as the name server has them now (spec §1.3).
func (c *Cluster) refreshConsumerRoute(cs *consumer) {
	if cs.dead || cs.partitioned {
		return
	}
	cs.brokers = cs.brokers[:0]
	for _, sub := range cs.subs {
		l := c.routeLists(sub.t)
		sub.mqSet, sub.brokers, sub.routeOK = l.subscribe, l.brokers, true
		for _, name := range l.brokers {
			if !slices.Contains(cs.brokers, name) {
				cs.brokers = append(cs.brokers, name)
			}
		}
	}
	if len(cs.subs) > 1 {
		slices.SortFunc(cs.brokers, route.CompareJava)
	}
}

// heartbeatAll sends one heartbeat to every broker of the cached route, one after the other,
// each waiting for its answer (spec §3.10): broker k hears it after the round trips to the ones
// before it plus its own seeded one-way delay (0…networkRtt ms), so brokers register a
// newcomer at different moments and the join race of spec §5.4 happens. after is how far into
// the caller's own round the heartbeats start. The consumers of the initial state are
// registered at 00:00: the run starts with them in place.
func (c *Cluster) heartbeatAll(cs *consumer, after int64) int64 {
	cs = cs.lead // one heartbeat for the instance, carrying every group of it (spec §3.14)
	if cs.dead || cs.grpc || cs.viaProxy != 0 {
		return 0 // a gRPC client heartbeats its proxy (grpc.go), as one behind a proxy's remoting port does
	}
	var cost int64
	for _, name := range c.instanceBrokers(cs) {
		b := c.brokerBy[name]
		ok, d := c.rpc(cs, b, c.t.RPCTimeout)
		if ok {
			at := c.now + after + cost + int64(c.net.NextIntn(int32(c.t.NetworkRTT+1)))
			if at == c.now || c.starting {
				c.heartbeatInstance(b, cs)
			} else {
				c.events.Push(sim.Event{At: at, Kind: evHeartbeatArrive, A: cs.idx, B: b.idx})
			}
		}
		cost += d
	}
	return cost
}

// heartbeatInstance is an instance's heartbeat reaching broker b: each of its groups' part.
func (c *Cluster) heartbeatInstance(b *broker, lead *consumer) {
	for _, m := range lead.peers {
		if !m.dead {
			c.heartbeat(b, m)
		}
	}
}

// instanceBrokers is the brokers an instance heartbeats: its members' routes' (the lead's own
// list when it is alone).
func (c *Cluster) instanceBrokers(lead *consumer) []string {
	if len(lead.peers) <= 1 {
		return lead.brokers
	}
	var out []string
	for _, m := range lead.peers {
		for _, name := range m.brokers {
			if !slices.Contains(out, name) {
				out = append(out, name)
			}
		}
	}
	slices.SortFunc(out, route.CompareJava)
	return out
}

// persistAll is the 5 s offset timer: every queue in the table uploads its in-memory offset
// (spec §3.9 way 1).
func (c *Cluster) persistAll(cs *consumer) {
	if cs.dead {
		return
	}
	for _, pq := range cs.pqList {
		c.uploadOffset(cs, pq)
	}
}

// persistInstance is the instance's offset timer: every member's queues (spec §3.14).
func (c *Cluster) persistInstance(lead *consumer) {
	for _, m := range lead.peers {
		c.persistAll(m)
	}
}

// uploadOffset is one-way UPDATE_CONSUMER_OFFSET: the broker keeps the last value written,
// whoever wrote it (spec §3.9).
func (c *Cluster) uploadOffset(cs *consumer, pq *processQueue) {
	if pq.erased {
		return // no in-memory offset to upload (spec §9.1.7)
	}
	if cs.g.model == Broadcasting {
		cs.local[pq.mq] = pq.offset()
		return
	}
	b := pq.b
	if ok, _ := c.rpc(cs, b, 0); ok {
		pq.off.committed = pq.offset()
		pq.off.writer = cs.idx
		c.channelFor(b, cs).lastRead = c.now
	}
}

// rebalance is one round of RebalanceService for this process (spec §3.1–§3.4): of each of
// its instance's groups in turn, in its consumerTable's order, and of each group's topics
// (spec §3.14). Its effects happen at its start; its end is pushed back by the synchronous
// RPCs it made. cs is the instance's lead.
func (c *Cluster) rebalance(cs *consumer) {
	if cs.dead {
		return
	}
	c.metrics.Rounds++
	start := c.now
	if cs.prof.Timing.FixedTicker {
		// The round serves the tick that fired or one notification (spec §9.1.5).
		c.advanceTicks(cs, c.now)
		if cs.tickDue {
			cs.tickDue = false
		} else if cs.pending > 0 {
			cs.pending--
		}
	}
	var cost int64
	balanced := true
	befores := make([][]route.MessageQueue, len(cs.peers))
	for i, m := range cs.peers {
		befores[i] = m.queues()
	}
	for _, m := range cs.peers {
		if m.dead {
			continue
		}
		ok, crashed := c.rebalanceGroup(m, start, &cost)
		if crashed {
			return
		}
		balanced = balanced && ok // one unbalanced group makes the instance retry (spec §3.14)
	}
	cs.roundEnd = start + cost
	if cs.prof.Timing.FixedTicker {
		// Rounds owed run back to back; otherwise the next tick of the grid (spec §9.1.5).
		c.advanceTicks(cs, cs.roundEnd)
		if cs.tickDue || cs.pending > 0 {
			cs.next = cs.roundEnd
		} else {
			cs.next = cs.nextTick
		}
	} else {
		wait := c.t.RebalanceWaitInterval
		if !balanced && cs.prof.Timing.UnbalancedRetry > 0 {
			wait = c.t.RebalanceMinInterval
		}
		cs.next = cs.roundEnd + wait
	}
	c.schedule(cs, genRebalance, evRebalance, cs.next)
	moved := false
	for i, m := range cs.peers {
		moved = c.tellRebalance(m, befores[i]) || moved
	}
	if moved {
		c.metrics.Rebalances++
		c.noteOwnership()
	}
}

// rebalanceGroup is one member's part of its instance's round: each subscribed topic in turn,
// in subscriptionInner's order (spec §3.14), its own consumer list from a broker of its own
// route, its own allocation, its own changes; then the topics it left are dropped. It reports
// whether the group's part stays balanced, and whether the process crashed.
func (c *Cluster) rebalanceGroup(cs *consumer, start int64, cost *int64) (balanced, crashed bool) {
	balanced = true
	var popRetry map[*topicState]bool // pop-retry subscriptions to add (true) or remove
	for _, k := range cs.order {
		sub := cs.subs[k]
		target, decided, ok, crashed := c.allocateTopic(cs, sub, start, cost, k == 0)
		if crashed {
			return false, true
		}
		// A retry topic's failure leaves the round balanced (spec §3.2), unless the brokers
		// allocate: then every topic's null answer unbalances it (§8.2.1).
		balanced = balanced && (ok || sub.t.isRetry() && !cs.brokerAllocates())
		if decided && cs.brokerAllocates() && !sub.t.isRetry() && len(target) > 0 {
			// Pop-retry subscription toggling (spec §8.2.3 step 2): a PULL answer subscribes
			// %RETRY%<group>_<topic>, a POP answer unsubscribes it.
			if popRetry == nil {
				popRetry = map[*topicState]bool{}
			}
			popRetry[sub.t] = !c.pops(cs, sub.t)
		}
		if decided {
			var changed, ok bool
			var d int64
			if c.pops(cs, sub.t) {
				// POP queues (spec §8.2.3): its pulled queues of the topic go, its pop queues follow
				// the answer.
				changed, _, d = c.updateProcessQueues(cs, sub.t, nil)
				changed = c.updatePopQueues(cs, sub.t, target, *cost+d) || changed
				ok = true
			} else {
				changed, ok, d = c.updateProcessQueues(cs, sub.t, target)
				if len(cs.pops) > 0 {
					changed = c.updatePopQueues(cs, sub.t, nil, 0) || changed
				}
			}
			*cost += d
			balanced = balanced && ok
			if changed {
				sub.version = c.now                     // messageQueueChanged raises the subVersion (spec §5.7) …
				*cost += c.heartbeatAll(cs.lead, *cost) // … and sends a heartbeat round (spec §3.7)
			}
		}
	}
	// truncateMessageQueueNotMyTopic: the queues of a topic no longer subscribed are dropped,
	// their offsets not uploaded (spec §3.2).
	for _, pq := range slices.Clone(cs.pqList) {
		if !slices.ContainsFunc(cs.subs, func(s *subscription) bool { return s.t == pq.t }) {
			c.dropQueue(cs, pq, false)
		}
	}
	for i := 0; i < len(cs.pops); i++ {
		if t := c.topics[cs.pops[i].t]; !slices.ContainsFunc(cs.subs, func(s *subscription) bool { return s.t == t }) {
			c.updatePopQueues(cs, t, nil, 0) // dropped, no ack (spec §8.2.3)
			i = -1
		}
	}
	c.togglePopRetry(cs, popRetry)
	return balanced, false
}

// togglePopRetry adds or removes the member's subscriptions of its group's POP retry topics
// %RETRY%<group>_<topic>, as the round's answers said (spec §8.2.3 step 2), from its next round
// on. In PULL mode such a topic has no route until a revive creates it: the member's rounds
// then stay unbalanced, one a second, for as long as it runs (§8.6.1 step 2). Its next heartbeat
// carries the new table, which the brokers take as a change of the group's subscription: one
// more notification wave (inferred, §8.2.3).
func (c *Cluster) togglePopRetry(cs *consumer, want map[*topicState]bool) {
	if len(want) == 0 {
		return
	}
	subs := cs.subscriptions()
	changed := false
	for _, t := range c.topics[:len(c.topics):len(c.topics)] {
		add, ok := want[t]
		if !ok {
			continue
		}
		rt := c.popRetryTopic(cs.g, t)
		i := slices.IndexFunc(subs, func(s subscription) bool { return s.t == rt })
		switch {
		case add && i < 0:
			subs = append(subs, subscription{t: rt})
			changed = true
		case !add && i >= 0:
			subs = slices.Delete(subs, i, i+1)
			changed = true
		}
	}
	if !changed {
		return
	}
	// The subscriptions kept keep their routes and versions.
	old := cs.subs
	cs.subscribe(subs, c.now)
	for _, sub := range cs.subs {
		for _, o := range old {
			if o.t == sub.t {
				*sub = *o
			}
		}
	}
}

// tellRebalance tells how member cs's queues changed in a round, before being what it held
// when the round began; it reports whether they did.
func (c *Cluster) tellRebalance(cs *consumer, before []route.MessageQueue) bool {
	after := cs.queues()
	if slices.Equal(before, after) {
		return false
	}
	if cs.grpc {
		// No rebalance: the proxy's answer to its assignment query (spec §8.4.3).
		px := c.proxies[cs.px].name
		for _, k := range cs.order {
			t := cs.subs[k].t
			text := fmt.Sprintf("%s takes its assignments from %s: %s", c.who(cs), px, c.describeSet(ofTopic(after, t)))
			if c.proxies[cs.px].down {
				text = fmt.Sprintf("%s's assignment query to %s fails: a Go client takes that for an empty answer and drops its process queues (spec §8.4.4 step 2)", c.who(cs), px)
			}
			c.emit(Event{Kind: EventRebalance, Cause: CauseRebalance, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid,
				Topic: t.name, Queues: c.queueNames(ofTopic(after, t)), Arg: px, Text: text})
		}
		return true
	}
	if cs.plainSubs() == 1 {
		c.emit(Event{Kind: EventRebalance, Cause: CauseRebalance, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid,
			Topic: cs.subs[0].t.name, Queues: c.queueNames(after),
			Text: fmt.Sprintf("%s rebalances: %s", c.who(cs), c.describeSet(after))})
		return true
	}
	// One line a topic whose queues changed, in the round's order, as the client logs
	// "rebalanced result changed" once a topic.
	for _, k := range cs.order {
		t := cs.subs[k].t
		was, now := ofTopic(before, t), ofTopic(after, t)
		if slices.Equal(was, now) {
			continue
		}
		set := "no queues"
		if len(now) > 0 {
			set = route.Compact(now)
		}
		c.emit(Event{Kind: EventRebalance, Cause: CauseRebalance, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid,
			Topic: t.name, Queues: c.queueNames(now),
			Text: fmt.Sprintf("%s rebalances %s: %s", c.who(cs), t.name, set)})
	}
	return true
}

// ofTopic is the queues of topic t in qs.
func ofTopic(qs []route.MessageQueue, t *topicState) []route.MessageQueue {
	var out []route.MessageQueue
	for _, q := range qs {
		if q.Topic == t.name {
			out = append(out, q)
		}
	}
	return out
}

// allocateTopic is rebalanceByTopic for one subscription (spec §3.3): the queues the consumer
// should pull of the topic, whether it decided at all this round, whether the round stays
// balanced, and whether the process crashed. main says the topic is the consumer's first,
// whose round its view keeps.
func (c *Cluster) allocateTopic(cs *consumer, sub *subscription, start int64, cost *int64, main bool) (target []route.MessageQueue, decided, balanced, crashed bool) {
	balanced = true
	switch {
	case sub.t.unsimulated:
		// It rebalances a topic the run does not simulate: it never holds a queue of it, though
		// the others count it (spec §5.7, *inferred* there).
		return nil, true, true, false
	case cs.g.model == Broadcasting:
		if sub.routeOK {
			return sub.mqSet, true, true, false
		}
		return nil, false, true, false
	case cs.brokerAllocates():
		// The brokers decide (spec §8.2.1): no answer leaves the topic unbalanced, its retry
		// topic's too, and nothing changes.
		target, ok := c.queryAssignment(cs, sub, cost)
		if main {
			cs.lastAsk = askRecord{at: start, answer: AnswerOK}
		}
		return target, ok, ok, false
	}
	// Ask one broker of the topic's route, drawn at random each round, for the group (spec
	// §3.3, §3.14).
	var cidAll []string
	answer := profile.AnswerTransport
	asked := ""
	if len(sub.brokers) > 0 {
		asked = sub.brokers[cs.rnd.NextIntn(int32(len(sub.brokers)))]
		b := c.brokerBy[asked]
		ok, d := c.rpc(cs, b, c.t.RPCTimeout)
		*cost += d
		if ok {
			// The broker's registered ids, as this client sorts them (the same list,
			// cached until the broker's channels change: sorting is the client's own step).
			if lv := c.registeredView(b.groupOf(cs)); len(lv.ids) > 0 {
				cidAll = lv.sortedBy(cs.prof)
			}
			c.channelFor(b, cs).traffic(c.now)
			answer = profile.AnswerOK
			if cidAll == nil {
				// The broker knows no consumer of the group: SYSTEM_ERROR without a body,
				// which Java takes as null and Go as an empty list (spec §3.3, §9.1.4).
				answer = profile.AnswerError
			}
		}
	}
	var mqSet []route.MessageQueue // nil: no route yet
	if sub.routeOK {
		mqSet = sub.mqSet
		if mqSet == nil {
			mqSet = []route.MessageQueue{}
		}
	}
	// Each client sorts its inputs its own way (Java: MessageQueue and String order,
	// spec §3.3 step 5; Go: byte order, §9.1.4) and runs its own strategy.
	g := cs.g
	if cs.own != nil {
		g = cs.own // a member redeployed with its own strategy (setStrategy with its id)
	}
	s, err := c.strategyFor(g, cs.prof)
	var r profile.Round
	list := cs.prof.ConsumerList(answer, cidAll)
	if main {
		cs.lastAsk = askRecord{broker: asked, at: start, answer: answerWord(answer, asked)}
	}
	if err != nil {
		r = profile.Round{Err: err, Unbalanced: cs.prof.Timing.UnbalancedRetry > 0}
	} else {
		// The subscribe set is in MessageQueue order as the route builds it (brokers in
		// Java name order, ids ascending), the ids as the client sorts them (sortedBy).
		if vs, ok := s.(allocate.Viewer); ok {
			s = allocate.WithView(vs, c.viewFor(cs, list))
		}
		r = cs.prof.RebalanceSorted(s, cs.g.name, cs.cid, mqSet, list)
		if gs, ok := s.(goclient.Strategy); ok && cs.prof.IsGo() && r.Decided && goclient.NotInCidAll(gs, cs.cid, mqSet, list) {
			// The broker asked does not list this process yet (its heartbeat has not
			// reached it) or any more: Go's strategy returns nil, so it takes nothing
			// and drops the topic's queues (spec §9.1.3, §9.1.4; Java gets [] too).
			c.emit(Event{Kind: EventInfo, Cause: CauseNotInCidAll, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: asked, N: int64(len(list)),
				Text: fmt.Sprintf("%s logs %q: %s lists %d consumers of the group but not it, so it takes no queue", c.who(cs), goclient.NotInCidAllLog, asked, len(list))})
		}
	}
	if r.Decided && main {
		cs.view = newRebalanceView(cs.prof, sub.t, asked, start, list, r.Target)
	}
	switch {
	case r.Crash:
		c.crash(cs, r.Err)
		return nil, false, true, true
	case r.Err != nil:
		name := cs.g.strategy.Name()
		if s != nil {
			name = s.Name()
		}
		if r.Unbalanced {
			balanced = false // the table is left as it is; retry in 1 s (spec §3.3 step 6)
			c.emit(Event{Kind: EventInfo, Cause: CauseStrategyThrew, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Arg: name,
				Text: fmt.Sprintf("%s: %s threw %v; it keeps its queues and retries", c.who(cs), name, r.Err)})
		} else {
			// 4.9: the topic's round ends; nothing is retried before the next (spec §9.2).
			c.emit(Event{Kind: EventInfo, Cause: CauseStrategyThrew, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Arg: name,
				Text: fmt.Sprintf("%s: %s threw %v; it keeps its queues until its next round", c.who(cs), name, r.Err)})
		}
		return nil, false, balanced, false
	case r.Decided:
		return r.Target, true, true, false
	}
	return nil, false, true, false
}

// updateProcessQueues is updateProcessQueueTableInRebalance (spec §3.4) for a concurrent push
// consumer: drop what is no longer allocated (uploading its offset), drop and re-create
// pull-expired queues, add the new ones from the broker's stored offset.
func (c *Cluster) updateProcessQueues(cs *consumer, t *topicState, target []route.MessageQueue) (changed, balanced bool, cost int64) {
	want := make(map[route.MessageQueue]bool, len(target))
	for _, mq := range target {
		want[mq] = true
	}
	for _, pq := range slices.Clone(cs.pqList) {
		if pq.t != t {
			continue // another topic's: its own turn of the round decides (spec §3.4)
		}
		if !want[pq.mq] || c.now-pq.lastPull > c.t.PullMaxIdleTime {
			if cs.locks() {
				c.giveUpLocked(cs, pq)
			} else {
				c.dropQueue(cs, pq, true)
			}
			changed = true
		}
	}
	balanced = true
	var stuck map[route.MessageQueue]bool
	if len(cs.unlockLater) > 0 {
		stuck = c.retryUnlocks(cs, t, want)
	}
	sorted := slices.Clone(target)
	route.SortQueues(sorted)
	for i, mq := range sorted {
		if i > 0 && sorted[i-1] == mq {
			continue
		}
		if cs.pqs[mq] != nil {
			continue
		}
		if stuck[mq] {
			balanced = false // given up, not yet unlocked, allocated again: not working (spec §8.5.2)
			continue
		}
		if cs.locks() {
			// needLock: the queue is locked before it is taken; refused, it waits and the
			// round is unbalanced (spec §8.5.2).
			granted, d := c.lockQueue(cs, t, mq)
			cost += d
			if !granted {
				balanced = false
				continue
			}
		}
		start, fresh, ok, d := c.computePullFromWhere(cs, t, mq)
		cost += d
		if !ok {
			balanced = false // not added this round; retried in 1 s
			continue
		}
		pq := &processQueue{mq: mq, t: t, nextPull: start, consumedUpTo: start, lastPull: c.now,
			pullResumeAt: c.now + cost + c.firstPullDelay(cs)}
		if cs.locks() {
			pq.locked, pq.lastLock = true, c.now
		}
		pq.b = c.brokerBy[mq.BrokerName]
		pq.bq = pq.b.queueOf(t, mq.QueueID)
		pq.off = pq.b.offsetsOf(cs.g, t)[mq.QueueID]
		if fresh {
			c.skipTo(cs, pq, start)
		}
		cs.pqs[mq] = pq
		cs.pqList = append(cs.pqList, pq)
		changed = true
	}
	slices.SortFunc(cs.pqList, func(a, b *processQueue) int { return route.Compare(a.mq, b.mq) })
	cs.queueNames = nil
	return changed, balanced, cost
}

// computePullFromWhere is the starting offset of a newly assigned queue (spec §3.6). The
// stored offset first: clustering asks the broker (QUERY_CONSUMER_OFFSET, which answers 0 for a
// group without an offset while message 0 of the queue is in memory, spec §5.5); broadcasting
// reads its local file, −1 for a queue it never consumed (spec §3.12). Without one,
// ConsumeFromWhere decides. fresh reports that the start came from ConsumeFromWhere or the
// broker's 0, not from an offset a consumer of the group wrote.
func (c *Cluster) computePullFromWhere(cs *consumer, t *topicState, mq route.MessageQueue) (start int64, fresh, ok bool, cost int64) {
	b := c.brokerBy[mq.BrokerName]
	stored := int64(-1)
	if cs.g.model == Broadcasting {
		if off, found := cs.local[mq]; found {
			stored = off
		}
	} else {
		var up bool
		up, cost = c.rpc(cs, b, 5000)
		bq := b.queueOf(t, mq.QueueID)
		if !up || bq == nil {
			return 0, false, false, cost // −2: the queue is not added this round
		}
		c.channelFor(b, cs).traffic(c.now)
		off := b.offsetsOf(cs.g, t)[mq.QueueID]
		switch {
		case off.committed >= 0:
			stored = off.committed
		case b.zeroInMemory(bq):
			return 0, true, true, cost // the broker answers 0 for every ConsumeFromWhere
		}
	}
	if stored >= 0 {
		return stored, false, true, cost
	}
	if b == nil || b.down || b.queueOf(t, mq.QueueID) == nil {
		return 0, false, false, cost + c.t.NetworkRTT
	}
	bq := b.queueOf(t, mq.QueueID)
	switch {
	case cs.from == FromFirstOffset || cs.from == FromLastOffset && t.isRetry():
		// A retry topic starts at 0 under LAST_OFFSET too, asking nothing (spec §3.6). Below
		// the min offset the broker answers OFFSET_MOVED and the queue restarts at the min
		// offset; that correction is folded in here.
		return bq.minOffset, true, true, cost
	case cs.from == FromTimestamp && t.isRetry():
		return bq.maxOffset, true, true, cost // a retry topic under TIMESTAMP: the max offset, asking nothing
	}
	cost += c.t.NetworkRTT // GET_MAX_OFFSET or SEARCH_OFFSET_BY_TIMESTAMP
	if cs.from == FromTimestamp {
		return c.searchOffset(b, t, mq.QueueID, cs.timestamp), true, true, cost
	}
	return bq.maxOffset, true, true, cost
}

// skipTo accounts for a queue that starts at start without a stored offset: what lies between
// the group's (or, broadcasting, this consumer's) progress and start is skipped by
// ConsumeFromWhere, not lost.
func (c *Cluster) skipTo(cs *consumer, pq *processQueue, start int64) {
	if cs.g.model == Broadcasting {
		f, seen := cs.frontier[pq.mq]
		if !seen {
			f = pq.bq.minOffset
		}
		if start > f {
			c.metrics.Skipped += start - f
			f = start
		}
		cs.frontier[pq.mq] = f
		return
	}
	if start > pq.off.frontier {
		c.metrics.Skipped += start - pq.off.frontier
		pq.off.frontier = start
	}
}

// dropQueue removes a process queue. A concurrent consumer uploads its offset at once (spec
// §3.5); listener calls already running finish but record nothing, so their messages come
// again with the next owner (spec §3.9 case 1).
func (c *Cluster) dropQueue(cs *consumer, pq *processQueue, upload bool) {
	c.finishRunning(cs, pq)
	if upload {
		c.uploadOffset(cs, pq)
		if cs.prof.Timing.DropErasesOtherOffsets {
			// Go's persist([mq]) deletes every other queue's in-memory offset (spec §9.1.7).
			for _, x := range cs.pqList {
				if x != pq {
					x.erased = true
				}
			}
		}
	}
	delete(cs.pqs, pq.mq)
	cs.pqList = slices.DeleteFunc(cs.pqList, func(x *processQueue) bool { return x == pq })
	cs.queueNames = nil
}

// finishRunning delivers the messages whose listener calls are running at this instant: the
// consumer's threads spread over its queues that have something cached. Their progress is not
// recorded (the queue is dropped or the process is stopping).
func (c *Cluster) finishRunning(cs *consumer, pq *processQueue) {
	if cs.hung || cs.dead || pq.cached() == 0 {
		return
	}
	busy := 0
	for _, x := range cs.pqList {
		if x.cached() > 0 {
			busy++
		}
	}
	perQueue := int64((c.t.ConsumeThreads + busy - 1) / max(busy, 1))
	n := min(pq.cached(), perQueue)
	c.deliver(cs, pq, pq.consumedUpTo, pq.consumedUpTo+n)
}

// deliver accounts for messages [from, to) of mq handed to cs's listener: the first delivery
// of a message counts as consumed, any further one as a duplicate.
func (c *Cluster) deliver(cs *consumer, pq *processQueue, from, to int64) {
	c.deliverMatching(cs, pq, from, to, nil)
}

// deliverFiltered is deliver for messages [from, to) of which only those with a tag of mask
// reach the listener: the others are counted as filtered the first time the group passes
// them (spec §5.7).
func (c *Cluster) deliverFiltered(cs *consumer, pq *processQueue, from, to int64, mask uint32) {
	c.deliverMatching(cs, pq, from, to, func(a, b int64) int64 {
		if pq.t.tags == nil || b <= a {
			return 0 // no message has a tag: none matches
		}
		return pq.t.tags.matching(mask, a, b)
	})
}

// deliverMatching is deliver where matching(a, b) counts the messages of [a, b) that reach
// the listener (nil: all of them); the group's progress passes the others as filtered.
func (c *Cluster) deliverMatching(cs *consumer, pq *processQueue, from, to int64, matching func(a, b int64) int64) {
	if to <= from {
		return
	}
	if matching == nil {
		matching = func(a, b int64) int64 { return max(b-a, 0) }
	}
	frontier := &pq.off.frontier
	if cs.g.model == Broadcasting {
		f, seen := cs.frontier[pq.mq]
		if !seen {
			f = pq.bq.minOffset
		}
		frontier = &f
		defer func() { cs.frontier[pq.mq] = f }()
	}
	if from > *frontier {
		// A successor started past a message nobody consumed: the one hand-over case of
		// spec §3.9 that loses messages.
		c.metrics.Lost += from - *frontier
		*frontier = from
	}
	if end := min(to, *frontier); end > from {
		c.metrics.Duplicates += matching(from, end)
	}
	if to > *frontier {
		m := matching(*frontier, to)
		switch {
		case pq.t.popFor > 0:
			// A POP retry topic pulled in PULL mode (spec §8.2.3 step 2): each run of it is
			// counted as what its messages were before they were revived.
			c.countRevived(pq.bq, *frontier, to)
		case pq.t.isRetry():
			c.metrics.Reconsumed += m
		default:
			c.metrics.Consumed += m
		}
		c.metrics.Filtered += to - *frontier - m
		*frontier = to
	}
}

// flowConsumer moves one step of messages for a consumer: its pulls, then its consumption.
func (c *Cluster) flowConsumer(cs *consumer, step int64) {
	if cs.dead {
		return
	}
	for _, pq := range cs.pqList {
		c.pull(cs, pq)
	}
	if len(cs.pops) > 0 {
		c.flowPops(cs)
	}
	if cs.hung {
		return
	}
	if len(cs.localRetries) > 0 {
		c.runLocalRetries(cs)
	}
	if cs.g.orderly && !cs.grpc { // a gRPC FIFO consumer's order is its pops' (fifo.go)
		c.consumeOrderly(cs, step)
		return
	}
	c.consume(cs, step)
}

// pull is the pull loop of one process queue within a step (spec §0 pull rows, §3.8, §3.9).
func (c *Cluster) pull(cs *consumer, pq *processQueue) {
	b, bq := pq.b, pq.bq
	if cs.partitioned {
		// A held pull still gets its answer, written into the void; nothing new reaches the broker.
		if pq.outstanding && !b.down && (bq.maxOffset > pq.nextPull || c.now >= pq.heldUntil) {
			pq.outstanding = false
			if ch := b.groupOf(cs).chans[cs.idx]; ch != nil {
				ch.lastWrite = c.now
			}
		}
		if c.now >= pq.pullResumeAt {
			pq.lastPull = c.now
			pq.pullResumeAt = c.now + c.t.PullTimeout + c.pullDelayOnError(cs)
		}
		return
	}
	if c.now < pq.pullResumeAt {
		return
	}
	if !pq.locked && cs.locks() {
		pq.pullResumeAt = c.now + unlockedPullWait // an orderly queue is pulled only locked (spec §8.5.2)
		return
	}
	pq.lastPull = c.now
	if b.down {
		pq.outstanding, pq.heldUntil = false, 0
		pq.pullResumeAt = c.now + c.pullDelayOnError(cs)
		return
	}
	if pq.msgCount() > int64(c.t.PullThresholdForQueue) {
		pq.pullResumeAt = c.now + 50 // flow control: check again in 50 ms
		return
	}
	if pq.ch == nil || pq.ch.gone {
		pq.ch = c.channelFor(b, cs)
	}
	ch := pq.ch
	if bt := b.topicOf(pq.t); bt == nil || b.permOf(bt)&route.PermRead == 0 || !c.seen(cs, pq).ok {
		// NO_PERMISSION (a broker or topic that may not be read), or the group's table on this
		// broker holds another member's topic (SUBSCRIPTION_NOT_EXIST): the client pulls again
		// from the same offset a second later (spec §5.7).
		ch.traffic(c.now)
		pq.outstanding, pq.heldUntil = false, 0
		pq.pullResumeAt = c.now + c.pullDelayOnError(cs)
		return
	}
	if avail := bq.maxOffset - pq.nextPull; avail > 0 {
		// Pulls leave back to back while messages flow; each carries the in-memory offset
		// (spec §3.9 way 2), which the master stores.
		n := min(avail, int64(c.t.PullThresholdForQueue+c.t.PullBatchSize)-pq.msgCount())
		c.commitByPull(cs, pq.off, pq)
		pq.nextPull += n
		pq.outstanding, pq.heldUntil = true, 0
		ch.traffic(c.now)
		return
	}
	if pq.heldUntil == 0 || c.now >= pq.heldUntil {
		// A new empty pull is held by the broker: answered when a message comes, otherwise
		// by the hold checker once the 15 s are over (spec §0 long polling).
		if pq.heldUntil != 0 {
			ch.lastWrite = c.now // the empty answer
		}
		c.commitByPull(cs, pq.off, pq)
		ch.lastRead = c.now
		pq.outstanding = true
		pq.heldUntil = c.holdAnswerTime(c.now, c.longPollHold(cs))
	}
}

func (c *Cluster) commitByPull(cs *consumer, o *queueOffset, pq *processQueue) {
	if off := pq.offset(); cs.g.model == Clustering && off > 0 && !pq.erased {
		o.committed, o.writer = off, cs.idx
	}
}

// holdAnswerTime is when the broker's hold checker (every holdCheckInterval) first finds a
// pull that arrived at t older than the hold time (15 s for Java, 20 s for Go): 15–20 s after it
// arrived for Java.
func (c *Cluster) holdAnswerTime(t, hold int64) int64 {
	due := t + hold
	step := c.t.HoldCheckInterval
	return (due + step - 1) / step * step
}

// consume spends one step of the consumer's capacity on its cached messages, sharing it evenly
// over the queues that have some, in queue order. A slow message keeps one of the listener
// threads for its whole call, so the capacity left is rate × free threads / threads, and its
// queue's offset stays at it until the call ends (spec §3.16).
func (c *Cluster) consume(cs *consumer, step int64) {
	if len(cs.slowRunning) > 0 {
		c.finishSlow(cs)
	}
	free := int64(c.t.ConsumeThreads - len(cs.slowRunning))
	if free <= 0 {
		cs.budgetRemain = 0
		return
	}
	budget := int64(cs.rate)*step*free/int64(c.t.ConsumeThreads) + cs.budgetRemain
	n := budget / 1000
	cs.budgetRemain = budget % 1000
	if len(cs.pops) > 0 {
		n = c.consumePops(cs, n) // its pops' messages, then its pulled queues' (the %RETRY% topic's)
	}
	for n > 0 {
		busy := int64(0)
		for _, pq := range cs.pqList {
			if pq.cached() > 0 {
				busy++
			}
		}
		if busy == 0 {
			cs.budgetRemain = 0 // idle capacity is not saved up
			return
		}
		share := max(n/busy, 1)
		for _, pq := range cs.pqList {
			k := min(pq.cached(), share, n)
			if k <= 0 {
				continue
			}
			if cs.slowEvery > 0 && cs.untilSlow < k {
				// The messages before the slow one, then the slow one on a thread of its own.
				k = cs.untilSlow + 1
				c.deliver(cs, pq, pq.consumedUpTo, pq.consumedUpTo+k)
				c.listen(cs, pq, pq.consumedUpTo, k)
				done := c.now + cs.slowMs
				pq.slow = append(pq.slow, slowCall{offset: pq.consumedUpTo + k - 1, doneAt: done})
				cs.slowRunning = append(cs.slowRunning, done)
				cs.untilSlow = cs.nextSlowGap()
			} else if mask, active := c.filter(cs, pq); active {
				// Filtered messages never reach the listener: they cost it nothing, and the
				// queue's progress passes them (spec §5.7, §3.16).
				span, matched := int64(0), int64(0)
				if p := pq.t.tags; p != nil {
					span, matched = p.span(mask, pq.consumedUpTo, pq.cached(), k)
				} else {
					span = pq.cached()
				}
				c.deliverFiltered(cs, pq, pq.consumedUpTo, pq.consumedUpTo+span, mask)
				if matched > 0 {
					c.listen(cs, pq, pq.consumedUpTo+span-matched, matched)
				}
				pq.consumedUpTo += span
				pq.erased = false
				cs.consumed += matched
				n -= matched
				if matched == 0 {
					continue
				}
				if n == 0 {
					break
				}
				continue
			} else {
				c.deliver(cs, pq, pq.consumedUpTo, pq.consumedUpTo+k)
				c.listen(cs, pq, pq.consumedUpTo, k)
				if cs.slowEvery > 0 {
					cs.untilSlow -= k
				}
			}
			pq.consumedUpTo += k
			pq.erased = false // consumption writes its offset again
			cs.consumed += k
			n -= k
			if n == 0 {
				break
			}
			if len(cs.slowRunning) >= c.t.ConsumeThreads {
				return // every thread is in a slow call
			}
		}
	}
}

// finishSlow ends the slow calls due by now: their threads are free and their queues' offsets
// move on.
func (c *Cluster) finishSlow(cs *consumer) {
	cs.slowRunning = slices.DeleteFunc(cs.slowRunning, func(at int64) bool { return at <= c.now })
	for _, pq := range cs.pqList {
		i := 0
		for i < len(pq.slow) && pq.slow[i].doneAt <= c.now {
			i++
		}
		if i > 0 {
			pq.slow = pq.slow[:copy(pq.slow, pq.slow[i:])]
		}
	}
}

// setSlow gives the consumer its slow messages: one in about every, each taking ms.
func (cs *consumer) setSlow(seed, every, ms int64) {
	cs.slowEvery, cs.slowMs = every, ms
	if every > 0 {
		cs.slowRnd = sim.Stream(seed, fmt.Sprintf("consume/%s/%d", cs.id, cs.idx))
		cs.untilSlow = cs.nextSlowGap()
	}
}

// nextSlowGap draws how many messages come before the next slow one: uniform over
// 0…2·slowEvery−2, one in slowEvery on average.
func (cs *consumer) nextSlowGap() int64 {
	if cs.slowEvery <= 1 {
		return 0
	}
	return int64(cs.slowRnd.NextIntn(int32(min(2*cs.slowEvery-1, 1<<30))))
}

// queueNames is qs's names in outputs (queueName).
func (c *Cluster) queueNames(qs []route.MessageQueue) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = c.queueName(q)
	}
	return out
}

// describeSet words a set of queues for the log: "broker-a:0-2 %RETRY%g/broker-a:0".
func (c *Cluster) describeSet(qs []route.MessageQueue) string {
	if len(qs) == 0 {
		return "no queues"
	}
	return route.CompactNamed(qs, c.topics[0].name)
}
