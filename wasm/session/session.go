package session

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/series"
)

// Bounds of the session's queues. A page that floods commands gets errors, not a frozen tab;
// events past the bound are dropped oldest first (the cluster's own log keeps the last 500).
const (
	MaxPending = 1024
	MaxEvents  = 1024
)

// Event kinds the session adds to the cluster's (cluster.EventAction, EventRebalance, …).
const (
	// EventError is a command the session or the engine refused, with the reason.
	EventError = "error"
)

// Causes of the session's own events, besides the engine's (cluster.CauseKind). A playground
// action's cause is its command type.
//
//	cause     kind    meaning                                                  fields set
//	pause     action  the clock stops                                          -
//	play      action  the clock runs again                                     Arg = speed ("2" for 2×)
//	setSpeed  action  the speed changed                                        Arg = speed
//	reset     action  the scenario starts again from 00:00                     Arg = its title
//	load      action  a scenario was loaded                                    Arg = its title
//	openLink  action  a share link's scenario was run to its moment, paused    Arg = its title, N = the moment (virtual ms)
//	seek      action  the world moved to another moment, paused                N = the moment (virtual ms)
//	continue  action  the future after now was discarded (the event's T)       N = later actions discarded, Arg = the action that asked ("killConsumer c2"), "" for continue itself
//	refused   error   a command was refused; Text gives the reason             Arg = its type, Consumer, Broker; N = the timeline step (1…) when a scenario step failed
const (
	CausePause    = Pause
	CausePlay     = Play
	CauseSetSpeed = SetSpeed
	CauseReset    = Reset
	CauseLoad     = Load
	CauseOpenLink = "openLink"
	CauseSeek     = Seek
	CauseContinue = Continue
	CauseRefused  = "refused"
)

// Causes maps each of the session's causes to the kind of event that carries it; with
// cluster.CauseKind it covers every event DrainEvents returns.
var Causes = map[string]string{
	CausePause:    cluster.EventAction,
	CausePlay:     cluster.EventAction,
	CauseSetSpeed: cluster.EventAction,
	CauseReset:    cluster.EventAction,
	CauseLoad:     cluster.EventAction,
	CauseOpenLink: cluster.EventAction,
	CauseSeek:     cluster.EventAction,
	CauseContinue: cluster.EventAction,
	CauseRefused:  EventError,
}

// Result is the outcome of one enqueued command, reported by the Tick that applied it.
type Result struct {
	Seq uint64 // the ticket Enqueue returned
	Err error  // nil when applied
	ID  string // the id the command's Fill hook chose when it gave none (addConsumer's c<N>)
}

// State is what the playground publishes after each tick: the cluster's snapshot (its fields
// inline in JSON) plus the driver's own. Its JSON form is the JS API's state().
type State struct {
	cluster.Snapshot
	Paused         bool     `json:"paused"`
	Speed          float64  `json:"speed"`
	Title          string   `json:"title"`
	Description    string   `json:"description"`
	Presets        []string `json:"presets"`
	Strategies     []string `json:"strategies"`
	Commands       []string `json:"commands"`
	NextConsumerID string   `json:"nextConsumerId"`
	TimelineLeft   int      `json:"timelineLeft"` // scenario steps not yet applied
	// HorizonMs is the furthest moment this timeline has reached: the end of the scrubber.
	// Seeking back leaves it; continue (or an action taken behind it) brings it back to now.
	HorizonMs     int64 `json:"horizonMs"`
	EventsDropped int64 `json:"eventsDropped"`
	// Reaching is set while the session is on its way to a moment too far for one frame (a
	// link's, a seek's, a step's; see work.go), paused: where from, where to, how far.
	Reaching *Reaching `json:"reaching,omitempty"`
	// Observed says what the loaded scenario's history read from logs is (observed.go);
	// absent without one.
	Observed *ObservedInfo `json:"observed,omitempty"`
}

type pending struct {
	seq uint64
	cmd Command
}

