//go:build !(js && wasm)

// Command starlark is built for js/wasm only (main_js.go); elsewhere the command line runs the
// interpreter in place.
package main

func main() {}
