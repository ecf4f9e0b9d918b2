package session

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// fakeRecorder checks what the session tells the series: it keeps samples and marks, and
// truncates them as told.
type fakeRecorder struct {
	mu       sync.Mutex
	interval int64
	samples  []int64
	marks    []Action
}

func (f *fakeRecorder) IntervalMs() int64 { return f.interval }
func (f *fakeRecorder) Sample(s *cluster.Snapshot) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.samples = append(f.samples, s.TimeMs)
}
func (f *fakeRecorder) Mark(t int64, text string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.marks = append(f.marks, Action{T: t, Text: text})
}
func (f *fakeRecorder) Truncate(t int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.samples = slices.DeleteFunc(f.samples, func(x int64) bool { return x > t })
	f.marks = slices.DeleteFunc(f.marks, func(m Action) bool { return m.T > t })
}

// withFake builds a session on sc whose loads start fake recorders; the returned function
// gives the current one.
func withFake(t *testing.T, sc scenario.Scenario, interval int64) (*Session, func() *fakeRecorder) {
	t.Helper()
	s, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	s.newRec = func() recorder { return &fakeRecorder{interval: interval} }
	if err := s.load(sc); err != nil {
		t.Fatal(err)
	}
	s.publish()
	return s, func() *fakeRecorder { return s.rec.(*fakeRecorder) }
}

// randomActions drives s through a random history: frames of real-time running at a random
// speed, steps, and simulation commands. It returns the session's recorded scenario at the end.
func randomActions(t *testing.T, r *rand.Rand, s *Session, until int64) {
	t.Helper()
	cmds := []string{
		`{"type":"killConsumer","id":"c%d"}`, `{"type":"partitionConsumer","id":"c%d"}`,
		`{"type":"restartConsumer","id":"c%d"}`, `{"type":"addConsumer"}`, `{"type":"hangConsumer","id":"c%d"}`,
		`{"type":"slowBroker","broker":"broker-b","latencyMs":2000}`, `{"type":"setLatencyFault","on":true}`,
		`{"type":"setStrategy","strategy":"CONSISTENT_HASH"}`, `{"type":"restoreBroker","broker":"broker-c"}`,
		`{"type":"killBroker","broker":"broker-c"}`,
	}
	run(t, s, 0, `{"type":"setSpeed","x":50}`, `{"type":"play"}`)
	for s.State().TimeMs < until {
		switch r.IntN(3) {
		case 0:
			for range 1 + r.IntN(20) {
				s.Tick(frame * float64(1+r.IntN(3)))
			}
		case 1:
			run(t, s, 0, fmt.Sprintf(`{"type":"step","ms":%d}`, 1+r.IntN(90000)))
		}
		cmd := cmds[r.IntN(len(cmds))]
		if strings.Contains(cmd, "%d") {
			cmd = fmt.Sprintf(cmd, 1+r.IntN(4))
		}
		run(t, s, 0, cmd) // refusals are fine: they are not recorded
	}
	run(t, s, 0, `{"type":"pause"}`)
}

// fresh replays sc (a session's recorded scenario) from 00:00 in a new session, to ms.
func fresh(t *testing.T, sc scenario.Scenario, ms int64) string {
	t.Helper()
	b, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	if ms > 0 {
		noErrors(t, run(t, b, 0, fmt.Sprintf(`{"type":"step","ms":%d}`, ms)))
	}
	return simState(t, b)
}

