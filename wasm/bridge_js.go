//go:build js && wasm

package main

// The one bridge between Go and the page. It defines window.lbscope:
//
//	ready           Promise, resolved after the first frame is drawn
//	state()         the playground's state: a plain object (session.State as JSON)
//	dispatch(cmd)   enqueue a command object (or its JSON text); a Promise resolving, once
//	                Update has applied it, to {ok: true} (plus {id} for addConsumer without
//	                one) or {error: "…"}
//	on(event, fn)   call fn(event) for each event of that kind ("rebalance", "isolation",
//	                "action", "change", "anomaly", "info", "error", the API's notes such as
//	                "narration" and "lesson", or "*" for all); returns a function that
//	                unsubscribes. An event is cluster.Event's JSON ({t, kind, cause, text,
//	                consumer?, broker?, queues?, owners?, n?, latencyMs?, until?, arg?}:
//	                cause is a stable code, text the engine's English) plus say, the text in
//	                the page's language (setLang)
//	layout()        hit boxes in CSS pixels of the viewport: {width, height, canvas,
//	                consumers: [{id,x,y,w,h}], brokers: [{name,…}], queues: [{queue,…}],
//	                producers, menu: [{id,…}] (the open click menu's items)}
//	presets()       {small, default, large}: the preset scenarios, for dispatch({type:"load"…})
//	counters()      {frames, ticks, mouseHeldPolls, clicks, updateMs, drawMs}: for tests
//	                driving the canvas (see input_js.go on synthetic clicks) and for timing
//	share()         the share link of the current moment as a URL fragment, "#s=1.…"
//	                ({error: "…"} when there is none, e.g. past 24 h of virtual time)
//	<method>(arg)   every method of package wasm/api (setLang, methods, …): the argument
//	                crosses as JSON, the result comes back as a plain object, an error as
//	                {error: "…"}
//	linkError       null, or why the page's #s= link (or ?preset=) could not be opened; the
//	                default scenario runs instead
//
// js.FuncOf callbacks run on their own goroutine: they only enqueue commands or read what the
// game loop last published. Promises are resolved and listeners called from Update.

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sync"
	"sync/atomic"
	"syscall/js"
	"time"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/api"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

type listener struct {
	id int
	fn js.Value
}

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
	stopped   string
	ready     bool
	readyRes  js.Value
	readyRej  js.Value

	pointerIn atomic.Bool
	// stageMoved is set when #stage changes size (a ResizeObserver): the game reads its
	// rectangle at the next tick instead of waiting for its periodic read.
	stageMoved atomic.Bool
	funcs      []js.Func // kept for the page's lifetime
}

func installBridge(sess *session.Session, g *game) *bridge {
	b := &bridge{sess: sess, api: api.New(sess), g: g, pending: map[uint64]js.Value{}, listeners: map[string][]listener{}}
	b.pointerIn.Store(true)
	if ro := js.Global().Get("ResizeObserver"); ro.Type() == js.TypeFunction {
		if stage := js.Global().Get("document").Call("getElementById", "stage"); stage.Truthy() {
			ro.New(b.fn("stageResized", func(js.Value, []js.Value) any {
				b.stageMoved.Store(true)
				return nil
			})).Call("observe", stage)
		}
	}
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
	obj.Set("state", b.fn("state", b.state))
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

	// Hover: the pointer is over the canvas until it enters another element (the panel) or
	// leaves the window; crossing elements is rare enough to cross into Go for.
	doc := js.Global().Get("document")
	doc.Call("addEventListener", "pointerover", b.fn("pointerover", func(_ js.Value, a []js.Value) any {
		b.pointerIn.Store(a[0].Get("target").Get("tagName").String() == "CANVAS")
		return nil
	}))
	doc.Call("addEventListener", "pointerout", b.fn("pointerout", func(_ js.Value, a []js.Value) any {
		if !a[0].Get("relatedTarget").Truthy() {
			b.pointerIn.Store(false)
		}
		return nil
	}))
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
				if name == "dispatch" {
					out = resolved(out.(js.Value))
				}
			}
		}()
		return f(this, args)
	})
	b.funcs = append(b.funcs, jf)
	return jf.Value
}

