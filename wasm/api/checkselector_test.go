package api

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

func checkSelectorOf(t *testing.T, a *API, name, source string) (selectorCheck, error) {
	t.Helper()
	args, _ := json.Marshal(map[string]any{"selector": name, "source": source})
	out, err := a.Call("checkSelector", args)
	if err != nil {
		return selectorCheck{}, err
	}
	var r selectorCheck
	require.NoError(t, json.Unmarshal(out, &r))
	return r, nil
}

// checkSelector runs a selector over the keyed producers' messages as the brokers are now:
// in the hot-key scenario the composite key moves the hot queue's half of the traffic onto
// four queues; without keyed producers it shows a made-up hot key; an error comes back with
// its file and line.
func TestCheckSelector(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/hot-key.json")
	require.NoError(t, err)
	sc, err := scenario.Parse(data)
	require.NoError(t, err)
	s, err := session.New(sc)
	require.NoError(t, err)
	a := New(s)
	src, err := os.ReadFile("../../assets/strategies/composite.star")
	require.NoError(t, err)
	r, err := checkSelectorOf(t, a, "COMPOSITE", string(src))
	require.NoError(t, err)
	require.Len(t, r.Producers, 1)
	p := r.Producers[0]
	assert.Equal(t, "p1", p.ID)
	assert.Equal(t, "streamer-0", p.HotKey)
	assert.Len(t, p.Queues, 8)
	assert.Equal(t, "broker-a:0", p.HotQueue.Before)
	assert.GreaterOrEqual(t, p.HotQueue.BeforeShare, int64(50))
	assert.Less(t, p.HotQueue.AfterShare, int64(25))
	spread := 0
	for _, n := range p.HotCust {
		if n > 0 {
			spread++
		}
	}
	assert.Equal(t, 4, spread, "the hot key over four queues")

	r, err = checkSelectorOf(t, New(session.NewDefault()), "COMPOSITE", string(src))
	require.NoError(t, err)
	assert.True(t, r.NoKeys)
	require.Len(t, r.Producers, 1)
	assert.Equal(t, "key-0", r.Producers[0].HotKey)

	_, err = checkSelectorOf(t, a, "BAD", "def select(queues, message, arg):\n    return queues[\n")
	assert.ErrorContains(t, err, "bad.star:3:1: syntax error")
	_, err = checkSelectorOf(t, a, "ALLOC", "def allocate(g, c, q, cs):\n    return q\n")
	assert.ErrorContains(t, err, "defines no select(queues, message, arg)")
	r, err = checkSelectorOf(t, a, "PICKY", "def select(queues, message, arg):\n    fail('no ' + arg)\n")
	require.NoError(t, err)
	assert.Regexp(t, `^picky.star:2:9: fail: no streamer-\d+$`, r.Producers[0].Error)
	assert.Equal(t, int64(10), r.Producers[0].Failed, "the check stops counting at the tenth failure")
}
