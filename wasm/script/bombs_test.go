//go:build !js && !wasip1

package script

import "testing"

// Memory bombs: a doubling stops within a few steps of the budget. The loop is one line: the
// guard's timer may stop it at the loop's head or in its body, and both are that line. Not built where Go has one
// thread (js/wasm, wasip1): there the heap's size as read after a collection does not yet
// show a second bomb's growth reliably, and the page must solve that before it runs user
// strategies (see bounds.go).
func TestMemoryBombs(t *testing.T) {
	for _, c := range []struct {
		name, src, pos, msg string
	}{
		{"memory bomb", "def allocate(g, cur, qs, cs):\n    s = 'x'\n    for i in range(40): s = s + s\n    return []\n", "test.star:3:", "MiB of memory"},
		{"list bomb", "def allocate(g, cur, qs, cs):\n    l = [0]\n    for i in range(40): l = l + l\n    return []\n", "test.star:3:", "MiB of memory"},
	} {
		t.Run(c.name, func(t *testing.T) { checkBad(t, c.src, c.pos, c.msg) })
	}
}
