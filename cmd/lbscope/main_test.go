package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lbscope runs the command in-process as a user would from the shell.
func lbscope(t testing.TB, stdin string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), status
}

// The acceptance example: the split an operator recognises from the console.
func TestAllocateAVGTable(t *testing.T) {
	out, errOut, status := lbscope(t, "", "allocate", "--strategy", "AVG", "--queues", "broker-a:4,broker-b:4", "--consumers", "3")
	require.Equal(t, 0, status, errOut)
	want := `AVG · topic TopicTest · 8 queues on 2 brokers · 3 consumers
inputs sorted as RebalanceImpl sorts them: queues by topic, broker, id; client ids in Java String order

CONSUMER  QUEUES                   COUNT
c1        broker-a:0-2             3
c2        broker-a:3 broker-b:0-1  3
c3        broker-b:2-3             2

spread 1 (max 3, min 2) · idle consumers: none
`
	assert.Equal(t, want, out)
}

func TestAllocateSortsClientIDsInJavaOrder(t *testing.T) {
	out, _, status := lbscope(t, "", "allocate", "--queues", "broker-a:3", "--consumers", "192.168.0.9@1,192.168.0.10@1,192.168.0.100@1", "--json")
	require.Equal(t, 0, status)
	var v struct {
		ClientIDs []string `json:"clientIds"`
		Consumers []struct {
			ClientID string   `json:"clientId"`
			Queues   []string `json:"queues"`
		} `json:"consumers"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, []string{"192.168.0.100@1", "192.168.0.10@1", "192.168.0.9@1"}, v.ClientIDs)
	assert.Equal(t, "192.168.0.100@1", v.Consumers[0].ClientID)
	assert.Equal(t, []string{"broker-a:0"}, v.Consumers[0].Queues)
}

func TestAllocateNoSortIsARawCall(t *testing.T) {
	out, _, status := lbscope(t, "", "allocate", "--queues", "broker-b:1,broker-a:1", "--consumers", "c2,c1", "--no-sort", "--json")
	require.Equal(t, 0, status)
	assert.Contains(t, out, `"clientId": "c2",
      "queues": [
        "broker-b:0"`)
}

func TestAllocateReportsIdleOrphansAndDuplicates(t *testing.T) {
	out, _, status := lbscope(t, "", "allocate", "--strategy", "CONSISTENT_HASH", "--virtual-nodes", "0", "--queues", "broker-a:2", "--consumers", "c1,c1")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "idle consumers: c1")
	assert.Contains(t, out, "not pulled by anyone: broker-a:0-1")
	assert.Contains(t, out, "duplicate client ids: c1")
}

func TestAllocateStdin(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"strategy":"AVG","params":{},"consumerGroup":"cg","currentCID":"c2","cidAll":["c1","c2"],
		   "mqAll":[{"topic":"T","brokerName":"b","queueId":0},{"topic":"T","brokerName":"b","queueId":1}]}`,
			`{"result":[{"topic":"T","brokerName":"b","queueId":1}]}`},
		{`{"strategy":"AVG","params":{},"currentCID":null,"cidAll":null,"mqAll":null}`,
			`{"error":"IllegalArgumentException: currentCID is empty"}`},
		{`{"strategy":"CONFIG","params":{"messageQueueList":null},"currentCID":"x"}`, `{"result":null}`},
		{`{"strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":-2},"currentCID":"x"}`,
			`{"error":"IllegalArgumentException: illegal virtualNodeCnt :-2"}`},
	}
	for _, tt := range tests {
		out, errOut, status := lbscope(t, tt.in, "allocate", "-")
		require.Equal(t, 0, status, errOut)
		assert.JSONEq(t, tt.want, out)
	}
}

