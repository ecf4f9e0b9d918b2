package cluster

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/core/sim"
)

// Producer send modes.
const (
	SendSync  = "sync"  // send(msg): the calling thread blocks for the whole send (spec §2.7)
	SendAsync = "async" // send(msg, callback): nothing blocks; retries in the callback (spec §2.9)
)

// asyncPermits is the Netty async semaphore of a client instance (clientAsyncSemaphoreValue,
// spec §0.1): at most this many async sends of one producer are on the wire. Back-pressure
// (enableBackpressureForAsyncMode) is off by default and not modelled.
const asyncPermits = 65535

// never is the action time of a thread that has nothing to do (a rate of 0).
const never = math.MaxInt64

// producer is one producer process: its own client instance (spec §1.2), the core's
// TopicPublishInfo and MQFaultStrategy (spec §2), and its sending threads.
type producer struct {
	idx          int
	id           string
	t            *topicState // the topic it sends to
	mode         string
	rate         int
	rateSince    int64 // sends are due at rate from this time …
	sentSince    int64 // … and (async) this many were sent since
	sent         int64
	acked        int64        // sends that ended in success
	failed       int64        // sends that ended in failure, after their retries
	startedAt    int64        // the client instance's start: the response-table scan's phase
	threads      []sendThread // sync: each blocks for its send
	active       int          // threads[:active] send; the rest finish their send and stop
	asyncFlight  int64        // async: sends holding a Netty permit
	asyncLast    int          // async: the broker of the previous pick (a lookup cache)
	closed       bool         // threads' times moved outside the flow loop: rebuild the heap
	flowedAt     int64        // the last flow step: thread actions up to here are done
	heap         []threadAt   // the threads, a min-heap by next action (then index)
	customTable  bool         // its own latency tiers: setFaultTable leaves them
	timeouts     []asyncTimeout
	fs           *fault.MQFaultStrategy
	tp           *selector.TopicPublishInfo   // thread 0's (and the async sender's)
	threadTP     []*selector.TopicPublishInfo // threads 1…: the same list, each its own index
	routeVersion int
	pubBroker    []int32 // java: the broker (index in Cluster.brokers) at each publish list position
	pubQueue     []int32 // … and the queue id
	rnd          *jrand.Random
	keys         *KeysConfig   // selector sends by key hash (spec §2.11); nil: the fault strategy picks
	keyRnd       *jrand.Random // draws the keys
	keyPrefix    int32         // String.hashCode of the keys' prefix
	keyBuf       []byte
	custom       selector.Custom // the producer's own selector of its keyed sends; nil: the hash
	customName   string
	customTags   string // the tag every message of the producer carries, "" when it has none or a mix
	customErr    string // the last selector failure logged, and when
	customErrAt  int64
	customSeq    int64 // keyed sends so far: message.seq
	grpc         bool  // a gRPC producer (grpc_producer.go) of proxy px
	px           int
	localIndex   int64            // its publishing index, local-mode proxies (proxy_local.go)
	toldView     int64            // 1 + the write time of the proxy's view whose failed send it told
	isolatedTill map[string]int64 // the deadline last reported as an isolation event
	isolatedFor  map[string]int64 // the tier duration that set it
	isolation    map[string]int   // index in Cluster.isolations of the current interval
	producerClient
}

// sendThread is one of a producer's threads calling the synchronous send in a loop, paced at
// the producer's rate: threads take the due times in turn (thread j the j-th, j+T-th, …).
type sendThread struct {
	seq  int64 // grid index of its current or next send: due at rateSince + seq·1000/rate
	busy bool  // a send is in progress
	at   int64 // busy: when the current attempt's outcome reaches the thread; idle: its next send

	t0         int64 // the send's start: its budget runs from here (spec §2.7)
	attempt    int
	start      int64 // the current attempt's start
	broker     int   // the current attempt's broker (index in Cluster.brokers)
	queue      int32
	elapsed    int64 // what the attempt reports to the fault strategy
	fail       bool  // the attempt fails at at: a timeout, or its connection closed
	timeout    bool  // the failure is the attempt's own timeout: the client closes the connection
	stored     bool  // the broker has stored the attempt's message
	lastBroker int   // the broker of its previous pick (a lookup cache)
	storePend  bool  // the broker will store it (an entry in its pending list)
	attemptID  int64 // counts its attempts: a store that arrives late knows whose it was
	localBase  int64 // a gRPC send through local-mode proxies: its publishing index (proxy_local.go)
	retire     bool  // the thread ends once its send is done (fewer threads, or async)

	// A successful attempt that nothing reads the outcome of at its own time is settled with
	// its start: the thread is already idle with its next send at at, and doneAt is when the
	// response reaches it. What could still change that outcome (a connection closed under it,
	// a killed broker, a queue gone, a command) undoes the settling first; see unsettle.
	settled bool
	doneAt  int64
	prevSeq int64 // seq before the settling's nextSend
}

// asyncTimeout is a batch of async sends whose futures the response-table scan expires.
type asyncTimeout struct {
	at      int64
	broker  string
	elapsed int64
	count   int64
}

