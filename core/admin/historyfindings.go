package admin

import (
	"slices"
	"sort"
	"strconv"

	"github.com/lbscope/lbscope/core/route"
)

// Finding codes of the history.
const (
	CodeRebalanceFlapping = "rebalance-flapping"
	CodeViewsDisagree     = "views-disagree"
	CodeDoubleOwnedWindow = "double-owned-window"
	CodeOrphanedWindow    = "orphaned-window"
	CodeRebalanceStorm    = "rebalance-storm"
	CodeAllocationDiffers = "allocation-differs"
)

// dur writes a length of time: "20 ms", "1.5 s", "3 min 20 s".
func dur(ms int64) string {
	switch {
	case ms < 1000:
		return strconv.FormatInt(ms, 10) + " ms"
	case ms < 60000:
		return strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64) + " s"
	}
	return strconv.FormatInt(ms/60000, 10) + " min " + strconv.FormatInt(ms%60000/1000, 10) + " s"
}

func (h *History) roundEvidence(r HistoryRound) Evidence {
	return evidence(r.Ref, "evidence.round", r.Member, h.Stamp(r.At), r.MQAllSize, r.CidAllSize, route.Compact(r.Result))
}

// findings names what the history shows, each finding made only from the members whose lines
// cover what it needs.
func (h *History) findings() []Finding {
	var out []Finding
	out = append(out, h.flapping()...)
	out = append(out, h.viewsDisagree()...)
	out = append(out, h.windows()...)
	out = append(out, h.storm()...)
	checked, members, strategy := 0, map[string]bool{}, ""
	var differs []Evidence
	for ri := range h.Rounds {
		r := &h.Rounds[ri]
		if r.Agrees == nil {
			continue
		}
		checked++
		members[r.Member] = true
		if strategy == "" {
			strategy = r.strategy
		}
		if !*r.Agrees && len(differs) < 8 {
			differs = append(differs, evidence(r.Ref, "evidence.differs", r.Member, h.Stamp(r.At), route.Compact(r.Result), route.Compact(r.Expected), r.ExpectedFrom))
		}
	}
	if len(differs) > 0 {
		out = append(out, worded(seeing(Finding{Code: CodeAllocationDiffers, Severity: "problem", Evidence: differs}, say("sees.differs")),
			"allocation-differs", len(differs), strategy))
	}
	problems := false
	for _, f := range out {
		problems = problems || f.Severity == "problem"
	}
	if checked > 0 && !problems {
		out = append(out, worded(seeing(Finding{Code: CodeAllocationOK, Severity: "ok",
			Evidence: []Evidence{evidence(h.Rounds[0].Ref, "evidence.checked", checked, len(members), strategy)}},
			say("sees.ok.history")), "allocation-ok.history", strategy))
	}
	return out
}

// flapping: a member that takes and gives up the same queue back and forth (flapChanges
// changes or more), with the period of its takes.
func (h *History) flapping() []Finding {
	type flap struct {
		queues  []route.MessageQueue
		changes int
		takes   []Interval
	}
	by := map[string]*flap{}
	var order []string
	for _, qh := range h.Queues {
		per := map[string][]Interval{}
		for _, iv := range qh.Held {
			per[iv.Member] = append(per[iv.Member], iv)
		}
		ids := make([]string, 0, len(per))
		for id := range per {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			ivs := per[id]
			n := 0
			for _, iv := range ivs {
				if iv.FromKnown {
					n++
				}
				if iv.ToKnown {
					n++
				}
			}
			if n < flapChanges {
				continue
			}
			f := by[id]
			if f == nil {
				f = &flap{}
				by[id] = f
				order = append(order, id)
			}
			f.queues = append(f.queues, qh.Queue)
			if n > f.changes {
				f.changes, f.takes = n, ivs
			}
		}
	}
	var out []Finding
	for _, id := range order {
		f := by[id]
		period := int64(0)
		if len(f.takes) > 1 {
			period = (f.takes[len(f.takes)-1].From - f.takes[0].From) / int64(len(f.takes)-1)
		}
		var ev []Evidence
		for _, iv := range f.takes {
			if len(ev) >= 8 {
				break
			}
			if iv.FromKnown {
				ev = append(ev, evidence(iv.FromRef, "evidence.took", id, route.Compact(f.queues[:1]), h.Stamp(iv.From)))
			}
			if iv.ToKnown {
				ev = append(ev, evidence(iv.ToRef, "evidence.gave-up", id, route.Compact(f.queues[:1]), h.Stamp(iv.To)))
			}
		}
		out = append(out, worded(seeing(Finding{Code: CodeRebalanceFlapping, Severity: "problem", Evidence: ev}, say("sees.flapping")),
			"rebalance-flapping", id, route.Compact(f.queues), f.changes, dur(period)))
	}
	return out
}

