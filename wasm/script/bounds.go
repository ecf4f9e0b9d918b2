package script

import (
	"fmt"

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

// newThread is a thread for one call of at most steps steps.
func newThread(file string, steps int) *thread {
	th := &thread{t: &starlark.Thread{Name: file, Print: func(*starlark.Thread, string) {}}}
	th.t.Load = func(*starlark.Thread, string) (starlark.StringDict, error) {
		return nil, fmt.Errorf("load is not available: a strategy is one file")
	}
	th.t.SetLocal(budgetKey, &budget{limit: MaxAlloc})
	budget := uint64(steps)
	th.t.SetMaxExecutionSteps(budget)
	th.t.OnMaxSteps = func(t *starlark.Thread) {
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
