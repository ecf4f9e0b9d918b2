// Package script runs allocation strategies and queue selectors that users write in
// Starlark (go.starlark.net: deterministic, hermetic, Python-like), with the same interpreter
// everywhere a strategy runs. It is plain Go without build tags: the command line (`lbscope
// allocate|sim|compare --strategy-file`) imports it today, and the playground can import the
// same package once it has room for the interpreter.
//
// A strategy file defines
//
//	def allocate(group, current, queues, consumers[, view])
//
// queues being the sorted list RebalanceImpl passes (each a struct with topic, broker_name
// and queue_id), consumers the sorted client ids, and returning the list of queues current
// pulls. It may also define
//
//	def select(queues, message, arg)
//
// for a producer's MessageQueueSelector (message has key, tags and seq, the producer's count
// of keyed sends before it), returning one of queues.
// Predeclared helpers a Java port needs: java.hash_code (String.hashCode), java.div and
// java.mod (integer division and remainder with Java's signs), java.abs (Math.abs on an
// int), md5 (the digest as 16 ints, 0…255) and crc32 (CRC32.getValue()).
//
// Every call runs under bounds: a step budget, a memory guard and, for the file, a size
// limit. Anything that goes wrong — a syntax error, a runtime error, a budget overrun or a
// result that is not a list of distinct queues from queues — is an *Error naming the file
// and line, which the simulator treats as the Java client treats an exception thrown by
// allocate (spec §3.3 step 6: logged, the old queues kept, the round unbalanced).
package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
	"go.starlark.net/syntax"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// Bounds of a strategy file and of each call into it.
const (
	// MaxSource is the largest strategy file, in bytes.
	MaxSource = allocate.MaxSource
	// MaxSteps is the step budget of one call (and of running the file's top level): about
	// a tenth of a second of Starlark, a hundred times what a weighted allocator over 1,024
	// queues and 128 consumers needs.
	MaxSteps = allocate.MaxScriptSteps
	// MaxAlloc is the memory one call may build, in bytes, as guard.go counts it.
	MaxAlloc = 64 << 20
)

// Error is what went wrong in a script: where (file:line:col, or the file alone) and what.
type Error struct {
	Pos string
	Msg string
}

func (e *Error) Error() string {
	if e.Pos == "" {
		return e.Msg
	}
	return e.Pos + ": " + e.Msg
}

// Program is a loaded strategy file. It is an allocate.Strategy; it is safe for concurrent
// use (each call runs in its own Starlark thread, over frozen values).
type Program struct {
	name, file string
	steps      int                // the step budget of one call
	alloc      *starlark.Function // nil when the file defines no allocate
	view       bool               // allocate takes the fifth parameter
	sel        *starlark.Function // nil when the file defines no select

	mu      sync.Mutex
	queues  queueCache
	ids     idCache
	publish queueCache // select's lists: a producer's publish list, apart from allocate's
}

// options are the dialect: while loops for Java ports, sets; no recursion (a runaway one
// would exhaust the Go stack rather than a budget), no top-level loops.
var options = &syntax.FileOptions{Set: true, While: true}

// Load compiles a strategy file and runs its top level. name is the strategy's name (upper
// case, as the strategy table wants it); filename is what messages call the file.
func Load(name, filename string, src []byte) (*Program, error) {
	return LoadSteps(name, filename, src, MaxSteps)
}

