package view

import (
	"fmt"
	"math"
	"testing"
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
