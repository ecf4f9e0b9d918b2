package view

import (
	"image"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// lockedGroup is an orderly group on one broker 10 s after c2, one of its two members, was
// killed: c1 pulls broker-a:0 and holds its lock; c2's lock on broker-a:1 outlives it, and
// the queue waits for it to expire (spec §8.5.3). It returns the whole snapshot and the
// group's.
func lockedGroup(t *testing.T) (all, s cluster.Snapshot) {
	t.Helper()
	cfg := cluster.Config{Seed: 1, Brokers: []cluster.BrokerConfig{{Name: "broker-a", Queues: 2}},
		Groups:    []cluster.GroupConfig{{Name: "G", Orderly: true}},
		Consumers: []cluster.ConsumerConfig{{ID: "c1"}, {ID: "c2"}},
		Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 100}}}
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(30000)
	if err := c.Apply(cluster.Command{Type: "killConsumer", ID: "c2"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(40000)
	all = c.Snapshot()
	return all, Project(&all, "G")
}

// A locked queue's cell carries the lock's mark in its top right corner, and nothing else of
// the cell changes: a padlock in its owner's ink when its owner holds the lock, a red padlock
// with the holder's colour inside when a gone member does. On a laptop and a phone, at 1 and
// 2 device pixels per unit.
func TestLockMarks(t *testing.T) {
	all, s := lockedGroup(t)
	want := map[string]int{"broker-a:0": LockHeld, "broker-a:1": LockAway}
	for q, state := range want {
		i := slices.IndexFunc(s.Queues, func(v cluster.QueueView) bool { return v.Queue == q })
		if i < 0 {
			t.Fatalf("no queue %s in %+v", q, s.Queues)
		}
		if got := LockOf(&s.Queues[i]); got != state {
			t.Fatalf("%s: lock state %d (locked by %q, owners %v); want %d", q, got, s.Queues[i].LockedBy, s.Queues[i].Owners, state)
		}
	}
	if got := LockOf(&cluster.QueueView{Owners: []string{"c1"}}); got != LockNone {
		t.Errorf("a queue without a lock: state %d", got)
	}
	// The same snapshot without its locks.
	bare := s
	bare.Queues = slices.Clone(s.Queues)
	for i := range bare.Queues {
		bare.Queues[i].LockedBy, bare.Queues[i].LockUntil = "", 0
	}
	for _, v := range []struct {
		size Rect
		lang string
		k    float64
	}{{Rect{0, 0, 960, 720}, EN, 1}, {Rect{0, 0, 375, 560}, ZH, 2}, {Rect{0, 0, 375, 560}, EN, 1}} {
		k := v.k
		l := ComputeShown(&s, &all, v.size, v.lang, 1)
		img := render(Frame{Snap: &s, All: &all, Layout: l, Lang: v.lang, Paused: true}, k)
		ref := render(Frame{Snap: &bare, All: &all, Layout: l, Lang: v.lang, Paused: true}, k)
		var marks []image.Rectangle // where the marks may draw, in device pixels
		for _, q := range s.Queues {
			if q.LockedBy == "" {
				continue
			}
			state := LockOf(&q) // the retry topic's queue is locked too
			cell, found := l.Cell(q.Queue)
			if !found {
				t.Fatalf("no cell for %s", q.Queue)
			}
			box, padlock := lockMark(cell.Rect)
			if !padlock {
				t.Fatalf("%gx%g: %s's cell %+v draws no padlock", v.size.W, v.size.H, q.Queue, cell.Rect)
			}
			px := image.Rect(int(math.Floor(box.X*k)), int(math.Floor(box.Y*k)), int(math.Ceil(box.Right()*k)), int(math.Ceil(box.Bottom()*k)))
			marks = append(marks, px.Inset(-int(math.Ceil(k)))) // with the plate around an away padlock
			area := px.Dx() * px.Dy()
			switch state {
			case LockHeld:
				m := l.Marks[q.LockedBy]
				// The padlock's body alone is half its box; its shackle adds to it.
				if n := countIn(img, px, m.Ink, m.Color); n < area/2 {
					t.Errorf("%gx%g ×%v: %s's padlock inks %d of its %d pixels", v.size.W, v.size.H, k, q.Queue, n, area)
				}
				if n := countIn(ref, px, m.Ink, m.Color); n != 0 {
					t.Errorf("%gx%g ×%v: %s's corner is inked (%d pixels) without its lock", v.size.W, v.size.H, k, q.Queue, n)
				}
			case LockAway:
				if n := countIn(img, px, Warn, Empty); n < area/3 {
					t.Errorf("%gx%g ×%v: %s's red padlock has %d red pixels of %d", v.size.W, v.size.H, k, q.Queue, n, area)
				}
				holder := toRGBA(l.Marks[q.LockedBy].Color)
				n := 0
				for y := px.Min.Y; y < px.Max.Y; y++ {
					for x := px.Min.X; x < px.Max.X; x++ {
						if p := img.RGBAAt(x, y); p.R == holder.R && p.G == holder.G && p.B == holder.B {
							n++
						}
					}
				}
				if n < int(k*k) {
					t.Errorf("%gx%g ×%v: %s's padlock shows nothing of its holder %s's colour", v.size.W, v.size.H, k, q.Queue, q.LockedBy)
				}
			}
		}
		// Nothing but the marks differs from the frame without locks.
		changed := 0
		for y := 0; y < img.Rect.Dy(); y++ {
			for x := 0; x < img.Rect.Dx(); x++ {
				if img.RGBAAt(x, y) == ref.RGBAAt(x, y) {
					continue
				}
				changed++
				if !slices.ContainsFunc(marks, func(r image.Rectangle) bool { return image.Pt(x, y).In(r) }) {
					t.Fatalf("%gx%g ×%v: pixel (%d, %d) changes outside the lock marks %v", v.size.W, v.size.H, k, x, y, marks)
				}
			}
		}
		if changed == 0 {
			t.Errorf("%gx%g ×%v: the locks draw nothing", v.size.W, v.size.H, k)
		}
		// A down broker's cells carry no marks, its locks' neither.
		down, bareDown := s, bare
		down.Brokers = slices.Clone(s.Brokers)
		for i := range down.Brokers {
			down.Brokers[i].Down = true
		}
		bareDown.Brokers = down.Brokers
		if a, b := render(Frame{Snap: &down, All: &all, Layout: l, Lang: v.lang, Paused: true}, k), render(Frame{Snap: &bareDown, All: &all, Layout: l, Lang: v.lang, Paused: true}, k); !slices.Equal(a.Pix, b.Pix) {
			t.Errorf("%gx%g ×%v: a down broker's locked cells carry a mark", v.size.W, v.size.H, k)
		}
	}
}

// countIn is the number of pixels of img in r nearer ink than fill.
func countIn(img *image.RGBA, r image.Rectangle, ink, fill Color) int {
	n := 0
	for _, in := range inkMask(img, r, ink, fill) {
		if in {
			n++
		}
	}
	return n
}

// A cell too small for a padlock carries a corner triangle at its top right instead: its
// holder's ink when it pulls the queue, the warning colour when a gone member holds the lock.
func TestLockCornerInSmallCells(t *testing.T) {
	l := &Layout{Marks: marksOf([]string{"c1", "c2"})}
	cell := Rect{0, 0, 10, 8}
	if _, padlock := lockMark(cell); padlock {
		t.Fatalf("a %gx%g cell draws a padlock", cell.W, cell.H)
	}
	if _, padlock := lockMark(Rect{0, 0, 60, 30}); !padlock {
		t.Fatal("a 60x30 cell draws no padlock")
	}
	for _, tc := range []struct {
		q    cluster.QueueView
		fill Color
		ink  Color
	}{
		{cluster.QueueView{Owners: []string{"c1"}, LockedBy: "c1"}, l.Marks["c1"].Color, l.Marks["c1"].Ink},
		{cluster.QueueView{LockedBy: "c2"}, Empty, Warn},
	} {
		var cv Canvas
		face := cv.SetScale(1)
		cv.Rect(LayerCells, cell, tc.fill)
		drawLock(&cv, l, cell, &tc.q)
		img := image.NewRGBA(image.Rect(0, 0, int(cell.W), int(cell.H)))
		for layer := range NumLayers {
			for _, m := range cv.Meshes(layer) {
				for i := 0; i+2 < len(m.Indices); i += 3 {
					raster(img, m.Vertices[m.Indices[i]], m.Vertices[m.Indices[i+1]], m.Vertices[m.Indices[i+2]], face.W, face.H, face.Pix)
				}
			}
		}
		inked := inkMask(img, img.Rect, tc.ink, tc.fill)
		w := int(cell.W)
		// The top right corner is inked, the other three are not.
		for _, p := range []struct {
			x, y int
			want bool
		}{{w - 1, 0, true}, {0, 0, false}, {0, int(cell.H) - 1, false}, {w - 1, int(cell.H) - 1, false}} {
			if got := inked[p.y*w+p.x]; got != p.want {
				t.Errorf("locked by %s: pixel (%d, %d) inked %v; want %v", tc.q.LockedBy, p.x, p.y, got, p.want)
			}
		}
	}
}

// The legend explains the two lock marks, in both languages, where a queue is locked, and
// only there; on a phone too, ahead of the marks every run has.
func TestLegendExplainsLocks(t *testing.T) {
	all, s := lockedGroup(t)
	plain := presetSnap(t, "default", 30000)
	for _, lang := range []string{EN, ZH} {
		for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 375, 560}} {
			for _, snap := range []*cluster.Snapshot{&s, &plain} {
				f := Frame{Snap: snap, Layout: ComputeShown(snap, &all, size, lang, 1), Speed: 1, Lang: lang, Legend: true}
				if snap == &plain {
					f.Layout = ComputeZoom(snap, size, lang, 1)
				}
				lg := LegendCard(f)
				if lg == nil {
					t.Fatalf("%s %gx%g: no legend", lang, size.W, size.H)
				}
				rows := map[int]string{}
				for _, r := range lg.Rows {
					rows[r.Sample] = strings.Join(r.Lines, " ")
				}
				for i, key := range lockKeys {
					_, ok := rows[SampleLocked+i]
					if want := snap == &s; ok != want {
						t.Errorf("%s %gx%g: %s in the legend %v; want %v", lang, size.W, size.H, key, ok, want)
					}
				}
			}
		}
	}
	if w := Word(ZH, "canvas.legend.lockedAway"); w == Word(EN, "canvas.legend.lockedAway") {
		t.Errorf("no Chinese for the lock's legend: %q", w)
	}
}
