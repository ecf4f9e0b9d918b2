package script

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark counts steps, not bytes: `s = s + s` forty times asks for a terabyte in forty
// steps. So each call is watched for memory: the heap's size is read every stepCheck steps
// and by a timer every watchEvery, and once it has grown by MaxAlloc since the call began the
// thread is cancelled; the interpreter stops at its next step. One step can
// still allocate at most twice what the script holds, and a repetition at most the
// interpreter's own 1 GiB cap. Where Go has one thread (js/wasm, wasip1) no timer runs while
// the script does, so there the count is read at every step instead, which costs speed, and confirmed
// by a collection, which gets no turn otherwise.

const watchEvery = time.Millisecond

var (
	single    = runtime.GOOS == "js" || runtime.GOOS == "wasip1"
	stepCheck = uint64(1 << 14)
)

func init() {
	if single {
		stepCheck = 1
	}
}

var heapMetric = metrics.Sample{Name: "/memory/classes/heap/objects:bytes"}

// heapBytes is the bytes of the heap's objects now, live or not yet collected.
func heapBytes() uint64 {
	s := []metrics.Sample{heapMetric}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

type thread struct {
	t    *starlark.Thread
	mu   sync.Mutex
	base uint64          // the fewest heap bytes seen since the call began
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

// checkMemory cancels the call once the heap holds more than MaxAlloc bytes over the least
// it held since the call began. Garbage not yet collected counts until the collector takes
// it, which it does long before a small group's strategy reaches the budget.
func (th *thread) checkMemory() {
	th.mu.Lock()
	defer th.mu.Unlock()
	if th.grown() > MaxAlloc && single {
		runtime.GC() // one thread: the collector gets no turn while the script runs
	}
	if th.grown() > MaxAlloc {
		th.over.Store(true)
		th.t.Cancel(fmt.Sprintf("the strategy holds more than its budget of %d MiB of memory", MaxAlloc>>20))
	}
}

func (th *thread) grown() uint64 {
	now := heapBytes()
	if now < th.base {
		th.base = now
	}
	return now - th.base
}

// run runs f on th under the bounds and turns any error into an *Error.
func run(th *thread, f func() (starlark.StringDict, error)) (out starlark.StringDict, err error) {
	th.base = heapBytes()
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
