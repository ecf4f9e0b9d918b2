package allocate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
)

// Parameter types of a ParamSpec.
const (
	ParamInt    = "int"    // a whole number within Min…Max
	ParamEnum   = "enum"   // one of Enum, compared case-insensitively
	ParamNames  = "names"  // a list of names (MACHINE_ROOM's rooms), at most Max
	ParamQueues = "queues" // a list of message queues (CONFIG's)
)

// Words are a strategy's or a parameter's words in one language: the parameter's label on a
// form, and a sentence that explains it.
type Words struct {
	Label string `json:"label,omitempty"`
	Hint  string `json:"hint,omitempty"`
}

// When makes a parameter count only while another one has a value ("innerVirtualNodeCnt"
// when inner is CONSISTENT_HASH): a form shows it only then.
type When struct {
	Param string `json:"param"`
	Is    string `json:"is"`
}

// ParamSpec is one parameter of a strategy, the key it has in a scenario's params object.
type ParamSpec struct {
	Name    string           `json:"name"`
	Type    string           `json:"type"`
	Unit    string           `json:"unit,omitempty"` // what a list holds ("rooms"), for messages
	Min     *int             `json:"min,omitempty"`  // ParamInt
	Max     *int             `json:"max,omitempty"`  // ParamInt; for a list the most entries
	Default any              `json:"default,omitempty"`
	Enum    []string         `json:"enum,omitempty"` // ParamEnum
	When    *When            `json:"when,omitempty"`
	Words   map[string]Words `json:"words"`
}

// StrategySpec is one entry of the strategy table: everything about one strategy, so that a
// new strategy is one Register call. allocate.New, the validation of every door (scenario
// files, flags, commands, the page), the work estimate and the page's forms all read it.
type StrategySpec struct {
	Name   string      `json:"name"` // RocketMQ's spelling, upper case
	Params []ParamSpec `json:"params"`
	// Suffix names the parameter that a dash after the name sets: "MACHINE_ROOM_NEARBY-AVG"
	// is MACHINE_ROOM_NEARBY with inner AVG.
	Suffix string           `json:"suffix,omitempty"`
	Words  map[string]Words `json:"words"` // the hint: what the strategy does, in a sentence
	// New builds the strategy from parameters already checked against Params.
	New func(Params) (Strategy, error) `json:"-"`
	// Cost is the virtual nodes per consumer that the strategy hashes with p (each costs the
	// work estimate an MD5 per rebalance); nil is none.
	Cost func(Params) int `json:"-"`
	// Steps is the step budget of one call, for a strategy that runs a script: the work
	// estimate counts all of it per rebalance.
	Steps int `json:"-"`
}

// WordsIn are the words in lang, English for a language they lack.
func wordsIn(w map[string]Words, lang string) Words {
	if x, ok := w[lang]; ok {
		return x
	}
	return w["en"]
}

// WordsIn is the strategy's words in lang (English for a language it lacks).
func (s *StrategySpec) WordsIn(lang string) Words { return wordsIn(s.Words, lang) }

// WordsIn is the parameter's words in lang (English for a language it lacks).
func (p *ParamSpec) WordsIn(lang string) Words { return wordsIn(p.Words, lang) }

// Param is the parameter called name, if the strategy has one.
func (s *StrategySpec) Param(name string) (ParamSpec, bool) {
	i := slices.IndexFunc(s.Params, func(p ParamSpec) bool { return p.Name == name })
	if i < 0 {
		return ParamSpec{}, false
	}
	return s.Params[i], true
}

var registry struct {
	mu    sync.RWMutex
	specs []*StrategySpec
}

// Register adds a strategy to the table, after those already there. It panics on an entry
// that is incomplete or whose name is taken, a bug in the program that registers it. A
// strategy defined outside this package (a script's) registers itself here at run time.
func Register(s StrategySpec) {
	if m := s.missing(); m != "" {
		panic("allocate: strategy " + s.Name + ": " + m)
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if slices.ContainsFunc(registry.specs, func(o *StrategySpec) bool { return o.Name == s.Name }) {
		panic("allocate: strategy " + s.Name + " registered twice")
	}
	registry.specs = append(registry.specs, &s)
}

// Unregister removes a strategy registered by a test.
func Unregister(name string) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	registry.specs = slices.DeleteFunc(registry.specs, func(s *StrategySpec) bool { return s.Name == name })
}

