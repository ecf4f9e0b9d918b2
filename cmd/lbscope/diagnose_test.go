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

const adminFixtures = "../../testdata/admin/"

func fixture(t *testing.T, prefix string) string {
	t.Helper()
	files, err := filepath.Glob(adminFixtures + prefix + "-*.txt")
	require.NoError(t, err)
	require.Len(t, files, 1)
	return files[0]
}

type diagnoseJSON struct {
	Codes []string `json:"codes"`
	Group struct {
		Name    string `json:"name"`
		Members []struct {
			ClientID string `json:"clientId"`
		} `json:"members"`
		Missing []struct {
			What, Command string
		} `json:"missing"`
	} `json:"group"`
	Allocations []struct {
		Topic     string `json:"topic"`
		Consumers []struct {
			ClientID string   `json:"clientId"`
			Queues   []string `json:"queues"`
		} `json:"consumers"`
		Orphans []string `json:"orphans"`
	} `json:"allocations"`
}

// `lbscope diagnose --json` on each reconstructable fixture group gives its findings.
func TestDiagnoseFixtureGroupsJSON(t *testing.T) {
	cases := []struct {
		name  string
		args  []string
		codes []string
	}{
		{"group A", []string{"--queues", "broker-a:8,broker-b:8,broker-c:8", fixture(t, "01"), fixture(t, "02")}, []string{"allocation-ok"}},
		{"group B", []string{fixture(t, "16"), fixture(t, "17"), fixture(t, "18"), fixture(t, "19"), fixture(t, "20")}, []string{"allocation-ok"}},
		{"loopback ids", []string{fixture(t, "23")}, []string{"loopback-client-ip"}},
		{"gRPC consumers", []string{fixture(t, "21"), fixture(t, "22")}, []string{"grpc-consumers"}},
		{"a stall", []string{fixture(t, "03")}, []string{"lag-on-owned-queue"}},
	}
	for _, c := range cases {
		out, errOut, status := lbscope(t, "", append([]string{"diagnose", "--json"}, c.args...)...)
		require.Equal(t, 0, status, "%s: %s", c.name, errOut)
		var v diagnoseJSON
		require.NoError(t, json.Unmarshal([]byte(out), &v), c.name)
		assert.Equal(t, c.codes, v.Codes, c.name)
	}
}

func TestDiagnoseTableShowsTheAllocation(t *testing.T) {
	out, errOut, status := lbscope(t, "", "diagnose", fixture(t, "16"), fixture(t, "20"))
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "group please_rename_unique_group_name_4 · 1 member · CLUSTERING · strategy AVG")
	assert.Contains(t, out, "AVG · topic TopicTest · 4 queues on 1 broker · 1 consumer")
	assert.Contains(t, out, "192.168.1.104@14365  broker-a:0-3  4")
	assert.Contains(t, out, "[ok] allocation-ok")
	assert.Contains(t, out, "mqadmin consumerConnection -g please_rename_unique_group_name_4")
}

// Several pastes in one stream on stdin; a duplicate id is found and its orphaned block named.
func TestDiagnoseStdinStream(t *testing.T) {
	in := "$ mqadmin consumerConnection -g G\n" +
		"001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4\n002  10.0.0.1@1  10.0.0.2:1  JAVA  V4_9_4\n003  10.0.0.3@1  10.0.0.3:1  JAVA  V4_9_4\n" +
		"\nBelow is subscription:001  Topic: T SubExpression: *\n" +
		"$ mqadmin topicRoute -t T\n" + `{"brokerDatas":[{"brokerAddrs":{0:"a:1"},"brokerName":"broker-a","cluster":"c"}],"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":6,"topicSysFlag":0,"writeQueueNums":6}]}` + "\n"
	out, errOut, status := lbscope(t, in, "diagnose", "--json", "-")
	require.Equal(t, 0, status, errOut)
	var v diagnoseJSON
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Contains(t, v.Codes, "duplicate-client-id")
	assert.Contains(t, v.Codes, "unowned-queues")
	require.NotEmpty(t, v.Allocations)
	assert.Equal(t, "T", v.Allocations[0].Topic)
	assert.Equal(t, []string{"broker-a:2", "broker-a:3"}, v.Allocations[0].Orphans)
}

