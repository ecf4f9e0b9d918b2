package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Reproductions of careless and hostile input on the command line: each must end at once
// with one line naming what is wrong and the limit.

func TestScenarioFromADeviceIsReadUpToTheLimit(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "/dev/zero"},
		{"sim", "--scenario", "/dev/zero"},
		{"compare", "--variants", "AVG,CONSISTENT_HASH", "/dev/zero"},
	} {
		out, errOut, status := lbscope(t, "", args...)
		assert.Equal(t, 2, status, args)
		assert.Empty(t, out)
		assert.Contains(t, errOut, "/dev/zero: more than 1048576 bytes; a scenario file is at most 1048576 (1 MiB)", args)
	}
}

func TestAllocateStdinIsReadUpToTheLimit(t *testing.T) {
	big := strings.Repeat(" ", maxStdinCase+1)
	_, errOut, status := lbscope(t, big, "allocate", "-")
	assert.Equal(t, 2, status)
	assert.Equal(t, "lbscope allocate: stdin: more than 16777216 bytes; a case is at most 16777216 (16 MiB)\n", errOut)
}

func TestAllocateStdinRefusesUnknownFields(t *testing.T) {
	in := `{"strategy":"CONSISTENT_HASH","params":{"virtualNodeCount":20},"currentCID":"c1","cidAll":["c1"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}`
	_, errOut, status := lbscope(t, in, "allocate", "-")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, `unknown field "virtualNodeCount"`)

	_, errOut, status = lbscope(t, `{"strategy":"AVG","currentCID":"c1","cidAll":["c1"],"mqAll":[]} {}`, "allocate", "-")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "more data after the JSON object")
}

func TestTerminalOutputEscapesControlCharacters(t *testing.T) {
	out, errOut, status := lbscope(t, "", "allocate", "--queues", "b:2", "--consumers", "\x1b[31mred,c\u202e2\rX")
	require.Equal(t, 0, status, errOut)
	for _, bad := range []string{"\x1b", "\u202e", "\r"} {
		assert.NotContains(t, out, bad)
	}
	assert.Contains(t, out, `\x1b[31mred`)
	assert.Contains(t, out, `c\u202e2\rX`)

	// Error lines too: an unknown command or a file name with escapes is shown quoted.
	_, errOut, _ = lbscope(t, "", "\x1b]0;owned\x07")
	assert.NotContains(t, errOut, "\x1b")
	_, errOut, _ = lbscope(t, "", "sim", filepath.Join(t.TempDir(), "a\x1b[2Jb.json"))
	assert.NotContains(t, errOut, "\x1b")
	assert.Contains(t, errOut, `a\x1b[2Jb.json`)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line")
}

func TestListsAndCountsAreNotSilentlyChanged(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"allocate", "--queues", "b:2", "--consumers", "99999999999999999999"}, "--consumers: count 99999999999999999999: want 1…512"},
		{[]string{"allocate", "--queues", "b:2", "--consumers", "c1,,c2"}, `--consumers: item 2 of "c1,,c2" is empty`},
		{[]string{"allocate", "--queues", "b:2", "--consumers", "c1,c2,"}, `--consumers: item 3 of "c1,c2," is empty`},
		{[]string{"allocate", "--strategy", "MACHINE_ROOM", "--queues", "hz@b:2", "--consumers", "2", "--idcs", "hz,,sh"}, `--idcs: item 2 of "hz,,sh" is empty`},
		{[]string{"sim", "--consumer-ids", "c1,,c2"}, `--consumer-ids: item 2 of "c1,,c2" is empty`},
		{[]string{"compare", "--variants", "AVG/5,CONSISTENT_HASH"}, `--variants "AVG/5": /N gives CONSISTENT_HASH its virtual nodes; AVG takes none`},
	}
	for _, c := range cases {
		out, errOut, status := lbscope(t, "", c.args...)
		assert.Equal(t, 2, status, c.args)
		assert.Empty(t, out, c.args)
		assert.Contains(t, errOut, c.want, c.args)
	}
	// CONSISTENT_HASH/N still works.
	_, errOut, status := lbscope(t, "", "compare", "--variants", "AVG,CONSISTENT_HASH/5", "--until", "30s")
	assert.Equal(t, 0, status, errOut)
}

func TestVersionZeroIsUnsupportedNotMissing(t *testing.T) {
	p := filepath.Join(t.TempDir(), "v0.json")
	require.NoError(t, os.WriteFile(p, []byte(`{"version": 0, "brokers": [{"name": "b", "queues": 1}]}`), 0o644))
	_, errOut, status := lbscope(t, "", "sim", p)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, `version: 0 is not a version this LBScope reads; want "version": 1`)
}

func TestCompareHeadingCountsInTheSingular(t *testing.T) {
	out, errOut, status := lbscope(t, "", "compare", "--variants", "AVG,CONSISTENT_HASH", "--brokers", "1", "--queues", "1", "--consumers", "1", "--until", "30s")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "· 1 queue on 1 broker · 1 consumer ·")
}

