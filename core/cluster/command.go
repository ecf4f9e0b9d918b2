package cluster

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/selector"
)

// Command is one action of the shared vocabulary: scenario timelines, the command line, the
// browser's buttons and its JS API all produce these. Arguments are named fields; which ones a
// type uses, and their limits, are its CommandSpec's Args (the command table, Commands).
type Command struct {
	Type        string `json:"type"`
	ID          string `json:"id,omitempty"`          // consumer (or producer) id
	Broker      string `json:"broker,omitempty"`      // broker name
	LatencyMs   *int   `json:"latencyMs,omitempty"`   // slowBroker
	Queues      *int   `json:"queues,omitempty"`      // addBroker, setQueues
	ConsumeRate *int   `json:"consumeRate,omitempty"` // addConsumer (optional)
	// ConsumeFromWhere is where addConsumer's queues without an offset start (optional).
	ConsumeFromWhere string `json:"consumeFromWhere,omitempty"`
	Strategy         string `json:"strategy,omitempty"` // setStrategy
	// Source is setStrategy's strategy source (optional): strategy is then its name, and
	// Steps its step budget per call (optional; allocate.DefaultScriptSteps).
	Source  string           `json:"source,omitempty"`
	Steps   *int             `json:"steps,omitempty"`
	Params  *allocate.Params `json:"params,omitempty"`  // setStrategy (optional)
	Rate    *int             `json:"rate,omitempty"`    // setProducerRate
	On      *bool            `json:"on,omitempty"`      // setLatencyFault
	Table   string           `json:"table,omitempty"`   // setFaultTable
	Model   string           `json:"model,omitempty"`   // setMessageModel
	Threads *int             `json:"threads,omitempty"` // setProducerThreads, setSendMode (optional)
	Mode    string           `json:"mode,omitempty"`    // setSendMode: sync or async
	// LatencyMax and NotAvailableDuration are setLatencyTiers' arrays (setLatencyMax and
	// setNotAvailableDuration, stored as given, spec §2.12).
	LatencyMax           []int64 `json:"latencyMax,omitempty"`
	NotAvailableDuration []int64 `json:"notAvailableDuration,omitempty"`
	// Client is the SDK the started process runs (addConsumer, restartConsumer; optional):
	// java, java-4.9 or go-2.1.2 ("go"), spec §9.
	Client string `json:"client,omitempty"`
	// Topic is the topic setQueues and addBroker act on (optional: the first; addBroker:
	// every topic that lives on every broker).
	Topic string `json:"topic,omitempty"`
	// ReadQueueNums and WriteQueueNums are setQueues' counts when they differ from queues
	// (optional).
	ReadQueueNums  *int `json:"readQueueNums,omitempty"`
	WriteQueueNums *int `json:"writeQueueNums,omitempty"`
	// Perm is setPerm's permission: RW, R, W or none.
	Perm string `json:"perm,omitempty"`
	// Group is the group setStrategy and setSubscription act on (optional: the first, or the
	// member's only one).
	Group string `json:"group,omitempty"`
	// Subscription is setSubscription's text, "TopicA:TagA||TagB;TopicB".
	Subscription string `json:"subscription,omitempty"`
	// ClientRebalance is setClientRebalance's switch: false leaves the member's allocation to
	// the brokers (spec §8.2).
	ClientRebalance *bool `json:"clientRebalance,omitempty"`
	// Kind is addConsumer's client kind (push, grpc-push, grpc-simple; empty: as the group's
	// first member).
	Kind string `json:"kind,omitempty"`
	// FailPercent is setFailRate's share of deliveries the listener fails, 0…100.
	FailPercent *int `json:"failPercent,omitempty"`
	// OutAbove, OutForS, InBelow, InForS, MinMembers and MaxMembers are setAutoscale's rule
	// (AutoscaleConfig's, its windows in seconds); MaxMembers 0 turns the autoscaler off.
	OutAbove   *int `json:"outAbove,omitempty"`
	OutForS    *int `json:"outForS,omitempty"`
	InBelow    *int `json:"inBelow,omitempty"`
	InForS     *int `json:"inForS,omitempty"`
	MinMembers *int `json:"minMembers,omitempty"`
	MaxMembers *int `json:"maxMembers,omitempty"`
	// ConsumeMode and PopShareQueueNum are setConsumeMode's message request mode (PULL or
	// POP) and popShareQueueNum (omitted: 0), spec §8.1 item 2.
	ConsumeMode      string `json:"consumeMode,omitempty"`
	PopShareQueueNum *int   `json:"popShareQueueNum,omitempty"`
	// Proxy is the proxy killProxy, restoreProxy and addProxy act on, and the one a gRPC
	// consumer addConsumer starts connects to (optional there: as the group's first member,
	// else the first of proxies).
	Proxy string `json:"proxy,omitempty"`
	// Selector is setSelector's selector name: with Source, the producers' own
	// MessageQueueSelector (Steps its step budget); without, SelectMessageQueueByHash again.
	Selector string `json:"selector,omitempty"`
}

// Autoscale is setAutoscale's rule as a group's AutoscaleConfig (nil: off).
func (c Command) Autoscale() *AutoscaleConfig {
	v := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	if v(c.MaxMembers) == 0 {
		return nil
	}
	return &AutoscaleConfig{OutAbove: int64(v(c.OutAbove)), OutForMs: int64(v(c.OutForS)) * 1000,
		InBelow: int64(v(c.InBelow)), InForMs: int64(v(c.InForS)) * 1000, Min: v(c.MinMembers), Max: v(c.MaxMembers)}
}

// SelectorChoice is the selector setSelector sets, nil for the hash.
func (c Command) SelectorChoice() *selector.Choice {
	if c.Source == "" {
		return nil
	}
	ch := &selector.Choice{Name: c.Selector, Source: c.Source}
	if c.Steps != nil {
		ch.Steps = *c.Steps
	}
	return ch
}

// Choice is the strategy setStrategy sets: its name, with its source when it has one.
func (c Command) Choice() allocate.Choice {
	ch := allocate.Choice{Name: c.Strategy, Source: c.Source}
	if c.Steps != nil {
		ch.Steps = *c.Steps
	}
	return ch
}

// Argument types of the command table, as the page's commands() names them.
const (
	ArgString = "string"
	ArgInt    = "int"
	ArgBool   = "bool"
	ArgEnum   = "enum"
	ArgObject = "object"
	ArgNumber = "number" // a fractional number (the playground's speed)
	ArgInts   = "ints"   // a list of whole numbers; the command line writes them 50,100,550
	ArgSource = "source" // a strategy's source text, at most allocate.MaxSource bytes
)

// Targets of commands.
const (
	TargetConsumer = "consumer"
	TargetBroker   = "broker"
	TargetProducer = "producer"
	TargetGroup    = "group"
	TargetCluster  = "cluster"
	TargetProxy    = "proxy"
	TargetSession  = "session" // the playground's own commands (pause, seek, …)
)

// Broker statuses, for the From of broker and proxy commands (consumers use the Status*
// values).
const (
	BrokerUp   = "up"
	BrokerDown = "down"
)

// Arg is one argument of a command: its JSON name (a field of Command, or of a driver's own
// command type), its type, unit and limits. The limits here are the ones every door enforces.
type Arg struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"` // ArgString, ArgInt, ArgBool, ArgEnum, ArgObject, ArgNumber
	Unit     string   `json:"unit,omitempty"`
	Min      *int     `json:"min,omitempty"` // ArgInt
	Max      *int     `json:"max,omitempty"` // ArgInt; for ArgString the length limit, for ArgInts the most entries
	Optional bool     `json:"optional"`
	FileOnly bool     `json:"fileOnly,omitempty"` // not on the command line's --at form
	Default  any      `json:"default,omitempty"`
	Enum     []string `json:"enum,omitempty"`    // ArgEnum: the values (compared case-insensitively when Fold)
	Chars    string   `json:"chars,omitempty"`   // ArgString: the characters allowed, in words
	Choices  []int    `json:"choices,omitempty"` // ArgInt: the values menus offer
	Example  string   `json:"example"`           // a value, as the command line writes it

	Fold    bool     `json:"-"` // enum values compare case-insensitively
	Loose   bool     `json:"-"` // enum values are the usual ones; the command's Check decides
	Charset *Charset `json:"-"` // ArgString: the characters allowed
}

