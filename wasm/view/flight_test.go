package view

import (
	"math"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// A message the simulation delivers within a frame still travels from the producer to its
// queue for FlightMs of wall time, as a dot of messageDot units that stands out on the
// cells; a slow broker's message travels as the simulation has it; reduced motion and a
// reset stop them; no more than MaxMessages fly.
func TestMessagesFlyLongEnoughToBeSeen(t *testing.T) {
	s := presetSnap(t, "small", 5000)
	if len(s.Sends) == 0 {
		t.Fatal("no messages on their way")
	}
	var a Animator
	a.Observe(&s, 1000)
	n := len(a.Flights(s.TimeMs, 1000, nil))
	if n == 0 || n > MaxMessages {
		t.Fatalf("%d flights for %d sends", n, len(s.Sends))
	}
	// The next snapshot: those sends arrived.
	later := s
	later.TimeMs += 16
	later.Sends = nil
	a.Observe(&later, 1000+FlightMs/2)
	half := a.Flights(later.TimeMs, 1000+FlightMs/2, nil)
	if len(half) != n {
		t.Fatalf("half way, %d of %d flights left", len(half), n)
	}
	for _, f := range half {
		if math.Abs(f.T-0.5) > 1e-9 {
			t.Errorf("a delivered message half way through its flight is at %g", f.T)
		}
	}
	if !a.Active(1000 + FlightMs/2) {
		t.Error("flights under way, but the animator asks for no frame")
	}
	a.Observe(&later, 1000+FlightMs)
	if got := a.Flights(later.TimeMs, 1000+FlightMs, nil); len(got) != 0 || a.Active(1000+FlightMs) {
		t.Errorf("after FlightMs %d flights are left", len(got))
	}
	// Drawn: a dot of messageDot units in the most visible colour, outlined.
	a.Observe(&s, 5000)
	l := Compute(&s, Rect{0, 0, 960, 600})
	wall := 5000 + FlightMs*0.3
	fl := a.Flights(s.TimeMs, wall, nil)
	img := render(Frame{Snap: &s, Layout: l, Speed: 1, Anim: &a, WallMs: wall}, 1)
	seen := 0
	for _, f := range fl {
		p, _ := l.Producer(f.Producer)
		cell, ok := l.Cell(f.Queue)
		if !ok || f.T >= 1 {
			continue
		}
		qx, qy := cell.Center()
		x, y := lerp(p.X+p.W/2, qx, f.T), lerp(p.Bottom(), qy, f.T)
		want := toRGBA(Bright)
		inked := 0
		// 6 by 6 units around its centre, at least: 9 CSS px in presenter mode.
		for dy := -3.0; dy < 3; dy++ {
			for dx := -3.0; dx < 3; dx++ {
				if img.RGBAAt(int(x+dx), int(y+dy)) == want {
					inked++
				}
			}
		}
		if f.Late || f.Resend {
			continue
		}
		if inked == 36 {
			seen++
		}
	}
	if seen == 0 {
		t.Errorf("no message dot 6 units wide is drawn where its flight is (%d flights)", len(fl))
	}
	// A send still on its way moves as the simulation has it.
	slow := cluster.Snapshot{TimeMs: 1000, Sends: []cluster.SendSample{{Producer: "p1", Queue: "broker-a:0", SentAt: 0, ArriveAt: 10000}}}
	var b Animator
	b.Observe(&slow, 0)
	if got := b.Flights(slow.TimeMs, FlightMs, nil); len(got) != 1 || math.Abs(got[0].T-0.1) > 1e-9 {
		t.Errorf("a send a tenth of its way: %+v", got)
	}
	// A reset, reduced motion.
	b.Observe(&cluster.Snapshot{}, FlightMs)
	if got := b.Flights(0, FlightMs, nil); len(got) != 0 {
		t.Errorf("after a reset %d flights are left", len(got))
	}
	b.Reduced = true
	b.Observe(&slow, 0)
	if got := b.Flights(slow.TimeMs, 1, nil); len(got) != 0 {
		t.Errorf("reduced motion: %d flights", len(got))
	}
	// Never more than MaxMessages.
	many := cluster.Snapshot{TimeMs: 1}
	for i := range 3 * MaxMessages {
		many.Sends = append(many.Sends, cluster.SendSample{Producer: "p1", Queue: "broker-a:0", SentAt: int64(-i), ArriveAt: 5})
	}
	var c Animator
	c.Observe(&many, 0)
	if got := c.Flights(1, 0, nil); len(got) != MaxMessages {
		t.Errorf("%d flights for %d sends; want %d", len(got), len(many.Sends), MaxMessages)
	}
}
