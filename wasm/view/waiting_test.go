package view

import (
	"image"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

func near(a, b uint8) bool { return a >= b-min(b, 24) && a <= b+min(255-b, 24) }

// warnPixels counts the pixels of img in the warning colour over the cells of l.
func warnPixels(img *image.RGBA, l *Layout, k float64) int {
	want := toRGBA(Warn)
	n := 0
	for _, c := range l.Cells {
		for y := int(c.Y * k); y < int(c.Bottom()*k); y++ {
			for x := int(c.X * k); x < int(c.Right()*k); x++ {
				if p := img.RGBAAt(x, y); near(p.R, want.R) && near(p.G, want.G) && near(p.B, want.B) {
					n++
				}
			}
		}
	}
	return n
}

// Before the first rebalance every queue is unassigned: the canvas draws no warning over
// the cells (no red "?" that reads as an error) and the header says what they wait for, in
// both themes and languages. Once the group has rebalanced, a queue nobody pulls is
// flagged again.
func TestNoWarningBeforeTheFirstRebalance(t *testing.T) {
	defer UseTheme(DarkTheme)
	early := presetSnap(t, "default", 500)
	if !FirstRebalancePending(&early) {
		t.Fatal("at 0.5 s the default preset has not rebalanced yet; FirstRebalancePending says it has")
	}
	c, err := cluster.New(scenario.Presets()["default"].Config)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(20000)
	if err := c.Apply(cluster.Command{Type: "partitionConsumer", ID: "c1"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(21000)
	later := c.Snapshot()
	if FirstRebalancePending(&later) || HeaderRight(Frame{Snap: &later}) != "dup 0 lost 0" {
		t.Fatal("a group with a cut-off consumer is not waiting for its first rebalance")
	}
	for _, th := range []Theme{DarkTheme, LightTheme} {
		UseTheme(th)
		for _, lang := range []string{EN, ZH} {
			l := ComputeLang(&early, Rect{0, 0, 960, 600}, lang)
			if HeaderRight(Frame{Snap: &early, Lang: lang}) != Word(lang, "canvas.waiting") {
				t.Errorf("%s %s: the header does not say %q", th.Name, lang, Word(lang, "canvas.waiting"))
			}
			if n := warnPixels(render(Frame{Snap: &early, Layout: l, Speed: 1, Lang: lang}, 1), l, 1); n > 0 {
				t.Errorf("%s %s: %d warning pixels over the cells before the first rebalance", th.Name, lang, n)
			}
			ll := ComputeLang(&later, Rect{0, 0, 960, 600}, lang)
			if n := warnPixels(render(Frame{Snap: &later, Layout: ll, Speed: 1, Lang: lang}, 1), ll, 1); n == 0 {
				t.Errorf("%s %s: the cut-off consumer's orphaned queues carry no warning", th.Name, lang)
			}
		}
	}
}
