package allocate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Choice is a strategy as a scenario or a command names it: a name from the strategy table
// ("AVG"), or a user's own strategy, its name and its source, which the compiler a driver
// set (SetCompiler) turns into a Strategy. The core never reads a source itself: the command
// line, the playground and the tests set the Starlark compiler.
//
// Its JSON form is the name alone, "AVG", or {"name": "WEIGHTED", "source": "def allocate…"}.
type Choice struct {
	Name   string `json:"name"`
	Source string `json:"source,omitempty"`
	// Steps is the step budget of one call of a source's strategy; 0 is DefaultScriptSteps.
	Steps int `json:"steps,omitempty"`
}

// MaxSource bounds a strategy's source, in bytes.
const MaxSource = 64 << 10

// Named is the Choice of a strategy of the table.
func Named(name string) Choice { return Choice{Name: name} }

// Scripted reports whether c is a user's strategy with its source.
func (c Choice) Scripted() bool { return c.Source != "" }

// IsZero reports whether c names nothing (the default strategy).
func (c Choice) IsZero() bool { return c.Name == "" && c.Source == "" }

// File is what messages about the source call it: the name in lower case, with Starlark's
// extension ("WEIGHTED" is weighted.star).
func (c Choice) File() string { return strings.ToLower(c.Name) + ".star" }

func (c Choice) MarshalJSON() ([]byte, error) {
	if c.Source == "" {
		return json.Marshal(c.Name)
	}
	type plain Choice
	return json.Marshal(plain(c))
}

func (c *Choice) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*c = Choice{}
		return json.Unmarshal(b, &c.Name)
	}
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || b[0] != '{' {
		return fmt.Errorf("want a strategy's name, or an object {\"name\", \"source\"}")
	}
	type plain Choice
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("want {\"name\": NAME, \"source\": \"def allocate(…)…\"}: %v", err)
	}
	*c = Choice(p)
	return nil
}

// Compiler turns a strategy's source into a Strategy whose calls take at most steps steps each;
// file is what its messages call the source. It must be safe for concurrent use.
type Compiler func(name, file string, src []byte, steps int) (Strategy, error)

// The step budget of one call of a strategy compiled from its source (and of running the
// source's top level): the work estimate counts all of it for every member's round, so a
// scenario's default is what a strategy over a small group needs (a weighted allocator over
// 64 queues and 8 members takes about 3,000 steps), and a scenario may give up to
// MaxScriptSteps, as the command line's --strategy-file has.
const (
	DefaultScriptSteps = 20_000
	MinScriptSteps     = 1_000
	MaxScriptSteps     = 10_000_000
)

// StepBudget is c's step budget per call.
func (c Choice) StepBudget() int {
	if c.Steps == 0 {
		return DefaultScriptSteps
	}
	return c.Steps
}

var compilers struct {
	mu    sync.Mutex
	c     Compiler
	cache map[Choice]Strategy
}

// SetCompiler sets the compiler of strategies given with their source (nil: none, and such a
// strategy is refused). Drivers set it once, at start.
func SetCompiler(c Compiler) {
	compilers.mu.Lock()
	defer compilers.mu.Unlock()
	compilers.c, compilers.cache = c, nil
}

// maxCompiled bounds the compiled strategies kept, so that a cluster cloned or built again
// (a seek, a replay, a comparison's variants) does not compile its source again.
const maxCompiled = 16

// CheckName checks a user's strategy's name: upper case letters, digits and underscores, at
// most maxLen, and not a name the table has already.
func CheckName(name string, maxLen int) error {
	switch {
	case name == "":
		return fmt.Errorf("a strategy with a source needs a name")
	case len(name) > maxLen:
		return fmt.Errorf("%q is %d characters long; the limit is %d", name, len(name), maxLen)
	case strings.Trim(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != "" || name[0] >= '0' && name[0] <= '9':
		return fmt.Errorf("%q: want upper case letters, digits and underscores, starting with a letter (e.g. WEIGHTED)", name)
	}
	if _, _, taken := Lookup(name); taken {
		return fmt.Errorf("%s is the name of a strategy LBScope has; give yours its own (e.g. %s_PORT)", name, name)
	}
	return nil
}

// NewChoice builds the strategy c names: the table's, or the user's compiled from its source
// (the parameters are the table's strategies' only).
func NewChoice(c Choice, p Params) (Strategy, error) {
	if !c.Scripted() {
		return New(c.Name, p)
	}
	if len(c.Source) > MaxSource {
		return nil, fmt.Errorf("the source has %d bytes; the limit is %d (64 KiB)", len(c.Source), MaxSource)
	}
	if c.Steps != 0 && (c.Steps < MinScriptSteps || c.Steps > MaxScriptSteps) {
		return nil, fmt.Errorf("steps %d; want %d…%d", c.Steps, MinScriptSteps, MaxScriptSteps)
	}
	compilers.mu.Lock()
	comp := compilers.c
	s, ok := compilers.cache[c]
	compilers.mu.Unlock()
	if ok {
		return s, nil
	}
	if comp == nil {
		return nil, fmt.Errorf("strategy %s comes with its source, and this program runs no strategy sources", c.Name)
	}
	s, err := comp(c.Name, c.File(), []byte(c.Source), c.StepBudget())
	if err != nil {
		return nil, err
	}
	compilers.mu.Lock()
	defer compilers.mu.Unlock()
	if compilers.cache == nil || len(compilers.cache) >= maxCompiled {
		compilers.cache = map[Choice]Strategy{}
	}
	compilers.cache[c] = s
	return s, nil
}
