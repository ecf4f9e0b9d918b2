package view

import (
	"fmt"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
)

// Presenter mode: every preset lays out without overlaps inside a 1280×720 stage and a
// phone's, with labels at least 16 CSS px tall, and the small and default presets keep their
// owners' labels in the cells on the laptop's stage.
func TestPresenterLayout(t *testing.T) {
	for _, name := range scenario.PresetNames() {
		s := presetSnap(t, name, 30000)
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 375, 667}, {0, 0, 375, 560}} {
			t.Run(fmt.Sprintf("%s/%gx%g", name, size.W, size.H), func(t *testing.T) {
				l := ComputeZoom(&s, size, EN, PresentZoom)
				checkLayout(t, &s, l)
				hb := l.Boxes(nil)
				if hb.TextPx < 16 || hb.Width != size.W || hb.Height != size.H {
					t.Errorf("labels %g CSS px on a %gx%g canvas", hb.TextPx, hb.Width, hb.Height)
				}
				for _, c := range hb.Consumers {
					if !c.Within(size) {
						t.Errorf("consumer %s %+v leaves the stage in CSS px", c.ID, c.Rect)
					}
					if l.ConsumerMode != ConsumerTiny && c.H < hb.LinePx {
						t.Errorf("consumer %s's box is %g CSS px tall, under its %g px line", c.ID, c.H, hb.LinePx)
					}
				}
				if size.W == 1280 && !l.CellText {
					t.Errorf("cells %gx%g units hold no label on a 1280×720 stage", l.CellW, l.CellH)
				}
				// Text drawn for the presenter's scale is the presenter's size in device pixels.
				var c Canvas
				c.SetScale(PresentZoom)
				c.Text(LayerMarks, 0, 0, "终", White)
				q := c.Meshes(LayerMarks)[0].Vertices
				if h := q[2].Y - q[0].Y; float64(h) < 0.8*EmSize*PresentZoom {
					t.Errorf("an ideograph is %g device px tall at zoom %g", h, PresentZoom)
				}
			})
		}
	}
	// The zoom only scales: a presenter layout of a 1.5× larger stage is the plain layout.
	s := presetSnap(t, "default", 5000)
	a, b := Compute(&s, Rect{0, 0, 800, 480}), ComputeZoom(&s, Rect{0, 0, 1200, 720}, EN, PresentZoom)
	if len(a.Cells) != len(b.Cells) || a.Cells[5].Rect != b.Cells[5].Rect || b.Boxes(nil).Queues[5].Rect != a.Cells[5].Rect.Scale(PresentZoom) {
		t.Errorf("cell 5: %+v plain, %+v zoomed", a.Cells[5].Rect, b.Cells[5].Rect)
	}
}

// Cells too short for a label but wide enough show one label per run of queues a consumer
// pulls alone, in place of a shape on each.
func TestOwnerRunsLabelRanges(t *testing.T) {
	s := presetSnap(t, "large", 30000)
	var l *Layout
	for w := 1280.0; w >= 320 && l == nil; w -= 40 {
		for h := 200.0; h <= 720 && l == nil; h += 20 {
			if c := Compute(&s, Rect{0, 0, w, h}); !c.CellText && c.CellW >= TextWidth("c64")+2 {
				l = c
			}
		}
	}
	if l == nil {
		t.Fatal("no stage gives short, wide cells")
	}
	bvs := brokerViews(&s)
	runs, in := ownerRuns(&s, l, bvs, map[string]string{})
	if len(runs) == 0 {
		t.Fatalf("cells %gx%g: no ranges", l.CellW, l.CellH)
	}
	owners := map[string]string{}
	for _, q := range s.Queues {
		if len(q.Owners) == 1 {
			owners[q.Queue] = q.Owners[0]
		}
	}
	covered := 0
	for i, r := range runs {
		if r.H < GlyphH || TextWidth(l.Marks[r.owner].Label)+2 > r.W {
			t.Errorf("run %d of %s is %gx%g: too small for its label", i, r.owner, r.W, r.H)
		}
		for _, o := range runs[i+1:] {
			if r.Overlaps(o.Rect) {
				t.Errorf("runs of %s and %s overlap", r.owner, o.owner)
			}
		}
		for _, c := range l.Cells {
			if c.Within(r.Rect) {
				covered++
				if owners[c.Queue] != r.owner || !in[c.Queue] {
					t.Errorf("%s is in %s's run but pulled by %q", c.Queue, r.owner, owners[c.Queue])
				}
			}
		}
	}
	if covered != len(in) {
		t.Errorf("%d cells inside runs, %d marked", covered, len(in))
	}
	// Cells too narrow for a label get no ranges: shapes only.
	narrow := *l
	narrow.CellW = TextWidth("c1")
	if r, _ := ownerRuns(&s, &narrow, bvs, nil); len(r) != 0 {
		t.Error("ranges on cells too narrow for a label")
	}
}