// Session is the playground's driver. Enqueue, State, Snapshot and DrainEvents are safe from
// any goroutine; Tick belongs to the game loop alone.
type Session struct {
	// Owned by the game loop (Tick).
	scn      scenario.Scenario
	c        *cluster.Cluster
	next     int // index of the next timeline step
	paused   bool
	speed    float64
	carry    float64 // virtual milliseconds owed but not yet whole
	dirty    bool    // something changed since the last publish
	observed []cluster.Event
	// record is every simulation command applied since the scenario was loaded, in order,
	// with its time: the timeline steps that ran and the page's commands. Appended only (a
	// load starts a new slice), so a published copy of its header stays valid.
	record []scenario.Step
	// acts are the actions the engine took by itself up to the horizon (an autoscaler's
	// steps), in time order: the timeline shows them with the record's. A replay takes them
	// again, so they are not recorded; continuing drops those after now. Copied on write:
	// published as is.
	acts []Action
	// series is the metrics over virtual time, for the charts; safe for concurrent use. A
	// load replaces it (under mu, since Series reads it from other goroutines).
	series *series.Recorder
	rec    recorder        // what the session feeds: series, or a test's fake
	newRec func() recorder // tests: the recorder a load starts (nil: series)
	// Time travel (timeline.go): the horizon, the checkpoints kept on the way to it, and where
	// the series stands.
	horizon    int64
	cps        []checkpoint   // by time; cps[0] is 00:00
	cpEvery    int64          // checkpoints are taken at multiples of it
	quiet      bool           // a seek is replaying: what happens is not told again
	reaching   *reach         // a moment on its way, a slice per frame (work.go)
	over       func() bool    // the frame's budget is spent (SetBudget); nil: none
	released   []Result       // results of commands whose moment was reached (or given up) this Tick
	sampleNext int64          // the next multiple of the series interval to sample
	markedN    int            // timeline steps (in record order) already marked in the series
	obs        *observedState // the loaded scenario's history read from logs; nil: none

	mu      sync.Mutex
	queue   []pending
	seq     uint64
	events  []cluster.Event
	dropped int64
	last    State
	// What Share reads, published with last: the loaded scenario, the record's header and
	// how many of the scenario's own steps have run.
	pubScn    scenario.Scenario
	pubRecord []scenario.Step
	pubNext   int
	pubCps    []int64  // the checkpoints' times
	pubRounds []Action // the logged rounds (observed.go)
	pubActs   []Action // acts
	version   uint64   // counts publishes: a reader compares it to see whether anything changed
	lang      string   // the page's language, "en" or "zh": of narration, lessons and the canvas
}

// Langs are the languages of the playground's prose.
var Langs = []string{"en", "zh"}

// SetLang sets the page's language ("en" or "zh").
func (s *Session) SetLang(lang string) error {
	if !slices.Contains(Langs, lang) {
		return fmt.Errorf(`language %q: want "en" or "zh"`, lang)
	}
	s.mu.Lock()
	s.lang = lang
	s.mu.Unlock()
	return nil
}

// Lang is the page's language, "en" until SetLang.
func (s *Session) Lang() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lang
}

// Version counts the Ticks that published a change: equal versions, equal State, Timeline
// and Snapshot. Safe from any goroutine.
func (s *Session) Version() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// New builds a session running s from time 0 at 1× speed.
func New(s scenario.Scenario) (*Session, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ss := &Session{speed: 1, series: series.NewRecorder(), lang: "en"}
	if err := ss.load(s); err != nil {
		return nil, err
	}
	ss.publish()
	return ss, nil
}

// NewDefault builds a session running the "default" preset.
func NewDefault() *Session {
	s, err := New(scenario.Presets()["default"])
	if err != nil {
		panic("session: the default preset does not build: " + err.Error()) // a bug in core
	}
	return s
}

// Enqueue queues cmd for the next Tick and returns its ticket, which that Tick's results name.
func (s *Session) Enqueue(cmd Command) (uint64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.queue) >= MaxPending {
		return 0, fmt.Errorf("%s: %d commands are waiting already; try again after the next frame", cmd.Type, MaxPending)
	}
	s.seq++
	s.queue = append(s.queue, pending{seq: s.seq, cmd: cmd})
	return s.seq, nil
}

