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

// The weighted example reads the view: each member weighs the others by what they last
// published and itself by its numbers of now, so at a moment between publications the
// members disagree and Check names the doubled or orphaned queues. The region example routes
// by the members' region labels.
func TestCheckStrategyWithViews(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	compareTick(t, s, `{"type":"step","ms":34000}`)
	src, err := os.ReadFile("../../assets/strategies/weighted.star")
	require.NoError(t, err)
	r, err := checkOf(t, a, "WEIGHTED", string(src))
	require.NoError(t, err)
	assert.False(t, r.Exact, "members that read different numbers disagree")
	assert.NotEmpty(t, append(append([]string{}, r.Orphaned...), func() []string {
		var qs []string
		for _, d := range r.Doubled {
			qs = append(qs, d.Queue)
		}
		return qs
	}()...))
	again, err := checkOf(t, a, "WEIGHTED", string(src))
	require.NoError(t, err)
	assert.Equal(t, r, again, "deterministic")

	labelled := `{"version": 1, "seed": 1, "brokers": [{"name": "broker-a", "queues": 4}, {"name": "broker-b", "queues": 4}, {"name": "broker-c", "queues": 4}, {"name": "broker-d", "queues": 4}],
	 "consumers": [{"id": "e1", "attributes": {"region": "east"}}, {"id": "e2", "attributes": {"region": "east"}}, {"id": "w1", "attributes": {"region": "west", "weight": 2}}]}`
	compareTick(t, s, `{"type":"load","scenario":`+labelled+`}`)
	src, err = os.ReadFile("../../assets/strategies/region.star")
	require.NoError(t, err)
	r, err = checkOf(t, a, "REGION", string(src))
	require.NoError(t, err)
	assert.True(t, r.Exact)
	got := map[string][]string{}
	for _, m := range r.Members {
		got[m.ID] = m.Queues
	}
	assert.Equal(t, []string{"broker-a:0", "broker-a:1", "broker-a:2", "broker-a:3"}, got["e1"])
	assert.Equal(t, []string{"broker-b:0", "broker-b:1", "broker-b:2", "broker-b:3"}, got["e2"])
	assert.Len(t, got["w1"], 8, "the west's one member takes the west's brokers")
}