// LoadSteps is Load with a step budget of steps for the top level and for each call.
func LoadSteps(name, filename string, src []byte, steps int) (*Program, error) {
	if len(src) > MaxSource {
		return nil, &Error{Pos: filename, Msg: fmt.Sprintf("the file has %d bytes; a strategy file may have at most %d", len(src), MaxSource)}
	}
	thread := newThread(filename, steps)
	globals, err := run(thread, func() (starlark.StringDict, error) { return compileAndRun(thread, filename, src) })
	if err != nil {
		return nil, err
	}
	p := &Program{name: name, file: filename, steps: steps}
	for _, d := range []struct {
		name   string
		params []int
		dst    **starlark.Function
	}{{"allocate", []int{4, 5}, &p.alloc}, {"select", []int{3}, &p.sel}} {
		v, ok := globals[d.name]
		if !ok {
			continue
		}
		fn, ok := v.(*starlark.Function)
		if !ok {
			return nil, &Error{Pos: filename, Msg: fmt.Sprintf("%s is a %s, want a function: def %s(...)", d.name, v.Type(), d.name)}
		}
		if n := fn.NumParams(); !slices.Contains(d.params, n) || fn.HasVarargs() || fn.HasKwargs() {
			want := "def allocate(group, current, queues, consumers) or def allocate(group, current, queues, consumers, view)"
			if d.name == "select" {
				want = "def select(queues, message, arg)"
			}
			return nil, &Error{Pos: fn.Position().String(), Msg: fmt.Sprintf("%s takes %d parameters; want %s", d.name, n, want)}
		}
		*d.dst = fn
	}
	if p.alloc == nil && p.sel == nil {
		return nil, &Error{Pos: filename, Msg: "the file defines neither allocate(group, current, queues, consumers) nor select(queues, message, arg)"}
	}
	p.view = p.alloc != nil && p.alloc.NumParams() == 5
	return p, nil
}

// compileAndRun parses src, rewrites it under the memory guard (rewrite.go), compiles it and
// runs its top level on thread.
func compileAndRun(thread *thread, filename string, src []byte) (starlark.StringDict, error) {
	f, err := options.Parse(filename, src, 0)
	if err != nil {
		return nil, err
	}
	if err := rewrite(f); err != nil {
		return nil, err
	}
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		return nil, err
	}
	g, err := prog.Init(thread.t, predeclared)
	g.Freeze()
	return g, err
}

// Name is the strategy's name.
func (p *Program) Name() string { return p.name }

// File is the file the program was loaded from, as messages name it.
func (p *Program) File() string { return p.file }

// HasAllocate and HasSelect say which functions the file defines.
func (p *Program) HasAllocate() bool { return p.alloc != nil }
func (p *Program) HasSelect() bool   { return p.sel != nil }

// Allocate calls the file's allocate. The lists are passed in the order given, as the Java
// client passes them; the result keeps the order allocate returned. A fifth parameter gets a
// view of the consumers without attributes or metrics (AllocateView gives one).
func (p *Program) Allocate(group, current string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	return p.AllocateView(group, current, mqAll, cidAll, allocate.Viewpoint{})
}

// TakesView reports whether the file's allocate takes the fifth parameter, the view.
func (p *Program) TakesView() bool { return p.view }

// AllocateView is Allocate with v as the fifth parameter (for a file whose allocate takes
// it): what the member current reads of the group at its rebalance.
func (p *Program) AllocateView(group, current string, mqAll []route.MessageQueue, cidAll []string, v allocate.Viewpoint) ([]route.MessageQueue, error) {
	if p.alloc == nil {
		return nil, &Error{Pos: p.file, Msg: "the file defines no allocate(group, current, queues, consumers)"}
	}
	p.mu.Lock()
	queues, index := p.queues.get(mqAll)
	ids := p.ids.get(cidAll)
	p.mu.Unlock()
	args := starlark.Tuple{starlark.String(group), starlark.String(current), queues, ids}
	if p.view {
		args = append(args, newView(cidAll, v))
	}
	thread := newThread(p.file, p.steps)
	out, err := run(thread, func() (starlark.StringDict, error) {
		r, err := starlark.Call(thread.t, p.alloc, args, nil)
		return starlark.StringDict{"": r}, err
	})
	if err != nil {
		return nil, err
	}
	return p.queuesOf(out[""], mqAll, index)
}