// Queued is how many commands wait for a Tick. Safe from any goroutine.
func (s *Session) Queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Tick is one frame of the game loop: it applies every queued command in order, then, unless
// paused, advances virtual time by frameMs × speed. It returns the commands' results.
func (s *Session) Tick(frameMs float64) []Result {
	s.mu.Lock()
	if s.reaching != nil && !slices.ContainsFunc(s.queue, stopsReaching) {
		// On the way to a moment: one more slice; the commands wait for it.
		s.mu.Unlock()
		s.reachSlice()
		if s.dirty {
			s.publish()
		}
		return s.takeReleased(nil)
	}
	queue := s.queue
	s.queue = nil
	s.mu.Unlock()
	if s.reaching != nil {
		s.stopReaching()
	}

	results := make([]Result, 0, len(queue))
	for i, p := range queue {
		if i > 0 && s.over != nil && s.over() {
			// The frame's budget is spent: the rest wait for the next frame, in order (a page
			// that sends hundreds of commands at once gets them applied over a few frames).
			s.mu.Lock()
			s.queue = append(slices.Clone(queue[i:]), s.queue...)
			s.mu.Unlock()
			break
		}
		before := s.reaching
		id, err := s.apply(p.cmd)
		if err != nil {
			s.note(cluster.Event{T: s.c.Now(), Kind: EventError, Cause: CauseRefused, Arg: p.cmd.Type,
				Consumer: p.cmd.ID, Broker: p.cmd.Broker, Text: err.Error()})
		}
		r := Result{Seq: p.seq, Err: err, ID: id}
		s.dirty = true
		if s.reaching == nil || s.reaching == before {
			results = append(results, r)
			continue
		}
		// The command (a step, a seek) is on its way to a moment: it answers on arrival, and
		// the commands after it wait for the moment as those sent meanwhile do.
		s.reaching.held = append(s.reaching.held, r)
		s.mu.Lock()
		s.queue = append(slices.Clone(queue[i+1:]), s.queue...)
		s.mu.Unlock()
		break
	}
	if !s.paused && frameMs > 0 && !math.IsInf(frameMs, 0) {
		s.carry += min(frameMs, 1000) * s.speed
		if whole := int64(s.carry); whole > 0 {
			s.carry -= float64(whole)
			to := s.c.Now() + whole
			if whole > 1000 {
				// Past a virtual second a frame (high speeds) the frame does what fits: a
				// heavy cluster runs slower than asked rather than freezing the page. A
				// loaded scenario's second always fits (checkLoad).
				to = s.fitFrom(s.c.Now(), to)
			}
			// What does not fit in the frame's budget is not owed: a frame that cannot keep
			// up runs slower than asked.
			s.advanceSome(to)
		}
	}
	if s.dirty {
		s.publish()
	}
	return s.takeReleased(results)
}

// takeReleased appends to results those of the commands whose moment this Tick reached.
func (s *Session) takeReleased(results []Result) []Result {
	results = append(results, s.released...)
	s.released = nil
	return results
}

// Series returns the metrics recorder of the session (safe for concurrent use).
func (s *Session) Series() *series.Recorder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.series
}

// State returns what the last Tick published.
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

// Snapshot returns the cluster as the last Tick left it. Its slices are shared with other
// readers: treat it as read-only.
func (s *Session) Snapshot() cluster.Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last.Snapshot
}

// DrainEvents returns the events since the last drain (at most MaxEvents, oldest first).
func (s *Session) DrainEvents() []cluster.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.events
	s.events = nil
	return out
}

