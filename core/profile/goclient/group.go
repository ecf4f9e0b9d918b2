package goclient

import (
	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// GroupView runs s for every distinct id of cidAll on the same inputs, used exactly as given
// (sort them with SortQueues and SortClientIDs first to see what doBalance does). Each
// Assignment equals that id's own Allocate call; a panic is the Assignment's Err. For
// CONSISTENT_HASH the ring, which every consumer of a real group builds for itself, is built
// once. Results may share memory with mqAll.
func GroupView(s Strategy, consumerGroup string, mqAll []route.MessageQueue, cidAll []string) allocate.View {
	var ids []string
	seen := make(map[string]int, len(cidAll))
	for _, id := range cidAll {
		if _, ok := seen[id]; !ok {
			seen[id] = len(ids)
			ids = append(ids, id)
		}
	}
	as := make([]allocate.Assignment, len(ids))
	for d, id := range ids {
		as[d].ClientID = id
	}
	if ch, ok := s.(ConsistentHash); ok {
		groupConsistentHash(ch, mqAll, cidAll, seen, as)
	} else {
		for d := range as {
			as[d].Queues, as[d].Err = s.Allocate(consumerGroup, as[d].ClientID, mqAll, cidAll)
		}
	}
	return allocate.NewView(s.Name(), as)
}

func groupConsistentHash(s ConsistentHash, mqAll []route.MessageQueue, cidAll []string, index map[string]int, as []allocate.Assignment) {
	if len(mqAll) == 0 || len(cidAll) == 0 {
		return // every id: the guard's nil
	}
	r, err := NewRing(cidAll, s.VirtualNodeCnt)
	for d := range as {
		switch {
		case as[d].ClientID == "":
			// guarded: nil, no panic
		case err != nil:
			as[d].Err = err
		default:
			as[d].Queues = []route.MessageQueue{}
		}
	}
	if err != nil {
		return
	}
	// Route every queue once, then cut one backing array into the members' lists.
	owner := make([]int32, len(mqAll))
	counts := make([]int, len(as)+1)
	var buf []byte
	for i, mq := range mqAll {
		buf = mq.AppendText(buf[:0])
		owner[i] = -1
		if id, ok := r.getBytes(buf); ok && id != "" {
			owner[i] = int32(index[id])
			counts[owner[i]+1]++
		}
	}
	for d := 1; d <= len(as); d++ {
		counts[d] += counts[d-1]
	}
	backing := make([]route.MessageQueue, counts[len(as)])
	for d := range as {
		if as[d].Queues != nil {
			as[d].Queues = backing[counts[d]:counts[d]:counts[d+1]]
		}
	}
	for i, mq := range mqAll {
		if o := owner[i]; o >= 0 && as[o].Queues != nil {
			as[o].Queues = append(as[o].Queues, mq)
		}
	}
}