// Words are a command's words in one language: its name on buttons and menus, and a sentence
// for help texts.
type Words struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	// Done is the narration's clause once the command ran: {id}, {broker}, {n}, {arg} and
	// {latencyMs} stand for its event's fields. Optional: a narrator may word it itself.
	Done string `json:"done,omitempty"`
	// When are variants of Done, each chosen when its condition ("latencyMs=0", "arg=off")
	// holds for the event.
	When map[string]string `json:"when,omitempty"`
	// Log is the event log's line in this language when it differs from Done (English uses
	// the engine's own text, Describe).
	Log string `json:"log,omitempty"`
}

// CommandSpec is one entry of the command table: everything about one command, so that a new
// command is one entry. Scenario validation, the command line's --at parser and its help, the
// engine's Apply, the canvas's menus, the page's panel (through lbscope.commands()) and the
// narration all read it.
type CommandSpec struct {
	Name   string `json:"name"`
	Target string `json:"target"` // TargetConsumer, TargetBroker, …
	// From are the statuses of the target from which the command applies (consumer statuses
	// Status*, broker ones BrokerUp/BrokerDown); nil: any. Menus and buttons offer it from
	// these; Apply holds the exact rule and says why it refuses.
	From  []string         `json:"from"`
	Args  []Arg            `json:"args"` // in the command line's order
	Words map[string]Words `json:"words"`
	Menu  bool             `json:"menu"` // offered by the canvas's click menu of its target

	// Apply carries the command out (nil for a driver's own commands). Arguments are checked
	// against Args before it runs.
	Apply func(c *Cluster, cmd Command) error `json:"-"`
	// Event sets the fields of the command's action event beyond Consumer and Broker.
	Event func(cmd Command, e *Event) `json:"-"`
	// Describe is the event log's English text of the applied command ("c1 is killed: …").
	Describe func(cmd Command) string `json:"-"`
	// Check is a check across arguments, after each one's own (path prefixes field names;
	// apply says that Apply asks, which words some errors its own way).
	Check func(path string, cmd Command, apply bool) error `json:"-"`

	// Fill sets, from the cluster as it is, the arguments a driver applying the command at
	// once may leave out (the playground's Add consumer names no id); files and the command
	// line give them all. nil: none.
	Fill func(c *Cluster, cmd *Command) `json:"-"`
	// Grows is what the command adds to the cluster's size, for a scenario's limits and its
	// work estimate (Growth); nil: nothing.
	Grows func(cmd Command) Growth `json:"-"`
	// Overrides is the setting of the initial state the command sets anew, for a comparison
	// of variants that differ in it (Override); nil or false: none.
	Overrides func(cmd Command) (Override, bool) `json:"-"`
}

// Example is a well-formed --at step of the command at 30s, optional arguments in brackets:
// "30s:slowBroker:broker-a:2000", "1m:setProducerRate:500[:p1]".
func (s *CommandSpec) Example() string { return s.ExampleAt("30s") }

// ExampleAt is Example at the given time.
func (s *CommandSpec) ExampleAt(at string) string {
	var b strings.Builder
	b.WriteString(at + ":" + s.Name)
	for _, a := range s.LineArgs() { // objects and sources have no place on the command line
		v := a.Example
		if v == "" {
			v = "<" + a.Name + ">"
		}
		if a.Optional {
			b.WriteString("[:" + v + "]")
		} else {
			b.WriteString(":" + v)
		}
	}
	return b.String()
}

// LineArgs are the arguments the command line's --at form gives, in order: objects and
// sources are given in scenario files.
func (s *CommandSpec) LineArgs() []Arg {
	var out []Arg
	for _, a := range s.Args {
		if a.Type != ArgObject && a.Type != ArgSource && !a.FileOnly {
			out = append(out, a)
		}
	}
	return out
}

