package allocate

import (
	"slices"

	"github.com/lbscope/lbscope/core/route"
)

// Report is what a strategy does to a group when every member runs it (Check): who pulls
// what, the queues pulled twice or by nobody, the spread, and how many queues it moves
// against AVG when one member leaves and when one joins.
type Report struct {
	Strategy string         `json:"strategy"`
	Members  []MemberReport `json:"members"`
	Doubled  []DoubledQueue `json:"doubled"`  // pulled by more than one member
	Orphaned []string       `json:"orphaned"` // pulled by nobody
	Exact    bool           `json:"exact"`    // every queue pulled exactly once, no member failing
	Spread   SpreadReport   `json:"spread"`
	Kill     *ChangeReport  `json:"kill,omitempty"` // the last member leaves (none with one member)
	Join     *ChangeReport  `json:"join,omitempty"` // a new member joins
	Queues   int            `json:"queues"`
}

// MemberReport is one member's result: its queues, or the error its call ended in.
type MemberReport struct {
	ID     string   `json:"id"`
	Queues []string `json:"queues"`
	Error  string   `json:"error,omitempty"`
}

// DoubledQueue is a queue and the members that pull it.
type DoubledQueue struct {
	Queue  string   `json:"queue"`
	Owners []string `json:"owners"`
}

// SpreadReport is the fewest and the most queues a member pulls.
type SpreadReport struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// ChangeReport is a membership change: who, how many queues changed hands under the strategy
// and under AVG (a queue that only loses the member who left counts too: it must move), and
// what the strategy leaves doubled and orphaned afterwards.
type ChangeReport struct {
	Member   string `json:"member"`
	Moves    int    `json:"moves"`
	AVGMoves int    `json:"avgMoves"`
	Doubled  int    `json:"doubled"`
	Orphaned int    `json:"orphaned"`
}

// Check runs s as every member of cidAll would, on mqAll and cidAll sorted as RebalanceImpl
// sorts them, and then with the last member gone and with joiner added. A strategy that reads
// a view gets view(member, cidAll) for each member (nil: a view without attributes or
// metrics), so that members who read different numbers disagree as they would in the run.
func Check(s Strategy, group string, mqAll []route.MessageQueue, cidAll []string, joiner string, view func(member string, cidAll []string) Viewpoint) Report {
	mq, ids := slices.Clone(mqAll), slices.Clone(cidAll)
	route.SortQueues(mq)
	route.SortClientIDs(ids)
	before := owners(s, group, mq, ids, view)
	r := report(s.Name(), mq, ids, before)
	avg := Averagely{}
	avgBefore := owners(avg, group, mq, ids, nil)
	change := func(member string, after []string) *ChangeReport {
		now := owners(s, group, mq, after, view)
		avgNow := owners(avg, group, mq, after, nil)
		c := &ChangeReport{Member: member, Moves: moved(mq, before.of, now.of), AVGMoves: moved(mq, avgBefore.of, avgNow.of)}
		for _, q := range mq {
			switch len(now.of[q]) {
			case 0:
				c.Orphaned++
			case 1:
			default:
				c.Doubled++
			}
		}
		return c
	}
	if len(ids) > 1 {
		r.Kill = change(ids[len(ids)-1], ids[:len(ids)-1])
	}
	if joiner != "" && !slices.Contains(ids, joiner) {
		after := append(slices.Clone(ids), joiner)
		route.SortClientIDs(after)
		r.Join = change(joiner, after)
	}
	return r
}

// ownership is each queue's owners and each member's result.
type ownership struct {
	of  map[route.MessageQueue][]string
	got map[string][]route.MessageQueue
	err map[string]error
}

func owners(s Strategy, group string, mq []route.MessageQueue, ids []string, view func(string, []string) Viewpoint) ownership {
	o := ownership{of: map[route.MessageQueue][]string{}, got: map[string][]route.MessageQueue{}, err: map[string]error{}}
	var v View
	if vs, ok := s.(Viewer); ok && view != nil {
		var as []Assignment
		for _, id := range ids {
			if slices.ContainsFunc(as, func(a Assignment) bool { return a.ClientID == id }) {
				continue
			}
			qs, err := vs.AllocateView(group, id, mq, ids, view(id, ids))
			as = append(as, Assignment{ClientID: id, Queues: qs, Err: err})
		}
		v = NewView(s.Name(), as)
	} else {
		v = Group(s, group, mq, ids)
	}
	for _, a := range v.Assignments {
		if a.Err != nil {
			o.err[a.ClientID] = a.Err
			continue
		}
		o.got[a.ClientID] = a.Queues
		for _, q := range a.Queues {
			if !slices.Contains(o.of[q], a.ClientID) {
				o.of[q] = append(o.of[q], a.ClientID)
			}
		}
	}
	return o
}

// moved counts the queues whose owners differ between two allocations.
func moved(mq []route.MessageQueue, before, after map[route.MessageQueue][]string) int {
	n := 0
	for _, q := range mq {
		if !slices.Equal(before[q], after[q]) {
			n++
		}
	}
	return n
}

func report(name string, mq []route.MessageQueue, ids []string, o ownership) Report {
	r := Report{Strategy: name, Members: []MemberReport{}, Doubled: []DoubledQueue{}, Orphaned: []string{}, Queues: len(mq)}
	first := true
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			continue
		}
		seen[id] = true
		m := MemberReport{ID: id, Queues: []string{}}
		if err, failed := o.err[id]; failed {
			m.Error = err.Error()
		} else {
			for _, q := range o.got[id] {
				m.Queues = append(m.Queues, q.Short())
			}
			n := len(o.got[id])
			if first || n < r.Spread.Min {
				r.Spread.Min = n
			}
			if first || n > r.Spread.Max {
				r.Spread.Max = n
			}
			first = false
		}
		r.Members = append(r.Members, m)
	}
	for _, q := range mq {
		switch owners := o.of[q]; {
		case len(owners) == 0:
			r.Orphaned = append(r.Orphaned, q.Short())
		case len(owners) > 1:
			r.Doubled = append(r.Doubled, DoubledQueue{Queue: q.Short(), Owners: owners})
		}
	}
	r.Exact = len(r.Doubled) == 0 && len(r.Orphaned) == 0 && len(o.err) == 0
	return r
}
