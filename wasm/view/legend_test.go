package view

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// The legend explains every mark the canvas draws, in both languages, on a laptop, a phone
// and in presenter mode, inside the stage; with an imported group it also gives each
// label's whole id. The header's button that shows it is a 24-unit target clear of the
// header's words.
func TestLegend(t *testing.T) {
	imported := importedGroup(t, 12)
	plain := presetSnap(t, "default", 30000)
	for _, s := range []*cluster.Snapshot{&plain, &imported} {
		for _, lang := range []string{EN, ZH} {
			for _, v := range []struct {
				size Rect
				zoom float64
			}{{Rect{0, 0, 1280, 720}, 1}, {Rect{0, 0, 375, 640}, 1}, {Rect{0, 0, 1280, 720}, PresentZoom}} {
				l := ComputeZoom(s, v.size, lang, v.zoom)
				f := Frame{Snap: s, Layout: l, Speed: 1, Lang: lang, Legend: true}
				lg := LegendCard(f)
				if lg == nil {
					t.Fatalf("%s %gx%g ×%g: no legend", lang, v.size.W, v.size.H, v.zoom)
				}
				if !lg.Within(l.Bounds) || lg.Overlaps(l.LegendHit()) {
					t.Errorf("%s %gx%g: legend %+v leaves the stage %+v or covers its button", lang, v.size.W, v.size.H, lg.Rect, l.Bounds)
				}
				explained := map[int]bool{}
				ids := map[string]bool{}
				for _, r := range lg.Rows {
					explained[r.Sample] = true
					if r.Sample == SampleMark {
						ids[r.Consumer] = true
						if got := strings.Join(r.Lines, ""); got != r.Consumer {
							t.Errorf("the legend gives %s as %q", r.Consumer, got)
						}
					}
					for _, line := range r.Lines {
						if TextWidth(line) > lg.W-2*legendPad-lg.SampleW+0.5 {
							t.Errorf("%s: legend line %q is wider than its column", lang, line)
						}
					}
				}
				for sample, key := range legendKeys {
					if !explained[sample] {
						t.Errorf("%s %gx%g ×%g: the legend leaves out %s", lang, v.size.W, v.size.H, v.zoom, key)
					}
				}
				for _, cv := range s.Consumers {
					if want := l.Marks[cv.ID].Label != cv.ID; want != ids[cv.ID] && lg.More == "" {
						t.Errorf("%s %gx%g: %s in the legend %v; want %v", lang, v.size.W, v.size.H, cv.ID, ids[cv.ID], want)
					}
				}
				if s == &imported && v.size.W == 1280 && v.zoom == 1 && (len(ids) != len(s.Consumers) || lg.More != "") {
					t.Errorf("%s: the laptop's legend gives %d of %d ids (%q)", lang, len(ids), len(s.Consumers), lg.More)
				}
				// The button.
				hit := l.LegendHit()
				if hit.W < 24 || hit.H < 24 {
					t.Errorf("%s: the legend button's target is %gx%g; want 24x24", lang, hit.W, hit.H)
				}
				if kind, _ := l.HitTest(hit.Center()); kind != HitLegend {
					t.Errorf("%s: the legend button's centre hits %q", lang, kind)
				}
				if l.Header.Right() > l.LegendButton.X {
					t.Errorf("%s: the header's words run under the legend button", lang)
				}
				// Shown, it is drawn; hidden, not.
				var on, off Canvas
				Draw(&on, f)
				f.Legend = false
				Draw(&off, f)
				if on.VertexCount() <= off.VertexCount()+len(legendKeys)*4 {
					t.Errorf("%s: the legend adds %d vertices", lang, on.VertexCount()-off.VertexCount())
				}
			}
		}
	}
}

// wrapText keeps every rune of the words, breaks English at spaces and Chinese between
// ideographs, never before closing punctuation, and no line is wider than asked.
func TestWrapText(t *testing.T) {
	for _, s := range []string{
		Word(EN, "canvas.legend.meter"), Word(ZH, "canvas.legend.meter"), Word(ZH, "canvas.legend.late"),
		"10.1.2.3@12345#123456789", "",
	} {
		for _, w := range []float64{60, 120, 240} {
			lines := wrapText(s, w)
			if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(s, " ", "") {
				t.Errorf("wrapText(%q, %g) = %q loses words", s, w, lines)
			}
			for _, line := range lines {
				if TextWidth(line) > w && len([]rune(line)) > 1 {
					t.Errorf("wrapText(%q, %g): %q is %g wide", s, w, line, TextWidth(line))
				}
				if r := []rune(line); len(r) > 0 && closing(r[0]) {
					t.Errorf("wrapText(%q, %g): %q begins with closing punctuation", s, w, line)
				}
				if strings.HasPrefix(line, " ") || strings.HasSuffix(line, " ") {
					t.Errorf("wrapText(%q, %g): %q keeps a space at its end", s, w, line)
				}
			}
		}
		if s != "" {
			if lines := wrapText(s, 1000); len(lines) != 1 {
				t.Errorf("wrapText(%q, 1000) = %q; want one line", s, lines)
			}
		}
	}
	if en := wrapText("next rebalance in 17 s", 80); len(en) < 2 || strings.Contains(strings.Join(en, "|"), "reb|") {
		t.Errorf("English breaks inside a word: %q", en)
	}
}
