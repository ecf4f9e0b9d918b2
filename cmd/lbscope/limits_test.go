package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/stretchr/testify/assert"
)

// virtualNodeCnt 2e9 once ran allocate - out of memory: every door refuses it, naming the
// limit, at once.
func TestVirtualNodeCntIsBoundedAtEveryDoor(t *testing.T) {
	in := `{"strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":2000000000},"currentCID":"c1","cidAll":["c1","c2","c3"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}`
	_, errOut, status := lbscope(t, in, "allocate", "-")
	assert.NotEqual(t, 0, status)
	assert.Contains(t, errOut, "virtualNodeCnt 2000000000: want -1000…1000")

	dir := t.TempDir()
	file := filepath.Join(dir, "big.json")
	vec := `{"cases": [{"id": "CH#big", "scenario": "CONSISTENT_HASH/big", "strategy": "CONSISTENT_HASH", "javaName": "CONSISTENT_HASH",
		"params": {"virtualNodeCnt": 2000000000}, "consumerGroup": "g", "inputsSorted": true, "currentCID": "c1",
		"cidAll": ["c1", "c2"], "mqAll": [{"topic": "T", "brokerName": "b", "queueId": 0}], "result": []}]}`
	assert.NoError(t, os.WriteFile(file, []byte(vec), 0o644))
	out, errOut, status := lbscope(t, "", "conform", file)
	assert.NotEqual(t, 0, status)
	assert.Contains(t, out+errOut, "virtualNodeCnt 2000000000: want -1000…1000")

	_, errOut, status = lbscope(t, "", "sim", "--at", "1s:addConsumer:a<b", "--until", "2s")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, `has '<'`)
}

// A command registered in the table alone is listed by sim --help and runs from --at.
func TestSimHelpListsATableEntry(t *testing.T) {
	zero, three := 0, 3
	cluster.Register(cluster.CommandSpec{Name: "testPoke", Target: cluster.TargetConsumer,
		Args: []cluster.Arg{
			{Name: "id", Type: cluster.ArgString, Charset: &cluster.ClientIDName, Example: "c1"},
			{Name: "queues", Type: cluster.ArgInt, Min: &zero, Max: &three, Optional: true, Example: "2"},
		},
		Apply:    func(c *cluster.Cluster, cmd cluster.Command) error { return nil },
		Describe: func(cmd cluster.Command) string { return cmd.ID + " is poked" },
		Words: map[string]cluster.Words{
			"en": {Label: "Poke", Description: "Pokes a consumer."},
			"zh": {Label: "戳", Description: "戳一下消费者。"},
		},
	})
	defer cluster.Unregister("testPoke")
	out, errOut, _ := lbscope(t, "", "sim", "--help")
	assert.Contains(t, out+errOut, "  30s:testPoke:c1[:2]\n")
	out, errOut, status := lbscope(t, "", "sim", "--at", "5s:testPoke:c2", "--until", "10s")
	assert.Equal(t, 0, status, errOut)
	assert.True(t, strings.Contains(out, "c2 is poked"), out)
}