// jsonText is the page's argument as JSON text, made by the page's own JSON.stringify: what
// cannot become JSON (a cycle, a BigInt, a getter or toJSON that throws, a function) is refused
// there, in JavaScript's words, before any of it reaches Go; so is text longer than limit.
func jsonText(v js.Value, limit int) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			jerr, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("the argument cannot become JSON: %s", jsMessage(jerr.Value))
		}
	}()
	t := jsType(v)
	if t == "bigint" {
		return "", errors.New("the argument cannot become JSON: it is a BigInt")
	}
	out := v
	if t != "string" {
		out = js.Global().Get("JSON").Call("stringify", v)
	}
	if out.Type() != js.TypeString {
		return "", fmt.Errorf("the argument is a %s, which JSON cannot hold", t)
	}
	if n := js.Global().Get("Object").Invoke(out).Get("length").Int(); n > limit { // a wrapper: a string has no properties in syscall/js
		return "", fmt.Errorf("the argument is %d characters of JSON; at most %d", n, limit)
	}
	return out.String(), nil
}

// jsType is JavaScript's typeof of v; syscall/js knows every type but BigInt.
func jsType(v js.Value) (t string) {
	defer func() {
		if recover() != nil {
			t = "bigint"
		}
	}()
	return v.Type().String()
}

// jsMessage is what a thrown JavaScript value says, cut to one short line. The value may be
// hostile itself (a message getter that throws): anything odd reads as "an exception".
func jsMessage(v js.Value) (msg string) {
	defer func() {
		if recover() != nil {
			msg = "an exception"
		}
	}()
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			msg = m.String()
		}
	}
	if msg == "" {
		msg = js.Global().Call("String", v).String()
	}
	msg = firstLine(msg)
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	return msg
}

func jsonParse(v any) js.Value {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return js.Global().Get("JSON").Call("parse", string(data))
}

func errorObject(msg string) js.Value {
	return js.ValueOf(map[string]any{"error": msg})
}

func resolved(v js.Value) js.Value {
	return js.Global().Get("Promise").Call("resolve", v)
}

// call returns the JS function of api method name: its argument (if any) crosses as JSON, and
// so does its result; an error comes back as {error: "…"}.
func (b *bridge) call(name string) func(js.Value, []js.Value) any {
	return func(_ js.Value, args []js.Value) any {
		var arg []byte
		if len(args) > 0 && jsType(args[0]) != "undefined" {
			text, err := jsonText(args[0], api.MaxArgBytes)
			if err != nil {
				return errorObject("lbscope." + name + ": " + err.Error())
			}
			arg = []byte(text)
		}
		out, err := b.api.Call(name, arg)
		if err != nil {
			return errorObject(err.Error())
		}
		return js.Global().Get("JSON").Call("parse", string(out))
	}
}

// frame tells the page about one frame, from the one value api.Frame builds: the commands'
// promises settle, and the value crosses to JavaScript once, as JSON, for the "frame"
// listeners (the page's store); the listeners of each event or note kind get their parts of
// it. Called from Update.
func (b *bridge) frame(results []session.Result, events []cluster.Event) {
	out := b.api.Frame(api.Input{Results: results, Events: events, WallMs: float64(time.Since(b.g.start).Microseconds()) / 1000})
	b.resolve(out.Results)
	if out.Empty() {
		return
	}
	b.mu.Lock()
	ls := maps.Clone(b.listeners)
	b.mu.Unlock()
	if len(ls) == 0 {
		return
	}
	obj := jsonParse(out)
	tell := func(list js.Value, kind func(int) string, n int) {
		for i := range n {
			k := kind(i)
			for _, l := range append(ls[k], ls["*"]...) {
				invokeListener(l.fn, list.Index(i))
			}
		}
	}
	tell(obj.Get("events"), func(i int) string { return out.Events[i].Kind }, len(out.Events))
	tell(obj.Get("notes"), func(i int) string { return out.Notes[i].Kind }, len(out.Notes))
	for _, l := range ls["frame"] { // last: the store sees what the other listeners saw
		invokeListener(l.fn, obj)
	}
}

func (b *bridge) state(js.Value, []js.Value) any {
	return jsonParse(b.sess.State())
}

