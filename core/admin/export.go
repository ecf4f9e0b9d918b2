package admin

import (
	"errors"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// Export is a report in the JSON form that `lbscope diagnose --json` prints and the page's
// lbscope.diagnose returns. Codes lists the findings' stable codes in order.
type Export struct {
	Codes       []string      `json:"codes"`
	Group       *Group        `json:"group"`
	Allocations []ExportAlloc `json:"allocations"`
	Queues      []QueueView   `json:"queues"`
	Findings    []Finding     `json:"findings"`
	Sections    []Section     `json:"sections"`
	Notes       []Note        `json:"notes"`
	Inputs      []InputInfo   `json:"inputs"`
	History     *History      `json:"history,omitempty"` // the rebalance history, when logs were read
	// What the pastes say beyond the group diagnosed: the groups of a consumer list and the
	// rows of a broker's STATUS or CONFIG table (the Dashboard's pages).
	Summaries    []GroupSummary `json:"groupSummaries,omitempty"`
	BrokerValues []Setting      `json:"brokerValues,omitempty"`
}

// ExportAlloc is one topic's expected allocation, in the form of `lbscope allocate --json`.
type ExportAlloc struct {
	Topic     string           `json:"topic"`
	Strategy  string           `json:"strategy"`
	ClientIDs []string         `json:"clientIds"`
	Queues    []string         `json:"queues"`
	Consumers []ExportConsumer `json:"consumers"`
	Spread    int              `json:"spread"`
	Idle      []string         `json:"idle"`
	Orphans   []string         `json:"orphans"`
	Shared    []string         `json:"shared"`
	Note      string           `json:"note,omitempty"`
	Clients   string           `json:"clients,omitempty"`
}

// ExportConsumer is one member's expected queues.
type ExportConsumer struct {
	ClientID string   `json:"clientId"`
	Queues   []string `json:"queues"`
	Count    int      `json:"count"`
	Error    string   `json:"error,omitempty"`
}

// Export returns the report's JSON form.
func (rep *Report) Export() Export {
	out := Export{Codes: []string{}, Group: rep.Group, Allocations: []ExportAlloc{}, Queues: rep.Queues, Findings: rep.Findings,
		Sections: rep.Read.Sections, Notes: rep.Read.Notes, Inputs: rep.Read.Inputs, History: rep.History,
		Summaries: rep.Read.Summaries, BrokerValues: rep.Read.BrokerValues}
	for _, f := range rep.Findings {
		out.Codes = append(out.Codes, f.Code)
	}
	for _, a := range rep.Allocations {
		ea := ExportAlloc{Topic: a.Topic, Strategy: rep.Group.Strategy, ClientIDs: a.CidAll, Queues: shortList(a.MQAll),
			Spread: a.View.Spread, Idle: orEmpty(a.View.Idle), Orphans: shortList(a.Orphans), Shared: shortList(a.Shared),
			Note: a.Note, Clients: a.Clients, Consumers: []ExportConsumer{}}
		for _, as := range a.View.Assignments {
			c := ExportConsumer{ClientID: as.ClientID, Queues: shortList(as.Queues), Count: len(as.Queues)}
			if as.Err != nil {
				var je *allocate.Error
				if errors.As(as.Err, &je) {
					c.Error = je.Java()
				} else {
					c.Error = as.Err.Error()
				}
			}
			ea.Consumers = append(ea.Consumers, c)
		}
		out.Allocations = append(out.Allocations, ea)
	}
	return out
}

func shortList(qs []route.MessageQueue) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Short()
	}
	return out
}