// Arg returns the named argument.
func (s *CommandSpec) Arg(name string) (Arg, bool) {
	for _, a := range s.Args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

// WordsIn are the command's words in lang, English for a language it lacks.
func (s *CommandSpec) WordsIn(lang string) Words {
	if w, ok := s.Words[lang]; ok {
		return w
	}
	return s.Words["en"]
}

// Needs is "slowBroker needs broker and latencyMs", "addConsumer needs id (consumeRate
// optional)", "pause needs nothing".
func (s *CommandSpec) Needs() string {
	var req, opt []string
	for _, a := range s.Args {
		if a.Optional {
			opt = append(opt, a.Name)
		} else {
			req = append(req, a.Name)
		}
	}
	out := s.Name + " needs " + andList(req)
	if len(req) == 0 {
		out = s.Name + " needs nothing"
	}
	if len(opt) > 0 {
		out += " (" + andList(opt) + " optional)"
	}
	return out
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

var (
	table  []*CommandSpec
	byName = map[string]*CommandSpec{}
)

// Register adds a command to the table; it panics on a name registered twice or an entry
// that lacks a piece (see Missing), as a bug in the program. The engine registers its own at
// start; a test may register one to see it reach every reader of the table.
func Register(s CommandSpec) {
	if _, dup := byName[s.Name]; dup {
		panic("cluster: command " + s.Name + " registered twice")
	}
	if m := s.Missing(); m != "" {
		panic("cluster: command " + s.Name + ": " + m)
	}
	p := &s
	table = append(table, p)
	byName[s.Name] = p
}

// Unregister removes a command registered by a test.
func Unregister(name string) {
	delete(byName, name)
	table = slices.DeleteFunc(table, func(s *CommandSpec) bool { return s.Name == name })
}

// Missing names the first piece an entry lacks ("" when complete): words (label and
// description) in English and Chinese, an example for every argument, a target, an apply
// function for a simulation command.
func (s *CommandSpec) Missing() string {
	switch {
	case s.Name == "":
		return "no name"
	case s.Target == "":
		return "no target"
	case s.Apply == nil && s.Target != TargetSession:
		return "no apply function"
	case s.Describe == nil && s.Target != TargetSession:
		return "no event text (Describe)"
	}
	for _, lang := range []string{"en", "zh"} {
		w, ok := s.Words[lang]
		switch {
		case !ok:
			return "no words in " + lang
		case w.Label == "":
			return "no label in " + lang
		case w.Description == "":
			return "no description in " + lang
		}
	}
	for _, a := range s.Args {
		switch {
		case a.Name == "" || a.Type == "":
			return "an argument without a name or type"
		case (a.Type == ArgInt || a.Type == ArgInts) && (a.Min == nil || a.Max == nil):
			return "argument " + a.Name + " has no limits"
		case a.Type == ArgString && a.Charset == nil:
			return "argument " + a.Name + " has no character set"
		case a.Type == ArgEnum && len(a.Enum) == 0:
			return "argument " + a.Name + " has no values"
		case a.Example == "" && a.Type != ArgObject:
			return "argument " + a.Name + " has no example"
		}
	}
	return ""
}

// Commands is the engine's part of the command table, in its order (the order of menus and
// help texts): every command but the drivers' own (TargetSession).
func Commands() []*CommandSpec {
	var out []*CommandSpec
	for _, s := range table {
		if s.Target != TargetSession {
			out = append(out, s)
		}
	}
	return out
}

// AllCommands is the whole table, the drivers' own commands included.
func AllCommands() []*CommandSpec { return slices.Clone(table) }

// Lookup finds a command of the table.
func Lookup(name string) (*CommandSpec, bool) {
	s, ok := byName[name]
	return s, ok
}

// CommandNames is every command of the engine (Commands), sorted.
func CommandNames() []string {
	names := make([]string, 0, len(table))
	for _, s := range Commands() {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	return names
}

// commandFields maps Command's JSON names (all but "type") to their field indexes.
var commandFields = func() map[string]int {
	out := map[string]int{}
	t := reflect.TypeFor[Command]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && name != "type" {
			out[name] = i
		}
	}
	return out
}()

// CommandField is the named argument's value in cmd, and whether Command has such a field.
func CommandField(cmd Command, name string) (reflect.Value, bool) {
	i, ok := commandFields[name]
	if !ok {
		return reflect.Value{}, false
	}
	return reflect.ValueOf(cmd).Field(i), true
}

// SetIntArg sets the named integer argument; false when Command has no such field.
func SetIntArg(cmd *Command, name string, v int) bool {
	i, ok := commandFields[name]
	if !ok {
		return false
	}
	f := reflect.ValueOf(cmd).Elem().Field(i)
	if f.Kind() != reflect.Pointer || f.Type().Elem().Kind() != reflect.Int {
		return false
	}
	f.Set(reflect.New(f.Type().Elem()))
	f.Elem().SetInt(int64(v))
	return true
}

// SetArg sets the argument from the command line's text for it.
func SetArg(cmd *Command, a Arg, text string) error {
	i, ok := commandFields[a.Name]
	if !ok {
		return fmt.Errorf("%s cannot be given on the command line", a.Name)
	}
	f := reflect.ValueOf(cmd).Elem().Field(i)
	switch {
	case f.Kind() == reflect.String:
		if text == "" {
			return fmt.Errorf("%s is empty", a.Name)
		}
		f.SetString(text)
	case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Int:
		n, err := strconv.Atoi(text)
		if err != nil {
			return fmt.Errorf("%s %q is not a whole number", a.Name, text)
		}
		f.Set(reflect.New(f.Type().Elem()))
		f.Elem().SetInt(int64(n))
	case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Int64:
		xs := []int64{}
		for i, item := range strings.Split(text, ",") {
			if text == "" {
				break // an empty array, which the client takes too
			}
			if i >= MaxTiers {
				return fmt.Errorf("%s has more than %d entries", a.Name, MaxTiers)
			}
			n, err := strconv.ParseInt(strings.TrimSpace(item), 10, 64)
			if err != nil {
				return fmt.Errorf("%s %q: entry %d, %q, is not a whole number (write them 50,100,550)", a.Name, text, i+1, item)
			}
			xs = append(xs, n)
		}
		f.Set(reflect.ValueOf(xs))
	case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.Bool:
		var b bool
		switch strings.ToLower(text) {
		case "on", "true":
			b = true
		case "off", "false":
		default:
			return fmt.Errorf("%s %q: want on, off, true or false", a.Name, text)
		}
		f.Set(reflect.New(f.Type().Elem()))
		f.Elem().SetBool(b)
	default:
		return fmt.Errorf("%s cannot be given on the command line", a.Name)
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// CheckCommand checks one command against the table: a known type, its required arguments
// present, no argument it does not take, every value within its limits. path prefixes field
// names in errors ("timeline[3]"); "" leaves them bare. It is the check of every door:
// scenario files, the command line, the page's dispatch (through Apply).
func CheckCommand(path string, c Command) error { return checkCommand(path, c, false) }

// checkCommand is CheckCommand; apply words the errors for Apply, whose caller knows the
// command (and leaves a missing target to the apply function, which lists those there are).
func checkCommand(path string, c Command, apply bool) error {
	if c.Type == "" {
		return fmt.Errorf("%s: missing; want one of %s", join(path, "type"), strings.Join(CommandNames(), ", "))
	}
	s, ok := byName[c.Type]
	if !ok || s.Target == TargetSession {
		return UnknownCommand(join(path, "type"), c.Type)
	}
	v := reflect.ValueOf(c)
	takes := map[string]bool{}
	for _, a := range s.Args {
		takes[a.Name] = true
		f, known := CommandField(c, a.Name)
		if !known {
			continue
		}
		if f.IsZero() {
			if !a.Optional && apply && a.Type == ArgString {
				continue // the apply function names the missing target, and those there are
			}
			if !a.Optional {
				if apply {
					return fmt.Errorf("needs %s (%s)", a.Name, s.Needs())
				}
				return fmt.Errorf("%s: missing; %s", join(path, a.Name), s.Needs())
			}
			continue
		}
		if err := checkArg(join(path, a.Name), a, f); err != nil {
			return err
		}
	}
	names := make([]string, 0, len(commandFields))
	for name := range commandFields {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !takes[name] && !v.Field(commandFields[name]).IsZero() {
			return fmt.Errorf("%s: %s takes no %s (%s)", join(path, name), c.Type, name, s.Needs())
		}
	}
	if s.Check != nil {
		return s.Check(path, c, apply)
	}
	return nil
}

func checkArg(path string, a Arg, f reflect.Value) error {
	if f.Kind() == reflect.Pointer {
		f = f.Elem()
	}
	switch a.Type {
	case ArgString:
		return CheckName(path, f.String(), *a.Charset)
	case ArgInt:
		return CheckRange(path, int(f.Int()), *a.Min, *a.Max)
	case ArgInts:
		if f.Len() > *a.Max {
			return fmt.Errorf("%s: %d entries; the limit is %d", path, f.Len(), *a.Max)
		}
		for i := range f.Len() {
			if v := f.Index(i).Int(); v < int64(*a.Min) || v > MaxTierMs {
				return fmt.Errorf("%s[%d]: %d; want %d…%d", path, i, v, *a.Min, MaxTierMs)
			}
		}
		return nil
	case ArgEnum:
		if a.Loose {
			return nil
		}
		v := f.String()
		for _, e := range a.Enum {
			if v == e || a.Fold && strings.EqualFold(v, e) {
				return nil
			}
		}
		want := strings.Join(a.Enum, ", ")
		if len(a.Enum) == 2 {
			want = a.Enum[0] + " or " + a.Enum[1]
		}
		return fmt.Errorf("%s: %s; want %s", path, Quote(v), want)
	}
	return nil
}

// UnknownCommand is the error for a type the table lacks, suggesting the nearest name.
func UnknownCommand(path, typ string) error {
	if near := Nearest(typ, CommandNames()); near != "" {
		return fmt.Errorf("%s: %s is not a command; did you mean %s?", path, Quote(typ), near)
	}
	return fmt.Errorf("%s: %s is not a command; want one of %s", path, Quote(typ), strings.Join(CommandNames(), ", "))
}

// Nearest is the word of words within two edits of w (case-insensitive), the closest first,
// or "" when none is: a likely typo's correction.
func Nearest(w string, words []string) string {
	best, bestD := "", 3
	for _, c := range words {
		if d := editDistance(strings.ToLower(w), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99 // no suggestion for long strings: keeps the work bounded
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Argument specs shared by several commands.

func ip(n int) *int { return &n }

// fileOnly marks an argument that scenario files and the page give, not the --at line.
func fileOnly(a Arg) Arg {
	a.FileOnly = true
	return a
}

func intArg(name, unit string, lo, hi int, example string) Arg {
	return Arg{Name: name, Type: ArgInt, Unit: unit, Min: ip(lo), Max: ip(hi), Example: example}
}

func nameArg(name string, set *Charset, example string) Arg {
	return Arg{Name: name, Type: ArgString, Max: ip(set.Max), Chars: set.Text, Charset: set, Example: example}
}

func optional(a Arg, def any) Arg {
	a.Optional, a.Default = true, def
	return a
}

// clientArg is the SDK a started consumer process runs (spec §9); aliases such as "go" are
// accepted too (checkClientArg).
var clientArg = optional(Arg{Name: "client", Type: ArgEnum, Enum: clientNames(), Fold: true, Loose: true, Example: "go-2.1.2"}, string(profile.Default))

func clientNames() []string {
	var out []string
	for _, n := range profile.Names() {
		out = append(out, string(n))
	}
	return out
}

// checkClientArg checks a command's client against the profiles.
func checkClientArg(path string, c Command, _ bool) error {
	if c.Client == "" {
		return nil
	}
	if len(c.Client) > MaxNameLen {
		return fmt.Errorf("%s: %s is %d characters long; the limit is %d", join(path, "client"), Quote(c.Client), len(c.Client), MaxNameLen)
	}
	if _, err := profile.Lookup(c.Client); err != nil {
		return fmt.Errorf("%s: %w", join(path, "client"), err)
	}
	return nil
}

// clientOverride is what a command that starts a consumer process sets: its client, with a note
// when the timeline names one.
func clientOverride(c Command) Override {
	o := Override{Setting: SettingClient, Value: c.Client}
	if c.Client != "" {
		o.Code = "timelineNamesClient"
		o.Text = "the timeline's " + c.Type + " at {t} names the client {value}: each variant runs its own client there instead"
	}
	return o
}

var (
	consumerArg = nameArg("id", &ClientIDName, "c1")
	brokerArg   = nameArg("broker", &BrokerName, "broker-a")
	proxyArg    = nameArg("proxy", &BrokerName, "proxy-1")
	queuesArg   = intArg("queues", "queues", 0, MaxQueues, "8")
	topicArg    = optional(nameArg("topic", &TopicName, "TopicOrder"), "")
	permArg     = Arg{Name: "perm", Type: ArgEnum, Enum: Perms, Example: PermR}
	groupArg    = optional(nameArg("group", &GroupName, "GID_ORDER"), "")
	// subscriptionArg is a member's subscriptions as one text: topics separated by ';', each
	// with its tags after ':' joined by "||" ("*" or none: every message).
	subscriptionArg = nameArg("subscription", &SubscriptionText, "TopicOrder:TagA||TagB")
)

// MaxSubscriptionText bounds setSubscription's text.
const MaxSubscriptionText = 1024

// SubscriptionText is the characters of setSubscription's text: topics' and tags' and the
// separators ; : || and *.
var SubscriptionText = Charset{"%|_-:;.@#*", "letters, digits and % | _ - : ; . @ # *", MaxSubscriptionText}

// ParseSubscriptions reads a subscription text, "TopicA:TagA||TagB;TopicB": at least one
// topic, at most MaxSubscriptions, each named as topics are and at most once, with at most
// MaxTags tags ("*" or none: every message).
func ParseSubscriptions(text string) ([]SubscriptionConfig, error) {
	if len(text) > MaxSubscriptionText {
		return nil, fmt.Errorf("%d characters; the limit is %d", len(text), MaxSubscriptionText)
	}
	var out []SubscriptionConfig
	for i, part := range strings.Split(text, ";") {
		topic, expr, _ := strings.Cut(strings.TrimSpace(part), ":")
		topic = strings.TrimSpace(topic)
		if err := CheckName(fmt.Sprintf("topic %d", i+1), topic, TopicName); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(s SubscriptionConfig) bool { return s.Topic == topic }) {
			return nil, fmt.Errorf("topic %s appears twice", topic)
		}
		sc := SubscriptionConfig{Topic: topic}
		if expr = strings.TrimSpace(expr); expr != "" && expr != "*" {
			for _, tag := range strings.Split(expr, "||") {
				tag = strings.TrimSpace(tag)
				if err := CheckName("tag of "+topic, tag, TagName); err != nil {
					return nil, err
				}
				sc.Tags = append(sc.Tags, tag)
			}
			if len(sc.Tags) > MaxTags {
				return nil, fmt.Errorf("%s has %d tags; the limit is %d", topic, len(sc.Tags), MaxTags)
			}
		}
		out = append(out, sc)
	}
	if len(out) > MaxSubscriptions {
		return nil, fmt.Errorf("%d topics; the limit is %d", len(out), MaxSubscriptions)
	}
	return out, nil
}

// Statuses from which consumer commands apply.
var (
	running = []string{StatusAlive, StatusIdle, StatusHung}
	gone    = []string{StatusKilled, StatusStopped}
)

// BrokerLatencies are the slow-broker choices menus offer, in milliseconds.
var BrokerLatencies = []int{0, 100, 600, 2000, 6000}

// wordSet is a command's words by language, built by words.
type wordSet map[string]Words

func words(enLabel, enDesc, enDone, zhLabel, zhDesc, zhDone string) wordSet {
	return wordSet{
		"en": {Label: enLabel, Description: enDesc, Done: enDone},
		"zh": {Label: zhLabel, Description: zhDesc, Done: zhDone},
	}
}

// when adds a variant of lang's Done words.
func (ws wordSet) when(lang, cond, done string) wordSet {
	w := ws[lang]
	if w.When == nil {
		w.When = map[string]string{}
	}
	w.When[cond] = done
	ws[lang] = w
	return ws
}

// log sets lang's event-log line.
func (ws wordSet) log(lang, line string) wordSet {
	w := ws[lang]
	w.Log = line
	ws[lang] = w
	return ws
}

// The engine's commands, in the order menus list them.
func init() {
	Register(CommandSpec{Name: "resumeConsumer", Target: TargetConsumer, From: []string{StatusHung}, Menu: true,
		Args:     []Arg{consumerArg},
		Apply:    onConsumer(applyResume),
		Describe: func(c Command) string { return c.ID + " consumes again" },
		Words: words("Resume", "A hung consumer consumes again.", "{id} consumes again",
			"恢复消费", "卡住的消费者恢复消费。", "消费者 {id} 恢复消费")})
	Register(CommandSpec{Name: "healConsumer", Target: TargetConsumer, From: []string{StatusPartitioned}, Menu: true,
		Args:     []Arg{consumerArg},
		Apply:    onConsumer(applyHeal),
		Describe: func(c Command) string { return c.ID + "'s network is back" },
		Words: words("Heal", "A cut-off consumer's network is back.", "{id} reconnected",
			"恢复网络", "断网的消费者恢复网络。", "消费者 {id} 网络恢复")})
	Register(CommandSpec{Name: "restartConsumer", Target: TargetConsumer, From: append([]string{StatusPartitioned}, gone...), Menu: true,
		Args:  []Arg{consumerArg, clientArg},
		Check: checkClientArg,
		Apply: func(c *Cluster, cmd Command) error {
			return onConsumer(func(c *Cluster, cs *consumer) error { return applyRestart(c, cs, cmd.Client) })(c, cmd)
		},
		Overrides: func(c Command) (Override, bool) {
			return clientOverride(c), c.Client != "" // one that names none keeps the process's client
		},
		Describe: func(c Command) string {
			return c.ID + " restarts: a new process, with a new client id unless its instance name is fixed"
		},
		Words: words("Restart", "A new process starts; with the default instance name it has a new client id (spec §1.2), except a Go client's IP@PID (client: the SDK it runs now, the same as before by default).", "{id} restarted",
			"重启", "启动新进程；使用默认实例名时，它的客户端 ID 是新的，Go 客户端的 IP@PID 除外（client：新进程运行的客户端 SDK，默认与之前相同）。", "消费者 {id} 重启")})
	Register(CommandSpec{Name: "killConsumer", Target: TargetConsumer, From: append(slices.Clone(running), StatusPartitioned), Menu: true,
		Args:     []Arg{consumerArg},
		Apply:    onConsumer(applyKill),
		Describe: func(c Command) string { return c.ID + " is killed: its connections close" },
		Words: words("Kill", "The consumer's process dies; its connections close and brokers drop it at once.", "{id} killed",
			"终止", "消费者进程终止；连接关闭，各 Broker 立即移除它。", "消费者 {id} 被强制终止")})
	Register(CommandSpec{Name: "partitionConsumer", Target: TargetConsumer, From: running, Menu: true,
		Args:  []Arg{consumerArg},
		Apply: onConsumer(applyPartition),
		Describe: func(c Command) string {
			return c.ID + " loses its network: brokers keep listing it until its channel expires"
		},
		Words: words("Partition", "The consumer loses its network; brokers keep listing it until its channel expires.", "{id} cut off (brokers still list it until its channel expires, 120 s)",
			"断网", "消费者断网；各 Broker 继续列出它，直到其连接过期。", "消费者 {id} 网络断开（各 Broker 仍列出它，直到其连接过期，120 秒）").
			log("zh", "消费者 {id} 网络断开：各 Broker 会继续列出它，直到其连接过期")})
	Register(CommandSpec{Name: "stopConsumer", Target: TargetConsumer, From: running, Menu: true,
		Args:     []Arg{consumerArg},
		Apply:    onConsumer(applyStop),
		Describe: func(c Command) string { return c.ID + " shuts down gracefully: offsets uploaded, then unregistered" },
		Words: words("Stop", "A graceful shutdown: offsets uploaded, then unregistered from every broker.", "{id} left (graceful shutdown)",
			"正常关闭", "正常关闭：先上传位点，再从各 Broker 注销。", "消费者 {id} 离开（正常关闭）")})
	Register(CommandSpec{Name: "hangConsumer", Target: TargetConsumer, From: []string{StatusAlive, StatusIdle}, Menu: true,
		Args:     []Arg{consumerArg},
		Apply:    onConsumer(applyHang),
		Describe: func(c Command) string { return c.ID + " hangs: it heartbeats but consumes nothing" },
		Words: words("Hang", "The consumer heartbeats but consumes nothing.", "{id} hung (heartbeats, consumes nothing)",
			"挂起", "消费者仍发心跳，但不消费。", "消费者 {id} 卡住（仍发心跳，但不消费）")})
	Register(CommandSpec{Name: "addConsumer", Target: TargetGroup,
		Args: []Arg{consumerArg, optional(intArg("consumeRate", "messages/s", 0, MaxConsumeRate, "500"), 0),
			optional(Arg{Name: "consumeFromWhere", Type: ArgEnum, Enum: []string{FromLastOffset, FromFirstOffset, FromTimestamp},
				Fold: true, Example: FromFirstOffset}, FromLastOffset), clientArg,
			optional(Arg{Name: "clientRebalance", Type: ArgBool, Example: "off"}, "as the group's first member"),
			optional(Arg{Name: "kind", Type: ArgEnum, Enum: ConsumerKinds, Example: KindGrpcPush}, "as the group's first member"),
			optional(proxyArg, "as the group's first member, else the first of proxies")},
		Check: func(path string, c Command, apply bool) error {
			if c.Proxy != "" && c.Kind == KindPush && (c.ClientRebalance == nil || *c.ClientRebalance) {
				// Behind a proxy's remoting port, only the broker-side case is modelled.
				return fmt.Errorf("%s: a push consumer (the classic client) computing its own queues is not modelled behind a proxy; say clientRebalance off (the proxy then refuses its assignment queries, spec §8.1), or kind grpc-push", join(path, "proxy"))
			}
			return checkClientArg(path, c, apply)
		},
		Fill: func(c *Cluster, cmd *Command) {
			if cmd.ID == "" {
				cmd.ID = NextConsumerID(c.Snapshot().Consumers)
			}
		},
		Apply:    applyAddConsumer,
		Grows:    func(c Command) Growth { return Growth{AddsMember: true, Member: c.ID} },
		Describe: func(c Command) string { return c.ID + " starts and joins the group" },
		Overrides: func(c Command) (Override, bool) {
			return clientOverride(c), true // the default client, when none is named
		},
		Words: words("Add consumer", "A consumer process starts and joins the group (consumeRate 0: unlimited; consumeFromWhere: where a queue without an offset starts, LAST_OFFSET by default; client: the SDK it runs, java by default; clientRebalance: false leaves its allocation to the brokers, by default as the group's first member does; kind: push, the classic client, grpc-push, a gRPC PushConsumer through the proxy, or grpc-simple, a gRPC SimpleConsumer receiving from one broker after another, by default as the group's first member; proxy: the proxy a gRPC consumer connects to).", "{id} joined",
			"添加消费者", "启动一个消费者进程并加入消费者组（consumeRate 为 0 表示不限速；consumeFromWhere：没有位点的队列从哪里开始消费，默认 LAST_OFFSET；client：它运行的客户端 SDK，默认 java；clientRebalance：false 表示交由 Broker 分配队列，默认与组内第一个成员相同；kind：push 为经典客户端，grpc-push 为经 Proxy 接入的 gRPC PushConsumer，grpc-simple 为轮流从各 Broker 接收消息的 gRPC SimpleConsumer，默认与组内第一个成员相同；proxy：gRPC 消费者连接的 Proxy）。", "消费者 {id} 加入")})
	latency := intArg("latencyMs", "ms", 0, MaxLatencyMs, "2000")
	latency.Choices = BrokerLatencies
	Register(CommandSpec{Name: "slowBroker", Target: TargetBroker, From: []string{BrokerUp, BrokerDown}, Menu: true,
		Args:  []Arg{brokerArg, latency},
		Apply: onBroker(applySlow),
		Event: func(c Command, e *Event) { e.LatencyMs = int64(*c.LatencyMs) },
		Describe: func(c Command) string {
			return fmt.Sprintf("%s now answers sends in %d ms more", c.Broker, *c.LatencyMs)
		},
		Words: words("Slow down", "Adds latency to the broker's answers to sends (0: normal speed).", "{broker} slowed by {latencyMs} ms",
			"设置延迟", "为 Broker 的发送应答增加延迟（0 为正常速度）。", "{broker} 变慢 {latencyMs} 毫秒").
			when("en", "latencyMs=0", "{broker} at normal speed").when("zh", "latencyMs=0", "{broker} 恢复正常速度")})
	Register(CommandSpec{Name: "killBroker", Target: TargetBroker, From: []string{BrokerUp}, Menu: true,
		Args:     []Arg{brokerArg},
		Apply:    onBroker(applyBrokerDown),
		Describe: func(c Command) string { return c.Broker + " goes down" },
		Words: words("Kill broker", "The broker goes down; the name server drops it from the route.", "{broker} down",
			"停掉 Broker", "Broker 宕机；NameServer 立即把它从路由中移除。", "{broker} 宕机")})
	Register(CommandSpec{Name: "restoreBroker", Target: TargetBroker, From: []string{BrokerDown}, Menu: true,
		Args:     []Arg{brokerArg},
		Apply:    onBroker(applyBrokerBack),
		Describe: func(c Command) string { return c.Broker + " is back" },
		Words: words("Restore broker", "A down broker is back.", "{broker} back",
			"恢复 Broker", "宕机的 Broker 恢复。", "{broker} 恢复")})
	proxyEvent := func(c Command, e *Event) { e.Arg = c.Proxy }
	Register(CommandSpec{Name: "killProxy", Target: TargetProxy, From: []string{BrokerUp}, Menu: true,
		Args:  []Arg{proxyArg},
		Apply: onProxy(applyKillProxy),
		Event: proxyEvent,
		Describe: func(c Command) string {
			return c.Proxy + " is killed: its gRPC clients' calls fail, and what it held in memory is gone"
		},
		Words: words("Kill proxy", "The proxy's process dies (spec §8.4): its gRPC clients' receives, assignment queries, heartbeats and acks fail until it is back; their registrations, the pops it held on the brokers and its renewal table are gone, so the messages it was renewing come back when their invisible time ends.", "{arg} down",
			"停掉 Proxy", "Proxy 进程终止（规范 §8.4）：在它恢复之前，其 gRPC 客户端的接收、分配查询、心跳和确认都会失败；客户端的注册、它在 Broker 上挂起的 pop 以及续期表全部丢失，它正在续期的消息在不可见时间结束后重新投递。", "{arg} 宕机")})
	Register(CommandSpec{Name: "restoreProxy", Target: TargetProxy, From: []string{BrokerDown}, Menu: true,
		Args:  []Arg{proxyArg},
		Apply: onProxy(applyRestoreProxy),
		Event: proxyEvent,
		Describe: func(c Command) string {
			return c.Proxy + " starts again, a fresh process: its clients register at their next heartbeat"
		},
		Words: words("Restore proxy", "A killed proxy starts again with empty tables: each gRPC client registers at its next heartbeat (within 10 s), and its held acks go through.", "{arg} back",
			"恢复 Proxy", "被停掉的 Proxy 以空表重新启动：每个 gRPC 客户端在下一次心跳时（10 秒内）重新注册，之前未送达的确认随之送达。", "{arg} 恢复")})
	Register(CommandSpec{Name: "addProxy", Target: TargetCluster,
		Args:  []Arg{proxyArg},
		Apply: applyAddProxy,
		Event: proxyEvent,
		Describe: func(c Command) string {
			return c.Proxy + " starts: a cluster-mode proxy gRPC consumers may connect to (addConsumer's proxy)"
		},
		Words: words("Add proxy", "A cluster-mode proxy starts (spec §8.4.1); gRPC consumers started with addConsumer may name it as their proxy.", "{arg} started",
			"添加 Proxy", "启动一个集群模式的 Proxy（规范 §8.4.1）；用 addConsumer 启动的 gRPC 消费者可以指定连接它。", "{arg} 启动")})
	Register(CommandSpec{Name: "setPerm", Target: TargetBroker, From: []string{BrokerUp, BrokerDown},
		Args:  []Arg{brokerArg, permArg},
		Apply: onBroker(applySetPerm),
		Event: func(c Command, e *Event) { e.Arg = c.Perm },
		Describe: func(c Command) string {
			return fmt.Sprintf("%s's permission is %s (brokerPermission): clients see it at their next route refresh", c.Broker, c.Perm)
		},
		Words: words("Set permission", "Sets a broker's permission: RW, R (read only: producers stop writing it), W (write only: consumers stop reading it) or none. Clients see it at their next route refresh.", "{broker} permission {arg}",
			"设置权限", "设置 Broker 的读写权限：RW、R（只读：生产者不再写入）、W（只写：消费者不再读取）或 none。客户端在下次刷新路由时看到。", "{broker} 权限 {arg}")})
	Register(CommandSpec{Name: "removeBroker", Target: TargetBroker, From: []string{BrokerUp, BrokerDown},
		Args:  []Arg{brokerArg},
		Apply: onBroker(applyRemoveBroker),
		Describe: func(c Command) string {
			return c.Broker + " leaves the name server: clients drop it at their next route refresh, and what it still holds stays unread"
		},
		Words: words("Remove broker", "The broker unregisters from the name server: clients drop it from their routes at their next refresh; the messages it still holds are read by nobody.", "{broker} removed",
			"移除 Broker", "Broker 从 NameServer 注销：客户端在下次刷新路由时把它移出路由；它仍保存的消息无人读取。", "{broker} 已移除")})
	Register(CommandSpec{Name: "addBroker", Target: TargetCluster,
		Args:  []Arg{brokerArg, optional(queuesArg, addBrokerQueues), topicArg},
		Apply: applyAddBroker,
		Event: func(c Command, e *Event) {
			e.N = addBrokerQueues
			if c.Queues != nil {
				e.N = int64(*c.Queues)
			}
		},
		Grows: func(c Command) Growth {
			g := Growth{SetsQueues: true, AddsBroker: true, Broker: c.Broker, Queues: addBrokerQueues, DefaultQueues: c.Queues == nil}
			if c.Queues != nil {
				g.Queues = *c.Queues
			}
			return g
		},
		Describe: func(c Command) string { return c.Broker + " joins the cluster" },
		Words: words("Add broker", "A broker joins the cluster with its queues for the topic.", "{broker} joined the cluster",
			"添加 Broker", "一个 Broker 带着该 Topic 的队列加入集群。", "{broker} 加入集群")})
	Register(CommandSpec{Name: "addTopic", Target: TargetCluster,
		Args: []Arg{nameArg("topic", &TopicName, "TopicNew"), optional(queuesArg, addBrokerQueues),
			optional(intArg("rate", "messages/s", 0, MaxRate, "100"), 0)},
		Apply: applyAddTopic,
		Event: func(c Command, e *Event) { e.Arg = c.Topic },
		Grows: func(c Command) Growth {
			g := Growth{TopicQueues: addBrokerQueues}
			if c.Queues != nil {
				g.TopicQueues = *c.Queues
			}
			if c.Rate != nil {
				g.AddsRate = *c.Rate
			}
			return g
		},
		Describe: func(c Command) string {
			n := addBrokerQueues
			if c.Queues != nil {
				n = *c.Queues
			}
			text := fmt.Sprintf("topic %s is created with %d queues on every broker: clients see it at their next route refresh, members pull it once they subscribe it", c.Topic, n)
			if c.Rate != nil && *c.Rate > 0 {
				text += fmt.Sprintf("; a producer sends it %d messages/s", *c.Rate)
			}
			return text
		},
		Words: words("Add topic", "Creates a topic with queues on every broker (mqadmin updateTopic), and optionally a producer sending to it; members pull it once they subscribe it (Set subscription).", "topic {arg} created",
			"添加主题", "在每个 Broker 上创建一个主题及其队列（mqadmin updateTopic），可选地加一个向它发送的生产者；成员订阅它之后才拉取（设置订阅）。", "主题 {arg} 已创建")})
	Register(CommandSpec{Name: "setQueues", Target: TargetBroker, From: []string{BrokerUp, BrokerDown},
		Args:  []Arg{brokerArg, queuesArg, topicArg, optional(intArg("readQueueNums", "queues", 0, MaxQueues, "8"), 0), optional(intArg("writeQueueNums", "queues", 0, MaxQueues, "4"), 0)},
		Apply: onBroker(applySetQueues),
		Event: func(c Command, e *Event) { e.N = int64(*c.Queues) },
		Grows: func(c Command) Growth {
			if c.Queues == nil {
				return Growth{} // refused: queues is required
			}
			return Growth{SetsQueues: true, Broker: c.Broker, Queues: *c.Queues}
		},
		Describe: func(c Command) string {
			return fmt.Sprintf("%s now has %d queues for the topic", c.Broker, *c.Queues)
		},
		Words: words("Set queues", "Sets a broker's queue count for the topic.", "{broker} now has {n} queues",
			"设置队列数", "设置 Broker 上该 Topic 的队列数。", "{broker} 现有 {n} 个队列")})
	Register(CommandSpec{Name: "setStrategy", Target: TargetGroup,
		Args: []Arg{
			{Name: "strategy", Type: ArgEnum, Enum: allocate.Names(), Fold: true, Loose: true, Example: "CONSISTENT_HASH"},
			{Name: "params", Type: ArgObject, Optional: true},
			groupArg,
			optional(consumerArg, ""),
			{Name: "source", Type: ArgSource, Optional: true, Example: "def allocate(group, current, queues, consumers): …"},
			fileOnly(optional(intArg("steps", "steps", allocate.MinScriptSteps, allocate.MaxScriptSteps, "20000"), "")),
		},
		Check: func(path string, c Command, apply bool) error {
			p := allocate.Params{} // what setStrategy uses without params
			if c.Params != nil {
				p = *c.Params
			}
			if c.Steps != nil && c.Source == "" {
				return fmt.Errorf("%s: a step budget goes with a source", join(path, "steps"))
			}
			if c.Source != "" {
				if err := CheckChoice(join(path, "strategy"), join(path, "params"), c.Choice(), p); err != nil {
					// CheckChoice says strategy.name and strategy.source; the command's
					// arguments are flat.
					return fmt.Errorf("%s", strings.Replace(strings.Replace(err.Error(), "strategy.source:", "source:", 1), "strategy.name:", "strategy:", 1))
				}
				return nil
			}
			if apply { // allocate.New says what is wrong with the name itself
				if len(c.Strategy) > MaxNameLen {
					return fmt.Errorf("strategy: %s is %d characters long; the limit is %d", Quote(c.Strategy), len(c.Strategy), MaxNameLen)
				}
				return CheckParams("params", p)
			}
			return CheckStrategy(join(path, "strategy"), join(path, "params"), c.Strategy, p)
		},
		Apply: applySetStrategy,
		Event: func(c Command, e *Event) { e.Arg = strings.ToUpper(c.Strategy) },
		Grows: func(c Command) Growth {
			g := Growth{SetsStrategy: true, Strategy: c.Strategy}
			if c.Source != "" {
				g.Steps = c.Choice().StepBudget()
			}
			if c.Params != nil {
				g.Params = *c.Params
			}
			return g
		},
		Describe: func(c Command) string {
			switch {
			case c.ID != "":
				return c.ID + " is redeployed with strategy " + strings.ToUpper(c.Strategy) + "; it uses it from its next rebalance, the others keep theirs"
			case c.Group != "":
				return c.Group + "'s strategy set to " + strings.ToUpper(c.Strategy) + "; each member uses it from its next rebalance"
			}
			return "strategy set to " + strings.ToUpper(c.Strategy) + "; each consumer uses it from its next rebalance"
		},
		Overrides: func(c Command) (Override, bool) {
			return Override{Setting: SettingStrategy, Value: c.Strategy, Code: "timelineSetsStrategy",
				Text: "the timeline sets the strategy to {value} at {t}: from then on the variants allocate alike"}, true
		},
		Words: words("Set strategy", "Sets the allocation strategy of a group (the first by default), or of one member only (a rolling deploy); each uses it from its next rebalance.", "strategy {arg}",
			"设置分配策略", "设置一个消费组（默认第一个）或其中一个成员（滚动发布）的分配策略；从下一次重平衡起使用。", "分配策略改为 {arg}")})
	Register(CommandSpec{Name: "setSubscription", Target: TargetConsumer, From: running,
		Args: []Arg{consumerArg, subscriptionArg, groupArg},
		Check: func(path string, c Command, _ bool) error {
			_, err := ParseSubscriptions(c.Subscription)
			if err != nil {
				return fmt.Errorf("%s: %w", join(path, "subscription"), err)
			}
			return nil
		},
		Apply: applySetSubscription,
		Event: func(c Command, e *Event) { e.Arg = c.Subscription },
		Describe: func(c Command) string {
			return c.ID + " now subscribes " + c.Subscription + ": its heartbeats carry it at once, its next rebalance drops the topics it left"
		},
		Words: words("Set subscription", "One member's subscriptions change (a rolling deploy): topics and tags, written TopicA:TagA||TagB;TopicB. Its heartbeat carries them at once; its next rebalance drops the topics it left.", "{id} subscribes {arg}",
			"设置订阅", "一个成员的订阅改变（滚动发布）：Topic 与 Tag，写作 TopicA:TagA||TagB;TopicB。心跳立即带上新订阅；下一次重平衡丢弃它不再订阅的 Topic。", "{id} 订阅 {arg}")})
	Register(CommandSpec{Name: "setClientRebalance", Target: TargetConsumer, From: running,
		Args: []Arg{consumerArg, {Name: "clientRebalance", Type: ArgBool, Example: "off"}},
		Apply: func(c *Cluster, cmd Command) error {
			return onConsumer(func(c *Cluster, cs *consumer) error {
				cs.brokerSide, cs.warnedAssign = !*cmd.ClientRebalance, false
				return nil
			})(c, cmd)
		},
		Event: func(c Command, e *Event) {
			e.Arg = "on"
			if !*c.ClientRebalance {
				e.Arg = "off"
			}
		},
		Describe: func(c Command) string {
			if *c.ClientRebalance {
				return c.ID + " is redeployed computing its own queues again (clientRebalance true): from its next round"
			}
			return c.ID + " is redeployed with clientRebalance false: from its next round it asks a broker for each topic's queues (QUERY_ASSIGNMENT)"
		},
		Words: words("Client rebalance", "A member redeployed with setClientRebalance(false) asks a broker for its queues (QUERY_ASSIGNMENT) instead of computing them; brokers run only AVG and AVG_BY_CIRCLE. On: it computes them itself again.", "{id}: client rebalance {arg}",
			"客户端重平衡", "以 setClientRebalance(false) 重新发布的成员不再自己计算队列，而是向 Broker 查询（QUERY_ASSIGNMENT）；Broker 只支持 AVG 和 AVG_BY_CIRCLE。打开：它重新自己计算。", "{id}：客户端重平衡 {arg}").
			when("zh", "arg=off", "{id}：改由 Broker 分配队列").when("zh", "arg=on", "{id}：重新自己分配队列")})
	Register(CommandSpec{Name: "setFailRate", Target: TargetConsumer, From: running,
		Args:  []Arg{consumerArg, intArg("failPercent", "%", 0, 100, "10"), groupArg},
		Apply: applySetFailRate,
		Event: func(c Command, e *Event) { e.N = int64(*c.FailPercent) },
		Describe: func(c Command) string {
			return fmt.Sprintf("%s's listener now answers RECONSUME_LATER to %d %% of its deliveries: each goes back through the send-back and the delay ladder", c.ID, *c.FailPercent)
		},
		Words: words("Set failure rate", "The share of deliveries one member's listener answers RECONSUME_LATER, 0 to 100 %: each failed message is sent back, waits on the delay ladder and, after maxReconsumeTimes, goes to the group's DLQ.", "{id} fails {n} % of its messages",
			"设置失败率", "一个成员的监听器对多大比例的投递返回 RECONSUME_LATER（0 到 100%）：每条失败的消息被发回 Broker，在延迟级别上等待，超过 maxReconsumeTimes 后进入消费组的死信队列。", "{id} 的消息失败率为 {n}%")})
	Register(CommandSpec{Name: "setAutoscale", Target: TargetGroup,
		Args: []Arg{intArg("outAbove", "messages", 0, MaxBacklogRule, "5000"),
			intArg("maxMembers", "members", 0, MaxConsumers, "8"),
			optional(intArg("outForS", "s", 0, MaxDayMs/1000, "300"), 0),
			optional(intArg("inBelow", "messages", 0, MaxBacklogRule, "500"), 0),
			optional(intArg("inForS", "s", 0, MaxDayMs/1000, "300"), 0),
			optional(intArg("minMembers", "members", 0, MaxConsumers, "1"), 0),
			groupArg},
		Check: func(path string, c Command, _ bool) error {
			if a := c.Autoscale(); a != nil && (a.Min > a.Max || a.InBelow > a.OutAbove) {
				return fmt.Errorf("%s %d, maxMembers %d, inBelow %d, outAbove %d; want minMembers ≤ maxMembers and inBelow ≤ outAbove",
					join(path, "minMembers"), a.Min, a.Max, a.InBelow, a.OutAbove)
			}
			return nil
		},
		Apply: applySetAutoscale,
		Event: func(c Command, e *Event) {
			if a := c.Autoscale(); a != nil {
				e.N, e.Arg = int64(a.Max), "on"
			} else {
				e.Arg = "off"
			}
		},
		Grows: func(c Command) Growth {
			if a := c.Autoscale(); a != nil {
				return Growth{AddsMembers: a.Max}
			}
			return Growth{}
		},
		Describe: func(c Command) string {
			who := "the group's autoscaler"
			if c.Group != "" {
				who = c.Group + "'s autoscaler"
			}
			a := c.Autoscale()
			if a == nil {
				return who + " is off: its members stay as they are"
			}
			in := "it never stops one"
			if a.InBelow > 0 {
				in = fmt.Sprintf("below %d for %d s it stops the newest", a.InBelow, a.InForMs/1000)
			}
			return fmt.Sprintf("%s reads its backlog every 15 s: above %d for %d s it starts a member, %s; between %d and %d members",
				who, a.OutAbove, a.OutForMs/1000, in, a.Min, a.Max)
		},
		Words: words("Set autoscaler", "A rule on the group's backlog, as a Kubernetes HPA runs it: once the backlog stayed above outAbove for outForS seconds it starts a member, once below inBelow for inForS seconds it stops the newest; never below minMembers nor above maxMembers (0: the autoscaler is off). Each step is a rebalance.", "autoscaler on, up to {n} members",
			"设置自动扩缩容", "按消费组的堆积设置规则，如同 Kubernetes HPA：堆积高于 outAbove 持续 outForS 秒就启动一个成员，低于 inBelow 持续 inForS 秒就停掉最新的一个；成员数不少于 minMembers、不多于 maxMembers（为 0 时关闭）。每一步都是一次重平衡。", "自动扩缩容开启，最多 {n} 个成员").
			when("en", "arg=off", "autoscaler off").when("zh", "arg=off", "自动扩缩容关闭")})
	Register(CommandSpec{Name: "setProducerRate", Target: TargetProducer,
		Args:  []Arg{intArg("rate", "messages/s", 0, MaxRate, "500"), optional(nameArg("id", &PlainName, "p1"), "")},
		Apply: applySetProducerRate,
		Event: func(c Command, e *Event) { e.N = int64(*c.Rate) },
		Grows: func(c Command) Growth {
			if c.Rate == nil {
				return Growth{} // refused: rate is required
			}
			return Growth{SetsRate: true, RateOf: c.ID, Rate: *c.Rate}
		},
		Describe: func(c Command) string {
			return fmt.Sprintf("producers send %d messages/s", *c.Rate)
		},
		Words: words("Set send rate", "Sets the producers' send rate (one producer's with id).", "producers send {n} messages/s",
			"设置发送速率", "设置生产者的发送速率（给出 id 时只设置该生产者）。", "生产者每秒发送 {n} 条消息")})
	Register(CommandSpec{Name: "setLatencyFault", Target: TargetProducer,
		Args:  []Arg{{Name: "on", Type: ArgBool, Example: "on"}},
		Apply: applySetLatencyFault,
		Event: func(c Command, e *Event) {
			e.Arg = "off"
			if *c.On {
				e.Arg = "on"
			}
		},
		Describe: func(c Command) string {
			if *c.On {
				return "latency fault tolerance on"
			}
			return "latency fault tolerance off"
		},
		Overrides: func(c Command) (Override, bool) {
			if c.On == nil {
				return Override{}, false
			}
			v := "off"
			if *c.On {
				v = "on"
			}
			return Override{Setting: SettingLatencyFault, Value: v, Code: "timelineSetsLatencyFault",
				Text: "the timeline turns latency fault tolerance {value} at {t}: from then on the variants' producers behave alike"}, true
		},
		Words: words("Latency fault tolerance", "Turns the producers' latency fault tolerance on or off.", "latency fault tolerance {arg}",
			"设置延迟容错", "开启或关闭生产者的延迟容错。", "延迟容错已开启").
			when("zh", "arg=off", "延迟容错已关闭")})
	Register(CommandSpec{Name: "setFaultTable", Target: TargetProducer,
		Args:     []Arg{{Name: "table", Type: ArgEnum, Enum: []string{fault.TableCurrent, fault.TableLegacy4x}, Example: fault.TableLegacy4x}},
		Apply:    applySetFaultTable,
		Event:    func(c Command, e *Event) { e.Arg = c.Table },
		Describe: func(c Command) string { return "fault table: " + c.Table },
		Overrides: func(c Command) (Override, bool) {
			return Override{Setting: SettingFaultTable, Value: c.Table, Code: "timelineSetsFaultTable",
				Text: "the timeline sets the fault table to {value} at {t}: from then on the variants' producers behave alike"}, true
		},
		Words: words("Set fault table", "Sets the producers' latency fault table (current or legacy-4x).", "fault table {arg}",
			"设置故障规避表", "设置生产者的延迟故障规避表（current 或 legacy-4x）。", "故障规避表改为 {arg}")})
	producerID := optional(nameArg("id", &PlainName, "p1"), "")
	tiers := func(name, example string) Arg {
		return Arg{Name: name, Type: ArgInts, Unit: "ms", Min: ip(-MaxTierMs), Max: ip(MaxTiers), Example: example}
	}
	Register(CommandSpec{Name: "setLatencyTiers", Target: TargetProducer,
		Args:  []Arg{tiers("latencyMax", "50,100,550,1800,3000,5000,15000"), tiers("notAvailableDuration", "0,0,30000,60000,120000,180000,600000"), producerID},
		Apply: applySetLatencyTiers,
		Describe: func(c Command) string {
			who := "producers"
			if c.ID != "" {
				who = c.ID
			}
			return fmt.Sprintf("%s' latency tiers: latencyMax %s, notAvailableDuration %s", who, tiersText(c.LatencyMax), tiersText(c.NotAvailableDuration))
		},
		Words: words("Set latency tiers", "Sets the producers' own latency tiers, setLatencyMax and setNotAvailableDuration, in ms (one producer's with id): a send that took at least latencyMax[i] ms isolates its broker for notAvailableDuration[i] ms. Like the client, nothing checks them: the highest index whose threshold is reached wins, and a shorter notAvailableDuration throws in latency mode. A Go producer has no tiers.", "latency tiers set",
			"设置延迟分级", "设置生产者自己的延迟分级 setLatencyMax 与 setNotAvailableDuration，单位毫秒（给出 id 时只设置该生产者）：耗时不少于 latencyMax[i] 毫秒的发送让其 Broker 被规避 notAvailableDuration[i] 毫秒。与客户端一样不做任何检查：取达到阈值的最大下标；notAvailableDuration 较短时，延迟容错模式下会抛出异常。Go 生产者没有分级。", "延迟分级已设置")})
	Register(CommandSpec{Name: "setSelector", Target: TargetProducer,
		Args: []Arg{
			nameArg("selector", &PlainName, "COMPOSITE"),
			{Name: "source", Type: ArgSource, Optional: true, Example: "def select(queues, message, arg): …"},
			fileOnly(optional(intArg("steps", "steps", selector.MinSteps, selector.MaxSteps, "1000"), "")),
			producerID,
		},
		Check: func(path string, c Command, _ bool) error {
			if c.Source == "" {
				if c.Steps != nil {
					return fmt.Errorf("%s: a step budget goes with a source", join(path, "steps"))
				}
				return nil
			}
			err := CheckSelector(strings.TrimSuffix(join(path, "selector"), ".selector"), ProducerConfig{Keys: &KeysConfig{Count: 1}, Selector: c.SelectorChoice()})
			if err != nil {
				// CheckSelector says selector.name and selector.source; the command's
				// arguments are flat.
				return fmt.Errorf("%s", strings.Replace(strings.Replace(err.Error(), "selector.source:", "source:", 1), "selector.name:", "selector:", 1))
			}
			return nil
		},
		Apply: applySetSelector,
		Event: func(c Command, e *Event) { e.Arg = c.Selector },
		Grows: func(c Command) Growth {
			if ch := c.SelectorChoice(); ch != nil {
				return Growth{SelectorSteps: ch.StepBudget(), SelectorOf: c.ID}
			}
			return Growth{}
		},
		Describe: func(c Command) string {
			who := "producers' keyed sends"
			if c.ID != "" {
				who = c.ID + "'s keyed sends"
			}
			if c.Source == "" {
				return who + " use SelectMessageQueueByHash"
			}
			return who + " use the selector " + c.Selector
		},
		Words: words("Set selector", "Sets the MessageQueueSelector of the producers' keyed sends (one producer's with id): your own, selector and its Starlark source, def select(queues, message, arg), or without a source SelectMessageQueueByHash again. A select that fails fails the send, as the client's MQClientException does.", "keyed sends use {arg}",
			"设置队列选择器", "设置生产者带键发送所用的 MessageQueueSelector（给出 id 时只设置该生产者）：你自己的选择器（名称及其 Starlark 源码 def select(queues, message, arg)），不给源码则恢复 SelectMessageQueueByHash。select 出错时这次发送失败，与客户端的 MQClientException 一样。", "带键发送改用 {arg}")})
	Register(CommandSpec{Name: "setProducerThreads", Target: TargetProducer,
		Args:  []Arg{intArg("threads", "threads", 1, MaxSendThreads, "16"), producerID},
		Apply: applySetProducerThreads,
		Event: func(c Command, e *Event) { e.N = int64(*c.Threads) },
		Describe: func(c Command) string {
			who := "producers send"
			if c.ID != "" {
				who = c.ID + " sends"
			}
			return fmt.Sprintf("%s from %d threads", who, *c.Threads)
		},
		Words: words("Set sending threads", "Sets how many threads call the synchronous send (one producer's with id); each blocks for its whole send, and the rate is split between them. A thread beyond the new count finishes its send first.", "producers send from {n} threads",
			"设置发送线程数", "设置调用同步发送的线程数（给出 id 时只设置该生产者）；每个线程在整个发送期间阻塞，发送速率由它们分担。超出新线程数的线程先完成手头的发送。", "生产者使用 {n} 个线程发送")})
	Register(CommandSpec{Name: "setSendMode", Target: TargetProducer,
		Args: []Arg{{Name: "mode", Type: ArgEnum, Enum: []string{SendSync, SendAsync}, Fold: true, Example: SendSync},
			optional(intArg("threads", "threads", 1, MaxSendThreads, "4"), nil), producerID},
		Check: func(path string, c Command, _ bool) error {
			if c.Threads != nil && strings.EqualFold(c.Mode, SendAsync) {
				return fmt.Errorf("%s: an async producer's sends do not block; threads applies to mode %s", join(path, "threads"), SendSync)
			}
			return nil
		},
		Apply: applySetSendMode,
		Event: func(c Command, e *Event) { e.Arg = strings.ToLower(c.Mode) },
		Describe: func(c Command) string {
			who := "producers send"
			if c.ID != "" {
				who = c.ID + " sends"
			}
			if strings.EqualFold(c.Mode, SendAsync) {
				return who + " asynchronously: nothing blocks, retries in the callback"
			}
			return who + " synchronously: each thread blocks for its send"
		},
		Words: words("Set send mode", "Switches the producers (one producer with id) between sync, send(msg), whose thread blocks for the whole send, and async, send(msg, callback), where nothing blocks (threads: the sync threads, 1 by default). Sends in progress finish as they began.", "send mode {arg}",
			"设置发送方式", "在同步 send(msg)（线程在整个发送期间阻塞）与异步 send(msg, callback)（不阻塞）之间切换生产者（给出 id 时只切换该生产者；threads：同步线程数，默认 1）。进行中的发送按原方式完成。", "发送方式改为同步").
			when("zh", "arg=async", "发送方式改为异步")})
	Register(CommandSpec{Name: "setConsumeMode", Target: TargetGroup,
		Args: []Arg{{Name: "consumeMode", Type: ArgEnum, Enum: []string{ModePull, ModePop}, Fold: true, Example: ModePop},
			optional(intArg("popShareQueueNum", "members", -1, MaxConsumers, "1"), 0), groupArg},
		Apply: applySetConsumeMode,
		Event: func(c Command, e *Event) { e.Arg = strings.ToUpper(c.ConsumeMode) },
		Describe: func(c Command) string {
			if strings.EqualFold(c.ConsumeMode, ModePop) {
				return "the brokers serve the group's topics by POP (mqadmin setConsumeMode -m POP): its members that let the brokers allocate (clientRebalance false) pop messages from shared queues from their next round"
			}
			return "the brokers serve the group's topics by PULL again: its members that let the brokers allocate get exclusive queues from their next round"
		},
		Words: words("Set consume mode", "mqadmin setConsumeMode: the brokers' message request mode for the group's topics. POP: members that let the brokers allocate (clientRebalance false) share every queue and pop messages, each invisible until acked or revived; popShareQueueNum k gives each member its block and the next k members'. PULL: exclusive queues.", "consume mode {arg}",
			"设置消费模式", "mqadmin setConsumeMode：Broker 为该组的 Topic 采用的消息请求模式。POP：交由 Broker 分配的成员（clientRebalance false）共享所有队列并逐条 Pop 消息，消息在确认或复活前不可见；popShareQueueNum k 让每个成员拿到自己和后 k 个成员的分块。PULL：独占队列。", "消费模式改为 {arg}")})
	Register(CommandSpec{Name: "setMessageModel", Target: TargetGroup,
		Args:     []Arg{{Name: "model", Type: ArgEnum, Enum: []string{Clustering, Broadcasting}, Example: Broadcasting}, groupArg},
		Apply:    applySetMessageModel,
		Event:    func(c Command, e *Event) { e.Arg = c.Model },
		Describe: func(c Command) string { return "message model: " + c.Model },
		Words: words("Set message model", "Sets the group's message model, CLUSTERING or BROADCASTING.", "message model {arg}",
			"设置消息模式", "设置消费者组的消息模式：CLUSTERING 或 BROADCASTING。", "消息模式改为 {arg}")})
}