// pendingSend is a batch of messages on their way to one queue, stored together. Sync sends
// travel one by one (thread ≥ 0); async ones in batches per step and queue.
type pendingSend struct {
	producer int
	thread   int   // the sync thread that sent it; -1: async
	attempt  int64 // sync: the thread's attempt it belongs to
	queue    int32
	count    int64
	sentAt   int64 // this attempt's start
	t0       int64 // async: the send's start (its budget)
	tries    int   // async: re-sends so far
	arriveAt int64 // when the broker stores it
	latency  int64 // async: the response time the callback reports
	late     bool  // the client has already seen this send fail: stored after a client timeout
	resend   bool  // sync: its send failed before on an earlier attempt (async: tries > 0)
}

// MaxTiers bounds a custom latency table's arrays.
const MaxTiers = 64

// MaxTierMs bounds a custom latency table's values either way (24 h): the client takes any
// array (spec §2.12); the bound only keeps the arithmetic finite.
const MaxTierMs = 24 * 3600 * 1000

// MaxKeys bounds the distinct keys of a keyed producer.
const MaxKeys = 1000000

// MaxSendThreads bounds a producer's sending threads.
const MaxSendThreads = 256

// checkProducer checks the settings a producer is started with.
func checkProducer(pc ProducerConfig) error {
	if pc.Mode != "" && pc.Mode != SendSync && pc.Mode != SendAsync {
		return fmt.Errorf("mode %q: want %q or %q", pc.Mode, SendSync, SendAsync)
	}
	if pc.Threads < 0 || pc.Threads > MaxSendThreads {
		return fmt.Errorf("threads %d: want 0…%d", pc.Threads, MaxSendThreads)
	}
	if len(pc.LatencyMax) > MaxTiers || len(pc.NotAvailableDuration) > MaxTiers {
		return fmt.Errorf("latencyMax %d, notAvailableDuration %d entries: at most %d each", len(pc.LatencyMax), len(pc.NotAvailableDuration), MaxTiers)
	}
	if k := pc.Keys; k != nil && (k.Count < 1 || k.Count > MaxKeys || k.HotShare < 0 || k.HotShare > 100 || len(k.Prefix) > 64) {
		return fmt.Errorf("keys: count %d, hotShare %d, prefix of %d bytes: want count 1…%d, hotShare 0…100, prefix at most 64 bytes",
			k.Count, k.HotShare, len(k.Prefix), MaxKeys)
	}
	if pc.Mode == SendAsync && pc.Threads > 1 {
		return fmt.Errorf("threads %d: an async producer's sends do not block; threads applies to mode %q", pc.Threads, SendSync)
	}
	if err := checkGrpcProducer(pc); err != nil {
		return err
	}
	if err := CheckSelector("selector", pc); err != nil {
		return err
	}
	return checkProducerClient(pc)
}

func (c *Cluster) startProducer(pc ProducerConfig) *producer {
	mode := pc.Mode
	if mode == "" {
		mode = SendSync
	}
	t := c.topics[0]
	if pc.Topic != "" && c.topicBy[pc.Topic] != nil {
		t = c.topicBy[pc.Topic]
	}
	p := &producer{idx: len(c.producers), id: pc.ID, t: t, mode: mode, rate: pc.Rate, rateSince: c.now, startedAt: c.now,
		fs: fault.NewMQFaultStrategy(c.faultTable), rnd: sim.Stream(c.cfg.Seed, "producer/"+pc.ID),
		isolatedTill: map[string]int64{}, isolatedFor: map[string]int64{}, isolation: map[string]int{}}
	p.fs.SetSendLatencyFaultEnable(c.latencyFault)
	if pc.LatencyMax != nil || pc.NotAvailableDuration != nil {
		// setLatencyMax / setNotAvailableDuration: each replaces its array, the other stays.
		lm, nad := c.faultTable.LatencyMax(), c.faultTable.NotAvailableDuration()
		if pc.LatencyMax != nil {
			lm = pc.LatencyMax
		}
		if pc.NotAvailableDuration != nil {
			nad = pc.NotAvailableDuration
		}
		p.fs.SetTable(fault.NewCustomTable("custom", lm, nad, c.faultTable.IsolationLatency()))
		p.customTable = true
	}
	if pc.Keys != nil {
		k := *pc.Keys
		if k.Prefix == "" {
			k.Prefix = "key-"
		}
		p.keys, p.keyRnd, p.keyPrefix = &k, sim.Stream(c.cfg.Seed, "keys/"+pc.ID), selector.StringHashCode(k.Prefix)
		if pc.Selector != nil {
			p.custom, _ = selector.New(*pc.Selector) // checkProducer compiled it
			p.customName = pc.Selector.Name
		}
		if len(pc.Tags) == 1 {
			for tag := range pc.Tags {
				p.customTags = tag // what a selector sees of its messages' tags
			}
		}
	}
	c.initClient(p, pc)
	if pc.Kind == ProducerGrpc {
		px, _ := c.proxyFor(pc.Proxy) // New checked it
		c.startGrpcProducer(p, px)
	}
	if mode == SendSync {
		p.threads = make([]sendThread, max(pc.Threads, 1))
		p.active = len(p.threads)
		if p.prof.Name == profile.Java {
			p.threadTP = make([]*selector.TopicPublishInfo, len(p.threads)-1)
		}
		p.setRate(pc.Rate, c.now)
	}
	c.producers = append(c.producers, p)
	c.refreshProducerRoute(p)
	c.events.Push(sim.Event{At: c.now + c.t.PollNameServerInterval, Kind: evProducerRoute, A: p.idx})
	return p
}

