package session

import (
	"encoding/json"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

const frame = 1000.0 / 60

func mustDecode(t *testing.T, js string) Command {
	t.Helper()
	cmd, err := Decode([]byte(js))
	if err != nil {
		t.Fatalf("Decode(%s): %v", js, err)
	}
	return cmd
}

// run enqueues each command, ticks once and returns the results in order.
func run(t *testing.T, s *Session, frameMs float64, cmds ...string) []Result {
	t.Helper()
	for _, js := range cmds {
		if _, err := s.Enqueue(mustDecode(t, js)); err != nil {
			t.Fatal(err)
		}
	}
	res := s.Tick(frameMs)
	return append(res, arrive(s)...)
}

// arrive ticks until the session has reached the moment it is on its way to, if any (a
// link's, a seek's or a step's too far for one frame), as the page's frames do, and returns
// the results those frames gave (the step's or seek's own, on arrival).
func arrive(s *Session) []Result {
	var res []Result
	for s.State().Reaching != nil {
		res = append(res, s.Tick(0)...)
	}
	return res
}

func TestDecode(t *testing.T) {
	tests := []struct {
		in      string
		check   func(Command) bool
		wantErr string
	}{
		{in: `{"type":"killConsumer","id":"c2"}`, check: func(c Command) bool { return c.Type == "killConsumer" && c.ID == "c2" }},
		{in: `{"type":"slowBroker","broker":"broker-a","latencyMs":2000}`, check: func(c Command) bool {
			return c.Broker == "broker-a" && c.LatencyMs != nil && *c.LatencyMs == 2000
		}},
		{in: `{"type":"step","ms":1000}`, check: func(c Command) bool { return c.Ms != nil && *c.Ms == 1000 }},
		{in: `{"type":"setSpeed","x":0.25}`, check: func(c Command) bool { return c.X != nil && *c.X == 0.25 }},
		{in: `{"type":"setStrategy","strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":5}}`, check: func(c Command) bool {
			return c.Params != nil && *c.Params.VirtualNodeCnt == 5
		}},
		{in: `{"type":"load","preset":"small"}`, check: func(c Command) bool { return c.Preset == "small" }},
		{in: `{"type":"load","scenario":{"version":1}}`, check: func(c Command) bool { return len(c.Scenario) > 0 }},
		{in: ``, wantErr: "command: empty"},
		{in: `{"type":`, wantErr: "ends early"},
		{in: `[1]`, wantErr: "want an object"},
		{in: `{}`, wantErr: "command: no type"},
		{in: `{"type":"explode"}`, wantErr: `unknown command "explode" (commands: addBroker,`},
		{in: `{"type":"killConsumer","idd":"c1"}`, wantErr: `unknown field "idd"`},
		{in: `{"type":"step","ms":"1s"}`, wantErr: "ms: got a JSON string; want a whole number"},
		{in: `{"type":"pause"} {}`, wantErr: "unexpected data"},
	}
	for _, tt := range tests {
		got, err := Decode([]byte(tt.in))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Decode(%s) error = %v; want it to contain %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !tt.check(got) {
			t.Errorf("Decode(%s) = %+v, %v", tt.in, got, err)
		}
	}
}

func TestTickSemantics(t *testing.T) {
	tests := []struct {
		name      string
		cmds      []string
		frameMs   float64
		frames    int
		wantTime  int64
		wantPause bool
		wantSpeed float64
	}{
		{name: "1× advances by the frame", frameMs: 10, frames: 3, wantTime: 30, wantSpeed: 1},
		{name: "fractions carry", frameMs: frame, frames: 60, wantTime: 1000, wantSpeed: 1},
		{name: "pause stops time", cmds: []string{`{"type":"pause"}`}, frameMs: 10, frames: 5, wantTime: 0, wantPause: true, wantSpeed: 1},
		{name: "speed multiplies", cmds: []string{`{"type":"setSpeed","x":10}`}, frameMs: 10, frames: 2, wantTime: 200, wantSpeed: 10},
		{name: "quarter speed", cmds: []string{`{"type":"setSpeed","x":0.25}`}, frameMs: 4, frames: 10, wantTime: 10, wantSpeed: 0.25},
		{name: "step is exact and pauses", cmds: []string{`{"type":"step","ms":1234}`}, frameMs: 10, frames: 3, wantTime: 1234, wantPause: true, wantSpeed: 1},
		{name: "step on a paused run", cmds: []string{`{"type":"pause"}`, `{"type":"step","ms":1}`, `{"type":"step","ms":999}`}, frameMs: 10, frames: 2, wantTime: 1000, wantPause: true, wantSpeed: 1},
		{name: "play resumes", cmds: []string{`{"type":"pause"}`, `{"type":"play"}`}, frameMs: 10, frames: 1, wantTime: 10, wantSpeed: 1},
		{name: "huge frames are capped at 1 s", frameMs: 1e9, frames: 1, wantTime: 1000, wantSpeed: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewDefault()
			for i, r := range run(t, s, tt.frameMs, tt.cmds...) {
				if r.Err != nil {
					t.Fatalf("command %d: %v", i, r.Err)
				}
			}
			for range tt.frames - 1 {
				s.Tick(tt.frameMs)
			}
			st := s.State()
			if st.TimeMs != tt.wantTime || st.Paused != tt.wantPause || st.Speed != tt.wantSpeed {
				t.Errorf("time %d, paused %v, speed %g; want %d, %v, %g", st.TimeMs, st.Paused, st.Speed, tt.wantTime, tt.wantPause, tt.wantSpeed)
			}
		})
	}
}

