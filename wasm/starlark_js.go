//go:build js && wasm

package main

import (
	"syscall/js"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/wasm/script/wire"
)

// Strategies and selectors given with their source (a scenario's strategy: {name, source}, setStrategy's
// source, the editor's) run in the interpreter's wasm, which the page loads when one is first
// needed (web/lazy.js): the playground's first load has no room for it.
func init() {
	call := func(method string, args ...any) (string, bool) {
		s := js.Global().Get("LBStarlark")
		if s.Type() != js.TypeObject {
			return "", false
		}
		return s.Call(method, args...).String(), true
	}
	allocate.SetCompiler(wire.Compiler(call))
	selector.SetCompiler(wire.SelectorCompiler(call))
}