// missing names the first piece an entry lacks ("" when complete).
func (s *StrategySpec) missing() string {
	switch {
	case s.Name == "" || s.Name != strings.ToUpper(s.Name) || strings.ContainsAny(s.Name, "- "):
		return "a name in upper case without dashes or spaces is needed"
	case s.New == nil:
		return "no New"
	case s.Words["en"].Hint == "" || s.Words["zh"].Hint == "":
		return "no hint in English and Chinese"
	}
	for _, p := range s.Params {
		switch {
		case p.Name == "":
			return "a parameter has no name"
		case !slices.Contains([]string{ParamInt, ParamEnum, ParamNames, ParamQueues}, p.Type):
			return "parameter " + p.Name + ": unknown type " + p.Type
		case p.Type == ParamInt && (p.Min == nil || p.Max == nil):
			return "parameter " + p.Name + ": a whole number needs min and max"
		case p.Type == ParamEnum && len(p.Enum) == 0:
			return "parameter " + p.Name + ": an enum needs its values"
		case p.Words["en"].Label == "" || p.Words["zh"].Label == "":
			return "parameter " + p.Name + ": no label in English and Chinese"
		}
	}
	if _, ok := s.Param(s.Suffix); s.Suffix != "" && !ok {
		return "suffix " + s.Suffix + " is not a parameter"
	}
	return ""
}

// Strategies are the table's entries in order: RocketMQ's six, then any registered since.
func Strategies() []*StrategySpec {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	return slices.Clone(registry.specs)
}

// Names lists the strategy names New accepts, in RocketMQ's spelling and the table's order.
func Names() []string {
	var out []string
	for _, s := range Strategies() {
		out = append(out, s.Name)
	}
	return out
}

// AllParams are the parameters of every strategy, each name once, in the table's order: what
// a params object may hold, whichever strategy it goes with.
func AllParams() []ParamSpec {
	var out []ParamSpec
	for _, s := range Strategies() {
		for _, p := range s.Params {
			if !slices.ContainsFunc(out, func(o ParamSpec) bool { return o.Name == p.Name }) {
				out = append(out, p)
			}
		}
	}
	return out
}

// Lookup finds a strategy by its name, case-insensitively; a name with a dash
// ("MACHINE_ROOM_NEARBY-AVG") also gives the value its suffix sets.
func Lookup(name string) (spec *StrategySpec, suffix string, ok bool) {
	upper := strings.ToUpper(strings.TrimSpace(name))
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	for _, s := range registry.specs {
		if upper == s.Name {
			return s, "", true
		}
		if s.Suffix != "" {
			if rest, ok := strings.CutPrefix(upper, s.Name+"-"); ok {
				return s, rest, true
			}
		}
	}
	return nil, "", false
}

// Cost is the virtual nodes per consumer the strategy name hashes with p, 0 for a name that
// is unknown or hashes nothing.
func Cost(name string, p Params) int {
	s, suffix, ok := Lookup(name)
	if !ok || s.Cost == nil {
		return 0
	}
	if suffix != "" {
		p = p.With(s.Suffix, suffix)
	}
	return s.Cost(p)
}

// New builds a strategy from its RocketMQ name (case-insensitive; "MACHINE_ROOM_NEARBY-AVG"
// names the inner strategy too) and its parameters.
func New(name string, p Params) (Strategy, error) {
	s, suffix, ok := Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown strategy %q (want one of %s)", name, strings.Join(Names(), ", "))
	}
	if suffix != "" {
		if v, set := p.Get(s.Suffix); set && v != "" && !strings.EqualFold(fmt.Sprint(v), suffix) {
			return nil, fmt.Errorf("strategy %s names %s %s but the %s parameter says %v", name, s.paramNoun(s.Suffix), suffix, s.Suffix, v)
		}
		p = p.With(s.Suffix, suffix)
	}
	for _, ps := range s.Params {
		v, set := p.Get(ps.Name)
		if !set || ps.Type != ParamEnum {
			continue
		}
		if str, _ := v.(string); str != "" && !slices.ContainsFunc(ps.Enum, func(e string) bool { return strings.EqualFold(e, str) }) {
			return nil, fmt.Errorf("unknown %s %q for %s (want %s)", s.paramNoun(ps.Name), str, s.Name, orList(ps.Enum))
		}
	}
	return s.New(p)
}

