package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/wasm/lesson"
	"github.com/lbscope/lbscope/wasm/session"
)

type statusJSON struct {
	ID    string `json:"id"`
	Step  int    `json:"step"`
	Done  bool   `json:"done"`
	Steps []struct {
		Prompt struct{ En, Zh string } `json:"prompt"`
		Done   bool                    `json:"done"`
	} `json:"steps"`
}

func call(t *testing.T, a *API, name, args string) []byte {
	t.Helper()
	out, err := a.Call(name, []byte(args))
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	return out
}

func status(t *testing.T, a *API) *statusJSON {
	t.Helper()
	out := call(t, a, "lessonStatus", "")
	if string(out) == "null" {
		return nil
	}
	var s statusJSON
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// frames plays n frames of ms virtual milliseconds as the game loop does, returning the
// lesson notes.
func frames(a *API, n int, ms float64) []Note {
	var notes []Note
	for range n {
		a.Sess.Tick(ms)
		for _, nt := range a.Frame(Input{Events: a.Sess.DrainEvents()}).Notes {
			if nt.Kind == "lesson" {
				notes = append(notes, nt)
			}
		}
	}
	return notes
}

func dispatchCmd(t *testing.T, a *API, js string) {
	t.Helper()
	cmd, err := session.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Sess.Enqueue(cmd); err != nil {
		t.Fatal(err)
	}
}

func TestLessonsListsEveryLessonInBothLanguages(t *testing.T) {
	a := New(session.NewDefault())
	var list []struct {
		ID       string            `json:"id"`
		Title    map[string]string `json:"title"`
		Goal     map[string]string `json:"goal"`
		Scenario string            `json:"scenario"`
		Steps    []struct {
			Prompt  map[string]string `json:"prompt"`
			Explain map[string]string `json:"explain"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(call(t, a, "lessons", ""), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) < 12 {
		t.Fatalf("lessons() lists %d; want at least 12", len(list))
	}
	scenarios := map[string]string{}
	for _, l := range list {
		if l.Title["en"] == "" || l.Title["zh"] == "" || l.Goal["en"] == "" || l.Goal["zh"] == "" || len(l.Steps) == 0 {
			t.Errorf("lesson %q lacks a title, goal or steps in a language: %+v", l.ID, l)
		}
		// The page names a loaded scenario by the lesson whose scenario title it has.
		if sc := lesson.ByID(l.ID); sc == nil || l.Scenario == "" || l.Scenario != sc.Scenario().Title {
			t.Errorf("lesson %q: scenario %q, not its scenario's title", l.ID, l.Scenario)
		}
		if other, ok := scenarios[l.Scenario]; ok {
			t.Errorf("lessons %q and %q have the same scenario title %q: the page could not tell them apart", other, l.ID, l.Scenario)
		}
		scenarios[l.Scenario] = l.ID
		for _, s := range l.Steps {
			if s.Prompt["zh"] == "" || s.Explain["en"] == "" {
				t.Errorf("lesson %q has a step without text", l.ID)
			}
		}
	}
}

func TestLessonRunsThroughCallAndFrame(t *testing.T) {
	a := New(session.NewDefault())
	call(t, a, "setLang", `"zh"`)
	if s := status(t, a); s != nil {
		t.Fatalf("lessonStatus before any lesson = %+v; want null", s)
	}
	call(t, a, "lessonStart", `{"id":"idle-consumers"}`)
	frames(a, 5, 16)
	if got := a.Sess.State().Title; got != "Lesson: idle consumers" {
		t.Fatalf("after lessonStart the session runs %q; want the lesson's scenario", got)
	}
	s := status(t, a)
	if s == nil || s.ID != "idle-consumers" || s.Step != 0 || s.Done || len(s.Steps) != 2 {
		t.Fatalf("status at the start = %+v", s)
	}
	// Nothing done: a long wait completes nothing.
	if notes := frames(a, 300, 1000); len(notes) != 0 {
		t.Fatalf("the learner did nothing, yet: %v", notes)
	}
	dispatchCmd(t, a, `{"type":"addConsumer"}`)
	notes := frames(a, 100, 100)
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "第 1 步") {
		t.Fatalf("after adding a consumer the notes are %v; want one saying step 1 is done, in Chinese", notes)
	}
	if s := status(t, a); s.Step != 1 || !s.Steps[0].Done || s.Steps[1].Done {
		t.Fatalf("status after step 1 = %+v", s)
	}
	dispatchCmd(t, a, `{"type":"killConsumer","id":"c1"}`)
	notes = frames(a, 100, 100)
	if len(notes) != 1 || !strings.Contains(notes[0].Text, "已完成") {
		t.Fatalf("after the kill the notes are %v; want the lesson complete", notes)
	}
	if s := status(t, a); !s.Done || s.Step != 2 || !s.Steps[1].Done {
		t.Fatalf("status at the end = %+v", s)
	}

	// Restarting reloads the scenario and starts from the first step.
	call(t, a, "setLang", `"en"`)
	call(t, a, "lessonStart", `{"id":"idle-consumers"}`)
	frames(a, 3, 16)
	if s := status(t, a); s.Step != 0 || s.Done || len(a.Sess.State().Consumers) != 4 {
		t.Fatalf("after a restart: status %+v with %d consumers", s, len(a.Sess.State().Consumers))
	}
	dispatchCmd(t, a, `{"type":"addConsumer"}`)
	if notes := frames(a, 100, 100); len(notes) != 1 || notes[0].Text != "Step 1 of 2 done." {
		t.Fatalf("notes in English = %v", notes)
	}
	call(t, a, "lessonStop", "")
	if s := status(t, a); s != nil {
		t.Fatalf("lessonStatus after lessonStop = %+v; want null", s)
	}
}

func TestLessonStartRefusesBadArguments(t *testing.T) {
	a := New(session.NewDefault())
	for _, c := range []struct{ args, want string }{
		{``, "needs an argument"},
		{`{"id":"nosuch"}`, `no lesson "nosuch"`},
		{`{"lesson":"avg-paging"}`, "unknown field"},
		{`"avg-paging"`, "want {id}"},
	} {
		_, err := a.Call("lessonStart", []byte(c.args))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("lessonStart(%s) error = %v; want one containing %q", c.args, err, c.want)
		}
	}
	if s := status(t, a); s != nil {
		t.Errorf("a refused start left a lesson: %+v", s)
	}
}

// A reset of the lesson's scenario (its event carries the title) starts the lesson again from
// the first step; loading another scenario does not.
func TestLessonFollowsReset(t *testing.T) {
	a := New(session.NewDefault())
	call(t, a, "lessonStart", `{"id":"idle-consumers"}`)
	frames(a, 3, 16)
	dispatchCmd(t, a, `{"type":"addConsumer"}`)
	if notes := frames(a, 100, 100); len(notes) != 1 {
		t.Fatalf("after adding a consumer the notes are %v; want step 1 done", notes)
	}
	dispatchCmd(t, a, `{"type":"load","preset":"small"}`)
	frames(a, 3, 16)
	if s := status(t, a); s.Step != 1 {
		t.Fatalf("after loading another scenario the lesson is at step %d; want 1 still", s.Step)
	}
	call(t, a, "lessonStart", `{"id":"idle-consumers"}`)
	frames(a, 3, 16)
	dispatchCmd(t, a, `{"type":"addConsumer"}`)
	frames(a, 100, 100)
	if s := status(t, a); s.Step != 1 {
		t.Fatalf("status before the reset = %+v; want step 1", s)
	}
	dispatchCmd(t, a, `{"type":"reset"}`)
	frames(a, 3, 16)
	if s := status(t, a); s.Step != 0 || s.Steps[0].Done {
		t.Fatalf("after a reset the lesson is at step %d; want 0", s.Step)
	}
	dispatchCmd(t, a, `{"type":"addConsumer"}`)
	if notes := frames(a, 100, 100); len(notes) != 1 || notes[0].Text != "Step 1 of 2 done." {
		t.Fatalf("after the reset and a new consumer the notes are %v; want step 1 done again", notes)
	}
}
