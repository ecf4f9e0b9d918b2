package script

import (
	"fmt"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark counts steps, not bytes: `s = s + s` forty times asks for a terabyte in forty
// steps. So each call is watched twice for memory: every stepCheck steps (which also works
// where Go has one thread, as in a browser), and by a timer every watchEvery that reads the
// bytes the process has allocated since the call began and cancels the thread past
// MaxAlloc. The interpreter stops at its next step; one step can still allocate at most
// twice what the script holds, and a repetition at most the interpreter's own 1 GiB cap.

const (
	stepCheck  = 1 << 14
	watchEvery = time.Millisecond
)

var allocMetric = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

// allocated is the bytes the process has allocated on the heap so far.
func allocated() uint64 {
	s := []metrics.Sample{allocMetric[0]}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

type thread struct {
	t    *starlark.Thread
	base uint64
	over atomic.Bool     // the memory guard cancelled the call
	at   syntax.Position // where the step budget ran out
}

func newThread(file string) *thread {
	th := &thread{t: &starlark.Thread{Name: file, Print: func(*starlark.Thread, string) {}}}
	th.t.Load = func(*starlark.Thread, string) (starlark.StringDict, error) {
		return nil, fmt.Errorf("load is not available: a strategy is one file")
	}
	th.t.SetMaxExecutionSteps(stepCheck)
	th.t.OnMaxSteps = func(t *starlark.Thread) {
		if t.Steps >= MaxSteps {
			// A few more steps to find a line inside the loop: the instruction a budget
			// runs out on often has no line of its own and reads as the function's start.
			if f := t.CallFrame(0); th.at.Line == 0 || f.Pos.Line > th.at.Line {
				th.at = f.Pos
			}
			if t.Steps < MaxSteps+8 {
				t.SetMaxExecutionSteps(t.Steps + 1)
				return
			}
			t.Cancel(fmt.Sprintf("the strategy ran past its budget of %d steps (an endless loop?)", MaxSteps))
			return
		}
		th.checkMemory()
		t.SetMaxExecutionSteps(min(t.Steps+stepCheck, MaxSteps))
	}
	return th
}

func (th *thread) checkMemory() {
	if allocated()-th.base > MaxAlloc {
		th.over.Store(true)
		th.t.Cancel(fmt.Sprintf("the strategy allocated more than its budget of %d MiB of memory", MaxAlloc>>20))
	}
}

// run runs f on th under the bounds and turns any error into an *Error.
func run(th *thread, f func() (starlark.StringDict, error)) (out starlark.StringDict, err error) {
	th.base = allocated()
	var (
		done  atomic.Bool
		timer atomic.Pointer[time.Timer]
		arm   func()
	)
	arm = func() {
		timer.Store(time.AfterFunc(watchEvery, func() {
			if done.Load() {
				return
			}
			th.checkMemory()
			if !th.over.Load() && !done.Load() {
				arm()
			}
		}))
	}
	arm()
	defer func() {
		done.Store(true)
		timer.Load().Stop()
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
