package view

import (
	"fmt"
	"math"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
)

// The canvas's menus are targets a finger and a mouse can hit: every item is at least 24×24
// CSS px (WCAG 2.2's target size) at either zoom, and so is the highlight drawn for it at a
// device pixel ratio of 1 and of 2. A menu opened on a consumer or a broker leaves that box in
// sight, and a consumer's menu stays off the other consumers where the stage has room.
func TestMenuTargets(t *testing.T) {
	for _, name := range []string{"small", "default", "large"} {
		s := presetSnap(t, name, 30000)
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 375, 667}} {
			for _, zoom := range []float64{1, PresentZoom} {
				t.Run(fmt.Sprintf("%s/%gx%g/%g", name, size.W, size.H, zoom), func(t *testing.T) {
					l := ComputeZoom(&s, size, EN, zoom)
					stage := l.Bounds
					var menus []*Menu
					for i, cv := range s.Consumers {
						if i >= 8 {
							break
						}
						box, _ := l.Consumer(cv.ID)
						x, y := box.Center()
						m := ConsumerMenu(cv, x, y, stage, EN).Beside(l, stage)
						menus = append(menus, m)
						if m.Overlaps(box.Rect) {
							t.Errorf("%s's menu %+v covers its box %+v", cv.ID, m.Rect, box.Rect)
						}
						if size.W == 1280 {
							for _, o := range l.Consumers {
								if m.Overlaps(o.Rect) {
									t.Errorf("%s's menu %+v covers consumer %s %+v", cv.ID, m.Rect, o.ID, o.Rect)
								}
							}
						}
					}
					for i, bv := range s.Brokers {
						if i >= 4 {
							break
						}
						bb, _ := l.Broker(bv.Name)
						x, y := bb.Title.Center()
						m := BrokerMenu(bv, x, y, stage, EN).Beside(l, stage)
						menus = append(menus, m)
						if m.Overlaps(bb.Rect) && len(s.Brokers) > 1 {
							t.Errorf("%s's menu %+v covers its block %+v", bv.Name, m.Rect, bb.Rect)
						}
					}
					for _, m := range menus {
						if !m.Within(stage) {
							t.Errorf("%s's menu %+v leaves the stage", m.Target, m.Rect)
						}
						hb := l.Boxes(m)
						for _, it := range hb.Menu {
							if it.W < 24 || it.H < 24 {
								t.Errorf("%s's item %s is %gx%g CSS px, under 24×24", m.Target, it.ID, it.W, it.H)
							}
						}
						for i, it := range m.Items {
							if got := m.Hit(it.Center()); got != i {
								t.Errorf("%s: Hit(item %d's centre) = %d", m.Target, i, got)
							}
						}
					}
					// What is drawn for a hovered item: at least 24 CSS px, 48 device px at DPR 2.
					m := menus[0]
					for _, dpr := range []float64{1, 2} {
						hx, hy := m.Items[0].Center()
						var c Canvas
						c.SetScale(dpr * zoom)
						Draw(&c, Frame{Snap: &s, Layout: l, Menu: m, HoverX: hx, HoverY: hy, HoverOK: true, Lang: EN})
						w, h := highlightPx(c.Meshes(LayerOverlay))
						if w < 24*dpr || h < 24*dpr {
							t.Errorf("DPR %g: the hovered item is drawn %gx%g device px, under %g", dpr, w, h, 24*dpr)
						}
					}
				})
			}
		}
	}
}

// highlightPx is the size, in device pixels, of the largest quad drawn in the Highlight colour.
func highlightPx(ms []Mesh) (w, h float64) {
	for _, m := range ms {
		for i := 0; i+3 < len(m.Vertices); i += 4 {
			v := m.Vertices[i : i+4]
			if !sameRGB(v[0], Highlight) {
				continue
			}
			x0, x1, y0, y1 := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
			for _, p := range v {
				x0, x1 = math.Min(x0, float64(p.X)), math.Max(x1, float64(p.X))
				y0, y1 = math.Min(y0, float64(p.Y)), math.Max(y1, float64(p.Y))
			}
			if x1-x0 > w {
				w, h = x1-x0, y1-y0
			}
		}
	}
	return w, h
}

func sameRGB(v Vertex, c Color) bool {
	near := func(a, b float32) bool { return math.Abs(float64(a-b)) < 1.0/255 }
	return near(v.R, c.R*c.A) && near(v.G, c.G*c.A) && near(v.B, c.B*c.A) || near(v.R, c.R) && near(v.G, c.G) && near(v.B, c.B)
}

