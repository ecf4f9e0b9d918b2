package scenario

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/profile"
)

// Limits of a scenario. They bound the work a file (possibly a stranger's, opened in a
// browser) can ask for, and are checked before anything is built.
// The cluster's are the command table's (cluster.Max*), the same at every door.
const (
	MaxBrokers        = cluster.MaxBrokers
	MaxQueues         = cluster.MaxQueues
	MaxConsumers      = cluster.MaxConsumers
	MaxProducers      = cluster.MaxProducers
	MaxSteps          = 2000
	MaxRate           = cluster.MaxRate
	MaxConsumeRate    = cluster.MaxConsumeRate
	MaxLatencyMs      = cluster.MaxLatencyMs
	MaxNameLen        = cluster.MaxNameLen
	MaxVirtualNodeCnt = cluster.MaxVirtualNodeCnt
	MaxRooms          = cluster.MaxRooms
)

// Character sets of names: the command table's (cluster.Charset).
var (
	plainName  = cluster.PlainName
	brokerName = cluster.BrokerName
	clientID   = cluster.ClientIDName
)

// Validate checks every limit and rule of the format; each error names the field path and the
// limit, e.g. "timeline[3].latencyMs: 700000; want 0…600000". It is the one check for
// scenarios parsed from files and built in Go alike, and returns the first problem found, in
// the order of the file's fields.
func (s Scenario) Validate() error {
	if err := checkVersion(s.Version); err != nil {
		return err
	}
	if err := validateConfig(s.Config); err != nil {
		return err
	}
	if s.Until < 0 || s.Until > MaxDuration {
		return fmt.Errorf("until: %s; want 0s…24h", s.Until)
	}
	if err := validateTimeline(s); err != nil {
		return err
	}
	return validateObserved(s)
}

func validateConfig(c cluster.Config) error {
	if c.Topic != "" {
		if err := checkName("topic", c.Topic, cluster.TopicName); err != nil {
			return err
		}
	}
	if c.Group != "" {
		if err := checkName("group", c.Group, cluster.GroupName); err != nil {
			return err
		}
	}

	switch n := len(c.Brokers); {
	case n == 0:
		return fmt.Errorf("brokers: none; a topic needs at least 1 broker")
	case n > MaxBrokers:
		return fmt.Errorf("brokers: %d brokers; the limit is %d", n, MaxBrokers)
	}
	seen := map[string]int{}
	total := 0
	for i, b := range c.Brokers {
		p := "brokers[" + strconv.Itoa(i) + "]"
		if err := checkName(p+".name", b.Name, brokerName); err != nil {
			return err
		}
		if j, dup := seen[b.Name]; dup {
			return fmt.Errorf("%s.name: %q is also brokers[%d].name; names must be unique", p, b.Name, j)
		}
		seen[b.Name] = i
		if err := checkRange(p+".queues", b.Queues, 0, MaxQueues); err != nil {
			return err
		}
		// Read and write counts that differ (spec §1.3); 0 takes queues.
		if err := checkRange(p+".readQueueNums", b.ReadQueueNums, 0, MaxQueues); err != nil {
			return err
		}
		if err := checkRange(p+".writeQueueNums", b.WriteQueueNums, 0, MaxQueues); err != nil {
			return err
		}
		if err := checkRange(p+".latencyMs", b.LatencyMs, 0, MaxLatencyMs); err != nil {
			return err
		}
		if b.MemoryMessages < 0 || b.MemoryMessages > MaxHistory*MaxQueues {
			return fmt.Errorf("%s.memoryMessages: %d; want 0…%d", p, b.MemoryMessages, int64(MaxHistory*MaxQueues))
		}
		total += brokerQueues(b)
	}
	if total > MaxQueues {
		return fmt.Errorf("brokers: %d queues in all; the limit is %d", total, MaxQueues)
	}

	if n := len(c.Consumers); n > MaxConsumers {
		return fmt.Errorf("consumers: %d consumers; the limit is %d", n, MaxConsumers)
	}
	seen = map[string]int{}
	for i, k := range c.Consumers {
		p := "consumers[" + strconv.Itoa(i) + "]"
		if err := checkName(p+".id", k.ID, clientID); err != nil {
			return err
		}
		// Two processes with one client id are a real misconfiguration (spec §1.2); the
		// simulator shows it by restarting a partitioned consumer, not through the config.
		if j, dup := seen[k.ID]; dup {
			return fmt.Errorf("%s.id: %q is also consumers[%d].id; ids must be unique", p, k.ID, j)
		}
		seen[k.ID] = i
		if err := checkRange(p+".consumeRate", k.ConsumeRate, 0, MaxConsumeRate); err != nil {
			return err
		}
		if err := checkConsumeFrom(p, k); err != nil {
			return err
		}
		if k.Subscription != nil {
			if err := checkName(p+".subscription.topic", k.Subscription.Topic, cluster.TopicName); err != nil {
				return err
			}
		}
		if err := checkClient(p, k, c.Strategy, c.Params); err != nil {
			return err
		}
	}

	if n := len(c.Producers); n > MaxProducers {
		return fmt.Errorf("producers: %d producers; the limit is %d", n, MaxProducers)
	}
	seen = map[string]int{}
	for i, pr := range c.Producers {
		p := "producers[" + strconv.Itoa(i) + "]"
		if err := checkName(p+".id", pr.ID, plainName); err != nil {
			return err
		}
		if j, dup := seen[pr.ID]; dup {
			return fmt.Errorf("%s.id: %q is also producers[%d].id; ids must be unique", p, pr.ID, j)
		}
		seen[pr.ID] = i
		if err := checkRange(p+".rate", pr.Rate, 0, MaxRate); err != nil {
			return err
		}
		if err := checkProducerSends(p, pr); err != nil {
			return err
		}
	}

	if err := checkHistory(c.History); err != nil {
		return err
	}
	if err := checkStrategy("strategy", "params", c.Strategy, c.Params); err != nil {
		return err
	}
	if c.MessageModel != "" {
		if err := checkModel("messageModel", c.MessageModel); err != nil {
			return err
		}
	}
	if c.FaultTable != "" {
		if err := checkTable("faultTable", c.FaultTable); err != nil {
			return err
		}
	}
	return checkTiming(c.Timing)
}

