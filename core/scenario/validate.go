package scenario

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
)

// Limits of a scenario. They bound the work a file (possibly a stranger's, opened in a
// browser) can ask for, and are checked before anything is built.
const (
	MaxBrokers        = 64
	MaxQueues         = 4096 // per broker and for the whole topic
	MaxConsumers      = 512
	MaxProducers      = 64
	MaxSteps          = 2000
	MaxRate           = 100000  // messages per second of one producer
	MaxConsumeRate    = 1000000 // messages per second of one consumer
	MaxLatencyMs      = 600000  // extra send latency of a slow broker
	MaxNameLen        = 64
	MaxVirtualNodeCnt = 1000
	MaxRooms          = 64 // MACHINE_ROOM consumeridcs
)

// Character sets of names. RocketMQ allows letters, digits and % | - _ in topic and group
// names; broker names also take @ and . (MACHINE_ROOM reads "room@broker"); client ids are
// "ip@instance[@unit]" and "ip@pid#nanotime" (spec §1.2), hence also # and :.
type charset struct {
	extra string // besides letters and digits
	text  string // how an error lists it
}

var (
	plainName  = charset{"%|_-", "letters, digits and % | _ -"}
	brokerName = charset{"%|_-@.", "letters, digits and % | _ - @ ."}
	clientID   = charset{".@#:_%|-", "letters, digits and . @ # : _ % | -"}
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
	return validateTimeline(s)
}

