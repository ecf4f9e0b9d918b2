package session

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

func largestShape(t *testing.T) scenario.Scenario {
	t.Helper()
	s, err := scenario.FromFlags(scenario.Flags{Brokers: 64, QueuesPerBroker: 64, Consumers: 512, Producers: 64, Rate: 100000})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func everyInterval1ms(s scenario.Scenario) scenario.Scenario {
	tm := &s.Timing
	for _, p := range []*int64{&tm.RebalanceWaitInterval, &tm.RebalanceMinInterval, &tm.PollNameServerInterval, &tm.HeartbeatInterval,
		&tm.PersistOffsetInterval, &tm.ScanInterval, &tm.LongPollHold, &tm.HoldCheckInterval, &tm.FlowStepMs, &tm.PullFirstDelay, &tm.PullDelayOnException} {
		*p = 1
	}
	return s
}

func link(t *testing.T, sc scenario.Scenario, ms int64) string {
	t.Helper()
	sc.Until = max(sc.End(), scenario.Duration(ms))
	l, err := scenario.EncodeShare(scenario.Share{Scenario: sc, TimeMs: ms})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// A cluster too heavy to start or to play within a frame is refused, whichever door it comes
// through; every preset loads.
func TestHeavyScenariosAreRefusedAtLoad(t *testing.T) {
	for _, name := range scenario.PresetNames() {
		s := NewDefault()
		noErrors(t, run(t, s, 0, `{"type":"load","preset":"`+name+`"}`))
	}
	cases := map[string]struct {
		sc   scenario.Scenario
		want string
	}{
		"the largest shape":              {largestShape(t), "(64 brokers, 4096 queues, 512 consumers) is about "},
		"every interval at 1 ms":         {everyInterval1ms(scenario.Presets()["default"]), "one virtual second of this scenario is about "},
		"the largest shape, 1 ms timers": {everyInterval1ms(largestShape(t)), "units of work to start; the page does at most 200 thousand units at a time (about 100 ms)"},
	}
	for name, c := range cases {
		if _, err := New(c.sc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: New: %v; want %q", name, err, c.want)
		}
		s := NewDefault()
		data, err := c.sc.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		res := run(t, s, 0, fmt.Sprintf(`{"type":"load","scenario":%s}`, data))
		if res[0].Err == nil || !strings.Contains(res[0].Err.Error(), c.want) {
			t.Errorf("%s: load: %v; want %q", name, res[0].Err, c.want)
		}
		l := link(t, c.sc, 60000)
		if err := s.OpenLink(l); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: a %d-character link: %v; want %q", name, len(l), err, c.want)
		}
		if st := s.State(); st.Title != "Default cluster" || st.Reaching != nil {
			t.Errorf("%s: after the refusals the session shows %q (reaching %v); want the default preset as it was", name, st.Title, st.Reaching)
		}
	}
}

// A link to 24 h of the default scenario, a seek to 24 h and a step of an hour on the large
// preset are reached a slice per frame, each slice within the work bound, and arrive in
// exactly the state a straight run reaches.
func TestFarMomentsAreReachedInSlices(t *testing.T) {
	// -short (the js/wasm run under Node, ten times slower) goes a quarter as far: still
	// many frames' work.
	def, step := scenario.Presets()["default"], scenario.Hour
	def.Until = 2 * scenario.Hour
	if testing.Short() {
		def.Until, step = 30*scenario.Minute, 15*scenario.Minute
	}
	cases := []struct {
		name  string
		start func(s *Session)
		sc    scenario.Scenario
		to    int64
		cause string
	}{
		{"a link far ahead", func(s *Session) {
			if err := s.OpenLink(link(t, def, def.Until.Ms())); err != nil {
				t.Fatal(err)
			}
		}, def, def.Until.Ms(), CauseOpenLink},
		{"a seek far ahead", func(s *Session) {
			s.Enqueue(mustDecode(t, fmt.Sprintf(`{"type":"seek","ms":%d}`, def.Until.Ms())))
			s.Tick(0)
		}, def, def.Until.Ms(), CauseSeek},
		{"a long step on the large preset", func(s *Session) {
			noErrors(t, run(t, s, 0, `{"type":"load","preset":"large"}`))
			s.DrainEvents()
			s.Enqueue(mustDecode(t, fmt.Sprintf(`{"type":"step","ms":%d}`, step.Ms())))
			s.Tick(0)
		}, scenario.Presets()["large"], step.Ms(), ""},
	}
	for _, c := range cases {
		s, err := New(c.sc)
		if err != nil {
			t.Fatal(err)
		}
		s.DrainEvents()
		c.start(s)
		slices := 1
		for st := s.State(); st.Reaching != nil; st = s.State() {
			if st.Reaching.ToMs != c.to || st.Reaching.AtMs != st.TimeMs || st.Reaching.Units <= MaxCallWork || !st.Paused {
				t.Fatalf("%s: reaching %+v at %d (paused %v); want on the way to %d, paused, more than one call's work", c.name, *st.Reaching, st.TimeMs, st.Paused, c.to)
			}
			before := s.c.Now()
			if units := scenario.WorkSpan(s.timeline(), before, s.fitFrom(before, c.to), false).Units; units > MaxCallWork {
				t.Fatalf("%s: a slice of %d units; want at most %d", c.name, units, MaxCallWork)
			}
			s.Tick(16)
			slices++
			if s.c.Now() <= before {
				t.Fatalf("%s: a frame did not move on from %d", c.name, before)
			}
		}
		if slices < 3 {
			t.Errorf("%s: arrived in %d slices; want several", c.name, slices)
		}
		if got, wantJSON := simState(t, s), straightRun(t, c.sc, c.to); got != wantJSON {
			t.Fatalf("%s: arrived at\n%.300s\nwant a straight run's\n%.300s", c.name, got, wantJSON)
		}
		var told []string
		for _, e := range s.DrainEvents() {
			if e.Kind == cluster.EventAction {
				told = append(told, e.Cause)
			}
		}
		if c.cause != "" && (len(told) != 1 || told[0] != c.cause) {
			t.Errorf("%s: told %v; want one %s on arrival", c.name, told, c.cause)
		}
	}
}

// Commands sent on the way wait for the moment; a seek stops the way where it is.
func TestCommandsWaitForTheMomentOrStopTheWay(t *testing.T) {
	s := NewDefault()
	s.Enqueue(mustDecode(t, `{"type":"seek","ms":3600000}`))
	s.Tick(0)
	if s.State().Reaching == nil {
		t.Fatal("a seek to 1 h of the default preset fits in one frame; want it reached in slices")
	}
	seq, _ := s.Enqueue(mustDecode(t, `{"type":"killConsumer","id":"c1"}`))
	if res := s.Tick(16); len(res) != 0 {
		t.Fatalf("results %v while on the way; want the command to wait", res)
	}
	arrive(s)
	res := s.Tick(0)
	if len(res) != 1 || res[0].Seq != seq || res[0].Err != nil {
		t.Fatalf("after arriving: %+v; want the waiting kill applied", res)
	}
	if now := s.State().TimeMs; now != 3600000 {
		t.Fatalf("the kill applied at %d; want at the moment sought (3600000)", now)
	}

	s.Enqueue(mustDecode(t, `{"type":"seek","ms":7200000}`))
	s.Tick(0)
	at := s.State().TimeMs
	noErrors(t, run(t, s, 0, `{"type":"seek","ms":60000}`))
	st := s.State()
	if at >= 7200000 || st.TimeMs != 60000 || st.Reaching != nil {
		t.Fatalf("a seek on the way (at %d) to 01:00: now %d, reaching %v; want 60000 and the way stopped", at, st.TimeMs, st.Reaching)
	}
}

func TestEstimate(t *testing.T) {
	s := NewDefault()
	units, fits := s.Estimate(24 * 3600 * 1000)
	if units <= MaxCallWork || fits <= 0 || fits >= 24*3600*1000 {
		t.Fatalf("Estimate(24 h) = %d units, fits to %d; want more than one call's work and a moment before 24 h", units, fits)
	}
	if u, f := s.Estimate(1000); u > MaxCallWork || f != 1000 {
		t.Fatalf("Estimate(1 s) = %d, %d; want a second within one call", u, f)
	}
}

// A frame's budget (the page's clock) cuts the work into more frames without changing it: a
// step and the kill sent with it, held to the smallest budget (a look at the clock after every
// few dozen engine events, each saying the time is up), arrive in many frames at exactly the
// state of a session without a budget; the step answers on arrival and the kill waits for
// the step's moment. Playing, a frame that cannot keep up runs less virtual time than asked,
// and the same moment is still the same state.
func TestABudgetSplitsFramesNotResults(t *testing.T) {
	sc := scenario.Presets()["large"]
	free, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	held, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	looks := 0
	held.SetBudget(func() bool { looks++; return true })
	const step = 20000
	cmds := []string{fmt.Sprintf(`{"type":"step","ms":%d}`, step), `{"type":"killConsumer","id":"c3"}`}
	// answer sends cmds and ticks until each has answered: the frames it took, and the moment
	// of each answer.
	answer := func(s *Session, cmds ...string) (int, []int64) {
		t.Helper()
		seqs := map[uint64]int{}
		for i, c := range cmds {
			seq, err := s.Enqueue(mustDecode(t, c))
			if err != nil {
				t.Fatal(err)
			}
			seqs[seq] = i
		}
		at, n, frames := make([]int64, len(cmds)), 0, 0
		for n < len(cmds) {
			if frames++; frames > 100000 {
				t.Fatalf("%v never answered", cmds)
			}
			for _, r := range s.Tick(0) {
				if r.Err != nil {
					t.Fatalf("%s: %v", cmds[seqs[r.Seq]], r.Err)
				}
				at[seqs[r.Seq]] = s.State().TimeMs
				n++
			}
			if st := s.State(); st.Reaching != nil && n > 0 {
				t.Fatalf("a command answered at %d while still on the way to %d", st.TimeMs, st.Reaching.ToMs)
			}
		}
		return frames, at
	}
	answer(free, cmds...)
	frames, at := answer(held, cmds...)
	if frames < 10 || looks < frames/2 {
		t.Fatalf("the step arrived in %d frames (%d looks at the budget); want it cut into many", frames, looks)
	}
	if at[0] != step || at[1] != step {
		t.Fatalf("answered at %v; want the step and the kill both at %d", at, step)
	}
	if kill := held.Timeline().Actions; len(kill) == 0 || kill[len(kill)-1].T != step {
		t.Fatalf("the kill was recorded at %v; want at the step's moment %d", kill, step)
	}
	if got, want := simState(t, held), simState(t, free); got != want {
		t.Fatalf("with a budget the step arrived at\n%.300s\nwant the state without one\n%.300s", got, want)
	}

	answer(free, `{"type":"setSpeed","x":10}`, `{"type":"play"}`)
	answer(held, `{"type":"setSpeed","x":10}`, `{"type":"play"}`)
	for range 5 {
		free.Tick(100)
		held.Tick(100)
	}
	if f, h := free.State().TimeMs, held.State().TimeMs; h >= f || h <= step {
		t.Fatalf("playing at 10×, five frames of 100 ms: %d ms with a budget, %d without; want less but some", h, f)
	}
	to := free.State().TimeMs + 1000
	for _, s := range []*Session{free, held} {
		answer(s, `{"type":"pause"}`)
		answer(s, fmt.Sprintf(`{"type":"step","ms":%d}`, to-s.State().TimeMs))
	}
	if got, want := simState(t, held), simState(t, free); got != want {
		t.Fatalf("at %d ms after playing with a budget:\n%.300s\nwant the state without one\n%.300s", to, got, want)
	}
}

// Commands sent at once are applied within the frame's budget too: the first every frame,
// the rest in order in the frames after, each answering in the frame that applied it.
func TestABudgetSpreadsAFloodOfCommands(t *testing.T) {
	s := NewDefault()
	s.SetBudget(func() bool { return true })
	var seqs []uint64
	for i := range 10 {
		seq, err := s.Enqueue(mustDecode(t, fmt.Sprintf(`{"type":"addConsumer","id":"x%d"}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, seq)
	}
	for i, want := range seqs {
		res := s.Tick(0)
		if len(res) != 1 || res[0].Seq != want || res[0].Err != nil {
			t.Fatalf("frame %d: %+v; want command %d applied alone", i, res, want)
		}
		if q := s.Queued(); q != len(seqs)-i-1 {
			t.Fatalf("frame %d: %d commands wait; want %d", i, q, len(seqs)-i-1)
		}
	}
	if n := len(s.State().Consumers); n != 14 {
		t.Fatalf("%d consumers; want the 4 of the default preset and the 10 added", n)
	}
}
