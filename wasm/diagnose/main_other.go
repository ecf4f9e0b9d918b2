//go:build !(js && wasm)

// Command diagnose is built for js/wasm only (main_js.go); elsewhere the command line reads
// pastes in place (lbscope diagnose).
package main

func main() {}
