package allocate

import (
	"github.com/lbscope/lbscope/core/route"
)

// Assignment is one consumer's allocation within a group view.
type Assignment struct {
	ClientID string
	Queues   []route.MessageQueue // nil when Err is set, or CONFIG's null
	Err      error
}

// View is a whole group's allocation: what every consumer's own call returns when they all
// see the same inputs, plus the numbers operators ask about.
type View struct {
	Strategy    string
	Assignments []Assignment // one per distinct client id, in cidAll order
	Max, Min    int          // queue counts over the assignments without error
	Spread      int          // Max - Min
	Idle        []string     // consumers that got no queue (without error)
}

// Group runs strategy s for every distinct client id of cidAll on the same mqAll and cidAll,
// used exactly as given (sort them first, as RebalanceImpl does, to see what the Java client
// does). Each Assignment equals what s.Allocate returns for that id; the work every call would
// repeat (the hash ring, the room grouping) is done once. Results may share memory with mqAll
// and with each other: treat them as read-only.
func Group(s Strategy, consumerGroup string, mqAll []route.MessageQueue, cidAll []string) View {
	ix := indexGroup(cidAll)
	v := View{Strategy: s.Name(), Assignments: make([]Assignment, len(ix.ids))}
	for d, id := range ix.ids {
		v.Assignments[d].ClientID = id
	}
	if ga, ok := s.(groupAllocator); ok {
		var common error
		if _, isConfig := s.(ByConfig); !isConfig {
			// The shared check of spec §4, in its order: an empty id fails first, then the
			// lists fail every consumer alike (every other id is in cidAll).
			for d, id := range ix.ids {
				if id == "" {
					v.Assignments[d].Err = errCurrentCIDEmpty
				}
			}
			switch {
			case len(mqAll) == 0:
				common = errMQAllEmpty
			case len(cidAll) == 0:
				common = errCIDAllEmpty
			}
		}
		var results [][]route.MessageQueue
		if common == nil {
			results, common = ga.allocateGroup(consumerGroup, mqAll, cidAll, ix)
		}
		for d := range v.Assignments {
			a := &v.Assignments[d]
			switch {
			case a.Err != nil:
			case common != nil:
				a.Err = common
			default:
				a.Queues = results[d]
			}
		}
	} else {
		for d := range v.Assignments {
			a := &v.Assignments[d]
			a.Queues, a.Err = s.Allocate(consumerGroup, a.ClientID, mqAll, cidAll)
		}
	}
	v.summarize()
	return v
}

// NewView summarises assignments computed elsewhere (another client's strategies) into a
// View: Max, Min, Spread and Idle over the assignments without error.
func NewView(strategy string, assignments []Assignment) View {
	v := View{Strategy: strategy, Assignments: assignments}
	v.summarize()
	return v
}

func (v *View) summarize() {
	first := true
	for _, a := range v.Assignments {
		if a.Err != nil {
			continue
		}
		n := len(a.Queues)
		if first || n > v.Max {
			v.Max = n
		}
		if first || n < v.Min {
			v.Min = n
		}
		first = false
		if n == 0 {
			v.Idle = append(v.Idle, a.ClientID)
		}
	}
	v.Spread = v.Max - v.Min
}

// Coverage compares the view with mqAll: the queues no consumer got (orphans) and the queues
// more than one consumer got (shared), each in mqAll order.
func (v View) Coverage(mqAll []route.MessageQueue) (orphans, shared []route.MessageQueue) {
	owners := make(map[route.MessageQueue]int, len(mqAll))
	for _, a := range v.Assignments {
		for _, q := range a.Queues {
			owners[q]++
		}
	}
	for _, q := range mqAll {
		switch n := owners[q]; {
		case n == 0:
			orphans = append(orphans, q)
		case n > 1:
			shared = append(shared, q)
			owners[q] = 1 // list a duplicated queue of mqAll once
		}
	}
	return orphans, shared
}

// groupIndex relates cidAll to its distinct ids.
type groupIndex struct {
	ids      []string // distinct ids in order of first occurrence
	first    []int    // first[d]: position in cidAll of ids[d]
	distinct []int    // distinct[p]: the d with ids[d] == cidAll[p]
}

func indexGroup(cidAll []string) groupIndex {
	ix := groupIndex{distinct: make([]int, len(cidAll))}
	if increasing(cidAll) {
		// RebalanceImpl's sorted input: all ids are distinct, no map needed.
		ix.ids = cidAll
		ix.first = make([]int, len(cidAll))
		for p := range cidAll {
			ix.first[p], ix.distinct[p] = p, p
		}
		return ix
	}
	seen := make(map[string]int, len(cidAll))
	for p, id := range cidAll {
		d, ok := seen[id]
		if !ok {
			d = len(ix.ids)
			seen[id] = d
			ix.ids = append(ix.ids, id)
			ix.first = append(ix.first, p)
		}
		ix.distinct[p] = d
	}
	return ix
}

