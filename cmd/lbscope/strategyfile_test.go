package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeStrategy writes a strategy file named name into a fresh folder.
func writeStrategy(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	return path
}

// The ports of AVG and AVG_BY_CIRCLE print the built-ins' table, under their own name.
func TestAllocateStrategyFile(t *testing.T) {
	for file, builtin := range map[string]string{"avg_port.star": "AVG", "avg_by_circle_port.star": "AVG_BY_CIRCLE"} {
		for _, consumers := range []string{"3", "10.0.0.2@1,10.0.0.1@1,10.0.0.10@1,10.0.0.3@1", "11"} {
			args := []string{"--queues", "broker-a:4,broker-b:3,broker-c:1", "--consumers", consumers}
			want, _, status := lbscope(t, "", append([]string{"allocate", "--strategy", builtin}, args...)...)
			require.Equal(t, 0, status)
			got, errOut, status := lbscope(t, "", append([]string{"allocate", "--strategy-file", "../../testdata/strategies/" + file}, args...)...)
			require.Equal(t, 0, status, errOut)
			name := strings.ToUpper(strings.TrimSuffix(file, ".star"))
			assert.Equal(t, strings.Replace(want, builtin+" · ", name+" · ", 1), got, "%s with %s consumers", file, consumers)
		}
	}
}

func TestAllocateStrategyFileErrors(t *testing.T) {
	args := []string{"--queues", "broker-a:4", "--consumers", "3"}
	for _, c := range []struct{ name, file, src, want string }{
		{"syntax", "syntax_err.star", "def allocate(g, cur, qs, cs):\n    return [q for q in qs if]\n", "syntax_err.star:2:29: syntax error: got ']', want primary expression"},
		{"no allocate", "no_alloc.star", "def select(queues, message, arg):\n    return queues[0]\n", "no_alloc.star: the file defines no allocate(group, current, queues, consumers)"},
		{"built-in name", "avg.star", "def allocate(g, cur, qs, cs):\n    return []\n", "its name, AVG, is a built-in strategy's; rename the file (e.g. avg_PORT)"},
		{"too big", "big.star", "#" + strings.Repeat("x", 70000), "big.star: more than 65536 bytes; a strategy file is at most 65536 (64 KiB)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeStrategy(t, c.file, c.src)
			_, errOut, status := lbscope(t, "", append([]string{"allocate", "--strategy-file", path}, args...)...)
			assert.Equal(t, 2, status)
			assert.Contains(t, errOut, c.want)
		})
	}
	_, errOut, status := lbscope(t, "", append([]string{"allocate", "--strategy", "AVG", "--strategy-file", "../../testdata/strategies/avg_port.star"}, args...)...)
	assert.NotEqual(t, 0, status)
	assert.Contains(t, errOut, "--strategy and --strategy-file name the strategy twice")
	_, errOut, status = lbscope(t, "", append([]string{"allocate", "--strategy-file", "no/such/file.star"}, args...)...)
	assert.NotEqual(t, 0, status)
	assert.Contains(t, errOut, "no/such/file.star")

	// A strategy that throws for one consumer: its row says where and why, the others are
	// allocated, and the queue it would have pulled shows as pulled by no one.
	path := writeStrategy(t, "one_throws.star", "def allocate(group, current, queues, consumers):\n    i = consumers.index(current)\n    return [queues[i], queues[i + 1]]\n")
	out, errOut, status := lbscope(t, "", "allocate", "--strategy-file", path, "--queues", "broker-a:3", "--consumers", "3")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "c3        "+path+":3:30: list index 3 out of range [-3:2]  -")
	assert.Contains(t, out, "pulled by more than one consumer: broker-a:1")

	// An endless loop and a memory bomb end in every consumer's row, with the line.
	for file, src := range map[string]string{
		"loops.star": "def allocate(group, current, queues, consumers):\n    n = 0\n    while True:\n        n += 1\n",
		"bomb.star":  "def allocate(group, current, queues, consumers):\n    s = current\n    n = 0\n    for i in range(40): s = s + s\n    return []\n",
	} {
		path := writeStrategy(t, file, src)
		out, errOut, status := lbscope(t, "", "allocate", "--strategy-file", path, "--queues", "broker-a:2", "--consumers", "2")
		require.Equal(t, 0, status, errOut)
		want := map[string]string{"loops.star": "Starlark computation cancelled: the strategy ran past its budget of 10000000 steps",
			"bomb.star": "the strategy would build more than its budget of 64 MiB of memory: a string of "}[file]
		for _, c := range []string{"c1", "c2"} {
			assert.Regexp(t, c+` +`+regexp.QuoteMeta(path)+`:4:\d+: `+regexp.QuoteMeta(want), out)
		}
		assert.Contains(t, out, "not pulled by anyone: broker-a:0-1")
	}
}