// apply carries out one command; id is the id its Fill hook chose when none was given
// (addConsumer's first free c<N>).
func (s *Session) apply(cmd Command) (id string, err error) {
	if !known(cmd.Type) {
		if cmd.Type == "" {
			return "", errors.New("command has no type")
		}
		return "", unknownType(cmd.Type)
	}
	switch cmd.Type {
	case Pause:
		s.paused = true
		s.say(cluster.Event{Cause: CausePause, Text: "paused"})
	case Play:
		s.paused = false
		s.say(cluster.Event{Cause: CausePlay, Arg: speedArg(s.speed), Text: "playing at " + speedText(s.speed)})
	case Step:
		if cmd.Ms == nil || *cmd.Ms < 1 || *cmd.Ms > MaxStepMs {
			return "", fmt.Errorf("step: needs ms, 1…%d virtual milliseconds", MaxStepMs)
		}
		// A step is exact: the clock stops first, so nothing but the step moves time.
		s.paused = true
		s.carry = 0
		s.reachTo(s.c.Now()+*cmd.Ms, cluster.Event{}, false)
	case SetSpeed:
		if cmd.X == nil || math.IsNaN(*cmd.X) || *cmd.X < MinSpeed || *cmd.X > MaxSpeed {
			got := "missing"
			if cmd.X != nil {
				got = strconv.FormatFloat(*cmd.X, 'g', -1, 64)
			}
			return "", fmt.Errorf("setSpeed: x %s; want %g…%g", got, MinSpeed, MaxSpeed)
		}
		s.speed = *cmd.X
		s.say(cluster.Event{Cause: CauseSetSpeed, Arg: speedArg(s.speed), Text: "speed " + speedText(s.speed)})
	case Seek:
		if cmd.Ms == nil || *cmd.Ms < 0 || *cmd.Ms > scenario.MaxDuration.Ms() {
			return "", fmt.Errorf("seek: needs ms, 0…%d virtual milliseconds", scenario.MaxDuration.Ms())
		}
		if err := s.seek(*cmd.Ms); err != nil {
			return "", fmt.Errorf("seek: %w", err)
		}
	case Continue:
		s.cont("")
	case Reset:
		if err := s.load(s.scn); err != nil {
			return "", fmt.Errorf("reset: %w", err)
		}
		s.say(cluster.Event{Cause: CauseReset, Arg: s.title(), Text: "reset: " + s.title() + " from 00:00"})
	case Load:
		if cmd.Link != "" {
			if len(cmd.Scenario) > 0 && string(cmd.Scenario) != "null" || cmd.Preset != "" {
				return "", errors.New("load: give scenario, preset or link, only one")
			}
			if err := s.OpenLink(cmd.Link); err != nil {
				return "", fmt.Errorf("load: %w", err)
			}
			return "", nil
		}
		sc, err := loaded(cmd)
		if err != nil {
			return "", fmt.Errorf("load: %w", err)
		}
		if err := s.load(sc); err != nil { // the old scenario and cluster stay
			return "", fmt.Errorf("load: %w", err)
		}
		s.say(cluster.Event{Cause: CauseLoad, Arg: s.title(), Text: "loaded " + s.title()})
	default:
		c := cmd.Command
		cluster.Fill(s.c, &c)
		if c.ID != cmd.ID {
			id = c.ID
		}
		return id, s.applySim(c)
	}
	return "", nil
}

// applySim applies a simulation command now and records it when the engine accepted it (a
// refused command changed nothing, and a link replaying it would only repeat the error).
func (s *Session) applySim(c cluster.Command) error {
	// What the engine accepts must stay shareable: a link holds MaxSteps actions.
	if len(s.record) >= scenario.MaxSteps {
		return fmt.Errorf("%d actions recorded, the most a share link holds (reset to start a new one)", len(s.record))
	}
	// Everything due at this moment happens first (at 00:00 before any frame, the timeline's
	// first steps and the cluster's first events), as it does before a timeline step: then
	// replaying the record as a timeline applies the command in the same place.
	s.advance(s.c.Now())
	if s.c.Now() < s.horizon {
		// The world never mixes a new action with an old future: behind the horizon an action
		// first discards what came after now, as continue does; a command the engine refuses
		// (tried on a copy) changes nothing, the future included.
		if err := s.c.Clone().Apply(c); err != nil {
			return err
		}
		s.cont(actionText(c))
	}
	if err := s.c.Apply(c); err != nil {
		return err
	}
	s.record = append(s.record, scenario.Step{At: scenario.Duration(s.c.Now()), Command: c})
	s.rec.Mark(s.c.Now(), actionText(c))
	s.markedN = len(s.record)
	return nil
}

// OpenLink loads a share link's scenario, runs it to the link's moment and pauses there. On
// error (the link's own words, from scenario.DecodeShare) the session is unchanged. The page
// calls it for a #s= fragment before the first Tick; later it runs as {"type":"load","link":…}.
func (s *Session) OpenLink(link string) error {
	sh, err := scenario.DecodeShare(link)
	if err != nil {
		return err
	}
	if err := s.load(sh.Scenario); err != nil {
		return err
	}
	s.paused = true
	// The link's past is not news; a far moment is reached over several frames.
	s.reachTo(sh.TimeMs, cluster.Event{Cause: CauseOpenLink, Arg: s.title(), N: sh.TimeMs,
		Text: "opened a shared link: " + s.title() + " at " + scenario.Clock(sh.TimeMs)}, true)
	if s.dirty {
		s.publish()
	}
	return nil
}

