package scenario

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
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
	if field := NeedsVersion2(s.Config); field != "" && s.Version < Version2 {
		return fmt.Errorf("%s: a setting of scenario format %d; this file says \"version\": %d", field, Version2, s.Version)
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

// validateConfig checks the initial state against the field table (cluster.CheckFields:
// each setting's limits, in the table's order) and the rules the table cannot state, each
// run right after its field's own check.
func validateConfig(c cluster.Config) error {
	r := configRules{c: c, seen: map[string]map[string]int{}}
	return cluster.CheckFields(c, r.check)
}

// configRules are the checks of the initial state beyond each field's limits, by the field
// they follow (its path in the field table): names unique within their list, fields that go
// together, and the settings whose values another table (the profiles, the strategies) holds.
type configRules struct {
	c    cluster.Config
	seen map[string]map[string]int // by list: the index of each name seen
}

func (r *configRules) check(field, p string, i int) error {
	c := &r.c
	switch field {
	case "topics":
		if len(c.Topics) > 0 && c.Topic != "" {
			return fmt.Errorf("topic and topics: with topics, name every topic there")
		}
	case "topics[].name":
		return r.unique(p, "topics", "name", "names", i, c.Topics[i].Name)
	case "groups":
		if len(c.Groups) > 0 {
			switch {
			case c.Group != "":
				return fmt.Errorf("group and groups: with groups, name every group there")
			case !c.Strategy.IsZero() || c.MessageModel != "" || !reflect.ValueOf(c.Params).IsZero():
				return fmt.Errorf("groups: strategy, params and messageModel are each group's with groups: give them in groups[]")
			}
		}
	case "groups[].name":
		return r.unique(p, "groups", "name", "names", i, c.Groups[i].Name)
	case "groups[].strategy":
		return cluster.CheckChoice(p+".strategy", p+".params", c.Groups[i].Strategy, c.Groups[i].Params)
	case "groups[].autoscale.prefix":
		if a := c.Groups[i].Autoscale; a.Min > a.Max || a.InBelow > a.OutAbove {
			return fmt.Errorf("%s: min %d, max %d, inBelow %d, outAbove %d; want min ≤ max and inBelow ≤ outAbove", p, a.Min, a.Max, a.InBelow, a.OutAbove)
		}
	case "consumers[].groups":
		if k := c.Consumers[i]; len(k.Groups) > 0 && k.Subscription != nil {
			return fmt.Errorf("%s.subscription and groups: give its subscriptions in groups[].subscriptions", p)
		}
		return r.memberships(p, c.Consumers[i])
	case "producers[].topic":
		if t := c.Producers[i].Topic; t != "" && !r.topicExists(t) {
			return fmt.Errorf("%s.topic: %q is no topic of %s", p, t, r.topicsText())
		}
	case "brokers[].name":
		return r.unique(p, "brokers", "name", "names", i, c.Brokers[i].Name)
	case "brokers":
		if len(c.Brokers) == 0 {
			return fmt.Errorf("brokers: none; a topic needs at least 1 broker")
		}
		total := 0
		for _, b := range c.Brokers {
			total += brokerQueues(b)
		}
		if total > MaxQueues {
			return fmt.Errorf("brokers: %d queues in all; the limit is %d", total, MaxQueues)
		}
	case "consumers[].id":
		// Two processes with one client id are a real misconfiguration (spec §1.2); the
		// simulator shows it by restarting a partitioned consumer, not through the config.
		return r.unique(p, "consumers", "id", "ids", i, c.Consumers[i].ID)
	case "consumers[].slowMs":
		k := c.Consumers[i]
		if (k.SlowEvery > 0) != (k.SlowMs > 0) {
			return fmt.Errorf("%s.slowEvery, slowMs: %d, %d; a slow message needs both, or neither", p, k.SlowEvery, k.SlowMs)
		}
		// Before consumeTimestampMs's own limits, the next field's: a timestamp that does not
		// apply is named as such, whatever its value.
		if from, _ := cluster.ParseConsumeFromWhere(k.ConsumeFromWhere); k.ConsumeTimestampMs != nil && from != cluster.FromTimestamp {
			return fmt.Errorf("%s.consumeTimestampMs: set, but consumeFromWhere is %s; it applies to TIMESTAMP only", p, from)
		}
	case "consumers[].attributes":
		return cluster.CheckAttributes(p+".attributes", c.Consumers[i].Attributes)
	case "consumers[].client":
		k := c.Consumers[i]
		if len(c.Groups) == 0 {
			return checkClient(p, k, c.Strategy, c.Params)
		}
		for _, m := range k.Groups {
			for _, g := range c.Groups {
				if g.Name == m.Group {
					if err := checkClient(p, k, g.Strategy, g.Params); err != nil {
						return err
					}
				}
			}
		}
	case "producers[].id":
		return r.unique(p, "producers", "id", "ids", i, c.Producers[i].ID)
	case "producers[].keys.prefix":
		if n := len(c.Producers[i].Keys.Prefix); n > MaxNameLen {
			return fmt.Errorf("%s.prefix: %d bytes; the limit is %d", p, n, MaxNameLen)
		}
	case "producers[].selector":
		return cluster.CheckSelector(p+".selector", c.Producers[i])
	case "producers[].client":
		// How it sends, once its own fields are checked: threads go with sync sends only.
		if pr := c.Producers[i]; pr.Mode == cluster.SendAsync && pr.Threads > 1 {
			return fmt.Errorf("%s.threads: %d; an async producer's sends do not block, so threads applies to mode %s only", p, pr.Threads, cluster.SendSync)
		}
		return checkProducerClient(p, c.Producers[i])
	case "strategy":
		return cluster.CheckChoice("strategy", "params", c.Strategy, c.Params)
	}
	return nil
}

// memberships checks a consumer's memberships: each of a group of groups (or the one group),
// at most once, subscribing topics of topics (or the one topic), each at most once, none of
// them a group's retry or dead-letter topic.
func (r *configRules) memberships(p string, k cluster.ConsumerConfig) error {
	seen := map[string]int{}
	for j, m := range k.Groups {
		at := fmt.Sprintf("%s.groups[%d]", p, j)
		if !r.groupExists(m.Group) {
			return fmt.Errorf("%s.group: %q is no group of %s", at, m.Group, r.groupsText())
		}
		if prev, dup := seen[m.Group]; dup {
			return fmt.Errorf("%s.group: %q is also %s.groups[%d].group; a process is a member of a group once", at, m.Group, p, prev)
		}
		seen[m.Group] = j
		topics := map[string]int{}
		for n, sc := range m.Subscriptions {
			sp := fmt.Sprintf("%s.subscriptions[%d].topic", at, n)
			if strings.HasPrefix(sc.Topic, "%RETRY%") || strings.HasPrefix(sc.Topic, "%DLQ%") {
				return fmt.Errorf("%s: %q is a group's own topic, which RocketMQ subscribes (the retry topic) or nobody reads (the DLQ)", sp, sc.Topic)
			}
			if !r.topicExists(sc.Topic) {
				return fmt.Errorf("%s: %q is no topic of %s", sp, sc.Topic, r.topicsText())
			}
			if prev, dup := topics[sc.Topic]; dup {
				return fmt.Errorf("%s: %q is also %s.subscriptions[%d].topic; a membership subscribes a topic once", sp, sc.Topic, at, prev)
			}
			topics[sc.Topic] = n
		}
	}
	return nil
}

// topicExists reports whether name is a topic of the cluster: of topics, or the one topic.
func (r *configRules) topicExists(name string) bool {
	if len(r.c.Topics) == 0 {
		return name == cmp.Or(r.c.Topic, cluster.DefaultOf("topic"))
	}
	return slices.ContainsFunc(r.c.Topics, func(t cluster.TopicConfig) bool { return t.Name == name })
}

func (r *configRules) topicsText() string {
	if len(r.c.Topics) == 0 {
		return "the cluster (" + cmp.Or(r.c.Topic, cluster.DefaultOf("topic")) + ")"
	}
	var names []string
	for _, t := range r.c.Topics {
		names = append(names, t.Name)
	}
	return "topics (" + strings.Join(names, ", ") + ")"
}

// groupExists reports whether name is a group of the cluster: of groups, or the one group.
func (r *configRules) groupExists(name string) bool {
	if len(r.c.Groups) == 0 {
		return name == cmp.Or(r.c.Group, cluster.DefaultOf("group"))
	}
	return slices.ContainsFunc(r.c.Groups, func(g cluster.GroupConfig) bool { return g.Name == name })
}

func (r *configRules) groupsText() string {
	if len(r.c.Groups) == 0 {
		return "the cluster (" + cmp.Or(r.c.Group, cluster.DefaultOf("group")) + ")"
	}
	var names []string
	for _, g := range r.c.Groups {
		names = append(names, g.Name)
	}
	return "groups (" + strings.Join(names, ", ") + ")"
}

// unique is the rule that no two elements of a list share a name: "consumers[2].id: "c1" is
// also consumers[0].id; ids must be unique".
func (r *configRules) unique(p, list, field, plural string, i int, name string) error {
	seen := r.seen[list]
	if seen == nil {
		seen = map[string]int{}
		r.seen[list] = seen
	}
	if j, dup := seen[name]; dup {
		return fmt.Errorf("%s.%s: %q is also %s[%d].%s; %s must be unique", p, field, name, list, j, field, plural)
	}
	seen[name] = i
	return nil
}

// MaxSlowEvery bounds a consumer's slowEvery.
const MaxSlowEvery = cluster.MaxSlowEvery

// MaxHistory bounds the messages per queue a topic may hold at 00:00.
const MaxHistory = cluster.MaxHistory

// checkProducerClient checks the SDK a producer runs, and that it takes the tiers given.
func checkProducerClient(p string, pr cluster.ProducerConfig) error {
	if pr.Client == "" {
		return nil
	}
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
	return nil
}

func checkStrategy(path, paramsPath, name string, p allocate.Params) error {
	return cluster.CheckStrategy(path, paramsPath, name, p)
}

// checkTable checks a latency fault table's name against the field table's values.
func checkTable(path, t string) error {
	f, _ := cluster.Field("faultTable")
	return f.Check(path, t)
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
