package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const dashTables = "../../core/admin/testdata/tables/"

// The duplicate-id incident as the Dashboard shows it, end to end: a CLIENT dialog with two
// rows of one ClientId and its CONSUME DETAIL, copied from the page as tabs, give the
// duplicate and the share nobody pulls; the empty consumerClient cells are named as to be
// confirmed, not as proof.
func TestDiagnoseDashboardDuplicateID(t *testing.T) {
	args := []string{"diagnose", dashTables + "client-angular-en-tabs.txt", dashTables + "detail-angular-en-tabs.txt"}
	out, errOut, status := lbscope(t, "", append(args[:1:1], append([]string{"--json"}, args[1:]...)...)...)
	require.Equal(t, 0, status, errOut)
	var v diagnoseJSON
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, []string{"duplicate-client-id", "unowned-queues"}, v.Codes)
	assert.Equal(t, "please_rename_unique_group_name_4", v.Group.Name)
	require.NotEmpty(t, v.Allocations)
	assert.Equal(t, []string{"broker-a:3", "broker-a:4", "broker-a:5"}, v.Allocations[0].Orphans)

	out, errOut, status = lbscope(t, "", args...)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "client-angular-en-tabs.txt lines 2–5: Dashboard CLIENT dialog (AngularJS, tabs)")
	assert.Contains(t, out, "[problem] duplicate-client-id: duplicate client id 172.17.0.1@1")
	assert.Contains(t, out, "TopicTest broker-a:3-5 is pulled by nobody")
	assert.Contains(t, out, "whether the 3 queues of TopicTest with an empty consumerClient are owned")
	assert.NotContains(t, out, "observed without an owner")

	// The React dialog in Chinese, copied through GitHub, with the queue counts from --queues.
	out, errOut, status = lbscope(t, "", "diagnose", "--json", "--queues", "broker-a:8", dashTables+"client-react-zh-github.txt")
	require.Equal(t, 0, status, errOut)
	v = diagnoseJSON{}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, []string{"duplicate-client-id", "unowned-queues"}, v.Codes)
	require.NotEmpty(t, v.Allocations)
	assert.Equal(t, []string{"broker-a:3", "broker-a:4", "broker-a:5"}, v.Allocations[0].Orphans)
}

// What `lbscope diagnose` says of each real paste of the reference's §9: the cluster page's
// brokers with their roles, the consumer list row's group, and the broker's status.
func TestDiagnoseDashboardRealPastes(t *testing.T) {
	run := func(file string) string {
		t.Helper()
		out, errOut, status := lbscope(t, "", "diagnose", dashTables+file)
		require.Equal(t, 0, status, errOut)
		return out
	}
	out := run("real-9.1-cluster-externals685.txt")
	assert.Contains(t, out, "Dashboard cluster page (console–dashboard 1.0.0, GitHub table)")
	for _, row := range []string{"dstable-broker-002  0   master  192.168.31.23:10911  V4_7_1", "dstable-broker-002  1   slave   192.168.31.19:10915  V4_7_1",
		"dstable-broker-001  0   master  192.168.31.19:10911  V4_7_1", "dstable-broker-001  1   slave   192.168.31.23:10915  V4_7_1"} {
		assert.Contains(t, out, row)
	}
	assert.NotContains(t, out, "the paste ends inside this line", "GitHub's quote line is no cut")

	out = run("real-9.2-cluster-row-clientgo601.txt")
	assert.Contains(t, out, "broker-a  0   master  x.x.x.x.:10911  V4_8_0")

	out = run("real-9.3-broker-status-clientgo601.txt")
	assert.Contains(t, out, "Dashboard broker STATUS (GitHub table), cut")
	assert.Contains(t, out, "brokerVersionDesc: V4_8_0")
	assert.Contains(t, out, "bootTimestamp: 1611197690316 (2021-01-21 02:54:50 UTC)")
	// The cross-check of the reference: the cluster row of 9.2 says the same.
	assert.Contains(t, out, "messages today: 86 put, 20509 got; yesterday: 646 put, 13234 got")

	out = run("real-9.5-consumer-list-rocketmq3323.txt")
	assert.Contains(t, out, "group default%consumerA · 0 members")
	assert.Regexp(t, `default%consumerA\s+1\s+V4_5_2\s+PUSH\s+CLUSTERING\s+1\s`, out)
	assert.Contains(t, out, "guessed from their content (line 4)")
	assert.Contains(t, out, "group default%consumerA is NOT_ONLINE")
	assert.Contains(t, out, "mqadmin consumerConnection -g default%consumerA")

	out = run("real-9.6-cluster-typora-rocketmq2456.txt")
	assert.Contains(t, out, "line 3: Dashboard cluster page (Typora Markdown), cut")
	assert.True(t, strings.Contains(out, "the paste ends inside this table header"))
}