// viewsDisagree: two members' rounds at the same moment (within sameMoment) that counted
// different consumers, neither correcting itself within that moment. Each round is held
// against the latest round of every other member, so the work is rounds × members.
func (h *History) viewsDisagree() []Finding {
	var out []Finding
	reported := map[[2]string]bool{}
	type key struct{ member, group, topic string }
	latest := map[key]int{}
	var members []string
	byMember := map[string][]int{}
	for i, r := range h.Rounds {
		byMember[r.Member] = append(byMember[r.Member], i)
	}
	for i, b := range h.Rounds {
		if b.CidAllSize < 0 || h.relative(b.Member) {
			continue
		}
		for _, m := range members {
			j, ok := latest[key{m, b.Group, b.Topic}]
			if !ok || m == b.Member {
				continue
			}
			a := h.Rounds[j]
			pair := [2]string{min(a.Member, b.Member), max(a.Member, b.Member)}
			if b.At-a.At > sameMoment || a.CidAllSize == b.CidAllSize || reported[pair] ||
				h.matches(byMember[a.Member], b.CidAllSize, a.At, b.At) || h.matches(byMember[b.Member], a.CidAllSize, a.At, b.At) {
				continue
			}
			reported[pair] = true
			out = append(out, worded(seeing(Finding{Code: CodeViewsDisagree, Severity: "problem",
				Evidence: []Evidence{h.roundEvidence(a), h.roundEvidence(b)}}, say("sees.views", dur(sameMoment))),
				"views-disagree", a.Member, a.CidAllSize, b.Member, b.CidAllSize, h.Stamp(a.At)))
		}
		k := key{b.Member, b.Group, b.Topic}
		if _, ok := latest[k]; !ok && !slices.Contains(members, b.Member) {
			members = append(members, b.Member)
		}
		latest[k] = i
	}
	return out
}

func (h *History) relative(id string) bool {
	m := h.member(id)
	return m == nil || m.Relative
}

// matches says whether one of a member's rounds (idx, in time order) counted n consumers near
// [from, to]; it looks at a bounded number of rounds.
func (h *History) matches(idx []int, n int, from, to int64) bool {
	k := sort.Search(len(idx), func(i int) bool { return h.Rounds[idx[i]].At >= from-sameMoment })
	for steps := 0; k < len(idx) && steps < 64; k, steps = k+1, steps+1 {
		r := h.Rounds[idx[k]]
		if r.At > to+sameMoment {
			break
		}
		if r.CidAllSize == n {
			return true
		}
	}
	return false
}

// windows: spans in which two members held one queue (proven by both members' lines), and
// spans in which nobody held it (only where every member that could hold it has lines that
// cover the span).
func (h *History) windows() []Finding {
	type window struct {
		q        route.MessageQueue
		from, to int64
		refs     [2]Ref
		who      string
	}
	var double, orphan []window
	for _, qh := range h.Queues {
		ivs := qh.Held // by From: each is held against those not yet ended, one per member at most
		var active []Interval
		for _, b := range ivs {
			kept := active[:0]
			for _, a := range active {
				if provenEnd(a) > b.From {
					kept = append(kept, a)
				}
			}
			active = kept
			for _, a := range active {
				if a.Member == b.Member {
					continue
				}
				// Proven: from the later of the latest moments each may have started.
				from, to := max(a.From+a.fromPrec, b.From+b.fromPrec), min(provenEnd(a), provenEnd(b))
				if to > from {
					double = append(double, window{qh.Queue, from, to, [2]Ref{a.FromRef, b.FromRef}, a.Member + ", " + b.Member})
				}
			}
			active = append(active, b)
		}
		reach, reachKnown, prev := int64(0), false, Interval{}
		for i, iv := range ivs {
			if i > 0 && reachKnown && iv.FromKnown && iv.From > reach && h.covered(qh.Group, reach, iv) {
				orphan = append(orphan, window{qh.Queue, reach, iv.From, [2]Ref{prev.ToRef, iv.FromRef}, prev.Member + " → " + iv.Member})
			}
			end := iv.To
			known := iv.ToKnown || iv.ToBy != ""
			if i == 0 || end > reach {
				reach, reachKnown, prev = end, known, iv
			}
		}
	}
	for _, l := range [][]window{double, orphan} {
		sort.SliceStable(l, func(i, j int) bool { return l[i].from < l[j].from })
	}
	var out []Finding
	for _, w := range []struct {
		code, variant, sees string
		list                []window
		key                 string
	}{
		{CodeDoubleOwnedWindow, "double-owned-window", "sees.double-window", double, "evidence.double-window"},
		{CodeOrphanedWindow, "orphaned-window", "sees.orphan-window", orphan, "evidence.orphan-window"},
	} {
		if len(w.list) == 0 {
			continue
		}
		longest := w.list[0]
		var ev []Evidence
		for _, x := range w.list {
			if x.to-x.from > longest.to-longest.from {
				longest = x
			}
			if len(ev) < 8 {
				ev = append(ev, evidence(x.refs[1], w.key, x.q.Short(), h.Stamp(x.from), dur(x.to-x.from), x.who))
			}
		}
		out = append(out, worded(seeing(Finding{Code: w.code, Severity: "warning", Evidence: ev}, say(w.sees)),
			w.variant, len(w.list), dur(longest.to-longest.from), longest.q.Short(), h.Stamp(longest.from)))
	}
	return out
}

