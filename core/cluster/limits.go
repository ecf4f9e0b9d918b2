package cluster

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// Limits of a cluster and of the commands that change it: one set, read by the command table's
// argument specs, by scenario validation and by every driver. They bound the work a stranger's
// input (a file, a link, a page's script) can ask for.
const (
	MaxBrokers        = 64
	MaxProxies        = 16
	MaxQueues         = 4096 // per broker and for the whole topic
	MaxConsumers      = 512  // distinct client ids of the group
	MaxProducers      = 64
	MaxRate           = 100000  // messages per second of one producer
	MaxConsumeRate    = 1000000 // messages per second of one consumer
	MaxLatencyMs      = 600000  // extra send latency of a slow broker
	MaxNameLen        = 64      // client ids, broker and producer names, strategy names
	MaxTopicLen       = 127     // RocketMQ's Validators.TOPIC_MAX_LENGTH
	MaxGroupLen       = 255     // RocketMQ's Validators.CHARACTER_MAX_LENGTH
	MaxVirtualNodeCnt = allocate.MaxVirtualNodeCnt
	MaxRooms          = allocate.MaxRooms // MACHINE_ROOM consumeridcs
	MaxTopics         = 16                // declared topics (retry and dead-letter topics come on top)
	MaxGroups         = 16
	MaxMemberships    = 8 // groups one consumer process is a member of
	MaxSubscriptions  = 8 // topics one membership subscribes
	MaxTags           = 16
	MaxReconsumeTimes = 1000
	MaxConsumeMs      = 600000
	MaxBacklogRule    = 1 << 50 // an autoscaler's backlog thresholds
)

// Topic permissions (PermName: 6 RW, 4 R, 2 W), as scenario files and commands write them.
const (
	PermRW   = "RW"
	PermR    = "R"
	PermW    = "W"
	PermNone = "none"
)

// Perms are the permissions, in the order errors list them.
var Perms = []string{PermRW, PermR, PermW, PermNone}

// permBits is a permission's PermName bits.
func permBits(p string) int32 {
	switch p {
	case PermR:
		return route.PermRead
	case PermW:
		return route.PermWrite
	case PermNone:
		return 0
	}
	return route.PermRead | route.PermWrite
}

// Limits of one argument a page's script hands the playground (lbscope.<method>(arg), dispatch,
// an embed's postMessage), checked by the page's own JavaScript before any of it reaches the
// engine: how deeply its arrays and objects nest and how long one of its strings is. A scenario
// nests 7 deep; the longest string a command carries is a share link (64 KiB).
const (
	MaxArgDepth  = 16
	MaxArgString = 64 << 10
)

// Charset is the characters a kind of name may hold: letters and digits plus Extra (ASCII).
// Anything else — controls, NUL, line breaks, bidi overrides such as U+202E, '<', spaces — is
// refused, so a name is safe to print on a terminal, in a page and in a share link.
type Charset struct {
	Extra string // besides letters and digits
	Text  string // how an error lists it
	Max   int    // length limit in characters
}

// Character sets of names. RocketMQ's client (Validators.checkTopic, checkGroup) allows
// letters, digits and % | - _ in topic and group names; broker names also take @ and .
// (MACHINE_ROOM reads "room@broker"); client ids are "ip@instance[@unit]" and
// "ip@pid#nanotime" (spec §1.2), hence also # and : (IPv6).
var (
	TopicName    = Charset{"%|_-", "letters, digits and % | _ -", MaxTopicLen}
	GroupName    = Charset{"%|_-", "letters, digits and % | _ -", MaxGroupLen}
	PlainName    = Charset{"%|_-", "letters, digits and % | _ -", MaxNameLen} // producer ids, queue topics in params
	BrokerName   = Charset{"%|_-@.", "letters, digits and % | _ - @ .", MaxNameLen}
	ClientIDName = Charset{".@#:_%|-", "letters, digits and . @ # : _ % | -", MaxNameLen}
	// TagName is a message tag's: a subscription's expression joins tags with "||".
	TagName = Charset{"_-.:@#%", "letters, digits and _ - . : @ # %", MaxNameLen}
)

// CheckName checks a name: present, within the set's length limit, every character from the
// set. path names the field in the error.
func CheckName(path, v string, set Charset) error {
	if v == "" {
		return fmt.Errorf("%s: missing", path)
	}
	limit := set.Max
	if limit == 0 {
		limit = MaxNameLen
	}
	// Counted in bytes first so that a million characters cost nothing to refuse.
	if len(v) > 4*limit {
		return fmt.Errorf("%s: %s is %d bytes long; the limit is %d characters", path, Quote(v), len(v), limit)
	}
	if n := utf8.RuneCountInString(v); n > limit {
		return fmt.Errorf("%s: %s is %d characters long; the limit is %d", path, Quote(v), n, limit)
	}
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r < 0x80 && strings.ContainsRune(set.Extra, r):
		default:
			return fmt.Errorf("%s: %s has %q; allowed are %s", path, Quote(v), r, set.Text)
		}
	}
	return nil
}

// CheckRange checks that v is within lo…hi.
func CheckRange(path string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s: %d; want %d…%d", path, v, lo, hi)
	}
	return nil
}

// CheckParams checks a strategy's parameters against the limits the strategy table gives
// them (allocate.Strategies), whichever strategy they go with.
func CheckParams(path string, p allocate.Params) error {
	for _, ps := range allocate.AllParams() {
		v, set := p.Get(ps.Name)
		if !set {
			continue
		}
		if err := checkParam(path+"."+ps.Name, ps, v); err != nil {
			return err
		}
	}
	return nil
}