// queuesOf turns allocate's result into queues: a list (or tuple) of distinct queues of
// mqAll, or an error saying what is wrong with it.
func (p *Program) queuesOf(v starlark.Value, mqAll []route.MessageQueue, index map[*starlarkstruct.Struct]int) ([]route.MessageQueue, error) {
	where := p.alloc.Position().String()
	seq, ok := v.(starlark.Indexable)
	if v == starlark.None {
		return nil, &Error{Pos: where, Msg: "allocate returned None (it reached no return?), want a list of queues taken from queues"}
	}
	if _, isStr := v.(starlark.String); !ok || isStr || v.Type() == "bytes" {
		return nil, &Error{Pos: where, Msg: fmt.Sprintf("allocate returned a %s (%s), want a list of queues taken from queues", v.Type(), short(v))}
	}
	out := make([]route.MessageQueue, 0, seq.Len())
	at := make(map[int]int, seq.Len())
	for i := range seq.Len() {
		x := seq.Index(i)
		s, _ := x.(*starlarkstruct.Struct)
		k, ok := index[s]
		if !ok {
			return nil, &Error{Pos: where, Msg: fmt.Sprintf("item %d of allocate's result, %s, is not one of the queues passed in", i, short(x))}
		}
		if j, dup := at[k]; dup {
			return nil, &Error{Pos: where, Msg: fmt.Sprintf("allocate's result holds %s twice (items %d and %d): a queue is pulled once", mqAll[k].Short(), j, i)}
		}
		at[k] = i
		out = append(out, mqAll[k])
	}
	return out, nil
}

// Message is what select sees of a message: its key and tags.
type Message = selector.Message

// Select calls the file's select: which of mqs the message goes to. arg is the send's
// argument: nil, a bool, an int, a string, or a list or map of those.
func (p *Program) Select(mqs []route.MessageQueue, msg Message, arg any) (route.MessageQueue, error) {
	if p.sel == nil {
		return route.MessageQueue{}, &Error{Pos: p.file, Msg: "the file defines no select(queues, message, arg)"}
	}
	a, err := toValue(arg)
	if err != nil {
		return route.MessageQueue{}, &Error{Pos: p.file, Msg: "select's arg: " + err.Error()}
	}
	p.mu.Lock()
	queues, index := p.publish.get(mqs)
	p.mu.Unlock()
	m := starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{"key": starlark.String(msg.Key), "tags": starlark.String(msg.Tags),
		"seq": starlark.MakeInt64(msg.Seq)})
	thread := newThread(p.file, p.steps)
	v, err := run(thread, func() (starlark.StringDict, error) {
		v, err := starlark.Call(thread.t, p.sel, starlark.Tuple{queues, m, a}, nil)
		return starlark.StringDict{"": v}, err
	})
	if err != nil {
		return route.MessageQueue{}, err
	}
	s, _ := v[""].(*starlarkstruct.Struct)
	k, ok := index[s]
	if !ok {
		return route.MessageQueue{}, &Error{Pos: p.sel.Position().String(), Msg: fmt.Sprintf("select returned %s, which is not one of the queues passed in", short(v[""]))}
	}
	return mqs[k], nil
}

func toValue(x any) (starlark.Value, error) {
	switch v := x.(type) {
	case nil:
		return starlark.None, nil
	case bool:
		return starlark.Bool(v), nil
	case int:
		return starlark.MakeInt(v), nil
	case int64:
		return starlark.MakeInt64(v), nil
	case float64:
		if v == float64(int64(v)) {
			return starlark.MakeInt64(int64(v)), nil
		}
		return starlark.Float(v), nil
	case string:
		return starlark.String(v), nil
	case []any:
		l := make([]starlark.Value, len(v))
		for i, e := range v {
			var err error
			if l[i], err = toValue(e); err != nil {
				return nil, err
			}
		}
		return starlark.NewList(l), nil
	case map[string]any:
		d := starlark.NewDict(len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			e, err := toValue(v[k])
			if err != nil {
				return nil, err
			}
			d.SetKey(starlark.String(k), e)
		}
		return d, nil
	}
	return nil, fmt.Errorf("a %T cannot be passed to Starlark", x)
}

