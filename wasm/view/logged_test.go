package view

import (
	"image"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// observedAt is observed-kill.json's snapshot at ms with its logged owners, as the session
// publishes it, and its history.
func observedAt(t *testing.T, ms int64) (cluster.Snapshot, *scenario.Observed) {
	t.Helper()
	c, sc := fileCluster(t, "observed-kill")
	if kill := sc.Timeline[0]; ms >= kill.At.Ms() {
		c.Advance(kill.At.Ms())
		if err := c.Apply(kill.Command); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(ms)
	s := c.Snapshot()
	logged := sc.Observed.OwnersAt(ms)
	for i := range s.Queues {
		s.Queues[i].Observed = append([]string{}, logged[s.Queues[i].Queue]...)
	}
	return s, sc.Observed
}

// fileCluster is testdata/scenarios/<name>.json's cluster at its start, and the scenario.
func fileCluster(t *testing.T, name string) (*cluster.Cluster, scenario.Scenario) {
	t.Helper()
	data, err := os.ReadFile("../../testdata/scenarios/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cluster.New(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	return c, sc
}

// loggedMark classifies the Logged-coloured pixels over a cell: "" none, "dashed" when the
// frame's top line has gaps, "double" when a row across the middle crosses four lines of
// the colour, "solid" when it crosses two.
func loggedMark(img *image.RGBA, r Rect, k float64) string {
	want := toRGBA(Logged)
	near := func(x, y int) bool {
		p := img.RGBAAt(x, y)
		d := math.Abs(float64(p.R)-float64(want.R)) + math.Abs(float64(p.G)-float64(want.G)) + math.Abs(float64(p.B)-float64(want.B))
		return d < 60
	}
	any := false
	for y := int(r.Y * k); y < int(r.Bottom()*k) && !any; y++ {
		for x := int(r.X * k); x < int(r.Right()*k); x++ {
			if near(x, y) {
				any = true
				break
			}
		}
	}
	if !any {
		return ""
	}
	fr, w := loggedFrame(r)
	y := int((fr.Y + w/2) * k)
	n, of := 0, 0
	for x := int(fr.X*k) + 2; x < int(fr.Right()*k)-2; x++ {
		of++
		if near(x, y) {
			n++
		}
	}
	if float64(n) < 0.85*float64(of) {
		return "dashed"
	}
	runs, in := 0, false
	mid := int((r.Y + r.H*0.75) * k) // below the tag, clear of the label
	for x := int(r.X * k); x < int(r.Right()*k); x++ {
		if v := near(x, mid); v && !in {
			runs++
			in = true
		} else if !v {
			in = false
		}
	}
	if runs >= 4 {
		return "double"
	}
	return "solid"
}

// At 63 s the logs and the simulation disagree: broker-a:0-2 nobody per the logs (a dashed
// frame), broker-b:0-1 held twice per the logs (a doubled frame), broker-b:0-1 at 61 s held by
// the other member (one solid frame, "log: 2"); the cells that agree carry nothing of it, and
// without a history no cell does. On both themes, at 1 and 2 device pixels per CSS pixel.
func TestLoggedMarksOnThePNG(t *testing.T) {
	defer UseTheme(DarkTheme)
	s63, o := observedAt(t, 63000)
	s61, _ := observedAt(t, 61000)
	bare := s63
	bare.Queues = append([]cluster.QueueView{}, s63.Queues...)
	for i := range bare.Queues {
		bare.Queues[i].Observed = nil
	}
	for _, th := range []Theme{DarkTheme, LightTheme} {
		UseTheme(th)
		for _, k := range []float64{1, 2} {
			for _, c := range []struct {
				snap *cluster.Snapshot
				want map[string]string // queue → the mark: "dashed", "double", "solid" or ""
			}{
				{&s63, map[string]string{"broker-a:0": "dashed", "broker-a:2": "dashed", "broker-a:3": "", "broker-b:0": "double", "broker-b:1": "double", "broker-b:2": ""}},
				{&s61, map[string]string{"broker-a:1": "dashed", "broker-b:0": "solid", "broker-b:1": "solid", "broker-b:3": ""}},
				{&bare, map[string]string{"broker-a:0": "", "broker-b:0": "", "broker-b:3": ""}},
			} {
				l := ComputeZoom(c.snap, Rect{0, 0, 960, 600}, EN, 1)
				img := render(Frame{Snap: c.snap, Layout: l, Paused: true, Observed: o}, k)
				for q, want := range c.want {
					cell, ok := l.Cell(q)
					if !ok {
						t.Fatalf("no cell %s", q)
					}
					if got := loggedMark(img, cell.Rect, k); got != want {
						t.Errorf("%s ×%v at %s: %s carries %q; want %q", th.Name, k, Clock(c.snap.TimeMs), q, got, want)
					}
				}
			}
		}
	}
}

func TestLoggedTagsAndHoverCard(t *testing.T) {
	s61, o := observedAt(t, 61000)
	l := ComputeZoom(&s61, Rect{0, 0, 960, 600}, EN, 1)
	q := func(s *cluster.Snapshot, name string) *cluster.QueueView {
		for i := range s.Queues {
			if s.Queues[i].Queue == name {
				return &s.Queues[i]
			}
		}
		t.Fatalf("no queue %s", name)
		return nil
	}
	if got := LoggedTag(l, EN, q(&s61, "broker-b:0")); got != "log: 2" {
		t.Errorf("tag %q; want the logged owner's label, log: 2", got)
	}
	if got := LoggedTag(l, ZH, q(&s61, "broker-a:0")); got != "日志：无" {
		t.Errorf("tag %q", got)
	}
	s63, _ := observedAt(t, 63000)
	if got := LoggedTag(l, EN, q(&s63, "broker-b:0")); got != "log: x2" {
		t.Errorf("tag %q", got)
	}
	// A logged owner the simulation has no consumer for is named by the part of its id that
	// tells it apart.
	stranger := *q(&s61, "broker-b:0")
	stranger.Observed = []string{"10.0.0.9@9999"}
	if got := LoggedTag(l, EN, &stranger); got != "log: ~@9999" {
		t.Errorf("tag %q for an owner outside the simulation", got)
	}

	for _, c := range []struct {
		snap  *cluster.Snapshot
		queue string
		lang  string
		want  []string
	}{
		{&s61, "broker-b:0", EN, []string{"pulled by 10.0.0.3@3456", "the log says 10.0.0.2@2345 held it from 00:01.0 to 01:05.0 (member2.log:98)"}},
		{&s63, "broker-b:1", EN, []string{"the log says 10.0.0.2@2345 held it from 00:01.0 to 01:05.0 (member2.log:98)", "the log says 10.0.0.3@3456 held it from 01:02.0 to the end (member3.log:611)"}},
		{&s63, "broker-b:1", ZH, []string{"日志中 10.0.0.2@2345 在 00:01.0 ~ 01:05.0 持有它（member2.log:98）", "日志中 10.0.0.3@3456 从 01:02.0 持有它，尚未停止（member3.log:611）"}},
		{&s61, "broker-a:0", EN, []string{"pulled by 10.0.0.2@2345", "the log says nobody held it now"}},
		{&s61, "broker-a:0", ZH, []string{"日志中此刻无人持有它"}},
		{&s61, "broker-a:3", EN, []string{"the log says 10.0.0.2@2345 held it from 00:01.0 to the end (member2.log:98)"}}, // agreeing: quoted too
	} {
		f := Frame{Snap: c.snap, Layout: l, Lang: c.lang, Observed: o}
		lines := strings.Join(TooltipLines(f, HitQueue, c.queue), "\n")
		for _, w := range c.want {
			if !strings.Contains(lines, w) {
				t.Errorf("%s at %s (%s): card\n%s\nwant a line %q", c.queue, Clock(c.snap.TimeMs), c.lang, lines, w)
			}
		}
	}
	// Before the log's first moment and after an unknown end.
	h := o.Holdings[0]
	h.FromKnown = false
	to := *h.To
	h.To = &to
	oo := *o
	oo.Holdings = []scenario.Holding{h}
	s30, _ := observedAt(t, 30000)
	lines := strings.Join(TooltipLines(Frame{Snap: &s30, Layout: l, Observed: &oo}, HitQueue, "broker-a:0"), "\n")
	if !strings.Contains(lines, "from 00:01.0 or before to 01:00.0 or later (member1.log:112)") {
		t.Errorf("card\n%s\nwant the unknown ends said", lines)
	}
	bare := s61
	bare.Queues = []cluster.QueueView{*q(&s61, "broker-b:0")}
	bare.Queues[0].Observed = nil
	if lines := strings.Join(TooltipLines(Frame{Snap: &bare, Layout: l}, HitQueue, "broker-b:0"), "\n"); strings.Contains(lines, "the log") {
		t.Errorf("a card without a history speaks of logs:\n%s", lines)
	}
}

// The legend explains the logged marks exactly when the snapshot carries logged owners.
func TestLegendListsLoggedMarks(t *testing.T) {
	s, o := observedAt(t, 63000)
	for _, lang := range []string{EN, ZH} {
		l := ComputeZoom(&s, Rect{0, 0, 960, 720}, lang, 1)
		lg := LegendCard(Frame{Snap: &s, Layout: l, Lang: lang, Observed: o, Legend: true})
		found := map[int]bool{}
		for _, r := range lg.Rows {
			found[r.Sample] = true
		}
		for _, smp := range []int{SampleLogged, SampleLoggedTwice, SampleLoggedNobody} {
			if !found[smp] {
				t.Errorf("%s: the legend has no row for sample %d", lang, smp)
			}
		}
		bare := s
		bare.Queues = append([]cluster.QueueView{}, s.Queues...)
		for i := range bare.Queues {
			bare.Queues[i].Observed = nil
		}
		for _, r := range LegendCard(Frame{Snap: &bare, Layout: l, Lang: lang, Legend: true}).Rows {
			if r.Sample >= SampleLogged {
				t.Errorf("%s: a legend without a history lists sample %d", lang, r.Sample)
			}
		}
	}
}
