//go:build js && wasm

package main

// The one bridge between Go and the page. It defines window.lbscope:
//
//	ready           Promise, resolved after the first frame is drawn
//	dispatch(cmd)   enqueue a command object (or its JSON text); a Promise resolving, once
//	                Update has applied it, to {ok: true} (plus {id} for addConsumer without
//	                one) or {error: "…"}
//	on(event, fn)   call fn(event) for each event of that kind ("rebalance", "isolation",
//	                "action", "change", "anomaly", "info", "error", the API's notes such as
//	                "narration" and "lesson", or "*" for all); returns a function that
//	                unsubscribes. An event is cluster.Event's JSON ({t, kind, cause, text,
//	                consumer?, broker?, queues?, owners?, n?, latencyMs?, until?, arg?}:
//	                cause is a stable code, text the engine's English) plus say, the text in
//	                the page's language (setLang). "frame" listeners get the whole of each
//	                frame (api.Out: {t, events, notes, state?, timeline?, series?, lesson?}),
//	                after the others: the page's store (web/store.mjs) is one
//	layout()        hit boxes in CSS pixels of the viewport: {width, height, canvas,
//	                consumers: [{id,x,y,w,h}], brokers: [{name,…}], queues: [{queue,…}],
//	                producers, menu: [{id,…}] (the open click menu's items), card?, legend?,
//	                tooltip? ({kind, id, lines}: the hover card of what the pointer is over)}
//	counters()      {frames, ticks, mouseHeldPolls, clicks, updateMs, drawMs, running,
//	                fullFrames, partialFrames, drawnShare, gcCycles, gcMs, heapLiveMB}: for
//	                tests driving the canvas (see input_js.go on synthetic clicks) and for
//	                timing; frames and ticks stand still while the loop is idle (running
//	                false: paused, hidden or out of view, nothing asked for a frame); the
//	                frames drawn whole and those drawn only where they changed (game_js.go's
//	                drawScene), and the share of the screen the last frame drew (1 for a full
//	                one); the garbage collector's cycles and time so far, and the heap its
//	                last cycle found live
//	<method>(arg)   every method of package wasm/api (state, share, presets, timeline, series,
//	                setLang, methods, …; see wasm/api and its files): the argument
//	                crosses as JSON, the result comes back as a plain object, an error as
//	                {error: "…"}; a method whose work runs in slices (compare, an api.Job)
//	                gives a Promise of that instead
//	linkError       null, or why the page's #s= link (or ?preset=) could not be opened; the
//	                default scenario runs instead
//
// js.FuncOf callbacks run on their own goroutine: they only enqueue commands or read what the
// game loop last published. Promises are resolved and listeners called from Update.