func TestErrorsAreNamed(t *testing.T) {
	tests := []struct {
		cmd     string
		wantErr string
	}{
		{`{"type":"killConsumer","id":"c9"}`, `killConsumer: no consumer "c9"`},
		{`{"type":"killConsumer"}`, `killConsumer: no consumer ""`},
		{`{"type":"slowBroker","broker":"broker-z","latencyMs":5}`, `slowBroker: no broker "broker-z"`},
		{`{"type":"slowBroker","broker":"broker-a"}`, "slowBroker: needs latencyMs"},
		{`{"type":"step"}`, "step: needs ms"},
		{`{"type":"step","ms":0}`, "step: needs ms"},
		{`{"type":"setSpeed","x":1000}`, "setSpeed: x 1000; want 0.25…100"},
		{`{"type":"setSpeed"}`, "setSpeed: x missing"},
		{`{"type":"load"}`, "load: needs scenario"},
		{`{"type":"load","preset":"huge"}`, `load: no preset "huge"`},
		{`{"type":"load","scenario":{"version":1,"brokers":[]}}`, "load: brokers: none"},
		{`{"type":"load","scenario":{"version":1,"brokerz":[]}}`, `load: unknown field "brokerz"`},
		{`{"type":"setStrategy","strategy":"RANDOM"}`, `setStrategy: unknown strategy "RANDOM"`},
	}
	for _, tt := range tests {
		s := NewDefault()
		res := run(t, s, frame, tt.cmd)
		if len(res) != 1 || res[0].Err == nil || !strings.Contains(res[0].Err.Error(), tt.wantErr) {
			t.Errorf("%s: results %+v; want an error containing %q", tt.cmd, res, tt.wantErr)
			continue
		}
		evs := s.DrainEvents()
		if len(evs) == 0 || evs[len(evs)-1].Kind != EventError {
			t.Errorf("%s: events %+v; want an error event last", tt.cmd, evs)
		}
	}
	// A command whose type nobody knows never reaches the cluster, even built by hand.
	s := NewDefault()
	if _, err := s.Enqueue(Command{}); err != nil {
		t.Fatal(err)
	}
	if res := s.Tick(frame); res[0].Err == nil {
		t.Error("an empty command was accepted")
	}
}

func TestResetReproduces(t *testing.T) {
	s := NewDefault()
	script := func() cluster.Snapshot {
		run(t, s, 0, `{"type":"killConsumer","id":"c2"}`)
		for range 200 {
			s.Tick(frame)
		}
		return s.Snapshot()
	}
	run(t, s, 0, `{"type":"setSpeed","x":50}`)
	first := script()
	if first.TimeMs < 160000 {
		t.Fatalf("ran to %d only", first.TimeMs)
	}
	if res := run(t, s, 0, `{"type":"reset"}`); res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	if got := s.State(); got.TimeMs != 0 || got.Speed != 50 || got.Consumers[1].Status == "killed" {
		t.Fatalf("after reset: time %d, speed %g, c2 %s; want 0, the speed kept (50), not killed", got.TimeMs, got.Speed, got.Consumers[1].Status)
	}
	second := script()
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(second)
	if string(a) != string(b) {
		t.Errorf("reset did not reproduce the run:\n%s\n%s", a, b)
	}
}