// What the Dashboard's cells do not mean, said where the pastes show it (tables §10): the
// consumer list's Quantity counts connections, so beside a CLIENT dialog whose rows share an
// id it says why the counts differ; beside a consume detail of one broker whose diffs do not
// add up to the list's Delay it names dashboard 2.0.0's first-broker detail; a broadcasting
// group's Delay says nothing; a Go member leaves consumerClient cells empty whoever holds the
// queue. None of them is a finding.
func TestDiagnoseDashboardCaveats(t *testing.T) {
	run := func(files ...string) (string, diagnoseJSON) {
		t.Helper()
		args := []string{"diagnose"}
		for _, f := range files {
			args = append(args, dashTables+f)
		}
		out, errOut, status := lbscope(t, "", args...)
		require.Equal(t, 0, status, errOut)
		js, errOut, status := lbscope(t, "", append([]string{"diagnose", "--json"}, args[1:]...)...)
		require.Equal(t, 0, status, errOut)
		var v diagnoseJSON
		require.NoError(t, json.Unmarshal([]byte(js), &v))
		return out, v
	}
	out, v := run("list-duplicate-en-tabs.txt", "client-angular-en-tabs.txt", "detail-angular-en-tabs.txt")
	assert.Equal(t, []string{"duplicate-client-id", "unowned-queues"}, v.Codes)
	assert.Contains(t, out, "list-duplicate-en-tabs.txt:2  the consumer list's Quantity for please_rename_unique_group_name_4 is 4 connections, not client ids: the connections pasted show 2 distinct client id(s) in 3 row(s)")
	assert.Contains(t, out, "duplicate client ids (two processes with one id) or one client connected more than once")
	assert.Contains(t, out, "the consumer list's Delay for please_rename_unique_group_name_4 is 3000, the consume detail's queues add up to 1500, all on broker-a: dashboard 2.0.0 lists the first broker's queues only (rocketmq-dashboard#297)")

	// Without the CLIENT dialog, the consume detail's ids are fewer than the connections, but
	// the detail cannot name every client: the note says so, and no duplicate is claimed.
	out, v = run("list-duplicate-en-tabs.txt", "detail-angular-en-tabs.txt")
	assert.NotContains(t, v.Codes, "duplicate-client-id")
	assert.Contains(t, out, "is 4 connections, not client ids, and the consume detail names 2 distinct client id(s)")
	assert.Contains(t, out, "paste the CLIENT dialog, one row per connection, to tell")

	// The counts agree: nothing to say.
	out, _ = run("client-angular-en-tabs.txt", "detail-angular-en-tabs.txt")
	assert.NotContains(t, out, "Quantity for")
	assert.NotContains(t, out, "the consumer list's Delay")

	out, v = run("broadcast-client-list-en-tabs.txt")
	assert.Contains(t, out, "NoticeGroup consumes BROADCASTING: each client keeps its own offsets (apache/rocketmq#1539), so the broker-side Delay and diffTotal (0 here) say nothing")
	assert.NotContains(t, out, "the consumer list's Delay")
	assert.NotContains(t, v.Codes, "lag-on-owned-queue")
	// Its consume detail shows one queue 9000 behind: no finding is made of it.
	out, v = run("broadcast-client-detail-en-tabs.txt")
	assert.Empty(t, v.Codes)
	assert.Contains(t, out, "broadcast-client-detail-en-tabs.txt:15  NoticeGroup consumes BROADCASTING: each client keeps its own offsets (apache/rocketmq#1539), so the broker-side Delay and diffTotal (9000 here) say nothing")

	out, v = run("go-member-client-detail-en-tabs.txt")
	assert.Equal(t, []string{"mixed-sdk", "allocation-ok"}, v.Codes, "the empty cells are no unowned queues")
	assert.Contains(t, out, "go-member-client-detail-en-tabs.txt:4  2 queue(s) show no consumerClient, and the group has GO member(s) (1: 10.0.0.3@3003#3333): the Dashboard cannot read their running info")
}
