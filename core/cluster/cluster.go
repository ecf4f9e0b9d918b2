package cluster

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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
	evAutoscale
	evCleanExpired
	evProxyRenew
	evProxyScan
	evLockRenew
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

	// topics and groups in the order they were declared (retry and dead-letter topics are
	// created as RocketMQ creates them, after the declared ones); a broker's part of each is
	// at the same index in its own lists.
	topics       []*topicState
	topicBy      map[string]*topicState
	groups       []*groupState
	groupBy      map[string]*groupState
	latencyFault bool
	faultTable   fault.Table
	// nextViaProxy is the proxy (index + 1) the next consumer startConsumer starts reaches
	// through its remoting port (0: none): set by startConfigured just before.
	nextViaProxy int

	brokers   []*broker
	brokerBy  map[string]*broker
	proxies   []*proxyState           // the scenario's proxies (grpc.go)
	consumers []*consumer             // every member ever started (a process's in each group), in start order
	current   map[memberKey]*consumer // the latest member of each client id in each group
	producers []*producer

	metrics    Metrics
	pub        publisher // the metrics members publish for strategies' views (metrics.go)
	observer   func(Event)
	held       []Event // events of a command being applied, told after it
	detailLeft int     // message-level events still to tell (detail.go); 0: off
	actionText string  // set by a command whose action event says more than its Describe
	log        []Event
	anomalies  []Anomaly               // closed intervals
	open       map[anomalyKey]*Anomaly // open intervals by group and queue
	isolations []Isolation

	net        *jrand.Random // one-way network delays of heartbeats
	starting   bool          // New is starting the initial consumers
	history    HistoryConfig
	marks      []int64   // timestamps > 0 a TIMESTAMP consumer may search for, sorted
	markOffset [][]int64 // per mark reached: every queue's max offset then, brokers in creation order
}

// topicState is a topic as the name server serves it: its name and its route's version.
// Each broker holds its part of the topic (brokerTopic) at the topic's index.
type topicState struct {
	idx               int
	name              string
	routeVersion      int // bumped whenever the name server's route for the topic changes
	routeCache        routeLists
	routeCacheVersion int
	// unsimulated is a topic a member subscribes whose queues the run does not simulate (a
	// version 1 scenario's subscription.topic): it lives on every broker with no queue, so
	// the member heartbeats every broker and never holds a queue of it (spec §5.7, inferred
	// there).
	unsimulated bool
	// group is the group whose retry or dead-letter topic it is (nil: a topic of the
	// scenario's); dlq tells which.
	group *groupState
	dlq   bool
	// everywhere: a declared topic living on every broker, a broker added later included.
	everywhere bool
	// tags is its messages' mix of tags (nil: no message has a tag); immutable once built.
	tags *tagPattern
	// popFor is, for a POP retry topic %RETRY%<group>_<topic>, 1 + its topic's index (0: not
	// one; pop.go).
	popFor int
}

// isRetry reports whether t is a group's retry topic.
func (t *topicState) isRetry() bool { return t.group != nil && !t.dlq }

// groupState is a consumer group as its members run it: its name, its allocation strategy
// and its message model. Each broker holds its part of the group (brokerGroup) at the
// group's index.
type groupState struct {
	idx        int
	name       string
	topics     []*topicState     // the topics its members subscribe, in the order first subscribed
	strategy   allocate.Strategy // as the Java clients run it
	params     allocate.Params   // the strategy's parameters, for the other clients' builds
	choice     allocate.Choice   // the strategy as named, with its source when a user's
	goStrategy allocate.Strategy // as rocketmq-client-go runs it; built when first needed
	model      string
	from       string // its members' default ConsumeFromWhere
	// retry is its retry topic %RETRY%<group>, which its CLUSTERING members subscribe (nil:
	// none, as format 1 showed a group); dlq its dead-letter topic, once a message went there.
	retry, dlq   *topicState
	maxReconsume int         // the client's maxReconsumeTimes
	orderly      bool        // its members consume orderly (MessageListenerOrderly)
	orderlyLimit bool        // an orderly group's maxReconsumeTimes was given (else Integer.MAX_VALUE)
	scaler       *autoscaler // its autoscaler (nil: none)
	// mode is its topics' message request mode on the brokers (ModePull or ModePop; "": PULL),
	// popShare its popShareQueueNum, popRetry its POP retry topics by their topic's index
	// (pop.go, spec §8.1 item 2).
	mode      string
	popShare  int
	popRetry  map[int]int
	scalerGen int // setAutoscale's replacements: a reading of an earlier one is dropped
}

