package view

import (
	"math"
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// An orderly group's queue lock (QueueView.LockedBy) is marked in the top right corner of
// its cell, a corner no other mark of a cell takes: a padlock where the cell has room for
// one, a corner triangle where it has not.
//
//   - held: the member that holds the lock pulls the queue (it is one of its owners): a solid
//     padlock in its ink, over its strip of the cell, as its label is drawn;
//   - away: the lock is another member's, or a gone member's, which pauses the queue until it
//     expires (spec §8.5.3): a hollow padlock, outlined in the warning colour, its body in the
//     lock holder's colour where the canvas has one for it.

// Lock states of a queue.
const (
	LockNone = iota
	LockHeld
	LockAway
)

// LockOf is the lock state of q.
func LockOf(q *cluster.QueueView) int {
	switch {
	case q.LockedBy == "":
		return LockNone
	case slices.Contains(q.Owners, q.LockedBy):
		return LockHeld
	}
	return LockAway
}

// minPadlockCell is the smallest side of a cell that carries a padlock rather than a corner.
const minPadlockCell = 12

// lockMark is where a cell r draws its lock's mark: the padlock's box (square, at the top
// right, inside a warning frame where the cell has room for both), or, in a cell too small
// for a padlock (or too narrow for one beside a centred label), the corner triangle's side
// (box.W) with its right angle at the cell's top right corner (padlock false).
func lockMark(r Rect) (box Rect, padlock bool) {
	side := math.Min(r.W, r.H)
	s := math.Min(10, math.Max(7, math.Floor(side*0.45)))
	if side < minPadlockCell || r.W < 3*s+2 {
		s := math.Max(2, math.Floor(side/2))
		return Rect{r.Right() - s, r.Y, s, s}, false
	}
	in := 1.0
	if side-s >= 6 {
		in = 3
	}
	return Rect{r.Right() - in - s, r.Y + in, s, s}, true
}

// drawLock marks the lock of the queue q drawn in the cell r (nothing when it has none).
func drawLock(c *Canvas, l *Layout, r Rect, q *cluster.QueueView) {
	state := LockOf(q)
	if state == LockNone {
		return
	}
	m, known := l.Marks[q.LockedBy]
	if state == LockHeld {
		// Over the holder's strip, as drawCell shares the cell among its owners.
		i := slices.Index(q.Owners, q.LockedBy)
		w := r.W / float64(len(q.Owners))
		r = Rect{r.X + float64(i)*w, r.Y, w, r.H}
	}
	box, padlock := lockMark(r)
	fill := Dim
	if known {
		fill = m.Color
	}
	drawLockIn(c, LayerMarks, box, padlock, state, m.Ink, fill)
}

// drawLockIn draws a lock mark in box (lockMark's): held in ink, away outlined in the warning
// colour around fill. The legend draws its samples with it.
func drawLockIn(c *Canvas, layer Layer, box Rect, padlock bool, state int, ink, fill Color) {
	if !padlock {
		x, y, s := box.X, box.Y, box.W
		col := ink
		if state == LockAway {
			col = Warn
		}
		c.quad(layer, [4]float64{x, x + s, x + s, x + s}, [4]float64{y, y, y + s, y + s}, col)
		return
	}
	// The padlock: a shackle (a half ring on two legs) over a body two thirds of the box high.
	s := box.W
	t := math.Max(1, math.Round(s/7)) // the strokes' width
	bodyH := math.Round(s * 0.55)
	bodyW := s
	body := Rect{box.X, box.Bottom() - bodyH, bodyW, bodyH}
	ro := math.Round(s * 0.3) // the shackle's outer radius
	cx := box.X + bodyW/2
	cy := box.Y + ro
	col := ink
	if state == LockAway {
		col = Warn
		// A plate of the empty cell's colour behind it, so that it reads on any owner's colour.
		c.Rect(layer, Rect{box.X - 1, box.Y - 1, box.W + 2, box.H + 2}, Empty)
	}
	c.Ring(layer, cx, cy, ro-t, ro, math.Pi, 2*math.Pi, col)
	c.Rect(layer, Rect{cx - ro, cy, t, body.Y - cy}, col)
	c.Rect(layer, Rect{cx + ro - t, cy, t, body.Y - cy}, col)
	c.Rect(layer, body, col)
	switch {
	case state == LockAway:
		c.Rect(layer, body.Inset(t), fill)
	case s >= 8:
		// A keyhole of the cell's colour.
		c.Rect(layer, Rect{math.Round(cx - t/2), body.Y + math.Round(bodyH/3), t, math.Max(1, math.Round(bodyH/3))}, fill)
	}
}

// hasLocks reports whether a queue of the snapshot is locked: the legend then explains the
// lock marks.
func hasLocks(s *cluster.Snapshot) bool {
	for i := range s.Queues {
		if s.Queues[i].LockedBy != "" {
			return true
		}
	}
	return false
}
