package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/wasm/session"
)

func TestTimelineMethod(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	for _, js := range []string{`{"type":"step","ms":7000}`, `{"type":"killConsumer","id":"c2"}`, `{"type":"step","ms":4000}`, `{"type":"seek","ms":3000}`} {
		cmd, err := session.Decode([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		s.Enqueue(cmd)
		s.Tick(0)
	}
	out, err := a.Call("timeline", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		NowMs, HorizonMs int64
		Paused           bool
		Actions          []struct {
			T    int64
			Text string
		}
		Checkpoints []int64
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.NowMs != 3000 || got.HorizonMs != 11000 || !got.Paused {
		t.Errorf("timeline() = %s; want now 3000, horizon 11000, paused", out)
	}
	if len(got.Actions) != 1 || got.Actions[0].T != 7000 || got.Actions[0].Text != "killConsumer c2" {
		t.Errorf("actions %+v; want the kill at 7000 (still ahead)", got.Actions)
	}
	if len(got.Checkpoints) == 0 || got.Checkpoints[0] != 0 {
		t.Errorf("checkpoints %v; want a list from 0", got.Checkpoints)
	}
	if _, err := a.Call("timeline", []byte(`{"x":1}`)); err == nil || !strings.Contains(err.Error(), "lbscope.timeline: takes no argument") {
		t.Errorf("timeline({x:1}) error %v", err)
	}
}

func TestEstimateSaysHowFarAFrameReaches(t *testing.T) {
	a := New(session.NewDefault())
	out, err := a.Call("estimate", []byte(`{"ms":86400000}`))
	if err != nil {
		t.Fatal(err)
	}
	var e Estimate
	if err := json.Unmarshal(out, &e); err != nil {
		t.Fatal(err)
	}
	if e.MaxUnits != session.MaxCallWork || e.Units <= e.MaxUnits || e.Frames < 2 || e.FitsMs <= 0 || e.FitsMs >= 86400000 {
		t.Fatalf("estimate of 24 h of the default preset: %+v; want more than a frame's work, several frames, a nearer moment that fits", e)
	}
	for _, bad := range []string{``, `{}`, `{"ms":-1}`, `{"ms":86400001}`, `{"ms":"1"}`, `{"ms":1,"x":2}`} {
		if _, err := a.Call("estimate", []byte(bad)); err == nil {
			t.Errorf("estimate(%s): no error", bad)
		}
	}
}
