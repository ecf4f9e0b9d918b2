package scenario

import (
	"fmt"
	"strconv"

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
		return checkClient(p, c.Consumers[i], c.Strategy, c.Params)
	case "producers[].id":
		return r.unique(p, "producers", "id", "ids", i, c.Producers[i].ID)
	case "producers[].keys.prefix":
		if n := len(c.Producers[i].Keys.Prefix); n > MaxNameLen {
			return fmt.Errorf("%s.prefix: %d bytes; the limit is %d", p, n, MaxNameLen)
		}
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