// short is a value as Starlark prints it, cut to a readable length.
func short(v starlark.Value) string {
	s := v.String()
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// newView is allocate's fifth argument: what the member reads of the group (allocate.Viewpoint):
//
//	view.now                      its rebalance moment, ms
//	view.consumers[id].attributes the scenario's attributes: {"weight": 3, "region": "hz"}
//	view.consumers[id].cpu        CPU load 0…1 as last published (its own: now); None before
//	view.consumers[id].consume_rate  messages/s consumed, likewise
//	view.consumers[id].latency    {broker: pull latency in ms}, likewise
//	view.consumers[id].published_at  when it published, ms; None before
func newView(cidAll []string, vp allocate.Viewpoint) starlark.Value {
	consumers := starlark.NewDict(len(cidAll))
	for _, id := range cidAll {
		m := vp.Consumers[id]
		attrs := starlark.NewDict(len(m.Attributes))
		for _, k := range slices.Sorted(maps.Keys(m.Attributes)) {
			attrs.SetKey(starlark.String(k), attrValue(m.Attributes[k]))
		}
		fields := starlark.StringDict{"attributes": attrs, "cpu": starlark.None, "consume_rate": starlark.None,
			"latency": starlark.NewDict(0), "published_at": starlark.None}
		if x := m.Metrics; x != nil {
			lat := starlark.NewDict(len(x.LatencyMs))
			for _, b := range slices.Sorted(maps.Keys(x.LatencyMs)) {
				lat.SetKey(starlark.String(b), starlark.MakeInt64(x.LatencyMs[b]))
			}
			fields["cpu"], fields["consume_rate"] = starlark.Float(x.CPU), starlark.Float(x.ConsumeRate)
			fields["latency"], fields["published_at"] = lat, starlark.MakeInt64(x.AtMs)
		}
		consumers.SetKey(starlark.String(id), starlarkstruct.FromStringDict(starlarkstruct.Default, fields))
	}
	v := starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{"consumers": consumers, "now": starlark.MakeInt64(vp.NowMs)})
	v.Freeze()
	return v
}

// attrValue is an attribute as Starlark sees it: a string, or an int.
func attrValue(x any) starlark.Value {
	switch v := x.(type) {
	case string:
		return starlark.String(v)
	case float64:
		return starlark.MakeInt64(int64(v))
	case int:
		return starlark.MakeInt(v)
	case int64:
		return starlark.MakeInt64(v)
	case json.Number:
		n, _ := v.Int64()
		return starlark.MakeInt64(n)
	}
	return starlark.None
}

// queueCache keeps the Starlark list of the last queue list passed, so that the 128 members
// of a group calling with the same 1,024 queues build it once.
type queueCache struct {
	key   []route.MessageQueue
	list  *starlark.List
	index map[*starlarkstruct.Struct]int
}

func (c *queueCache) get(mqs []route.MessageQueue) (*starlark.List, map[*starlarkstruct.Struct]int) {
	if c.list != nil && slices.Equal(c.key, mqs) {
		return c.list, c.index
	}
	elems := make([]starlark.Value, len(mqs))
	index := make(map[*starlarkstruct.Struct]int, len(mqs))
	for i, q := range mqs {
		s := starlarkstruct.FromStringDict(starlarkstruct.Default, starlark.StringDict{
			"topic": starlark.String(q.Topic), "broker_name": starlark.String(q.BrokerName), "queue_id": starlark.MakeInt(int(q.QueueID)),
		})
		elems[i] = s
		if _, dup := index[s]; !dup {
			index[s] = i
		}
	}
	l := starlark.NewList(elems)
	l.Freeze()
	c.key, c.list, c.index = slices.Clone(mqs), l, index
	return l, index
}

type idCache struct {
	key  []string
	list *starlark.List
}

