package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"time"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

// lbscope.compare({variants: [{strategy: "AVG"}, {strategy: "CONSISTENT_HASH", params:
// {virtualNodeCnt: 10}}]}; a variant may be your own strategy, {strategy: {name, source}})
// runs the session's recorded scenario — the loaded one with
// everything done so far, up to the published time — once per variant and gives (a Promise
// of) scenario.Comparison's JSON plus, per variant, the final assignment as a grid to draw.
//
// A comparison is estimated first (scenario.CompareWork, scenario.WorkOf's units, once per
// variant) and refused beyond MaxCompareWork with the numbers and how far would fit. Within
// it, it runs as a Job: a slice of at most CompareSliceWork units at a time, each in its own
// task of the page, so the page never freezes (the largest comparison takes some seconds).
// lbscope.compareProgress() tells how far it got, lbscope.compareCancel() stops it; one
// comparison runs at a time.

// MaxCompareWork bounds one comparison (all variants together), in scenario.WorkOf's units:
// about 40 ns each in headless Chromium on the 2-core CI machine, so some seconds of the
// page's time, in slices. Two variants of the large preset cover about 30 minutes of virtual
// time, of the default preset about 24 hours.
const MaxCompareWork = 150_000_000

// A slice of a comparison ends after CompareSliceWork units (at a whole virtual second), or
// once it has taken CompareSliceTime of the page's clock, whichever comes first: the engine
// pauses every few events (scenario.PauseEvents), so even a moment that costs much — every
// consumer's first rebalance at once, on a CONSISTENT_HASH ring — is split.
const (
	CompareSliceWork = session.MaxSliceWork
	CompareSliceTime = 20 * time.Millisecond
)

// comparing is the comparison running, as lbscope.compareProgress() gives it.
type comparing struct {
	job *Job
	// Variant is the variant running (from 0) of Variants; AtMs the virtual time it reached
	// of ToMs; Done the share of the whole comparison done, 0…1 (by virtual time).
	Variant  int     `json:"variant"`
	Variants int     `json:"variants"`
	AtMs     int64   `json:"atMs"`
	ToMs     int64   `json:"toMs"`
	Units    int64   `json:"units"` // the estimate of the whole comparison
	Done     float64 `json:"done"`
}

type compareArgs struct {
	Variants []scenario.Variant `json:"variants"`
}

// CompareResult is what lbscope.compare returns.
type CompareResult struct {
	*scenario.Comparison
	// TimeMs is the published time the recorded scenario ran to.
	TimeMs int64 `json:"timeMs"`
	// Grids is each variant's final assignment, in row order, to draw like the canvas.
	Grids []Grid `json:"grids"`
}

// Grid is one variant's allocation at the end: brokers as columns of queue cells, and the
// consumers' colours as the canvas gives them (wasm/view's marks).
type Grid struct {
	Brokers   []GridBroker   `json:"brokers"`
	Consumers []GridConsumer `json:"consumers"`
}

// GridBroker is one broker's column.
type GridBroker struct {
	Name   string      `json:"name"`
	Down   bool        `json:"down"`
	Queues []GridQueue `json:"queues"`
}

// GridQueue is one queue cell; Owners is empty for a queue nobody pulls, longer than one for
// an overlap.
type GridQueue struct {
	Queue  string   `json:"queue"`
	ID     int      `json:"id"`
	Owners []string `json:"owners"`
}

// GridConsumer is a consumer's legend entry.
type GridConsumer struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Queues int    `json:"queues"`
	Color  string `json:"color"` // "#rrggbb"
	Ink    string `json:"ink"`   // text colour on Color
	Label  string `json:"label"`
}

func init() {
	registerJob("compare", func(a *API, args json.RawMessage) (any, error) {
		const want = `{variants: [{strategy: "AVG"}, {strategy: "CONSISTENT_HASH", params: {virtualNodeCnt: 10}}]}, your own strategy ({strategy: {name: "WEIGHTED", source: "def allocate(…)…"}}), faultTable/latencyFault variants or client variants ({client: "go-2.1.2"})`
		var in compareArgs
		if err := decode(args, &in, want); err != nil {
			return nil, err
		}
		if in.Variants == nil {
			return nil, errors.New("needs variants: " + want)
		}
		sc, now, err := a.Sess.Recorded()
		if err != nil {
			return nil, err
		}
		sc, w, err := compareSpan(sc, now, in.Variants)
		if err != nil {
			return nil, err
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if c := a.cmp; c != nil {
			return nil, fmt.Errorf("a comparison is running (variant %d of %d, at %s of %s): wait for it, or stop it with lbscope.compareCancel()",
				c.Variant+1, c.Variants, scenario.Clock(c.AtMs), scenario.Clock(c.ToMs))
		}
		c := &comparing{Variants: len(in.Variants), ToMs: now, Units: w.Units * int64(len(in.Variants))}
		c.job = newJob(func(pause func()) (any, error) {
			defer a.endCompare(c)
			progress, pauseEvents := a.comparePacing(c, sc, w, pause)
			return compareRun(sc, now, in.Variants, progress, pauseEvents)
		})
		a.cmp = c
		return c.job, nil
	})
	register("compareProgress", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if a.cmp == nil {
			return nil, nil
		}
		c := *a.cmp
		c.job = nil
		return c, nil
	})
	register("compareCancel", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		a.mu.Lock()
		c := a.cmp
		a.mu.Unlock()
		if c == nil {
			return map[string]any{"ok": true, "cancelled": false}, nil
		}
		c.job.Stop() // the comparison's promise answers {error: "lbscope.compare: cancelled"}
		a.endCompare(c)
		return map[string]any{"ok": true, "cancelled": true}, nil
	})
}

