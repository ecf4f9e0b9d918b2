package cluster

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/sim"
)

// broker is one master broker: its part of each topic (its queues), of each group (the
// group's entry in its ConsumerManager, spec §5.1, and the group's committed offsets).
type broker struct {
	idx       int
	name      string
	latencyMs int
	down      bool
	topics    []*brokerTopic // by topic index: the topic's queues here (nil: none)
	groups    []*brokerGroup // by group index: the group's consumer table and offsets here
	rnd       *jrand.Random
	sends     int64
	failures  int64
	pending   []pendingSend // sends on their way, in send order
	win       sendWindow    // the last seconds' send outcomes, per virtual second (a value: clones copy it)
	// lastResponse is the response time of the latest send to it: its latency and the round
	// trip (0: none yet).
	lastResponse int64

	firstScan int64  // the expiry scan runs then and every ScanInterval after
	startedAt int64  // when it last started: its delay levels' tasks run from 1 s after
	perm      string // its brokerPermission ("": RW)
	removed   bool   // unregistered from the name server: in no route, still running

	delayed []delayed // its delay ladder: sent-back messages waiting, by the time they are due

	// POP (pop.go): its checkpoints by id, the pops it holds in expiry order, and their
	// counters.
	cks            []popCK
	parked         []parkedPop
	ckSeq, parkSeq int64

	logCount int64 // messages written to its commit log, history included
	memory   int64 // the newest this many are in memory; 0: all
	flushGen int   // generation of its offset-flush timer (a restart starts a new one)

	// an async producer's sends of the current step, per queue id
	stepCount   []int64
	stepTouched bool
	stepTries   int   // the most re-sends among them
	stepT0      int64 // the earliest send start among them (never: none)
}

// brokerTopic is a topic's part of a broker: its queue counts (its TopicConfig, spec §1.3)
// and its queues.
type brokerTopic struct {
	t      *topicState
	perm   string         // its permission here (PermRW, PermR, PermW, PermNone)
	queues int            // the topic's queues on this broker: the larger of its read and write counts
	readQ  int            // readQueueNums: the subscribe set holds ids 0…readQ−1 (spec §1.3)
	writeQ int            // writeQueueNums: the publish list holds ids 0…writeQ−1
	qs     []*brokerQueue // by queue id; never shrinks, so messages of removed queues stay counted
	// shorts are its queues' names ("broker-a:0", another topic's "Topic/broker-a:0") by id,
	// made once each: a name never changes. Append-only; a clone's copy is capped at its
	// length.
	shorts []string
}

// brokerGroup is a group's part of a broker: its entry in the ConsumerManager (spec §5.1) and
// its offsets.
type brokerGroup struct {
	chans map[int]*channel
	// listed is the snapshot's copy of the group's registered ids here and their sorts, kept
	// until the channels change (see registeredView); nil: not made yet. Read-only once made.
	listed *listedIDs
	// order is chans' keys sorted (channelOrder), kept until a channel opens or goes; nil: not
	// made yet. Read-only once made.
	order []int
	// table is the group's subscription table here, by topic, as the heartbeats left it:
	// each heartbeat is authoritative for the whole topic set (spec §5.7).
	table map[string]*subEntry
	// tableGen counts the table's changes: what a process queue derived from it is good for
	// as long as it stays (see processQueue.seen).
	tableGen int
	// offsets is the group's progress on each queue here: by topic index, then queue id.
	offsets [][]*queueOffset
	// locks is the group's queue locks here (RebalanceLockManager, spec §8.5.1): in memory,
	// gone with the broker.
	locks map[lockKey]lockEntry
	// fifo is the group's order info of its FIFO pops (fifo.go), by queue.
	fifo map[fifoKey]*fifoQueue
}

// topicOf is the broker's part of topic t (nil: the topic has no queue config here).
func (b *broker) topicOf(t *topicState) *brokerTopic {
	if t.idx < len(b.topics) {
		return b.topics[t.idx]
	}
	return nil
}

// queueOf is queue id of topic t here (nil: no such queue).
func (b *broker) queueOf(t *topicState, id int32) *brokerQueue {
	if bt := b.topicOf(t); bt != nil && id >= 0 && int(id) < len(bt.qs) {
		return bt.qs[id]
	}
	return nil
}

