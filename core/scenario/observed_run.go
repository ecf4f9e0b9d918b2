package scenario

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
)

// Disagreement is a stretch of time in which the logs and the simulation name different
// owners for some queues: the same two lists all along, for each of its queues.
type Disagreement struct {
	From      int64    `json:"from"`      // virtual ms
	To        int64    `json:"to"`        // virtual ms
	Queues    []string `json:"queues"`    // "broker-a:0" forms, in the snapshot's order
	Logged    []string `json:"logged"`    // who held them per the logs, sorted (none: nobody)
	Simulated []string `json:"simulated"` // who pulled them in the simulation, sorted (none: nobody)
}

// maxDisagreementLines bounds the windows ObservedText lists.
const maxDisagreementLines = 20

// Disagreements runs s and compares, at every moment, each queue's owners in the simulation
// with those of s.Observed; nil when s has no history. Exact to the millisecond: the
// simulation's owners are read after every engine event that told something (an ownership
// change always does: a rebalance that moved queues, an action) and after every timeline step.
func Disagreements(s Scenario) ([]Disagreement, error) {
	if s.Observed == nil {
		return nil, nil
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c, err := cluster.New(s.Config)
	if err != nil {
		return nil, err
	}
	type sample struct {
		t      int64
		queues []string            // the snapshot's queues, in order
		owners map[string][]string // their owners, sorted
	}
	var sims []sample
	take := func() {
		snap := c.Snapshot()
		sm := sample{t: c.Now(), owners: map[string][]string{}}
		for _, q := range snap.Queues {
			sm.queues = append(sm.queues, q.Queue)
			sm.owners[q.Queue] = slices.Sorted(slices.Values(q.Owners))
		}
		if n := len(sims); n > 0 && sims[n-1].t == sm.t {
			sims[n-1] = sm // the last word of an instant counts
			return
		}
		sims = append(sims, sm)
	}
	told := false
	c.SetObserver(func(cluster.Event) { told = true })
	run := func(to int64) {
		for !c.AdvanceSome(to, 1) || told {
			if told {
				told = false
				take()
			}
		}
	}
	take()
	for _, st := range s.Timeline {
		run(st.At.Ms())
		c.Apply(st.Command) // a refused step changes nothing, as in Run
		told = false
		take()
	}
	end := s.End().Ms()
	run(end)

	// Every moment either side changes, and the stretches between them.
	times := []int64{}
	for _, sm := range sims {
		times = append(times, sm.t)
	}
	for _, h := range s.Observed.Holdings {
		times = append(times, h.From.Ms())
		if h.To != nil {
			times = append(times, h.To.Ms())
		}
	}
	slices.Sort(times)
	times = slices.DeleteFunc(slices.Compact(times), func(t int64) bool { return t >= end })
	var out []Disagreement
	open := map[string]int{} // queue → its window in out, while it goes on
	k := 0
	for i, t := range times {
		for k+1 < len(sims) && sims[k+1].t <= t {
			k++
		}
		next := end
		if i+1 < len(times) {
			next = times[i+1]
		}
		sm, logged := sims[k], s.Observed.OwnersAt(t)
		still := map[string]int{}
		for _, q := range sm.queues {
			lg, sim := logged[q], sm.owners[q]
			if slices.Equal(lg, sim) {
				continue
			}
			if j, ok := open[q]; ok && slices.Equal(out[j].Logged, lg) && slices.Equal(out[j].Simulated, sim) && out[j].To == t {
				out[j].To = next
				still[q] = j
				continue
			}
			out = append(out, Disagreement{From: t, To: next, Queues: []string{q}, Logged: lg, Simulated: sim})
			still[q] = len(out) - 1
		}
		open = still
	}
	// The queues' windows, one per stretch and pair of lists.
	merged := out[:0]
	for _, d := range out {
		j := slices.IndexFunc(merged, func(m Disagreement) bool {
			return m.From == d.From && m.To == d.To && slices.Equal(m.Logged, d.Logged) && slices.Equal(m.Simulated, d.Simulated)
		})
		if j >= 0 {
			merged[j].Queues = append(merged[j].Queues, d.Queues...)
			continue
		}
		merged = append(merged, d)
	}
	slices.SortStableFunc(merged, func(a, b Disagreement) int { return int(a.From - b.From) })
	return merged, nil
}

// ObservedText is what the command line prints after a run of a scenario with a logged
// history: where the logs and the simulation disagree, a line per window; "" without one.
func ObservedText(s Scenario, ds []Disagreement) string {
	o := s.Observed
	if o == nil {
		return ""
	}
	var b strings.Builder
	head := "\nthe logs against the simulation"
	var about []string
	if o.Source != "" {
		about = append(about, o.Source)
	}
	if o.Start != "" {
		about = append(about, "00:00 is "+o.Start+" "+o.Zone)
	}
	if len(about) > 0 {
		head += " (" + strings.Join(about, "; ") + ")"
	}
	b.WriteString(head + "\n")
	if len(ds) == 0 {
		b.WriteString("  they agree: every queue had the owners the simulation gives it, all along\n")
		return b.String()
	}
	names := func(ids []string) string {
		if len(ids) == 0 {
			return "nobody"
		}
		return strings.Join(ids, ", ")
	}
	for i, d := range ds {
		if i == maxDisagreementLines {
			fmt.Fprintf(&b, "  … %d more\n", len(ds)-i)
			break
		}
		fmt.Fprintf(&b, "  %s–%s  %s  logs: %s · simulated: %s (%s)\n", Clock(d.From), Clock(d.To),
			compactShort(d.Queues, strings.Join(d.Queues, " ")), names(d.Logged), names(d.Simulated), msText(d.To-d.From))
	}
	return b.String()
}