// A hovered consumer's card covers neither the consumer nor the other consumers where the
// stage has the room above their rows, and it stays inside the stage.
func TestHoverCardClearOfConsumers(t *testing.T) {
	for _, name := range []string{"small", "default", "incident-same-client-id"} {
		s := presetSnap(t, name, 30000)
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 800, 480}} {
			for _, zoom := range []float64{1, PresentZoom} {
				l := ComputeZoom(&s, size, EN, zoom)
				for _, cv := range s.Consumers {
					box, _ := l.Consumer(cv.ID)
					x, y := box.Center()
					card := ViewCard(Frame{Snap: &s, Layout: l, Lang: EN, HoverX: x, HoverY: y, HoverOK: true}, cv.ID)
					if card == nil {
						t.Fatalf("%s: no card", cv.ID)
					}
					if !card.Within(l.Bounds) {
						t.Errorf("%s %gx%g zoom %g: %s's card %+v leaves the stage", name, size.W, size.H, zoom, cv.ID, card.Rect)
					}
					for _, o := range l.Consumers {
						if card.Overlaps(o.Rect) {
							t.Errorf("%s %gx%g zoom %g: %s's card %+v covers consumer %s %+v", name, size.W, size.H, zoom, cv.ID, card.Rect, o.ID, o.Rect)
						}
					}
				}
			}
		}
	}
}

// No line from a queue to its consumer crosses another broker's block, whatever the grid of
// blocks (one row, 2×2, 4×4) and at either zoom; the lines still end at their consumers.
func TestLinesCrossNoOtherBroker(t *testing.T) {
	grids := map[string]bool{}
	for _, name := range scenario.PresetNames() {
		s := presetSnap(t, name, 30000)
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 960, 600}, {0, 0, 800, 480}, {0, 0, 375, 667}, {0, 0, 640, 900}} {
			for _, zoom := range []float64{1, PresentZoom} {
				l := ComputeZoom(&s, size, EN, zoom)
				cols, rows := map[float64]bool{}, map[float64]bool{}
				for _, b := range l.Brokers {
					cols[b.X], rows[b.Y] = true, true
				}
				grids[fmt.Sprintf("%dx%d", len(cols), len(rows))] = true
				for _, q := range s.Queues {
					cell, ok := l.Cell(q.Queue)
					if !ok {
						t.Fatalf("%s: no cell %s", name, q.Queue)
					}
					for _, o := range q.Owners {
						to, _ := l.Consumer(o)
						tx, ty := anchor(to)
						w := l.wire(cell, tx, ty)
						if got := w.pts[w.n-1]; got != [2]float64{tx, ty} {
							t.Errorf("%s: %s's line ends at %v, not at %s", name, q.Queue, got, o)
						}
						for i := 1; i < w.n; i++ {
							a, b := w.pts[i-1], w.pts[i]
							for _, bb := range l.Brokers {
								if bb.Name != q.Broker && segmentCrosses(a, b, bb.Rect) {
									t.Errorf("%s %gx%g zoom %g: the line %s→%s crosses %s's block %+v (segment %v→%v)",
										name, size.W, size.H, zoom, q.Queue, o, bb.Name, bb.Rect, a, b)
								}
							}
							if !(Rect{a[0], a[1], 0, 0}).Within(l.Bounds) {
								t.Errorf("%s: the line %s→%s leaves the stage at %v", name, q.Queue, o, a)
							}
						}
					}
				}
			}
		}
	}
	for _, g := range []string{"2x2", "4x1", "4x4"} {
		if !grids[g] {
			t.Errorf("no stage gave a %s grid of blocks (%v): the test misses its case", g, grids)
		}
	}
}