// MaxSlowEvery bounds a consumer's slowEvery.
const MaxSlowEvery = 1 << 30

// MaxHistory bounds the messages per queue a topic may hold at 00:00.
const MaxHistory = 1000000000

// checkConsumeFrom checks where a consumer starts (spec §3.6).
func checkConsumeFrom(p string, k cluster.ConsumerConfig) error {
	from, err := cluster.ParseConsumeFromWhere(k.ConsumeFromWhere)
	if err != nil {
		return fmt.Errorf("%s.consumeFromWhere: %s; want LAST_OFFSET, FIRST_OFFSET or TIMESTAMP (CONSUME_FROM_ may precede them)", p, quote(k.ConsumeFromWhere))
	}
	if k.SlowEvery < 0 || k.SlowEvery > MaxSlowEvery {
		return fmt.Errorf("%s.slowEvery: %d; want 0…%d", p, k.SlowEvery, int64(MaxSlowEvery))
	}
	if k.SlowMs < 0 || k.SlowMs > int64(MaxDuration) {
		return fmt.Errorf("%s.slowMs: %d; want 0…%d (24 h)", p, k.SlowMs, int64(MaxDuration))
	}
	if (k.SlowEvery > 0) != (k.SlowMs > 0) {
		return fmt.Errorf("%s.slowEvery, slowMs: %d, %d; a slow message needs both, or neither", p, k.SlowEvery, k.SlowMs)
	}
	if ts := k.ConsumeTimestampMs; ts != nil {
		if from != cluster.FromTimestamp {
			return fmt.Errorf("%s.consumeTimestampMs: set, but consumeFromWhere is %s; it applies to TIMESTAMP only", p, from)
		}
		if *ts < -int64(MaxDuration) || *ts > int64(MaxDuration) {
			return fmt.Errorf("%s.consumeTimestampMs: %d; want -%d…%d (24 h either side of 00:00)", p, *ts, int64(MaxDuration), int64(MaxDuration))
		}
	}
	return nil
}