func (b *bridge) dispatch(_ js.Value, args []js.Value) any {
	if len(args) == 0 {
		return resolved(errorObject("dispatch: needs a command object, e.g. {type: \"pause\"}"))
	}
	arg := args[0]
	if t := jsType(arg); t != "string" && t != "object" {
		return resolved(errorObject(fmt.Sprintf("dispatch: got a %s; want a command object", t)))
	}
	text, err := jsonText(arg, session.MaxCommandBytes)
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
	return p
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

func (b *bridge) on(_ js.Value, args []js.Value) any {
	if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeFunction {
		return errorObject("on(event, fn): want an event name and a function")
	}
	kind, fn := args[0].String(), args[1]
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	b.listeners[kind] = append(b.listeners[kind], listener{id, fn})
	b.mu.Unlock()
	var off js.Func
	off = js.FuncOf(func(js.Value, []js.Value) any {
		b.mu.Lock()
		ls := b.listeners[kind]
		for i, l := range ls {
			if l.id == id {
				b.listeners[kind] = append(ls[:i:i], ls[i+1:]...)
				break
			}
		}
		b.mu.Unlock()
		off.Release()
		return nil
	})
	return off.Value
}

func invokeListener(fn, ev js.Value) {
	defer func() {
		if r := recover(); r != nil {
			js.Global().Get("console").Call("error", fmt.Sprintf("lbscope: an event listener threw: %v", r))
		}
	}()
	fn.Invoke(ev)
}

// setLayout publishes the layout and menu for layout(). Called from Update.
func (b *bridge) setLayout(l *view.Layout, m *view.Menu) {
	b.mu.Lock()
	b.layout, b.menu = l, m
	b.mu.Unlock()
}

func (b *bridge) layoutJS(js.Value, []js.Value) any {
	b.mu.Lock()
	l, m := b.layout, b.menu
	b.mu.Unlock()
	if l == nil {
		return js.Null()
	}
	hb := l.Boxes(m)
	// Canvas pixels are CSS pixels (Layout returns the outside size); add the canvas's
	// offset so the boxes are in the viewport's coordinates, where a test clicks.
	ox, oy, cw, ch := 0.0, 0.0, hb.Width, hb.Height
	if c := canvasElement(); c.Truthy() {
		r := c.Call("getBoundingClientRect")
		ox, oy, cw, ch = r.Get("left").Float(), r.Get("top").Float(), r.Get("width").Float(), r.Get("height").Float()
	}
	shift := func(r *view.Rect) { r.X += ox; r.Y += oy }
	for i := range hb.Consumers {
		shift(&hb.Consumers[i].Rect)
	}
	for i := range hb.Brokers {
		shift(&hb.Brokers[i].Rect)
	}
	for i := range hb.Queues {
		shift(&hb.Queues[i].Rect)
	}
	for i := range hb.Producers {
		shift(&hb.Producers[i].Rect)
	}
	for i := range hb.Menu {
		shift(&hb.Menu[i].Rect)
	}
	out := struct {
		view.HitBoxes
		Canvas view.Rect `json:"canvas"`
		Stage  view.Rect `json:"stage"`
	}{hb, view.Rect{X: ox, Y: oy, W: cw, H: ch}, l.Bounds}
	out.Stage.X += ox
	out.Stage.Y += oy
	return jsonParse(out)
}

func (b *bridge) counters(js.Value, []js.Value) any {
	return js.ValueOf(map[string]any{
		"frames": b.g.frames.Load(), "ticks": b.g.ticks.Load(),
		"mouseHeldPolls": b.g.heldPolls.Load(), "clicks": b.g.clicks.Load(),
		"updateMs": float64(b.g.updateUs.Load()) / 1000, "drawMs": float64(b.g.drawUs.Load()) / 1000,
	})
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

// mark records a performance mark (visible in the browser's performance tools) and returns
// its time since navigation start, in milliseconds.
func mark(name string) float64 {
	perf := js.Global().Get("performance")
	if perf.IsUndefined() {
		return 0
	}
	perf.Call("mark", name)
	return perf.Call("now").Float()
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

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// canvasElement is the canvas Ebitengine added to the body.
func canvasElement() js.Value {
	return js.Global().Get("document").Call("querySelector", "body > canvas")
}

// stageRect is the page's #stage element in viewport coordinates, where the playground
// draws; the canvas itself covers the whole viewport behind the panel.
func stageRect() (view.Rect, bool) {
	el := js.Global().Get("document").Call("getElementById", "stage")
	if !el.Truthy() {
		return view.Rect{}, false
	}
	r := el.Call("getBoundingClientRect")
	out := view.Rect{X: r.Get("left").Float(), Y: r.Get("top").Float(), W: r.Get("width").Float(), H: r.Get("height").Float()}
	if c := canvasElement(); c.Truthy() {
		cr := c.Call("getBoundingClientRect")
		out.X -= cr.Get("left").Float()
		out.Y -= cr.Get("top").Float()
	}
	return out, out.W > 0 && out.H > 0
}

// prefersReducedMotion reads the user's motion preference.
func prefersReducedMotion() bool {
	mm := js.Global().Get("matchMedia")
	if mm.Type() != js.TypeFunction {
		return false
	}
	return js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Truthy()
}

// showHelp asks the page to toggle its help overlay.
func showHelp() {
	if f := js.Global().Get("lbscopeHelp"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}
