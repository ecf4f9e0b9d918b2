package scenario

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
)

const example = `{"version": 1, "title": "A consumer is killed", "description": "c1 dies; c2 and c3 take its queues.",
 "seed": 42, "topic": "TopicTest", "group": "GroupTest",
 "brokers": [{"name": "broker-a", "queues": 4}], "consumers": [{"id": "c1"}, {"id": "c2"}, {"id": "c3"}],
 "producers": [{"id": "p1", "rate": 200}], "strategy": "AVG", "params": {},
 "messageModel": "CLUSTERING", "latencyFault": false, "faultTable": "current",
 "timing": {"rebalanceWaitInterval": 20000},
 "until": "6m",
 "timeline": [{"at": "60s", "type": "killConsumer", "id": "c1"},
              {"at": 90000, "type": "slowBroker", "broker": "broker-a", "latencyMs": 2000},
              {"at": "2m", "type": "setStrategy", "strategy": "CONSISTENT_HASH", "params": {"virtualNodeCnt": 20}}]}`

func intp(n int) *int { return &n }

func TestParseExample(t *testing.T) {
	s, err := Parse([]byte(example))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	want := Scenario{
		Version: 1, Title: "A consumer is killed", Description: "c1 dies; c2 and c3 take its queues.",
		Config: cluster.Config{
			Seed: 42, Topic: "TopicTest", Group: "GroupTest",
			Brokers:      []cluster.BrokerConfig{{Name: "broker-a", Queues: 4}},
			Consumers:    []cluster.ConsumerConfig{{ID: "c1"}, {ID: "c2"}, {ID: "c3"}},
			Producers:    []cluster.ProducerConfig{{ID: "p1", Rate: 200}},
			Strategy:     allocate.Named("AVG"),
			MessageModel: "CLUSTERING", FaultTable: "current",
			Timing: cluster.Timing{RebalanceWaitInterval: 20000},
		},
		Until: 6 * Minute,
		Timeline: []Step{
			{At: 60000, Command: cluster.Command{Type: "killConsumer", ID: "c1"}},
			{At: 90000, Command: cluster.Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: intp(2000)}},
			{At: 120000, Command: cluster.Command{Type: "setStrategy", Strategy: "CONSISTENT_HASH",
				Params: &allocate.Params{VirtualNodeCnt: intp(20)}}},
		},
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("Parse(example):\n got %+v\nwant %+v", s, want)
	}
}

