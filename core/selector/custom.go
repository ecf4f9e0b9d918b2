package selector

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/lbscope/lbscope/core/route"
)

// A producer's own MessageQueueSelector: send(msg, selector, arg) with a selector the user
// writes (spec §2.11). The core defines the hook and never reads a source itself: a driver
// sets the compiler (SetCompiler) that turns a selector's source into a Custom, as
// allocate.SetCompiler does for strategies; the command line and the playground set the
// Starlark one (wasm/script).

// Message is what a selector sees of the message it places.
type Message struct {
	Key  string // the message's key (its KEYS property)
	Tags string // its tag; "" for none
	// Seq is the producer's count of the keyed sends before this one (0, 1, 2, …): what a
	// composite key adds to a hot key to spread it (an order's line number, a frame's).
	Seq int64
}

// Custom is a MessageQueueSelector: Select returns one of mqs, the publish list as the client
// passes it (spec §2.11: sorted by broker name, writable queues only, queue ids ascending, for
// the Java client). An error is the selector throwing: the client wraps it in
// MQClientException("select message queue threw exception.") and the send fails, before any
// byte is sent. It must be safe for concurrent use and a pure function of its arguments.
type Custom interface {
	Select(mqs []route.MessageQueue, msg Message, arg any) (route.MessageQueue, error)
}

// Choice is a selector as a scenario gives it: its name and its source.
//
// Its JSON form is {"name": "COMPOSITE", "source": "def select(queues, message, arg): …"}.
type Choice struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	// Steps is the step budget of one call; 0 is DefaultSteps.
	Steps int `json:"steps,omitempty"`
}

// Bounds of a selector's source and of its step budget per call. A selector runs once a
// send, and the work estimate counts its whole budget for each, so the default is what a
// selector needs (the composite key takes about 30 steps), far below a strategy's.
const (
	MaxSource    = 64 << 10
	DefaultSteps = 1_000
	MinSteps     = 100
	MaxSteps     = 10_000_000
)

// StepBudget is c's step budget per call.
func (c Choice) StepBudget() int {
	if c.Steps == 0 {
		return DefaultSteps
	}
	return c.Steps
}

// File is what messages about the source call it: the name in lower case with Starlark's
// extension ("COMPOSITE" is composite.star).
func (c Choice) File() string { return strings.ToLower(c.Name) + ".star" }

func (c *Choice) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		return fmt.Errorf("want an object {\"name\", \"source\"} with a def select(queues, message, arg)")
	}
	type plain Choice
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("want {\"name\": NAME, \"source\": \"def select(…)…\"}: %v", err)
	}
	*c = Choice(p)
	return nil
}

// Compiler turns a selector's source into a Custom whose calls take at most steps steps each;
// file is what its messages call the source. It must be safe for concurrent use.
type Compiler func(name, file string, src []byte, steps int) (Custom, error)

var compilers struct {
	mu    sync.Mutex
	c     Compiler
	cache map[Choice]Custom
}

// SetCompiler sets the compiler of selectors given with their source (nil: none, and a
// producer with one is refused). Drivers set it once, at start.
func SetCompiler(c Compiler) {
	compilers.mu.Lock()
	defer compilers.mu.Unlock()
	compilers.c, compilers.cache = c, nil
}

// maxCompiled bounds the compiled selectors kept, so that a cluster cloned or built again (a
// seek, a replay) does not compile its source again.
const maxCompiled = 16

// Check checks c's fields (not its source's code): a name, a source within MaxSource, a step
// budget within MinSteps…MaxSteps.
func (c Choice) Check() error {
	switch {
	case c.Name == "":
		return fmt.Errorf("name: missing; a selector needs a name (e.g. COMPOSITE)")
	case c.Source == "":
		return fmt.Errorf("source: missing; want the Starlark source of def select(queues, message, arg)")
	case len(c.Source) > MaxSource:
		return fmt.Errorf("source: %d bytes; the limit is %d (64 KiB)", len(c.Source), MaxSource)
	case c.Steps != 0 && (c.Steps < MinSteps || c.Steps > MaxSteps):
		return fmt.Errorf("steps: %d; want %d…%d", c.Steps, MinSteps, MaxSteps)
	}
	return nil
}

// New builds the selector c gives, compiled from its source by the driver's compiler.
func New(c Choice) (Custom, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	compilers.mu.Lock()
	comp := compilers.c
	s, ok := compilers.cache[c]
	compilers.mu.Unlock()
	if ok {
		return s, nil
	}
	if comp == nil {
		return nil, fmt.Errorf("selector %s comes with its source, and this program runs no selector sources", c.Name)
	}
	s, err := comp(c.Name, c.File(), []byte(c.Source), c.StepBudget())
	if err != nil {
		return nil, err
	}
	compilers.mu.Lock()
	defer compilers.mu.Unlock()
	if compilers.cache == nil || len(compilers.cache) >= maxCompiled {
		compilers.cache = map[Choice]Custom{}
	}
	compilers.cache[c] = s
	return s, nil
}

// SelectChecked is s.Select with the client's own check of the answer: a queue not in mqs is
// an error, as a send to it could not be placed (the simulator sends only to the publish
// list's queues).
func SelectChecked(s Custom, mqs []route.MessageQueue, msg Message, arg any) (route.MessageQueue, error) {
	mq, err := s.Select(mqs, msg, arg)
	if err != nil {
		return route.MessageQueue{}, err
	}
	for _, q := range mqs {
		if q == mq {
			return mq, nil
		}
	}
	return route.MessageQueue{}, fmt.Errorf("select returned %s, which is not one of the %d queues passed in", mq.Short(), len(mqs))
}
