package api

import (
	"encoding/json"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/narrate"
	"github.com/lbscope/lbscope/wasm/series"
	"github.com/lbscope/lbscope/wasm/session"
)

// Input is what the game loop hands the API once per frame, after the session's tick.
type Input struct {
	Results []session.Result // the commands the tick applied
	Events  []cluster.Event  // drained from the session
	WallMs  float64          // the page's clock (performance.now), for pacing the pushes
}

// Out is everything the page is told about one frame, in one value: the bridge resolves the
// commands' promises from Results, hands Events and Notes to lbscope.on's listeners, and pushes
// the whole of it, as JSON, to the page's store (lbscope.on("frame", fn)). What did not change
// is left out: State and Timeline come when the session published a change, at most once per
// StateEveryMs of wall time unless a command was applied (then at once, before its promise
// settles); Series brings only the samples recorded since the last push (all of them, from 0,
// when its epoch changed); Lesson comes when the lesson in progress started, stopped or moved
// on (JSON null: none).
type Out struct {
	T        int64             `json:"t"`
	Results  []session.Result  `json:"-"`
	Events   []Event           `json:"events"`
	Notes    []Note            `json:"notes"`
	State    *session.State    `json:"state,omitempty"`
	Timeline *session.Timeline `json:"timeline,omitempty"`
	Series   *series.Data      `json:"series,omitempty"`
	Lesson   json.RawMessage   `json:"lesson,omitempty"`
}

// Event is an engine or session event as the page gets it: its JSON form (text in the
// engine's English, cause and the values it names) plus Say, the text in the page's language.
type Event struct {
	cluster.Event
	Say string `json:"say"`
}

// Empty reports whether the frame has nothing to tell.
func (o *Out) Empty() bool {
	return len(o.Results) == 0 && len(o.Events) == 0 && len(o.Notes) == 0 && o.State == nil &&
		o.Timeline == nil && o.Series == nil && o.Lesson == nil
}

// StateEveryMs paces the state's pushes while time runs: the panel, the scrubber and the
// charts read no faster than people do.
const StateEveryMs = 250

// outState is what the last frames pushed; a.mu guards it.
type outState struct {
	version    uint64  // the session's Version last pushed
	wallMs     float64 // when the state was last pushed
	pushed     bool
	epoch      int64 // the series' epoch and last sample pushed
	seriesLast int64
	lessonVer  int // bumped when the lesson's status changes
	lessonSent int
}

// Frame follows one frame: narration and the lesson in progress see its events, and the
// page's value of it is built.
func (a *API) Frame(in Input) Out {
	a.mu.Lock()
	defer a.mu.Unlock()
	lang := a.Sess.Lang()
	out := Out{T: a.Sess.Snapshot().TimeMs, Results: in.Results, Events: make([]Event, len(in.Events)), Notes: []Note{}}
	for i, e := range in.Events {
		out.Events[i] = Event{Event: e, Say: narrate.Event(e, lang)}
	}
	out.Notes = append(out.Notes, a.narrateFrame(in.Events)...)
	out.Notes = append(out.Notes, a.lessonsFrame(in.Events)...)

	o := &a.out
	if v := a.Sess.Version(); v != o.version && (!o.pushed || len(in.Results) > 0 || in.WallMs-o.wallMs >= StateEveryMs || in.WallMs < o.wallMs) {
		st, tl := a.Sess.State(), a.Sess.Timeline()
		out.State, out.Timeline = &st, &tl
		o.version, o.wallMs, o.pushed = v, in.WallMs, true
		rec := a.Sess.Series()
		switch {
		case rec.Epoch() != o.epoch:
			d := marksUpTo(rec.Data(0))
			out.Series = &d
		case rec.LastMs() > o.seriesLast:
			d := marksUpTo(rec.Data(o.seriesLast + 1))
			out.Series = &d
		}
		if out.Series != nil {
			o.epoch, o.seriesLast = out.Series.Epoch, out.Series.LastMs
		}
	}
	if o.lessonVer != o.lessonSent {
		o.lessonSent = o.lessonVer
		out.Lesson, _ = json.Marshal(a.lessonStatus()) // "null" when none
	}
	return out
}

// StateDue reports whether a frame at wall time wallMs would push the state if it changed: a
// game loop on its way to a far moment gives such a frame less simulation, so that the push
// and the slice do not add up in one frame.
func (a *API) StateDue(wallMs float64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	o := &a.out
	return !o.pushed || wallMs-o.wallMs >= StateEveryMs || wallMs < o.wallMs
}

// Pending reports whether a frame has something left to tell the page: a change whose
// state push waits for StateEveryMs, or a lesson's new status. A game loop that runs only
// when asked (paused, nothing moving) keeps asking for frames while it holds.
func (a *API) Pending() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.Sess.Version() != a.out.version || a.out.lessonVer != a.out.lessonSent
}

// marksUpTo keeps the marks up to the last sample: a later one comes with the samples after
// it, so that no push repeats a mark.
func marksUpTo(d series.Data) series.Data {
	n := 0
	for n < len(d.Marks) && d.Marks[n].T <= d.LastMs {
		n++
	}
	d.Marks = d.Marks[:n]
	return d
}
