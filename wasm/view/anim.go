package view

import (
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// SlideMs is how long, in wall-clock milliseconds, a queue's line takes to slide from its old
// owner to its new one.
const SlideMs = 400

// Animator is the renderer's memory of the previous snapshot, for the rebalance animation.
// It lives with the renderer (Draw), never with the simulation.
type Animator struct {
	// Reduced turns motion off: lines jump to their new owner (prefers-reduced-motion).
	Reduced bool

	time   int64
	seen   bool
	owners map[string]queueOwners // queue → owners at the last snapshot
	slides map[slideKey]slide
	gen    uint64 // counts Observe's calls: which queues the latest snapshot listed
}

// queueOwners is a queue's owners at the snapshot of Observe call gen.
type queueOwners struct {
	owners []string
	gen    uint64
}

type slideKey struct{ queue, owner string }

type slide struct {
	from  string // the previous owner, or "" to grow out of the cell
	start float64
}

// Observe compares the snapshot with the previous one and starts a slide for every queue
// that changed hands. A snapshot from an earlier time (a reset or a load) starts afresh.
func (a *Animator) Observe(s *cluster.Snapshot, wallMs float64) {
	if a.owners == nil {
		a.owners = map[string]queueOwners{}
		a.slides = map[slideKey]slide{}
	}
	fresh := !a.seen || s.TimeMs < a.time
	a.seen, a.time = true, s.TimeMs
	if fresh {
		clear(a.slides)
	}
	for k, sl := range a.slides {
		if wallMs-sl.start >= SlideMs {
			delete(a.slides, k)
		}
	}
	a.gen++
	present := 0 // the distinct queues of s: when the map holds more, some left
	for _, q := range s.Queues {
		e, had := a.owners[q.Queue]
		old := e.owners
		if e.gen != a.gen {
			present++
		}
		if !fresh && had && !a.Reduced && !slices.Equal(old, q.Owners) {
			var gone []string
			for _, o := range old {
				if !slices.Contains(q.Owners, o) {
					gone = append(gone, o)
				}
			}
			for _, o := range q.Owners {
				if slices.Contains(old, o) {
					continue
				}
				from := ""
				if len(gone) > 0 {
					from, gone = gone[0], gone[1:]
				}
				a.slides[slideKey{q.Queue, o}] = slide{from: from, start: wallMs}
			}
		}
		a.owners[q.Queue] = queueOwners{append(old[:0], q.Owners...), a.gen}
	}
	if len(a.owners) > present {
		for q, e := range a.owners {
			if e.gen != a.gen {
				delete(a.owners, q)
			}
		}
	}
}

// From returns where queue's line to owner comes from at wall time wallMs: the previous
// owner ("" for the queue's own cell) and the progress 0…1 of the slide, eased. Without a
// slide it is (owner, 1).
func (a *Animator) From(queue, owner string, wallMs float64) (string, float64) {
	if a == nil || a.Reduced {
		return owner, 1
	}
	sl, ok := a.slides[slideKey{queue, owner}]
	if !ok {
		return owner, 1
	}
	t := clamp((wallMs-sl.start)/SlideMs, 0, 1)
	if t >= 1 {
		return owner, 1
	}
	return sl.from, t * t * (3 - 2*t)
}

// Active reports whether any slide is under way at wallMs.
func (a *Animator) Active(wallMs float64) bool {
	for _, sl := range a.slides {
		if wallMs-sl.start < SlideMs {
			return true
		}
	}
	return false
}