// segmentCrosses reports whether the segment a→b passes through r's inside (Liang–Barsky).
func segmentCrosses(a, b [2]float64, r Rect) bool {
	t0, t1 := 0.0, 1.0
	dx, dy := b[0]-a[0], b[1]-a[1]
	for _, e := range [][2]float64{{-dx, a[0] - r.X}, {dx, r.Right() - a[0]}, {-dy, a[1] - r.Y}, {dy, r.Bottom() - a[1]}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q <= 0 {
				return false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
	}
	return t1-t0 > 1e-9
}

// In presenter mode the small and default clusters keep each broker's meter row, wide enough
// for its share and its latency with their units ("100%", "999ms"), in both languages.
func TestPresenterMetersKeepUnits(t *testing.T) {
	for _, name := range []string{"small", "default", "incident-same-client-id"} {
		s := presetSnap(t, name, 30000)
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 800, 480}, {0, 0, 375, 667}} {
			for _, lang := range []string{EN, ZH} {
				l := ComputeZoom(&s, size, lang, PresentZoom)
				need := TextWidth("100%") + 4 + TextWidth(DurationIn(lang, 999)) + 4
				for _, b := range l.Brokers {
					if b.Meter.H == 0 || b.Meter.W < need {
						t.Errorf("%s %gx%g %s: %s's meter row %+v; want one at least %g wide", name, size.W, size.H, lang, b.Name, b.Meter, need)
					}
				}
			}
		}
	}
}

// A consumer box smaller than a finger (the large preset's on a phone) is hit a little around
// it too: every point of its box grown to 24×24 CSS px finds a consumer, this one or a nearer
// one, and its own box always finds it; cells and brokers keep their own hits.
func TestSmallConsumersHitAroundTheirBoxes(t *testing.T) {
	s := presetSnap(t, "large", 30000)
	for _, zoom := range []float64{1, PresentZoom} {
		l := ComputeZoom(&s, Rect{0, 0, 375, 560}, EN, zoom)
		if l.ConsumerMode == ConsumerTall {
			t.Fatalf("zoom %g: tall consumer boxes on a phone; the test needs small ones", zoom)
		}
		side := 24 / zoom
		for _, c := range l.Consumers {
			cx, cy := c.Center()
			for _, d := range [][2]float64{{0, 0}, {-1, -1}, {1, 1}, {-1, 1}, {1, -1}} {
				x, y := cx+d[0]*side/2*0.99, cy+d[1]*side/2*0.99
				kind, id := l.HitTest(x, y)
				if d == [2]float64{0, 0} && id != c.ID {
					t.Errorf("zoom %g: %s's centre hits %s %s", zoom, c.ID, kind, id)
				}
				if kind == "" {
					t.Errorf("zoom %g: (%g, %g), within 12 CSS px of %s's centre, hits nothing", zoom, x, y, c.ID)
				}
			}
		}
		for _, cell := range l.Cells[:8] {
			if kind, id := l.HitTest(cell.Center()); kind != HitQueue || id != cell.Queue {
				t.Errorf("zoom %g: %s's centre hits %s %s", zoom, cell.Queue, kind, id)
			}
		}
		if kind, _ := l.HitTest(1, l.Bounds.H/2); kind != "" {
			t.Errorf("zoom %g: the stage's left edge hits a %s", zoom, kind)
		}
	}
}

// A tooltip leaves in sight what it tells of: hovered at its centre, a queue's cell, a
// broker's title and the producer's box are not under their tooltip, which stays inside the
// stage.
func TestTooltipClearOfItsTarget(t *testing.T) {
	s := presetSnap(t, "default", 30000)
	for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 375, 667}} {
		for _, zoom := range []float64{1, PresentZoom} {
			l := ComputeZoom(&s, size, EN, zoom)
			type hover struct {
				kind, id string
				r        Rect
			}
			var hs []hover
			for _, c := range l.Cells {
				hs = append(hs, hover{HitQueue, c.Queue, c.Rect})
			}
			for _, b := range l.Brokers {
				hs = append(hs, hover{HitBroker, b.Name, b.Title})
			}
			for _, p := range l.Producers {
				hs = append(hs, hover{HitProducer, p.ID, p.Rect})
			}
			for _, hv := range hs {
				x, y := hv.r.Center()
				f := Frame{Snap: &s, Layout: l, Lang: EN, HoverX: x, HoverY: y, HoverOK: true}
				if kind, id := l.HitTest(x, y); kind != hv.kind || id != hv.id {
					t.Fatalf("the centre of %s %s hits %s %s", hv.kind, hv.id, kind, id)
				}
				r := tooltipRect(f, hv.kind, hv.id, 160, 4*GlyphH+6)
				if r.Overlaps(hv.r) {
					t.Errorf("%gx%g zoom %g: %s %s's tooltip %+v covers it %+v", size.W, size.H, zoom, hv.kind, hv.id, r, hv.r)
				}
				if !r.Within(l.Bounds) {
					t.Errorf("%gx%g zoom %g: %s %s's tooltip %+v leaves the stage", size.W, size.H, zoom, hv.kind, hv.id, r)
				}
			}
		}
	}
}