// hasQueue reports whether topic t has queue id here and may be written: a broker refuses a
// send to any other queue, and to a topic it may not write (NO_PERMISSION).
func (b *broker) hasQueue(t *topicState, id int32) bool {
	bt := b.topicOf(t)
	return bt != nil && id >= 0 && int(id) < bt.queues && b.permOf(bt)&route.PermWrite != 0
}

// permOf is topic bt's permission here: the topic's, as the broker's own allows (PermName bits).
func (b *broker) permOf(bt *brokerTopic) int32 {
	p := permBits(bt.perm)
	if b.perm != "" {
		p &= permBits(b.perm)
	}
	return p
}

// offsetsOf is group g's offsets of topic t's queues here, by queue id.
func (b *broker) offsetsOf(g *groupState, t *topicState) []*queueOffset {
	if bg := b.groups[g.idx]; t.idx < len(bg.offsets) {
		return bg.offsets[t.idx]
	}
	return nil
}

// brokerQueue is one queue's log.
type brokerQueue struct {
	maxOffset int64
	minOffset int64 // messages below it are deleted
	firstPos  int64 // commit-log position of message 0 (-1: none yet)
	// runs are a retry queue's messages' reconsume counts from runsFrom on (see retryRun).
	runs     []retryRun
	runsFrom int64
	// segs are a POP retry queue's runs of reconsume counts and kinds (pop.go).
	segs []popSeg
}

// queueOffset is the group's progress on one queue.
type queueOffset struct {
	committed int64 // the offset stored for the group; -1: none (spec §3.9, last writer wins)
	writer    int   // the process that wrote committed (-1: none)
	flushed   int64 // committed as of the last offset flush (spec §5.5)
	flushedBy int
	frontier  int64 // clustering: every offset below it was consumed at least once
}

// appendMessages stores n messages at the end of queue q of topic t.
func (b *broker) appendMessages(t *topicState, q int32, n int64) {
	bq := b.topics[t.idx].qs[q]
	if bq.firstPos < 0 && n > 0 {
		bq.firstPos = b.logCount
	}
	bq.maxOffset += n
	b.logCount += n
}

// zeroInMemory is the "answer 0" test of QUERY_CONSUMER_OFFSET (spec §5.5): the queue was
// never truncated, and message 0 exists and is still in memory (an empty queue answers 0 too).
func (b *broker) zeroInMemory(bq *brokerQueue) bool {
	if bq.minOffset > 0 {
		return false
	}
	return bq.firstPos < 0 || b.memory == 0 || b.logCount-bq.firstPos <= b.memory
}

// flushOffsets is the broker's 5 s consumerOffset.json flush (spec §5.5).
func (b *broker) flushOffsets() {
	for _, bg := range b.groups {
		for _, offs := range bg.offsets {
			for _, o := range offs {
				o.flushed, o.flushedBy = o.committed, o.writer
			}
		}
	}
}

// crashOffsets is what a crash leaves: the offsets of the last flush.
func (b *broker) crashOffsets() {
	for _, bg := range b.groups {
		for _, offs := range bg.offsets {
			for _, o := range offs {
				o.committed, o.writer = o.flushed, o.flushedBy
			}
		}
	}
}

// scheduleFlush starts the broker's offset-flush timer: first 10 s after it starts, then every
// flushConsumerOffsetInterval (5 s).
func (c *Cluster) scheduleFlush(b *broker, at int64) {
	b.flushGen++
	c.events.Push(sim.Event{At: at, Kind: evBrokerFlush, A: b.idx, B: b.flushGen})
}

// channel is the broker's side of one consumer process's connection.
type channel struct {
	consumer      int   // index in Cluster.consumers
	registered    bool  // listed in the group's consumer table
	lastHeartbeat int64 // the only liveness the expiry scan looks at (spec §5.1)
	lastRead      int64 // last traffic from the client
	lastWrite     int64 // last completed write to it (responses, held-pull answers, notifications)
	idleScheduled bool
	gone          bool // removed from the broker: a process queue's cached pointer is stale
}

// dropChannel removes a consumer process's channel from the group's table.
func (bg *brokerGroup) dropChannel(inst int) {
	if ch := bg.chans[inst]; ch != nil {
		ch.gone = true
		delete(bg.chans, inst)
		bg.listed = nil
		bg.orderDrop(inst)
	}
}

