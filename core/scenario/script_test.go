package scenario

import "github.com/lbscope/lbscope/wasm/script"

// The tests are a driver like the command line: strategies given with their source run in
// Starlark (the core itself reads no source).
func init() { script.Enable() }