// Seeking anywhere, back or forth, in any order, gives exactly the state a fresh session
// replaying the same actions reaches at that moment; nothing of the timeline changes, and the
// page hears one event per seek, not the replayed past.
func TestSeekEqualsFreshReplay(t *testing.T) {
	for seed := range 6 {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		s := NewDefault()
		randomActions(t, r, s, int64(300000+r.IntN(900000)))
		sc, end, err := s.Recorded()
		if err != nil {
			t.Fatal(err)
		}
		horizon := s.State().HorizonMs
		if horizon != end {
			t.Fatalf("seed %d: horizon %d at the end of a straight run; want now (%d)", seed, horizon, end)
		}
		if n := len(s.Timeline().Checkpoints); n < 10 || n > maxCheckpoints {
			t.Errorf("seed %d: %d checkpoints over %s; want 10…%d", seed, n, scenario.Clock(end), maxCheckpoints)
		}
		s.DrainEvents()
		for range 12 {
			ms := r.Int64N(end + 1)
			if r.IntN(4) == 0 {
				ms = ms / 5000 * 5000 // exactly on a checkpoint's multiple
			}
			noErrors(t, run(t, s, 0, fmt.Sprintf(`{"type":"seek","ms":%d}`, ms)))
			if got, want := simState(t, s), fresh(t, sc, ms); got != want {
				t.Fatalf("seed %d: seek to %s differs from a fresh replay:\n got %.400s\nwant %.400s", seed, scenario.Clock(ms), got, want)
			}
			st := s.State()
			if st.HorizonMs != horizon || !st.Paused {
				t.Errorf("seed %d: after seek to %d: horizon %d, paused %v; want %d, paused", seed, ms, st.HorizonMs, st.Paused, horizon)
			}
			evs := s.DrainEvents()
			if len(evs) != 1 || evs[0].Kind != cluster.EventAction || evs[0].Text != "moved to "+scenario.Clock(ms) {
				t.Errorf("seed %d: seek to %d told %d events (%v); want one: moved to %s", seed, ms, len(evs), evs, scenario.Clock(ms))
			}
		}
		// The timeline is intact: played to its end again, it reaches the same state.
		noErrors(t, run(t, s, 0, fmt.Sprintf(`{"type":"seek","ms":%d}`, end)))
		if got, want := simState(t, s), fresh(t, sc, end); got != want {
			t.Fatalf("seed %d: back at the end the state differs", seed)
		}
		after, _, _ := s.Recorded()
		if len(after.Timeline) != len(sc.Timeline) {
			t.Errorf("seed %d: seeking changed the timeline: %d steps, had %d", seed, len(after.Timeline), len(sc.Timeline))
		}
	}
}

// Continue discards the future and says so; an action behind the horizon does the same
// implicitly. What follows equals a fresh replay of the actions kept plus the new one.
func TestContinueFromHere(t *testing.T) {
	s := NewDefault()
	noErrors(t, run(t, s, 0, `{"type":"step","ms":20000}`, `{"type":"killConsumer","id":"c1"}`))
	noErrors(t, run(t, s, 0, `{"type":"step","ms":40000}`, `{"type":"slowBroker","broker":"broker-a","latencyMs":600}`))
	noErrors(t, run(t, s, 0, `{"type":"step","ms":40000}`, `{"type":"addConsumer"}`, `{"type":"step","ms":30000}`))
	if h := s.State().HorizonMs; h != 130000 {
		t.Fatalf("horizon %d; want 130000", h)
	}
	noErrors(t, run(t, s, 0, `{"type":"seek","ms":50000}`))
	s.DrainEvents()
	noErrors(t, run(t, s, 0, `{"type":"continue"}`))
	evs := s.DrainEvents()
	if len(evs) != 1 || evs[0].Text != "continuing from 00:50; 2 later actions discarded" {
		t.Errorf("continue told %v", evs)
	}
	st, tl := s.State(), s.Timeline()
	if st.HorizonMs != 50000 || tl.HorizonMs != 50000 || tl.NowMs != 50000 {
		t.Errorf("after continue: horizon %d (timeline %d), now %d; want 50000", st.HorizonMs, tl.HorizonMs, tl.NowMs)
	}
	if len(tl.Actions) != 1 || tl.Actions[0] != (Action{T: 20000, Text: "killConsumer c1"}) {
		t.Errorf("actions after continue: %v; want only the kill at 20 s", tl.Actions)
	}
	for _, cp := range tl.Checkpoints {
		if cp > 50000 {
			t.Errorf("checkpoint at %d kept after continuing from 50000", cp)
		}
	}
	noErrors(t, run(t, s, 0, `{"type":"step","ms":10000}`, `{"type":"hangConsumer","id":"c2"}`, `{"type":"step","ms":15000}`))
	sc, now, _ := s.Recorded()
	if got, want := simState(t, s), fresh(t, sc, now); got != want {
		t.Errorf("after continue and a new action the state differs from a fresh replay")
	}
	want := []string{"killConsumer", "hangConsumer"}
	var got []string
	for _, st := range sc.Timeline {
		got = append(got, st.Type)
	}
	if !slices.Equal(got, want) {
		t.Errorf("timeline %v; want %v", got, want)
	}

	// Implicitly: an action behind the horizon discards the later hang.
	noErrors(t, run(t, s, 0, `{"type":"seek","ms":55000}`))
	s.DrainEvents()
	noErrors(t, run(t, s, 0, `{"type":"killConsumer","id":"c3"}`))
	evs = s.DrainEvents()
	if len(evs) < 2 || !strings.Contains(evs[0].Text, "killConsumer c3 behind the end of the timeline: continuing from 00:55; 1 later action discarded") {
		t.Errorf("an action behind the horizon told %v", evs)
	}
	if h := s.State().HorizonMs; h != 55000 {
		t.Errorf("horizon %d after an action at 55 s; want 55000", h)
	}
	// A refused action behind the horizon changes nothing, the future included.
	noErrors(t, run(t, s, 0, `{"type":"step","ms":5000}`, `{"type":"seek","ms":56000}`))
	if r := run(t, s, 0, `{"type":"killConsumer","id":"nobody"}`); r[0].Err == nil {
		t.Fatal("killing nobody was accepted")
	}
	if h := s.State().HorizonMs; h != 60000 {
		t.Errorf("a refused action moved the horizon to %d; want 60000", h)
	}
}

