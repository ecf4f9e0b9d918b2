package session

import (
	"fmt"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// Work bounds. The session runs on the page's thread, so no call may hold it long: every
// piece of work is estimated first (scenario.WorkSpan, in its units) and held to MaxCallWork,
// about 100 ms of a browser on a slow machine (0.5 µs a unit in headless Chromium on the
// 2-core CI machine).
//
//   - A load (a scenario, a preset, a link) whose cluster costs more than that to build and
//     settle, or whose virtual second costs more than that, is refused with the numbers: such
//     a cluster cannot be watched at 1× (run it on the command line, lbscope sim).
//   - A frame advances at most as much virtual time as fits (a heavy cluster at 100× runs
//     slower than asked rather than freezing the page).
//   - A share link's moment, a seek and a step that do not fit are reached in slices, one per
//     frame, paused and quiet: State.Reaching says where to and how far it got. Commands
//     sent meanwhile wait for the moment, except load, reset and seek, which stop the way
//     there where it is and run at once.

// MaxCallWork is the most work one call or frame does, in scenario.WorkSpan's units.
const MaxCallWork = 200_000

// MaxSliceWork is the most work of one slice on the way to a moment (and of a comparison's,
// wasm/api): half of MaxCallWork, leaving the frame that runs it room to draw, so that with
// the engine's start (below) no frame of the way holds the page near 100 ms.
const MaxSliceWork = MaxCallWork / 2

// Reaching is a moment the session is on its way to, a slice per frame.
type Reaching struct {
	FromMs int64 `json:"fromMs"`
	ToMs   int64 `json:"toMs"`
	AtMs   int64 `json:"atMs"`
	// Units is the estimated work of the whole way (scenario.WorkSpan), for a progress bar.
	Units int64 `json:"units"`
}

type reach struct {
	Reaching
	done  cluster.Event // what to say on arrival (a seek, an opened link); none when Cause is ""
	quiet bool          // the way is not told (a seek, a link); a step's is
	held  []Result      // the command that asked for the moment answers on arrival
}

// checkLoad refuses a scenario whose start or whose virtual second does not fit in a call.
func checkLoad(sc scenario.Scenario) error {
	w := scenario.WorkSpan(sc, 0, 1000, false)
	start := w.Build + w.Round
	switch {
	case start > MaxCallWork:
		return fmt.Errorf("this cluster (%s, %s, %s) is about %s of work to start; the page does at most %s at a time (about 100 ms): take fewer consumers or brokers, or run it on the command line (lbscope sim)",
			plural(len(sc.Brokers), "broker"), plural(queues(sc), "queue"), plural(len(sc.Consumers), "consumer"),
			scenario.Units(start), scenario.Units(MaxCallWork))
	case w.PerSecond > MaxCallWork:
		return fmt.Errorf("one virtual second of this scenario is about %s of work; the page does at most %s at a time (about 100 ms), so it could not play: lengthen its intervals, lower its rates, or run it on the command line (lbscope sim)",
			scenario.Units(w.PerSecond), scenario.Units(MaxCallWork))
	}
	return nil
}

func queues(sc scenario.Scenario) int {
	n := 0
	for _, b := range sc.Brokers {
		n += b.Queues
	}
	return n
}

// fitFrom is the furthest moment, at most to, that a run from now fits in MaxCallWork: at
// least one millisecond past now, so that every slice moves on.
func (s *Session) fitFrom(now, to int64) int64 { return fitIn(s.timeline(), now, to) }

func fitIn(tl scenario.Scenario, now, to int64) int64 { return fitBudget(tl, now, to, MaxCallWork) }

// fitBudget is fitIn for a budget of units.
func fitBudget(tl scenario.Scenario, now, to, budget int64) int64 {
	w := scenario.WorkSpan(tl, now, to, false)
	if w.Units <= budget {
		return to
	}
	end := now + max(w.Fits(budget), 1)
	// The timeline's actions in the span cost too: halve until the slice fits.
	for end-now > 1 && w.Within(tl, now, end) > budget {
		end = now + (end-now)/2
	}
	return end
}

// sliceFrom is the end of the next slice on the way from now to to: all of it when it fits in
// a call, else MaxSliceWork's worth — and the cluster's first virtual second alone, for it
// holds the start (every consumer registering, then the rounds of rebalancing that settle
// the group, a burst that scenario.WorkSpan does not count from a moment past 00:00).
func (s *Session) sliceFrom(now, to int64) int64 {
	tl := s.timeline()
	if scenario.WorkSpan(tl, now, to, false).Units <= MaxCallWork {
		return to
	}
	if now < 1000 {
		return min(to, 1000)
	}
	return fitBudget(tl, now, to, MaxSliceWork)
}

// Estimate is the work of running the published state on to virtual time ms, in
// scenario.WorkSpan's units, and the moment from now that one frame reaches (MaxCallWork): what
// the page can show before a seek or a step. Safe from any goroutine.
func (s *Session) Estimate(ms int64) (units, fitsMs int64) {
	s.mu.Lock()
	base, rec, next, now := s.pubScn, s.pubRecord, s.pubNext, s.last.TimeMs
	s.mu.Unlock()
	if ms <= now {
		return 0, ms
	}
	tl := base
	tl.Timeline = append(append([]scenario.Step{}, rec...), base.Timeline[next:]...)
	return scenario.WorkSpan(tl, now, ms, false).Units, fitIn(tl, now, ms)
}

// reachTo moves to virtual time to, quiet: at once when it fits, else a slice per later
// frame (not this one, which has loaded a link or applied a command already); done is said
// on arrival.
func (s *Session) reachTo(to int64, done cluster.Event, quiet bool) {
	now := s.c.Now()
	units := scenario.WorkSpan(s.timeline(), now, to, false).Units
	s.reaching = &reach{
		Reaching: Reaching{FromMs: now, ToMs: to, AtMs: now, Units: units},
		done:     done, quiet: quiet,
	}
	if units <= MaxCallWork {
		s.reachSlice()
	} else {
		s.dirty = true
	}
}

// reachSlice runs one slice of the way; on arrival it says the reach's event.
func (s *Session) reachSlice() {
	r := s.reaching
	s.quiet = r.quiet
	end := s.sliceFrom(s.c.Now(), r.ToMs)
	arrived := s.advanceSome(end) && end >= r.ToMs
	s.quiet = false
	r.AtMs = s.c.Now()
	s.dirty = true
	if arrived {
		s.reaching = nil
		s.released = append(s.released, r.held...)
		if r.done.Cause != "" {
			s.say(r.done)
		}
	}
}

// stopReaching ends the way to a moment where it is, as load, reset and seek do; the command
// that asked for it answers now.
func (s *Session) stopReaching() {
	if s.reaching != nil {
		s.released = append(s.released, s.reaching.held...)
	}
	s.reaching = nil
}