import (
	"fmt"
	"sync"
	"sync/atomic"
	"syscall/js"

	"github.com/lbscope/lbscope/wasm/api"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

type bridge struct {
	sess *session.Session
	api  *api.API
	g    *game

	mu        sync.Mutex
	pending   map[uint64]js.Value // dispatch promises' resolve functions, by ticket
	listeners map[string][]listener
	nextID    int
	layout    *view.Layout
	menu      *view.Menu
	hover     [2]float64 // where the pointer is, in layout units, when hoverOK: over the canvas
	hoverOK   bool
	stopped   string
	ready     bool
	readyRes  js.Value
	readyRej  js.Value

	pointerIn atomic.Bool
	// stageMoved is set when #stage changes size (a ResizeObserver): the game reads its
	// rectangle at the next tick instead of waiting for its periodic read.
	stageMoved atomic.Bool
	// hidden and offscreen say that nobody can see the canvas: the tab is hidden, or the
	// canvas is scrolled out of the viewport (an embed on a long page).
	hidden, offscreen atomic.Bool
	funcs             []js.Func // kept for the page's lifetime
}

func installBridge(sess *session.Session, g *game) *bridge {
	b := &bridge{sess: sess, api: api.New(sess), g: g, pending: map[uint64]js.Value{}, listeners: map[string][]listener{}}
	b.watchPage()
	obj := js.Global().Get("Object").New()
	promise := js.Global().Get("Promise")
	exec := js.FuncOf(func(_ js.Value, args []js.Value) any {
		b.readyRes, b.readyRej = args[0], args[1]
		return nil
	})
	ready := promise.New(exec)
	exec.Release()
	// A rejected ready promise nobody awaits should not log an unhandled rejection.
	ready.Call("catch", b.fn("ready", func(js.Value, []js.Value) any { return nil }))
	obj.Set("ready", ready)
	obj.Set("dispatch", b.fn("dispatch", b.dispatch))
	obj.Set("on", b.fn("on", b.on))
	obj.Set("layout", b.fn("layout", b.layoutJS))
	obj.Set("counters", b.fn("counters", b.counters))
	obj.Set("linkError", js.Null())
	// Every method of package api, as lbscope.<name>(arg): JSON in, JSON out.
	for _, name := range api.Names() {
		if obj.Get(name).Truthy() {
			panic("lbscope." + name + " is defined twice") // a bug: package api reused a bridge name
		}
		obj.Set(name, b.fn(name, b.call(name)))
	}
	js.Global().Set("lbscope", obj)

	return b
}

// fn wraps a bridge function. A panic inside it fails that call alone: the caller gets
// {error} with the panic's first line (the stack goes to the console, never into the
// answer), and the playground goes on.
func (b *bridge) fn(name string, f func(js.Value, []js.Value) any) js.Value {
	jf := js.FuncOf(func(this js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				err := recovered("lbscope."+name, r)
				js.Global().Get("console").Call("error", "lbscope: "+err.Error())
				out = errorObject("lbscope." + name + " failed: " + firstLine(fmt.Sprint(r)))
				if name == "dispatch" || api.Sliced(name) {
					out = resolved(out.(js.Value))
				}
			}
		}()
		return f(this, args)
	})
	b.funcs = append(b.funcs, jf)
	return jf.Value
}

// call returns the JS function of api method name: its argument (if any) crosses as JSON, and
// so does its result; an error comes back as {error: "…"}.
func (b *bridge) call(name string) func(js.Value, []js.Value) any {
	if api.Sliced(name) {
		// A Promise whatever happens, its {error} too.
		sync := b.callNow(name)
		return func(this js.Value, args []js.Value) any {
			v := sync(this, args).(js.Value)
			if v.InstanceOf(js.Global().Get("Promise")) {
				return v
			}
			return resolved(v)
		}
	}
	return b.callNow(name)
}

func (b *bridge) callNow(name string) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) any {
		var arg []byte
		if len(args) > 0 && jsType(args[0]) != "undefined" {
			text, err := jsonText(args[0], api.ArgLimits(name), false)
			if err != nil {
				return errorObject("lbscope." + name + ": " + err.Error())
			}
			arg = []byte(text)
		}
		out, job, err := b.api.Start(name, arg)
		if job != nil {
			return b.runJob(job)
		}
		// A call that changes what is shown (the language, a lesson started or stopped)
		// wakes a paused game loop; reads (state, layout, share…) leave it still.
		if name == "setLang" || b.api.Pending() {
			wake()
		}
		if err != nil {
			return errorObject(err.Error())
		}
		return parseJSON(out)
	}
}

// runJob runs a method's job (compare) a slice at a time, each slice in a task of its own
// (a setTimeout), so that the page draws and answers in between; it returns a Promise of the
// result, or of {error}.
func (b *bridge) runJob(job *api.Job) js.Value {
	var resolve js.Value
	exec := js.FuncOf(func(_ js.Value, a []js.Value) any {
		resolve = a[0]
		return nil
	})
	p := js.Global().Get("Promise").New(exec)
	exec.Release()
	var step js.Func
	step = js.FuncOf(func(js.Value, []js.Value) any {
		if !job.Step() {
			js.Global().Call("setTimeout", step, 0)
			return nil
		}
		step.Release()
		var answer js.Func
		answer = js.FuncOf(func(js.Value, []js.Value) any {
			answer.Release()
			b.answerJob(job, resolve)
			return nil
		})
		js.Global().Call("setTimeout", answer, 0) // the result's JSON in a task of its own too
		return nil
	})
	js.Global().Call("setTimeout", step, 0)
	return p
}

