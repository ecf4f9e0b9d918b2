package script

import (
	"fmt"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Each call runs in a thread of its own under two budgets: its program's steps of the
// interpreter, and MaxAlloc bytes of the values it builds (guard.go), both counted, not
// measured, so that a call stops at the same place on every platform, js/wasm included,
// and a bomb is stopped before it allocates.

type thread struct {
	t  *starlark.Thread
	at syntax.Position // where the step budget ran out
}

// The wall-clock watchdog. Steps do not bound time: a dict or set whose keys all share a hash
// (ints that differ by a multiple of 2³², say) makes each insert compare the key with every
// entry, so n inserts in n steps take n² comparisons, and one set(l) of such keys is a
// single step. Measured natively, 16,000 colliding ints take 13 s to insert; under the step
// budget of the command line (10,000,000) a loop could run for hours. So a call also stops
// once it has run WallLimit and longer than its steps and the bytes it built account for, at
// slowStep a step and slowByte a byte: its steps and its memory no longer measure its work.
// An interpreter runs a step in well under a microsecond (natively about 0.03 µs, under
// Node a few tenths) and copies a byte in far less than slowByte (a call that builds its
// whole 64 MiB may take seconds under Node, in its collector), so a call within its budgets
// that does a step's ordinary work is never stopped, whatever the platform; a collision bomb
// is, about WallLimit after it starts. The thread checks every wallChunk steps (a check in the
// interpreter's own loop, which works in js/wasm, where no other goroutine runs while a call
// does), and the guard's builtins that insert many keys at once (set(), dict(), update,
// union, |, -, &) insert them first into a scratch table, checking as they go. A call
// stopped so says so; unlike the budgets it depends on the machine's speed, but only for a
// call whose steps each do far more than a step's work.
const (
	WallLimit = 2 * time.Second
	slowStep  = 5 * time.Microsecond
	slowByte  = 200 * time.Nanosecond
	wallChunk = 256
)

const startKey = "lbscope.start"

// wallError is the message of a call stopped by the watchdog.
func wallError() string {
	return fmt.Sprintf("the strategy ran for more than %v of wall time, far longer than its steps and its memory account for: a dict or set whose keys share one hash (each insert then compares with every entry), or a search of a long list repeated?", WallLimit)
}

// pastDeadline reports whether the call on t has run past WallLimit, and past what its steps
// and the bytes it built account for.
func pastDeadline(t *starlark.Thread) bool {
	start, ok := t.Local(startKey).(time.Time)
	if !ok {
		return false
	}
	elapsed := time.Since(start)
	return elapsed > WallLimit && elapsed > time.Duration(t.Steps)*slowStep+time.Duration(budgetOf(t).used)*slowByte
}

// newThread is a thread for one call of at most steps steps.
func newThread(file string, steps int) *thread {
	th := &thread{t: &starlark.Thread{Name: file, Print: func(*starlark.Thread, string) {}}}
	th.t.Load = func(*starlark.Thread, string) (starlark.StringDict, error) {
		return nil, fmt.Errorf("load is not available: a strategy is one file")
	}
	th.t.SetLocal(budgetKey, &budget{limit: MaxAlloc})
	th.t.SetLocal(startKey, time.Now())
	budget := uint64(steps)
	th.t.SetMaxExecutionSteps(min(budget, wallChunk))
	th.t.OnMaxSteps = func(t *starlark.Thread) {
		if t.Steps < budget {
			// A chunk's end, not the budget's: the watchdog looks at the clock.
			if pastDeadline(t) {
				th.at = t.CallFrame(0).Pos
				t.Cancel(wallError())
				return
			}
			t.SetMaxExecutionSteps(min(budget, t.Steps+wallChunk))
			return
		}
		// A few more steps to find a line inside the loop: the instruction a budget runs
		// out on often has no line of its own and reads as the function's start.
		if f := t.CallFrame(0); th.at.Line == 0 || f.Pos.Line > th.at.Line {
			th.at = f.Pos
		}
		if t.Steps < budget+8 {
			t.SetMaxExecutionSteps(t.Steps + 1)
			return
		}
		t.Cancel(fmt.Sprintf("the strategy ran past its budget of %d steps (an endless loop?)", steps))
	}
	return th
}

// run runs f on th under the bounds and turns any error into an *Error.
func run(th *thread, f func() (starlark.StringDict, error)) (out starlark.StringDict, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, &Error{Pos: th.t.Name, Msg: fmt.Sprintf("the strategy failed: %v", r)}
		}
	}()
	out, err = f()
	if err != nil {
		err = errorOf(err, th.t.Name)
		if e, ok := err.(*Error); ok && th.at.Line > 0 {
			e.Pos = th.at.String() // the interpreter reports a cancelled call at its function's start
		}
		return nil, err
	}
	return out, nil
}

// insertsInTime inserts the keys that building a table from srcs would insert (each src's
// elements, a dict's keys, or with pairs the first item of each pair) into a scratch set,
// in order, looking at the clock every few inserts: a bulk build is one step, which the
// thread's own checks cannot interrupt, so the watchdog runs it first here. An unhashable
// key or a pair that is none is left for the real builtin to refuse.
func insertsInTime(t *starlark.Thread, pairs bool, srcs ...starlark.Value) error {
	scratch := new(starlark.Set)
	n := 0
	for _, src := range srcs {
		it, ok := src.(starlark.Iterable)
		if !ok {
			continue
		}
		_, isDict := src.(*starlark.Dict)
		iter := it.Iterate()
		var x starlark.Value
		for iter.Next(&x) {
			k := x
			if pairs && !isDict {
				p, ok := x.(starlark.Indexable)
				if !ok || p.Len() != 2 {
					continue
				}
				k = p.Index(0)
			}
			if _, err := k.Hash(); err != nil {
				continue
			}
			_ = scratch.Insert(k)
			if n++; n%8 == 0 && pastDeadline(t) {
				iter.Done()
				return fmt.Errorf("%s", wallError())
			}
		}
		iter.Done()
	}
	return nil
}
