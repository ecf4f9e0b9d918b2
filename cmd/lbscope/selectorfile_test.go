package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const compositeSelector = "../../assets/strategies/composite.star"

// The composite-key selector spreads the hot key, which SelectMessageQueueByHash sends to one
// queue, over four queues, and leaves every other key where the hash puts it.
func TestSelectCompositeKeyAgainstTheHash(t *testing.T) {
	out, errOut, status := lbscope(t, "", "select", "--selector-file", compositeSelector, "--queues", "broker-a:4,broker-b:4",
		"--keys", "1000", "--hot-share", "50", "--prefix", "streamer-", "--json")
	require.Equal(t, 0, status, errOut)
	var sp struct {
		Selector                         string
		Queues                           []string
		Hash, Custom, HotHash, HotCustom []int64
		Messages, Failed                 int64
	}
	require.NoError(t, json.Unmarshal([]byte(out), &sp))
	assert.Equal(t, "COMPOSITE", sp.Selector)
	assert.Equal(t, int64(10000), sp.Messages)
	assert.Zero(t, sp.Failed)
	hotQueues := func(counts []int64) (n int, most int64) {
		for _, c := range counts {
			if c > 0 {
				n++
			}
			most = max(most, c)
		}
		return n, most
	}
	n, most := hotQueues(sp.HotHash)
	assert.Equal(t, 1, n, "the hash sends the hot key to one queue: %v", sp.HotHash)
	hashMost := most
	n, most = hotQueues(sp.HotCustom)
	assert.Equal(t, 4, n, "the composite key spreads it over four: %v", sp.HotCustom)
	assert.Less(t, most*3, hashMost, "each of the four gets about a quarter: %v against %v", sp.HotCustom, sp.HotHash)
	for i := range sp.Queues {
		// The other keys stay where the hash puts them.
		assert.Equal(t, sp.Hash[i]-sp.HotHash[i], sp.Custom[i]-sp.HotCustom[i], "queue %s", sp.Queues[i])
	}
	_, h := hotQueues(sp.Hash)
	_, c := hotQueues(sp.Custom)
	assert.Less(t, c*2, h, "the hottest queue: %d messages under the hash, %d under the selector", h, c)

	text, _, status := lbscope(t, "", "select", "--selector-file", compositeSelector, "--keys", "1000", "--hot-share", "50", "--prefix", "streamer-")
	require.Equal(t, 0, status)
	assert.Contains(t, text, "streamer-0 by COMPOSITE")
	assert.Regexp(t, `hottest queue under HASH: broker-a:0, 5\d\d\d messages \(5\d%\)`, text)
	assert.Regexp(t, `hottest queue under COMPOSITE: broker-a:\d, 1\d\d\d messages \(1\d%\)`, text)
}

// In a whole run, the hot-key scenario's backlog, the hot queue's, mostly goes once the
// composite key spreads the hot key; the sends are as many, none failed.
func TestSimSelectorFileSpreadsTheHotKey(t *testing.T) {
	metrics := func(args ...string) map[string]int64 {
		out, errOut, status := lbscope(t, "", append([]string{"sim", "../../testdata/scenarios/hot-key.json", "--until", "1m"}, args...)...)
		require.Equal(t, 0, status, errOut)
		m := map[string]int64{}
		for _, f := range regexp.MustCompile(`(produced|backlog|send failures) (\d+)`).FindAllStringSubmatch(out, -1) {
			m[f[1]], _ = strconv.ParseInt(f[2], 10, 64)
		}
		return m
	}
	hash, comp := metrics(), metrics("--selector-file", compositeSelector)
	assert.Equal(t, hash["produced"], comp["produced"])
	assert.Zero(t, comp["send failures"])
	assert.Greater(t, hash["backlog"], 5*comp["backlog"], "backlog %d under the hash, %d under COMPOSITE", hash["backlog"], comp["backlog"])
}

// A selector that throws fails the sends it places, as the client's MQClientException does:
// counted as send failures, the log naming the file and line. Files that are no selector are
// refused up front.
func TestSimSelectorFileErrors(t *testing.T) {
	path := writeStrategy(t, "picky.star", "def select(queues, message, arg):\n    if message.key == \"streamer-0\":\n        fail(\"no queue for \" + arg)\n    return queues[0]\n")
	out, errOut, status := lbscope(t, "", "sim", "../../testdata/scenarios/hot-key.json", "--until", "10s", "--selector-file", path, "--json", "--events")
	require.Equal(t, 0, status, errOut)
	var r struct {
		Metrics struct{ SendFailures int64 }
		Events  []struct{ Cause, Arg, Error, Text string }
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Greater(t, r.Metrics.SendFailures, int64(1000), "half the sends carry the hot key")
	found := false
	for _, e := range r.Events {
		if e.Cause == "selectorThrew" {
			found = true
			assert.Equal(t, "p1", e.Arg)
			assert.Contains(t, e.Error, "picky.star:3:13: fail: no queue for streamer-0")
			assert.Contains(t, e.Text, "PICKY")
		}
	}
	assert.True(t, found, "no selectorThrew event")

	for _, c := range []struct{ name, file, src, want string }{
		{"no select", "alloc.star", "def allocate(g, cur, qs, cs):\n    return qs\n", "alloc.star: the source defines no select(queues, message, arg)"},
		{"syntax", "broken.star", "def select(queues, message, arg):\n    return queues[\n", "broken.star:3:1: syntax error"},
		{"params", "two.star", "def select(queues, message):\n    return queues[0]\n", "select takes 2 parameters; want def select(queues, message, arg)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, errOut, status := lbscope(t, "", "sim", "../../testdata/scenarios/hot-key.json", "--selector-file", writeStrategy(t, c.file, c.src))
			assert.Equal(t, 2, status)
			assert.Contains(t, errOut, c.want)
		})
	}
	_, errOut, status = lbscope(t, "", "sim", "--selector-file", compositeSelector)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "no producer sends with keys")
	_, errOut, status = lbscope(t, "", "select", "--selector-file", compositeSelector, "--hot-share", "101")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "--hot-share 101: want 0…100")
	_, errOut, status = lbscope(t, "", "select")
	assert.Equal(t, 2, status)
	assert.True(t, strings.Contains(errOut, "--selector-file is required"), errOut)
}
