package view

import (
	"math"
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// SlideMs is how long, in wall-clock milliseconds, a queue's line takes to slide from its old
// owner to its new one.
const SlideMs = 400

// FlightMs is the least wall-clock time a message takes on its way from the producer to its
// queue: most sends arrive within milliseconds of virtual time, less than a frame, and a
// dot that lives one frame is not seen.
const FlightMs = 700

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

	flights []flight // messages on their way, at most MaxMessages
}

// flight is a sent batch as the canvas shows it travel: from the wall time it was first seen
// for at least FlightMs, longer while the simulation still has it on its way.
type flight struct {
	key            flightKey
	late, resend   bool
	start          float64
	sentAt, arrive int64
	inSnap         bool // the latest snapshot still lists it on its way
}

type flightKey struct {
	producer, queue string
	sentAt          int64
}

// Flight is a message on its way as drawn: its producer and queue, how it is marked, and
// its progress 0…1.
type Flight struct {
	Producer, Queue string
	Late, Resend    bool
	T               float64
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
		a.flights = a.flights[:0]
	}
	a.observeSends(s, wallMs)
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

// observeSends starts a flight for every batch on its way that s lists for the first time,
// while fewer than MaxMessages fly, and ends those that arrived and flew FlightMs.
func (a *Animator) observeSends(s *cluster.Snapshot, wallMs float64) {
	if a.Reduced {
		a.flights = a.flights[:0]
		return
	}
	for i := range a.flights {
		a.flights[i].inSnap = false
	}
	for _, m := range s.Sends {
		if m.ArriveAt <= m.SentAt {
			continue
		}
		k := flightKey{m.Producer, m.Queue, m.SentAt}
		found := false
		for i := range a.flights {
			if a.flights[i].key == k {
				a.flights[i].inSnap, found = true, true
				break
			}
		}
		if !found && len(a.flights) < MaxMessages {
			a.flights = append(a.flights, flight{key: k, late: m.Late, resend: m.Resend, start: wallMs, sentAt: m.SentAt, arrive: m.ArriveAt, inSnap: true})
		}
	}
	a.flights = slices.DeleteFunc(a.flights, func(f flight) bool { return !f.inSnap && wallMs-f.start >= FlightMs })
}

// Flights appends to out the messages on their way at wall time wallMs and virtual time
// nowMs: each at the lesser of its wall-clock progress over FlightMs and, while the
// simulation still has it on its way, its virtual progress.
func (a *Animator) Flights(nowMs int64, wallMs float64, out []Flight) []Flight {
	if a == nil || a.Reduced {
		return out
	}
	for _, f := range a.flights {
		t := clamp((wallMs-f.start)/FlightMs, 0, 1)
		if f.inSnap {
			t = math.Min(t, clamp(float64(nowMs-f.sentAt)/float64(f.arrive-f.sentAt), 0, 1))
		}
		out = append(out, Flight{Producer: f.key.producer, Queue: f.key.queue, Late: f.late, Resend: f.resend, T: t})
	}
	return out
}

// Active reports whether any slide or flight is under way at wallMs.
func (a *Animator) Active(wallMs float64) bool {
	for _, f := range a.flights {
		if wallMs-f.start < FlightMs {
			return true
		}
	}
	for _, sl := range a.slides {
		if wallMs-sl.start < SlideMs {
			return true
		}
	}
	return false
}
