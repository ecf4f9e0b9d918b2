package cluster

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/sim"
)

// Event kinds of the queue.
const (
	evFlow = iota
	evRebalance
	evHeartbeat
	evRoute
	evPersist
	evNotify
	evScan
	evIdle
	evProducerRoute
	evBrokerFlush
	evHeartbeatArrive
)

// maxLog bounds the event log kept for snapshots; observers see every event.
const maxLog = 500

// maxAnomalies bounds the closed anomaly intervals kept.
const maxAnomalies = 10000

// Cluster is the simulated world. It is not safe for concurrent use: drivers call Apply,
// Advance and Snapshot from one goroutine.
type Cluster struct {
	cfg    Config
	t      Timing
	now    int64
	events sim.Queue

	topic        *topicState
	group        *groupState
	latencyFault bool
	faultTable   fault.Table

	brokers   []*broker
	brokerBy  map[string]*broker
	consumers []*consumer          // every process instance ever started, in start order
	current   map[string]*consumer // the latest instance of each client id
	producers []*producer

	metrics    Metrics
	pub        publisher // the metrics members publish for strategies' views (metrics.go)
	observer   func(Event)
	held       []Event // events of a command being applied, told after it
	actionText string  // set by a command whose action event says more than its Describe
	log        []Event
	anomalies  []Anomaly                       // closed intervals
	open       map[route.MessageQueue]*Anomaly // open intervals by queue
	isolations []Isolation

	net        *jrand.Random // one-way network delays of heartbeats
	starting   bool          // New is starting the initial consumers
	history    HistoryConfig
	marks      []int64   // timestamps > 0 a TIMESTAMP consumer may search for, sorted
	markOffset [][]int64 // per mark reached: every queue's max offset then, brokers in creation order
}

// topicState is the topic as the name server serves it: its name and its route's version.
// Each broker holds the topic's queues on it.
type topicState struct {
	name              string
	routeVersion      int // bumped whenever the name server's route for the topic changes
	routeCache        routeLists
	routeCacheVersion int
}

// groupState is the consumer group as its members run it: its name, its allocation strategy
// and its message model. Each broker holds the group's consumer table and offsets.
type groupState struct {
	name       string
	strategy   allocate.Strategy // as the Java clients run it
	params     allocate.Params   // the strategy's parameters, for the other clients' builds
	choice     allocate.Choice   // the strategy as named, with its source when a user's
	goStrategy allocate.Strategy // as rocketmq-client-go runs it; built when first needed
	model      string
}

