package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// pluralPastes writes what an operator pastes of a group that subscribes two topics, one with
// tags: consumerConnection (4.9.3+) and consumerProgress -g (4.1 layout).
func pluralPastes(t *testing.T, dir string) (conn, progress string) {
	t.Helper()
	var c strings.Builder
	c.WriteString("$ sh mqadmin consumerConnection -g GID_SHOP -n ns:9876\n")
	fmt.Fprintf(&c, "%-36s %-22s %-10s %s\n", "#ClientId", "#ClientAddr", "#Language", "#Version")
	for i := 1; i <= 3; i++ {
		fmt.Fprintf(&c, "%-36s %-22s %-10s %s\n", fmt.Sprintf("10.0.0.%d@%d", i, 100*i), fmt.Sprintf("10.0.0.%d:5000%d", i, i), "JAVA", "V4_9_4")
	}
	c.WriteString("\nBelow is subscription:\n")
	fmt.Fprintf(&c, "%-20s %s\n", "#Topic", "#SubExpression")
	fmt.Fprintf(&c, "%-20s %s\n", "%RETRY%GID_SHOP", "*")
	fmt.Fprintf(&c, "%-20s %s\n", "TopicOrder", "TagA || TagB")
	fmt.Fprintf(&c, "%-20s %s\n", "TopicPay", "*")
	c.WriteString("\nConsumeType: CONSUME_PASSIVELY\nMessageModel: CLUSTERING\nConsumeFromWhere: CONSUME_FROM_LAST_OFFSET\n")

	var p strings.Builder
	p.WriteString("$ sh mqadmin consumerProgress -g GID_SHOP -n ns:9876\n")
	fmt.Fprintf(&p, "%-32s  %-32s  %-4s  %-20s  %-20s  %-20s  %s\n", "#Topic", "#Broker Name", "#QID", "#Broker Offset", "#Consumer Offset", "#Diff", "#LastTime")
	row := func(topic, broker string, q int) {
		fmt.Fprintf(&p, "%-32s  %-32s  %-4d  %-20d  %-20d  %-20d  %s\n", topic, broker, q, 100, 100, 0, "2026-06-07 02:44:59")
	}
	for _, b := range []string{"broker-a", "broker-b"} {
		for q := range 4 {
			row("TopicOrder", b, q)
		}
		for q := range 2 {
			row("TopicPay", b, q)
		}
		row("%RETRY%GID_SHOP", b, 0)
	}
	p.WriteString("\nConsume TPS: 0.00\nDiff Total: 0\n")
	conn, progress = filepath.Join(dir, "conn.txt"), filepath.Join(dir, "progress.txt")
	require.NoError(t, os.WriteFile(conn, []byte(c.String()), 0o644))
	require.NoError(t, os.WriteFile(progress, []byte(p.String()), 0o644))
	return conn, progress
}

// A group that subscribes two topics, one with tags, goes into a format-2 scenario with both
// topics, each member's subscriptions and their tags, and the retry topic the client adds
// (spec §3.14), instead of the main topic alone; sim runs it, and each topic is balanced on
// its own over the same sorted members, so AVG gives the first member more on both (§4.1).
func TestDiagnoseScenarioKeepsEveryTopic(t *testing.T) {
	dir := t.TempDir()
	conn, progress := pluralPastes(t, dir)
	file := filepath.Join(dir, "shop.json")
	out, errOut, status := lbscope(t, "", "diagnose", "--scenario", file, conn, progress)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "scenario written to "+file+" (topics TopicOrder, TopicPay, group GID_SHOP, 3 consumers)")
	assert.NotContains(t, out, "left out: the topic")

	data, err := os.ReadFile(file)
	require.NoError(t, err)
	s, err := scenario.Parse(data)
	require.NoError(t, err)
	assert.Equal(t, scenario.Version2, s.Version)
	require.Len(t, s.Topics, 2)
	assert.Equal(t, cluster.TopicConfig{Name: "TopicOrder", Brokers: []cluster.TopicBrokerConfig{{Name: "broker-a", Queues: 4}, {Name: "broker-b", Queues: 4}}}, s.Topics[0])
	assert.Equal(t, cluster.TopicConfig{Name: "TopicPay", Brokers: []cluster.TopicBrokerConfig{{Name: "broker-a", Queues: 2}, {Name: "broker-b", Queues: 2}}}, s.Topics[1])
	require.Len(t, s.Groups, 1)
	assert.Equal(t, "GID_SHOP", s.Groups[0].Name)
	require.Len(t, s.Consumers, 3)
	for _, c := range s.Consumers {
		assert.Equal(t, []cluster.MembershipConfig{{Group: "GID_SHOP", Subscriptions: []cluster.SubscriptionConfig{
			{Topic: "TopicOrder", Tags: []string{"TagA", "TagB"}}, {Topic: "TopicPay"}}}}, c.Groups, c.ID)
	}
	require.Len(t, s.Producers, 2)
	assert.Equal(t, "TopicOrder", s.Producers[0].Topic)
	assert.Equal(t, map[string]float64{"TagA": 0.5, "TagB": 0.5}, s.Producers[0].Tags)
	assert.Equal(t, "TopicPay", s.Producers[1].Topic)
	assert.Contains(t, s.Description, "p1's messages carry TagA, TagB in equal shares.")

	out, errOut, status = lbscope(t, "", "sim", "--json", file)
	require.Equal(t, 0, status, errOut)
	var run struct {
		Final struct {
			Groups map[string]map[string]map[string][]string `json:"groups"`
		} `json:"final"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &run), out)
	held := map[string]map[string]int{}
	for topic, owners := range run.Final.Groups["GID_SHOP"] {
		held[topic] = map[string]int{}
		for id, qs := range owners {
			if len(qs) > 0 {
				held[topic][id] = len(qs)
			}
		}
	}
	assert.Equal(t, map[string]int{"10.0.0.1@100": 3, "10.0.0.2@200": 3, "10.0.0.3@300": 2}, held["TopicOrder"])
	assert.Equal(t, map[string]int{"10.0.0.1@100": 2, "10.0.0.2@200": 1, "10.0.0.3@300": 1}, held["TopicPay"])
	assert.Len(t, held["%RETRY%GID_SHOP"], 2, "the retry topic's two queues, one per broker, go to two members")
}