func TestLoad(t *testing.T) {
	s := NewDefault()
	run(t, s, 1000)
	before := s.State()

	// A bad scenario keeps the old one, running where it was.
	res := run(t, s, 0, `{"type":"load","scenario":{"version":1,"brokers":[{"name":"b","queues":-1}]}}`)
	if res[0].Err == nil {
		t.Fatal("a bad scenario was loaded")
	}
	after := s.State()
	if after.Title != before.Title || after.TimeMs != before.TimeMs || len(after.Brokers) != 4 {
		t.Errorf("after a bad load: %q at %d with %d brokers; want %q at %d with 4", after.Title, after.TimeMs, len(after.Brokers), before.Title, before.TimeMs)
	}

	// A preset by name.
	if res := run(t, s, 0, `{"type":"load","preset":"large"}`); res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	if st := s.State(); len(st.Brokers) != 16 || len(st.Consumers) != 64 || st.TimeMs != 0 {
		t.Errorf("large: %d brokers, %d consumers at %d", len(st.Brokers), len(st.Consumers), st.TimeMs)
	}

	// A scenario object with a timeline: its steps happen as time passes, and reset replays them.
	sc := `{"type":"load","scenario":{"version":1,"title":"t","brokers":[{"name":"broker-a","queues":4}],
		"consumers":[{"id":"c1"},{"id":"c2"}],"timeline":[{"at":"2s","type":"killConsumer","id":"c2"}]}}`
	if res := run(t, s, 0, sc); res[0].Err != nil {
		t.Fatal(res[0].Err)
	}
	if st := s.State(); st.Title != "t" || st.TimelineLeft != 1 {
		t.Fatalf("loaded %q with %d steps left", st.Title, st.TimelineLeft)
	}
	run(t, s, 0, `{"type":"step","ms":1999}`)
	if st := s.State(); st.Consumers[1].Status == "killed" {
		t.Error("c2 killed before 2s")
	}
	run(t, s, 0, `{"type":"step","ms":1}`)
	if st := s.State(); st.Consumers[1].Status != "killed" || st.TimelineLeft != 0 {
		t.Errorf("at 2s c2 is %s with %d steps left; want killed, 0", st.Consumers[1].Status, st.TimelineLeft)
	}
	run(t, s, 0, `{"type":"reset"}`)
	if st := s.State(); st.Consumers[1].Status == "killed" || st.TimelineLeft != 1 {
		t.Errorf("after reset c2 is %s with %d steps left", st.Consumers[1].Status, st.TimelineLeft)
	}
}

func TestAddConsumerChoosesID(t *testing.T) {
	s := NewDefault()
	if got := s.State().NextConsumerID; got != "c5" {
		t.Fatalf("NextConsumerID = %q; want c5", got)
	}
	res := run(t, s, 0, `{"type":"addConsumer"}`, `{"type":"addConsumer","id":"c9"}`, `{"type":"addConsumer"}`)
	if res[0].ID != "c5" || res[1].ID != "" || res[2].ID != "c6" {
		t.Errorf("ids %q %q %q; want c5, \"\", c6", res[0].ID, res[1].ID, res[2].ID)
	}
	if got := s.State().NextConsumerID; got != "c7" {
		t.Errorf("NextConsumerID = %q; want c7", got)
	}
}

// A command's Fill hook is all the session needs to complete what the page leaves out: the
// filled command is applied, and the id it chose comes back.
func TestAFillHookCompletesACommand(t *testing.T) {
	var applied []string
	cluster.Register(cluster.CommandSpec{Name: "testPoke", Target: cluster.TargetConsumer,
		Args: []cluster.Arg{{Name: "id", Type: cluster.ArgString, Charset: &cluster.ClientIDName, Example: "c1"}},
		Fill: func(c *cluster.Cluster, cmd *cluster.Command) {
			if cmd.ID == "" {
				cmd.ID = c.Snapshot().Consumers[1].ID
			}
		},
		Apply: func(c *cluster.Cluster, cmd cluster.Command) error {
			applied = append(applied, cmd.ID)
			return nil
		},
		Describe: func(cmd cluster.Command) string { return cmd.ID + " is poked" },
		Words: map[string]cluster.Words{
			"en": {Label: "Poke", Description: "Pokes a consumer."},
			"zh": {Label: "戳", Description: "戳一下消费者。"},
		},
	})
	defer cluster.Unregister("testPoke")
	s := NewDefault()
	res := run(t, s, 0, `{"type":"testPoke"}`, `{"type":"testPoke","id":"c3"}`)
	if len(res) != 2 || res[0].Err != nil || res[1].Err != nil {
		t.Fatalf("results %+v", res)
	}
	if !slices.Equal(applied, []string{"c2", "c3"}) || res[0].ID != "c2" || res[1].ID != "" {
		t.Errorf("applied %q, ids %q and %q; want c2 and c3 applied, c2 chosen for the first", applied, res[0].ID, res[1].ID)
	}
}