// The series gets a sample at every multiple of its interval from 00:00, a mark at every
// applied action (the page's and the timeline's), keeps the future across seeks, loses it on
// a continue, and starts anew on a load.
func TestSeriesWiring(t *testing.T) {
	base := scenario.Presets()["small"]
	base.Until = scenario.Duration(600000)
	base.Timeline = []scenario.Step{{At: scenario.Duration(7000), Command: cluster.Command{Type: "killConsumer", ID: "c3"}}}
	s, rec := withFake(t, base, 1000)
	for range 20 {
		s.Tick(frame * 7)
	}
	noErrors(t, run(t, s, 0, `{"type":"step","ms":5432}`, `{"type":"killConsumer","id":"c1"}`, `{"type":"step","ms":9000}`))
	now := s.State().TimeMs
	var want []int64
	for ms := int64(0); ms <= now; ms += 1000 {
		want = append(want, ms)
	}
	if got := rec().samples; !slices.Equal(got, want) {
		t.Fatalf("samples at %v; want every second 0…%d", got, now)
	}
	marks := rec().marks
	if len(marks) != 2 || marks[0] != (Action{T: 7000, Text: "killConsumer c3"}) || marks[1].Text != "killConsumer c1" {
		t.Fatalf("marks %v; want the timeline's kill at 7 s and the page's kill", marks)
	}
	// Back and forth: the timeline is unchanged, so the series keeps every sample and mark,
	// those after the moment shown included, and records none twice.
	noErrors(t, run(t, s, 0, `{"type":"seek","ms":6500}`))
	if got := rec().samples; !slices.Equal(got, want) || !slices.Equal(rec().marks, marks) {
		t.Fatalf("after seeking to 6.5 s: samples %v, marks %v; want them unchanged", got, rec().marks)
	}
	noErrors(t, run(t, s, 0, fmt.Sprintf(`{"type":"seek","ms":%d}`, now), `{"type":"step","ms":2000}`))
	if got := rec().samples; !slices.Equal(got, append(want, now/1000*1000+1000, now/1000*1000+2000)) {
		t.Errorf("after seeking back to the end and stepping 2 s: samples %v; want every second once", got)
	}
	if got := rec().marks; !slices.Equal(got, marks) {
		t.Errorf("after seeking back to the end: marks %v; want %v", got, marks)
	}
	noErrors(t, run(t, s, 0, `{"type":"seek","ms":3000}`, `{"type":"continue"}`))
	if got := rec().samples; !slices.Equal(got, want[:4]) {
		t.Errorf("after continuing from 3 s: samples %v", got)
	}
	old := rec()
	noErrors(t, run(t, s, 0, `{"type":"reset"}`))
	if rec() == old || len(rec().samples) != 0 {
		t.Errorf("reset kept the recorder")
	}
}

