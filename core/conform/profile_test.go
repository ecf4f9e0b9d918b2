package conform

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/profile/goclient"
)

var goRandom = Options{GoRandom: func(seed int64) goclient.IntnSource { return rand.New(rand.NewSource(seed)) }}

func TestProfileVectorsPass(t *testing.T) {
	for file, want := range map[string]struct{ kind, profile string }{
		"go/allocate-go.json":       {"allocate", "go-2.1.2"},
		"go/select-go.json":         {"select", "go-2.1.2"},
		"go/publish-go.json":        {"publish", "go-2.1.2"},
		"java49/fault-java49.json":  {"fault", "java-4.9"},
		"java49/select-java49.json": {"select", "java-4.9"},
		"allocate.json":             {"allocate", "java"},
	} {
		r, err := RunWith(readProducerVectors(t, file), goRandom)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if r.Kind != want.kind || r.Profile != want.profile || r.Failed != 0 || r.Passed == 0 {
			t.Errorf("%s: kind %s profile %s, %d passed, %d failed %+v; want %s/%s all passing", file, r.Kind, r.Profile, r.Passed, r.Failed, r.Failures, want.kind, want.profile)
		}
	}
}

// Each corrupted recording must fail under its own id: the checkers compare what the spec
// says, including nil against [] and the panics.
func TestProfileCheckersReportCorruptedVectors(t *testing.T) {
	tests := []struct {
		file, list, id string
		edit           func(c map[string]any)
		wantText       string
	}{
		{"go/allocate-go.json", "cases", "GO/AVG#3", func(c map[string]any) { c["result"] = []any{} }, "result []"},
		{"go/allocate-go.json", "cases", "GO/MACHINE_ROOM#47", func(c map[string]any) {
			c["error"] = "panic: runtime error: index out of range [5] with length 4"
		}, "[5] with length 4"},
		{"go/allocate-go.json", "cases", "GO/CONSISTENT_HASH#634", func(c map[string]any) {
			c["sortedCidAll"] = reverse(c["sortedCidAll"].([]any))
		}, "sortedCidAll"},
		{"go/publish-go.json", "cases", "routeAlreadyCached/13-brokers-perm-and-master-gaps/44", func(c map[string]any) {
			c["path"] = "firstSend" // a second pass scrambles 13 entries differently
		}, ""},
		{"go/select-go.json", "cases", "retry-loop/SYNC/8q/start=unset", func(c map[string]any) {
			step(c, 2)["lastBrokerName"] = "broker-a" // v2.1.2's SYNC loop always passes ""
		}, `lastBrokerName "broker-a"`},
		{"go/select-go.json", "cases", "random/8q/seed=1", func(c map[string]any) { c["randSeed"] = 2 }, "step"},
		{"java49/select-java49.json", "cases", "strategy-enabled/all-isolated-4-round-robin/worst=0", func(c map[string]any) {
			c["worstStartStored"] = 1
		}, "step 5 strategy result"},
		{"java49/select-java49.json", "cases", "retry-loop/enabled/call-timeout/start=5", func(c map[string]any) {
			for _, s := range steps(c) {
				if m := s.(map[string]any); m["outcome"] == "CALL_TIMEOUT" {
					m["outcome"] = "OK"
				}
			}
		}, "call timeout false"},
		{"java49/fault-java49.json", "sequences", "expiry/exact-boundaries", func(c map[string]any) {
			step(c, 5)["isolation"] = false // 7 ms instead of 10 minutes
		}, "available"},
	}
	for _, tt := range tests {
		bad := mutateExact(t, readProducerVectors(t, tt.file), func(top map[string]any) { tt.edit(findCase(t, top[tt.list], tt.id)) })
		r, err := RunWith(bad, goRandom)
		if err != nil {
			t.Fatalf("%s %s: %v", tt.file, tt.id, err)
		}
		if r.Failed != 1 || r.Failures[0].ID != tt.id || !strings.Contains(r.Failures[0].Want, tt.wantText) {
			t.Errorf("%s: got %d failed %+v; want %q failing with %q", tt.file, r.Failed, r.Failures, tt.id, tt.wantText)
		}
	}
}

// mutateExact is mutate keeping every number as written (the 4.9 sweep has 64-bit values a
// float64 would round).
func mutateExact(t *testing.T, data []byte, edit func(top map[string]any)) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		t.Fatal(err)
	}
	edit(top)
	out, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func reverse(in []any) []any {
	out := make([]any, len(in))
	for i, v := range in {
		out[len(in)-1-i] = v
	}
	return out
}

// Vector files are input from anywhere: oversized parameters and unknown clients are clear
// errors, never a long computation or a crash.
func TestProfileCheckersRejectHostileFiles(t *testing.T) {
	alloc := readProducerVectors(t, "allocate.json")
	goAlloc := readProducerVectors(t, "go/allocate-go.json")
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"unknown client", mutate(t, goAlloc, func(top map[string]any) { top["client"] = "rocketmq-client-rust@0.1" }), "client"},
		{"huge virtual node count (Java)", mutate(t, alloc, func(top map[string]any) {
			top["cases"].([]any)[0].(map[string]any)["params"] = map[string]any{"virtualNodeCnt": 1 << 30}
			top["cases"].([]any)[0].(map[string]any)["strategy"] = "CONSISTENT_HASH"
		}), "virtualNodeCnt"},
		{"huge virtual node count (Go)", mutate(t, goAlloc, func(top map[string]any) {
			c := top["cases"].([]any)[0].(map[string]any)
			c["strategy"], c["params"] = "CONSISTENT_HASH", map[string]any{"virtualNodeCnt": 1001}
		}), "virtualNodeCnt 1001"},
		{"null currentCID (Go)", mutate(t, goAlloc, func(top map[string]any) {
			top["cases"].([]any)[0].(map[string]any)["currentCID"] = nil
		}), "currentCID"},
		{"huge write queue count", mutate(t, readProducerVectors(t, "go/publish-go.json"), func(top map[string]any) {
			c := top["cases"].([]any)[0].(map[string]any)
			c["route"].(map[string]any)["queueDatas"].([]any)[0].(map[string]any)["writeQueueNums"] = 2147483647
		}), "more than"},
		{"too large", []byte(`{"cases":[` + strings.Repeat(" ", MaxFileSize) + `]}`), "MiB"},
	}
	for _, tt := range tests {
		_, err := RunWith(tt.data, goRandom)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one naming %q", tt.name, err, tt.want)
		}
	}
	// Without a random source the seeded random cases fail instead of guessing.
	r, err := Run(readProducerVectors(t, "go/select-go.json"))
	if err != nil || r.Failed != 2 {
		t.Errorf("Run without a random source: %d failed, %v; want the 2 seeded cases failing", r.Failed, err)
	}
}

// Cases that each stay under their own bounds still share one budget per file.
func TestFileWorkIsBounded(t *testing.T) {
	var qs, steps []string
	for i := range 1000 {
		qs = append(qs, fmt.Sprintf(`{"topic":"T","brokerName":"b","queueId":%d}`, i))
	}
	for range 20000 {
		steps = append(steps, `{"op":"lastBroker","lastBrokerName":"b","storedBefore":null,"storedAfter":null,"result":null}`)
	}
	data := []byte(`{"cases":[{"id":"walks","queues":[` + strings.Join(qs, ",") + `],"startStored":0,"sendLatencyFaultEnable":false,"steps":[` + strings.Join(steps, ",") + `]}]}`)
	_, err := Run(data)
	if err == nil || !strings.Contains(err.Error(), "units of work") {
		t.Errorf("got %v, want the file's work budget named", err)
	}
}
