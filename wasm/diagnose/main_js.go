//go:build js && wasm

// Command diagnose is the playground's wasm for the Import dialog: the reader of what a user
// pastes from mqadmin, the Dashboard or clients' logs (wasm/paste, core/admin), which the
// first load has no room for. The page loads it when lbscope.diagnose or
// lbscope.diagnoseStage is first called (web/lazy.js), which then call it through
// globalThis.LBDiagnose, with the page's language (lbscope.lang()) and the argument's JSON:
//
//	LBDiagnose.diagnose(lang, arg)      → the report's JSON, or '{"error": "lbscope.diagnose: …"}'
//	LBDiagnose.diagnoseStage(lang, arg) → '{"inputs": 1, "bytes": 524288}', or '{"error": …}'
//
// It is built with only the words the reader reads (words.PastePart), in both languages.
package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall/js"

	"github.com/lbscope/lbscope/wasm/paste"
)

func main() {
	var r paste.Reader
	api := js.Global().Get("Object").New()
	for _, name := range paste.Methods {
		api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			// A panic fails this call alone: the page gets {error} with its first line (the
			// stack goes to the console), and the reader keeps answering.
			defer func() {
				if p := recover(); p != nil {
					msg := fmt.Sprint(p)
					js.Global().Get("console").Call("error", "lbscope: lbscope."+name+" failed: "+msg)
					first, _, _ := strings.Cut(msg, "\n")
					out = errorJSON("lbscope." + name + " failed: " + first)
				}
			}()
			if len(args) != 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
				return errorJSON("lbscope." + name + ": the reader takes the page's language and the argument's JSON")
			}
			res, err := r.Call(name, args[0].String(), []byte(args[1].String()))
			if err != nil {
				return errorJSON(err.Error())
			}
			return string(res)
		}))
	}
	js.Global().Set("LBDiagnose", api)
	select {} // answer calls until the page goes
}

func errorJSON(msg string) string {
	out, _ := json.Marshal(map[string]string{"error": msg}) // a string only
	return string(out)
}