// New builds the cluster at time 0: brokers up and registered, consumers and producers
// started. Configuration errors name the field.
func New(cfg Config) (*Cluster, error) {
	c := &Cluster{
		cfg: cfg, t: cfg.Timing.WithDefaults(),
		topic: &topicState{name: cfg.Topic}, group: &groupState{name: cfg.Group, model: cfg.MessageModel},
		latencyFault: cfg.LatencyFault,
		brokerBy:     map[string]*broker{}, current: map[string]*consumer{},
		open: map[route.MessageQueue]*Anomaly{},
		net:  sim.Stream(cfg.Seed, "network"),
		pub:  newPublisher(cfg.Metrics),
	}
	if c.topic.name == "" {
		c.topic.name = DefaultOf("topic")
	}
	if c.group.name == "" {
		c.group.name = DefaultOf("group")
	}
	if c.group.model == "" {
		c.group.model = DefaultOf("messageModel")
	}
	if c.group.model != Clustering && c.group.model != Broadcasting {
		return nil, fmt.Errorf("messageModel %q: want CLUSTERING or BROADCASTING", c.group.model)
	}
	name := cfg.Strategy
	if name.IsZero() {
		name = allocate.Named(DefaultOf("strategy"))
	}
	s, err := allocate.NewChoice(name, cfg.Params)
	if err != nil {
		return nil, fmt.Errorf("strategy: %w", err)
	}
	c.group.strategy, c.group.params, c.group.choice = s, cfg.Params, name
	tableName := cfg.FaultTable
	if tableName == "" {
		tableName = DefaultOf("faultTable")
	}
	if c.faultTable, err = fault.TableByName(tableName); err != nil {
		return nil, fmt.Errorf("faultTable: %w", err)
	}
	if len(cfg.Brokers) == 0 {
		return nil, fmt.Errorf("brokers: at least one broker is needed")
	}
	for _, bc := range cfg.Brokers {
		if _, dup := c.brokerBy[bc.Name]; dup {
			return nil, fmt.Errorf("brokers: %q appears twice", bc.Name)
		}
		b := c.addBroker(bc.Name, bc.Queues, bc.LatencyMs, bc.MemoryMessages)
		if r, w := bc.QueueCounts(); r != bc.Queues || w != bc.Queues {
			c.setQueueNums(b, r, w)
		}
	}
	if err := c.addHistory(cfg.History); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	c.starting = true
	defer func() { c.starting = false }()
	for _, cc := range cfg.Consumers {
		if _, dup := c.current[cc.ID]; dup {
			return nil, fmt.Errorf("consumers: %q appears twice", cc.ID)
		}
		if cc.ID == "" {
			return nil, fmt.Errorf("consumers: a client id is empty")
		}
		from, err := ParseConsumeFromWhere(cc.ConsumeFromWhere)
		if err != nil {
			return nil, fmt.Errorf("consumers: %s: %w", cc.ID, err)
		}
		p, err := lookupClient(cc.Client)
		if err != nil {
			return nil, fmt.Errorf("consumers: %s: %w", cc.ID, err)
		}
		if err := checkClientStrategy(p, name, cfg.Params); err != nil {
			return nil, fmt.Errorf("consumers: %s: client: %w", cc.ID, err)
		}
		topic := ""
		if cc.Subscription != nil && cc.Subscription.Topic != c.topic.name {
			if err := CheckName("consumers: "+cc.ID+": subscription.topic", cc.Subscription.Topic, TopicName); err != nil {
				return nil, err
			}
			topic = cc.Subscription.Topic
		}
		cs := c.startConsumer(cc.ID, cc.ConsumeRate, p, topic)
		cs.from = from
		cs.fixedName = cc.FixedInstanceName
		if err := CheckAttributes("consumers: "+cc.ID+": attributes", cc.Attributes); err != nil {
			return nil, err
		}
		cs.attrs = cc.Attributes
		if cc.SlowEvery < 0 || cc.SlowMs < 0 || (cc.SlowEvery > 0) != (cc.SlowMs > 0) {
			return nil, fmt.Errorf("consumers: %s: slowEvery %d, slowMs %d: want both positive, or both 0", cc.ID, cc.SlowEvery, cc.SlowMs)
		}
		cs.setSlow(cfg.Seed, cc.SlowEvery, cc.SlowMs)
		if cc.ConsumeTimestampMs != nil {
			cs.timestamp, cs.fixedTS = *cc.ConsumeTimestampMs, true
		}
		c.markTimestamp(cs.timestamp)
	}
	for i, pc := range cfg.Producers {
		if err := checkProducer(pc); err != nil {
			return nil, fmt.Errorf("producers[%d]: %w", i, err)
		}
		c.startProducer(pc)
	}
	c.events.Push(sim.Event{At: c.t.FlowStepMs, Kind: evFlow})
	return c, nil
}

// addHistory fills the initial brokers' queues with the messages produced before 00:00.
func (c *Cluster) addHistory(h *HistoryConfig) error {
	if h == nil {
		return nil
	}
	if h.Messages < 0 || h.Deleted < 0 || h.Deleted > h.Messages || h.SpanMs < 0 {
		return fmt.Errorf("messages %d, deleted %d, spanMs %d: want 0 ≤ deleted ≤ messages and spanMs ≥ 0", h.Messages, h.Deleted, h.SpanMs)
	}
	c.history = *h
	if c.history.SpanMs == 0 {
		c.history.SpanMs = 3600 * 1000
	}
	for _, b := range c.brokers {
		// Written interleaved, queue by queue: message 0 of every queue sits near the log's start.
		// Only write queues were ever written.
		for q := range b.topic.writeQ {
			b.topic.qs[q].firstPos = b.logCount + int64(q)
			b.topic.qs[q].maxOffset = h.Messages
			b.topic.qs[q].minOffset = h.Deleted
			b.group.offsets[q].frontier = h.Deleted
		}
		b.logCount += h.Messages * int64(b.topic.writeQ)
	}
	return nil
}

// markTimestamp notes a time a TIMESTAMP search may ask about; the queues' offsets are
// recorded when the clock passes it.
func (c *Cluster) markTimestamp(ts int64) {
	if ts <= c.now {
		return
	}
	i, found := slices.BinarySearch(c.marks, ts)
	if !found {
		c.marks = slices.Insert(c.marks, i, ts)
	}
}

