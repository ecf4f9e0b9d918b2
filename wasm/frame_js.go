//go:build js && wasm

package main

// What leaves the playground each frame: the value api.Frame builds, handed to lbscope.on's
// listeners.

import (
	"maps"
	"slices"
	"syscall/js"
	"time"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/api"
	"github.com/lbscope/lbscope/wasm/session"
)

type listener struct {
	id int
	fn js.Value
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
			for _, l := range slices.Concat(ls[k], ls["*"]) {
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

func (b *bridge) on(_ js.Value, args []js.Value) any {
	if len(args) < 2 || jsType(args[0]) != "string" || jsType(args[1]) != "function" {
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
