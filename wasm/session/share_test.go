package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// simState is the part of the state a share link must reproduce exactly.
func simState(t *testing.T, s *Session) string {
	t.Helper()
	snap := s.State().Snapshot
	snap.Sends = nil // a sample of messages in flight, bounded by the drawing, not the model
	data, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// straightRun is the state a run of sc from 00:00 straight to ms reaches, as simState gives it.
func straightRun(t *testing.T, sc scenario.Scenario, ms int64) string {
	t.Helper()
	sc.Until = scenario.Duration(ms)
	r, err := scenario.Run(sc, scenario.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := r.Snapshot
	want.Sends = nil
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func noErrors(t *testing.T, rs []Result) {
	t.Helper()
	for _, r := range rs {
		if r.Err != nil {
			t.Fatalf("command %d: %v", r.Seq, r.Err)
		}
	}
}

// A link taken after frames of running, commands and steps opens in a new session at the
// same moment in the same state, paused.
func TestShareRoundTrip(t *testing.T) {
	a := NewDefault()
	// A command at 00:00, before any frame: it must replay after what is due at 00:00.
	noErrors(t, run(t, a, 0, `{"type":"setLatencyFault","on":true}`))
	for range 40 {
		a.Tick(frame * 3) // uneven wall-clock chunks, as a browser gives
	}
	noErrors(t, run(t, a, frame, `{"type":"killConsumer","id":"c2"}`, `{"type":"addConsumer"}`, `{"type":"setSpeed","x":5}`))
	noErrors(t, run(t, a, 0, `{"type":"step","ms":1500}`))
	noErrors(t, run(t, a, 0, `{"type":"slowBroker","broker":"broker-b","latencyMs":2000}`, `{"type":"step","ms":4321}`))
	run(t, a, 0, `{"type":"killConsumer","id":"nobody"}`) // refused: not recorded
	noErrors(t, run(t, a, 0, `{"type":"step","ms":7}`))
	link, err := a.Share()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, "1.") {
		t.Fatalf("link %q; want 1.…", link)
	}

	b := NewDefault()
	b.Tick(frame) // a session that already ran a little: the link replaces it
	if err := b.OpenLink("#s=" + link); err != nil {
		t.Fatal(err)
	}
	if got, want := simState(t, b), simState(t, a); got != want {
		t.Errorf("opened link state differs:\n got %s\nwant %s", got, want)
	}
	if !b.State().Paused {
		t.Error("an opened link is not paused")
	}
	// The same link through the load command, and once more shared from the opened session.
	c := NewDefault()
	noErrors(t, run(t, c, 0, `{"type":"load","link":"`+link+`"}`))
	if got, want := simState(t, c), simState(t, a); got != want {
		t.Errorf("load link state differs")
	}
	again, err := c.Share()
	if err != nil {
		t.Fatal(err)
	}
	d := NewDefault()
	if err := d.OpenLink(again); err != nil {
		t.Fatal(err)
	}
	if got, want := simState(t, d), simState(t, a); got != want {
		t.Errorf("a link shared from an opened link differs")
	}
}

func TestSeek(t *testing.T) {
	a := NewDefault()
	noErrors(t, run(t, a, 0, `{"type":"step","ms":5000}`))
	noErrors(t, run(t, a, 0, `{"type":"killConsumer","id":"c1"}`, `{"type":"step","ms":5000}`))
	at10 := simState(t, a)
	// Forward.
	noErrors(t, run(t, a, 0, `{"type":"seek","ms":12000}`))
	if got := a.State().TimeMs; got != 12000 {
		t.Fatalf("after seek 12000 the time is %d", got)
	}
	// Backward past the kill, then forward again: the kill happens again at 5 s.
	noErrors(t, run(t, a, 0, `{"type":"seek","ms":3000}`))
	if got := a.State().TimeMs; got != 3000 {
		t.Fatalf("after seek 3000 the time is %d", got)
	}
	for _, c := range a.State().Consumers {
		if c.ID == "c1" && c.Status == cluster.StatusKilled {
			t.Errorf("at 3 s c1 is %s; want alive (killed at 5 s)", c.Status)
		}
	}
	noErrors(t, run(t, a, 0, `{"type":"seek","ms":10000}`))
	if got := simState(t, a); got != at10 {
		t.Errorf("seeking back and forth to 10 s differs from running to it")
	}
	if !a.State().Paused {
		t.Error("seek leaves the clock running")
	}
	if r := run(t, a, 0, `{"type":"seek","ms":-1}`); r[0].Err == nil {
		t.Error("seek -1 accepted")
	}
}

func TestOpenBadLinks(t *testing.T) {
	good, err := NewDefault().Share()
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"1.AAAA", "9.x", good[:len(good)/2], "nonsense", strings.Repeat("A", 70000)} {
		s := NewDefault()
		before := simState(t, s)
		err := s.OpenLink(link)
		if err == nil {
			t.Errorf("OpenLink(%.20q) accepted", link)
			continue
		}
		if simState(t, s) != before {
			t.Errorf("OpenLink(%.20q) changed the session after failing: %v", link, err)
		}
		r := run(t, s, 0, `{"type":"load","link":"`+link+`"}`)
		if r[0].Err == nil || !strings.Contains(r[0].Err.Error(), "link") {
			t.Errorf("load link %.20q: %v; want an error about the link", link, r[0].Err)
		}
	}
}

// A scenario without consumers or producers gives empty lists, not null, in the state's JSON.
func TestStateListsAreNeverNull(t *testing.T) {
	sc := scenario.Presets()["small"]
	sc.Consumers, sc.Producers, sc.Timeline = nil, nil, nil
	s, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	s.Tick(frame)
	data, err := json.Marshal(s.State())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"consumers", "producers", "brokers", "queues", "sends", "anomalies"} {
		if strings.Contains(string(data), `"`+k+`":null`) {
			t.Errorf("state has %s: null; want []", k)
		}
	}
}