// New builds the cluster at time 0: brokers up and registered, consumers and producers
// started. Configuration errors name the field.
func New(cfg Config) (*Cluster, error) {
	c := &Cluster{
		cfg: cfg, t: cfg.Timing.WithDefaults(),
		topicBy: map[string]*topicState{}, groupBy: map[string]*groupState{},
		latencyFault: cfg.LatencyFault,
		brokerBy:     map[string]*broker{}, current: map[memberKey]*consumer{},
		open: map[anomalyKey]*Anomaly{},
		net:  sim.Stream(cfg.Seed, "network"),
		pub:  newPublisher(cfg.Metrics),
	}
	tableName := cfg.FaultTable
	if tableName == "" {
		tableName = DefaultOf("faultTable")
	}
	var err error
	if c.faultTable, err = fault.TableByName(tableName); err != nil {
		return nil, fmt.Errorf("faultTable: %w", err)
	}
	if err := c.newTopicsAndGroups(cfg); err != nil {
		return nil, err
	}
	if len(cfg.Brokers) == 0 {
		return nil, fmt.Errorf("brokers: at least one broker is needed")
	}
	for _, bc := range cfg.Brokers {
		if _, dup := c.brokerBy[bc.Name]; dup {
			return nil, fmt.Errorf("brokers: %q appears twice", bc.Name)
		}
		c.addBroker(bc.Name, bc.LatencyMs, bc.MemoryMessages)
	}
	if err := c.placeTopics(cfg); err != nil {
		return nil, err
	}
	if err := c.addHistory(cfg.History); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	if err := c.addProxies(cfg); err != nil {
		return nil, err
	}
	c.SetDetail(cfg.Detail)
	c.starting = true
	defer func() { c.starting = false }()
	ids := map[string]bool{}
	for _, cc := range cfg.Consumers {
		if ids[cc.ID] {
			return nil, fmt.Errorf("consumers: %q appears twice", cc.ID)
		}
		ids[cc.ID] = true
		if err := c.startConfigured(cfg, cc); err != nil {
			return nil, err
		}
	}
	c.topicTags(cfg.Producers)
	// The initial members were registered at 00:00, as if they had run before: their
	// groups' retry topics exist on the brokers they heartbeat, and their routes hold them.
	for _, cs := range c.consumers {
		c.refreshConsumerRoute(cs)
	}
	for i, pc := range cfg.Producers {
		if err := checkProducer(pc); err != nil {
			return nil, fmt.Errorf("producers[%d]: %w", i, err)
		}
		if pc.Topic != "" && (c.topicBy[pc.Topic] == nil || c.topicBy[pc.Topic].group != nil) {
			return nil, fmt.Errorf("producers[%d].topic: %q is no topic of topics", i, pc.Topic)
		}
		if pc.Kind == ProducerGrpc {
			if _, err := c.proxyFor(pc.Proxy); err != nil {
				return nil, fmt.Errorf("producers[%d]: %s", i, strings.Replace(err.Error(), "gRPC consumer", "gRPC producer", 1))
			}
		}
		c.startProducer(pc)
	}
	c.events.Push(sim.Event{At: c.t.FlowStepMs, Kind: evFlow})
	return c, nil
}

