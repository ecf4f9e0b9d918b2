package api

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// The editor's examples do what the page says of them: the port of AVG gives AVG's queues on
// any group; the floored weights leave queues to nobody; the sticky allocation pulls every
// queue once and moves fewer queues than AVG when a member joins or leaves; the composite key
// is a selector (checkselector_test.go shows it against the hash).
func TestGalleryExamples(t *testing.T) {
	list, err := Gallery()
	require.NoError(t, err)
	byID := map[string]allocate.Strategy{}
	for _, g := range list {
		if g.ID == "composite" {
			_, err := selector.New(selector.Choice{Name: g.Name, Source: g.Source})
			require.NoError(t, err, g.ID)
			byID[g.ID] = nil
			continue
		}
		s, err := allocate.NewChoice(allocate.Choice{Name: g.Name, Source: g.Source}, allocate.Params{})
		require.NoError(t, err, g.ID)
		byID[g.ID] = s
	}
	require.Len(t, byID, len(galleryOrder))

	r := rand.New(rand.NewPCG(5, 23))
	for i := range 400 {
		var mq []route.MessageQueue
		for b := range 1 + r.IntN(4) {
			for q := range 1 + r.IntN(9) {
				mq = append(mq, route.MessageQueue{Topic: "T", BrokerName: fmt.Sprintf("broker-%c", 'a'+b), QueueID: int32(q)})
			}
		}
		var ids []string
		for range 1 + r.IntN(9) {
			ids = append(ids, fmt.Sprintf("10.0.0.%d@%d", r.IntN(50), 4000+r.IntN(9)))
		}
		route.SortQueues(mq)
		route.SortClientIDs(ids)
		want := allocate.Group(allocate.Averagely{}, "g", mq, ids)
		got := allocate.Group(byID["avg"], "g", mq, ids)
		require.Equal(t, fmt.Sprint(want.Assignments), fmt.Sprint(got.Assignments), "case %d", i)
		sticky := allocate.Check(byID["sticky"], "g", mq, ids, "c-new", nil)
		require.True(t, sticky.Exact, "case %d: sticky pulls every queue once", i)
	}

	mq := queues16()
	ids := []string{"c1", "c2", "c3", "c4"}
	rounding := allocate.Check(byID["rounding"], "g", mq, ids, "c5", nil)
	assert.Equal(t, []string{"broker-b:6", "broker-b:7"}, rounding.Orphaned, "16·(1, 2, 3, 4)/10 floor to 1+3+4+6 = 14 of 16")
	sticky := allocate.Check(byID["sticky"], "g", mq, ids, "c5", nil)
	assert.Less(t, sticky.Join.Moves, sticky.Join.AVGMoves)
	assert.Less(t, sticky.Kill.Moves, sticky.Kill.AVGMoves)
}

func queues16() []route.MessageQueue {
	var mq []route.MessageQueue
	for _, b := range []string{"broker-a", "broker-b"} {
		for q := range 8 {
			mq = append(mq, route.MessageQueue{Topic: "T", BrokerName: b, QueueID: int32(q)})
		}
	}
	return mq
}
