package session

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// checkSessionCause fails when an event drained from a session has a cause neither the engine
// nor the session documents, of another kind, or whose values disagree with what its text says.
func checkSessionCause(t *testing.T, e cluster.Event) {
	t.Helper()
	kind, ok := Causes[e.Cause]
	if !ok {
		kind, ok = cluster.CauseKind(e.Cause)
	}
	if !ok {
		t.Fatalf("event %s %q has cause %q, documented neither by the session nor by the engine", e.Kind, e.Text, e.Cause)
	}
	if kind != e.Kind {
		t.Fatalf("event %q: cause %s is of kind %s; the event is %s", e.Text, e.Cause, kind, e.Kind)
	}
	var want string
	switch e.Cause {
	case CausePause:
		want = "paused"
	case CausePlay:
		want = "playing at " + e.Arg + "×"
	case CauseSetSpeed:
		want = "speed " + e.Arg + "×"
	case CauseReset:
		want = "reset: " + e.Arg + " from 00:00"
	case CauseLoad:
		want = "loaded " + e.Arg
	case CauseOpenLink:
		want = "opened a shared link: " + e.Arg + " at " + scenario.Clock(e.N)
	case CauseSeek:
		want = "moved to " + scenario.Clock(e.N)
	case CauseContinue:
		s := "s"
		if e.N == 1 {
			s = ""
		}
		want = "continuing from " + scenario.Clock(e.T) + "; " + itoa(e.N) + " later action" + s + " discarded"
		if e.Arg != "" {
			want = e.Arg + " behind the end of the timeline: " + want
		}
	case CauseRefused:
		if e.Arg == "" || e.N > 0 && !strings.HasPrefix(e.Text, "timeline step "+itoa(e.N)+": ") {
			t.Fatalf("refusal %+v: no command type, or a step number its text does not give", e)
		}
		return
	default:
		return // the engine's own, checked in core/cluster
	}
	if e.Text != want {
		t.Fatalf("event %s: text %q; its values say %q", e.Cause, e.Text, want)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestEveryEventHasADocumentedCause drives a session through a busy random history and every
// playground command (seek, continue, an action behind the horizon, reset, load, a link, a
// refusal, a failing timeline step) and checks each drained event's cause.
func TestEveryEventHasADocumentedCause(t *testing.T) {
	s := NewDefault()
	seen := map[string]bool{}
	stepRefused := false
	drain := func() {
		for _, e := range s.DrainEvents() {
			checkSessionCause(t, e)
			seen[e.Cause] = true
			stepRefused = stepRefused || e.Cause == CauseRefused && e.N == 2 && e.Arg == "killConsumer"
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for s.State().TimeMs < 200000 {
		randomActions(t, r, s, s.State().TimeMs+20000)
		drain()
	}
	for _, cmds := range [][]string{
		{`{"type":"seek","ms":30000}`},
		{`{"type":"continue"}`},
		{`{"type":"step","ms":5000}`, `{"type":"seek","ms":31000}`},
		{`{"type":"killConsumer","id":"c1"}`}, // behind the horizon: continues first
		{`{"type":"killConsumer","id":"nobody"}`},
		{`{"type":"reset"}`},
		{`{"type":"load","preset":"small"}`},
		{`{"type":"load","scenario":{"version":1,"title":"Twice","brokers":[{"name":"broker-a","queues":4}],` +
			`"consumers":[{"id":"c1"},{"id":"c2"}],"timeline":[{"at":"1s","type":"killConsumer","id":"c1"},` +
			`{"at":"2s","type":"killConsumer","id":"c1"}]}}`},
		{`{"type":"step","ms":3000}`},
	} {
		run(t, s, frame, cmds...)
		drain()
	}
	link, err := s.Share()
	if err != nil {
		t.Fatal(err)
	}
	run(t, s, 0, `{"type":"load","link":"`+link+`"}`)
	drain()

	var missing []string
	for cause := range Causes {
		if !seen[cause] {
			missing = append(missing, cause)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("session causes never seen: %v", missing)
	}
	if !stepRefused {
		t.Errorf("the failing timeline step 2 was not told as a refusal of killConsumer with N = 2")
	}
	for _, c := range []string{cluster.CauseRebalance, cluster.CauseRegister, "killConsumer"} {
		if !seen[c] {
			t.Errorf("the engine's cause %s never came through the session", c)
		}
	}
}
