package script

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

func loadFile(t testing.TB, path string) *Program {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	p, err := Load(NameOf(path), path, src)
	require.NoError(t, err)
	return p
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func load(t *testing.T, src string) *Program {
	t.Helper()
	p, err := Load("TEST", "test.star", []byte(src))
	require.NoError(t, err)
	return p
}

// randomCase is a group as RebalanceImpl could see it: sorted queues on up to five brokers
// (sometimes none), sorted ids (sometimes none, sometimes one twice), and a current id that
// is usually one of them.
func randomCase(r *rand.Rand) ([]route.MessageQueue, []string, string) {
	var mqs []route.MessageQueue
	for b := range r.IntN(6) {
		for q := range r.IntN(10) {
			mqs = append(mqs, route.MessageQueue{Topic: "T", BrokerName: fmt.Sprintf("broker-%c", 'a'+b), QueueID: int32(q)})
		}
	}
	if r.IntN(4) == 0 {
		mqs = append(mqs, route.MessageQueue{Topic: "%RETRY%g", BrokerName: "broker-a", QueueID: 0})
	}
	var ids []string
	for range r.IntN(14) {
		ids = append(ids, fmt.Sprintf("10.0.0.%d@%d", r.IntN(40), r.IntN(3)))
	}
	if len(ids) > 0 && r.IntN(8) == 0 {
		ids = append(ids, ids[0])
	}
	route.SortQueues(mqs)
	route.SortClientIDs(ids)
	current := "10.0.0.99@1"
	switch {
	case len(ids) > 0 && r.IntN(6) != 0:
		current = ids[r.IntN(len(ids))]
	case r.IntN(5) == 0:
		current = ""
	}
	return mqs, ids, current
}

// The ports of AVG and AVG_BY_CIRCLE written from the Java source give the built-ins' queues,
// in their order, on any input, and throw where they throw.
func TestPortsEqualBuiltins(t *testing.T) {
	for _, c := range []struct{ file, builtin string }{
		{"../../testdata/strategies/avg_port.star", "AVG"},
		{"../../testdata/strategies/avg_by_circle_port.star", "AVG_BY_CIRCLE"},
	} {
		t.Run(c.builtin, func(t *testing.T) {
			p := loadFile(t, c.file)
			b, err := allocate.New(c.builtin, allocate.Params{})
			require.NoError(t, err)
			r := rand.New(rand.NewPCG(7, uint64(len(c.builtin))))
			n := 3000
			if testing.Short() {
				n = 300
			}
			calls, threw := 0, 0
			for i := range n {
				mqs, ids, current := randomCase(r)
				want, wantErr := b.Allocate("g", current, mqs, ids)
				got, gotErr := p.Allocate("g", current, mqs, ids)
				calls++
				if wantErr != nil {
					threw++
					require.Error(t, gotErr, "case %d: %s throws %v", i, c.builtin, wantErr)
					assert.Contains(t, gotErr.Error(), wantErr.Error(), "case %d", i)
					continue
				}
				require.NoError(t, gotErr, "case %d", i)
				require.Equal(t, want, got, "case %d: current %s of %v over %v", i, current, ids, mqs)
			}
			assert.Less(t, threw, calls/2, "most cases must allocate, not throw")
		})
	}
}

// Each way a strategy goes wrong is an *Error naming the problem and its line, reached in
// bounded time and memory.
func TestBadStrategies(t *testing.T) {
	for _, c := range []struct {
		name, src, pos, msg string
	}{
		{"endless loop", "def allocate(g, cur, qs, cs):\n    n = 0\n    while True:\n        n += 1\n", "test.star:4:", "budget of 10000000 steps"},
		{"queue not passed in", "def allocate(g, cur, qs, cs):\n    return [qs[0], 'broker-z/3']\n", "test.star:1:1", `item 1 of allocate's result, "broker-z/3", is not one of the queues passed in`},
		{"duplicate", "def allocate(g, cur, qs, cs):\n    return [qs[1], qs[0], qs[1]]\n", "test.star:1:1", "holds a:1 twice (items 0 and 2)"},
		{"not a list", "def allocate(g, cur, qs, cs):\n    return len(qs)\n", "test.star:1:1", "allocate returned a int (2), want a list of queues"},
		{"none", "def allocate(g, cur, qs, cs):\n    pass\n", "test.star:1:1", "allocate returned None (it reached no return?)"},
		{"runtime error", "def allocate(g, cur, qs, cs):\n    x = 1\n    return qs[x // 0]\n", "test.star:3:17", "floored division by zero"},
		{"fail", "def allocate(g, cur, qs, cs):\n\n    fail('no weights for ' + cur)\n", "test.star:3:9", "no weights for c1"},
		{"recursion", "def allocate(g, cur, qs, cs):\n    return allocate(g, cur, qs, cs)\n", "test.star:2:12", "called recursively"},
	} {
		t.Run(c.name, func(t *testing.T) { checkBad(t, c.src, c.pos, c.msg) })
	}
}

// checkBad runs a strategy that goes wrong: an *Error at pos… saying msg, in bounded time
// and memory, after which another strategy runs as before.
func checkBad(t *testing.T, src, pos, msg string) {
	t.Helper()
	mqs := []route.MessageQueue{{Topic: "T", BrokerName: "a", QueueID: 0}, {Topic: "T", BrokerName: "a", QueueID: 1}}
	ids := []string{"c1", "c2"}
	p := load(t, src)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := p.Allocate("g", "c1", mqs, ids)
	var se *Error
	require.ErrorAs(t, err, &se)
	assert.True(t, strings.HasPrefix(se.Pos, pos), "position %q; want %q…", se.Pos, pos)
	assert.Contains(t, se.Msg, msg)
	// The guard stops a call before it builds more than its budget of 64 MiB: what Go
	// allocated in all stays within a small multiple of it.
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	assert.Less(t, allocated, uint64(4*MaxAlloc), "the call must stop before it builds much more than its budget; Go allocated %d MiB", allocated>>20)
	// A coarse guard against a call that is not stopped at all: the slowest bomb (a dict grown
	// an entry at a time) takes seconds natively and half a minute under Node on a busy machine.
	assert.Less(t, time.Since(start), 3*time.Minute, "a coarse guard against a call that is not stopped at all")
	got, err := loadFile(t, "../../testdata/strategies/avg_port.star").Allocate("g", "c1", mqs, ids)
	require.NoError(t, err)
	assert.Equal(t, mqs[:1], got)
}

func TestLoadErrors(t *testing.T) {
	for _, c := range []struct{ name, src, want, has string }{
		{"syntax", "def allocate(g, cur, qs, cs):\n    return [q for q in qs if]\n", "test.star:2:29: syntax error: ", ""},
		{"undefined", "def allocate(g, cur, qs, cs):\n    return weights[cur]\n", "test.star:2:12: undefined: weights", ""},
		{"wrong arity", "def allocate(queues, consumers):\n    return []\n", "test.star:1:1: allocate takes 2 parameters; want def allocate(group, current, queues, consumers)", ""},
		{"not a function", "allocate = 3\n", "test.star: allocate is a int, want a function", ""},
		{"nothing", "x = 1\n", "test.star: the file defines neither allocate", ""},
		{"top-level loop", "def f():\n    n = 0\n    while True:\n        m = n\nf()\ndef allocate(g, c, q, cs):\n    return []\n", "test.star:", "ran past its budget of 10000000 steps"},
		{"load", "load('other.star', 'x')\n", "test.star:1:1: ", ""},
		{"too big", "# " + strings.Repeat("x", MaxSource) + "\n", "test.star: the file has 65539 bytes; a strategy file may have at most 65536", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load("TEST", "test.star", []byte(c.src))
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), c.want), "%q; want %q…", err, c.want)
			assert.Contains(t, err.Error(), c.has)
		})
	}
}