func TestEvents(t *testing.T) {
	s := NewDefault()
	run(t, s, 0, `{"type":"killConsumer","id":"c1"}`)
	kinds := map[string]bool{}
	for range 120 {
		s.Tick(frame * 10)
		for _, e := range s.DrainEvents() {
			kinds[e.Kind] = true
		}
	}
	for _, k := range []string{"action", "rebalance", "change"} {
		if !kinds[k] {
			t.Errorf("no %s event in %v", k, kinds)
		}
	}
	if evs := s.DrainEvents(); len(evs) != 0 {
		t.Errorf("a second drain returned %d events", len(evs))
	}

	// The queue is bounded: the oldest go, and the state says how many.
	for range MaxEvents + 10 {
		s.say(cluster.Event{Cause: CausePause, Text: "x"})
	}
	if got := len(s.DrainEvents()); got != MaxEvents {
		t.Errorf("drained %d; want %d", got, MaxEvents)
	}
	s.Tick(0)
	run(t, s, 0, `{"type":"pause"}`)
	if s.State().EventsDropped < 10 {
		t.Errorf("EventsDropped = %d; want ≥ 10", s.State().EventsDropped)
	}
}

func TestEnqueueConcurrent(t *testing.T) {
	s := NewDefault()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if _, err := s.Enqueue(mustDecode(t, `{"type":"setSpeed","x":2}`)); err != nil {
					t.Error(err)
				}
				_ = s.State()
			}
		})
	}
	done := 0
	for done < 400 {
		runtime.Gosched() // js/wasm has no preemption: let the senders run
		for _, r := range s.Tick(frame) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			done++
		}
	}
	wg.Wait()
	for range MaxPending {
		if _, err := s.Enqueue(Command{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Enqueue(Command{}); err == nil {
		t.Error("the queue is unbounded")
	}
}

func TestStateJSON(t *testing.T) {
	s, err := New(scenario.Presets()["small"])
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, 1000)
	b, err := json.Marshal(s.State())
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"timeMs", "paused", "speed", "strategy", "brokers", "consumers", "queues", "metrics", "presets", "nextConsumerId"} {
		if _, ok := m[k]; !ok {
			t.Errorf("state() has no %q", k)
		}
	}
	b0 := m["brokers"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "queues", "latencyMs", "down", "isolatedUntilMs"} {
		if _, ok := b0[k]; !ok {
			t.Errorf("brokers[0] has no %q", k)
		}
	}
	c0 := m["consumers"].([]any)[0].(map[string]any)
	if !reflect.DeepEqual(c0["queues"], []any{"broker-a:0", "broker-a:1", "broker-a:2"}) || c0["status"] != "alive" {
		t.Errorf("consumers[0] = %v", c0)
	}
	for _, k := range []string{"produced", "consumed", "duplicates", "lost"} {
		if _, ok := m["metrics"].(map[string]any)[k]; !ok {
			t.Errorf("metrics has no %q", k)
		}
	}
}

// The lists a State names are what a user can load, pick and send, in every State; they are
// shared by all States, so each is capped at its length: a caller's append copies it instead
// of writing into the array every other State reads.
func TestStateListsArePresetsStrategiesAndCommands(t *testing.T) {
	s := NewDefault()
	for i := range 3 {
		s.Tick(frame)
		st := s.State()
		if !slices.Equal(st.Presets, scenario.PresetNames()) || !slices.Equal(st.Strategies, allocate.Names()) || !slices.Equal(st.Commands, Types()) {
			t.Fatalf("frame %d: presets %v, strategies %v, commands %v", i, st.Presets, st.Strategies, st.Commands)
		}
		if cap(st.Presets) != len(st.Presets) || cap(st.Strategies) != len(st.Strategies) || cap(st.Commands) != len(st.Commands) {
			t.Fatalf("frame %d: a State's lists have room for an append that every other State would see", i)
		}
	}
}
