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