// Share returns the share link of the published state ("1.…", scenario.EncodeShare): the
// loaded scenario with its timeline replaced by what was recorded plus the steps still to
// come, run to the published time. Safe from any goroutine.
func (s *Session) Share() (string, error) {
	s.mu.Lock()
	base, rec, next, now := s.pubScn, s.pubRecord, s.pubNext, s.last.TimeMs
	s.mu.Unlock()
	sc, err := recorded(base, rec, next, now)
	if err != nil {
		return "", err
	}
	link, err := scenario.EncodeShare(scenario.Share{Scenario: sc, TimeMs: now})
	if err != nil {
		return "", fmt.Errorf("share: %w", err)
	}
	return link, nil
}

// recorded is base with its timeline replaced by rec (the steps applied so far) and the
// steps of base not yet run (from index next), running until at least now.
func recorded(base scenario.Scenario, rec []scenario.Step, next int, now int64) (scenario.Scenario, error) {
	if now > scenario.MaxDuration.Ms() {
		return scenario.Scenario{}, fmt.Errorf("share: the simulation is at %s, past the 24 h a scenario can cover", scenario.Clock(now))
	}
	sc := base
	sc.Timeline = make([]scenario.Step, 0, len(rec)+len(base.Timeline)-next)
	sc.Timeline = append(append(sc.Timeline, rec...), base.Timeline[next:]...)
	if n := len(sc.Timeline); n > scenario.MaxSteps {
		return scenario.Scenario{}, fmt.Errorf("share: %d actions so far; a link holds at most %d (reset to start a new one)", n, scenario.MaxSteps)
	}
	sc.Until = max(base.End(), scenario.Duration(now))
	return sc, nil
}

func loaded(cmd Command) (scenario.Scenario, error) {
	if cmd.Parsed != nil {
		if len(cmd.Scenario) > 0 || cmd.Preset != "" {
			return scenario.Scenario{}, errors.New("give scenario or preset, not both")
		}
		return *cmd.Parsed, cmd.Parsed.Validate()
	}
	raw := cmd.Scenario
	if len(raw) > 0 && string(raw) != "null" {
		if cmd.Preset != "" {
			return scenario.Scenario{}, errors.New("give scenario or preset, not both")
		}
		return scenario.Parse(raw)
	}
	if cmd.Preset == "" {
		return scenario.Scenario{}, errors.New(`needs scenario (a scenario file's JSON object) or preset ("small", "default" or "large")`)
	}
	p, ok := scenario.Presets()[cmd.Preset]
	if !ok {
		return scenario.Scenario{}, fmt.Errorf("no preset %q (presets: %v)", cmd.Preset, scenario.PresetNames())
	}
	return p, nil
}

// load builds a fresh cluster from sc at time 0; on error the session is unchanged.
func (s *Session) load(sc scenario.Scenario) error {
	if err := checkLoad(sc); err != nil {
		return err
	}
	c, err := cluster.New(sc.Config)
	if err != nil {
		return err
	}
	c.SetObserver(s.observe)
	s.scn, s.c, s.next, s.carry, s.dirty = sc, c, 0, 0, true
	s.obs = newObserved(sc.Observed)
	s.stopReaching()
	s.record, s.acts = nil, nil
	s.horizon, s.sampleNext, s.markedN = 0, 0, 0
	s.cpEvery = firstCheckpointEvery
	s.cps = []checkpoint{{t: 0, c: c.Clone()}}
	r := series.NewRecorder()
	s.mu.Lock()
	s.series = r
	s.mu.Unlock()
	s.rec = r
	if s.newRec != nil {
		s.rec = s.newRec()
	}
	return nil
}

// advance runs the cluster to time to, applying the scenario's timeline steps on the way, and
// on the way samples the series and keeps checkpoints at their multiples of virtual time. At
// one instant the steps come first: a sample or a checkpoint at t shows every step due at t.
// The playground runs past the scenario's until: it is a place to watch, not a test.
func (s *Session) advance(to int64) {
	over := s.over
	s.over = nil
	s.advanceSome(to)
	s.over = over
}

