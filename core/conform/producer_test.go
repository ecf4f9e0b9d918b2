package conform

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func readProducerVectors(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile("../../testdata/conformance/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestProducerVectorsPass(t *testing.T) {
	for _, tt := range []struct {
		file string
		run  func([]byte) (Result, error)
	}{{"select.json", runSelect}, {"fault.json", runFault}} {
		r, err := tt.run(readProducerVectors(t, tt.file))
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		if r.Failed != 0 || r.Passed == 0 {
			t.Errorf("%s: %d passed, %d failed: %+v", tt.file, r.Passed, r.Failed, r.Failures)
		}
	}
}

func TestProducerVectorsThroughRun(t *testing.T) {
	for file, kind := range map[string]string{"select.json": "select", "fault.json": "fault"} {
		r, err := Run(readProducerVectors(t, file))
		if err != nil || r.Kind != kind || r.Failed != 0 {
			t.Errorf("Run(%s) = kind %q, %d failed, %v; want kind %q, none failed", file, r.Kind, r.Failed, err, kind)
		}
	}
}

// mutate decodes a vector file, lets edit change it, and encodes it again.
func mutate(t *testing.T, data []byte, edit func(top map[string]any)) []byte {
	t.Helper()
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		t.Fatal(err)
	}
	edit(top)
	out, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func findCase(t *testing.T, list any, id string) map[string]any {
	t.Helper()
	for _, c := range list.([]any) {
		if m := c.(map[string]any); m["id"] == id {
			return m
		}
	}
	t.Fatalf("no case %q in the vectors", id)
	return nil
}

func steps(c map[string]any) []any { return c["steps"].([]any) }

func step(c map[string]any, i int) map[string]any { return steps(c)[i].(map[string]any) }

// The checker must be able to fail: each corrupted recording is reported under its id.
func TestSelectCheckerReportsCorruptedVectors(t *testing.T) {
	data := readProducerVectors(t, "select.json")
	tests := []struct {
		name, id string
		edit     func(c map[string]any)
		wantText string
	}{
		{"result", "strategy-enabled/broker-a-isolated/start=-2", func(c map[string]any) {
			step(c, 1)["result"].(map[string]any)["brokerName"] = "broker-a"
		}, "step 2 result broker-a:0"},
		{"storedAfter", "plain/8q/start=5", func(c map[string]any) { step(c, 3)["storedAfter"] = 99 }, "step 4 storedAfter 99"},
		{"resetValue", "retry-loop/enabled/start=2147483645", func(c map[string]any) {
			step(c, 2)["resetValue"] = 845173200 // stores 845173201: broker-b:1
		}, "step 3 result"},
		{"availableAfter", "strategy-enabled/all-unavailable-unreachable/start=0", func(c map[string]any) {
			step(c, 0)["availableAfter"] = true
		}, "step 1 broker-a available true"},
		{"outcome", "retry-loop/enabled/start=2147483645", func(c map[string]any) {
			step(c, 1)["outcome"] = "OK" // the loop ends after attempt 0
			step(c, 1)["updateIsolation"] = false
		}, "step 3 attempt 1"},
		{"error", "strategy-disabled/0q", func(c map[string]any) {
			delete(step(c, 0), "error")
			step(c, 0)["result"] = nil
		}, "step 1 result null"},
	}
	for _, tt := range tests {
		bad := mutate(t, data, func(top map[string]any) { tt.edit(findCase(t, top["cases"], tt.id)) })
		r, err := runSelect(bad)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if r.Failed != 1 || len(r.Failures) != 1 || r.Failures[0].ID != tt.id || !strings.Contains(r.Failures[0].Want, tt.wantText) {
			t.Errorf("%s: got %d failed %+v; want case %q failing with %q", tt.name, r.Failed, r.Failures, tt.id, tt.wantText)
		}
	}
}

func TestFaultCheckerReportsCorruptedVectors(t *testing.T) {
	data := readProducerVectors(t, "fault.json")
	bad := mutate(t, data, func(top map[string]any) {
		top["sweep"].([]any)[50].(map[string]any)["notAvailableDuration"] = 12345
		seq := findCase(t, top["sequences"], "strategy-immediate")
		step(seq, 6)["available"] = true // a fast success must not lift the isolation
	})
	r, err := runFault(bad)
	if err != nil {
		t.Fatal(err)
	}
	if r.Failed != 2 || len(r.Failures) != 2 || !strings.HasPrefix(r.Failures[0].ID, "sweep latency=") || r.Failures[1].ID != "strategy-immediate" {
		t.Errorf("got %d failed: %+v; want one sweep point and strategy-immediate", r.Failed, r.Failures)
	}
	bad = mutate(t, data, func(top map[string]any) { top["isolationDuration"] = 600000 })
	if r, _ := runFault(bad); r.Failed != 1 || r.Failures[0].ID != "defaults" {
		t.Errorf("a wrong header constant: got %+v; want the defaults case to fail", r.Failures)
	}
}

func TestProducerCheckersRejectMalformedFiles(t *testing.T) {
	sel := readProducerVectors(t, "select.json")
	flt := readProducerVectors(t, "fault.json")
	tests := []struct {
		name string
		run  func([]byte) (Result, error)
		data []byte
		want []string // all must appear in the error
	}{
		{"select missing steps", runSelect, mutate(t, sel, func(top map[string]any) {
			delete(findCase(t, top["cases"], "plain/8q/start=5"), "steps")
		}), []string{"plain/8q/start=5", "steps"}},
		{"select unknown op", runSelect, mutate(t, sel, func(top map[string]any) {
			step(findCase(t, top["cases"], "lastBroker/single-broker/start=0"), 1)["op"] = "pick"
		}), []string{"lastBroker/single-broker/start=0", "step 2", "op", "pick"}},
		{"select missing result", runSelect, mutate(t, sel, func(top map[string]any) {
			delete(step(findCase(t, top["cases"], "plain/8q/start=5"), 0), "result")
		}), []string{"plain/8q/start=5", "result"}},
		{"select missing storedBefore", runSelect, mutate(t, sel, func(top map[string]any) {
			delete(step(findCase(t, top["cases"], "plain/8q/start=5"), 0), "storedBefore")
		}), []string{"plain/8q/start=5", "storedBefore"}},
		{"select unknown outcome", runSelect, mutate(t, sel, func(top map[string]any) {
			step(findCase(t, top["cases"], "retry-loop/enabled/start=2147483645"), 1)["outcome"] = "TIMEOUT"
		}), []string{"retry-loop/enabled/start=2147483645", "outcome", "TIMEOUT"}},
		{"fault missing steps", runFault, mutate(t, flt, func(top map[string]any) {
			delete(findCase(t, top["sequences"], "strategy-immediate"), "steps")
		}), []string{"strategy-immediate", "steps"}},
		{"fault unknown op", runFault, mutate(t, flt, func(top map[string]any) {
			step(findCase(t, top["sequences"], "strategy-immediate"), 0)["op"] = "isolate"
		}), []string{"strategy-immediate", "op", "isolate"}},
		{"fault bad override", runFault, mutate(t, flt, func(top map[string]any) {
			findCase(t, top["sequences"], "strategy-immediate")["notAvailableDuration"] = []int{0, 0}
		}), []string{"strategy-immediate", "notAvailableDuration"}},
	}
	for _, tt := range tests {
		_, err := tt.run(tt.data)
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not name %q", tt.name, err, w)
			}
		}
	}
}

