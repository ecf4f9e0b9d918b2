//go:build js && wasm

// Command starlark is one of the playground's second wasms: the Starlark interpreter, which the
// first load has no room for. The page loads it when a strategy's source is first needed
// (web/lazy.js) and the page's wasm calls it through globalThis.LBStarlark (wasm/script/wire):
//
//	LBStarlark.compile(name, file, source, steps) → '{"id": 1}' or '{"error": "file:line:col: …"}'
//	LBStarlark.allocate(id, request)       → '{"queues": [0, 3]}' or '{"error": …}'
//	LBStarlark.compileSelector(name, file, source, steps) → '{"id": 2}' or '{"error": …}'
//	LBStarlark.select(id, request)         → '{"queues": [5]}' (the queue chosen) or '{"error": …}'
package main

import (
	"syscall/js"

	"github.com/lbscope/lbscope/wasm/script"
)

func main() {
	srv := &script.Server{}
	api := js.Global().Get("Object").New()
	api.Set("compile", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 4 || args[3].Type() != js.TypeNumber {
			return `{"error": "compile takes a name, a file, a source and a step budget"}`
		}
		return srv.Compile(args[0].String(), args[1].String(), args[2].String(), args[3].Int())
	}))
	api.Set("allocate", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeNumber {
			return `{"error": "allocate takes a program's id and a request"}`
		}
		return srv.Allocate(args[0].Int(), args[1].String())
	}))
	api.Set("compileSelector", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 4 || args[3].Type() != js.TypeNumber {
			return `{"error": "compileSelector takes a name, a file, a source and a step budget"}`
		}
		return srv.CompileSelector(args[0].String(), args[1].String(), args[2].String(), args[3].Int())
	}))
	api.Set("select", js.FuncOf(func(_ js.Value, args []js.Value) any {
		if len(args) != 2 || args[0].Type() != js.TypeNumber {
			return `{"error": "select takes a program's id and a request"}`
		}
		return srv.Select(args[0].Int(), args[1].String())
	}))
	js.Global().Set("LBStarlark", api)
	select {} // answer calls until the page goes
}