// answerJob resolves a finished job's promise with its result, or {error}.
func (b *bridge) answerJob(job *api.Job, resolve js.Value) {
	out, err := job.Result()
	if err != nil {
		resolve.Invoke(errorObject(err.Error()))
		return
	}
	resolve.Invoke(parseJSON(out))
}

func (b *bridge) dispatch(_ js.Value, args []js.Value) any {
	if len(args) == 0 {
		return resolved(errorObject("dispatch: needs a command object, e.g. {type: \"pause\"}"))
	}
	arg := args[0]
	if t := jsType(arg); t != "string" && t != "object" {
		return resolved(errorObject(fmt.Sprintf("dispatch: got a %s; want a command object", t)))
	}
	text, err := jsonText(arg, api.ArgLimits("dispatch"), true)
	if err != nil {
		return resolved(errorObject("dispatch: " + err.Error()))
	}
	cmd, err := session.Decode([]byte(text))
	if err != nil {
		return resolved(errorObject(err.Error()))
	}
	b.mu.Lock()
	stopped := b.stopped
	b.mu.Unlock()
	if stopped != "" {
		return resolved(errorObject("the playground stopped: " + stopped))
	}
	var resolve js.Value
	exec := js.FuncOf(func(_ js.Value, a []js.Value) any {
		resolve = a[0]
		return nil
	})
	p := js.Global().Get("Promise").New(exec)
	exec.Release()
	// Hold the lock across Enqueue so that Update cannot resolve the ticket before it is
	// registered.
	b.mu.Lock()
	defer b.mu.Unlock()
	seq, err := b.sess.Enqueue(cmd)
	if err != nil {
		resolve.Invoke(errorObject(err.Error()))
		return p
	}
	b.pending[seq] = resolve
	wake() // a paused game loop applies it in the next frame
	return p
}

// awaiting reports whether a dispatch's promise waits for its command to be applied.
func (b *bridge) awaiting() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.pending) > 0
}

// resolve settles the promises of applied commands. Called from Update.
func (b *bridge) resolve(results []session.Result) {
	if len(results) == 0 {
		return
	}
	b.mu.Lock()
	var fns []js.Value
	var vals []js.Value
	for _, r := range results {
		fn, ok := b.pending[r.Seq]
		if !ok {
			continue // the game's own command (keyboard, canvas menu)
		}
		delete(b.pending, r.Seq)
		v := map[string]any{"ok": true}
		if r.Err != nil {
			v = map[string]any{"error": r.Err.Error()}
		} else if r.ID != "" {
			v["id"] = r.ID
		}
		fns, vals = append(fns, fn), append(vals, js.ValueOf(v))
	}
	b.mu.Unlock()
	for i, fn := range fns {
		fn.Invoke(vals[i])
	}
}

// markReady resolves ready. Called from Update after the first frame is drawn.
func (b *bridge) markReady() {
	b.mu.Lock()
	first := !b.ready && b.stopped == ""
	b.ready = true
	b.mu.Unlock()
	if first {
		// performance.now() counts from navigation start: the time to the first frame.
		js.Global().Get("lbscope").Set("firstFrameMs", mark("lbscope:first-frame"))
		b.readyRes.Invoke(js.Global().Get("lbscope"))
	}
}

// stop ends the playground: pending promises resolve with the error, ready rejects if it
// has not resolved, and the page's lbscopeFatal shows the message.
func (b *bridge) stop(msg string) {
	b.mu.Lock()
	if b.stopped != "" {
		b.mu.Unlock()
		return
	}
	b.stopped = firstLine(msg) // the stack goes to the console only
	pending := b.pending
	b.pending = map[uint64]js.Value{}
	wasReady := b.ready
	b.mu.Unlock()
	for _, fn := range pending {
		fn.Invoke(errorObject("the playground stopped: " + firstLine(msg)))
	}
	if !wasReady {
		b.readyRej.Invoke(js.Global().Get("Error").New(msg))
	}
	js.Global().Get("console").Call("error", "lbscope: "+msg)
	if f := js.Global().Get("lbscopeFatal"); f.Type() == js.TypeFunction {
		f.Invoke("The playground stopped: " + firstLine(msg))
	}
}
