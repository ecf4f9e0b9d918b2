package api

import (
	"encoding/json"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
)

// tick plays one frame as the game loop does, at wall time wall, and returns its value.
func tick(t *testing.T, a *API, frameMs, wall float64, cmds ...string) Out {
	t.Helper()
	for _, c := range cmds {
		cmd, err := session.Decode([]byte(c))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Sess.Enqueue(cmd); err != nil {
			t.Fatal(err)
		}
	}
	rs := a.Sess.Tick(frameMs)
	return a.Frame(Input{Results: rs, Events: a.Sess.DrainEvents(), WallMs: wall})
}

// The frame pushes the state when it changed, paced while time runs, at once after a
// command; and nothing when nothing changed.
func TestFramePushesWhatChanged(t *testing.T) {
	a := New(session.NewDefault())
	first := tick(t, a, 16, 0)
	if first.State == nil || first.Timeline == nil || first.Series == nil {
		t.Fatalf("the first frame has state %v, timeline %v, series %v; want all three", first.State != nil, first.Timeline != nil, first.Series != nil)
	}
	if string(first.Lesson) != "" {
		t.Errorf("first frame lesson = %s; want none (no lesson ever started)", first.Lesson)
	}
	// Running: the state changes every frame, but is pushed once per StateEveryMs.
	pushes := 0
	for i := 1; i <= 60; i++ {
		if out := tick(t, a, 1000.0/60, float64(i)*1000/60); out.State != nil {
			pushes++
			if out.State.TimeMs != a.Sess.State().TimeMs {
				t.Errorf("pushed state at %d ms; the session is at %d", out.State.TimeMs, a.Sess.State().TimeMs)
			}
		}
	}
	if pushes < 4 || pushes > 6 {
		t.Errorf("%d state pushes in one second of running; want about 1000/%d", pushes, StateEveryMs)
	}
	// A command: its frame carries the state at once.
	out := tick(t, a, 0, 1000.5, `{"type":"pause"}`)
	if out.State == nil || !out.State.Paused || len(out.Results) != 1 {
		t.Fatalf("the pause frame: state %v, results %v; want the paused state and the result", out.State, out.Results)
	}
	// Paused and untouched: nothing at all, however long.
	for i := range 30 {
		if out := tick(t, a, 16, 2000+float64(i)*1000); !out.Empty() {
			t.Fatalf("a paused frame told %+v; want nothing", out)
		}
	}
}

// Pending holds while a frame has something left to tell (a paced state push, a lesson's
// status) and clears once a frame told it: a loop that runs only when asked relies on it.
func TestFramePendingUntilTold(t *testing.T) {
	a := New(session.NewDefault())
	tick(t, a, 16, 0)
	if a.Pending() {
		t.Fatal("Pending after the first frame pushed everything")
	}
	// Running: the second frame's change waits for StateEveryMs.
	if out := tick(t, a, 16, 16); out.State != nil {
		t.Fatal("a running frame 16 ms after a push pushed the state again")
	}
	if !a.Pending() {
		t.Error("not Pending with a change whose push waits")
	}
	tick(t, a, 0, 17, `{"type":"pause"}`)
	if a.Pending() {
		t.Error("Pending after the pause's frame pushed the paused state")
	}
	if out := tick(t, a, 16, 5000); !out.Empty() || a.Pending() {
		t.Errorf("paused and untouched: frame %+v, Pending %v; want nothing", out, a.Pending())
	}
	call(t, a, "lessonStart", `{"id":"idle-consumers"}`)
	if !a.Pending() {
		t.Error("not Pending after lessonStart: its status and scenario wait for a frame")
	}
	if out := tick(t, a, 16, 5016); out.Lesson == nil || out.State == nil {
		t.Errorf("the frame after lessonStart: lesson %s, state %v; want both", out.Lesson, out.State != nil)
	}
	if a.Pending() {
		t.Error("Pending after the lesson's frame told it")
	}
}

// Series pushes carry only the samples recorded since the last push; put together they are
// the recorder's whole series, every sample once.
func TestFrameSeriesAreTheNewSamplesOnly(t *testing.T) {
	a := New(session.NewDefault())
	var ts []int64
	marks := 0
	for i := range 600 {
		if i == 100 {
			tick(t, a, 0, float64(i)*1000, `{"type":"setSpeed","x":20}`)
		}
		if i == 300 {
			out := tick(t, a, 0, float64(i)*1000, `{"type":"killConsumer","id":"c2"}`)
			if out.Series != nil {
				ts = append(ts, out.Series.T...)
				marks += len(out.Series.Marks)
			}
		}
		out := tick(t, a, 1000.0/60, float64(i)*1000/60)
		if out.Series != nil {
			if out.Series.FromMs == 0 {
				ts = ts[:0]
				marks = 0
			}
			ts = append(ts, out.Series.T...)
			marks += len(out.Series.Marks)
		}
	}
	// The last change, within the pace, comes once the pace allows, without another change.
	if out := tick(t, a, 0, 1e6); out.Series != nil {
		ts = append(ts, out.Series.T...)
		marks += len(out.Series.Marks)
	}
	all := a.Sess.Series().Data(0)
	data, _ := json.Marshal(ts)
	want, _ := json.Marshal(all.T)
	if string(data) != string(want) {
		t.Errorf("samples pushed %s;\nrecorded %s", data, want)
	}
	n := 0
	for _, m := range all.Marks {
		if m.T <= all.LastMs {
			n++
		}
	}
	if marks != n || n == 0 {
		t.Errorf("%d marks pushed; %d recorded up to the last sample", marks, n)
	}
}

// The lesson's status comes when it starts, moves on and stops; events come with their text
// in the page's language, notes as notes.
func TestFrameLessonAndEvents(t *testing.T) {
	a := New(session.NewDefault())
	tick(t, a, 16, 0)
	if _, err := a.Call("setLang", []byte(`"zh"`)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Call("lessonStart", []byte(`{"id":"idle-consumers"}`)); err != nil {
		t.Fatal(err)
	}
	out := tick(t, a, 16, 16)
	var st struct {
		ID   string `json:"id"`
		Step int    `json:"step"`
	}
	if err := json.Unmarshal(out.Lesson, &st); err != nil || st.ID != "idle-consumers" {
		t.Fatalf("after lessonStart the frame's lesson = %s (%v); want idle-consumers", out.Lesson, err)
	}
	if out := tick(t, a, 16, 32); out.Lesson != nil {
		t.Errorf("an unchanged lesson was pushed again: %s", out.Lesson)
	}
	out = tick(t, a, 16, 48, `{"type":"addConsumer"}`)
	var said, noted bool
	for _, e := range out.Events {
		if e.Kind == cluster.EventAction && e.Say != "" && e.Say != e.Text {
			said = true
		}
	}
	for i := 0; out.Lesson == nil && i < 2000; i++ {
		out = tick(t, a, 100, 64+float64(i)*100)
	}
	if err := json.Unmarshal(out.Lesson, &st); err != nil || st.Step != 1 {
		t.Errorf("after the step's action the lesson = %s; want step 1", out.Lesson)
	}
	for _, n := range out.Notes {
		noted = noted || n.Kind == "lesson"
	}
	if !said || !noted {
		t.Errorf("events %+v, notes %+v; want an action said in Chinese and a lesson note", out.Events, out.Notes)
	}
	if _, err := a.Call("lessonStop", nil); err != nil {
		t.Fatal(err)
	}
	if out := tick(t, a, 16, 1e6); string(out.Lesson) != "null" {
		t.Errorf("after lessonStop the lesson = %q; want null", out.Lesson)
	}
}
