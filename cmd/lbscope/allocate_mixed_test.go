package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Go consumer in a Java group under CONSISTENT_HASH (rocketmq-client-go#419): each client
// hashes its own ring, so one queue is pulled twice and two by nobody.
func TestAllocateMixedGroup(t *testing.T) {
	out, errOut, status := lbscope(t, "", "allocate", "--strategy", "CONSISTENT_HASH", "--queues", "broker-a:4,broker-b:4",
		"--consumers", "10.0.0.1@4012:go,10.0.0.2@4013:java,10.0.0.3@4011:java")
	require.Equal(t, 0, status, errOut)
	want := `CONSISTENT_HASH · topic TopicTest · 8 queues on 2 brokers · 3 consumers (2 java, 1 go-2.1.2)
each consumer sorts the inputs and runs the strategy under its own client's rules

CONSUMER       CLIENT    QUEUES                   COUNT
10.0.0.1@4012  go-2.1.2  broker-a:0-1 broker-b:0  3
10.0.0.2@4013  java      broker-a:2               1
10.0.0.3@4011  java      broker-a:1 broker-b:1,3  3

pulled by more than one consumer (1):
  broker-a:1  10.0.0.1@4012, 10.0.0.3@4011
not pulled by anyone (2): broker-a:3 broker-b:2
the clients disagree: each computes its share by its own rules, so every rebalance gives the same conflict again
`
	assert.Equal(t, want, out)
}

func TestAllocateMixedJSONAndFailures(t *testing.T) {
	// Go's CONSISTENT_HASH(0) panics (the process exits); Java's gives an empty ring.
	out, errOut, status := lbscope(t, "", "allocate", "--strategy", "CONSISTENT_HASH", "--virtual-nodes", "0",
		"--queues", "broker-a:2", "--consumers", "a@1:go,b@2", "--json")
	require.Equal(t, 0, status, errOut)
	var v struct {
		Consumers []struct {
			ClientID, Client, Error string
			Crashed                 bool
			Queues                  []string
		}
		Orphans []string
	}
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	require.Len(t, v.Consumers, 2)
	assert.Equal(t, "go-2.1.2", v.Consumers[0].Client)
	assert.True(t, v.Consumers[0].Crashed)
	assert.Equal(t, "panic: runtime error: integer divide by zero", v.Consumers[0].Error)
	assert.Equal(t, "java", v.Consumers[1].Client)
	assert.Empty(t, v.Consumers[1].Queues)
	assert.Equal(t, []string{"broker-a:0", "broker-a:1"}, v.Orphans)

	// --client sets every consumer's profile; a Go consumer missing from the list is not
	// possible here, but one the guard stops (an empty queue list) owns nil.
	out, _, status = lbscope(t, "", "allocate", "--client", "go", "--queues", "broker-a:3", "--consumers", "2")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "c1        go-2.1.2  broker-a:0-1  2")
	assert.Contains(t, out, "every queue is pulled by exactly one consumer")
}

func TestAllocateMixedBadProfile(t *testing.T) {
	for _, args := range [][]string{
		{"allocate", "--queues", "b:1", "--consumers", "a@1:python"},
		{"allocate", "--queues", "b:1", "--consumers", "a@1", "--client", "rust"},
		{"allocate", "--queues", "b:1", "--consumers", ":go"},
		{"allocate", "--strategy", "MACHINE_ROOM_NEARBY", "--inner", "CONSISTENT_HASH", "--queues", "hz-b:1", "--consumers", "hz-a@1:go"},
	} {
		out, errOut, status := lbscope(t, "", args...)
		assert.Equal(t, 2, status, "%v", args)
		assert.Empty(t, out)
		assert.NotEmpty(t, errOut)
	}
	// A suffix that is no name (an IPv6 group, a port) stays part of the id.
	out, _, status := lbscope(t, "", "allocate", "--queues", "b:2", "--consumers", "fe80::1@4012,10.0.0.1:9876@1")
	require.Equal(t, 0, status)
	assert.Contains(t, out, "fe80::1@4012")
	assert.Contains(t, out, "spread 0")
}

// One recorded case read from stdin, under the Go client: nil and panics as it gives them.
func TestAllocateStdinUnderGo(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"strategy":"AVG","params":{},"currentCID":"c9","cidAll":["c1"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}`, `{"result":null}`},
		{`{"strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":0},"currentCID":"c1","cidAll":["c1"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}`,
			`{"error":"panic: runtime error: integer divide by zero"}`},
	} {
		out, errOut, status := lbscope(t, tt.in, "allocate", "--client", "go", "-")
		require.Equal(t, 0, status, errOut)
		assert.JSONEq(t, tt.want, out)
	}
	out, _, status := lbscope(t, `{"strategy":"AVG","params":{},"currentCID":"c9","cidAll":["c1"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}`, "allocate", "-")
	require.Equal(t, 0, status)
	assert.JSONEq(t, `{"result":[]}`, out, "the Java client gives [] for an id not in the list")
}