func TestParseDefaultsUntil(t *testing.T) {
	s, err := Parse([]byte(`{"version": 1, "brokers": [{"name": "broker-a", "queues": 4}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Until != DefaultUntil {
		t.Errorf("until = %s; want %s", s.Until, DefaultUntil)
	}
}

// Marshal writes what Parse reads back, with durations in their short string form.
func TestMarshalRoundTrip(t *testing.T) {
	s, err := Parse([]byte(example))
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"until": "6m"`, `"at": "1m"`, `"at": "1m30s"`, `"version": 1`, `"type": "killConsumer"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("Marshal output lacks %s:\n%s", want, b)
		}
	}
	back, err := Parse(b)
	if err != nil {
		t.Fatalf("Parse(Marshal(s)): %v\n%s", err, b)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("round trip changed the scenario:\n got %+v\nwant %+v", back, s)
	}
}

// Every field of a step sits beside "at", and every field of the config beside "version":
// embedding stays flat only while cluster.Command and cluster.Config have no JSON methods.
func TestJSONIsFlat(t *testing.T) {
	b, _ := json.Marshal(Step{At: 1000, Command: cluster.Command{Type: "killConsumer", ID: "c1"}})
	if got, want := string(b), `{"at":"1s","type":"killConsumer","id":"c1"}`; got != want {
		t.Errorf("Step JSON = %s; want %s", got, want)
	}
	b, _ = json.Marshal(Scenario{Version: 1, Config: cluster.Config{Seed: 7}, Until: Minute})
	if got := string(b); !strings.HasPrefix(got, `{"version":1,"seed":7,`) || !strings.HasSuffix(got, `"until":"1m"}`) {
		t.Errorf(`Scenario JSON = %s; want {"version":1,"seed":7,…,"until":"1m"}`, got)
	}
}

func TestParseErrors(t *testing.T) {
	const brokers = `"brokers": [{"name": "broker-a", "queues": 4}]`
	for _, tc := range []struct{ name, in, want string }{
		{"not JSON", `{"version": 1,`, "scenario: not valid JSON"},
		{"not an object", `[1, 2]`, "scenario: got a JSON array; want an object"},
		{"nothing", ``, "scenario: empty; want a JSON object"},
		{"bad character", `{"version": 1 "x"}`, "scenario: not valid JSON at byte 15"},
		{"trailing data", `{"version": 1, ` + brokers + `} {}`, "scenario: unexpected data after the JSON object"},
		{"version missing", `{` + brokers + `}`, `version: missing; this LBScope reads "version": 1`},
		{"version null", `{"version": null, ` + brokers + `}`, `version: missing`},
		{"version zero", `{"version": 0, ` + brokers + `}`, `version: 0 is not a version this LBScope reads; want "version": 1`},
		{"version newer", `{"version": 3, ` + brokers + `}`, "scenario version 3 is newer than this LBScope understands (2)"},
		{"newer version beats unknown fields", `{"version": 3, "shards": 4}`, "scenario version 3 is newer than this LBScope understands (2)"},
		{"a format 2 field in a version 1 file", `{"version": 1, "topics": [{"name": "T"}], ` + brokers + `}`, `topics: a setting of scenario format 2; this file says "version": 1`},
		{"version negative", `{"version": -1, ` + brokers + `}`, "version: -1; want 1 or 2"},
		{"version as a string", `{"version": "1", ` + brokers + `}`, `version: "1"; want 1 or 2`},
		{"unknown top-level field", `{"version": 1, ` + brokers + `, "util": "5m"}`, `unknown field "util"; did you mean "until"?`},
		{"field in the wrong case", `{"version": 1, ` + brokers + `, "Seed": 4}`, `unknown field "Seed"; did you mean "seed"?`},
		{"unknown broker field", `{"version": 1, "brokers": [{"name": "broker-a", "queus": 4}]}`, `brokers[0]: unknown field "queus"; did you mean "queues"?`},
		{"unknown step field", `{"version": 1, ` + brokers + `, "timeline": [{"at": "1s", "type": "slowBroker", "broker": "broker-a", "latncyMs": 5}]}`,
			`timeline[0]: unknown field "latncyMs"; did you mean "latencyMs"?`},
		{"unknown timing field", `{"version": 1, ` + brokers + `, "timing": {"rebalanceInterval": 5}}`, `timing: unknown field "rebalanceInterval"`},
		{"unknown params field", `{"version": 1, ` + brokers + `, "params": {"virtualNodes": 5}}`, `params: unknown field "virtualNodes"`},
		{"unknown field far from any", `{"version": 1, ` + brokers + `, "zzzzzzzz": 5}`, `unknown field "zzzzzzzz"`},
		{"string for a number", `{"version": 1, "brokers": [{"name": "broker-a", "queues": "4"}]}`, `brokers[0].queues: got a JSON string; want a whole number`},
		{"fraction for an int", `{"version": 1, "brokers": [{"name": "broker-a", "queues": 4.5}]}`, `brokers[0].queues: 4.5; want a whole number that fits 64 bits`},
		{"number for a string", `{"version": 1, "brokers": [{"name": 7, "queues": 4}]}`, `brokers[0].name: got a JSON number; want a string`},
		{"object for an array", `{"version": 1, "brokers": {"name": "broker-a"}}`, `brokers: got a JSON object; want an array`},
		{"string for a bool", `{"version": 1, ` + brokers + `, "latencyFault": "yes"}`, `latencyFault: got a JSON string; want true or false`},
		{"bad duration", `{"version": 1, ` + brokers + `, "timeline": [{"at": "soon", "type": "killConsumer", "id": "c1"}]}`, `timeline[0].at: duration "soon" is not a duration`},
		{"until too long", `{"version": 1, ` + brokers + `, "until": "25h"}`, `until: duration 25h is outside 0s…24h`},
		{"negative until", `{"version": 1, ` + brokers + `, "until": -1}`, `until: duration -1ms is outside 0s…24h`},
		{"validation runs", `{"version": 1, "brokers": []}`, `brokers: none; a topic needs at least 1 broker`},
		{"strategy as a number", `{"version": 1, ` + brokers + `, "strategy": 3}`, `strategy: got a JSON number; want a strategy's name, or an object {"name", "source"}`},
		{"unknown strategy field", `{"version": 1, ` + brokers + `, "strategy": {"name": "MINE", "sorce": "x = 1"}}`, `strategy: unknown field "sorce"; did you mean "source"?`},
		{"source as a list", `{"version": 1, ` + brokers + `, "strategy": {"name": "MINE", "source": ["x"]}}`, `strategy.source: got a JSON array; want a string`},
		{"source's syntax", `{"version": 1, ` + brokers + `, "strategy": {"name": "MINE", "source": "def allocate(g, c, q, cs):\n  return [\n"}}`, `strategy.source: mine.star:3:1: syntax error`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.in))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse error = %v; want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseRejectsLargeInput(t *testing.T) {
	data := []byte(`{"version": 1, "description": "` + strings.Repeat("x", MaxBytes) + `"}`)
	_, err := Parse(data)
	want := fmt.Sprintf("scenario: %d bytes; the limit is 1048576 (1 MiB)", len(data))
	if err == nil || err.Error() != want {
		t.Errorf("Parse(%d bytes) error = %v; want %q", len(data), err, want)
	}
}

// The README's example is a valid scenario.
func TestReadmeExampleParses(t *testing.T) {
	b, err := os.ReadFile("../../testdata/scenarios/README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(b, -1)
	if len(m) == 0 {
		t.Fatal("README.md has no ```json block")
	}
	for i, block := range m {
		if _, err := Parse(block[1]); err != nil {
			t.Errorf("README json block %d: %v", i, err)
		}
	}
}

// A strategy is its name, or its name and source: both forms read, and the name-only form is
// written back as it was, so that files without a source keep their bytes.
func TestParseStrategyForms(t *testing.T) {
	const head = `{"version": 1, "brokers": [{"name": "broker-a", "queues": 4}], "consumers": [{"id": "c1"}], "strategy": `
	s, err := Parse([]byte(head + `"AVG_BY_CIRCLE"}`))
	if err != nil || s.Strategy != allocate.Named("AVG_BY_CIRCLE") {
		t.Fatalf("name form: %+v, %v", s.Strategy, err)
	}
	out, _ := s.Marshal()
	if !strings.Contains(string(out), `"strategy": "AVG_BY_CIRCLE"`) {
		t.Errorf("the name form is written back as %s", out)
	}
	src := "def allocate(group, current, queues, consumers):\n    return queues\n"
	s, err = Parse([]byte(head + `{"name": "ALL", "source": ` + strconv.Quote(src) + `}}`))
	if err != nil || s.Strategy.Name != "ALL" || s.Strategy.Source != src {
		t.Fatalf("object form: %+v, %v", s.Strategy, err)
	}
	out, _ = s.Marshal()
	back, err := Parse(out)
	if err != nil || back.Strategy != s.Strategy {
		t.Errorf("the object form does not round-trip: %+v, %v", back.Strategy, err)
	}
	r, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Final.Assignment["c1"], " "); got != "broker-a:0 broker-a:1 broker-a:2 broker-a:3" {
		t.Errorf("c1 ends with %q under the source's strategy", got)
	}
	if !strings.Contains(r.Text(s), " · ALL · ") {
		t.Errorf("the run's header does not name the strategy ALL:\n%s", r.Text(s)[:200])
	}
}
