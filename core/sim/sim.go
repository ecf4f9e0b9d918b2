// Package sim is the simulation's clock and event queue: virtual milliseconds, events ordered
// by (time, insertion sequence) so that equal times keep the order they were scheduled in, and
// one seeded java.util.Random stream per component derived from the run's seed.
package sim

import (
	"container/heap"

	"github.com/lbscope/lbscope/core/jrand"
)

// Event is a scheduled piece of work. Kind and the two arguments are interpreted by the owner
// of the queue; a value type keeps scheduling free of closures and allocations.
type Event struct {
	At   int64
	Seq  uint64
	Kind int
	A, B int    // e.g. a consumer index and a generation
	S    string // e.g. a broker name
}

// Queue is a priority queue of events ordered by (At, Seq).
type Queue struct {
	h   eventHeap
	seq uint64
}

// Push schedules e at e.At; its Seq is assigned here.
func (q *Queue) Push(e Event) {
	q.seq++
	e.Seq = q.seq
	heap.Push(&q.h, e)
}

// Clone returns an independent copy: the same pending events and the same next sequence
// number, so both copies order later insertions the same way.
func (q *Queue) Clone() Queue {
	return Queue{h: append(eventHeap(nil), q.h...), seq: q.seq}
}

// Len is the number of pending events.
func (q *Queue) Len() int { return len(q.h) }

// PeekAt returns the time of the next event; ok is false when the queue is empty.
func (q *Queue) PeekAt() (at int64, ok bool) {
	if len(q.h) == 0 {
		return 0, false
	}
	return q.h[0].At, true
}

// Pop removes and returns the next event.
func (q *Queue) Pop() Event { return heap.Pop(&q.h).(Event) }

type eventHeap []Event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].At != h[j].At {
		return h[i].At < h[j].At
	}
	return h[i].Seq < h[j].Seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(Event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// Stream derives a component's own java.util.Random from the run's seed and the component's
// name, so adding a component does not shift the numbers another one draws.
func Stream(seed int64, name string) *jrand.Random {
	// FNV-1a over the name, mixed with the seed: stable across runs and platforms.
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return jrand.New(seed ^ int64(h))
}