// newTopicsAndGroups declares the topics and groups: format 2's lists, or format 1's one topic
// and one group (without its retry topic).
func (c *Cluster) newTopicsAndGroups(cfg Config) error {
	if len(cfg.Topics) == 0 {
		name := cfg.Topic
		if name == "" {
			name = DefaultOf("topic")
		}
		c.addTopic(name).everywhere = true
	}
	for i, tc := range cfg.Topics {
		if c.topicBy[tc.Name] != nil {
			return fmt.Errorf("topics[%d].name: %q appears twice", i, tc.Name)
		}
		c.addTopic(tc.Name).everywhere = len(tc.Brokers) == 0
	}
	if len(cfg.Groups) == 0 {
		gc := GroupConfig{Name: cfg.Group, Strategy: cfg.Strategy, Params: cfg.Params, MessageModel: cfg.MessageModel, NoRetryTopic: true, ConsumeMode: cfg.ConsumeMode}
		if gc.Name == "" {
			gc.Name = DefaultOf("group")
		}
		if _, err := c.declareGroup(gc); err != nil {
			return err
		}
		c.groups[0].topics = []*topicState{c.topics[0]}
		return nil
	}
	for i, gc := range cfg.Groups {
		if c.groupBy[gc.Name] != nil {
			return fmt.Errorf("groups[%d].name: %q appears twice", i, gc.Name)
		}
		if _, err := c.declareGroup(gc); err != nil {
			return fmt.Errorf("groups[%d]: %w", i, err)
		}
	}
	return nil
}

// declareGroup builds a group's state from its settings; a CLUSTERING group gets its retry
// topic, on no broker yet (spec §3.14: a heartbeat creates it).
func (c *Cluster) declareGroup(gc GroupConfig) (*groupState, error) {
	model := gc.MessageModel
	if model == "" {
		model = DefaultOf("messageModel")
	}
	if model != Clustering && model != Broadcasting {
		return nil, fmt.Errorf("messageModel %q: want CLUSTERING or BROADCASTING", model)
	}
	name := gc.Strategy
	if name.IsZero() {
		name = allocate.Named(DefaultOf("strategy"))
	}
	s, err := allocate.NewChoice(name, gc.Params)
	if err != nil {
		return nil, fmt.Errorf("strategy: %w", err)
	}
	from, err := ParseConsumeFromWhere(gc.ConsumeFromWhere)
	if err != nil {
		return nil, err
	}
	g := c.addGroup(&groupState{name: gc.Name, model: model, strategy: s, params: gc.Params, choice: name, from: from, maxReconsume: gc.MaxReconsumeTimes,
		orderly: gc.Orderly, orderlyLimit: gc.MaxReconsumeTimes > 0, mode: gc.ConsumeMode, popShare: -1})
	if gc.PopShareQueueNum != nil {
		g.popShare = *gc.PopShareQueueNum
	}
	if g.maxReconsume == 0 {
		g.maxReconsume = 16
	}
	if !gc.NoRetryTopic && model == Clustering {
		g.retry = c.addTopic(RetryTopic(g.name))
		g.retry.group = g
	}
	if a := gc.Autoscale; a != nil {
		if a.Min > a.Max || a.Max > MaxConsumers || a.InBelow > a.OutAbove {
			return nil, fmt.Errorf("autoscale: min %d, max %d, inBelow %d, outAbove %d: want min ≤ max ≤ %d and inBelow ≤ outAbove", a.Min, a.Max, a.InBelow, a.OutAbove, MaxConsumers)
		}
		cp := *a
		c.startAutoscaler(g, &cp)
	}
	return g, nil
}

// deadLetterTopic is g's dead-letter topic, declared at its first dead letter (spec §5.8: the
// broker creates %DLQ%<group> on demand, one queue).
func (c *Cluster) deadLetterTopic(g *groupState) *topicState {
	if g.dlq == nil {
		g.dlq = c.addTopic(DLQTopic(g.name))
		g.dlq.group, g.dlq.dlq = g, true
	}
	return g.dlq
}

// RetryTopic and DLQTopic are a group's retry and dead-letter topics' names.
func RetryTopic(group string) string { return "%RETRY%" + group }

// DLQTopic is a group's dead-letter topic's name.
func DLQTopic(group string) string { return "%DLQ%" + group }