// dropAll removes every channel of every group: the broker died.
func (b *broker) dropAll() {
	for _, bg := range b.groups {
		for _, inst := range bg.channelOrder() {
			bg.dropChannel(inst)
		}
		bg.table = nil // the group's table goes with its connections (spec §5.7)
		bg.tableGen++
		bg.locks = nil
	}
}

// groupOf is the broker's part of the group cs is a member of.
func (b *broker) groupOf(cs *consumer) *brokerGroup { return b.groups[cs.g.idx] }

// addBroker starts a broker, with no topic's queues yet.
func (c *Cluster) addBroker(name string, latencyMs int, memory int64) *broker {
	b := &broker{idx: len(c.brokers), name: name, latencyMs: latencyMs, memory: memory, startedAt: c.now,
		rnd: sim.Stream(c.cfg.Seed, "broker/"+name), stepT0: never}
	c.brokers = append(c.brokers, b)
	c.brokerBy[name] = b
	for range c.groups {
		b.groups = append(b.groups, &brokerGroup{chans: map[int]*channel{}})
	}
	// Brokers tick independently: each scan runs at its own phase (spec §5.1).
	phase := int64(b.rnd.NextIntn(int32(c.t.ScanInterval)))
	b.firstScan = c.now + c.t.ScanInterval + phase
	c.events.Push(sim.Event{At: b.firstScan, Kind: evScan, A: b.idx})
	c.scheduleFlush(b, c.now+10000)
	return b
}

// addTopic declares a topic; no broker has queues of it yet.
func (c *Cluster) addTopic(name string) *topicState {
	t := &topicState{idx: len(c.topics), name: name}
	c.topics = append(c.topics, t)
	c.topicBy[name] = t
	return t
}

// addGroup declares a group: every broker gets an empty entry for it.
func (c *Cluster) addGroup(g *groupState) *groupState {
	g.idx = len(c.groups)
	c.groups = append(c.groups, g)
	c.groupBy[g.name] = g
	for _, b := range c.brokers {
		bg := &brokerGroup{chans: map[int]*channel{}}
		for _, bt := range b.topics {
			var offs []*queueOffset
			if bt != nil {
				offs = newOffsets(nil, len(bt.qs))
			}
			bg.offsets = append(bg.offsets, offs)
		}
		b.groups = append(b.groups, bg)
	}
	return g
}

func newOffsets(offs []*queueOffset, n int) []*queueOffset {
	for len(offs) < n {
		offs = append(offs, &queueOffset{committed: -1, writer: -1, flushed: -1, flushedBy: -1})
	}
	return offs
}

// setQueueNums gives the broker read and write queue counts for topic t; its queues are the
// larger count. The broker accepts a send to any of them (its check is against the larger
// count, *inferred* from the send path's queue check), so only the publish list decides
// which queues are written.
func (c *Cluster) setQueueNums(b *broker, t *topicState, read, write int) {
	for len(b.topics) <= t.idx {
		b.topics = append(b.topics, nil)
	}
	bt := b.topics[t.idx]
	if bt == nil {
		bt = &brokerTopic{t: t, perm: PermRW}
		b.topics[t.idx] = bt
	}
	n := max(read, write)
	for len(bt.qs) < n {
		bt.qs = append(bt.qs, &brokerQueue{firstPos: -1})
	}
	for _, bg := range b.groups {
		for len(bg.offsets) <= t.idx {
			bg.offsets = append(bg.offsets, nil)
		}
		bg.offsets[t.idx] = newOffsets(bg.offsets[t.idx], len(bt.qs))
	}
	for len(b.stepCount) < len(bt.qs) {
		b.stepCount = append(b.stepCount, 0)
	}
	bt.queues, bt.readQ, bt.writeQ = n, read, write
	t.routeVersion++
}

// routeChanged is a change of broker b that every topic on it sees in its route: the broker
// went down or came back.
func (c *Cluster) routeChanged(b *broker) {
	for _, bt := range b.topics {
		if bt != nil {
			bt.t.routeVersion++
		}
	}
}

