package session

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// Time travel. A session's timeline is everything applied so far (record) followed by what is
// still to come (the loaded scenario's steps from next on, which after a seek back include the
// actions recorded after the moment sought). The horizon is the furthest moment reached.
//
// On the way to the horizon the session keeps checkpoints: copies of the cluster with the
// length of the record at that moment. A seek restores the latest checkpoint at or before its
// target and replays from there, which the engine's determinism makes equal to a replay from
// 00:00. Checkpoints are taken at multiples of an interval that doubles whenever there are more
// than maxCheckpoints (fewer for a large cluster, maxCheckpointsOf), keeping every other one, so a long session holds a bounded number and a
// seek replays at most one interval. A copy of the default preset's cluster holds about 17 KB,
// the large preset's about 240 KB (BenchmarkClone in core/cluster).
//
// Share links carry the whole timeline with the moment shown: opened, a link stops at that
// moment, in the state shown, and the actions that came after it in the sharer's timeline
// happen again if the reader plays on, as a scenario's own steps do. The reader's horizon is
// the link's moment.

// recorder is what the session tells the series: samples at multiples of its interval, a mark
// at each applied action, and the moment after which the past is gone.
type recorder interface {
	IntervalMs() int64
	Sample(*cluster.Snapshot)
	Mark(t int64, text string)
	Truncate(t int64)
}

// Checkpoint spacing.
const (
	firstCheckpointEvery = 5000 // virtual ms; doubled as the timeline grows
	maxCheckpoints       = 48
	minCheckpoints       = 8
	// checkpointShape bounds what the checkpoints hold together, in queues and consumers (a
	// copy holds about 750 bytes for each): the page's garbage collector marks every copy
	// each cycle, in one stretch of the page's thread, so 48 copies of the large preset's
	// cluster (11 MB) held the page about 50 ms a cycle. The large preset keeps 12.
	checkpointShape = 4000
)

// maxCheckpointsOf is how many checkpoints a session of sc keeps.
func maxCheckpointsOf(sc scenario.Scenario) int {
	return min(maxCheckpoints, max(minCheckpoints, checkpointShape/max(queues(sc)+len(sc.Consumers), 1)))
}

type checkpoint struct {
	t      int64
	c      *cluster.Cluster // never advanced: restoring copies it again
	recLen int              // len(record) when it was taken: the timeline steps applied
}

// nextCheckpoint is the time of the next checkpoint to take: the first multiple of the
// interval after the latest one kept, and not before now.
func (s *Session) nextCheckpoint() int64 {
	last := s.cps[len(s.cps)-1].t
	next := (last/s.cpEvery + 1) * s.cpEvery
	if now := s.c.Now(); next < now {
		next = (now + s.cpEvery - 1) / s.cpEvery * s.cpEvery
	}
	return next
}

// keepCheckpoint copies the cluster as it is now and thins the list out when it is full.
func (s *Session) keepCheckpoint() {
	s.cps = append(s.cps, checkpoint{t: s.c.Now(), c: s.c.Clone(), recLen: len(s.record)})
	for len(s.cps) > maxCheckpointsOf(s.scn) {
		s.cpEvery *= 2
		s.cps = slices.DeleteFunc(s.cps, func(cp checkpoint) bool { return cp.t%s.cpEvery != 0 })
	}
}

// timeline is the loaded scenario with its timeline replaced by this session's: every step
// applied so far and every step still to come, in time order.
func (s *Session) timeline() scenario.Scenario {
	sc := s.scn
	sc.Timeline = make([]scenario.Step, 0, len(s.record)+len(s.scn.Timeline)-s.next)
	sc.Timeline = append(append(sc.Timeline, s.record...), s.scn.Timeline[s.next:]...)
	return sc
}

// seek moves to virtual time ms, paused, without telling again what happens on the way (one
// action event says where it went). From the latest checkpoint at or before ms when that is
// later than now or ms is in the past; otherwise it simply advances. Nothing of the timeline
// changes: actions recorded after ms happen again as time passes them.
func (s *Session) seek(ms int64) error {
	s.paused = true
	s.carry = 0
	now := s.c.Now()
	i, _ := slices.BinarySearchFunc(s.cps, ms+1, func(cp checkpoint, t int64) int { return cmp.Compare(cp.t, t) })
	cp := s.cps[max(i-1, 0)]
	if ms < now || cp.t > now {
		s.restore(cp)
	}
	// From here (or the checkpoint), over several frames when the way is long.
	s.reachTo(ms, cluster.Event{Cause: CauseSeek, N: ms, Text: "moved to " + scenario.Clock(ms)}, true)
	return nil
}

