package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

func compareTick(t *testing.T, s *session.Session, cmds ...string) {
	t.Helper()
	for _, js := range cmds {
		cmd, err := session.Decode([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Enqueue(cmd); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range s.Tick(0) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
	}
	for s.State().Reaching != nil { // a far step goes a slice per frame
		s.Tick(0)
	}
}

// The page's comparison is scenario.Compare of the session's recorded scenario up to now,
// with a grid per variant that shows the final owners.
func TestCompareRecordedSession(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	compareTick(t, s, `{"type":"step","ms":20000}`)
	compareTick(t, s, `{"type":"killConsumer","id":"c2"}`)
	compareTick(t, s, `{"type":"step","ms":30000}`)
	out, err := a.Call("compare", []byte(`{"variants":[{"strategy":"AVG"},{"strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":10}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		TimeMs int64 `json:"timeMs"`
		Rows   []struct {
			Label      string `json:"label"`
			MovedTotal int    `json:"movedTotal"`
		} `json:"rows"`
		Table []scenario.Metric `json:"table"`
		Grids []struct {
			Brokers []struct {
				Name   string `json:"name"`
				Queues []struct {
					Queue  string   `json:"queue"`
					Owners []string `json:"owners"`
				} `json:"queues"`
			} `json:"brokers"`
			Consumers []struct {
				ID, Color, Status string
			} `json:"consumers"`
		} `json:"grids"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if got.TimeMs != 50000 {
		t.Errorf("timeMs %d; want 50000", got.TimeMs)
	}
	sc, now, err := s.Recorded()
	if err != nil {
		t.Fatal(err)
	}
	sc.Until = scenario.Duration(now)
	want, err := scenario.Compare(sc, []scenario.Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 2 || len(got.Grids) != 2 {
		t.Fatalf("%d rows, %d grids; want 2 and 2", len(got.Rows), len(got.Grids))
	}
	for i := range 2 {
		if got.Rows[i].MovedTotal != want.Rows[i].MovedTotal {
			t.Errorf("row %d moved %d; a native comparison moved %d", i, got.Rows[i].MovedTotal, want.Rows[i].MovedTotal)
		}
		g := got.Grids[i]
		if len(g.Brokers) != 4 || len(g.Brokers[0].Queues) != 8 {
			t.Fatalf("grid %d: %d brokers; want 4 of 8 queues", i, len(g.Brokers))
		}
		for _, b := range g.Brokers {
			for _, q := range b.Queues {
				if len(q.Owners) != 1 || q.Owners[0] == "c2" {
					t.Errorf("grid %d: %s owned by %v; want one live owner", i, q.Queue, q.Owners)
				}
				if q.Owners[0] != "" && !strings.Contains(strings.Join(want.Rows[i].Assignment[q.Queue], ","), q.Owners[0]) {
					t.Errorf("grid %d: %s owner %v differs from the assignment", i, q.Queue, q.Owners)
				}
			}
		}
		if len(g.Consumers) != 4 || g.Consumers[0].ID != "c1" || !strings.HasPrefix(g.Consumers[0].Color, "#") || len(g.Consumers[0].Color) != 7 {
			t.Errorf("grid %d consumers %+v", i, g.Consumers)
		}
		if g.Consumers[1].Status != "killed" {
			t.Errorf("grid %d: c2 is %q; want killed", i, g.Consumers[1].Status)
		}
	}
	if len(got.Table) == 0 || got.Table[0].Key != "movedTotal" {
		t.Errorf("table %+v", got.Table)
	}
}

// The page's "by client" runs what happened so far with every consumer on each profile: the
// Go consumer the learner added runs Java in the Java column.
func TestCompareByClientRecordedSession(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	compareTick(t, s, `{"type":"setStrategy","strategy":"CONSISTENT_HASH"}`)
	compareTick(t, s, `{"type":"step","ms":10000}`)
	compareTick(t, s, `{"type":"addConsumer","client":"go-2.1.2"}`)
	compareTick(t, s, `{"type":"step","ms":30000}`)
	out, err := a.Call("compare", []byte(`{"variants":[{"client":"java"},{"client":"go-2.1.2"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Rows []struct {
			Label      string              `json:"label"`
			Assignment map[string][]string `json:"assignment"`
		} `json:"rows"`
		Grids []struct {
			Consumers []struct{ ID string } `json:"consumers"`
		} `json:"grids"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Rows) != 2 || got.Rows[0].Label != "java" || got.Rows[1].Label != "go-2.1.2" {
		t.Fatalf("rows %+v", got.Rows)
	}
	for i, r := range got.Rows {
		if len(got.Grids[i].Consumers) != 5 {
			t.Errorf("%s: %d consumers; the added one is in the run", r.Label, len(got.Grids[i].Consumers))
		}
		for q, owners := range r.Assignment {
			if len(owners) != 1 {
				t.Errorf("%s: %s owned by %v; one client in the group agrees with itself", r.Label, q, owners)
			}
		}
	}
}

func TestCompareErrors(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	_, err := a.Call("compare", []byte(`{"variants":[{"strategy":"AVG"},{"strategy":"CONSISTENT_HASH"}]}`))
	if err == nil || !strings.Contains(err.Error(), "nothing to compare yet") {
		t.Errorf("at 00:00: %v", err)
	}
	compareTick(t, s, `{"type":"step","ms":5000}`)
	for _, tc := range []struct{ arg, want string }{
		{``, "needs an argument"},
		{`{}`, "needs variants"},
		{`{"variants":[{"strategy":"AVG"}]}`, "variants: 1 given; want 2 to 4"},
		{`{"variants":[{"strategy":"AVG"},{"strategy":"NOPE"}]}`, `variants[1].strategy: unknown strategy "NOPE"`},
		{`{"variants":[{"strategy":"AVG"},{"strat":"AVG"}]}`, `unknown field "strat"`},
		{`{"variants":[{"faultTable":"old"},{"faultTable":"current"}]}`, `variants[0].faultTable`},
		{`{"variants":[{"strategy":"AVG"},{"strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":-1}}]}`, `variants[1].params.virtualNodeCnt`},
		{`{"variants":[{"client":"java"},{"client":"go-9"}]}`, `variants[1].client: unknown client profile "go-9"`},
	} {
		_, err := a.Call("compare", []byte(tc.arg))
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "lbscope.compare: ") {
			t.Errorf("compare(%s) = %v; want …%s", tc.arg, err, tc.want)
		}
	}
}

// A day of the large preset is refused before any work, with the numbers; the same cluster
// for a few minutes is not.
func TestCompareIsBounded(t *testing.T) {
	large := scenario.Presets()["large"]
	two := []scenario.Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH"}}
	_, err := compareUpTo(large, scenario.MaxDuration.Ms(), two)
	if err == nil || !strings.Contains(err.Error(), "units of work; the page does at most") {
		t.Fatalf("24 h of the large preset: %v", err)
	}
	// What the refusal says fits, fits, and it is some minutes of the large preset.
	_, w, _ := compareSpan(large, scenario.MaxDuration.Ms(), two)
	fits := w.Fits(MaxCompareWork / 2)
	if !strings.Contains(err.Error(), "(about "+scenario.Clock(fits)+" of it)") {
		t.Errorf("the refusal does not say what fits (%s): %v", scenario.Clock(fits), err)
	}
	if fits < 10*60*1000 {
		t.Errorf("the page compares only %s of the large preset", scenario.Clock(fits))
	}
	if _, _, err := compareSpan(large, fits, two); err != nil {
		t.Errorf("what fits is refused: %v", err)
	}
	large.Timeline = []scenario.Step{{At: scenario.Duration(60000), Command: compareCommand(t, `{"type":"killConsumer","id":"c7"}`).Command}}
	c, err := compareUpTo(large, 180000, two)
	if err != nil {
		t.Fatal(err)
	}
	if c.Rows[1].MovedTotal >= c.Rows[0].MovedTotal {
		t.Errorf("large preset, one kill: CONSISTENT_HASH moved %d, AVG %d", c.Rows[1].MovedTotal, c.Rows[0].MovedTotal)
	}
}

func compareCommand(t *testing.T, js string) (c session.Command) {
	t.Helper()
	cmd, err := session.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

// The page's comparison runs a slice at a time, telling how far it got, and gives the same
// result as the comparison run at once.
func TestCompareRunsInSlicesWithProgress(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	compareTick(t, s, `{"type":"step","ms":60000}`, `{"type":"killConsumer","id":"c2"}`)
	compareTick(t, s, `{"type":"step","ms":540000}`)
	const arg = `{"variants":[{"strategy":"AVG"},{"strategy":"CONSISTENT_HASH"}]}`
	sc, now, err := s.Recorded()
	if err != nil {
		t.Fatal(err)
	}
	whole, err := compareUpTo(sc, now, []scenario.Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH"}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(whole)

	_, job, err := a.Start("compare", []byte(arg))
	if err != nil || job == nil {
		t.Fatalf("compare did not start a job: %v", err)
	}
	if _, _, err := a.Start("compare", []byte(arg)); err == nil || !strings.Contains(err.Error(), "a comparison is running") {
		t.Errorf("a second comparison meanwhile: %v", err)
	}
	slices, lastDone := 0, -1.0
	for !job.Step() {
		slices++
		out, err := a.Call("compareProgress", nil)
		if err != nil {
			t.Fatal(err)
		}
		var p comparing
		if err := json.Unmarshal(out, &p); err != nil {
			t.Fatalf("progress %s: %v", out, err)
		}
		if p.Variants != 2 || p.ToMs != now || p.Done <= lastDone || p.Done >= 1 {
			t.Fatalf("slice %d: progress %s after %v", slices, out, lastDone)
		}
		lastDone = p.Done
	}
	// Ten minutes of the default preset, twice, is some millions of units: several slices.
	w := scenario.CompareWork(sc, []scenario.Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH"}})
	if min := 2 * w.Units / CompareSliceWork / 2; int64(slices) < min {
		t.Errorf("%d slices for %s of work; want at least %d", slices, scenario.Units(2*w.Units), min)
	}
	got, err := job.Result()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("sliced comparison differs from the whole one:\n%.300s\n%.300s", got, want)
	}
	if out, _ := a.Call("compareProgress", nil); string(out) != "null" {
		t.Errorf("progress after the end: %s", out)
	}
}

// compareCancel stops the comparison where it is: its answer is an error saying so, and a new
// comparison can start.
func TestCompareCancel(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	compareTick(t, s, `{"type":"step","ms":600000}`)
	const arg = `{"variants":[{"strategy":"AVG"},{"strategy":"CONSISTENT_HASH"}]}`
	for _, first := range []int{0, 2} { // before its first slice, and after two
		_, job, err := a.Start("compare", []byte(arg))
		if err != nil {
			t.Fatal(err)
		}
		for range first {
			if job.Step() {
				_, err := job.Result()
				t.Fatalf("done too soon: %v", err)
			}
		}
		out, err := a.Call("compareCancel", nil)
		if err != nil || !strings.Contains(string(out), `"cancelled":true`) {
			t.Fatalf("compareCancel = %s, %v", out, err)
		}
		if !job.Step() {
			t.Fatal("a cancelled comparison goes on")
		}
		if _, err := job.Result(); err == nil || err.Error() != "lbscope.compare: cancelled" {
			t.Errorf("result of a cancelled comparison: %v", err)
		}
		if out, _ := a.Call("compareProgress", nil); string(out) != "null" {
			t.Errorf("progress after cancelling: %s", out)
		}
	}
	if out, _ := a.Call("compareCancel", nil); !strings.Contains(string(out), `"cancelled":false`) {
		t.Errorf("compareCancel with nothing running = %s", out)
	}
	if _, err := a.Call("compare", []byte(arg)); err != nil {
		t.Errorf("a comparison after cancelling: %v", err)
	}
}
