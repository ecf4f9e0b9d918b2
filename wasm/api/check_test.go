package api

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/wasm/script"
	"github.com/lbscope/lbscope/wasm/session"
)

// The tests are a driver: strategies given with their source run in Starlark here.
func init() { script.Enable() }

func checkOf(t *testing.T, a *API, strategy, source string) (allocate.Report, error) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"strategy": strategy, "source": source})
	out, err := a.Call("checkStrategy", args)
	if err != nil {
		return allocate.Report{}, err
	}
	var r allocate.Report
	require.NoError(t, json.Unmarshal(out, &r))
	return r, nil
}

// checkStrategy runs a source's strategy as every member of the live group would: the port of
// AVG pulls every queue once, as AVG does; the floored weights leave a queue to nobody, named;
// a syntax error comes back with its file and line.
func TestCheckStrategy(t *testing.T) {
	a := New(session.NewDefault())
	avg, err := os.ReadFile("../../testdata/strategies/avg_port.star")
	require.NoError(t, err)
	port, err := checkOf(t, a, "AVG_PORT", string(avg))
	require.NoError(t, err)
	builtin, err := checkOf(t, a, "AVG", "")
	require.NoError(t, err)
	assert.True(t, port.Exact)
	assert.Equal(t, builtin.Members, port.Members, "the port allocates as the built-in")
	require.NotNil(t, port.Kill)
	assert.Equal(t, port.Kill.AVGMoves, port.Kill.Moves)
	assert.Equal(t, port.Join.AVGMoves, port.Join.Moves)
	assert.Equal(t, "c"+strconv.Itoa(len(port.Members)+1), port.Join.Member)

	floor, err := os.ReadFile("../../assets/strategies/rounding.star")
	require.NoError(t, err)
	r, err := checkOf(t, a, "ROUNDING", string(floor))
	require.NoError(t, err)
	assert.False(t, r.Exact)
	assert.NotEmpty(t, r.Orphaned, "flooring leaves queues to nobody")

	_, err = checkOf(t, a, "BAD", "def allocate(group, current, queues, consumers):\n    return [\n")
	assert.ErrorContains(t, err, "bad.star:3:1: syntax error")
	_, err = a.Call("checkStrategy", []byte(`"AVG"`))
	assert.ErrorContains(t, err, "takes {strategy, source?, steps?}")
}
