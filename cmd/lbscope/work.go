package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/lbscope/lbscope/core/scenario"
)

// Work budgets of sim and compare (see scenario.Work). A unit is about 50 ns of this
// machine's time natively.
const (
	// defaultMaxWork is what a run may cost unless --max-work allows more: about two
	// minutes. Beyond it the command refuses and says what would fit.
	defaultMaxWork = 2_000_000_000
	nsPerUnit      = 50
)

// progressAbove is the work above which a run draws a progress line on stderr: about five
// seconds. (A variable so that tests can see the line on a short run.)
var progressAbove int64 = 100_000_000

// workFlag is --max-work: a count of work units, 500m, 20g.
type workFlag int64

func (w *workFlag) String() string { return strconv.FormatInt(int64(*w), 10) }
func (w *workFlag) Set(v string) error {
	n, err := scenario.ParseUnits(v)
	if err != nil {
		return err
	}
	*w = workFlag(n)
	return nil
}

func registerWork(fs *flag.FlagSet, w *workFlag) {
	*w = defaultMaxWork
	fs.Var(w, "max-work", "the most work a run may take, in units of about 50 ns (k, m, g: thousand, million, billion); default 2g, about 2 minutes")
}

// checkWork refuses work (over runs runs of the span) beyond max, saying what would fit and
// how to allow it.
func checkWork(w scenario.Work, runs int, max int64) error {
	total := w.Units
	if runs > 1 {
		total = satMul(total, int64(runs))
	}
	if total <= max {
		return nil
	}
	per := max / int64(runs)
	fits := w.Fits(per)
	what := "this run is"
	if runs > 1 {
		what = fmt.Sprintf("these %d runs are", runs)
	}
	hint := "not even its start fits"
	if fits > 0 {
		hint = "it fits up to --until " + scenario.Duration(fits).String()
	}
	return fmt.Errorf("%s about %s of work (roughly %s here); --max-work allows %s: %s, or allow it with --max-work %s",
		what, scenario.Units(total), about(total), scenario.Units(max), hint, allowance(total))
}

func satMul(a, b int64) int64 {
	if a > (1<<63-1)/b {
		return 1<<63 - 1
	}
	return a * b
}

// about is the time n units take natively, rounded for people.
func about(n int64) string {
	d := time.Duration(float64(n) * nsPerUnit)
	switch {
	case n > (1<<63-1)/nsPerUnit:
		return "longer than anyone would wait"
	case d >= time.Hour:
		return strconv.FormatFloat(d.Hours(), 'f', 0, 64) + " hours"
	case d >= time.Minute:
		return strconv.FormatFloat(d.Minutes(), 'f', 0, 64) + " minutes"
	}
	return strconv.FormatFloat(max(d.Seconds(), 1), 'f', 0, 64) + " s"
}

// allowance is a --max-work value that allows n units: n rounded up to millions or billions.
func allowance(n int64) string {
	if n >= 1e9 {
		return strconv.FormatInt((n+1e9-1)/1e9, 10) + "g"
	}
	return strconv.FormatInt((n+1e6-1)/1e6, 10) + "m"
}

// progress draws "lbscope sim: 00:12:00 of 01:00:00 (20%)" on stderr, redrawn in place
// whenever the percentage changes, for work above progressAbove; done ends the line. runs
// and run count a comparison's variants.
type progress struct {
	w           io.Writer
	cmd         string
	end         int64
	runs        int
	last        int
	on, started bool
}

func newProgress(stderr io.Writer, cmd string, w scenario.Work, runs int) *progress {
	return &progress{w: stderr, cmd: cmd, end: w.Span, runs: runs, last: -1,
		on: satMul(w.Units, int64(runs)) > progressAbove}
}

func (p *progress) at(run int, ms int64) {
	if !p.on || p.end <= 0 {
		return
	}
	pct := int((int64(run)*p.end + ms) * 100 / (int64(p.runs) * p.end))
	if pct == p.last {
		return
	}
	p.last, p.started = pct, true
	if p.runs > 1 {
		fmt.Fprintf(p.w, "\rlbscope %s: variant %d of %d, %s of %s (%d%%)", p.cmd, run+1, p.runs, scenario.Clock(ms), scenario.Clock(p.end), pct)
		return
	}
	fmt.Fprintf(p.w, "\rlbscope %s: %s of %s (%d%%)", p.cmd, scenario.Clock(ms), scenario.Clock(p.end), pct)
}

func (p *progress) done() {
	if p.started {
		fmt.Fprintln(p.w)
	}
}