// refreshProducerRoute is the producer's route poll. A changed route gives a brand-new
// TopicPublishInfo, hence a new send index starting at a random value (spec §1.3, §6.3).
func (c *Cluster) refreshProducerRoute(p *producer) {
	if p.tp != nil && p.routeVersion == p.t.routeVersion {
		return
	}
	p.tp = selector.NewTopicPublishInfo(c.publishQueues(p.t), p.rnd)
	// The send index is a ThreadLocalIndex: each sending thread rotates its own, started at
	// its own random value (spec §2.1); the list is the same.
	for j := range p.threadTP {
		p.threadTP[j] = selector.NewTopicPublishInfo(c.publishQueues(p.t), p.rnd)
	}
	if p.prof.Name == profile.Java {
		// Each position's broker and queue id, for the plain pick's fast path.
		qs := c.publishQueues(p.t)
		p.pubBroker, p.pubQueue = make([]int32, len(qs)), make([]int32, len(qs))
		for i, mq := range qs {
			p.pubBroker[i], p.pubQueue[i] = int32(c.brokerBy[mq.BrokerName].idx), mq.QueueID
		}
	}
	c.refreshClientRoute(p)
	p.routeVersion = p.t.routeVersion
}

// tpFor is thread j's TopicPublishInfo.
func (p *producer) tpFor(j int) *selector.TopicPublishInfo {
	if j == 0 {
		return p.tp
	}
	return p.threadTP[j-1]
}

// keyedPick is a selector send's queue: the next message's key, hashed over the publish list
// as SelectMessageQueueByHash does (spec §2.11).
func (c *Cluster) keyedPick(p *producer, t int64) (route.MessageQueue, bool) {
	k := p.drawKey()
	// String.hashCode of prefix + decimal k, continued from the prefix's hash; a Go
	// producer hashes the whole key's bytes.
	h := p.keyPrefix
	if p.custom != nil {
		p.keyBuf = strconv.AppendInt(append(p.keyBuf[:0], p.keys.Prefix...), k, 10)
		return c.customQueue(p, string(p.keyBuf), t)
	}
	if p.prof.Name == profile.Go212 {
		p.keyBuf = strconv.AppendInt(append(p.keyBuf[:0], p.keys.Prefix...), k, 10)
		return p.keyedQueue(h, p.keyBuf)
	}
	p.keyBuf = strconv.AppendInt(p.keyBuf[:0], k, 10)
	for _, d := range p.keyBuf {
		h = 31*h + int32(d)
	}
	return p.keyedQueue(h, p.keyBuf)
}

// drawKey draws the number of the next message's key: key 0 for hotShare percent of the
// sends, a uniform one of count otherwise.
func (p *producer) drawKey() int64 {
	if p.keys.HotShare == 0 || p.keyRnd.NextIntn(100) >= int32(p.keys.HotShare) {
		return int64(p.keyRnd.NextIntn(int32(p.keys.Count)))
	}
	return 0
}

// setRate changes a producer's rate from now on: the due times restart from now, thread j
// taking the j-th. A busy thread finishes its send first.
func (p *producer) setRate(rate int, now int64) {
	p.unsettleAfter(p.flowedAt)
	p.rate, p.rateSince, p.sentSince = rate, now, 0
	p.closed = true
	n := int64(p.active)
	for j := range p.threads {
		th := &p.threads[j]
		if th.retire {
			if !th.busy {
				th.at = never
			}
			continue
		}
		if th.busy {
			th.seq = int64(j) - n // its next send takes grid point j
			continue
		}
		th.seq = int64(j)
		th.at = p.dueAt(th.seq)
	}
}

// dueAt is when the send with grid index seq is due.
func (p *producer) dueAt(seq int64) int64 {
	if p.rate <= 0 {
		return never
	}
	return p.rateSince + seq*1000/int64(p.rate)
}

// nextSend is a thread's next start once it is free at f: one interval after its previous send
// was due, and when it is late it sends as soon as it is free; whole intervals it missed
// while blocked are dropped, not caught up.
func (p *producer) nextSend(th *sendThread, f int64) {
	if p.rate <= 0 || th.retire {
		th.at = never
		return
	}
	n := int64(p.active)
	th.seq += n
	if p.dueAt(th.seq) < f {
		// The last grid point of this thread at or before f.
		m := ((f-p.rateSince+1)*int64(p.rate) - 1) / 1000
		th.seq += (m - th.seq) / n * n
	}
	th.at = max(p.dueAt(th.seq), f)
}

