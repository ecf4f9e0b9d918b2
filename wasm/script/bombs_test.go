package script

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Memory bombs, one after another in one process: each is stopped before it builds what it
// asks for, with the memory budget's message and its line, on every platform (the guard
// counts what a call builds; it reads no heap). Run under js/wasm too:
//
//	GOOS=js GOARCH=wasm go test -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec ./wasm/script
func TestMemoryBombs(t *testing.T) {
	const mem = "MiB of memory"
	head := "def allocate(g, cur, qs, cs):\n"
	for _, c := range []struct {
		name, body, pos, msg string
	}{
		{"string doubling", "    s = 'x'\n    for i in range(40): s = s + s\n    return []\n", "test.star:3:", mem},
		{"list doubling", "    l = [0]\n    for i in range(40): l = l + l\n    return []\n", "test.star:3:", mem},
		{"augmented doubling", "    l = [0]\n    for i in range(40): l += l\n    return []\n", "test.star:3:", mem},
		{"one repetition", "    s = 'x' * 2000000000\n    return []\n", "test.star:2:", "a string of 2000000000 bytes"},
		{"list repetition", "    l = [0] * 1000000000\n    return []\n", "test.star:2:", "a list of 1000000000 items"},
		{"range into a list", "    l = list(range(1 << 40))\n    return []\n", "test.star:2:", "a list of 1099511627776 items"},
		{"extend by a range", "    l = []\n    l.extend(range(1 << 40))\n    return []\n", "test.star:3:", mem},
		{"+= a range", "    l = []\n    l += range(1 << 40)\n    return []\n", "test.star:3:", mem},
		{"sorted range", "    return sorted(range(1 << 40))\n", "test.star:2:", mem},
		{"join", "    s = 'x' * 1000000\n    l = [s] * 100000\n    return [','.join(l)]\n", "test.star:4:", mem},
		{"replace doubling", "    s = 'x'\n    for i in range(40): s = s.replace('x', 'xx')\n    return []\n", "test.star:3:", mem},
		{"format doubling", "    s = 'x'\n    for i in range(40): s = '{}{}'.format(s, s)\n    return []\n", "test.star:3:", "more than 4 MiB"},
		{"percent doubling", "    s = 'x'\n    for i in range(40): s = '%s%s' % (s, s)\n    return []\n", "test.star:3:", "more than 4 MiB"},
		{"shared repr", "    a = [1]\n    for i in range(40): a = [a, a]\n    return [str(a)]\n", "test.star:4:", "more than 4 MiB"},
		{"dict growth", "    d = {}\n    for i in range(10000000): d[i] = 0; d[~i] = 0; d[str(i)] = 0\n    return []\n", "test.star:3:", mem},
		{"comprehension", "    s = 'x' * 1000000\n    l = [s + s for i in range(1000)]\n    return []\n", "test.star:3:", mem},
		{"int squaring", "    x = 3\n    for i in range(40): x = x * x\n    return []\n", "test.star:3:", "an int of"},
		{"method taken apart", "    l = []\n    f = l.extend\n    f(range(1 << 40))\n    return []\n", "test.star:4:", mem},
		{"getattr", "    l = []\n    getattr(l, 'extend')(range(1 << 40))\n    return []\n", "test.star:3:", mem},
		{"star arguments", "    return max(*range(1 << 40))\n", "test.star:2:", mem},
		{"fail message", "    a = [1]\n    for i in range(40): a = [a, a]\n    fail(a)\n", "test.star:4:", "more than 4 MiB"},
	} {
		t.Run(c.name, func(t *testing.T) { checkBad(t, head+c.body, c.pos, c.msg) })
	}
}

// Time bombs: keys that share one hash make every insert into a dict or set compare with
// every entry, so the step budget alone lets a call run for hours (ints that differ by a
// multiple of 2³² share Starlark's hash). The watchdog stops each within its wall limit,
// with its message and line; the bound asserted here is a coarse one, not the machine's
// speed.
func TestCollisionBombs(t *testing.T) {
	const wall = "of wall time"
	head := "def allocate(g, cur, qs, cs):\n"
	for _, c := range []struct {
		name, body, pos string
	}{
		{"dict, a key at a time", "    d = {}\n    for i in range(1000000): d[i << 32] = 0\n    return []\n", "test.star:3:"},
		{"set, a key at a time", "    s = set()\n    for i in range(1000000): s.add(i << 32)\n    return []\n", "test.star:3:"},
		// The list is built in under a second natively; a slow machine may stop while building
		// it (line 2), past the wall limit all the same.
		{"set of a list, one step", "    l = [i << 32 for i in range(100000)]\n    return list(set(l))\n", "test.star:"},
		{"dict of pairs, one step", "    l = [(i << 32, 0) for i in range(100000)]\n    return list(dict(l))\n", "test.star:"},
		{"update, one step", "    l = [(i << 32, 0) for i in range(100000)]\n    d = {}\n    d.update(l)\n    return []\n", "test.star:"},
		{"union, one step", "    l = [i << 32 for i in range(100000)]\n    return list(set().union(l))\n", "test.star:"},
		{"differences", "    a = set([i << 32 for i in range(12000)])\n    for i in range(100000): b = a - set()\n    return []\n", "test.star:"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			checkBad(t, head+c.body, c.pos, wall)
			assert.Less(t, time.Since(start), 30*time.Second, "the watchdog stops the call near its limit of %v", WallLimit)
		})
	}
}