func increasing(ids []string) bool {
	for i := 1; i < len(ids); i++ {
		if route.CompareJava(ids[i-1], ids[i]) >= 0 {
			return false
		}
	}
	return true
}

// groupAllocator is implemented by strategies that can share work across a group. It is
// called after the shared check passed and returns one result per distinct id, or an error
// that every consumer's call would throw.
type groupAllocator interface {
	allocateGroup(consumerGroup string, mqAll []route.MessageQueue, cidAll []string, ix groupIndex) ([][]route.MessageQueue, error)
}

func (Averagely) allocateGroup(_ string, mqAll []route.MessageQueue, cidAll []string, ix groupIndex) ([][]route.MessageQueue, error) {
	out := make([][]route.MessageQueue, len(ix.ids))
	for d, p := range ix.first {
		start, count := avgRange(len(mqAll), len(cidAll), p)
		out[d] = mqAll[start : start+count : start+count]
	}
	return out, nil
}

func (AveragelyByCircle) allocateGroup(_ string, mqAll []route.MessageQueue, cidAll []string, ix groupIndex) ([][]route.MessageQueue, error) {
	c := len(cidAll)
	// Position i goes to the consumer whose FIRST occurrence is i mod c; positions of a
	// repeated id's later occurrences go to nobody (spec §4.7).
	owner := func(i int) int {
		p := i % c
		if d := ix.distinct[p]; ix.first[d] == p {
			return d
		}
		return -1
	}
	return bucket(mqAll, len(ix.ids), owner), nil
}

func (s *ConsistentHash) allocateGroup(_ string, mqAll []route.MessageQueue, cidAll []string, ix groupIndex) ([][]route.MessageQueue, error) {
	r := buildRing(cidAll, s.virtualNodeCnt)
	owners := make([]int32, len(mqAll))
	var buf []byte
	for i, mq := range mqAll {
		owners[i] = -1
		if p, ok := r.route(mq, &buf); ok {
			owners[i] = int32(ix.distinct[p])
		}
	}
	return bucket(mqAll, len(ix.ids), func(i int) int { return int(owners[i]) }), nil
}

// bucket splits mqAll into k lists by owner (-1: nobody), each in mqAll order, sharing one
// backing array.
func bucket(mqAll []route.MessageQueue, k int, owner func(i int) int) [][]route.MessageQueue {
	counts := make([]int, k+1)
	for i := range mqAll {
		if o := owner(i); o >= 0 {
			counts[o+1]++
		}
	}
	for d := 1; d <= k; d++ {
		counts[d] += counts[d-1] // counts[d] is now where list d starts
	}
	backing := make([]route.MessageQueue, counts[k])
	out := make([][]route.MessageQueue, k)
	for d := range out {
		out[d] = backing[counts[d]:counts[d]:counts[d+1]]
	}
	for i, mq := range mqAll {
		if o := owner(i); o >= 0 {
			out[o] = append(out[o], mq)
		}
	}
	return out
}

func (s *ByMachineRoom) allocateGroup(_ string, mqAll []route.MessageQueue, cidAll []string, ix groupIndex) ([][]route.MessageQueue, error) {
	pre, err := s.pre(mqAll)
	if err != nil {
		return nil, err
	}
	out := make([][]route.MessageQueue, len(ix.ids))
	for d, p := range ix.first {
		out[d] = machineRoomShare(pre, len(cidAll), p, nil)
	}
	return out, nil
}

func (s *MachineRoomNearby) allocateGroup(group string, mqAll []route.MessageQueue, cidAll []string, ix groupIndex) ([][]route.MessageQueue, error) {
	r, err := s.group(mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]int, len(ix.ids))
	for d, id := range ix.ids {
		byID[id] = d
	}
	out := make([][]route.MessageQueue, len(ix.ids))
	for d := range out {
		out[d] = []route.MessageQueue{}
	}
	add := func(queues []route.MessageQueue, consumers []string) error {
		for _, a := range Group(s.inner, group, queues, consumers).Assignments {
			if a.Err != nil {
				return a.Err
			}
			d := byID[a.ClientID]
			out[d] = append(out[d], a.Queues...)
		}
		return nil
	}
	// Each consumer's own room first (spec §4.5 step 4) …
	for _, room := range r.names {
		if consumers, ok := r.consumers[room]; ok {
			if err := add(r.queues[room], consumers); err != nil {
				return nil, err
			}
		}
	}
	// … then every room without consumers, shared by all, in room order (step 5).
	for _, room := range r.names {
		if _, ok := r.consumers[room]; !ok {
			if err := add(r.queues[room], cidAll); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (s ByConfig) allocateGroup(_ string, _ []route.MessageQueue, _ []string, ix groupIndex) ([][]route.MessageQueue, error) {
	out := make([][]route.MessageQueue, len(ix.ids))
	for d := range out {
		out[d] = s.MessageQueueList[:len(s.MessageQueueList):len(s.MessageQueueList)]
	}
	return out, nil
}