// A sequence with a scaled table shows expiry, non-shortening and extension (the shape of
// the full set's expiry-with-scaled-table).
func TestFaultSequenceWithScaledTable(t *testing.T) {
	data := []byte(`{"sequences": [{"id": "scaled", "sendLatencyFaultEnable": true,
		"notAvailableDuration": [0,0,200,500,600,1000,3000],
		"steps": [
		{"atMs": 0, "op": "update", "brokerName": "b", "currentLatency": 600, "isolation": false, "reachable": true},
		{"atMs": 50, "op": "check", "brokerName": "b", "available": false, "reachable": true},
		{"atMs": 100, "op": "update", "brokerName": "b", "currentLatency": 1, "isolation": false, "reachable": true},
		{"atMs": 150, "op": "check", "brokerName": "b", "available": false, "reachable": true},
		{"atMs": 350, "op": "check", "brokerName": "b", "available": true, "reachable": true},
		{"atMs": 400, "op": "update", "brokerName": "b", "currentLatency": 1, "isolation": true, "reachable": false},
		{"atMs": 1250, "op": "check", "brokerName": "b", "available": false, "reachable": false},
		{"atMs": 1550, "op": "check", "brokerName": "b", "available": true, "reachable": false}
		]}]}`)
	r, err := runFault(data)
	if err != nil || r.Passed != 1 || r.Failed != 0 {
		t.Errorf("got %+v, %v; want the sequence to pass", r, err)
	}
}
