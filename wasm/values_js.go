//go:build js && wasm

package main

// Values crossing between Go and JavaScript, and what cannot cross: the page's arguments
// become JSON on the page's side, and nothing Go panics with reaches the page but a line.

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"unsafe"

	"github.com/lbscope/lbscope/wasm/api"
)

// jsonText is the page's argument as JSON text, made by the page's own JavaScript
// (lbscopeArgText in web/loader.js: JSON.stringify, then the limits): what cannot become JSON
// (a cycle, a BigInt, a getter or toJSON that throws, a function) and what is over limit (too
// long, nested too deep, a string too long) is refused there, in JavaScript's words, before
// any of it reaches Go. A string is a JSON string ("zh" becomes "\"zh\""), unless textIsJSON:
// then it is the JSON text itself (dispatch's '{"type": "pause"}').
func jsonText(v js.Value, limit api.ArgLimit, textIsJSON bool) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			jerr, ok := r.(js.Error)
			if !ok {
				panic(r)
			}
			err = fmt.Errorf("the argument cannot become JSON: %s", jsMessage(jerr.Value))
		}
	}()
	if jsType(v) == "bigint" {
		return "", errors.New("the argument cannot become JSON: it is a BigInt")
	}
	guard := js.Global().Get("lbscopeArgText")
	if guard.Type() != js.TypeFunction {
		return "", errors.New("the page lacks lbscopeArgText (web/loader.js), which every argument goes through")
	}
	lim := js.ValueOf(map[string]any{"chars": limit.Chars, "depth": limit.Depth, "string": limit.String})
	out := guard.Invoke(v, lim, textIsJSON)
	if e := out.Get("error"); e.Type() == js.TypeString {
		return "", errors.New(e.String())
	}
	return out.Get("text").String(), nil
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
	return parseJSON(data)
}

// parseJSON is JSON.parse of data, which JS reads straight from the wasm memory: no Go string
// copy of what may be megabytes (a large preset's series()). data must not change after.
func parseJSON(data []byte) js.Value {
	if len(data) == 0 {
		return js.Null()
	}
	return js.Global().Get("JSON").Call("parse", unsafe.String(&data[0], len(data)))
}

func errorObject(msg string) js.Value {
	return js.ValueOf(map[string]any{"error": msg})
}

func resolved(v js.Value) js.Value {
	return js.Global().Get("Promise").Call("resolve", v)
}

func invokeListener(fn, ev js.Value) {
	defer func() {
		if r := recover(); r != nil {
			js.Global().Get("console").Call("error", fmt.Sprintf("lbscope: an event listener threw: %v", r))
		}
	}()
	fn.Invoke(ev)
}

func firstLine(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}