// Bad input gets one clear line on stderr and status 2, never a panic trace.
func TestAllocateBadInput(t *testing.T) {
	tests := []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"allocate", "--strategy", "FAST", "--queues", "b:1", "--consumers", "1"}, "", `unknown strategy "FAST"`},
		{[]string{"allocate", "--queues", "broker-a", "--consumers", "1"}, "", "want broker:count"},
		{[]string{"allocate", "--queues", "broker-a:x", "--consumers", "1"}, "", "not a queue count"},
		{[]string{"allocate", "--consumers", "1"}, "", "--queues is required"},
		{[]string{"allocate", "--queues", "b:1"}, "", "--consumers is required"},
		{[]string{"allocate", "--queues", "b:1", "--consumers", "0"}, "", "count 0"},
		{[]string{"allocate", "--queues", "b:1", "--consumers", "1", "--virtual-nodes", "-1"}, "", "--virtual-nodes -1"},
		{[]string{"allocate", "--queues", "b:1", "--consumers", "1", "--strategy", "CONFIG", "--config", "b"}, "", "--config"},
		{[]string{"allocate", "--queues", "b:1", "--consumers"}, "", "flag needs an argument"},
		{[]string{"allocate", "--nope"}, "", "flag provided but not defined"},
		{[]string{"allocate", "extra"}, "", `unexpected argument "extra"`},
		{[]string{"allocate", "-"}, "{", "not one allocate.json case"},
		{[]string{"allocate", "-"}, `{"strategy":"NOPE"}`, `unknown strategy "NOPE"`},
		{[]string{"allocate", "-"}, `{}`, `no "strategy"`},
		{[]string{"frobnicate"}, "", `unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		out, errOut, status := lbscope(t, tt.stdin, tt.args...)
		assert.Equal(t, 2, status, "%v", tt.args)
		assert.Empty(t, out, "%v", tt.args)
		assert.Contains(t, errOut, tt.want, "%v", tt.args)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "%v: want one line, got %q", tt.args, errOut)
	}
}

func TestHelpExplainsEveryFlagWithAnExample(t *testing.T) {
	out, _, status := lbscope(t, "", "--help")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "allocate")
	assert.Contains(t, out, "conform")
	out, _, status = lbscope(t, "", "allocate", "--help")
	require.Equal(t, 0, status)
	for _, flag := range []string{"-strategy", "-queues", "-consumers", "-topic", "-virtual-nodes", "-idcs", "-inner", "-config", "-no-sort", "-json", "Examples:"} {
		assert.Contains(t, out, flag)
	}
	out, _, status = lbscope(t, "", "conform", "-h")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "Example:")
}

func TestConformRecordedVectors(t *testing.T) {
	out, errOut, status := lbscope(t, "", "conform", "../../testdata/conformance")
	require.Equal(t, 0, status, out+errOut)
	assert.Contains(t, out, "allocate.json: 659 passed, 0 failed\n")
	// Subfolders are searched, and each file is checked against its client's profile.
	assert.Contains(t, out, "go/allocate-go.json (go-2.1.2): 611 passed, 0 failed\n")
	assert.Contains(t, out, "go/publish-go.json (go-2.1.2): 18 passed, 0 failed\n")
	assert.Contains(t, out, "java49/select-java49.json (java-4.9): 34 passed, 0 failed\n")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Regexp(t, `^\d+ passed, 0 failed$`, lines[len(lines)-1])
	assert.Len(t, lines, 11, "one line per vector file and the total")
}

func TestConformExitStatus(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../testdata/conformance/allocate.json")
	require.NoError(t, err)
	// Record a wrong answer for AVG#0's first queue result.
	broken := strings.Replace(string(data), `"error": "IllegalArgumentException: mqAll is null or mqAll empty"`, `"error": "IllegalArgumentException: something else"`, 1)
	require.NotEqual(t, string(data), broken)
	bad := filepath.Join(dir, "renamed.txt") // the kind comes from content, not the name
	require.NoError(t, os.WriteFile(bad, []byte(broken), 0o644))
	out, _, status := lbscope(t, "", "conform", bad)
	assert.Equal(t, 1, status)
	assert.Contains(t, out, "renamed.txt: 658 passed, 1 failed")
	assert.Contains(t, out, "FAIL AVG#0")
	assert.Contains(t, out, "want error IllegalArgumentException: something else")

	junk := filepath.Join(dir, "junk.json")
	require.NoError(t, os.WriteFile(junk, []byte(`{"hello": 1}`), 0o644))
	_, errOut, status := lbscope(t, "", "conform", junk)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "not a conformance vector file")

	_, errOut, status = lbscope(t, "", "conform", filepath.Join(dir, "missing"))
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "no such file")

	_, _, status = lbscope(t, "", "conform")
	assert.Equal(t, 2, status)

	// A file larger than the limit is refused without being read whole.
	big := filepath.Join(dir, "big.json")
	require.NoError(t, os.WriteFile(big, make([]byte, 33<<20), 0o644))
	_, errOut, status = lbscope(t, "", "conform", big)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "larger than 32 MiB")
}

func TestConformIgnoresUnknownFields(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "h.json")
	require.NoError(t, os.WriteFile(f, []byte(`{"future":true,"hashes":[{"key":"a","hash":214005177,"note":"x"}]}`), 0o644))
	out, _, status := lbscope(t, "", "conform", f)
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "h.json: 1 passed, 0 failed")
}