// flowProducer runs the producer's sends due by now.
func (c *Cluster) flowProducer(p *producer) {
	p.flowedAt = c.now
	c.expireAsync(p)
	if len(p.threads) > 0 {
		c.flowThreads(p) // sync threads, and those still finishing a send after a switch to async
	}
	if p.mode == SendAsync {
		c.flowAsync(p)
	}
}

// flowThreads runs the sending threads' actions due by now. Each thread's actions happen at
// their own milliseconds, all threads in time order (ties by thread), so a completion updates
// the fault table before a later pick reads it. The threads sit in a heap by their next
// action.
func (c *Cluster) flowThreads(p *producer) {
	if p.active < len(p.threads) {
		p.dropRetired()
	}
	if len(p.heap) != len(p.threads) || p.closed {
		p.rebuildHeap()
	}
	for len(p.heap) > 0 {
		j := int(p.heap[0].j)
		th := &p.threads[j]
		t := th.at
		if t > c.now {
			return
		}
		if th.busy {
			c.completeAttempt(p, j, t)
		} else {
			p.sent++
			th.busy, th.t0, th.attempt, th.settled = true, t, 0, false
			c.attempt(p, j, t, selector.LastBroker{})
		}
		if p.closed {
			p.rebuildHeap() // a connection close moved other threads' times
			continue
		}
		p.heap[0].at = th.at
		p.siftDown(0)
	}
}

// threadAt is a heap entry: a thread and the time of its next action.
type threadAt struct {
	at int64
	j  int32
}

func (a threadAt) before(b threadAt) bool { return a.at < b.at || (a.at == b.at && a.j < b.j) }

// rebuildHeap puts every thread back into the heap by its next action.
func (p *producer) rebuildHeap() {
	p.closed = false
	p.heap = p.heap[:0]
	for j := range p.threads {
		p.heap = append(p.heap, threadAt{at: p.threads[j].at, j: int32(j)})
	}
	for i := len(p.heap)/2 - 1; i >= 0; i-- {
		p.siftDown(i)
	}
}