// A strategy that throws in the simulation behaves as the client does when allocate throws:
// every member logs it, keeps its old queues and retries a second later; the run goes on.
func TestSimStrategyFileThrows(t *testing.T) {
	path := writeStrategy(t, "two_only.star", `
def allocate(group, current, queues, consumers):
    if len(consumers) > 2:
        fail("no weights for " + current)
    i = consumers.index(current)
    return [q for k, q in enumerate(queues) if k % len(consumers) == i]
`)
	out, errOut, status := lbscope(t, "", "sim", "--strategy-file", path, "--brokers", "1", "--queues", "4", "--consumers", "2",
		"--at", "30s:addConsumer:c3", "--until", "60s", "--json", "--events")
	require.Equal(t, 0, status, errOut)
	var r struct {
		Final struct {
			TimeMs     int64               `json:"timeMs"`
			Assignment map[string][]string `json:"assignment"`
		} `json:"final"`
		Events []struct {
			T        int64  `json:"t"`
			Cause    string `json:"cause"`
			Consumer string `json:"consumer"`
			Text     string `json:"text"`
		} `json:"events"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, int64(60000), r.Final.TimeMs, "the run goes on to its end")
	assert.Equal(t, map[string][]string{"c1": {"broker-a:0", "broker-a:2"}, "c2": {"broker-a:1", "broker-a:3"}, "c3": {}}, r.Final.Assignment,
		"the members keep the queues of the last round that allocated")
	threw := map[string][]int64{}
	for _, e := range r.Events {
		if e.Cause == "strategyThrew" {
			threw[e.Consumer] = append(threw[e.Consumer], e.T)
			assert.Contains(t, e.Text, path+":4:13: fail: no weights for "+e.Consumer+"; it keeps its queues and retries")
		}
	}
	_, errOut, status = lbscope(t, "", "sim", "../../testdata/scenarios/kill.json", "--strategy-file", path)
	assert.NotEqual(t, 0, status)
	assert.Contains(t, errOut, "--strategy-file shapes a flag-built cluster; it cannot change a scenario file or preset")
	for _, c := range []string{"c1", "c2", "c3"} {
		require.Greater(t, len(threw[c]), 20, "%s retries every second until the end", c)
		gap := threw[c][1] - threw[c][0]
		assert.True(t, gap >= 1000 && gap < 1100, "%s retries a second later (spec §3.3 step 6, plus the round's own time); got %d ms", c, gap)
	}
}

// compare takes a strategy file as a variant; the port of AVG costs what AVG costs.
func TestCompareStrategyFile(t *testing.T) {
	out, errOut, status := lbscope(t, "", "compare", "--variants", "AVG,file:../../testdata/strategies/avg_port.star", "--at", "60s:killConsumer:c1", "--until", "3m", "--json")
	require.Equal(t, 0, status, errOut)
	var c struct {
		Rows []map[string]any `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &c), out)
	require.Len(t, c.Rows, 2)
	assert.Equal(t, "AVG_PORT", c.Rows[1]["label"])
	for _, k := range []string{"label", "variant"} {
		delete(c.Rows[0], k)
		delete(c.Rows[1], k)
	}
	assert.Equal(t, c.Rows[0], c.Rows[1], "the port moves, spreads and assigns as AVG does")
	assert.NotZero(t, c.Rows[0]["movedTotal"])
	_, errOut, status = lbscope(t, "", "compare", "--variants", "AVG,file:nowhere.star")
	assert.NotEqual(t, 0, status)
	assert.Contains(t, errOut, "--variants file:nowhere.star: ")
}