// placeTopics gives every broker its queues of each declared topic: format 1's topic on every
// broker with its brokers[] counts; format 2's as topics[] say, a topic without a broker
// list on every broker (0 queues there: brokers[].queues).
func (c *Cluster) placeTopics(cfg Config) error {
	if len(cfg.Topics) == 0 {
		for i, bc := range cfg.Brokers {
			r, w := bc.QueueCounts()
			c.setQueueNums(c.brokers[i], c.topics[0], r, w)
		}
		return nil
	}
	for i, tc := range cfg.Topics {
		t := c.topics[i]
		if len(tc.Brokers) == 0 {
			for j, bc := range cfg.Brokers {
				q := tc.Queues
				if q == 0 {
					q = bc.Queues
				}
				r, w := countsOf(q, tc.ReadQueueNums, tc.WriteQueueNums)
				c.setQueueNums(c.brokers[j], t, r, w)
				c.brokers[j].topics[t.idx].perm = permOr(tc.Perm, PermRW)
			}
			continue
		}
		for j, tb := range tc.Brokers {
			b := c.brokerBy[tb.Name]
			if b == nil {
				return fmt.Errorf("topics[%d].brokers[%d].name: %q is no broker of brokers", i, j, tb.Name)
			}
			if b.topicOf(t) != nil {
				return fmt.Errorf("topics[%d].brokers[%d].name: %q appears twice", i, j, tb.Name)
			}
			q := tb.Queues
			if q == 0 {
				q = tc.Queues
			}
			r, w := countsOf(q, tb.ReadQueueNums, tb.WriteQueueNums)
			if tb.ReadQueueNums == 0 && tb.WriteQueueNums == 0 && tb.Queues == 0 {
				r, w = countsOf(q, tc.ReadQueueNums, tc.WriteQueueNums)
			}
			c.setQueueNums(b, t, r, w)
			b.topics[t.idx].perm = permOr(tb.Perm, permOr(tc.Perm, PermRW))
		}
	}
	return nil
}

// countsOf is read and write counts from queues and the counts that differ from it (0: queues).
func countsOf(queues, read, write int) (int, int) {
	if read == 0 {
		read = queues
	}
	if write == 0 {
		write = queues
	}
	return read, write
}

func permOr(p, def string) string {
	if p == "" {
		return def
	}
	return p
}