// short is topic t's queue id's name here: "broker-a:0" for the first topic, "Topic/broker-a:0"
// for any other, made once per id.
func (b *broker) short(t *topicState, id int32) string {
	if id < 0 {
		return queueName(route.MessageQueue{Topic: t.name, BrokerName: b.name, QueueID: id}, t.idx == 0)
	}
	bt := b.topics[t.idx]
	for len(bt.shorts) <= int(id) {
		bt.shorts = append(bt.shorts, queueName(route.MessageQueue{Topic: t.name, BrokerName: b.name, QueueID: int32(len(bt.shorts))}, t.idx == 0))
	}
	return bt.shorts[id]
}

// queueName is a queue's name in outputs: "broker-a:0" for a queue of the first topic, which
// a single-topic run names alone; "Topic/broker-a:0" for any other (a topic name never holds
// a slash).
func queueName(mq route.MessageQueue, first bool) string {
	if first {
		return mq.Short()
	}
	return mq.Topic + "/" + mq.Short()
}

// access is queue id's kind when read and write counts differ (QueueView.Access).
func (bt *brokerTopic) access(id int) string {
	switch {
	case id >= bt.readQ:
		return AccessWriteOnly
	case id >= bt.writeQ:
		return AccessReadOnly
	}
	return ""
}

// registeredIDs answers GET_CONSUMER_LIST_BY_GROUP: one client id per registered channel,
// duplicates included (spec §5.3); nil when the group has no channel (SYSTEM_ERROR → null).
func (c *Cluster) registeredIDs(bg *brokerGroup) []string {
	var ids []string
	for _, inst := range bg.channelOrder() {
		if ch := bg.chans[inst]; ch.registered {
			ids = append(ids, c.consumers[inst].cid)
		}
	}
	return ids
}

// listedIDs is a broker's registered ids as a snapshot shows them, with the sorts of them that
// the consumers' views compare against (Java's, Go's), each made when first asked for.
type listedIDs struct {
	ids    []string
	sorted [2][]string
}

// registeredView is registeredIDs for snapshots: the same list, made once for as long as the
// broker's channels stay as they are, and shared by every snapshot since, so it must not be
// written to. The playground takes a snapshot every frame; the list changes only at a
// register (heartbeat, reconnect) or a dropped channel, which reset it (a channel opened
// and not yet registered is not listed).
func (c *Cluster) registeredView(bg *brokerGroup) *listedIDs {
	if bg.listed == nil {
		bg.listed = &listedIDs{ids: orEmpty(c.registeredIDs(bg))}
	}
	return bg.listed
}

// channelOrder is the broker's channels in a fixed order (process start order); Java's map
// order is not part of the contract (spec §6.12).
func (bg *brokerGroup) channelOrder() []int {
	if bg.order == nil {
		bg.order = make([]int, 0, len(bg.chans))
		for k := range bg.chans {
			bg.order = append(bg.order, k)
		}
		slices.Sort(bg.order)
	}
	return bg.order
}

// orderAdd and orderDrop keep channelOrder's list as channels open and go: a new list each
// time (the old one may be held by a caller iterating it), made from the old in one pass.
func (bg *brokerGroup) orderAdd(inst int) {
	if bg.order == nil {
		return // made when next asked for
	}
	i, _ := slices.BinarySearch(bg.order, inst)
	next := make([]int, 0, len(bg.order)+1)
	next = append(append(append(next, bg.order[:i]...), inst), bg.order[i:]...)
	bg.order = next
}

func (bg *brokerGroup) orderDrop(inst int) {
	if bg.order == nil {
		return
	}
	i, found := slices.BinarySearch(bg.order, inst)
	if !found {
		bg.order = nil
		return
	}
	next := make([]int, 0, len(bg.order)-1)
	bg.order = append(append(next, bg.order[:i]...), bg.order[i+1:]...)
}

// sortedBy is the registered ids as profile p's client sorts them, made once for as long as
// the list lasts: shared, read-only.
func (lv *listedIDs) sortedBy(p *profile.Profile) []string {
	k := 0
	if p.IsGo() {
		k = 1
	}
	if lv.sorted[k] == nil {
		_, s := p.SortInputs(nil, lv.ids)
		lv.sorted[k] = orEmpty(s)
	}
	return lv.sorted[k]
}

