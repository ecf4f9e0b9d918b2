package view

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// staleSnap is the default preset with c2 cut off at 20 s and expired by the brokers since:
// its view is stale, it pulls nothing, and the others have taken its queues.
func staleSnap(t *testing.T) cluster.Snapshot {
	t.Helper()
	c, err := cluster.New(scenario.Presets()["default"].Config)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(20000)
	if err := c.Apply(cluster.Command{Type: "partitionConsumer", ID: "c2"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(200000)
	return c.Snapshot()
}

// A consumer's card, opened with its menu, sits inside the canvas clear of the menu and of
// the consumer's own box, at a laptop's 1280×720 and a phone's 375 px, in both languages and
// in presenter mode; its lines fit it. Hovered, it stays inside the canvas.
func TestViewCardLayout(t *testing.T) {
	snaps := map[string]cluster.Snapshot{"stale": staleSnap(t)}
	for _, name := range scenario.PresetNames() {
		snaps[name] = presetSnap(t, name, 30000)
	}
	for name, s := range snaps {
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 375, 667}, {0, 0, 375, 560}} {
			for _, zoom := range []float64{1, PresentZoom} {
				for _, lang := range []string{EN, ZH} {
					t.Run(fmt.Sprintf("%s/%gx%g/%g/%s", name, size.W, size.H, zoom, lang), func(t *testing.T) {
						l := ComputeZoom(&s, size, lang, zoom)
						for i, cv := range s.Consumers {
							if i >= 12 {
								break // the large preset: a dozen is enough
							}
							box, _ := l.Consumer(cv.ID)
							x, y := box.Center()
							f := Frame{Snap: &s, Layout: l, Lang: lang, HoverX: x, HoverY: y, HoverOK: true}
							hover := ViewCard(f, cv.ID)
							f.Menu = ConsumerMenu(cv, x, y, l.Bounds, lang)
							card := ViewCard(f, cv.ID)
							if card == nil || hover == nil {
								t.Fatalf("%s: no card", cv.ID)
							}
							for _, r := range []*Card{hover, card} {
								if !r.Within(l.Bounds) {
									t.Errorf("%s's card %+v leaves the canvas %+v", cv.ID, r.Rect, l.Bounds)
								}
								for _, line := range r.Lines {
									if TextWidth(line.Text) > r.W-2*cardPad+0.01 {
										t.Errorf("%s's card line %q is wider than the card", cv.ID, line.Text)
									}
								}
							}
							if card.Overlaps(f.Menu.Rect) {
								t.Errorf("%s's card %+v covers its menu %+v", cv.ID, card.Rect, f.Menu.Rect)
							}
							if card.Overlaps(box.Rect) && l.Bounds.H > card.H+f.Menu.H+box.H+16 {
								t.Errorf("%s's card %+v covers its box %+v", cv.ID, card.Rect, box.Rect)
							}
						}
					})
				}
			}
		}
	}
}

// The card says which broker answered, when, and the ids it sorted, next to what that
// broker lists now; a cut-off consumer's says STALE, that its computed queues are pulled by
// nobody, and that its latest query got no answer.
func TestViewCardLines(t *testing.T) {
	s := staleSnap(t)
	l := Compute(&s, Rect{0, 0, 1280, 720})
	f := Frame{Snap: &s, Layout: l}
	text := func(id string) (string, []CardLine) {
		lines := ViewCardLines(f, id, 400)
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l.Text + "\n")
		}
		return b.String(), lines
	}
	var c2 cluster.ConsumerView
	for _, cv := range s.Consumers {
		if cv.ID == "c2" {
			c2 = cv
		}
	}
	v := c2.View
	got, lines := text("c2")
	for _, want := range []string{
		"view of " + Clock(v.AtMs) + ", from " + v.Broker,
		"ids: " + strings.Join(v.Cids, " "),
		"STALE " + v.NowBroker + " now: " + strings.Join(v.Now, " "),
		"no longer listed: c2",
		"computed: " + queueRanges(EN, v.Computed),
		"pulls: none",
		"asked " + v.LastAskBroker + " at " + Clock(v.LastAskMs) + ": no answer",
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("c2's card lacks %q:\n%s", want, got)
		}
	}
	if !strings.Contains(strings.Join(v.Cids, " "), "c2") || strings.Contains(strings.Join(v.Now, " "), "c2") {
		t.Fatalf("c2's view is not stale: %+v", v)
	}
	for _, l := range lines {
		if (strings.HasPrefix(l.Text, "STALE") || strings.HasPrefix(l.Text, "pulls:")) && l.Color != Warn {
			t.Errorf("%q is not drawn as a warning", l.Text)
		}
	}
	got, _ = text("c1")
	if strings.Contains(got, "STALE") || !strings.Contains(got, "pulls: "+queueRanges(EN, s.Consumers[0].Queues)) {
		t.Errorf("c1's card:\n%s", got)
	}
	zh := ViewCardLines(Frame{Snap: &s, Layout: l, Lang: ZH}, "c2", 400)
	if !strings.Contains(zh[len(zh)-5].Text, "已过时") || !strings.Contains(zh[len(zh)-4].Text, "已不在列表： c2") {
		t.Errorf("Chinese card %+v", zh)
	}
}

