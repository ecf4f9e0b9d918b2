package scenario

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// A smoke test of Run on the engine: the small preset for 30 s gives a result that marshals,
// and two runs of one scenario give byte-identical results.
func TestRunSmallPresetIsDeterministic(t *testing.T) {
	s := Presets()["small"]
	s.Until = 30 * Second
	s.Timeline = []Step{
		step(10*Second, cluster.Command{Type: "killConsumer", ID: "c1"}),
		step(12*Second, cluster.Command{Type: "killConsumer", ID: "c99"}), // no such consumer
	}
	first, err := Run(s, RunOptions{Events: true})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	second, err := Run(s, RunOptions{Events: true})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if first.Digest() != second.Digest() {
		t.Errorf("two runs of one scenario differ:\n%s\n---\n%s", first.JSON(), second.JSON())
	}

	var back map[string]json.RawMessage
	if err := json.Unmarshal(first.JSON(), &back); err != nil {
		t.Fatalf("result JSON does not read back: %v", err)
	}
	for _, key := range []string{"seed", "until", "actions", "rebalances", "anomalies", "events", "final", "metrics"} {
		if _, ok := back[key]; !ok {
			t.Errorf("result JSON lacks %q", key)
		}
	}
	if first.Seed != 1 || first.Until != 30000 || first.Final.TimeMs != 30000 {
		t.Errorf("seed %d, until %d, final time %d; want 1, 30000, 30000", first.Seed, first.Until, first.Final.TimeMs)
	}
	if len(first.Actions) != 2 || first.Actions[0].T != 10000 || first.Actions[0].Error != "" || first.Actions[1].Error == "" {
		t.Errorf("actions = %+v; want killConsumer c1 at 10000 applied, then c99 refused with an error", first.Actions)
	}
	if len(first.Rebalances) == 0 || len(first.Events) == 0 {
		t.Errorf("%d rebalances, %d events; want some of each", len(first.Rebalances), len(first.Events))
	}
	if _, ok := first.Final.Assignment["c2"]; !ok {
		t.Errorf("final assignment %v lacks c2", first.Final.Assignment)
	}
	if !strings.Contains(string(first.JSON()), `"type": "killConsumer"`) {
		t.Errorf("actions are not flat in the JSON form:\n%s", first.JSON())
	}
}

func TestRunRejectsInvalidScenario(t *testing.T) {
	s := Presets()["small"]
	s.Brokers = nil
	if _, err := Run(s, RunOptions{}); err == nil || !strings.Contains(err.Error(), "brokers: none") {
		t.Errorf("Run(no brokers) error = %v; want brokers: none…", err)
	}
}