// startConfigured starts a consumer process of the initial state: one member of each group it
// names (format 1: of the one group, subscribing its topic or its subscription's).
func (c *Cluster) startConfigured(cfg Config, cc ConsumerConfig) error {
	if cc.ID == "" {
		return fmt.Errorf("consumers: a client id is empty")
	}
	if cc.SlowEvery < 0 || cc.SlowMs < 0 || (cc.SlowEvery > 0) != (cc.SlowMs > 0) {
		return fmt.Errorf("consumers: %s: slowEvery %d, slowMs %d: want both positive, or both 0", cc.ID, cc.SlowEvery, cc.SlowMs)
	}
	p, err := lookupClient(cc.Client)
	if err != nil {
		return fmt.Errorf("consumers: %s: %w", cc.ID, err)
	}
	var px *proxyState
	switch cc.Kind {
	case "", KindPush:
		if cc.Proxy != "" {
			// A classic client through the proxy's remoting port (assignment.go).
			if cc.ClientRebalance == nil || *cc.ClientRebalance {
				return fmt.Errorf("consumers: %s: proxy: a classic consumer through a proxy's remoting port is modelled with clientRebalance false only, which the proxy refuses (spec §8.1); for a consumer served by a proxy, say kind grpc-push", cc.ID)
			}
			vp, err := c.proxyFor(cc.Proxy)
			if err != nil {
				return fmt.Errorf("consumers: %s: %w", cc.ID, err)
			}
			if vp.local() {
				return fmt.Errorf("consumers: %s: proxy: %s is inside the brokers (mode local): a classic consumer reaches them directly", cc.ID, vp.name)
			}
			if len(cc.Groups) > 1 {
				return fmt.Errorf("consumers: %s: a consumer behind a proxy is a member of one group; give each group its own consumer", cc.ID)
			}
			c.nextViaProxy = vp.idx + 1
		}
	case KindGrpcPush, KindGrpcSimple:
		if px, err = c.proxyFor(cc.Proxy); err != nil {
			return fmt.Errorf("consumers: %s: %w", cc.ID, err)
		}
		if len(cc.Groups) > 1 {
			return fmt.Errorf("consumers: %s: a gRPC consumer is a member of one group; give each group its own consumer", cc.ID)
		}
		if cc.ClientRebalance != nil {
			return fmt.Errorf("consumers: %s: clientRebalance: a gRPC consumer does no rebalance; the proxy assigns every broker to everyone", cc.ID)
		}
	default:
		return fmt.Errorf("consumers: %s: kind: %q is none of %s", cc.ID, cc.Kind, strings.Join(ConsumerKinds, ", "))
	}
	if cc.Kind != KindGrpcSimple && (cc.AwaitDurationMs != 0 || cc.InvisibleDurationMs != 0 || cc.MaxMessageNum != 0) {
		return fmt.Errorf("consumers: %s: awaitDurationMs, invisibleDurationMs and maxMessageNum are a gRPC SimpleConsumer's (kind grpc-simple)", cc.ID)
	}
	members := cc.Groups
	if len(members) == 0 {
		m := MembershipConfig{Group: c.groups[0].name}
		if cc.Subscription != nil {
			m.Subscriptions = []SubscriptionConfig{*cc.Subscription}
		}
		members = []MembershipConfig{m}
	} else if cc.Subscription != nil {
		return fmt.Errorf("consumers: %s: subscription and groups: give its subscriptions in groups", cc.ID)
	}
	for k, m := range members {
		g := c.groupBy[m.Group]
		if g == nil {
			return fmt.Errorf("consumers: %s: groups[%d].group: %q is no group of groups", cc.ID, k, m.Group)
		}
		if c.current[memberKey{cc.ID, g.idx}] != nil {
			return fmt.Errorf("consumers: %s: groups[%d].group: %q appears twice", cc.ID, k, m.Group)
		}
		if err := checkClientStrategy(p, g.choice, g.params); err != nil {
			return fmt.Errorf("consumers: %s: client: %w", cc.ID, err)
		}
		subs, err := c.subscriptionsOf(cfg, cc.ID, m)
		if err != nil {
			return err
		}
		fromText := cc.ConsumeFromWhere
		if fromText == "" {
			fromText = g.from
		}
		from, err := ParseConsumeFromWhere(fromText)
		if err != nil {
			return fmt.Errorf("consumers: %s: %w", cc.ID, err)
		}
		if px != nil {
			if err := checkGrpcGroup(g, cc.Kind == KindGrpcSimple); err != nil {
				return fmt.Errorf("consumers: %s: %w", cc.ID, err)
			}
		}
		cs := c.startConsumer(cc.ID, cc.ConsumeRate, p, g, subs, px)
		if cc.Kind == KindGrpcSimple {
			cs.simple = newSimpleClient(cc.AwaitDurationMs, cc.InvisibleDurationMs, cc.MaxMessageNum)
		}
		cs.from = from
		cs.fixedName = cc.FixedInstanceName
		cs.brokerSide = cc.ClientRebalance != nil && !*cc.ClientRebalance
		if err := CheckAttributes("consumers: "+cc.ID+": attributes", cc.Attributes); err != nil {
			return err
		}
		cs.attrs = cc.Attributes
		cs.setListener(m, c.t.ConsumeThreads)
		cs.setSlow(cfg.Seed, cc.SlowEvery, cc.SlowMs)
		if cs.slowMs > c.t.ConsumeTimeout {
			c.schedule(cs, genClean, evCleanExpired, c.now+c.t.ConsumeTimeout)
		}
		if cc.ConsumeTimestampMs != nil {
			cs.timestamp, cs.fixedTS = *cc.ConsumeTimestampMs, true
		}
		c.markTimestamp(cs.timestamp)
	}
	return nil
}