func (a *API) endCompare(c *comparing) {
	a.mu.Lock()
	if a.cmp == c {
		a.cmp = nil
	}
	a.mu.Unlock()
}

// comparePacing is the comparison's progress and pause functions: the progress function
// counts the work of each virtual second (and of the actions in it) and ends the slice at
// CompareSliceWork; both end it at CompareSliceTime.
func (a *API) comparePacing(c *comparing, sc scenario.Scenario, w scenario.Work, pause func()) (progress func(int, int64), pauseEvents func()) {
	spent, variant, next := int64(0), -1, 0
	began := time.Now()
	yield := func() {
		pause()
		spent, began = 0, time.Now()
	}
	progress = func(v int, ms int64) {
		if v != variant {
			variant, next = v, 0
			spent += w.Start
		}
		spent += w.PerSecond
		for ; next < len(sc.Timeline) && sc.Timeline[next].At.Ms() <= ms; next++ {
			spent += w.Round
		}
		a.mu.Lock()
		c.Variant, c.AtMs = v, ms
		if c.ToMs > 0 {
			c.Done = (float64(v) + float64(ms)/float64(c.ToMs)) / float64(c.Variants)
		}
		a.mu.Unlock()
		if spent >= CompareSliceWork || time.Since(began) >= CompareSliceTime {
			yield()
		}
	}
	pauseEvents = func() {
		if time.Since(began) >= CompareSliceTime {
			yield()
		}
	}
	return progress, pauseEvents
}

// compareUpTo compares sc as it ran up to now at once (tests; the page runs compareRun a
// slice at a time).
func compareUpTo(sc scenario.Scenario, now int64, variants []scenario.Variant) (*CompareResult, error) {
	sc, _, err := compareSpan(sc, now, variants)
	if err != nil {
		return nil, err
	}
	return compareRun(sc, now, variants, nil, nil)
}

// compareSpan is sc cut to what ran up to now — the steps taken so far, ending then — and one
// variant's work; a comparison beyond MaxCompareWork is refused.
func compareSpan(sc scenario.Scenario, now int64, variants []scenario.Variant) (scenario.Scenario, scenario.Work, error) {
	if now <= 0 {
		return sc, scenario.Work{}, errors.New("nothing to compare yet: the simulation is at 00:00; let time pass first")
	}
	kept := sc.Timeline[:0:0]
	for _, st := range sc.Timeline {
		if st.At.Ms() <= now {
			kept = append(kept, st)
		}
	}
	sc.Timeline, sc.Until = kept, scenario.Duration(now)
	if n := len(variants); n < scenario.MinVariants || n > scenario.MaxVariants {
		return sc, scenario.Work{}, fmt.Errorf("variants: %d given; want %d to %d", n, scenario.MinVariants, scenario.MaxVariants)
	}
	w := scenario.CompareWork(sc, variants)
	n := int64(len(variants))
	if total := w.Units * n; total > MaxCompareWork {
		return sc, w, fmt.Errorf("comparing %d variants over %s of this cluster is about %s of work; the page does at most %s (about %s of it): reset, or compare on the command line (lbscope compare with lbscope.share()'s scenario)",
			n, scenario.Clock(now), scenario.Units(total), scenario.Units(MaxCompareWork), scenario.Clock(w.Fits(MaxCompareWork/n)))
	}
	return sc, w, nil
}

// compareRun runs the comparison of sc (already cut by compareSpan), telling progress.
func compareRun(sc scenario.Scenario, now int64, variants []scenario.Variant, progress func(int, int64), pause func()) (*CompareResult, error) {
	c, err := scenario.ComparePaused(sc, variants, progress, pause)
	if err != nil {
		return nil, err
	}
	out := &CompareResult{Comparison: c, TimeMs: now}
	for _, r := range c.Rows {
		out.Grids = append(out.Grids, grid(r))
	}
	return out, nil
}

func grid(r scenario.Row) Grid {
	snap := r.Result.Snapshot
	g := Grid{Brokers: []GridBroker{}, Consumers: []GridConsumer{}}
	byBroker := map[string]int{}
	for _, b := range snap.Brokers {
		byBroker[b.Name] = len(g.Brokers)
		g.Brokers = append(g.Brokers, GridBroker{Name: b.Name, Down: b.Down, Queues: []GridQueue{}})
	}
	for _, q := range snap.Queues {
		i, ok := byBroker[q.Broker]
		if !ok {
			continue
		}
		owners := append([]string{}, q.Owners...)
		g.Brokers[i].Queues = append(g.Brokers[i].Queues, GridQueue{Queue: q.Queue, ID: q.ID, Owners: owners})
	}
	marks := view.Marks(snap.Consumers)
	status := map[string]string{}
	held := map[string]int{}
	for _, k := range snap.Consumers {
		status[k.ID], held[k.ID] = k.Status, len(k.Queues)
	}
	for _, id := range view.ConsumerOrder(snap.Consumers) {
		m := marks[id]
		g.Consumers = append(g.Consumers, GridConsumer{
			ID: id, Status: status[id], Queues: held[id],
			Color: compareColor(m.Color), Ink: compareColor(m.Ink), Label: m.Label,
		})
	}
	return g
}

// compareColor is a colour's CSS form, #rrggbb.
func compareColor(c view.Color) string {
	rgba := color.NRGBA{R: uint8(c.R*255 + 0.5), G: uint8(c.G*255 + 0.5), B: uint8(c.B*255 + 0.5), A: 255}
	return fmt.Sprintf("#%02x%02x%02x", rgba.R, rgba.G, rgba.B)
}
