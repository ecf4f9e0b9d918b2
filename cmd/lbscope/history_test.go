package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const logFixtures = "../../testdata/logs/"

// The logs of three members across a kill, end to end: the table prints each member's rounds,
// who held each queue and the findings; --json carries the history in its stable shape.
func TestDiagnoseLogsAcrossAKill(t *testing.T) {
	out, errOut, status := lbscope(t, "", "diagnose", logFixtures+"kill")
	require.Equal(t, 0, status, errOut)
	for _, want := range []string{
		"rebalance history from client logs (stamps without a zone read in UTC+08:00, assumed, RocketMQ's default pattern; --log-zone to change):",
		"10.0.0.3@3003#3333  go           2026-12-04 10:00:10.000  2026-12-04 10:00:55.000  1",
		"2026-12-04 10:00:58.345  10.0.0.2@2002#2222  Orders  8      2       broker-b:0-3",
		"Orders:broker-b:2  10.0.0.1@1001#1111 2026-12-04 10:00:00.080 → 2026-12-04 10:00:05.140 · ",
		"10.0.0.3@3003#3333 2026-12-04 10:00:10.000 → ? 2026-12-04 10:00:58.310 (inferred)",
		"group OrderGroup: 10.0.0.3@3003#3333 leave (inferred: 10.0.0.1@1001#1111 saw cidAllSize 3 → 2",
		"[warning] orphaned-window: 3 spans in which a queue had no owner, the longest 35 ms (broker-b:2 from 2026-12-04 10:00:58.310)",
		"[warning] double-owned-window: 5 spans in which a queue had two owners, the longest 20 ms",
		"[ok] allocation-ok: the logged rounds are what AVG gives",
		"assumed: log stamps without a zone are read in UTC+08:00, as RocketMQ's default pattern prints them (pass --log-zone to change it)",
	} {
		assert.Contains(t, out, want)
	}

	out, errOut, status = lbscope(t, "", "diagnose", "--json", logFixtures+"kill")
	require.Equal(t, 0, status, errOut)
	var v struct {
		Codes   []string `json:"codes"`
		History struct {
			Zone      string `json:"zone"`
			ZoneGiven bool   `json:"zoneGiven"`
			Members   []struct {
				ID, IDSource, Client string
				Inputs               []string
			} `json:"members"`
			Rounds []struct {
				Member     string `json:"member"`
				At         int64  `json:"at"`
				CidAllSize int    `json:"cidAllSize"`
				Result     []struct {
					Topic, BrokerName string
					QueueID           int `json:"queueId"`
				} `json:"result"`
				Agrees *bool `json:"agrees"`
			} `json:"rounds"`
			Queues []struct {
				Queue struct {
					BrokerName string `json:"brokerName"`
					QueueID    int    `json:"queueId"`
				} `json:"queue"`
				Held []struct {
					Member             string
					From, To           int64
					FromKnown, ToKnown bool
					ToBy               string
					FromRef            struct{ Input string }
					ToRef              struct{ Line int }
				} `json:"held"`
			} `json:"queues"`
			Membership []struct{ Member, Kind, Source string } `json:"membership"`
		} `json:"history"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, []string{"double-owned-window", "orphaned-window", "allocation-ok"}, v.Codes)
	h := v.History
	assert.Equal(t, "+08:00", h.Zone)
	require.Len(t, h.Members, 3)
	require.Len(t, h.Members[2].Inputs, 1)
	assert.True(t, strings.HasSuffix(h.Members[2].Inputs[0], "c-go-2.1.2.log"), h.Members[2].Inputs)
	require.Len(t, h.Rounds, 8)
	for _, r := range h.Rounds {
		require.NotNil(t, r.Agrees)
		assert.True(t, *r.Agrees)
	}
	// 2026-12-04 10:00:58.345 at +08:00, in ms since the epoch.
	assert.Equal(t, int64(1796349658345), h.Rounds[7].At)
	require.Len(t, h.Queues, 8)
	// An end no line gives is the last line that shows the queue held: the 4.9.8 member's
	// last [persistAll] of broker-a:0, at 10:01:09.900.
	assert.False(t, h.Queues[0].Held[0].ToKnown)
	assert.Equal(t, 91, h.Queues[0].Held[0].ToRef.Line)
	b2 := h.Queues[6]
	assert.Equal(t, "broker-b", b2.Queue.BrokerName)
	assert.Equal(t, 2, b2.Queue.QueueID)
	require.Len(t, b2.Held, 4)
	assert.Equal(t, "10.0.0.3@3003#3333", b2.Held[2].Member)
	assert.Equal(t, "inferred", b2.Held[2].ToBy)
	assert.False(t, b2.Held[2].ToKnown)
	assert.True(t, strings.HasSuffix(b2.Held[2].FromRef.Input, "c-go-2.1.2.log"), b2.Held[2].FromRef.Input)
	assert.Equal(t, int64(35), b2.Held[3].From-b2.Held[2].To, "the orphaned span after the kill")
}

// --log-zone reads Java stamps in another zone (the Go member's RFC 3339 stamps keep theirs);
// a value that is no zone is refused by name.
func TestDiagnoseLogZone(t *testing.T) {
	out, errOut, status := lbscope(t, "", "diagnose", "--log-zone", "+00:00", logFixtures+"kill")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "stamps without a zone read in UTC+00:00, --log-zone")
	// The Java members' 10:00 is read as UTC; the Go member's stamps say +08:00 themselves, so
	// it now joined 8 hours before the others and its round is not held against theirs.
	assert.Contains(t, out, "2026-12-04 10:00:58.345  10.0.0.2@2002#2222")
	assert.Contains(t, out, "2026-12-04 02:00:10.000  10.0.0.3@3003#3333  Orders  8      3       broker-b:2-3               -                                                 -  ")
	assert.NotContains(t, out, "assumed: log stamps")
	_, errOut, status = lbscope(t, "", "diagnose", "--log-zone", "Asia/Shanghai", logFixtures+"kill")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "--log-zone")
	assert.Contains(t, errOut, `"Asia/Shanghai"`)
}

// The excerpts of real logs, one command each: nothing fails, and each says what it is.
func TestDiagnoseLogExcerpts(t *testing.T) {
	for file, want := range map[string]string{
		"e1-java-4.3-persistall.log": "client log (Java client 4.3.0–4.7.1 (inner logger; ',sss' repeats the seconds: no millis))",
		"e3-java-r1.log":             "[ok] allocation-ok: the logged rounds are what AVG gives",
		"e8-broker-4.x-wrapped.log":  "group ONLINE_PRE_PROCESS_MESSAGE-GROUP: security.33.65@",
		"e9-go-terminal-lock.log":    "lock failed broker-a:1",
		"e11-go-native.log":          "AIS-0 now 617834a79a5b:0-15",
		"e12-go-fetch-offset.log":    "add failed broker_xxxxx-1:0",
		"e4-java-3.x-app-layout.log": "+licp:0-3; after a notification",
		"e7-broker-5.x-join.log":     "${clientIP}@26917#5261547777682927 join (broker log",
		"e2-java-4.4-start.log":      "192.168.31.163@1587712890005  java V4_4_0",
	} {
		out, errOut, status := lbscope(t, "", "diagnose", logFixtures+file)
		require.Equal(t, 0, status, "%s: %s", file, errOut)
		assert.True(t, strings.Contains(out, want), "%s: no %q in\n%s", file, want, out)
	}
}
