package script

import (
	"fmt"
	"math/bits"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Starlark counts steps, not bytes: `s = s + s` forty times asks for a terabyte in forty
// steps. So each call is watched for memory: once the heap has grown by MaxAlloc since the
// call began the thread is cancelled, and the interpreter stops at its next step. The heap is
// read between steps, the more often the more it has grown: a doubling takes three steps at
// least, so after growing by g the next reading comes within 3·log2(MaxAlloc/g) steps, before
// a doubling could pass the budget (every 60 steps for a call that holds nothing, at most
// every maxGap); and, where Go has threads, also by a timer every watchEvery. One step can
// still allocate twice what the script holds, and a repetition up to the interpreter's own
// 1 GiB cap. Where Go has one thread (js/wasm, wasip1) the collector gets no turn while the
// script runs, so there a reading over the budget is confirmed after a collection; that is not
// yet reliable (a second bomb in one process can pass it), which the playground must solve
// before it runs user strategies.

const (
	watchEvery = time.Millisecond
	maxGap     = 1 << 14
)

var single = runtime.GOOS == "js" || runtime.GOOS == "wasip1"

// gap is the steps until the next reading of the heap, after it has grown by g bytes.
func gap(g uint64) uint64 {
	g = max(g, 64)
	if g >= MaxAlloc {
		return 1
	}
	return max(min(3*uint64(bits.Len64(MaxAlloc/g)-1), maxGap), 1)
}

// lastLive is the heap after the last collection the guard ran (single-threaded Go only).
var lastLive atomic.Uint64

var heap struct {
	mu sync.Mutex
	s  [1]metrics.Sample
}

func init() { heap.s[0].Name = "/memory/classes/heap/objects:bytes" }

// heapBytes is the bytes of the heap's objects now, live or not yet collected.
func heapBytes() uint64 {
	heap.mu.Lock()
	defer heap.mu.Unlock()
	metrics.Read(heap.s[:])
	if heap.s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return heap.s[0].Value.Uint64()
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
	th.t.SetMaxExecutionSteps(gap(0))
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
		g := th.checkMemory()
		t.SetMaxExecutionSteps(min(t.Steps+gap(g), MaxSteps))
	}
	return th
}

func (th *thread) checkMemory() uint64 {
	th.mu.Lock()
	defer th.mu.Unlock()
	g := th.grown()
	if g > MaxAlloc && single {
		// One thread: the collector gets no turn while the script runs. Collect, and
		// count what is left; the next reading still comes as soon as g asks.
		runtime.GC()
		lastLive.Store(heapBytes())
		if th.grown() <= MaxAlloc {
			return g
		}
		g = th.grown()
	}
	if g > MaxAlloc {
		th.over.Store(true)
		th.t.Cancel(fmt.Sprintf("the strategy holds more than its budget of %d MiB of memory", MaxAlloc>>20))
	}
	return g
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
	if single && heapBytes() > lastLive.Load()+MaxAlloc/4 {
		// The garbage of earlier calls would hide this one's growth from the reading
		// after a collection: start from a collected heap.
		runtime.GC()
		lastLive.Store(heapBytes())
	}
	th.base = heapBytes()
	var (
		done  atomic.Bool
		timer atomic.Pointer[time.Timer]
		arm   func()
	)
	arm = func() {
		if single {
			return // no timer fires while the script runs
		}
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
		if t := timer.Load(); t != nil {
			t.Stop()
		}
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