// provenEnd is the last moment lines prove the interval held: its end when a line ends it,
// else the last line that shows it.
func provenEnd(iv Interval) int64 {
	if iv.ToKnown {
		return iv.To
	}
	return iv.last
}

// covered says whether every member that could hold a queue of group between from and the
// start of next has lines covering that span: none of the members whose logs were read is
// unaccounted for, and the new owner's round counted no more consumers than they.
func (h *History) covered(group string, from int64, next Interval) bool {
	n := 0
	for _, m := range h.Members {
		if m.Group != "" && group != "" && m.Group != group {
			continue
		}
		if m.Relative {
			return false
		}
		switch {
		case h.goneAt(m.ID, next.From):
			continue // gone before the window ends
		case m.First <= from && m.Last >= next.From:
			n++
		case m.First > next.From:
			continue // its log starts later
		default:
			return false
		}
	}
	if i, ok := h.byRef[next.FromRef]; ok {
		// The new owner's round says how many consumers there were: all of them must be
		// here; a round that does not say (gRPC, deltas only) proves nothing.
		r := h.Rounds[i]
		return r.CidAllSize >= 0 && r.CidAllSize <= n
	}
	return false
}

// storm: a member logging more than quietRounds rounds a minute for one topic that neither a
// membership or route change (the sizes it saw) nor a notification explains.
func (h *History) storm() []Finding {
	type key struct{ member, topic string }
	last := map[key]*HistoryRound{}
	unexplained := map[key][]*HistoryRound{}
	var keys []key
	for ri := range h.Rounds {
		r := &h.Rounds[ri]
		if h.relative(r.Member) || r.implicit && !r.HasResult && len(r.Added)+len(r.Removed) == 0 {
			continue
		}
		k := key{r.Member, r.Topic}
		p, seen := last[k]
		last[k] = r
		if !seen || p.CidAllSize != r.CidAllSize || p.MQAllSize != r.MQAllSize || r.Cause == "notification" {
			continue
		}
		if unexplained[k] == nil {
			keys = append(keys, k)
		}
		unexplained[k] = append(unexplained[k], r)
	}
	var members []string
	var ev []Evidence
	most := 0
	for _, k := range keys {
		rs := unexplained[k]
		best, at := 0, 0
		for i, j := 0, 0; j < len(rs); j++ {
			for rs[j].At-rs[i].At >= 60000 {
				i++
			}
			if j-i+1 > best {
				best, at = j-i+1, i
			}
		}
		if best <= quietRounds {
			continue
		}
		if !slices.Contains(members, k.member) {
			members = append(members, k.member)
		}
		most = max(most, best)
		ev = append(ev, evidence(rs[at].Ref, "evidence.storm", k.member, k.topic, best, h.Stamp(rs[at].At)))
	}
	if len(members) == 0 {
		return nil
	}
	return []Finding{worded(seeing(Finding{Code: CodeRebalanceStorm, Severity: "problem", Evidence: ev}, say("sees.storm", quietRounds)),
		"rebalance-storm", members, most, quietRounds)}
}
