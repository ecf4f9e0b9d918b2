package admin

import (
	"maps"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// dashboardCaveats says, as notes on the lines that show them, what the Dashboard's cells do
// not mean (tables §10), wherever the pastes show the case: the consumer list's Quantity
// counts connections, so it exceeds the client ids when ids are shared or a client keeps
// several connections (§10.1); dashboard 2.0.0's consume detail lists the first broker's
// queues only, so its diffs need not add up to the list's Delay (§10.3); a broadcasting
// group's offsets live on its clients, so the broker-side Delay says nothing (§10.5). None of
// them is a finding: each says what the paste cannot tell.
func (rep *Report) dashboardCaveats() {
	g := rep.Group
	var list []GroupSummary
	for _, s := range rep.Read.Summaries {
		if s.Dashboard && g.Name != "" && sameGroup(s.Group, g.Name) {
			list = append(list, s)
		}
	}
	// The consume detail's queues of this group, and the ids its consumerClient names.
	var detail []Offset
	named := map[string]bool{}
	brokers := map[string]bool{}
	qs := slices.Collect(maps.Keys(g.Offsets))
	route.SortQueues(qs)
	for _, q := range qs {
		o := g.Offsets[q]
		if !o.Dashboard {
			continue
		}
		detail = append(detail, o)
		brokers[q.BrokerName] = true
		if o.Client != "" {
			named[o.Client] = true
		}
	}
	broadcasting := g.MessageModel == "BROADCASTING"
	for _, s := range list {
		broadcasting = broadcasting || s.Model == "BROADCASTING"
	}
	for _, s := range list {
		rep.quantity(s, named)
		if broadcasting {
			continue
		}
		if len(detail) == 0 || !s.HasDelay || len(brokers) != 1 {
			continue
		}
		var sum int64
		for _, o := range detail {
			sum += max(o.BrokerOffset-o.ConsumerOffset, 0)
		}
		if sum != s.DiffTotal {
			rep.note(s.Ref, "note.dash-delay", s.Group, s.DiffTotal, sum, detail[0].Queue.BrokerName)
		}
	}
	if broadcasting {
		switch {
		case len(list) > 0 && list[0].HasDelay:
			rep.note(list[0].Ref, "note.dash-broadcast", g.Name, list[0].DiffTotal)
		case len(detail) > 0:
			var sum int64
			for _, o := range detail {
				sum += max(o.BrokerOffset-o.ConsumerOffset, 0)
			}
			rep.note(detail[0].Ref, "note.dash-broadcast", g.Name, sum)
		}
	}
}

// quantity compares a consumer list row's Quantity, a count of connections, with the distinct
// client ids that the CLIENT dialog (one row per connection) or else the consume detail
// names (tables §10.1).
func (rep *Report) quantity(s GroupSummary, named map[string]bool) {
	g := rep.Group
	ids := map[string]bool{}
	for _, m := range g.Members {
		ids[m.ClientID] = true
	}
	switch {
	case g.Complete && len(g.Members) > 0 && s.Count > len(ids):
		rep.note(s.Ref, "note.dash-quantity", s.Group, s.Count, len(ids), len(g.Members))
	case len(g.Members) == 0 && len(named) > 0 && s.Count > len(named):
		rep.note(s.Ref, "note.dash-quantity.detail", s.Group, s.Count, len(named))
	}
}

// emptyCellsSDK says, of the queues the consume detail shows without a client, that members
// the Dashboard cannot ask leave those cells empty whoever holds them (tables §10.2): members
// of the Go, C++ or other non-Java remoting clients, and gRPC consumers (their retry topics).
func (rep *Report) emptyCellsSDK(unproven map[string]int) {
	g := rep.Group
	n := 0
	topic := ""
	for _, t := range g.Topics {
		if unproven[t.Name] > 0 {
			n += unproven[t.Name]
			if topic == "" {
				topic = t.Name
			}
		}
	}
	if n == 0 {
		return
	}
	var ids []string
	langs := map[string]bool{}
	var ref Ref
	for _, m := range g.Members {
		l := strings.ToUpper(m.Language)
		if l == "" || l == "JAVA" {
			continue
		}
		if len(ids) == 0 {
			ref = m.Ref
		}
		if !slices.Contains(ids, m.ClientID) {
			ids = append(ids, m.ClientID)
		}
		langs[l] = true
	}
	if len(ids) > 0 {
		rep.note(ref, "note.dash-empty-sdk", n, strings.Join(slices.Sorted(maps.Keys(langs)), "/"), len(ids), strings.Join(ids, ", "))
		return
	}
	if len(g.GRPCTopics) > 0 {
		for _, t := range g.Topics {
			if strings.HasPrefix(t.Name, "%RETRY%"+g.Name+"_") {
				ref = t.Ref
				break
			}
		}
		rep.note(ref, "note.dash-empty-grpc", n)
	}
}

// note adds a note of the diagnosis to the read's notes.
func (rep *Report) note(ref Ref, key string, args ...any) {
	rep.Read.Notes = append(rep.Read.Notes, noted(ref, say(key, args...)))
}