func validateConfig(c cluster.Config) error {
	if c.Topic != "" {
		if err := checkName("topic", c.Topic, plainName); err != nil {
			return err
		}
	}
	if c.Group != "" {
		if err := checkName("group", c.Group, plainName); err != nil {
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
		if err := checkRange(p+".latencyMs", b.LatencyMs, 0, MaxLatencyMs); err != nil {
			return err
		}
		total += b.Queues
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
	if err := checkParams(paramsPath, p); err != nil {
		return err
	}
	if name == "" {
		name = "AVG" // RocketMQ's default (spec §0)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("%s: %s is %d characters long; the limit is %d", path, quote(name), len(name), MaxNameLen)
	}
	if _, err := allocate.New(name, p); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

func checkParams(path string, p allocate.Params) error {
	if p.VirtualNodeCnt != nil {
		if err := checkRange(path+".virtualNodeCnt", *p.VirtualNodeCnt, 0, MaxVirtualNodeCnt); err != nil {
			return err
		}
	}
	if p.InnerVirtualNodeCnt != nil {
		if err := checkRange(path+".innerVirtualNodeCnt", *p.InnerVirtualNodeCnt, 0, MaxVirtualNodeCnt); err != nil {
			return err
		}
	}
	if len(p.Inner) > MaxNameLen {
		return fmt.Errorf("%s.inner: %s is %d characters long; the limit is %d", path, quote(p.Inner), len(p.Inner), MaxNameLen)
	}
	if n := len(p.ConsumerIDCs); n > MaxRooms {
		return fmt.Errorf("%s.consumeridcs: %d rooms; the limit is %d", path, n, MaxRooms)
	}
	for i, room := range p.ConsumerIDCs {
		// A room is the text before '@' in a broker name, so broker names' characters.
		if err := checkName(path+".consumeridcs["+strconv.Itoa(i)+"]", room, brokerName); err != nil {
			return err
		}
	}
	if n := len(p.MessageQueueList); n > MaxQueues {
		return fmt.Errorf("%s.messageQueueList: %d queues; the limit is %d", path, n, MaxQueues)
	}
	for i, q := range p.MessageQueueList {
		qp := path + ".messageQueueList[" + strconv.Itoa(i) + "]"
		if err := checkName(qp+".topic", q.Topic, plainName); err != nil {
			return err
		}
		if err := checkName(qp+".brokerName", q.BrokerName, brokerName); err != nil {
			return err
		}
		if err := checkRange(qp+".queueId", int(q.QueueID), 0, MaxQueues-1); err != nil {
			return err
		}
	}
	return nil
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
		queues[b.Name] = b.Queues
		total += b.Queues
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
		switch st.Type {
		case "addBroker", "setQueues":
			old, known := queues[st.Broker]
			if !known && st.Type == "setQueues" {
				continue // the engine reports the missing broker when the step runs
			}
			if !known && len(queues) >= MaxBrokers {
				return fmt.Errorf("%s.broker: the topic would have %d brokers; the limit is %d", p, len(queues)+1, MaxBrokers)
			}
			if total-old+*st.Queues > MaxQueues {
				return fmt.Errorf("%s.queues: the topic would have %d queues in all; the limit is %d", p, total-old+*st.Queues, MaxQueues)
			}
			queues[st.Broker] = *st.Queues
			total += *st.Queues - old
		case "addConsumer":
			if !consumers[st.ID] && len(consumers) >= MaxConsumers {
				return fmt.Errorf("%s.id: the group would have %d consumers; the limit is %d", p, len(consumers)+1, MaxConsumers)
			}
			consumers[st.ID] = true
		}
	}
	return nil
}

// extraArgs are arguments a command takes in JSON beyond those cluster.CommandTypes lists for
// the command line (a parameter struct cannot be typed there).
var extraArgs = map[string][]string{
	"setStrategy": {"params?"},
}

// CommandNames is every command type, sorted.
func CommandNames() []string {
	return slices.Sorted(maps.Keys(cluster.CommandTypes))
}

// commandArgs is the type's arguments, optional ones marked with a trailing '?'.
func commandArgs(typ string) []string {
	return append(slices.Clone(cluster.CommandTypes[typ]), extraArgs[typ]...)
}

// commandFields maps Command's JSON names (all but "type") to their field indexes.
var commandFields = func() map[string]int {
	out := map[string]int{}
	t := reflect.TypeFor[cluster.Command]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && name != "type" {
			out[name] = i
		}
	}
	return out
}()

// validateCommand checks one command: a known type, its required arguments present, no
// argument it does not take, and every value in range.
func validateCommand(path string, c cluster.Command) error {
	if c.Type == "" {
		return fmt.Errorf("%s: missing; want one of %s", join(path, "type"), strings.Join(CommandNames(), ", "))
	}
	if _, ok := cluster.CommandTypes[c.Type]; !ok {
		return unknownCommand(join(path, "type"), c.Type)
	}
	args := commandArgs(c.Type)
	takes := map[string]bool{}
	for _, a := range args {
		name, optional := strings.CutSuffix(a, "?")
		takes[name] = true
		if !optional && !commandHas(c, name) {
			return fmt.Errorf("%s: missing; %s", join(path, name), needs(c.Type))
		}
	}
	v := reflect.ValueOf(c)
	for _, name := range slices.Sorted(maps.Keys(commandFields)) {
		if !takes[name] && !v.Field(commandFields[name]).IsZero() {
			return fmt.Errorf("%s: %s takes no %s (%s)", join(path, name), c.Type, name, needs(c.Type))
		}
	}

	if c.ID != "" {
		set := clientID
		if c.Type == "setProducerRate" {
			set = plainName
		}
		if err := checkName(join(path, "id"), c.ID, set); err != nil {
			return err
		}
	}
	if c.Broker != "" {
		if err := checkName(join(path, "broker"), c.Broker, brokerName); err != nil {
			return err
		}
	}
	for _, r := range []struct {
		name     string
		v        *int
		min, max int
	}{
		{"latencyMs", c.LatencyMs, 0, MaxLatencyMs},
		{"queues", c.Queues, 0, MaxQueues},
		{"consumeRate", c.ConsumeRate, 0, MaxConsumeRate},
		{"rate", c.Rate, 0, MaxRate},
	} {
		if r.v != nil {
			if err := checkRange(join(path, r.name), *r.v, r.min, r.max); err != nil {
				return err
			}
		}
	}
	if c.Strategy != "" {
		p := allocate.Params{} // what the engine's setStrategy uses without params
		if c.Params != nil {
			p = *c.Params
		}
		if err := checkStrategy(join(path, "strategy"), join(path, "params"), c.Strategy, p); err != nil {
			return err
		}
	}
	if c.Table != "" {
		if err := checkTable(join(path, "table"), c.Table); err != nil {
			return err
		}
	}
	if c.Model != "" {
		if err := checkModel(join(path, "model"), c.Model); err != nil {
			return err
		}
	}
	return nil
}

// commandHas reports whether the argument is given (a non-empty string, a non-nil pointer).
func commandHas(c cluster.Command, name string) bool {
	i, ok := commandFields[name]
	return ok && !reflect.ValueOf(c).Field(i).IsZero()
}

// needs is "slowBroker needs broker and latencyMs", "addConsumer needs id (consumeRate
// optional)", "setFaultTable needs table".
func needs(typ string) string {
	var req, opt []string
	for _, a := range commandArgs(typ) {
		if name, optional := strings.CutSuffix(a, "?"); optional {
			opt = append(opt, name)
		} else {
			req = append(req, name)
		}
	}
	s := typ + " needs " + andList(req)
	if len(req) == 0 {
		s = typ + " needs nothing"
	}
	if len(opt) > 0 {
		s += " (" + andList(opt) + " optional)"
	}
	return s
}

func andList(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func unknownCommand(path, typ string) error {
	if near := nearest(typ, CommandNames()); near != "" {
		return fmt.Errorf("%s: %s is not a command; did you mean %s?", path, quote(typ), near)
	}
	return fmt.Errorf("%s: %s is not a command; want one of %s", path, quote(typ), strings.Join(CommandNames(), ", "))
}

func checkRange(path string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s: %d; want %d…%d", path, v, lo, hi)
	}
	return nil
}

// checkName checks a name: present, at most MaxNameLen characters, all from the set.
func checkName(path, v string, set charset) error {
	if v == "" {
		return fmt.Errorf("%s: missing", path)
	}
	if n := utf8.RuneCountInString(v); n > MaxNameLen {
		return fmt.Errorf("%s: %s is %d characters long; the limit is %d", path, quote(v), n, MaxNameLen)
	}
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r < 0x80 && strings.ContainsRune(set.extra, r):
		default:
			return fmt.Errorf("%s: %s has %q; allowed are %s", path, quote(v), r, set.text)
		}
	}
	return nil
}

// quote is %q, shortened for long values so that an error stays one readable line.
func quote(s string) string {
	const show = 24
	if len(s) <= show+8 {
		return strconv.Quote(s)
	}
	cut := show
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut-- // keep whole UTF-8 sequences
	}
	return strconv.Quote(s[:cut]) + "…"
}