// channelFor returns the broker's channel for a consumer process, opening one if needed.
func (c *Cluster) channelFor(b *broker, cs *consumer) *channel {
	bg := b.groupOf(cs)
	ch := bg.chans[cs.idx]
	if ch == nil {
		ch = &channel{consumer: cs.idx}
		bg.chans[cs.idx] = ch
		bg.orderAdd(cs.idx)
	}
	return ch
}

// traffic notes a request from the client and its answer.
func (ch *channel) traffic(now int64) {
	ch.lastRead = now
	ch.lastWrite = now
}

// subEntry is one topic of a group's subscription table on a broker: the SubscriptionData the
// broker stores, with its subVersion and tags (spec §5.7).
type subEntry struct {
	version int64
	tags    []string // none: "*"
}

// heartbeat is one HEART_BEAT from a consumer process reaching broker b (spec §5.1): a new
// channel registers and fires CHANGE; a known one only refreshes its time. A CLUSTERING
// member's heartbeat creates its group's retry topic on the broker (spec §3.14).
func (c *Cluster) heartbeat(b *broker, cs *consumer) { c.register(b, cs, true) }

// register is a client's registration in broker b's ConsumerManager (registerConsumer, spec
// §5.1): a classic member's heartbeat, or a gRPC client's call through the proxy inside b
// (local mode, §8.4.1), whose heartbeats leave the group's table alone and whose settings
// (sub) replace it like a classic heartbeat does.
func (c *Cluster) register(b *broker, cs *consumer, sub bool) {
	ch := c.channelFor(b, cs)
	ch.traffic(c.now)
	ch.lastHeartbeat = c.now
	bg := b.groupOf(cs)
	if r := cs.g.retry; r != nil && !cs.grpc && b.topicOf(r) == nil {
		c.setQueueNums(b, r, 1, 1) // retryQueueNums 1, RW; registered with the name server
	}
	// The heartbeat's topic set replaces the group's table (spec §5.7): a member subscribing
	// other topics than the last heartbeat heard flips it, and the flip is a CHANGE.
	if flip := sub && bg.subscribe(cs); flip {
		topics := make([]string, len(cs.subs))
		for i, sub := range cs.subs {
			topics[i] = sub.t.name
		}
		list := strings.Join(topics, ", ")
		c.emit(Event{Kind: EventChange, Cause: CauseSubscription, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, Arg: list,
			Text: fmt.Sprintf("%s takes %s's subscription (%s) for the group; %s", b.name, c.who(cs), list, notifies(cs.g))})
		if ch.registered {
			c.change(bg, cs.g)
		}
	}
	if !ch.registered {
		ch.registered = true
		bg.listed = nil
		how := "heartbeat"
		if cs.grpc {
			how = "its gRPC settings, through the proxy inside " + b.name
		}
		c.emitMember(cs, EventChange, CauseRegister, b.name, "%s registers %s (%s); %s", b.name, c.who(cs), how, notifies(cs.g))
		c.change(bg, cs.g)
		// The client sees a new connection become active: it wakes its rebalance (spec §3.1);
		// a Go client does not (spec §9.1.5). A gRPC client has no rebalance.
		if !cs.partitioned && !cs.prof.IsGo() && !cs.grpc {
			c.notifyArrival(cs, c.now+c.t.NetworkRTT)
		}
	}
}

// subscribe applies a member's heartbeat to the group's subscription table (spec §5.7): a topic
// not there is added, one there is replaced, silently, by a newer subVersion, and a topic the
// heartbeat lacks is removed. It reports a flip: the topic set changed in a table that held
// one (the group's first heartbeat only fills it).
func (bg *brokerGroup) subscribe(cs *consumer) bool {
	had := len(bg.table) > 0
	if bg.table == nil {
		bg.table = map[string]*subEntry{}
	}
	changed, replaced := false, false
	for _, sub := range cs.subs {
		e := bg.table[sub.t.name]
		switch {
		case e == nil:
			bg.table[sub.t.name] = &subEntry{version: sub.version, tags: sub.tags}
			changed = true
		case sub.version > e.version:
			bg.table[sub.t.name] = &subEntry{version: sub.version, tags: sub.tags}
			replaced = true
		}
	}
	for name := range bg.table {
		if !slices.ContainsFunc(cs.subs, func(s *subscription) bool { return s.t.name == name }) {
			delete(bg.table, name)
			changed = true
		}
	}
	if changed || replaced {
		bg.tableGen++
	}
	return changed && had
}