func TestDiagnoseNothingRecognisable(t *testing.T) {
	_, errOut, status := lbscope(t, "just some words\n", "diagnose")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "nothing in the input is an output of mqadmin or the Dashboard")
	_, errOut, status = lbscope(t, "\x00\x01binary", "diagnose")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "NUL byte")
	_, errOut, status = lbscope(t, "", "diagnose", "--strategy", "FASTEST", fixture(t, "01"))
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "--strategy: unknown strategy")
	_, errOut, status = lbscope(t, "", "diagnose", "--queues", "broker-a", fixture(t, "01"))
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "--queues")
	_, errOut, status = lbscope(t, strings.Repeat("x", 5<<20), "diagnose")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "the limit is 4 MiB per input")
	// A log may be larger, up to 32 MiB; the command line reads no more.
	_, errOut, status = lbscope(t, strings.Repeat("2026-12-04 10:00:00,000 INFO RocketmqClient - x\n", (32<<20)/48+1), "diagnose")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "larger than 32 MiB")
}

// A directory of saved outputs reads as its files, in name order; an empty one is refused
// with a clear line.
func TestDiagnoseReadsADirectory(t *testing.T) {
	out, errOut, status := lbscope(t, "", "diagnose", "../../testdata/admin/")
	require.Equal(t, 0, status, errOut)
	files, _ := filepath.Glob("../../testdata/admin/*.txt")
	require.NotEmpty(t, files)
	last := -1
	for _, f := range files {
		i := strings.Index(out, filepath.Base(f)+" line")
		assert.Greater(t, i, last, "%s read, after the files before it", filepath.Base(f))
		last = max(last, i)
	}
	_, errOut, status = lbscope(t, "", "diagnose", t.TempDir())
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "a directory with no file in it")
}

// Control characters in a paste never reach the terminal as such.
func TestDiagnoseEscapesControlCharacters(t *testing.T) {
	in := "001  10.0.0.1@\x1b[2J\b\b1  10.0.0.1:1  JAVA  V4_9_4\n"
	out, _, status := lbscope(t, in, "diagnose")
	require.Equal(t, 0, status)
	assert.NotContains(t, out, "\x1b")
	assert.NotContains(t, out, "\b")
	assert.Contains(t, out, `10.0.0.1@\x08\x081`)
}

func TestDiagnoseScenarioAndLink(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "group.json")
	out, errOut, status := lbscope(t, "", "diagnose", "--scenario", file, "--link", "http://127.0.0.1:8080/",
		"--queues", "broker-a:8,broker-b:8,broker-c:8", "--topic", "oms_topic", fixture(t, "01"), fixture(t, "02"))
	require.Equal(t, 0, status, errOut)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	s, err := scenario.Parse(data)
	require.NoError(t, err)
	assert.Equal(t, "oms_topic", s.Topic)
	assert.Equal(t, "oms_thirdpush_consumer_ios", s.Group)
	assert.Len(t, s.Brokers, 3)
	assert.Len(t, s.Consumers, 6)
	assert.Contains(t, s.Description, "%RETRY%oms_thirdpush_consumer_ios")
	i := strings.Index(out, "http://127.0.0.1:8080/#s=")
	require.GreaterOrEqual(t, i, 0, out)
	link := strings.Fields(out[i:])[0]
	sh, err := scenario.DecodeShare(link[strings.Index(link, "#"):])
	require.NoError(t, err)
	assert.Equal(t, s.Consumers, sh.Scenario.Consumers)
}

// consumerProgress without -g cuts the group's name at 32 characters (fixture 19): the table
// says the name may be cut, asks for the whole one, and spells no command with the cut name;
// --group with the whole name puts it right.
func TestDiagnoseCutGroupName(t *testing.T) {
	const cut = "please_rename_unique_group_name_"
	out, errOut, status := lbscope(t, "", "diagnose", fixture(t, "19"))
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "group "+cut+" (maybe cut at 32 characters) · 0 members")
	assert.Contains(t, out, "the group's full name: "+cut+" is 32 characters long, where consumerProgress cuts names, so the real name may be longer (pass --group; the commands here need the full name)\n")
	assert.Contains(t, out, "the group's members: mqadmin consumerConnection -g <full group name>\n")
	assert.NotContains(t, out, "-g "+cut)

	out, errOut, status = lbscope(t, "", "diagnose", "--json", fixture(t, "19"))
	require.Equal(t, 0, status, errOut)
	var v struct {
		Group struct {
			Name    string `json:"name"`
			NameCut int    `json:"nameCut"`
			Missing []struct{ What, Command string }
		} `json:"group"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, cut, v.Group.Name)
	assert.Equal(t, 32, v.Group.NameCut)
	for _, m := range v.Group.Missing {
		assert.NotContains(t, m.Command, cut)
	}

	out, errOut, status = lbscope(t, "", "diagnose", "--group", cut+"4", fixture(t, "19"))
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "group "+cut+"4 · 0 members")
	assert.Contains(t, out, "mqadmin consumerConnection -g "+cut+"4\n")
	assert.NotContains(t, out, "maybe cut")
}