// paramNoun is a parameter's English label in lower case ("inner strategy"), for messages.
func (s *StrategySpec) paramNoun(name string) string {
	p, _ := s.Param(name)
	return strings.ToLower(p.WordsIn("en").Label)
}

// orList is "A, B or C".
func orList(vs []string) string {
	if len(vs) < 2 {
		return strings.Join(vs, "")
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
}

// Get is the parameter called name and whether it is set: the typed fields for RocketMQ's
// strategies' parameters, Values for any other.
func (p Params) Get(name string) (any, bool) {
	switch name {
	case "virtualNodeCnt":
		return derefInt(p.VirtualNodeCnt)
	case "innerVirtualNodeCnt":
		return derefInt(p.InnerVirtualNodeCnt)
	case "inner":
		return p.Inner, p.Inner != ""
	case "consumeridcs":
		return p.ConsumerIDCs, p.ConsumerIDCs != nil
	case "messageQueueList":
		return p.MessageQueueList, p.MessageQueueList != nil
	}
	v, ok := p.Values[name]
	return v, ok
}

// Int is the whole-number parameter called name, or def when it is unset or not a whole
// number.
func (p Params) Int(name string, def int) int {
	v, ok := p.Get(name)
	if !ok {
		return def
	}
	switch n := v.(type) {
	case int:
		return n
	case float64:
		if n == math.Trunc(n) && math.Abs(n) <= math.MaxInt32 {
			return int(n)
		}
	}
	return def
}

// With is p with the text parameter name set to v.
func (p Params) With(name, v string) Params {
	if name == "inner" {
		p.Inner = v
		return p
	}
	return p.withValue(name, v)
}

func derefInt(n *int) (any, bool) {
	if n == nil {
		return nil, false
	}
	return *n, true
}

// WithInt is p with the whole-number parameter name set to n.
func (p Params) WithInt(name string, n int) Params {
	switch name {
	case "virtualNodeCnt":
		p.VirtualNodeCnt = &n
		return p
	case "innerVirtualNodeCnt":
		p.InnerVirtualNodeCnt = &n
		return p
	}
	return p.withValue(name, n)
}

// withValue is p with its own parameter name set to v, in a copy of Values (p's map may be
// shared with the Params it was copied from).
func (p Params) withValue(name string, v any) Params {
	values := make(map[string]any, len(p.Values)+1)
	maps.Copy(values, p.Values)
	values[name] = v
	p.Values = values
	return p
}

// Counts says whether the parameter counts with p: it has no When, or p holds its When
// (an unset parameter holding its default).
func (ps ParamSpec) Counts(p Params) bool {
	if ps.When == nil {
		return true
	}
	v, set := p.Get(ps.When.Param)
	if !set {
		for _, o := range AllParams() {
			if o.Name == ps.When.Param {
				v = o.Default
			}
		}
	}
	s, _ := v.(string)
	return strings.EqualFold(s, ps.When.Is)
}

// NumberParam is the first whole-number parameter of strategy name that counts once the
// name's suffix is applied: the one "CONSISTENT_HASH/20" sets on the command line.
func NumberParam(name string) (ParamSpec, bool) {
	s, suffix, ok := Lookup(name)
	if !ok {
		return ParamSpec{}, false
	}
	var p Params
	if suffix != "" {
		p = p.With(s.Suffix, suffix)
	}
	for _, ps := range s.Params {
		if ps.Type == ParamInt && ps.Counts(p) {
			return ps, true
		}
	}
	return ParamSpec{}, false
}
