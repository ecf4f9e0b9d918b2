package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/scenario"
)

// `lbscope diagnose --scenario FILE` on the kill logs writes the logged group, and `lbscope sim
// FILE` replays it beside the logs. After the kill (58.31 s, when the survivors' lines show the
// Go member gone) the simulated brokers drop it at once and the survivors take its queues
// within a millisecond; per the logs broker-b:2-3 waited for 10.0.0.2's round after the
// notification, 35 ms later, and broker-a:3 changed hands in 10.0.0.1's and 10.0.0.2's rounds
// 15 ms apart. Those are the windows after the kill, and none lasts past the last of those
// rounds.
func TestDiagnoseLogsScenarioReplays(t *testing.T) {
	file := filepath.Join(t.TempDir(), "k.json")
	out, errOut, status := lbscope(t, "", "diagnose", "--scenario", file, "../../testdata/logs/kill")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "scenario written to "+file+" (topic Orders, 1 consumers, 2 joining later, the logged history of 18 holdings and 8 rounds: lbscope sim "+file+" replays it)")
	assert.NotContains(t, out, "left out:")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	s, err := scenario.Parse(data)
	require.NoError(t, err)
	require.NotNil(t, s.Observed)

	out, errOut, status = lbscope(t, "", "sim", file)
	require.Equal(t, 0, status, errOut)
	const b = "10.0.0.2@2002#2222"
	assert.Contains(t, out, "\nthe logs against the simulation (3 client logs: a-java-4.9.8.log, b-java-5.1.4.log, c-go-2.1.2.log; 00:00 is 2026-12-04 10:00:00.000 +08:00)\n")
	assert.Contains(t, out, "  00:58–00:58  broker-b:2-3  logs: nobody · simulated: "+b+" (34 ms)\n")

	ds, err := scenario.Disagreements(s)
	require.NoError(t, err)
	const kill, lastRound = 58310, 58345
	var after []scenario.Disagreement
	for _, d := range ds {
		if d.To > kill {
			after = append(after, d)
		}
	}
	require.NotEmpty(t, after, "no disagreement after the kill")
	orphaned := false
	for _, d := range after {
		assert.GreaterOrEqual(t, d.From, int64(kill), "%+v", d)
		assert.LessOrEqual(t, d.To, int64(lastRound), "%+v outlasts the survivors' rounds", d)
		q := strings.Join(d.Queues, " ")
		switch {
		case q == "broker-b:2 broker-b:3" && len(d.Logged) == 0:
			orphaned = true
			assert.Equal(t, []string{b}, d.Simulated)
			assert.Equal(t, int64(lastRound), d.To)
		case q == "broker-a:3":
		default:
			t.Errorf("unexpected window after the kill: %+v", d)
		}
	}
	assert.True(t, orphaned, "the orphaned window of broker-b:2-3 after the kill is missing: %+v", after)
}