// advanceSome is advance held to the frame's budget (SetBudget): when the budget is spent
// it stops where the engine is — between two events, perhaps within one virtual millisecond —
// and reports false; calling it again goes on from there, event for event the same run
// (cluster.AdvanceSome). Without a budget it is advance.
func (s *Session) advanceSome(to int64) bool {
	if now := s.c.Now(); s.sampleNext < now {
		iv := max(s.rec.IntervalMs(), 1)
		s.sampleNext = (now + iv - 1) / iv * iv
	}
	defer func() {
		s.horizon = max(s.horizon, s.c.Now())
		s.dirty = true
	}()
	for {
		t, step := to, false
		if s.next < len(s.scn.Timeline) && s.scn.Timeline[s.next].At.Ms() <= t {
			t, step = s.scn.Timeline[s.next].At.Ms(), true
		}
		cp := s.nextCheckpoint()
		if step && t <= min(s.sampleNext, cp) {
			if !s.run(t) {
				return false
			}
			s.applyStep()
			continue
		}
		t = min(t, s.sampleNext, cp)
		if t > to || t < s.c.Now() {
			break
		}
		if !s.run(t) {
			return false
		}
		if t == s.sampleNext {
			snap := s.c.Counts() // what the series records, not the whole snapshot
			s.rec.Sample(&snap)
			iv := max(s.rec.IntervalMs(), 1)
			s.sampleNext = (t/iv + 1) * iv
		}
		if t == cp {
			s.keepCheckpoint()
		}
		if t == to {
			break
		}
	}
	return s.run(to)
}

// budgetEvents is how many engine events run between two looks at the budget. The costliest
// of them, a consumer's rebalance, takes a few milliseconds in a browser with the large
// preset's 64 clients and 256 queues, and its start is 64 of them at once.
const budgetEvents = 4

// run advances the cluster to t, in pieces while a budget is set; false when the budget ran
// out first.
func (s *Session) run(t int64) bool {
	if s.over == nil {
		s.c.Advance(t)
		return true
	}
	for !s.c.AdvanceSome(t, budgetEvents) {
		if s.over() {
			return false
		}
	}
	return true
}

// SetBudget bounds the simulation each Tick runs by the driver's clock, which the session
// itself never reads: over reports whether this frame's time for it is spent (the page's
// game loop: some milliseconds since the frame began). On the way to a far moment a slice
// then ends where the budget does, and playing, a frame that cannot keep up with its speed
// runs what fits — results are the same, only their frames differ. nil (tests, the command
// line) runs every Tick to its end.
func (s *Session) SetBudget(over func() bool) { s.over = over }

// applyStep applies the next timeline step at its time.
func (s *Session) applyStep() {
	st := s.scn.Timeline[s.next]
	s.next++
	s.c.Advance(st.At.Ms())
	// Recorded even when refused: a replay meets the same error at the same step.
	s.record = append(s.record, st)
	err := s.c.Apply(st.Command)
	if err != nil {
		s.note(cluster.Event{T: s.c.Now(), Kind: EventError, Cause: CauseRefused, Arg: st.Type, N: int64(s.next),
			Consumer: st.ID, Broker: st.Broker, Text: fmt.Sprintf("timeline step %d: %v", s.next, err)})
	}
	if len(s.record) > s.markedN {
		if err == nil {
			s.rec.Mark(s.c.Now(), actionText(st.Command))
		}
		s.markedN = len(s.record)
	}
}

// observe receives the cluster's events, synchronously, during Apply and Advance.
func (s *Session) observe(e cluster.Event) {
	if e.Kind == cluster.EventAction && e.Cause == cluster.CauseAutoscale {
		s.engineAct(e) // a replay meets it again: known already
	}
	if s.quiet {
		return
	}
	e.Queues = slices.Clone(e.Queues)
	e.Owners = slices.Clone(e.Owners)
	s.note(e)
}

