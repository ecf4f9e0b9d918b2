package allocate

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/route"
)

// floored is the weighted allocator that floors each share: with weights 1, 2, 3 over 16
// queues the floors are 2, 5 and 8, and the last queue is nobody's.
type floored struct{}

func (floored) Name() string { return "FLOORED" }

func (floored) Allocate(_, current string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	start, total := 0, len(cidAll)*(len(cidAll)+1)/2
	for i, id := range cidAll {
		n := len(mqAll) * (i + 1) / total
		if id == current {
			return mqAll[start : start+n], nil
		}
		start += n
	}
	return nil, nil
}

// everyone pulls every queue: each queue is doubled.
type everyone struct{}

func (everyone) Name() string { return "EVERYONE" }
func (everyone) Allocate(_, _ string, mqAll []route.MessageQueue, _ []string) ([]route.MessageQueue, error) {
	return mqAll, nil
}

type throws struct{}

func (throws) Name() string { return "THROWS" }
func (throws) Allocate(_, current string, mqAll []route.MessageQueue, _ []string) ([]route.MessageQueue, error) {
	if current == "c2" {
		return nil, errors.New("x.star:3:5: boom")
	}
	return mqAll[:1], nil
}

func queues(brokers, n int) []route.MessageQueue {
	var mq []route.MessageQueue
	for b := range brokers {
		for q := range n {
			mq = append(mq, route.MessageQueue{Topic: "T", BrokerName: fmt.Sprintf("broker-%c", 'a'+b), QueueID: int32(q)})
		}
	}
	return mq
}

// Check names the queues pulled twice and by nobody, the spread, and the moves of one kill
// and one join against AVG's.
func TestCheck(t *testing.T) {
	mq := queues(2, 8)
	ids := []string{"c3", "c1", "c2"} // sorted by Check as RebalanceImpl sorts them

	r := Check(Averagely{}, "g", mq, ids, "c4", nil)
	assert.True(t, r.Exact)
	assert.Equal(t, SpreadReport{Min: 5, Max: 6}, r.Spread)
	require.NotNil(t, r.Kill)
	require.NotNil(t, r.Join)
	assert.Equal(t, "c3", r.Kill.Member)
	assert.Equal(t, r.Kill.AVGMoves, r.Kill.Moves, "AVG against itself")
	assert.Equal(t, "c4", r.Join.Member)

	r = Check(floored{}, "g", mq, ids, "c4", nil)
	assert.False(t, r.Exact)
	assert.Equal(t, []string{"broker-b:7"}, r.Orphaned, "2 + 5 + 8 of 16")
	assert.Empty(t, r.Doubled)
	assert.Equal(t, SpreadReport{Min: 2, Max: 8}, r.Spread)
	assert.Equal(t, []string{"c1", "c2", "c3"}, []string{r.Members[0].ID, r.Members[1].ID, r.Members[2].ID})
	assert.Greater(t, r.Kill.Orphaned, 0)

	r = Check(everyone{}, "g", queues(1, 2), ids, "", nil)
	assert.Equal(t, []DoubledQueue{{Queue: "broker-a:0", Owners: []string{"c1", "c2", "c3"}}, {Queue: "broker-a:1", Owners: []string{"c1", "c2", "c3"}}}, r.Doubled)
	assert.Nil(t, r.Join, "no joiner given")

	r = Check(throws{}, "g", mq, ids, "c4", nil)
	assert.False(t, r.Exact)
	assert.Equal(t, "x.star:3:5: boom", r.Members[1].Error)
	assert.Equal(t, []DoubledQueue{{Queue: "broker-a:0", Owners: []string{"c1", "c3"}}}, r.Doubled, "the members whose call ended well")
}