func (p *producer) siftDown(i int) {
	h := p.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h[r].before(h[l]) {
			m = r
		}
		if !h[m].before(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// attempt is one iteration of sendDefaultImpl's loop for thread j at time t (spec §2.7): the
// pick comes before the budget check, and every failure that needs no waiting moves straight
// on to the next attempt.
func (c *Cluster) attempt(p *producer, j int, t int64, last selector.LastBroker) {
	th := &p.threads[j]
	goClient := p.prof.Name == profile.Go212
	for {
		if !p.publishOK() {
			c.sendFailed(p, j, t) // "No route info of this topic"
			return
		}
		var mq route.MessageQueue
		var b *broker
		if p.grpc {
			var ok bool
			if mq, b, ok = c.proxySendQueue(p, th); !ok {
				c.sendFailed(p, j, t)
				return
			}
		} else if p.pubBroker != nil && p.keys == nil && !last.Valid && !p.fs.SendLatencyFaultEnable() {
			// The current client's pick with latency mode off and no last broker is the plain
			// pick (spec §2.3): its broker is known by the list position.
			pos := p.tpFor(j).PlainPos()
			b = c.brokers[p.pubBroker[pos]]
			mq.BrokerName, mq.QueueID = b.name, p.pubQueue[pos]
		} else if p.keys != nil {
			var ok bool
			if mq, ok = c.keyedPick(p, t); !ok {
				c.sendFailed(p, j, t)
				return
			}
		} else {
			var err error
			if mq, err = c.pickQueue(p, j, last, th.attempt > 0, t); err != nil {
				c.sendFailed(p, j, t)
				return
			}
		}
		cost := t - th.t0
		if !goClient && !p.grpc && c.t.SendMsgTimeout < cost { // strict '<' (spec §6.17): "sendDefaultImpl call timeout"
			c.sendFailed(p, j, t)
			return
		}
		cur := c.t.SendMsgTimeout - cost
		if goClient {
			cur = p.prof.Producer.SendTimeout // 3 s for each attempt, no overall budget (spec §9.1.8)
		} else if p.grpc {
			cur = grpcRequestTimeoutMs // each attempt its own deadline
		}
		if last.Valid {
			// The attempt that failed on the last broker is sent again (spec §2.7).
			if fb := c.brokerBy[last.Name]; fb != nil {
				fb.noteResent(t, 1)
			}
		}
		if b == nil {
			b = c.brokerNamed(&th.lastBroker, mq.BrokerName)
		}
		if p.grpc && (b == nil || b.down || !b.hasQueue(p.t, mq.QueueID)) {
			// The proxy's send to the broker fails; the client sends again at once (§8.4.8).
			c.tellProxySendFailed(p, mq, b)
			if b != nil {
				b.noteFailed(t, 1)
			}
			th.attempt++
			if th.attempt > c.retries(p) {
				c.sendFailed(p, j, t)
				return
			}
			continue
		}
		if b == nil || b.down {
			// RemotingConnectException: isolation, reachable = !startDetectorEnable; retried at
			// once on another broker.
			if b != nil {
				b.failures++
				b.noteFailed(t, 1)
			}
			// A Go send retries a transport error, selector sends too (spec §9.1.8).
			if !goClient && (p.keys != nil || !c.faultUpdateAt(p, mq.BrokerName, 0, true, t)) {
				c.sendFailed(p, j, t) // a selector send has one attempt and no fault report
				return
			}
			last = selector.Last(mq.BrokerName)
			th.attempt++
			if th.attempt > c.retries(p) {
				c.sendFailed(p, j, t)
				return
			}
			continue
		}
		l := c.sendLatency(b)   // each send its own jitter
		r := l + c.t.NetworkRTT // the thread waits for the broker and the round trip
		b.lastResponse = r
		th.start, th.broker, th.queue, th.stored, th.storePend = t, b.idx, mq.QueueID, false, false
		th.attemptID++
		th.fail, th.timeout = false, false
		switch {
		case !b.hasQueue(p.t, mq.QueueID):
			// The broker refuses a queue it no longer has: an error code, isolation.
			th.fail, th.at, th.elapsed = true, t+r, r
			return
		case r <= cur:
			th.at, th.elapsed = t+r, r
		default:
			// No response within the budget left: the client throws at t+cur; the broker stores
			// the message anyway (spec §2.8).
			th.fail, th.timeout, th.at, th.elapsed = true, true, t+cur, cur
		}
		c.store(b, p, j, mq.QueueID, t, t+l)
		if settleSends && !th.fail && !th.retire && (p.keys != nil || !p.faultOn()) {
			// The response's arrival reports to no fault table (a selector send's never does,
			// spec §2.11): only the thread learns of it, so its completion is settled now.
			th.settled, th.doneAt, th.prevSeq = true, th.at, th.seq
			p.acked++
			th.busy = false
			p.nextSend(th, th.doneAt)
		}
		return
	}
}

// settleSends turns the settling of successful sends on (a test compares it with off).
var settleSends = true

// unsettle undoes the settling of thread j's send: it is busy again until its response.
func (p *producer) unsettle(j int) {
	th := &p.threads[j]
	th.settled, th.busy, th.at, th.seq = false, true, th.doneAt, th.prevSeq
	p.acked--
	p.closed = true
}

// unsettleAfter undoes every settled send whose response comes after t: a change at t (a
// command between flow steps uses the last step's time) must find those sends in progress.
func (p *producer) unsettleAfter(t int64) {
	for j := range p.threads {
		if th := &p.threads[j]; th.settled && th.doneAt > t {
			p.unsettle(j)
		}
	}
}

// brokerNamed looks a broker up by name, trying the producer's previous one first: picks run
// through a broker's queues in turn, so it is usually the same.
func (c *Cluster) brokerNamed(last *int, name string) *broker {
	if *last < len(c.brokers) && c.brokers[*last].name == name {
		return c.brokers[*last]
	}
	b := c.brokerBy[name]
	if b != nil {
		*last = b.idx
	}
	return b
}

// store puts a sync send's message on its way to the broker, stored at at; what is due by now
// is stored at once.
func (c *Cluster) store(b *broker, p *producer, j int, queue int32, sentAt, at int64) {
	th := &p.threads[j]
	c.metrics.InFlight++
	if at <= c.now {
		c.metrics.InFlight--
		b.appendMessages(p.t, queue, 1)
		b.sends++
		b.noteStored(at, 1)
		c.metrics.Produced++
		th.stored = true
		return
	}
	th.storePend = true
	b.pending = append(b.pending, pendingSend{producer: p.idx, thread: j, attempt: th.attemptID, queue: queue, count: 1, sentAt: sentAt, arriveAt: at,
		resend: th.attempt > 0})
}

// completeAttempt is the outcome of thread j's attempt reaching it at t: a response, a
// timeout, or a connection closed under it (spec §2.5 table, §2.8).
func (c *Cluster) completeAttempt(p *producer, j int, t int64) {
	th := &p.threads[j]
	b := c.brokers[th.broker]
	if !th.fail {
		// sendSelectImpl never updates the fault table. A custom table's lookup that throws
		// escapes send() although the broker stored the message (spec §2.12, §6.29).
		if p.keys == nil && !c.faultUpdateAt(p, b.name, th.elapsed, false, t) {
			c.markLate(p, j)
			c.sendFailed(p, j, t)
			return
		}
		p.acked++
		th.busy = false
		p.nextSend(th, t)
		return
	}
	b.failures++
	b.noteFailed(t, 1)
	thrown := p.keys == nil && !c.faultUpdateAt(p, b.name, th.elapsed, true, t)
	c.markLate(p, j)
	next := t
	if p.prof.Name == profile.Go212 {
		// The attempt's own timeout, a transport error or a retried code (a queue the broker
		// lacks is SYSTEM_ERROR): the next attempt at once, selector sends included, no
		// connection closed (spec §9.1.8).
		th.attempt++
		if th.attempt > c.retries(p) {
			c.sendFailed(p, j, t)
			return
		}
		c.attempt(p, j, t, selector.Last(b.name)) // the selection ignores it
		return
	}
	if th.timeout {
		// The waiter closes the shared connection (clientCloseSocketIfTimeout, left > 100 or
		// left > timeout/4): every other send in flight on it fails at once (spec §2.8, §6.18).
		if th.elapsed > 100 || th.elapsed > c.t.SendMsgTimeout/4 {
			c.closeProducerConnection(p, b, t)
		}
		// [inference] waking up and closing take the waiter a millisecond, so the next
		// attempt's cost exceeds the budget: the send is not retried (spec §2.8).
		next = t + 1
	}
	th.attempt++
	if th.attempt > c.t.RetryTimesWhenSendFail || p.keys != nil || thrown {
		// thrown: the lookup's exception replaced the attempt's, out of the catch block.
		c.sendFailed(p, j, next) // a sync selector send is never retried (spec §2.11)
		return
	}
	c.attempt(p, j, next, selector.Last(b.name))
}

// markLate notes that the client saw thread j's send to its broker fail: a message the broker
// stored or will store counts as stored after a client timeout.
func (c *Cluster) markLate(p *producer, j int) {
	th := &p.threads[j]
	if th.stored {
		c.metrics.StoredAfterTimeout++
		th.stored = false
	}
	if !th.storePend {
		return
	}
	th.storePend = false
	b := c.brokers[th.broker]
	for i := range b.pending {
		if ps := &b.pending[i]; ps.producer == p.idx && ps.thread == j {
			ps.late = true
		}
	}
}

// closeProducerConnection is the producer closing its connection to b at t: sync sends in
// flight on it fail now (RemotingSendRequestException) and are retried elsewhere with the
// budget they have left (spec §2.8).
func (c *Cluster) closeProducerConnection(p *producer, b *broker, t int64) {
	p.closed = true // other threads' times changed: the heap is rebuilt
	p.unsettleAfter(t)
	for i := range p.threads {
		o := &p.threads[i]
		if o.busy && o.broker == b.idx && o.at > t {
			if !o.fail {
				o.elapsed = t - o.start
			}
			o.fail, o.timeout, o.at = true, false, t
		}
	}
}

// sendsFailed counts n sends of p that ended in failure.
func (c *Cluster) sendsFailed(p *producer, n int64) {
	c.metrics.SendFailures += n
	p.failed += n
}

// sendFailed ends thread j's send in failure at t; the thread goes on with its next send.
func (c *Cluster) sendFailed(p *producer, j int, t int64) {
	th := &p.threads[j]
	c.sendsFailed(p, 1)
	th.busy = false
	p.nextSend(th, t)
}

// expireAsync fails the async sends whose futures the response-table scan expired by now.
func (c *Cluster) expireAsync(p *producer) {
	if len(p.timeouts) == 0 {
		return
	}
	keep := p.timeouts[:0]
	for _, to := range p.timeouts {
		if to.at > c.now {
			keep = append(keep, to)
			continue
		}
		c.sendsFailed(p, to.count)
		if b := c.brokerBy[to.broker]; b != nil {
			b.noteFailed(to.at, to.count) // the future expired: a failure the callback is told of
		}
		c.faultUpdateAt(p, to.broker, to.elapsed, true, to.at)
	}
	p.timeouts = keep
}

// flowAsync sends the async messages due in this step (spec §2.9): each takes one pick and a
// Netty permit and is on its way; the caller never waits. A send to a broker that refuses the
// connection fails in its callback and is re-sent to another broker's queue of the same id.
func (c *Cluster) flowAsync(p *producer) {
	due := int64(p.rate)*(c.now-p.rateSince)/1000 - p.sentSince
	if due <= 0 {
		return
	}
	p.sentSince += due
	for range due {
		p.sent++
		if p.asyncFlight >= asyncPermits {
			c.sendsFailed(p, 1) // no permit within the budget: RemotingTimeoutException
			continue
		}
		if !p.publishOK() {
			c.sendsFailed(p, 1)
			continue
		}
		if p.keys != nil {
			mq, ok := c.keyedPick(p, c.now)
			if !ok {
				c.sendsFailed(p, 1)
				continue
			}
			c.asyncOnWire(p, mq, c.now, 0)
			continue
		}
		mq, err := c.pickQueue(p, 0, selector.LastBroker{}, false, c.now)
		if err != nil {
			c.sendsFailed(p, 1)
			continue
		}
		// sendKernelImpl returns at once: the loop reports ~0 ms right away (spec §2.9).
		c.faultUpdateAt(p, mq.BrokerName, 0, false, c.now)
		c.asyncOnWire(p, mq, c.now, 0)
	}
	c.queueSends(p, c.now)
}

// asyncOnWire puts one async send to mq at t on its way, or fails it in its callback when the
// broker refuses the connection, re-sending while retries and budget remain.
func (c *Cluster) asyncOnWire(p *producer, mq route.MessageQueue, t0 int64, tries int) {
	for {
		b := c.brokerNamed(&p.asyncLast, mq.BrokerName)
		if b != nil && !b.down {
			if !b.hasQueue(p.t, mq.QueueID) {
				// INVALID_PARAMETER or a queue the broker lacks: a broker error, not retried.
				b.failures++
				b.noteFailed(c.now, 1)
				c.sendsFailed(p, 1)
				c.faultUpdateAt(p, b.name, 0, true, c.now)
				return
			}
			if b.stepCount[mq.QueueID] == 0 {
				b.stepTouched = true
			}
			b.stepCount[mq.QueueID]++
			b.stepTries = max(b.stepTries, tries)
			b.stepT0 = min(b.stepT0, t0)
			p.asyncFlight++
			return
		}
		if b != nil {
			b.failures++
			b.noteFailed(c.now, 1)
		}
		c.faultUpdateAt(p, mq.BrokerName, 0, true, c.now)
		var ok bool
		if mq, ok = c.asyncRetry(p, mq, t0, tries); !ok {
			c.sendsFailed(p, 1)
			return
		}
		if b != nil {
			b.noteResent(c.now, 1)
		}
		tries++
	}
}

// asyncRetry is onExceptionImpl's rule (spec §2.9): while retries and budget remain, the next
// broker is that of a fresh pick avoiding the failed one, and the request keeps its queue id.
func (c *Cluster) asyncRetry(p *producer, failed route.MessageQueue, t0 int64, tries int) (route.MessageQueue, bool) {
	if p.prof.Name == profile.Go212 {
		return failed, false // sendAsync selects once and never retries (spec §9.1.8)
	}
	if tries+1 > c.t.RetryTimesWhenSendFail || c.t.SendMsgTimeout-(c.now-t0) <= 0 || !p.publishOK() {
		return failed, false
	}
	if p.keys != nil {
		return failed, true // info is null for selector sends: the same broker again (spec §2.11)
	}
	mq, err := c.pickQueue(p, 0, selector.Last(failed.BrokerName), false, c.now)
	if err != nil {
		return failed, false
	}
	return route.MessageQueue{Topic: failed.Topic, BrokerName: mq.BrokerName, QueueID: failed.QueueID}, true
}

// queueSends turns the step's async counts into batches on their way, broker by broker in
// creation order and queue by queue, so no map order decides anything. A response later than
// the budget is expired by the response-table scan, 1–2 s after the budget ends (spec §2.8,
// §6.19); the broker stores the message all the same.
func (c *Cluster) queueSends(p *producer, sentAt int64) {
	for _, b := range c.brokers {
		if !b.stepTouched {
			continue
		}
		b.stepTouched = false
		tries, t0 := b.stepTries, min(b.stepT0, sentAt)
		b.stepTries, b.stepT0 = 0, never
		l := c.sendLatency(b)
		r := l + c.t.NetworkRTT
		b.lastResponse = r
		expiry := c.asyncExpiry(p, t0)
		for id, n := range b.stepCount {
			if n == 0 {
				continue
			}
			b.stepCount[id] = 0
			ps := pendingSend{producer: p.idx, thread: -1, queue: int32(id), count: n, sentAt: sentAt, t0: t0,
				tries: tries, arriveAt: sentAt + l, latency: r}
			if sentAt+r >= expiry {
				ps.late = true
				p.asyncFlight -= n
				p.timeouts = append(p.timeouts, asyncTimeout{at: expiry, broker: b.name, elapsed: expiry - sentAt, count: n})
			}
			b.pending = append(b.pending, ps)
			c.metrics.InFlight += n
		}
	}
}

// asyncExpiry is when the response-table scan expires a future begun at t0: the first scan
// (3 s after the client started, then every second) with t0 + timeout + 1000 <= now.
func (c *Cluster) asyncExpiry(p *producer, t0 int64) int64 {
	if p.prof.Name == profile.Go212 {
		// The Go client's invokeAsync waits on the request's 3 s context (*inferred*).
		return t0 + p.prof.Producer.SendTimeout
	}
	due := t0 + c.t.SendMsgTimeout + 1000
	first := p.startedAt + 3000
	if due <= first {
		return first
	}
	return first + (due-first+999)/1000*1000
}

// arrivals stores the messages due by now on broker b. An async send's response completes
// its callback (the producer records the latency) unless its future had already expired.
func (c *Cluster) arrivals(b *broker) {
	keep := b.pending[:0]
	for _, ps := range b.pending {
		if ps.arriveAt > c.now {
			keep = append(keep, ps)
			continue
		}
		p := c.producers[ps.producer]
		c.metrics.InFlight -= ps.count
		if !b.hasQueue(p.t, ps.queue) {
			// The queue went away on the way: a broker error for the client.
			switch {
			case ps.late:
			case ps.thread >= 0:
				// The thread's response will be the broker's error (if it is still waiting).
				if ps.thread >= len(p.threads) {
					continue // its thread has ended: the send had already failed at the client
				}
				th := &p.threads[ps.thread]
				if th.settled && th.attemptID == ps.attempt && th.doneAt > c.now {
					p.unsettle(ps.thread)
				}
				if th.busy && th.attemptID == ps.attempt {
					th.storePend, th.fail = false, true
				}
			default:
				b.failures += ps.count
				b.noteFailed(ps.arriveAt, ps.count)
				c.sendsFailed(p, ps.count)
				p.asyncFlight -= ps.count
				c.faultUpdateAt(p, b.name, ps.latency, true, ps.arriveAt)
			}
			continue
		}
		b.appendMessages(p.t, ps.queue, ps.count)
		b.sends += ps.count
		b.noteStored(ps.arriveAt, ps.count)
		c.metrics.Produced += ps.count
		switch {
		case ps.late:
			c.metrics.StoredAfterTimeout += ps.count
		case ps.thread >= 0:
			// Its thread may have had its answer in this step already and moved on.
			if ps.thread >= len(p.threads) {
				break // its thread has ended
			}
			if th := &p.threads[ps.thread]; th.attemptID == ps.attempt {
				th.stored, th.storePend = true, false
			}
		default:
			p.asyncFlight -= ps.count
			p.acked += ps.count
			c.faultUpdateAt(p, b.name, ps.latency, false, ps.sentAt+ps.latency)
		}
	}
	b.pending = keep
}

// brokerKilled fails every send in flight to b at once: its connections close (spec §2.8). A
// sync thread retries on another broker with its remaining budget; an async batch is re-sent
// by its callback; what had already failed at the client is gone with the broker.
func (c *Cluster) brokerKilled(b *broker) {
	for _, p := range c.producers {
		p.closed = true
		p.unsettleAfter(c.now)
		for i := range p.threads {
			o := &p.threads[i]
			if o.busy && o.broker == b.idx && o.at > c.now {
				if !o.fail {
					o.elapsed = c.now - o.start
				}
				o.fail, o.timeout, o.at = true, false, c.now
			}
		}
	}
	pending := b.pending
	b.pending = nil
	for _, ps := range pending {
		c.metrics.InFlight -= ps.count
		if ps.late {
			continue
		}
		p := c.producers[ps.producer]
		if ps.thread >= 0 {
			if ps.thread >= len(p.threads) {
				continue
			}
			if th := &p.threads[ps.thread]; th.attemptID == ps.attempt {
				th.storePend = false
			}
			continue
		}
		p.asyncFlight -= ps.count
		c.faultUpdateAt(p, b.name, c.now-ps.sentAt, true, c.now)
		failed := route.MessageQueue{Topic: p.t.name, BrokerName: b.name, QueueID: ps.queue}
		b.noteFailed(c.now, ps.count) // the connection closed under them: the callback's exception
		for range ps.count {
			if mq, ok := c.asyncRetry(p, failed, ps.t0, ps.tries); ok {
				b.noteResent(c.now, 1)
				c.asyncOnWire(p, mq, ps.t0, ps.tries+1)
			} else {
				c.sendsFailed(p, 1)
			}
		}
		c.queueSends(p, c.now)
	}
}

// faultUpdateAt tells the producer's MQFaultStrategy about an attempt (spec §2.5 table) and
// reports a new isolation in the log.
// It returns false where a custom table's lookup throws (spec §2.12).
func (c *Cluster) faultUpdateAt(p *producer, broker string, latency int64, isolation bool, at int64) bool {
	switch p.prof.Name {
	case profile.Go212:
		return true // no fault tolerance
	case profile.Java49:
		return c.faultUpdate49(p, broker, latency, isolation, at)
	}
	if !p.fs.SendLatencyFaultEnable() {
		return true
	}
	if !p.fs.UpdateFaultItemOK(broker, latency, isolation, true, at) {
		return false
	}
	it, ok := p.fs.FaultItem(broker)
	if !ok || it.StartTimestamp <= at || it.StartTimestamp <= p.isolatedTill[broker] {
		return true
	}
	was := p.isolatedTill[broker]
	p.isolatedTill[broker] = it.StartTimestamp
	p.isolatedFor[broker] = it.StartTimestamp - at
	if was > at {
		// An extension of an isolation already reported.
		if i := p.isolation[broker]; i >= 0 && i < len(c.isolations) {
			c.isolations[i].Until = it.StartTimestamp
		}
		return true
	}
	c.isolationStarted(p, broker, latency, isolation, at, it.StartTimestamp)
	return true
}

// isolationStarted reports a new isolation of broker by p, from at until until.
func (c *Cluster) isolationStarted(p *producer, broker string, latency int64, isolation bool, at, until int64) {
	p.isolatedTill[broker] = until
	p.isolatedFor[broker] = until - at
	e := Event{Kind: EventIsolation, Cause: CauseIsolateSlow, Broker: broker, Arg: p.id, LatencyMs: latency,
		Until: until, N: (until - at + 999) / 1000}
	why, cause := fmt.Sprintf("a send took %d ms", latency), fmt.Sprintf("latency %d ms", latency)
	if isolation {
		e.Cause, e.LatencyMs = CauseIsolateFailed, 0
		why, cause = "a send failed", "send failed"
	}
	p.isolation[broker] = -1
	if len(c.isolations) < maxAnomalies {
		p.isolation[broker] = len(c.isolations)
		c.isolations = append(c.isolations, Isolation{Producer: p.id, Broker: broker, Start: at, Until: until, Cause: cause})
	}
	e.Text = fmt.Sprintf("%s avoids %s until %s: %s, tier %d s", p.id, broker, clock(until), why, e.N)
	c.emit(e)
}