// Checkpoints stay few however long the session runs.
func TestCheckpointsAreBounded(t *testing.T) {
	s := NewDefault()
	for range 6 {
		noErrors(t, run(t, s, 0, fmt.Sprintf(`{"type":"step","ms":%d}`, MaxStepMs)))
	}
	cps := s.Timeline().Checkpoints
	if len(cps) > maxCheckpoints || len(cps) < maxCheckpoints/2 || cps[0] != 0 {
		t.Errorf("%d checkpoints after 6 h (first at %d); want %d…%d from 00:00", len(cps), cps[0], maxCheckpoints/2, maxCheckpoints)
	}
	for i := 1; i < len(cps); i++ {
		if cps[i] <= cps[i-1] {
			t.Fatalf("checkpoints out of order: %v", cps)
		}
	}
}

// A large cluster keeps fewer checkpoints (their copies are what the page's garbage collector
// marks every cycle), and a seek among them still lands in a straight run's state.
func TestALargeClusterKeepsFewerCheckpoints(t *testing.T) {
	sc := scenario.Presets()["large"]
	if got := maxCheckpointsOf(sc); got != 12 {
		t.Fatalf("the large preset keeps %d checkpoints; want 12", got)
	}
	if got := maxCheckpointsOf(scenario.Presets()["default"]); got != maxCheckpoints {
		t.Fatalf("the default preset keeps %d checkpoints; want %d", got, maxCheckpoints)
	}
	s, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	end := int64(10 * 60 * 1000)
	if testing.Short() {
		end = 3 * 60 * 1000
	}
	noErrors(t, run(t, s, 0, fmt.Sprintf(`{"type":"step","ms":%d}`, end)))
	cps := s.Timeline().Checkpoints
	if len(cps) > 12 || len(cps) < 6 {
		t.Fatalf("%d checkpoints after %s of the large preset; want 6…12", len(cps), scenario.Clock(end))
	}
	back := cps[len(cps)/2] + 1234
	noErrors(t, run(t, s, 0, fmt.Sprintf(`{"type":"seek","ms":%d}`, back)))
	if got, wantJSON := simState(t, s), straightRun(t, sc, back); got != wantJSON {
		t.Fatalf("sought back to %d:\n%.300s\nwant a straight run's\n%.300s", back, got, wantJSON)
	}
}

// An autoscaler's steps are the engine's own actions: the timeline and the charts' markers
// show them as they happen, once each across seeks and replays; continuing drops those after
// now, and they come again as time passes them.
func TestAutoscalerStepsAreActions(t *testing.T) {
	s, fake := withFake(t, scenario.Presets()["autoscale"], 1000)
	noErrors(t, run(t, s, 0, `{"type":"step","ms":50000}`))
	steps := func() []Action {
		var out []Action
		for _, a := range s.Timeline().Actions {
			if strings.HasPrefix(a.Text, "the autoscaler ") {
				out = append(out, a)
			}
		}
		return out
	}
	want := []Action{{15000, "the autoscaler starts a1"}, {30000, "the autoscaler starts a2"}, {45000, "the autoscaler starts a3"}}
	if got := steps(); !slices.Equal(got, want) {
		t.Fatalf("timeline's autoscaler steps %v; want %v", got, want)
	}
	noErrors(t, run(t, s, 0, `{"type":"seek","ms":20000}`, `{"type":"step","ms":30000}`))
	if got := steps(); !slices.Equal(got, want) {
		t.Errorf("after a seek back and a replay: %v; want %v, once each", got, want)
	}
	marks := 0
	for _, m := range fake().marks {
		if strings.HasPrefix(m.Text, "the autoscaler ") {
			marks++
		}
	}
	if marks != 3 {
		t.Errorf("%d markers of autoscaler steps on the charts; want 3", marks)
	}
	noErrors(t, run(t, s, 0, `{"type":"seek","ms":20000}`, `{"type":"continue"}`))
	if got := steps(); !slices.Equal(got, want[:1]) {
		t.Errorf("after continuing from 20 s: %v; want the first step only", got)
	}
	noErrors(t, run(t, s, 0, `{"type":"step","ms":15000}`))
	if got := steps(); !slices.Equal(got, want[:2]) {
		t.Errorf("playing on to 35 s: %v; want the first two steps", got)
	}
}