// subscribed reports whether the group's table here lets a pull of topic t through: a table
// that lacks it answers SUBSCRIPTION_NOT_EXIST (spec §5.7). An empty table (no heartbeat
// since the broker started) is taken to let it through.
func (bg *brokerGroup) subscribed(t *topicState) bool {
	return len(bg.table) == 0 || bg.table[t.name] != nil
}

// unregister is UNREGISTER_CLIENT from a gracefully stopping consumer: CHANGE fires as long as
// the group exists on the broker (spec §5.1).
func (c *Cluster) unregister(b *broker, cs *consumer) {
	bg := b.groupOf(cs)
	ch := bg.chans[cs.idx]
	bg.dropChannel(cs.idx)
	if ch != nil || bg.exists() {
		c.emitMember(cs, EventChange, CauseUnregister, b.name, "%s unregisters %s (graceful shutdown); %s", b.name, c.who(cs), notifies(cs.g))
		c.change(bg, cs.g)
	}
}

func (bg *brokerGroup) exists() bool {
	for _, ch := range bg.chans {
		if ch.registered {
			return true
		}
	}
	return false
}

// closeChannel is the channel-close path (a killed process's FIN/RST, an idle close): the
// entry is removed and CHANGE fires when it was registered (spec §5.1). cause is
// CauseConnectionClosed or CauseIdleClosed.
func (c *Cluster) closeChannel(b *broker, cs *consumer, cause string) {
	bg := b.groupOf(cs)
	ch := bg.chans[cs.idx]
	if ch == nil {
		return
	}
	bg.dropChannel(cs.idx)
	if ch.registered {
		e := Event{Kind: EventChange, Cause: cause, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name}
		why := "its connection closed"
		if cause == CauseIdleClosed {
			e.N = c.t.IdleTimeout / 1000
			why = fmt.Sprintf("idle for %d s", e.N)
		}
		e.Text = fmt.Sprintf("%s drops %s (%s); %s", b.name, c.who(cs), why, notifies(cs.g))
		c.emit(e)
		c.change(bg, cs.g)
	}
}

// notifies words what a CHANGE does for the group: broadcasting groups are not notified (spec
// §5.1, §5.2).
func notifies(g *groupState) string {
	if g.model == Broadcasting {
		return NotNotified
	}
	return "it notifies the group"
}

// NotNotified ends a register or subscription event's text when the group is broadcasting,
// which brokers do not notify (spec §5.2).
const NotNotified = "a broadcasting group is not notified"

// change is CHANGE of group g on a broker (bg, its part there): NOTIFY_CONSUMER_IDS_CHANGED to
// every channel of the group as it is after the change, one-way; broadcasting groups are not
// notified (spec §5.1, §5.2).
func (c *Cluster) change(bg *brokerGroup, g *groupState) {
	if g.model == Broadcasting {
		return
	}
	// One event carries every notification of this CHANGE, the consumers' indexes 4 bytes
	// each in S, instead of one event per consumer: they all arrive at the same time with
	// consecutive places in the queue, so nothing could run between them and handling them
	// in a row is the same run. At 512 consumers and 64 brokers the start alone would
	// otherwise queue 8 million events at once (about 1.5 GB with the heap's growth).
	var batch []byte
	for _, inst := range bg.channelOrder() {
		ch := bg.chans[inst]
		if !ch.registered {
			continue
		}
		ch.lastWrite = c.now // the write completes into the socket even towards a vanished peer
		cs := c.consumers[inst]
		if cs.running() && !cs.partitioned {
			batch = binary.LittleEndian.AppendUint32(batch, uint32(cs.idx))
		}
	}
	if len(batch) > 0 {
		c.events.Push(sim.Event{At: c.now + c.t.NetworkRTT, Kind: evNotify, S: string(batch)})
	}
}

// notified is one NOTIFY_CONSUMER_IDS_CHANGED reaching consumer i.
func (c *Cluster) notified(i int) {
	if cs := c.consumers[i]; cs.running() && !cs.partitioned {
		c.wakeUp(cs)
	}
}