// subscriptionsOf is what a membership subscribes: its topics (format 1: a topic not
// declared is one the run does not simulate), then its group's retry topic.
func (c *Cluster) subscriptionsOf(cfg Config, id string, m MembershipConfig) ([]subscription, error) {
	g := c.groupBy[m.Group]
	var out []subscription
	for j, sc := range m.Subscriptions {
		t := c.topicBy[sc.Topic]
		switch {
		case t != nil && t.group != nil:
			return nil, fmt.Errorf("consumers: %s: subscriptions[%d].topic: %q is a group's own topic, which RocketMQ subscribes itself", id, j, sc.Topic)
		case t == nil && len(cfg.Topics) > 0:
			return nil, fmt.Errorf("consumers: %s: subscriptions[%d].topic: %q is no topic of topics", id, j, sc.Topic)
		case t == nil:
			if err := CheckName("consumers: "+id+": subscription.topic", sc.Topic, TopicName); err != nil {
				return nil, err
			}
			t = c.addTopic(sc.Topic)
			t.unsimulated, t.everywhere = true, true
			for _, b := range c.brokers {
				c.setQueueNums(b, t, 0, 0)
			}
		}
		if slices.ContainsFunc(out, func(s subscription) bool { return s.t == t }) {
			return nil, fmt.Errorf("consumers: %s: subscriptions[%d].topic: %q appears twice", id, j, sc.Topic)
		}
		out = append(out, subscription{t: t, tags: slices.Clone(sc.Tags)})
	}
	if len(out) == 0 {
		out = append(out, subscription{t: c.topics[0]})
	}
	if g.retry != nil {
		out = append(out, subscription{t: g.retry})
	}
	return out, nil
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
		for _, bt := range b.topics {
			if bt == nil {
				continue
			}
			// Written interleaved, queue by queue: message 0 of every queue sits near the log's
			// start. Only write queues were ever written.
			for q := range bt.writeQ {
				bt.qs[q].firstPos = b.logCount + int64(q)
				bt.qs[q].maxOffset = h.Messages
				bt.qs[q].minOffset = h.Deleted
				for _, bg := range b.groups {
					bg.offsets[bt.t.idx][q].frontier = h.Deleted
				}
			}
			b.logCount += h.Messages * int64(bt.writeQ)
		}
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
			for _, bt := range b.topics {
				if bt != nil {
					for _, q := range bt.qs {
						offs = append(offs, q.maxOffset)
					}
				}
			}
		}
		c.markOffset = append(c.markOffset, offs)
	}
}