// checkHistory checks the messages a topic holds at 00:00.
func checkHistory(h *cluster.HistoryConfig) error {
	if h == nil {
		return nil
	}
	if h.Messages < 0 || h.Messages > MaxHistory {
		return fmt.Errorf("history.messages: %d; want 0…%d per queue", h.Messages, int64(MaxHistory))
	}
	if h.Deleted < 0 || h.Deleted > h.Messages {
		return fmt.Errorf("history.deleted: %d; want 0…%d (history.messages)", h.Deleted, h.Messages)
	}
	if h.SpanMs < 0 || h.SpanMs > int64(MaxDuration) {
		return fmt.Errorf("history.spanMs: %d; want 0…%d (24 h; 0 means one hour)", h.SpanMs, int64(MaxDuration))
	}
	return nil
}

// checkProducerSends checks how a producer sends: its mode and its threads.
func checkProducerSends(p string, pr cluster.ProducerConfig) error {
	switch pr.Mode {
	case "", cluster.SendSync, cluster.SendAsync:
	default:
		return fmt.Errorf("%s.mode: %s; want %s or %s", p, quote(pr.Mode), cluster.SendSync, cluster.SendAsync)
	}
	if err := checkRange(p+".threads", pr.Threads, 0, cluster.MaxSendThreads); err != nil {
		return err
	}
	for _, tier := range []struct {
		name string
		v    []int64
	}{{"latencyMax", pr.LatencyMax}, {"notAvailableDuration", pr.NotAvailableDuration}} {
		// The client takes any array (spec §2.12); the bounds only keep the arithmetic finite.
		if len(tier.v) > cluster.MaxTiers {
			return fmt.Errorf("%s.%s: %d entries; the limit is %d", p, tier.name, len(tier.v), cluster.MaxTiers)
		}
		for i, v := range tier.v {
			if v < -int64(MaxDuration) || v > int64(MaxDuration) {
				return fmt.Errorf("%s.%s[%d]: %d; want -%d…%d (24 h either way)", p, tier.name, i, v, int64(MaxDuration), int64(MaxDuration))
			}
		}
	}
	if k := pr.Keys; k != nil {
		if err := checkRange(p+".keys.count", k.Count, 1, cluster.MaxKeys); err != nil {
			return err
		}
		if err := checkRange(p+".keys.hotShare", k.HotShare, 0, 100); err != nil {
			return err
		}
		if len(k.Prefix) > MaxNameLen {
			return fmt.Errorf("%s.keys.prefix: %d bytes; the limit is %d", p, len(k.Prefix), MaxNameLen)
		}
	}
	if pr.Mode == cluster.SendAsync && pr.Threads > 1 {
		return fmt.Errorf("%s.threads: %d; an async producer's sends do not block, so threads applies to mode %s only", p, pr.Threads, cluster.SendSync)
	}
	if pr.Client != "" {
		if len(pr.Client) > MaxNameLen {
			return fmt.Errorf("%s.client: %d characters; the limit is %d", p, len(pr.Client), MaxNameLen)
		}
		prof, err := profile.Lookup(pr.Client)
		if err != nil {
			return fmt.Errorf("%s.client: %w", p, err)
		}
		if prof.Producer.Fault == nil && (pr.LatencyMax != nil || pr.NotAvailableDuration != nil) {
			return fmt.Errorf("%s: latencyMax/notAvailableDuration: a %s producer has no latency fault tolerance (spec §9.1.8)", p, prof.Name)
		}
	}
	return nil
}

// timingLimits are the upper bounds of Timing's counts and of its step size; every other
// integer field of Timing is milliseconds, 0…24h. Found by reflection so that a field the
// engine adds is bounded too.
var timingLimits = map[string]int64{
	"pullBatchSize":            1024,
	"pullThresholdForQueue":    1000000,
	"consumeThreads":           1000,
	"consumeRate":              MaxConsumeRate,
	"retryTimesWhenSendFailed": 16,
	"flowStepMs":               1000,
}

func checkTiming(t cluster.Timing) error {
	v := reflect.ValueOf(t)
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" {
			name = f.Name
		}
		var n int64
		switch f.Type.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n = v.Field(i).Int()
		default:
			continue
		}
		limit, ok := timingLimits[name]
		if !ok {
			limit = int64(MaxDuration)
		}
		if n < 0 || n > limit {
			return fmt.Errorf("timing.%s: %d; want 0…%d", name, n, limit)
		}
	}
	return nil
}

func checkStrategy(path, paramsPath, name string, p allocate.Params) error {
	return cluster.CheckStrategy(path, paramsPath, name, p)
}