// The largest shape the flags allow, over a virtual day, and a file of that shape with every
// interval at 1 ms: refused before anything runs, with what would fit and how to allow it.
func TestWorkBeyondTheBudgetIsRefused(t *testing.T) {
	largest := []string{"--brokers", "64", "--queues", "64", "--consumers", "512", "--producers", "64", "--rate", "100000"}
	_, errOut, status := lbscope(t, "", append([]string{"sim", "--until", "24h"}, largest...)...)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "lbscope sim: this run is about ")
	assert.Contains(t, errOut, "--max-work allows 2.0 billion units: it fits up to --until ")
	assert.Contains(t, errOut, ", or allow it with --max-work ")

	_, errOut, status = lbscope(t, "", append([]string{"compare", "--variants", "AVG,CONSISTENT_HASH", "--until", "24h"}, largest...)...)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "lbscope compare: these 2 runs are about ")

	s, err := scenario.FromFlags(scenario.Flags{Brokers: 64, QueuesPerBroker: 64, Consumers: 512, Producers: 64, Rate: 100000, Until: scenario.Second})
	require.NoError(t, err)
	tm := &s.Timing
	for _, p := range []*int64{&tm.RebalanceWaitInterval, &tm.RebalanceMinInterval, &tm.PollNameServerInterval, &tm.HeartbeatInterval,
		&tm.PersistOffsetInterval, &tm.ScanInterval, &tm.LongPollHold, &tm.HoldCheckInterval, &tm.FlowStepMs, &tm.PullFirstDelay, &tm.PullDelayOnException} {
		*p = 1
	}
	data, err := s.Marshal()
	require.NoError(t, err)
	p := filepath.Join(t.TempDir(), "fast.json")
	require.NoError(t, os.WriteFile(p, data, 0o644))
	_, errOut, status = lbscope(t, "", "sim", p)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "lbscope sim: this run is about ")

	// --max-work below a small run's cost refuses it too; the suggested value lets it run.
	_, errOut, status = lbscope(t, "", "sim", "--preset", "default", "--until", "1h", "--max-work", "1m")
	assert.Equal(t, 2, status)
	i := strings.LastIndex(errOut, "--max-work ")
	require.Positive(t, i, errOut)
	allow := strings.TrimSpace(errOut[i+len("--max-work "):])
	_, errOut, status = lbscope(t, "", "sim", "--preset", "default", "--until", "1h", "--max-work", allow, "--json")
	assert.Equal(t, 0, status, errOut)

	_, errOut, status = lbscope(t, "", "sim", "--max-work", "0")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "want a number of work units from 1 to 1e15")
}

func TestLongRunsDrawProgress(t *testing.T) {
	defer func(v int64) { progressAbove = v }(progressAbove)
	progressAbove = 0
	out, errOut, status := lbscope(t, "", "sim", "--until", "10s", "--json")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, errOut, "\rlbscope sim: 00:05 of 00:10 (50%)")
	assert.True(t, strings.HasSuffix(errOut, "\rlbscope sim: 00:10 of 00:10 (100%)\n"), errOut)
	var r simJSON
	require.NoError(t, json.Unmarshal([]byte(out), &r), "stdout stays clean")

	_, errOut, status = lbscope(t, "", "compare", "--variants", "AVG,CONSISTENT_HASH", "--until", "10s")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, errOut, "\rlbscope compare: variant 2 of 2, 00:10 of 00:10 (100%)\n")

	// Below the threshold nothing is drawn.
	progressAbove = 1 << 62
	_, errOut, status = lbscope(t, "", "sim", "--until", "10s", "--json")
	require.Equal(t, 0, status)
	assert.Empty(t, errOut)
}

func TestServeOnEveryInterfaceListsTheRealURLs(t *testing.T) {
	ips := []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.1.2.3"), net.ParseIP("fe80::1"), net.ParseIP("2001:db8::7")}
	any4 := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	assert.Equal(t, []string{"http://localhost:8080/", "http://10.1.2.3:8080/"}, siteURLs(any4, ips))
	any6 := &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}
	assert.Equal(t, []string{"http://localhost:8080/", "http://10.1.2.3:8080/", "http://[2001:db8::7]:8080/"}, siteURLs(any6, ips))
	local := &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 9000}
	assert.Equal(t, []string{"http://127.0.0.1:9000/"}, siteURLs(local, ips))
	assert.True(t, isUnspecified(any4))
	assert.False(t, isUnspecified(local))
}

func TestTermEscapesOnlyWhatTerminalsInterpret(t *testing.T) {
	for in, want := range map[string]string{
		"10.0.0.1@4012":  "10.0.0.1@4012",
		"消费者-1":          "消费者-1",
		"a\x1b[2Jb":      `a\x1b[2Jb`,
		"a\nb\tc":        `a\nb\tc`,
		"\u202eevil":     `\u202eevil`,
		"x\x7fy\u0085z":  `x\x7fy\u0085z`,
		"bad\xffutf8":    `bad\ufffdutf8`,
		"line\u2028next": `line\u2028next`,
	} {
		assert.Equal(t, want, term(in), fmt.Sprintf("%q", in))
	}
	assert.Equal(t, "a\nb\tc\\x1b\n", termText("a\nb\tc\x1b\n"))
}