func (c *idCache) get(ids []string) *starlark.List {
	if c.list != nil && slices.Equal(c.key, ids) {
		return c.list
	}
	elems := make([]starlark.Value, len(ids))
	for i, id := range ids {
		elems[i] = starlark.String(id)
	}
	l := starlark.NewList(elems)
	l.Freeze()
	c.key, c.list = slices.Clone(ids), l
	return l
}

// Compile is the allocate.Compiler of Starlark strategies: the source as Load reads it.
func Compile(name, file string, src []byte, steps int) (allocate.Strategy, error) {
	p, err := LoadSteps(name, file, src, steps)
	if err != nil {
		return nil, err
	}
	if p.alloc == nil {
		return nil, &Error{Pos: file, Msg: "the source defines no allocate(group, current, queues, consumers), so it is no allocation strategy"}
	}
	return p, nil
}

// CompileSelector is the selector.Compiler of Starlark selectors: the source as Load reads
// it, which must define select(queues, message, arg).
func CompileSelector(name, file string, src []byte, steps int) (selector.Custom, error) {
	p, err := LoadSteps(name, file, src, steps)
	if err != nil {
		return nil, err
	}
	if p.sel == nil {
		return nil, &Error{Pos: file, Msg: "the source defines no select(queues, message, arg), so it is no queue selector"}
	}
	return p, nil
}

// Enable makes the strategies and selectors that scenarios and commands give with their
// source run here, in Starlark: drivers call it once, at start (the core reads no source
// itself).
func Enable() {
	allocate.SetCompiler(Compile)
	selector.SetCompiler(CompileSelector)
}

// Register loads nothing: it adds p to the strategy table under its name, so that every door
// that takes a strategy name (--strategy, --variants, a scenario's strategy) takes it. A name
// already in the table is an error.
func Register(p *Program) error {
	if p.alloc == nil {
		return &Error{Pos: p.file, Msg: "the file defines no allocate(group, current, queues, consumers), so it is no allocation strategy"}
	}
	if _, _, taken := allocate.Lookup(p.name); taken {
		return fmt.Errorf("strategy name %s is taken (a built-in strategy or another file has it); rename the file", p.name)
	}
	allocate.Register(allocate.StrategySpec{
		Name: p.name,
		Words: map[string]allocate.Words{
			"en": {Label: p.name, Hint: "A strategy written in Starlark, from " + p.file + "."},
			"zh": {Label: p.name, Hint: "用 Starlark 编写的策略，来自 " + p.file + "。"},
		},
		New:   func(allocate.Params) (allocate.Strategy, error) { return p, nil },
		Steps: MaxSteps,
	})
	return nil
}

// NameOf is the strategy name a file's path gives: its base name without the extension, in
// upper case, every character other than a letter, digit or '_' an underscore ("weighted.star"
// is WEIGHTED, "my-avg.star" MY_AVG).
func NameOf(path string) string {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	var b strings.Builder
	for _, r := range strings.ToUpper(base) {
		if r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "SCRIPT"
	}
	return b.String()
}

// errorOf turns an interpreter error into an *Error at its innermost line of the file.
func errorOf(err error, file string) error {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		pos := file
		for i := range len(ee.CallStack) {
			if f := ee.CallStack.At(i); f.Pos.Filename() != "<builtin>" {
				pos = f.Pos.String()
				break
			}
		}
		return &Error{Pos: pos, Msg: ee.Msg}
	}
	var se syntax.Error
	if errors.As(err, &se) {
		return &Error{Pos: se.Pos.String(), Msg: "syntax error: " + se.Msg}
	}
	var rl resolve.ErrorList
	if errors.As(err, &rl) && len(rl) > 0 {
		return &Error{Pos: rl[0].Pos.String(), Msg: rl[0].Msg}
	}
	if msg := err.Error(); strings.HasPrefix(msg, file+":") {
		pos, rest, _ := strings.Cut(msg, ": ")
		return &Error{Pos: pos, Msg: rest}
	}
	return &Error{Pos: file, Msg: err.Error()}
}