// recordMarks records the offsets at the marks passed by now (at step resolution).
func (c *Cluster) recordMarks() {
	for len(c.markOffset) < len(c.marks) && c.marks[len(c.markOffset)] <= c.now {
		var offs []int64
		for _, b := range c.brokers {
			for _, q := range b.topic.qs {
				offs = append(offs, q.maxOffset)
			}
		}
		c.markOffset = append(c.markOffset, offs)
	}
}

// searchOffset is SEARCH_OFFSET_BY_TIMESTAMP with boundary LOWER: the first message stored at
// or after ts, or the max offset if there is none (spec §3.6). Messages before 00:00 were
// produced evenly over the history's span.
func (c *Cluster) searchOffset(b *broker, q int32, ts int64) int64 {
	bq := b.topic.qs[q]
	h := c.history
	if ts < 0 && h.Messages > 0 && int(q) < len(b.topic.qs) {
		// message k was stored at -span + k·span/messages
		k := ((ts+h.SpanMs)*h.Messages + h.SpanMs - 1) / h.SpanMs
		return min(max(k, bq.minOffset, 0), bq.maxOffset)
	}
	if ts <= 0 {
		return min(max(h.Messages, bq.minOffset), bq.maxOffset)
	}
	i, _ := slices.BinarySearch(c.marks, ts)
	if i >= len(c.markOffset) {
		return bq.maxOffset // not reached yet
	}
	pos := 0
	for _, x := range c.brokers {
		if x == b {
			break
		}
		pos += len(x.topic.qs)
	}
	if off := c.markOffset[i]; pos+int(q) < len(off) {
		return max(off[pos+int(q)], bq.minOffset)
	}
	return bq.maxOffset // the queue was created after ts
}

// Now is the virtual time in milliseconds.
func (c *Cluster) Now() int64 { return c.now }

// SetObserver registers fn to be called, synchronously, for every event from now on.
func (c *Cluster) SetObserver(fn func(Event)) { c.observer = fn }

// Advance runs the simulation up to and including time to.
func (c *Cluster) Advance(to int64) { c.AdvanceSome(to, math.MaxInt) }

// AdvanceSome is Advance in pieces: it handles at most n of the events due by time to and
// reports whether it got there. Calling it until it does is Advance(to), event for event: a
// driver that must not be held long (the playground's page) splits even a single virtual
// moment that is costly, such as every consumer's first rebalance at once.
func (c *Cluster) AdvanceSome(to int64, n int) bool {
	for ; n > 0; n-- {
		at, ok := c.events.PeekAt()
		if !ok || at > to {
			break
		}
		e := c.events.Pop()
		c.publishUpTo(e.At)
		c.now = e.At
		c.dispatch(e)
	}
	if at, ok := c.events.PeekAt(); ok && at <= to {
		return false
	}
	if to > c.now {
		c.now = to
	}
	return true
}

func (c *Cluster) dispatch(e sim.Event) {
	switch e.Kind {
	case evFlow:
		c.flow()
		c.events.Push(sim.Event{At: c.now + c.t.FlowStepMs, Kind: evFlow})
	case evRebalance:
		if cs := c.consumers[e.A]; cs.gen[genRebalance] == e.B {
			c.rebalance(cs)
		}
	case evHeartbeat:
		if cs := c.consumers[e.A]; cs.gen[genHeartbeat] == e.B {
			c.heartbeatAll(cs, 0)
			c.schedule(cs, genHeartbeat, evHeartbeat, c.now+c.t.HeartbeatInterval)
		}
	case evRoute:
		if cs := c.consumers[e.A]; cs.gen[genRoute] == e.B {
			c.refreshConsumerRoute(cs)
			c.schedule(cs, genRoute, evRoute, c.now+c.t.PollNameServerInterval)
		}
	case evPersist:
		if cs := c.consumers[e.A]; cs.gen[genPersist] == e.B {
			c.persistAll(cs)
			c.schedule(cs, genPersist, evPersist, c.now+c.t.PersistOffsetInterval)
		}
	case evNotify:
		if e.S == "" {
			c.notified(e.A)
			break
		}
		for i := 0; i < len(e.S); i += 4 { // a CHANGE's batch (see change)
			b := e.S[i : i+4]
			c.notified(int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24))
		}
	case evScan:
		c.scanExpired(c.brokers[e.A])
		c.events.Push(sim.Event{At: c.now + c.t.ScanInterval, Kind: evScan, A: e.A})
	case evIdle:
		c.idleCheck(c.brokers[e.A], c.consumers[e.B])
	case evHeartbeatArrive:
		// A heartbeat on its way reaches its broker; one from a process that has died or
		// been cut off since is lost with it.
		if cs, b := c.consumers[e.A], c.brokers[e.B]; !cs.dead && !cs.partitioned && !b.down {
			c.heartbeat(b, cs)
		}
	case evBrokerFlush:
		if b := c.brokers[e.A]; b.flushGen == e.B && !b.down {
			b.flushOffsets()
			c.events.Push(sim.Event{At: c.now + c.t.PersistOffsetInterval, Kind: evBrokerFlush, A: e.A, B: e.B})
		}
	case evProducerRoute:
		p := c.producers[e.A]
		c.refreshProducerRoute(p)
		c.events.Push(sim.Event{At: c.now + c.t.PollNameServerInterval, Kind: evProducerRoute, A: e.A})
	default:
		panic(fmt.Sprintf("cluster: unknown event kind %d", e.Kind))
	}
}

