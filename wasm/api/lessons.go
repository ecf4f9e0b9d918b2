package api

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/lesson"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/words"
)

// lessonState is the guided lesson in progress, if any. A started lesson first waits for its
// scenario to be loaded (the session's load event, whose Arg is the title, says when): events
// before that belong to the old scenario.
type lessonState struct {
	l       *lesson.Lesson
	title   string // the lesson scenario's title, which the load and reset events carry in Arg
	waiting bool   // the load command is queued but not yet applied
	tr      *lesson.Tracker
}

// lessonJSON is a lesson as lessons() and lessonStatus() give it.
type lessonJSON struct {
	ID    string      `json:"id"`
	Title lesson.Text `json:"title"`
	Goal  lesson.Text `json:"goal"`
	// Scenario is the title of the lesson's scenario, as state().title carries it while the
	// lesson's scenario is loaded: the page names it by the lesson's title and goal.
	Scenario string `json:"scenario"`
	// Scripted says the lesson's strategy comes with its source: the page loads the
	// interpreter's wasm before it starts the lesson.
	Scripted bool       `json:"scripted,omitempty"`
	Steps    []stepJSON `json:"steps"`
	Step     *int       `json:"step,omitempty"`
	Done     *bool      `json:"done,omitempty"`
}

type stepJSON struct {
	Prompt  lesson.Text `json:"prompt"`
	Explain lesson.Text `json:"explain"`
	Speed   float64     `json:"speed,omitempty"` // a speed the step suggests
	Acts    bool        `json:"acts"`            // the learner must do something
	Done    bool        `json:"done"`
}

func describeLesson(l *lesson.Lesson, step int) lessonJSON {
	sc := l.Scenario()
	out := lessonJSON{ID: l.ID, Title: l.Title, Goal: l.Goal, Scenario: sc.Title, Scripted: sc.Strategy.Scripted()}
	for i, s := range l.Steps {
		out.Steps = append(out.Steps, stepJSON{Prompt: s.Prompt, Explain: s.Explain, Speed: s.Speed, Acts: s.Acts, Done: i < step})
	}
	return out
}

func init() {
	// The list is some 30 KB of prose in both languages that never changes: marshalled once,
	// not by reflection at every call (in a browser that took a frame's time).
	all := sync.OnceValue(func() rawJSON {
		out := []lessonJSON{}
		for _, l := range lesson.All() {
			out = append(out, describeLesson(l, 0))
		}
		data, err := json.Marshal(out)
		if err != nil {
			panic(err) // plain values: a bug
		}
		return data
	})
	register("lessons", func(a *API, _ json.RawMessage) (any, error) {
		return all(), nil
	})
	register("lessonStart", func(a *API, args json.RawMessage) (any, error) {
		var req struct {
			ID string `json:"id"`
		}
		want := `{id}, a lesson id (` + strings.Join(lesson.IDs(), ", ") + `)`
		if err := decode(args, &req, want); err != nil {
			return nil, err
		}
		l := lesson.ByID(req.ID)
		if l == nil {
			return nil, fmt.Errorf("no lesson %q; want one of %s", req.ID, strings.Join(lesson.IDs(), ", "))
		}
		sc := l.Scenario()
		if _, err := a.Sess.Enqueue(session.Command{Command: cluster.Command{Type: session.Load}, Parsed: &sc}); err != nil {
			return nil, err
		}
		a.mu.Lock()
		a.lessons = lessonState{l: l, title: sc.Title, waiting: true}
		a.out.lessonVer++
		a.mu.Unlock()
		return map[string]any{"ok": true, "id": l.ID}, nil
	})
	register("lessonStatus", func(a *API, _ json.RawMessage) (any, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		return a.lessonStatus(), nil
	})
	register("lessonStop", func(a *API, _ json.RawMessage) (any, error) {
		a.mu.Lock()
		a.lessons = lessonState{}
		a.out.lessonVer++
		a.mu.Unlock()
		return map[string]any{"ok": true}, nil
	})
}

// lessonStatus is the lesson in progress with its step, or nil; a.mu is held.
func (a *API) lessonStatus() *lessonJSON {
	ls := a.lessons
	if ls.l == nil {
		return nil
	}
	step, done := 0, false
	if ls.tr != nil {
		step, done = ls.tr.Step(), ls.tr.Done()
	}
	out := describeLesson(ls.l, step)
	out.Step, out.Done = &step, &done
	return &out
}

// lessonsFrame follows the lesson in progress through one frame; a.mu is held.
func (a *API) lessonsFrame(events []cluster.Event) []Note {
	ls := &a.lessons
	if ls.l == nil {
		return nil
	}
	loaded := -1
	for i, e := range events {
		// The lesson's scenario loaded, or reset to its start: follow it from the first step.
		if (e.Cause == session.CauseLoad || e.Cause == session.CauseReset) && e.Arg == ls.title {
			loaded = i
		}
	}
	if loaded >= 0 {
		a.out.lessonVer++
		ls.waiting = false
		ls.tr = lesson.NewTracker(ls.l, a.Sess.State().Snapshot)
		events = events[loaded+1:]
	}
	if ls.waiting || ls.tr == nil {
		return nil
	}
	st := a.Sess.State()
	i := ls.tr.Observe(st.Snapshot, events)
	if i < 0 {
		return nil
	}
	a.out.lessonVer++
	lang := a.Sess.Lang()
	n := len(ls.l.Steps)
	text := words.Format(lang, "api.lesson.step", i+1, n)
	if ls.tr.Done() {
		title := ls.l.Title.En
		if lang == words.ZH {
			title = ls.l.Title.Zh
		}
		text = words.Format(lang, "api.lesson.done", i+1, n, title)
	}
	return []Note{{Kind: "lesson", T: st.TimeMs, Text: text}}
}