// Long client lists wrap into at most three rows, the last saying how many are left out.
func TestWrapIDs(t *testing.T) {
	if d := idDiff([]string{"a", "b", "b", "c"}, []string{"b", "c", "d"}); strings.Join(d, " ") != "a b" {
		t.Errorf("idDiff = %q; want a and the second b", d)
	}
	var ids []string
	for i := range 64 {
		ids = append(ids, "c"+strconv.Itoa(i+1))
	}
	rows := wrapIDs(EN, "ids:", ids, 200)
	if len(rows) != maxIDRows {
		t.Fatalf("%d rows: %q", len(rows), rows)
	}
	shown := 0
	for _, r := range rows {
		if TextWidth(r) > 200 {
			t.Errorf("row %q is wider than 200", r)
		}
		shown += len(strings.Fields(r))
	}
	shown -= 1 + 2 // "ids:" and "+N more"
	last := strings.Fields(rows[len(rows)-1])
	if n, err := strconv.Atoi(strings.TrimPrefix(last[len(last)-2], "+")); err != nil || n != len(ids)-shown {
		t.Errorf("rows %q: %d shown, says %s more", rows, shown, last[len(last)-2])
	}
	if rows := wrapIDs(EN, "ids:", ids[:3], 200); len(rows) != 1 || rows[0] != "ids: c1 c2 c3" {
		t.Errorf("short list %q", rows)
	}
	if rows := wrapIDs(EN, "ids:", nil, 200); len(rows) != 1 || rows[0] != "ids:" {
		t.Errorf("empty list %q", rows)
	}
}

// Each broker's meter row sits under its title, inside its block, above its cells, where the
// stage has height to spare (a laptop's does); the drawing stays inside it.
func TestBrokerMeterLayout(t *testing.T) {
	s := staleSnap(t)
	for _, name := range append(scenario.PresetNames(), "stale") {
		snap := s
		if name != "stale" {
			snap = presetSnap(t, name, 30000)
		}
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 375, 667}, {0, 0, 375, 560}} {
			for _, zoom := range []float64{1, PresentZoom} {
				l := ComputeZoom(&snap, size, EN, zoom)
				checkLayout(t, &snap, l)
				meters := 0
				for _, b := range l.Brokers {
					if b.Meter.H == 0 {
						continue
					}
					meters++
					if !b.Meter.Within(b.Rect) || b.Meter.Y < b.Title.Bottom() {
						t.Errorf("%s %gx%g: %s's meter %+v outside its block %+v under %+v", name, size.W, size.H, b.Name, b.Meter, b.Rect, b.Title)
					}
					for _, c := range l.Cells {
						if c.Broker == b.Name && c.Overlaps(b.Meter) {
							t.Errorf("%s %gx%g: %s's meter covers %s", name, size.W, size.H, b.Name, c.Queue)
						}
					}
				}
				if size.W == 1280 && zoom == 1 && name != "large" && meters != len(l.Brokers) {
					t.Errorf("%s at 1280×720: %d meters for %d brokers", name, meters, len(l.Brokers))
				}
				bv := brokerViews(&snap)
				for _, b := range l.Brokers {
					var c Canvas
					drawMeter(&c, b, bv[b.Name], EN)
					area := b.Meter
					if area.H == 0 {
						area = b.Title
					}
					for layer := range NumLayers {
						for _, m := range c.Meshes(layer) {
							for _, v := range m.Vertices {
								if float64(v.X) < area.X-3.5 || float64(v.X) > area.Right()+0.5 || float64(v.Y) < area.Y-0.5 || float64(v.Y) > area.Bottom()+0.5 {
									t.Fatalf("%s %gx%g: %s's meter draws at (%g, %g), outside %+v", name, size.W, size.H, b.Name, v.X, v.Y, area)
								}
							}
						}
					}
				}
			}
		}
	}
}
