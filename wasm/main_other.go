//go:build !(js && wasm)

// Command wasm is the browser playground. It runs only in a browser: build it with
// GOOS=js GOARCH=wasm (lbscope serve does).
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "the playground runs in a browser: build it with GOOS=js GOARCH=wasm go build ./wasm (or run lbscope serve)")
	os.Exit(1)
}
