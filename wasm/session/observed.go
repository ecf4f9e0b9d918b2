package session

import (
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// A scenario's history read from logs (scenario.Observed) plays beside its simulation: each
// published snapshot's queues carry their logged owners at the snapshot's moment
// (QueueView.Observed), the state says what is compared, and the timeline carries the
// logged rounds. Without a history nothing of this runs and nothing is published.

// ObservedInfo is what the state says of the loaded scenario's history read from logs.
type ObservedInfo struct {
	Source   string `json:"source"`
	Zone     string `json:"zone"`
	Start    string `json:"start"`
	Holdings int    `json:"holdings"`
	Rounds   int    `json:"rounds"`
}

// observedState is the session's index of the history: for the stretch of time that was
// published last, in which no logged holding begins or ends, each queue's logged owners.
type observedState struct {
	o      *scenario.Observed
	info   *ObservedInfo
	rounds []Action // the logged rounds, in the history's order: the scrubber's marks (shared, read-only)
	from   int64    // the stretch owners covers: [from, to)
	to     int64
	owners map[string][]string // shared by the snapshots published in the stretch
}

// nobody is the logged owners of a queue the logs show nobody holding (shared, read-only).
var nobody = []string{}

// newObserved indexes o; nil for none.
func newObserved(o *scenario.Observed) *observedState {
	if o == nil {
		return nil
	}
	st := &observedState{o: o, from: 1, to: 0,
		info: &ObservedInfo{Source: o.Source, Zone: o.Zone, Start: o.Start, Holdings: len(o.Holdings), Rounds: len(o.Rounds)}}
	st.rounds = make([]Action, 0, len(o.Rounds))
	for _, r := range o.Rounds {
		text := r.Client
		if r.Ref != "" {
			text += " (" + r.Ref + ")"
		}
		st.rounds = append(st.rounds, Action{T: r.At.Ms(), Text: text})
	}
	return st
}

// fill sets each queue's logged owners at the snapshot's moment.
func (st *observedState) fill(snap *cluster.Snapshot) {
	if t := snap.TimeMs; t < st.from || t >= st.to {
		st.from, st.to = st.o.Stretch(t)
		st.owners = st.o.OwnersAt(t)
	}
	for i := range snap.Queues {
		q := &snap.Queues[i]
		if ids, ok := st.owners[q.Queue]; ok {
			q.Observed = ids
		} else {
			q.Observed = nobody
		}
	}
}

// Observed is the loaded scenario's history read from logs, nil without one: what the
// canvas's hover card quotes. Read-only. Safe from any goroutine.
func (s *Session) Observed() *scenario.Observed {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pubScn.Observed
}