// `lbscope sim --json` of a logged scenario carries the windows in which the logs and the
// simulation name different owners, as the text prints them, for a script to read.
func TestSimJSONCarriesTheLoggedWindows(t *testing.T) {
	file := filepath.Join(t.TempDir(), "k.json")
	_, errOut, status := lbscope(t, "", "diagnose", "--scenario", file, "../../testdata/logs/kill")
	require.Equal(t, 0, status, errOut)
	out, errOut, status := lbscope(t, "", "sim", "--json", file)
	require.Equal(t, 0, status, errOut)
	var v struct {
		Seed     *int64 `json:"seed"`
		Final    any    `json:"final"`
		Observed *struct {
			Source, Zone, Start string
			Disagreements       []struct {
				From, To                  int64
				Queues, Logged, Simulated []string
			}
		} `json:"observed"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.NotNil(t, v.Seed, "the run's own fields are still there")
	require.NotNil(t, v.Final)
	require.NotNil(t, v.Observed)
	assert.Equal(t, "3 client logs: a-java-4.9.8.log, b-java-5.1.4.log, c-go-2.1.2.log", v.Observed.Source)
	assert.Equal(t, "+08:00", v.Observed.Zone)
	assert.Equal(t, "2026-12-04 10:00:00.000", v.Observed.Start)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	s, err := scenario.Parse(data)
	require.NoError(t, err)
	ds, err := scenario.Disagreements(s)
	require.NoError(t, err)
	require.Len(t, v.Observed.Disagreements, len(ds))
	found := false
	for _, d := range v.Observed.Disagreements {
		if strings.Join(d.Queues, " ") == "broker-b:2 broker-b:3" && d.From >= 58310 && len(d.Logged) == 0 {
			found = true
			assert.Equal(t, []string{"10.0.0.2@2002#2222"}, d.Simulated)
			assert.Equal(t, int64(58345), d.To)
			assert.NotNil(t, d.Logged, "nobody is an empty list, not null")
		}
	}
	assert.True(t, found, "the orphaned window after the kill: %+v", v.Observed.Disagreements)

	// A scenario without logs keeps its JSON as it was: no observed key.
	out, errOut, status = lbscope(t, "", "sim", "--brokers", "1", "--queues", "2", "--consumers", "1", "--until", "5s", "--json")
	require.Equal(t, 0, status, errOut)
	assert.NotContains(t, out, `"observed"`)
}

// The Dashboard's tables and the members' logs given together are one report: the group and
// its members from the CLIENT dialog, the queues' owners from the consume detail, the note on
// the consumer list's count, and the logs' history with its windows; what is wrong first,
// whichever part shows it.
func TestDiagnoseTablesAndLogsTogether(t *testing.T) {
	args := []string{"diagnose", "../../testdata/logs/kill", dashTables + "kill-list-angular-en-github.txt",
		dashTables + "kill-client-angular-en-tabs.txt", dashTables + "kill-detail-angular-en-tabs.txt"}
	out, errOut, status := lbscope(t, "", args...)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "group OrderGroup · 2 members · CLUSTERING")
	assert.Contains(t, out, "kill-client-angular-en-tabs.txt lines 2–4: Dashboard CLIENT dialog (AngularJS, tabs)")
	assert.Contains(t, out, "a-java-4.9.8.log lines 1–94: client log")
	assert.Contains(t, out, "rebalance history from client logs")
	assert.Contains(t, out, "the 8 queues whose owner is observed agree")
	assert.Contains(t, out, "[warning] orphaned-window: 3 spans in which a queue had no owner, the longest 35 ms")
	assert.Contains(t, out, "the consumer list's Quantity for OrderGroup is 3 connections, not client ids")

	js, errOut, status := lbscope(t, "", append([]string{"diagnose", "--json"}, args[1:]...)...)
	require.Equal(t, 0, status, errOut)
	var v diagnoseJSON
	require.NoError(t, json.Unmarshal([]byte(js), &v))
	assert.Equal(t, []string{"double-owned-window", "orphaned-window", "allocation-ok", "allocation-ok"}, v.Codes)
	var h struct {
		History struct {
			Rounds []json.RawMessage `json:"rounds"`
		} `json:"history"`
	}
	require.NoError(t, json.Unmarshal([]byte(js), &h))
	assert.Len(t, h.History.Rounds, 8)
}

// The logs of a member that vanishes and comes back and of a topic that grows replay as such:
// the scenario grows the topic at 30 s, kills the Go member at 40 s and restarts it at 50 s,
// and `lbscope sim` runs it beside the logs.
func TestDiagnoseLogsRejoinReplays(t *testing.T) {
	file := filepath.Join(t.TempDir(), "r.json")
	out, errOut, status := lbscope(t, "", "diagnose", "--scenario", file, "../../testdata/logs/rejoin")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "scenario written to "+file+" (topic Pay, 1 consumers, 1 joining later,")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	s, err := scenario.Parse(data)
	require.NoError(t, err)
	var steps []string
	for _, st := range s.Timeline {
		steps = append(steps, st.At.String()+" "+st.Type)
	}
	assert.Equal(t, []string{"10s addConsumer", "30s setQueues", "40s killConsumer", "50s restartConsumer"}, steps)
	out, errOut, status = lbscope(t, "", "sim", file)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "broker-a now has 6 queues")
	assert.Contains(t, out, "\nthe logs against the simulation (2 client logs: a-java-4.9.8.log, b-go-2.1.2.log;")
}