// engineAct keeps an action the engine took by itself (an autoscaler's step) for the
// timeline and the charts' markers, once: "the autoscaler starts a3".
func (s *Session) engineAct(e cluster.Event) {
	text := e.Text
	if i := strings.IndexByte(text, ':'); i >= 0 {
		text = text[:i]
	}
	a := Action{T: e.T, Text: text}
	i := len(s.acts) // after every act at or before e.T
	for i > 0 && s.acts[i-1].T > e.T {
		i--
	}
	for j := i - 1; j >= 0 && s.acts[j].T == e.T; j-- {
		if s.acts[j] == a {
			return
		}
	}
	// A new array: the published one stays as it is.
	acts := make([]Action, 0, len(s.acts)+1)
	s.acts = append(append(append(acts, s.acts[:i]...), a), s.acts[i:]...)
	s.rec.Mark(e.T, text)
	s.dirty = true
}

// say notes a playground action (its cause, values and text) in the event stream, now.
func (s *Session) say(e cluster.Event) {
	e.T, e.Kind = s.c.Now(), cluster.EventAction
	s.note(e)
}

func (s *Session) note(e cluster.Event) {
	if s.quiet {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.events) >= MaxEvents {
		n := len(s.events) - MaxEvents + 1
		s.events = append(s.events[:0], s.events[n:]...)
		s.dropped += int64(n)
	}
	s.events = append(s.events, e)
}

// publish copies the cluster's state for readers on other goroutines.
func (s *Session) publish() {
	snap := s.c.Snapshot()
	// Lists are lists in JSON even when empty (a scenario may have no consumers or producers).
	snap.Brokers = orEmpty(snap.Brokers)
	snap.Queues = orEmpty(snap.Queues)
	snap.Consumers = orEmpty(snap.Consumers)
	snap.Producers = orEmpty(snap.Producers)
	snap.Sends = orEmpty(snap.Sends)
	snap.Anomalies = orEmpty(snap.Anomalies)
	st := State{
		Snapshot:       snap,
		Paused:         s.paused,
		Speed:          s.speed,
		Title:          s.scn.Title,
		Description:    s.scn.Description,
		Presets:        presetNames(),
		Strategies:     strategyNames(),
		Commands:       commandTypes(),
		NextConsumerID: cluster.NextConsumerID(snap.Consumers),
		TimelineLeft:   len(s.scn.Timeline) - s.next,
		HorizonMs:      s.horizon,
	}
	if s.reaching != nil {
		r := s.reaching.Reaching
		st.Reaching = &r
	}
	var rounds []Action
	if s.obs != nil {
		s.obs.fill(&st.Snapshot)
		st.Observed, rounds = s.obs.info, s.obs.rounds
	}
	cps := make([]int64, len(s.cps))
	for i, cp := range s.cps {
		cps[i] = cp.t
	}
	s.mu.Lock()
	st.EventsDropped = s.dropped
	s.last = st
	s.pubScn, s.pubRecord, s.pubNext = s.scn, s.record, s.next
	s.pubCps = cps
	s.pubRounds = rounds
	s.pubActs = s.acts
	s.version++
	s.mu.Unlock()
	s.dirty = false
}

// The lists a State names never change while the program runs, so every State shares one
// copy of each (read-only, capacity cut to length so an append copies): building the preset
// names built every preset and incident scenario, a twelfth of a frame's allocations.
var (
	presetNames   = sync.OnceValue(func() []string { return readOnly(scenario.PresetNames()) })
	strategyNames = sync.OnceValue(func() []string { return readOnly(allocate.Names()) })
	commandTypes  = sync.OnceValue(func() []string { return readOnly(Types()) })
)

func readOnly(xs []string) []string { return xs[:len(xs):len(xs)] }

func (s *Session) title() string {
	if s.scn.Title != "" {
		return s.scn.Title
	}
	return "the scenario"
}

func speedText(x float64) string {
	return speedArg(x) + "×"
}

// speedArg is a speed as the play and setSpeed events' Arg gives it: the number alone.
func speedArg(x float64) string {
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// stopsReaching reports whether cmd ends the way to a moment rather than wait for it.
func stopsReaching(p pending) bool {
	switch p.cmd.Type {
	case Load, Reset, Seek:
		return true
	}
	return false
}

// orEmpty is xs, or an empty slice for nil: JSON [] instead of null.
func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
