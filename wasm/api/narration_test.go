package api

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

// narrations runs one frame of the game loop: tick, drain, Frame; it returns the narration.
func narrations(t *testing.T, a *API, cmds ...cluster.Command) []Note {
	t.Helper()
	for _, c := range cmds {
		if _, err := a.Sess.Enqueue(session.Command{Command: c}); err != nil {
			t.Fatal(err)
		}
	}
	a.Sess.Tick(16)
	var out []Note
	for _, n := range a.Frame(Input{Events: a.Sess.DrainEvents()}).Notes {
		if n.Kind == "narration" {
			out = append(out, n)
		}
	}
	return out
}

func TestFrameNarratesInThePagesLanguage(t *testing.T) {
	s, err := session.New(scenario.Presets()["small"])
	if err != nil {
		t.Fatal(err)
	}
	a := New(s)
	narrations(t, a, cluster.Command{Type: session.Pause})
	ms := int64(30000)
	if _, err := s.Enqueue(session.Command{Command: cluster.Command{Type: session.Step}, Ms: &ms}); err != nil {
		t.Fatal(err)
	}
	narrations(t, a)

	got := narrations(t, a, cluster.Command{Type: "killConsumer", ID: "c3"})
	if len(got) != 1 || got[0].T != 30000 || got[0].Text != "c3 killed" {
		t.Errorf("narration of a kill = %+v; want one note at 30000, \"c3 killed\"", got)
	}
	if _, err := a.Call("setLang", []byte(`"zh"`)); err != nil {
		t.Fatal(err)
	}
	got = narrations(t, a, cluster.Command{Type: "partitionConsumer", ID: "c2"}, cluster.Command{Type: "killBroker", Broker: "broker-b"})
	if len(got) != 1 || !strings.HasPrefix(got[0].Text, "消费者 c2 网络断开") || !strings.HasSuffix(got[0].Text, "；broker-b 宕机") {
		t.Errorf("narration in zh = %+v", got)
	}
	if got := narrations(t, a); len(got) != 0 {
		t.Errorf("a frame without events narrates %+v", got)
	}
}

func TestFrameDoesNotRepeatItselfAtOnce(t *testing.T) {
	a := New(session.NewDefault())
	bad := cluster.Command{Type: "killConsumer", ID: "nobody"}
	if got := narrations(t, a, bad); len(got) != 1 || !strings.Contains(got[0].Text, `no consumer "nobody"`) {
		t.Fatalf("a refused command narrates %+v; want the refusal", got)
	}
	if got := narrations(t, a, bad); len(got) != 0 {
		t.Errorf("the same refusal in the next frame is said again: %+v", got)
	}
}
