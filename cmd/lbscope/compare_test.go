package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompareTableIsAlignedAndMarksTheBest(t *testing.T) {
	out, errOut, status := lbscope(t, "", "compare", "--variants", "AVG,CONSISTENT_HASH", "--at", "60s:killConsumer:c1", "--until", "3m")
	require.Equal(t, 0, status, errOut)
	lines := strings.Split(out, "\n")
	var table []string
	for _, l := range lines {
		if strings.HasPrefix(l, "  COST") || strings.HasPrefix(l, "  queues moved, total") || strings.HasPrefix(l, "  duplicates") {
			table = append(table, l)
		}
	}
	require.Len(t, table, 3, out)
	// Numbers end under the end of their label (a mark, or nothing, after them).
	head := table[0]
	assert.True(t, strings.HasSuffix(head, "CONSISTENT_HASH"), head)
	for _, l := range table[1:] {
		assert.Equal(t, len([]rune(head)), len([]rune(strings.TrimSuffix(l, "*"))), "%q vs %q", l, head)
	}
	// Fewer queues move under CONSISTENT_HASH: its number carries the mark.
	moved := strings.Fields(table[1])
	assert.True(t, strings.HasSuffix(moved[len(moved)-1], "*"), table[1])
	assert.Contains(t, out, "01:00 killConsumer c1")
}

func TestCompareJSONMatchesTheTable(t *testing.T) {
	out, errOut, status := lbscope(t, "", "compare", "--variants", "AVG,CONSISTENT_HASH/20", "--preset", "small", "--at", "60s:killConsumer:c2", "--json")
	require.Equal(t, 0, status, errOut)
	var c struct {
		Seed int64 `json:"seed"`
		Rows []struct {
			Label      string              `json:"label"`
			MovedTotal int                 `json:"movedTotal"`
			Assignment map[string][]string `json:"assignment"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	require.Len(t, c.Rows, 2)
	assert.Equal(t, "CONSISTENT_HASH virtualNodeCnt=20", c.Rows[1].Label)
	assert.Len(t, c.Rows[0].Assignment, 8, "small preset: 2 brokers × 4 queues")
	for q, owners := range c.Rows[0].Assignment {
		assert.NotContains(t, owners, "c2", "%s still owned by the killed c2", q)
	}
}

func TestCompareFaultTables(t *testing.T) {
	out, errOut, status := lbscope(t, "", "compare", "--by", "faultTable", "--variants", "current,legacy-4x", "--latency-fault",
		"--at", "30s:slowBroker:broker-a:2000", "--until", "2m")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "share of sends broker-a")
	assert.Contains(t, out, "isolations")
	// Without fault tolerance on, the tables are never read: the output says so.
	out, _, status = lbscope(t, "", "compare", "--by", "faultTable", "--variants", "current,legacy-4x", "--until", "1m")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "note: latency fault tolerance is off in every variant")
}

// By client, the columns are the profiles, every consumer of the mixed file runs each in
// turn, and the output says that the file's own clients are replaced.
func TestCompareByClient(t *testing.T) {
	out, errOut, status := lbscope(t, "", "compare", "--by", "client", "--variants", "java,go,java-4.9",
		"../../testdata/scenarios/mixed-clients-consistent-hash.json", "--json")
	require.Equal(t, 0, status, errOut)
	var c struct {
		Rows []struct {
			Label      string              `json:"label"`
			Assignment map[string][]string `json:"assignment"`
		} `json:"rows"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &c))
	require.Len(t, c.Rows, 3)
	for i, want := range []string{"java", "go-2.1.2", "java-4.9"} {
		assert.Equal(t, want, c.Rows[i].Label)
		for q, owners := range c.Rows[i].Assignment {
			assert.Len(t, owners, 1, "%s: %s owned by %v; one client in the group agrees with itself", want, q, owners)
		}
	}
	out, errOut, status = lbscope(t, "", "compare", "--by", "client", "--variants", "java,go-2.1.2,java-4.9",
		"../../testdata/scenarios/mixed-clients-consistent-hash.json")
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "each column runs every consumer under its client")
	assert.Regexp(t, `COST +java +go-2\.1\.2 +java-4\.9\n`, out)
}

func TestCompareBadFlagsAreOneLine(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"compare"}, "lbscope compare: --variants: missing"},
		{[]string{"compare", "--variants", "AVG"}, "lbscope compare: --variants: 1 given; want 2 to 4"},
		{[]string{"compare", "--variants", "AVG,B,C,D,E"}, "lbscope compare: --variants: 5 given"},
		{[]string{"compare", "--variants", "AVG,AVGG"}, `lbscope compare: --variants item 2 (AVGG): strategy: unknown strategy "AVGG"`},
		{[]string{"compare", "--variants", "AVG,CONSISTENT_HASH/x"}, `lbscope compare: --variants "CONSISTENT_HASH/x"`},
		{[]string{"compare", "--by", "size", "--variants", "a,b"}, `lbscope compare: --by "size"`},
		{[]string{"compare", "--variants", "AVG,CONFIG", "--strategy", "AVG"}, "lbscope compare: --strategy: the variants set it"},
		{[]string{"compare", "--variants", "AVG,CONFIG", "--queues", "x"}, `lbscope compare: invalid value "x" for flag -queues`},
		{[]string{"compare", "--variants", "AVG,CONFIG", "--preset", "huge"}, `lbscope compare: --preset "huge"`},
		{[]string{"compare", "--variants", "AVG,CONFIG", "--at", "60s:explode"}, `lbscope compare: --at "60s:explode"`},
		{[]string{"compare", "--by", "client", "--variants", "java,go-3"}, `lbscope compare: --variants item 2 (go-3): client: unknown client profile "go-3"`},
		{[]string{"compare", "--by", "client", "--variants", "java,AVG"}, `lbscope compare: --variants item 2 (AVG): client: unknown client profile "AVG"`},
	}
	for _, tc := range tests {
		out, errOut, status := lbscope(t, "", tc.args...)
		assert.Equal(t, 2, status, "%v", tc.args)
		assert.Empty(t, out, "%v", tc.args)
		assert.True(t, strings.HasPrefix(errOut, tc.want), "%v: %q; want %q…", tc.args, errOut, tc.want)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	}
}

func TestCompareHelpShowsExamples(t *testing.T) {
	out, _, status := lbscope(t, "", "compare", "--help")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "lbscope compare --variants AVG,CONSISTENT_HASH --at 60s:killConsumer:c1")
	assert.Contains(t, out, "--by faultTable --variants current,legacy-4x")
	assert.Contains(t, out, "--by client --variants java,go-2.1.2,java-4.9")
	assert.Contains(t, out, "-variants")
	top, _, _ := lbscope(t, "", "--help")
	assert.Contains(t, top, "compare")
}
