package script

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/wasm/script/wire"
)

// A strategy compiled and called through the wire, as the page's wasm calls the
// interpreter's, gives what the program gives in place: the same queues, the same errors.
func TestWireEqualsInPlace(t *testing.T) {
	srv := &Server{}
	call := func(method string, args ...any) (string, bool) {
		switch method {
		case "compile":
			return srv.Compile(args[0].(string), args[1].(string), args[2].(string), args[3].(int)), true
		case "allocate":
			return srv.Allocate(args[0].(int), args[1].(string)), true
		}
		return "", false
	}
	compile := wire.Compiler(call)
	for _, file := range []string{"../../testdata/strategies/avg_port.star", "../../testdata/strategies/weighted_floor.star"} {
		direct := loadFile(t, file)
		src := mustRead(t, file)
		remote, err := compile(direct.Name(), file, src, MaxSteps)
		require.NoError(t, err)
		assert.Equal(t, direct.Name(), remote.Name())
		r := rand.New(rand.NewPCG(3, 9))
		for i := range 300 {
			mqs, ids, current := randomCase(r)
			want, wantErr := direct.Allocate("g", current, mqs, ids)
			got, gotErr := remote.Allocate("g", current, mqs, ids)
			if wantErr != nil {
				require.EqualError(t, gotErr, wantErr.Error(), "case %d", i)
				continue
			}
			require.NoError(t, gotErr, "case %d", i)
			require.Equal(t, want, got, "case %d", i)
		}
	}
	_, err := compile("BAD", "bad.star", []byte("def allocate(g, c, q, cs):\n    return [\n"), MaxSteps)
	assert.ErrorContains(t, err, "bad.star:3:1: syntax error")
	loop, err := compile("LOOP", "loop.star", []byte("def allocate(g, c, q, cs):\n    n = 0\n    while True:\n        n += 1\n"), 5000)
	require.NoError(t, err)
	_, err = loop.Allocate("g", "c1", nil, []string{"c1"})
	assert.ErrorContains(t, err, "loop.star:4:9: Starlark computation cancelled: the strategy ran past its budget of 5000 steps")

	gone := wire.Compiler(func(string, ...any) (string, bool) { return "", false })
	_, err = gone("X", "x.star", []byte("x = 1"), MaxSteps)
	assert.ErrorIs(t, err, wire.ErrNotLoaded)
}

// A selector compiled and called through the wire answers what it answers in place: the
// same queue for every key, the same errors; a source without select is refused.
func TestWireSelectorEqualsInPlace(t *testing.T) {
	srv := &Server{}
	compile := wire.SelectorCompiler(func(method string, args ...any) (string, bool) {
		switch method {
		case "compileSelector":
			return srv.CompileSelector(args[0].(string), args[1].(string), args[2].(string), args[3].(int)), true
		case "select":
			return srv.Select(args[0].(int), args[1].(string)), true
		}
		return "", false
	})
	file := "../../assets/strategies/composite.star"
	direct := loadFile(t, file)
	remote, err := compile("COMPOSITE", file, mustRead(t, file), 1000)
	require.NoError(t, err)
	mqs := queuesOf(t, "broker-a:4,broker-b:3")
	for seq, key := range []string{"key-0", "key-0", "key-0", "key-0", "key-1", "key-77", "streamer-0", "x"} {
		msg := Message{Key: key, Seq: int64(seq)}
		want, _ := direct.Select(mqs, msg, key)
		got, err := remote.Select(mqs, msg, key)
		require.NoError(t, err)
		assert.Equal(t, want, got, key)
	}
	picky, err := compile("PICKY", "picky.star", []byte("def select(queues, message, arg):\n    fail('no ' + arg)\n"), 1000)
	require.NoError(t, err)
	_, err = picky.Select(mqs, Message{Key: "k"}, "k")
	assert.EqualError(t, err, "picky.star:2:9: fail: no k")
	_, err = compile("ALLOC", "alloc.star", []byte("def allocate(g, c, q, cs):\n    return q\n"), 1000)
	assert.ErrorContains(t, err, "alloc.star: the source defines no select(queues, message, arg)")
}