// A registered file is a strategy like the built-ins: allocate.New finds it by name and a
// group view runs it for every member; a fifth parameter gets the view of the consumers.
func TestRegister(t *testing.T) {
	p := load(t, `
def allocate(group, current, queues, consumers, view):
    i = consumers.index(current)
    return [q for k, q in enumerate(queues) if k % len(view.consumers) == i]
`)
	p.name = "TEST_VIEW"
	require.NoError(t, Register(p))
	t.Cleanup(func() { allocate.Unregister("TEST_VIEW") })
	assert.ErrorContains(t, Register(p), "strategy name TEST_VIEW is taken")
	s, err := allocate.New("test_view", allocate.Params{})
	require.NoError(t, err)
	mqs := []route.MessageQueue{{Topic: "T", BrokerName: "a", QueueID: 0}, {Topic: "T", BrokerName: "a", QueueID: 1}, {Topic: "T", BrokerName: "a", QueueID: 2}}
	v := allocate.Group(s, "g", mqs, []string{"c1", "c2"})
	require.Len(t, v.Assignments, 2)
	assert.Equal(t, []route.MessageQueue{mqs[0], mqs[2]}, v.Assignments[0].Queues)
	assert.Equal(t, []route.MessageQueue{mqs[1]}, v.Assignments[1].Queues)
	assert.Equal(t, "AVG_PORT", NameOf("testdata/strategies/avg_port.star"))
	assert.Equal(t, "MY_AVG", NameOf(`C:\s\my-avg.star`))
}
