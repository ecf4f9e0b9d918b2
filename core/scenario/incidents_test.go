package scenario

import (
	"strings"
	"testing"
)

// Each incident cites its report and, run, shows what the report describes.
func TestIncidentsReproduceTheirReports(t *testing.T) {
	inc := Incidents()
	for name, s := range inc {
		if !strings.HasPrefix(name, "incident-") || !strings.Contains(s.Description, "#") {
			t.Errorf("%s: a name incident-… and a cited issue, got %q", name, s.Description)
		}
		if _, ok := Presets()[name]; !ok {
			t.Errorf("%s is not a preset", name)
		}
	}
	run := func(name string) *Result {
		t.Helper()
		r, err := Run(inc[name], RunOptions{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, a := range r.Actions {
			if a.Error != "" {
				t.Fatalf("%s: step %+v refused: %s", name, a.Command, a.Error)
			}
		}
		return r
	}

	// The duplicate id leaves a block of queues to nobody while the broker lists it twice.
	r := run("incident-same-client-id")
	orphan := false
	for _, a := range r.Anomalies {
		if a.Kind == "orphan" && a.Start > 31000 && a.Start < 150000 && a.End-a.Start > 20000 {
			orphan = true
		}
	}
	if !orphan {
		t.Errorf("same client id: no lasting orphan while the id is listed twice; anomalies %+v", r.Anomalies)
	}

	// Six consumers, four queues: two hold nothing at the end.
	r = run("incident-more-consumers-than-queues")
	idle := 0
	for _, qs := range r.Final.Assignment {
		if len(qs) == 0 {
			idle++
		}
	}
	if idle != 2 {
		t.Errorf("more consumers than queues: %d idle; want 2 (%v)", idle, r.Final.Assignment)
	}

	// A broker restart: its queues leave the allocation and come back.
	r = run("incident-broker-restart")
	left, back := false, false
	for _, rb := range r.Rebalances {
		hasB := false
		for _, q := range rb.Queues {
			hasB = hasB || strings.HasPrefix(q, "broker-b:")
		}
		if rb.T > 60000 && rb.T < 150000 && !hasB {
			left = true
		}
		if rb.T > 150000 && hasB {
			back = true
		}
	}
	if !left || !back {
		t.Errorf("broker restart: queues left %v, came back %v; rebalances %+v", left, back, r.Rebalances)
	}
}
