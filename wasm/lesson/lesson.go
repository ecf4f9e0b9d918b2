// Package lesson holds the playground's guided lessons: each a small scenario and a list of
// steps, every step a prompt (what to do or watch), a check on the simulation and an
// explanation of why RocketMQ behaves so, in English and Chinese. A Tracker follows one
// learner through one lesson from the session's published snapshots and events; it reads
// copies only, so the same checks run natively in tests and in the browser.
package lesson

import (
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// Text is one piece of prose in both languages of the playground.
type Text struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// In returns the text in lang ("zh" or anything else for English).
func (t Text) In(lang string) string {
	if lang == "zh" {
		return t.Zh
	}
	return t.En
}

// Step is one thing the learner does or watches. Check decides, from the simulation as it
// is now and what happened since the step began, whether it is done.
type Step struct {
	Prompt  Text
	Explain Text
	// Speed is a speed the step suggests (the wait it asks for is long at 1×); 0: none.
	Speed float64
	// Acts says the step asks the learner to do something (not only to watch): it cannot
	// complete while the learner does nothing.
	Acts  bool
	Check func(c *Context) bool
}

// Lesson is one guided lesson.
type Lesson struct {
	ID       string
	Title    Text
	Goal     Text
	Scenario func() scenario.Scenario
	Steps    []Step
}

// Context is what a check sees.
type Context struct {
	Now       cluster.Snapshot // the simulation as it is
	StepStart cluster.Snapshot // as it was when the step began
	First     cluster.Snapshot // as it was when the lesson began
	Events    []cluster.Event  // since the step began, oldest first
	All       []cluster.Event  // since the lesson began (bounded, oldest dropped first)
	// became[id+"/"+status] is the virtual time of the first snapshot that showed consumer
	// id with that status.
	became map[string]int64
}

// Became returns when consumer id was first seen with status (cluster.Status…).
func (c *Context) Became(id, status string) (int64, bool) {
	t, ok := c.became[id+"/"+status]
	return t, ok
}

// maxEvents bounds the events a tracker keeps: the lessons' clusters are small, so this is
// many minutes of their story.
const maxEvents = 20000

// Tracker follows one lesson's progress.
type Tracker struct {
	lesson *Lesson
	step   int // the current step; len(Steps) when the lesson is complete
	ctx    Context
}

// NewTracker starts following l from its first step; snap is the lesson's scenario as just
// loaded.
func NewTracker(l *Lesson, snap cluster.Snapshot) *Tracker {
	t := &Tracker{lesson: l, ctx: Context{Now: snap, StepStart: snap, First: snap, became: map[string]int64{}}}
	t.noteStatuses(snap)
	return t
}

// Lesson is the lesson followed.
func (t *Tracker) Lesson() *Lesson { return t.lesson }

// Step is the index of the current step (len(Steps) once the lesson is complete).
func (t *Tracker) Step() int { return t.step }

// Done says the lesson is complete.
func (t *Tracker) Done() bool { return t.step >= len(t.lesson.Steps) }

// Observe takes the simulation's new snapshot and the events since the last call, checks the
// current step and returns its index when it completed now (-1 otherwise). At most one step
// completes per call: the next one begins from this snapshot.
func (t *Tracker) Observe(snap cluster.Snapshot, events []cluster.Event) int {
	if t.Done() {
		return -1
	}
	t.ctx.Now = snap
	t.noteStatuses(snap)
	t.ctx.Events = appendBounded(t.ctx.Events, events)
	t.ctx.All = appendBounded(t.ctx.All, events)
	if !t.lesson.Steps[t.step].Check(&t.ctx) {
		return -1
	}
	done := t.step
	t.step++
	t.ctx.StepStart = snap
	t.ctx.Events = nil
	return done
}

func (t *Tracker) noteStatuses(snap cluster.Snapshot) {
	for _, c := range snap.Consumers {
		k := c.ID + "/" + c.Status
		if _, ok := t.ctx.became[k]; !ok {
			t.ctx.became[k] = snap.TimeMs
		}
	}
}

func appendBounded(dst, src []cluster.Event) []cluster.Event {
	dst = append(dst, src...)
	if n := len(dst) - maxEvents; n > 0 {
		dst = slices.Delete(dst, 0, n)
	}
	return dst
}

// All returns every lesson, in the order a workshop takes them.
func All() []*Lesson { return lessons }

// ByID returns the lesson with id, or nil.
func ByID(id string) *Lesson {
	for _, l := range lessons {
		if l.ID == id {
			return l
		}
	}
	return nil
}

// IDs lists the lessons' ids in order.
func IDs() []string {
	ids := make([]string, len(lessons))
	for i, l := range lessons {
		ids[i] = l.ID
	}
	return ids
}