// emit records an event in the bounded log and tells the observer.
func (c *Cluster) emit(e Event) {
	e.T = c.now
	if c.held != nil {
		c.held = append(c.held, e)
		return
	}
	// Entries are never rewritten in place, only appended, and the oldest are dropped by
	// moving the newest into a new array now and then: a clone can share the array.
	if len(c.log) >= 2*maxLog {
		c.log = append(make([]Event, 0, 2*maxLog), c.log[len(c.log)-maxLog+1:]...)
	}
	c.log = append(c.log, e)
	if c.observer != nil {
		c.observer(e)
	}
}

func (c *Cluster) emitf(kind, cause, consumer, broker, format string, args ...any) {
	c.emit(Event{Kind: kind, Cause: cause, Consumer: consumer, Broker: broker, Text: fmt.Sprintf(format, args...)})
}

// Log returns a copy of the most recent events (at most 500), oldest first.
func (c *Cluster) Log() []Event { return slices.Clone(c.log[max(0, len(c.log)-maxLog):]) }

func clock(ms int64) string { return Clock(ms) }

// Clock formats virtual milliseconds as mm:ss, or h:mm:ss from an hour on: the one clock format
// of the event log, the command line's texts and the narration.
func Clock(ms int64) string {
	s := ms / 1000
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

// ClockTenths is Clock with tenths of a second, mm:ss.t (h:mm:ss.t): the canvas's and the
// timeline's clock.
func ClockTenths(ms int64) string {
	return Clock(ms) + "." + strconv.FormatInt(ms%1000/100, 10)
}

// liveBrokers returns the brokers registered at the name server (up), in Java string order of
// their names: the order of the publish list (spec §1.3).
func (c *Cluster) liveBrokers() []*broker {
	var out []*broker
	for _, b := range c.brokers {
		if !b.down {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(a, b *broker) int { return route.CompareJava(a.name, b.name) })
	return out
}

// The topic's queue lists in the name server's route, each sorted in MessageQueue order
// (permissions are read-write): the publish list, write queues 0…writeQueueNums−1 of every
// live broker sorted by name, and the subscribe set, read queues 0…readQueueNums−1 (spec
// §1.3); allQueues is every queue a live broker has, either kind.

// publishQueues is the publish list producers build from the route.
func (c *Cluster) publishQueues() []route.MessageQueue { return c.routeLists().publish }

// subscribeQueues is the subscribe set consumers rebalance over.
func (c *Cluster) subscribeQueues() []route.MessageQueue { return c.routeLists().subscribe }

// allQueues is every queue of every live broker.
func (c *Cluster) allQueues() []route.MessageQueue { return c.routeLists().all }

type routeLists struct{ publish, subscribe, all []route.MessageQueue }

func (c *Cluster) routeLists() routeLists {
	if c.topic.routeCache.all != nil && c.topic.routeCacheVersion == c.topic.routeVersion {
		return c.topic.routeCache // shared, read-only
	}
	l := routeLists{publish: []route.MessageQueue{}, subscribe: []route.MessageQueue{}, all: []route.MessageQueue{}}
	for _, b := range c.liveBrokers() {
		for id := range b.topic.queues {
			mq := route.MessageQueue{Topic: c.topic.name, BrokerName: b.name, QueueID: int32(id)}
			l.all = append(l.all, mq)
			if id < b.topic.writeQ {
				l.publish = append(l.publish, mq)
			}
			if id < b.topic.readQ {
				l.subscribe = append(l.subscribe, mq)
			}
		}
	}
	c.topic.routeCache, c.topic.routeCacheVersion = l, c.topic.routeVersion
	return l
}
