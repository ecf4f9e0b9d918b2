package session

import (
	"encoding/json"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
)

// The recorded scenario, run to the returned time, ends where the session is: same owners,
// same counts. Steps of the loaded scenario not yet reached stay in its timeline.
func TestRecordedReproducesTheSession(t *testing.T) {
	base := scenario.Presets()["default"]
	base.Until = scenario.Duration(900000)
	base.Timeline = []scenario.Step{
		{At: scenario.Duration(5000), Command: mustDecode(t, `{"type":"slowBroker","broker":"broker-a","latencyMs":600}`).Command},
		{At: scenario.Duration(600000), Command: mustDecode(t, `{"type":"killConsumer","id":"c3"}`).Command},
	}
	s, err := New(base)
	if err != nil {
		t.Fatal(err)
	}
	for range 30 {
		s.Tick(frame * 2)
	}
	noErrors(t, run(t, s, 0, `{"type":"step","ms":9000}`))
	noErrors(t, run(t, s, 0, `{"type":"killConsumer","id":"c1"}`, `{"type":"setStrategy","strategy":"CONSISTENT_HASH"}`))
	noErrors(t, run(t, s, 0, `{"type":"step","ms":30000}`))

	sc, now, err := s.Recorded()
	if err != nil {
		t.Fatal(err)
	}
	st := s.State()
	if now != st.TimeMs {
		t.Errorf("time %d; the session published %d", now, st.TimeMs)
	}
	var types []string
	for _, step := range sc.Timeline {
		types = append(types, step.Type)
	}
	want := []string{"slowBroker", "killConsumer", "setStrategy", "killConsumer"}
	if len(types) != len(want) {
		t.Fatalf("timeline %v; want %v", types, want)
	}
	for i := range want {
		if types[i] != want[i] {
			t.Fatalf("timeline %v; want %v", types, want)
		}
	}
	if at := sc.Timeline[1].At.Ms(); at < 9000 || at > now-30000 {
		t.Errorf("the page's kill recorded at %d; want when it was applied (9000…%d)", at, now-30000)
	}
	if sc.Timeline[3].At.Ms() != 600000 {
		t.Errorf("the loaded scenario's step still to come moved to %d", sc.Timeline[3].At.Ms())
	}
	sc.Timeline, sc.Until = sc.Timeline[:3], scenario.Duration(now) // up to now
	r, err := scenario.Run(sc, scenario.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r.Snapshot.Queues)
	wantQ, _ := json.Marshal(st.Queues)
	if string(got) != string(wantQ) {
		t.Errorf("queues differ:\n got %s\nwant %s", got, wantQ)
	}
	if r.Metrics.Produced != st.Metrics.Produced || r.Metrics.Rebalances != st.Metrics.Rebalances {
		t.Errorf("metrics differ: %+v vs %+v", r.Metrics, st.Metrics)
	}
}

func TestRecordedRefusesPast24h(t *testing.T) {
	s := NewDefault()
	s.mu.Lock()
	s.last.TimeMs = scenario.MaxDuration.Ms() + 1
	s.mu.Unlock()
	if _, _, err := s.Recorded(); err == nil {
		t.Error("a session past 24 h gave a scenario")
	}
}
