package lesson

import "github.com/lbscope/lbscope/wasm/script"

// The tests are a driver: the lessons' strategies given with their source run in Starlark.
func init() { script.Enable() }