func (c *Cluster) notifyArrival(cs *consumer, at int64) {
	c.events.Push(sim.Event{At: at, Kind: evNotify, A: cs.idx})
}

// scanExpired is the broker's 10 s housekeeping pass: a consumer whose last heartbeat is more
// than channelExpiredTimeout old is removed, by design without CHANGE (spec §5.1). Groups
// are scanned in their order.
func (c *Cluster) scanExpired(b *broker) {
	if b.down {
		return
	}
	for _, g := range c.groups {
		bg := b.groups[g.idx]
		for _, inst := range bg.channelOrder() {
			ch := bg.chans[inst]
			if !ch.registered || c.now-ch.lastHeartbeat <= c.t.ChannelExpiredTimeout {
				continue
			}
			cs := c.consumers[inst]
			bg.dropChannel(inst)
			e := Event{Kind: EventChange, Cause: CauseExpire, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, N: c.t.ChannelExpiredTimeout / 1000}
			if c.t.ExpiryNotifies {
				e.Cause = CauseExpireNotify
				e.Text = fmt.Sprintf("%s expires %s: no heartbeat for %ds; the close races the scan and notifies", b.name, c.who(cs), e.N)
				c.emit(e)
				c.change(bg, g)
			} else {
				e.Text = fmt.Sprintf("%s expires %s: no heartbeat for %ds; nobody is notified, the others notice at their next periodic rebalance", b.name, c.who(cs), e.N)
				c.emit(e)
			}
			if cs.grpc {
				// CLIENT_UNREGISTER reaches the proxy inside b (local mode, §8.4.6).
				c.clearHandles(c.proxies[cs.px], cs, ch.lastHeartbeat, b)
			}
			c.noteOwnership()
		}
	}
}

// scheduleIdle arms the Netty all-idle check of a silent consumer's channel: it fires
// idleTimeout after the later of its last read and last write (spec §5.1).
func (c *Cluster) scheduleIdle(b *broker, cs *consumer) {
	ch := b.groupOf(cs).chans[cs.idx]
	if ch == nil || ch.idleScheduled || cs.grpc { // a gRPC channel is no Netty connection
		return
	}
	ch.idleScheduled = true
	c.events.Push(sim.Event{At: max(ch.lastRead, ch.lastWrite) + c.t.IdleTimeout, Kind: evIdle, A: b.idx, B: cs.idx})
}

func (c *Cluster) idleCheck(b *broker, cs *consumer) {
	ch := b.groupOf(cs).chans[cs.idx]
	if ch == nil || b.down {
		return
	}
	ch.idleScheduled = false
	if !cs.silent() {
		return // traffic resumed: a live client never reaches the idle timeout
	}
	if deadline := max(ch.lastRead, ch.lastWrite) + c.t.IdleTimeout; deadline > c.now {
		c.scheduleIdle(b, cs) // something was written since: the timer restarted
		return
	}
	c.closeChannel(b, cs, CauseIdleClosed)
	c.noteOwnership()
}

// sendLatency is the time one send to b takes now: base, configured slowness and seeded
// jitter.
func (c *Cluster) sendLatency(b *broker) int64 {
	l := c.t.BrokerBaseLatency + int64(b.latencyMs)
	if c.t.BrokerJitter > 0 {
		l += int64(b.rnd.NextIntn(int32(c.t.BrokerJitter + 1)))
	}
	return l
}

// clientIDsText lists ids for the log.
func clientIDsText(ids []string) string { return strings.Join(ids, ", ") }

// expectedExpiry is when the first broker's scan will find cs's last heartbeat more than
// channelExpiredTimeout old: the first tick after lastHeartbeat + timeout (spec §5.1).
func (c *Cluster) expectedExpiry(cs *consumer) (at int64, ok bool) {
	for _, b := range c.brokers {
		ch := b.groupOf(cs).chans[cs.idx]
		if b.down || ch == nil || !ch.registered {
			continue
		}
		due := ch.lastHeartbeat + c.t.ChannelExpiredTimeout
		tick := b.firstScan
		if due >= tick {
			tick += ((due-b.firstScan)/c.t.ScanInterval + 1) * c.t.ScanInterval
		}
		if !ok || tick < at {
			at, ok = tick, true
		}
	}
	return at, ok
}