// searchOffset is SEARCH_OFFSET_BY_TIMESTAMP with boundary LOWER: the first message stored at
// or after ts, or the max offset if there is none (spec §3.6). Messages before 00:00 were
// produced evenly over the history's span.
func (c *Cluster) searchOffset(b *broker, t *topicState, q int32, ts int64) int64 {
	bq := b.topics[t.idx].qs[q]
	h := c.history
	if ts < 0 && h.Messages > 0 {
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
		for _, bt := range x.topics {
			if x == b && bt != nil && bt.t == t {
				break
			}
			if bt != nil {
				pos += len(bt.qs)
			}
		}
		if x == b {
			break
		}
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
		if cs := c.consumers[e.A]; cs.gen[genRebalance] == e.B && cs.simple.on {
			c.simpleStart(cs) // a SimpleConsumer has no assignments: its loop starts
		} else if cs.gen[genRebalance] == e.B && cs.grpc {
			c.scanAssignments(cs)
			c.schedule(cs, genRebalance, evRebalance, c.now+grpcScanEveryMs)
		} else if cs.gen[genRebalance] == e.B {
			c.rebalance(cs)
		}
	case evHeartbeat:
		if cs := c.consumers[e.A]; cs.gen[genHeartbeat] == e.B && cs.grpc {
			c.grpcHeartbeat(cs)
			c.schedule(cs, genHeartbeat, evHeartbeat, c.now+grpcHeartbeatMs)
		} else if cs.gen[genHeartbeat] == e.B {
			c.heartbeatAll(cs, 0)
			c.schedule(cs, genHeartbeat, evHeartbeat, c.now+c.t.HeartbeatInterval)
		}
	case evRoute:
		if cs := c.consumers[e.A]; cs.gen[genRoute] == e.B {
			for _, m := range cs.peers {
				c.refreshConsumerRoute(m)
			}
			c.schedule(cs, genRoute, evRoute, c.now+c.t.PollNameServerInterval)
		}
	case evPersist:
		if cs := c.consumers[e.A]; cs.gen[genPersist] == e.B {
			c.persistInstance(cs)
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
	case evCleanExpired:
		if cs := c.consumers[e.A]; cs.gen[genClean] == e.B {
			c.cleanExpired(cs)
			c.schedule(cs, genClean, evCleanExpired, c.now+c.t.ConsumeTimeout)
		}
	case evLockRenew:
		if cs := c.consumers[e.A]; cs.gen[genLock] == e.B && !cs.dead && cs.locks() {
			c.renewLocks(cs)
			c.schedule(cs, genLock, evLockRenew, c.now+lockRenewEvery)
		}
	case evAutoscale:
		c.autoscale(c.groups[e.A], e.B)
	case evHeartbeatArrive:
		// A heartbeat on its way reaches its broker; one from a process that has died or
		// been cut off since is lost with it.
		if cs, b := c.consumers[e.A], c.brokers[e.B]; !cs.dead && !cs.partitioned && !b.down {
			c.heartbeatInstance(b, cs)
		}
	case evBrokerFlush:
		if b := c.brokers[e.A]; b.flushGen == e.B && !b.down {
			b.flushOffsets()
			c.events.Push(sim.Event{At: c.now + c.t.PersistOffsetInterval, Kind: evBrokerFlush, A: e.A, B: e.B})
		}
	case evProxyRenew:
		if px := c.proxies[e.A]; px.gen == e.B && !px.down {
			c.proxyRenewHandles(px)
			c.events.Push(sim.Event{At: c.now + proxyRenewEveryMs, Kind: evProxyRenew, A: e.A, B: e.B})
		}
	case evProxyScan:
		if px := c.proxies[e.A]; px.gen == e.B && !px.down {
			c.proxyExpire(px)
			c.events.Push(sim.Event{At: c.now + proxyScanEveryMs, Kind: evProxyScan, A: e.A, B: e.B})
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

// emitMember is emitf for an event about member cs: its group (when the run has several) and
// its client id come with it.
func (c *Cluster) emitMember(cs *consumer, kind, cause, broker, format string, args ...any) {
	c.emit(Event{Kind: kind, Cause: cause, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: broker,
		Text: fmt.Sprintf(format, args...)})
}

// groupName is cs's group's name when the run has several groups ("" with one).
func (c *Cluster) groupName(cs *consumer) string {
	if len(c.groups) > 1 {
		return cs.g.name
	}
	return ""
}

// who names member cs in the log: its client id, and its group when the run has several
// ("10.0.0.5@4711 in GID_B").
func (c *Cluster) who(cs *consumer) string {
	if len(c.groups) > 1 {
		return cs.cid + " in " + cs.g.name
	}
	return cs.cid
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
		if !b.down && !b.removed {
			out = append(out, b)
		}
	}
	slices.SortFunc(out, func(a, b *broker) int { return route.CompareJava(a.name, b.name) })
	return out
}

// A topic's queue lists in the name server's route, each sorted in MessageQueue order
// (permissions are read-write): the publish list, write queues 0…writeQueueNums−1 of every
// live broker sorted by name, and the subscribe set, read queues 0…readQueueNums−1 (spec
// §1.3); all is every queue a live broker has, either kind; brokers are the live brokers the
// route lists, sorted by name.

// publishQueues is the publish list producers of t build from the route.
func (c *Cluster) publishQueues(t *topicState) []route.MessageQueue { return c.routeLists(t).publish }

// subscribeQueues is the subscribe set consumers of t rebalance over.
func (c *Cluster) subscribeQueues(t *topicState) []route.MessageQueue {
	return c.routeLists(t).subscribe
}

// allQueues is every queue of t on every live broker.
func (c *Cluster) allQueues(t *topicState) []route.MessageQueue { return c.routeLists(t).all }

type routeLists struct {
	publish, subscribe, all []route.MessageQueue
	brokers                 []string
}

func (c *Cluster) routeLists(t *topicState) routeLists {
	if t.routeCache.all != nil && t.routeCacheVersion == t.routeVersion {
		return t.routeCache // shared, read-only
	}
	l := routeLists{publish: []route.MessageQueue{}, subscribe: []route.MessageQueue{}, all: []route.MessageQueue{}, brokers: []string{}}
	for _, b := range c.liveBrokers() {
		bt := b.topicOf(t)
		if bt == nil {
			continue
		}
		// The publish list takes a broker's write queues when it may be written, the
		// subscribe set its read queues when it may be read (spec §1.3).
		perm := b.permOf(bt)
		l.brokers = append(l.brokers, b.name)
		for id := range bt.queues {
			mq := route.MessageQueue{Topic: t.name, BrokerName: b.name, QueueID: int32(id)}
			l.all = append(l.all, mq)
			if id < bt.writeQ && perm&route.PermWrite != 0 {
				l.publish = append(l.publish, mq)
			}
			if id < bt.readQ && perm&route.PermRead != 0 {
				l.subscribe = append(l.subscribe, mq)
			}
		}
	}
	t.routeCache, t.routeCacheVersion = l, t.routeVersion
	return l
}