// checkParam checks one parameter's value v against its spec.
func checkParam(path string, ps allocate.ParamSpec, v any) error {
	switch ps.Type {
	case allocate.ParamInt:
		n, ok := wholeNumber(v)
		if !ok {
			return fmt.Errorf("%s: %v; want a whole number", path, v)
		}
		return CheckRange(path, n, *ps.Min, *ps.Max)
	case allocate.ParamEnum:
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: %v; want one of %s", path, v, strings.Join(ps.Enum, ", "))
		}
		if len(s) > MaxNameLen {
			return fmt.Errorf("%s: %s is %d characters long; the limit is %d", path, Quote(s), len(s), MaxNameLen)
		}
	case allocate.ParamNames:
		names, ok := nameList(v)
		if !ok {
			return fmt.Errorf("%s: want a list of names", path)
		}
		if limit := listLimit(ps, MaxRooms); len(names) > limit {
			return fmt.Errorf("%s: %d %s; the limit is %d", path, len(names), ps.Unit, limit)
		}
		for i, name := range names {
			// A room is the text before '@' in a broker name, so broker names' characters.
			if err := CheckName(path+"["+strconv.Itoa(i)+"]", name, BrokerName); err != nil {
				return err
			}
		}
	case allocate.ParamQueues:
		qs, ok := v.([]route.MessageQueue)
		if !ok {
			return fmt.Errorf("%s: want a list of message queues", path)
		}
		if limit := listLimit(ps, MaxQueues); len(qs) > limit {
			return fmt.Errorf("%s: %d %s; the limit is %d", path, len(qs), ps.Unit, limit)
		}
		for i, q := range qs {
			qp := path + "[" + strconv.Itoa(i) + "]"
			if err := CheckName(qp+".topic", q.Topic, PlainName); err != nil {
				return err
			}
			if err := CheckName(qp+".brokerName", q.BrokerName, BrokerName); err != nil {
				return err
			}
			if err := CheckRange(qp+".queueId", int(q.QueueID), 0, MaxQueues-1); err != nil {
				return err
			}
		}
	}
	return nil
}

// listLimit is a list parameter's most entries: its spec's, or def.
func listLimit(ps allocate.ParamSpec, def int) int {
	if ps.Max != nil {
		return *ps.Max
	}
	return def
}

// wholeNumber is v as an int: an int, or a float64 (JSON's number) without a fraction.
func wholeNumber(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case float64:
		if n == math.Trunc(n) && math.Abs(n) <= math.MaxInt32 {
			return int(n), true
		}
	}
	return 0, false
}

// nameList is v as a list of strings: a []string, or JSON's []any of strings.
func nameList(v any) ([]string, bool) {
	switch l := v.(type) {
	case []string:
		return l, true
	case []any:
		out := make([]string, len(l))
		for i, x := range l {
			s, ok := x.(string)
			if !ok {
				return nil, false
			}
			out[i] = s
		}
		return out, true
	}
	return nil, false
}

// CheckStrategy checks a strategy's name and parameters: "" is AVG.
func CheckStrategy(path, paramsPath, name string, p allocate.Params) error {
	if err := CheckParams(paramsPath, p); err != nil {
		return err
	}
	if name == "" {
		name = "AVG" // RocketMQ's default (spec §0)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("%s: %s is %d characters long; the limit is %d", path, Quote(name), len(name), MaxNameLen)
	}
	if _, err := allocate.New(name, p); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// CheckChoice checks a strategy as a scenario gives it: a name of the table (CheckStrategy),
// or a user's strategy, its name and its source, which must compile (a syntax error names
// the file and line: "weighted.star:3:5").
func CheckChoice(path, paramsPath string, c allocate.Choice, p allocate.Params) error {
	if !c.Scripted() {
		return CheckStrategy(path, paramsPath, c.Name, p)
	}
	if err := CheckParams(paramsPath, p); err != nil {
		return err
	}
	if err := allocate.CheckName(c.Name, MaxNameLen); err != nil {
		return fmt.Errorf("%s.name: %v", path, err)
	}
	if n := len(c.Source); n > allocate.MaxSource {
		return fmt.Errorf("%s.source: %d bytes; the limit is %d (64 KiB)", path, n, allocate.MaxSource)
	}
	if c.Steps != 0 {
		if err := CheckRange(path+".steps", c.Steps, allocate.MinScriptSteps, allocate.MaxScriptSteps); err != nil {
			return err
		}
	}
	if _, err := allocate.NewChoice(c, p); err != nil {
		return fmt.Errorf("%s.source: %v", path, err)
	}
	return nil
}

// CheckSelector checks a producer's own selector (path names it, "producers[0].selector"): its
// name as a strategy's, its source within its limits and compiled by the driver's compiler
// (a source that defines no select is refused), and keys for it to route.
func CheckSelector(path string, pc ProducerConfig) error {
	c := pc.Selector
	if c == nil {
		return nil
	}
	if err := c.Check(); err != nil {
		return fmt.Errorf("%s.%v", path, err)
	}
	if err := allocate.CheckName(c.Name, MaxNameLen); err != nil {
		return fmt.Errorf("%s.name: %v", path, err)
	}
	if pc.Keys == nil {
		return fmt.Errorf("%s: a selector places keyed sends; give the producer keys too ({\"count\": …})", path)
	}
	if _, err := selector.New(*c); err != nil {
		return fmt.Errorf("%s.source: %v", path, err)
	}
	return nil
}

// Quote is %q, shortened for long values so that an error stays one readable line.
func Quote(s string) string {
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