func checkModel(path, m string) error {
	if m != cluster.Clustering && m != cluster.Broadcasting {
		return fmt.Errorf("%s: %s; want %s or %s", path, quote(m), cluster.Clustering, cluster.Broadcasting)
	}
	return nil
}

func checkTable(path, t string) error {
	if t != fault.TableCurrent && t != fault.TableLegacy4x {
		return fmt.Errorf("%s: %s; want %s or %s", path, quote(t), fault.TableCurrent, fault.TableLegacy4x)
	}
	return nil
}

func validateTimeline(s Scenario) error {
	if n := len(s.Timeline); n > MaxSteps {
		return fmt.Errorf("timeline: %d steps; the limit is %d", n, MaxSteps)
	}
	end := s.End()
	// What the timeline adds counts against the same limits as the initial state.
	queues := map[string]int{}
	total := 0
	for _, b := range s.Brokers {
		queues[b.Name] = brokerQueues(b)
		total += brokerQueues(b)
	}
	consumers := map[string]bool{}
	for _, k := range s.Consumers {
		consumers[k.ID] = true
	}
	for i, st := range s.Timeline {
		p := "timeline[" + strconv.Itoa(i) + "]"
		if st.At < 0 || st.At > MaxDuration {
			return fmt.Errorf("%s.at: %s; want 0s…24h", p, st.At)
		}
		// Rejected rather than sorted: a file whose steps are out of order is most likely
		// mistyped, and sorting would hide which step the author meant.
		if i > 0 && st.At < s.Timeline[i-1].At {
			return fmt.Errorf("%s.at: %s is before timeline[%d].at (%s); steps must be in time order", p, st.At, i-1, s.Timeline[i-1].At)
		}
		if st.At > end {
			return fmt.Errorf("%s.at: %s is after until (%s); the step would never run", p, st.At, end)
		}
		if err := validateCommand(p, st.Command); err != nil {
			return err
		}
		g := cluster.GrowthOf(st.Command)
		// An unknown broker is the engine's to report when the step runs, unless the step
		// adds it.
		if old, known := queues[g.Broker]; g.SetsQueues && (known || g.AddsBroker) {
			if !known && len(queues) >= MaxBrokers {
				return fmt.Errorf("%s.broker: the topic would have %d brokers; the limit is %d", p, len(queues)+1, MaxBrokers)
			}
			if total-old+g.Queues > MaxQueues {
				return fmt.Errorf("%s.queues: the topic would have %d queues in all; the limit is %d", p, total-old+g.Queues, MaxQueues)
			}
			queues[g.Broker] = g.Queues
			total += g.Queues - old
		}
		if g.AddsMember {
			if !consumers[g.Member] && len(consumers) >= MaxConsumers {
				return fmt.Errorf("%s.id: the group would have %d consumers; the limit is %d", p, len(consumers)+1, MaxConsumers)
			}
			consumers[g.Member] = true
		}
	}
	return nil
}

// CommandNames is every command type, sorted.
func CommandNames() []string { return cluster.CommandNames() }

// validateCommand checks one command against the command table: a known type, its required
// arguments present, no argument it does not take, and every value in range.
func validateCommand(path string, c cluster.Command) error {
	return cluster.CheckCommand(path, c)
}

// needs is "slowBroker needs broker and latencyMs", "addConsumer needs id (consumeRate
// optional)", "setFaultTable needs table".
func needs(typ string) string {
	s, _ := cluster.Lookup(typ)
	return s.Needs()
}

func unknownCommand(path, typ string) error { return cluster.UnknownCommand(path, typ) }

func checkRange(path string, v, lo, hi int) error { return cluster.CheckRange(path, v, lo, hi) }

// checkName checks a name: present, within the set's length limit, all from the set.
// brokerQueues is how many queues a broker has: the larger of its read and write counts.
func brokerQueues(b cluster.BrokerConfig) int {
	r, w := b.QueueCounts()
	return max(r, w)
}

func checkName(path, v string, set cluster.Charset) error { return cluster.CheckName(path, v, set) }

// quote is %q, shortened for long values so that an error stays one readable line.
func quote(s string) string { return cluster.Quote(s) }

// CheckClientID reports whether id is a valid consumer id of a scenario, so that a scenario
// built from elsewhere (an imported cluster) can rename the ids that are not.
func CheckClientID(id string) error { return checkName("id", id, clientID) }
