package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type simJSON struct {
	Seed    int64 `json:"seed"`
	Actions []struct {
		T    int64  `json:"t"`
		Type string `json:"type"`
	} `json:"actions"`
	Rebalances []struct {
		T        int64    `json:"t"`
		Consumer string   `json:"consumer"`
		Queues   []string `json:"queues"`
	} `json:"rebalances"`
	Anomalies []map[string]any `json:"anomalies"`
	Final     struct {
		Assignment map[string][]string `json:"assignment"`
	} `json:"final"`
	Metrics struct {
		Produced, Consumed, Duplicates, Lost int64
		SendsPerBroker                       map[string]int64 `json:"sendsPerBroker"`
		Rebalances                           int64
	} `json:"metrics"`
}

func simRun(t *testing.T, args ...string) (simJSON, string) {
	t.Helper()
	out, errOut, status := lbscope(t, "", append([]string{"sim"}, args...)...)
	require.Equal(t, 0, status, errOut)
	var r simJSON
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	return r, out
}

// firstMove is when a consumer other than c1 first got a new set after at.
func firstMove(r simJSON, at int64) int64 {
	for _, rb := range r.Rebalances {
		if rb.T >= at && rb.Consumer != "c1" {
			return rb.T - at
		}
	}
	return -1
}

// The acceptance runs: a partition moves c1's queues only after 90–170 s, a kill or a
// stop within 5 s, the kill with more duplicates; the same command twice prints the same bytes.
func TestSimAcceptance(t *testing.T) {
	base := []string{"--brokers", "2", "--queues", "4", "--consumers", "3", "--until", "6m", "--json"}
	part, out1 := simRun(t, append(base, "--at", "60s:partitionConsumer:c1")...)
	_, out2 := simRun(t, append(base, "--at", "60s:partitionConsumer:c1")...)
	assert.Equal(t, out1, out2, "the same command twice must print identical output")
	d := firstMove(part, 60000)
	assert.True(t, d >= 90000 && d <= 170000, "partition: queues moved %d ms later; want 90…170 s", d)
	assert.Zero(t, part.Metrics.Lost)
	assert.ElementsMatch(t, []string{"broker-a:0", "broker-a:1", "broker-a:2", "broker-a:3"}, part.Final.Assignment["c2"])
	assert.Equal(t, int64(1), part.Seed)

	kill, _ := simRun(t, append(base, "--at", "62s:killConsumer:c1")...)
	stop, _ := simRun(t, append(base, "--at", "62s:stopConsumer:c1")...)
	for name, r := range map[string]simJSON{"kill": kill, "stop": stop} {
		d := firstMove(r, 62000)
		assert.True(t, d >= 0 && d <= 5000, "%s: queues moved %d ms later; want within 5 s", name, d)
		assert.Zero(t, r.Metrics.Lost)
		assert.Equal(t, r.Metrics.Produced, r.Metrics.Consumed, "%s: everything produced is consumed by the end", name)
	}
	assert.Greater(t, kill.Metrics.Duplicates, int64(0), "a kill loses offsets not yet persisted")
	assert.Less(t, stop.Metrics.Duplicates, kill.Metrics.Duplicates)
}

func TestSimReadableTimeline(t *testing.T) {
	out, errOut, status := lbscope(t, "", "sim", "--brokers", "2", "--queues", "4", "--consumers", "3", "--until", "90s", "--at", "60s:addConsumer:c4")
	require.Equal(t, 0, status, errOut)
	for _, want := range []string{"seed 1 · 8 queues on 2 brokers · 3 consumers · AVG · CLUSTERING", "01:00 > c4 starts and joins the group",
		"broker-a registers c4", "final assignment at 01:30", "produced", "duplicates 0 · lost 0"} {
		assert.Contains(t, out, want)
	}
}

func TestSimScenarioFileAndPreset(t *testing.T) {
	r, _ := simRun(t, "../../testdata/scenarios/kill.json", "--json")
	require.Len(t, r.Actions, 1)
	assert.Equal(t, "killConsumer", r.Actions[0].Type)
	r, _ = simRun(t, "--preset", "small", "--until", "20s", "--seed", "3", "--json")
	assert.Equal(t, int64(3), r.Seed)
	assert.Len(t, r.Final.Assignment, 3)
}

// Every incident of the registry is a preset name: sim --help lists it with its citations,
// and --preset runs it.
func TestSimPresetIncidents(t *testing.T) {
	help, _, status := lbscope(t, "", "sim", "--help")
	require.Equal(t, 0, status)
	for _, inc := range scenario.Registry() {
		assert.Contains(t, help, inc.Name+"  ", "sim --help lists %s", inc.Name)
		assert.Contains(t, help, inc.Title.En+" ("+scenario.CiteText(inc.Cites)+")")
		r, _ := simRun(t, "--preset", inc.Name, "--json")
		assert.Len(t, r.Final.Assignment, len(inc.Scenario().Consumers), inc.Name)
	}
	_, errOut, status := lbscope(t, "", "sim", "--preset", "incident-nope")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "incident-same-client-id")
}

func TestSimBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--at", "60s:killConsumer"}, "killConsumer needs"},
		{[]string{"--at", "soon:killConsumer:c1"}, `--at "soon:killConsumer:c1"`},
		{[]string{"--at", "60s:explode:c1"}, "explode"},
		{[]string{"--brokers", "65"}, "64"},
		{[]string{"--until", "forever"}, "until"},
		{[]string{"--strategy", "NOPE"}, "NOPE"},
		{[]string{"--preset", "huge"}, `--preset "huge"`},
		{[]string{"--preset", "small", "--brokers", "3"}, "--brokers shapes a flag-built cluster"},
		{[]string{"missing.json"}, "missing.json"},
		{[]string{"a.json", "b.json"}, "one scenario file at most"},
	}
	for _, tt := range tests {
		out, errOut, status := lbscope(t, "", append([]string{"sim"}, tt.args...)...)
		assert.Equal(t, 2, status, "%v", tt.args)
		assert.Empty(t, out, "%v", tt.args)
		assert.Contains(t, errOut, tt.want, "%v", tt.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: want one line, got %q", tt.args, errOut)
	}
}

// A scenario with a history read from logs: sim prints the run as the golden has it, its
// last section the windows where the logs and the simulation disagree; --json is the run's,
// with those windows under "observed".
func TestSimObservedDisagreements(t *testing.T) {
	out, errOut, status := lbscope(t, "", "sim", "../../testdata/scenarios/observed-kill.json")
	require.Equal(t, 0, status, errOut)
	want, err := os.ReadFile("../../testdata/scenarios/observed-kill.golden")
	require.NoError(t, err)
	assert.Equal(t, string(want), out)
	assert.Contains(t, out, "\nthe logs against the simulation (rocketmq_client.log of 3 members; 00:00 is 2026-11-30 10:15:02.120 +08:00)\n"+
		"  01:00–01:05  broker-a:0-2  logs: nobody · simulated: 10.0.0.2@2345 (5.0 s)\n")
	// --json is the run as the file without its history gives it, and the windows.
	var doc map[string]any
	data, err := os.ReadFile("../../testdata/scenarios/observed-kill.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &doc))
	delete(doc, "observed")
	bare, err := json.Marshal(doc)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "bare.json")
	require.NoError(t, os.WriteFile(file, bare, 0o644))
	withLogs, _, _ := lbscope(t, "", "sim", "../../testdata/scenarios/observed-kill.json", "--json")
	without, _, _ := lbscope(t, "", "sim", file, "--json")
	var a, b map[string]any
	require.NoError(t, json.Unmarshal([]byte(withLogs), &a))
	require.NoError(t, json.Unmarshal([]byte(without), &b))
	obs, _ := a["observed"].(map[string]any)
	require.NotNil(t, obs, "sim --json of a logged scenario carries the windows")
	assert.Equal(t, "2026-11-30 10:15:02.120", obs["start"])
	assert.Contains(t, fmt.Sprint(obs["disagreements"]), "from:60001 logged:[] queues:[broker-a:0 broker-a:1 broker-a:2] simulated:[10.0.0.2@2345] to:65000")
	delete(a, "observed")
	assert.Equal(t, b, a)
	plain, _, _ := lbscope(t, "", "sim", file)
	assert.Equal(t, plain, strings.Split(out, "\nthe logs against")[0])
}

// A scenario that carries its strategy's source runs it: sim prints the golden, its header
// naming the strategy; --json names the strategy its timeline sets; the source's syntax error
// is named with its file and line before anything runs.
func TestSimScenarioWithSource(t *testing.T) {
	out, errOut, status := lbscope(t, "", "sim", "../../testdata/scenarios/own-strategy-floor.json")
	require.Equal(t, 0, status, errOut)
	want, err := os.ReadFile("../../testdata/scenarios/own-strategy-floor.golden")
	require.NoError(t, err)
	assert.Equal(t, string(want), out)
	assert.Contains(t, out, "· WEIGHTED_FLOOR ·")
	assert.Contains(t, out, "orphan  broker-b:7 (60 s)")

	js, errOut, status := lbscope(t, "", "sim", "../../testdata/scenarios/own-strategy-floor.json", "--json")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, js, `"strategy": "WEIGHTED_REMAINDER"`)

	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"version": 1, "brokers": [{"name": "broker-a", "queues": 4}], "consumers": [{"id": "c1"}],
 "strategy": {"name": "MINE", "source": "def allocate(group, current, queues, consumers):\n    return [q for q in queues if]\n"}}`), 0o644))
	_, errOut, status = lbscope(t, "", "sim", bad)
	assert.NotEqual(t, 0, status)
	assert.Contains(t, errOut, "strategy.source: mine.star:2:33: syntax error: got ']', want primary expression")
}