// restore puts the world back as it was at checkpoint cp, to replay from there.
func (s *Session) restore(cp checkpoint) {
	sc := s.timeline()
	// The series is left as it is, samples and marks past ms included: the timeline has not
	// changed, so replaying it would record the same values again (the charts draw "now" among
	// them). Nothing is sampled or marked twice: every checkpoint lies before sampleNext and
	// within the markedN steps already marked. Only continuing, which changes the future,
	// truncates the series.
	s.scn = sc
	s.next = cp.recLen
	s.record = slices.Clone(sc.Timeline[:cp.recLen]) // a new array: published headers stay valid
	s.c = cp.c.Clone()
	s.c.SetObserver(s.observe)
}

// cont discards the future: every step after now (recorded actions and the scenario's own),
// the checkpoints after now and the series after now; the horizon becomes now. because names
// the action that asked for it implicitly ("" for the continue command).
func (s *Session) cont(because string) {
	now := s.c.Now()
	dropped := len(s.scn.Timeline) - s.next
	sc := s.timeline()
	sc.Timeline = sc.Timeline[:len(s.record):len(s.record)]
	s.scn = sc
	s.next = len(s.record)
	s.cps = slices.DeleteFunc(s.cps, func(cp checkpoint) bool { return cp.t > now })
	s.rec.Truncate(now)
	iv := max(s.rec.IntervalMs(), 1)
	s.sampleNext = min(s.sampleNext, (now/iv+1)*iv)
	s.markedN = len(s.record)
	for i, a := range s.acts {
		if a.T > now {
			s.acts = s.acts[:i:i] // the published array stays as it is
			break
		}
	}
	s.horizon = now
	s.dirty = true
	text := "continuing from " + scenario.Clock(now) + "; " + plural(dropped, "later action") + " discarded"
	if because != "" {
		text = because + " behind the end of the timeline: " + text
	}
	s.say(cluster.Event{Cause: CauseContinue, Arg: because, N: int64(dropped), Text: text})
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// target names what a command acts on, for short texts: its consumer, broker or setting.
func target(c cluster.Command) string {
	switch {
	case c.ID != "" && c.Broker != "":
		return c.ID + " " + c.Broker
	case c.ID != "":
		return c.ID
	case c.Broker != "":
		return c.Broker
	case c.Strategy != "":
		return c.Strategy
	case c.Model != "":
		return c.Model
	case c.Table != "":
		return c.Table
	case c.On != nil:
		return strconv.FormatBool(*c.On)
	}
	return ""
}

// actionText is a command in a few words for the charts' markers and the scrubber's ticks:
// "killConsumer c2", "slowBroker broker-a 2000".
func actionText(c cluster.Command) string {
	text := c.Type
	if t := target(c); t != "" {
		text += " " + t
	}
	switch {
	case c.LatencyMs != nil:
		text += " " + strconv.Itoa(*c.LatencyMs)
	case c.Queues != nil:
		text += " " + strconv.Itoa(*c.Queues)
	case c.Rate != nil:
		text += " " + strconv.Itoa(*c.Rate)
	}
	return text
}

// Action is one action of the timeline, for the scrubber's ticks.
type Action struct {
	T    int64  `json:"t"`
	Text string `json:"text"`
}

// Timeline is what the scrubber draws: where the session is, how far this timeline reaches,
// its actions (those applied and those still to come, and those the engine took by itself up
// to the horizon: an autoscaler's steps) and its checkpoints' times.
type Timeline struct {
	NowMs       int64    `json:"nowMs"`
	HorizonMs   int64    `json:"horizonMs"`
	Paused      bool     `json:"paused"`
	Actions     []Action `json:"actions"`
	Checkpoints []int64  `json:"checkpoints"`
	// Rounds are the rebalances a history read from logs shows (observed.go), in its order;
	// absent without one.
	Rounds []Action `json:"rounds,omitempty"`
}

// Timeline returns the published timeline. Safe from any goroutine.
func (s *Session) Timeline() Timeline {
	s.mu.Lock()
	rec, scn, next, cps, acts := s.pubRecord, s.pubScn, s.pubNext, s.pubCps, s.pubActs
	tl := Timeline{NowMs: s.last.TimeMs, HorizonMs: s.last.HorizonMs, Paused: s.last.Paused, Rounds: s.pubRounds}
	s.mu.Unlock()
	tl.Actions = make([]Action, 0, len(rec)+len(scn.Timeline)-next+len(acts))
	// The steps in time order, with the engine's own actions (an autoscaler's steps), also in
	// time order, among them: each after the steps at its moment.
	add := func(st scenario.Step) {
		for len(acts) > 0 && acts[0].T < st.At.Ms() {
			tl.Actions, acts = append(tl.Actions, acts[0]), acts[1:]
		}
		tl.Actions = append(tl.Actions, Action{T: st.At.Ms(), Text: actionText(st.Command)})
	}
	for _, st := range rec {
		add(st)
	}
	for _, st := range scn.Timeline[next:] {
		add(st)
	}
	tl.Actions = append(tl.Actions, acts...)
	tl.Checkpoints = slices.Clone(cps)
	return tl
}
