package view

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// sizes are the canvases the playground must fit: a laptop's 1280×720 (whole, and beside the
// 320 px control panel) and a 375 px phone (whole, and above the collapsed panel).
var sizes = []Rect{
	{0, 0, 1280, 720},
	{0, 0, 960, 720},
	{0, 0, 375, 667},
	{0, 0, 375, 560},
	{0, 0, 375, 420},
}

func snapshot(t testing.TB, cfg cluster.Config, ms int64) cluster.Snapshot {
	t.Helper()
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(ms)
	return c.Snapshot()
}

// presetSnap is the preset at ms as the canvas first shows it: its first group of several.
func presetSnap(t testing.TB, name string, ms int64) cluster.Snapshot {
	s := snapshot(t, scenario.Presets()[name].Config, ms)
	return Project(&s, "")
}

// checkLayout asserts the layout's invariants: everything inside the bounds, no two boxes
// overlapping, cells inside their broker and apart, labels fitting their boxes, every box
// found by HitTest at its centre.
func checkLayout(t *testing.T, s *cluster.Snapshot, l *Layout) {
	t.Helper()
	type named struct {
		what string
		r    Rect
	}
	var boxes []named
	boxes = append(boxes, named{"header", l.Header})
	for _, p := range l.Producers {
		boxes = append(boxes, named{"producer " + p.ID, p.Rect})
	}
	for _, p := range l.Proxies {
		boxes = append(boxes, named{"proxy " + p.ID, p.Rect})
	}
	for _, b := range l.Brokers {
		boxes = append(boxes, named{"broker " + b.Name, b.Rect})
	}
	for _, c := range l.Consumers {
		boxes = append(boxes, named{"consumer " + c.ID, c.Rect})
	}
	for _, g := range l.Groups {
		boxes = append(boxes, named{"group " + g.ID, g.Rect})
	}
	if len(l.Groups) != len(s.Groups) {
		t.Errorf("%d group tabs for %d groups", len(l.Groups), len(s.Groups))
	}
	for i, a := range boxes {
		if a.r.W <= 0 || a.r.H <= 0 {
			t.Errorf("%s is empty: %+v", a.what, a.r)
		}
		if !a.r.Within(l.Bounds) {
			t.Errorf("%s %+v is outside the canvas %+v", a.what, a.r, l.Bounds)
		}
		for _, b := range boxes[i+1:] {
			if a.r.Overlaps(b.r) {
				t.Errorf("%s %+v overlaps %s %+v", a.what, a.r, b.what, b.r)
			}
		}
	}
	if len(l.Brokers) != len(s.Brokers) || len(l.Cells) != len(s.Queues) || len(l.Consumers) != len(s.Consumers) {
		t.Fatalf("layout has %d brokers, %d cells, %d consumers; snapshot %d, %d, %d",
			len(l.Brokers), len(l.Cells), len(l.Consumers), len(s.Brokers), len(s.Queues), len(s.Consumers))
	}
	for i, c := range l.Cells {
		b, _ := l.Broker(c.Broker)
		if !c.Rect.Within(Rect{b.X, b.Title.Bottom(), b.W, b.H - b.Title.H}) {
			t.Errorf("cell %s %+v is outside its broker's body %+v", c.Queue, c.Rect, b.Rect)
		}
		if c.W < 2 || c.H < 2 {
			t.Errorf("cell %s is %gx%g", c.Queue, c.W, c.H)
		}
		for _, d := range l.Cells[i+1:] {
			if c.Rect.Overlaps(d.Rect) {
				t.Errorf("cell %s overlaps %s", c.Queue, d.Queue)
			}
		}
		if k, id := l.HitTest(c.Center()); k != HitQueue || id != c.Queue {
			t.Errorf("HitTest(centre of %s) = %s %s", c.Queue, k, id)
		}
	}
	for _, g := range l.Groups {
		if k, id := l.HitTest(g.Center()); k != HitGroup || id != g.ID {
			t.Errorf("HitTest(centre of group %s) = %s %s", g.ID, k, id)
		}
	}
	for _, b := range l.Brokers {
		for i, r := range b.Bands {
			if r.W > 0 && !r.Within(b.Rect) {
				t.Errorf("band %d's label %+v is outside broker %s %+v", i, r, b.Name, b.Rect)
			}
			for _, c := range l.Cells {
				if r.W > 0 && c.Broker == b.Name && c.Rect.Overlaps(r) {
					t.Errorf("band %d's label %+v covers cell %s", i, r, c.Queue)
				}
			}
		}
		if TextWidth(b.Label) > b.W-2*brokerPad {
			t.Errorf("broker label %q is wider than its block (%g)", b.Label, b.W)
		}
		if k, id := l.HitTest(b.Title.Center()); k != HitBroker || id != b.Name {
			t.Errorf("HitTest(title of %s) = %s %s", b.Name, k, id)
		}
	}
	for _, c := range l.Consumers {
		if l.ConsumerMode != ConsumerTiny && TextWidth(ConsumerLabel(c.ID, l.Marks[c.ID])) > c.W-2 {
			t.Errorf("consumer %s's label does not fit its %g px box", c.ID, c.W)
		}
		if k, id := l.HitTest(c.Center()); k != HitConsumer || id != c.ID {
			t.Errorf("HitTest(centre of %s) = %s %s", c.ID, k, id)
		}
	}
	for _, p := range l.Producers {
		if k, id := l.HitTest(p.Center()); k != HitProducer || id != p.ID {
			t.Errorf("HitTest(centre of %s) = %s %s", p.ID, k, id)
		}
	}
	if len(l.Proxies) != len(s.Proxies) {
		t.Errorf("%d proxy boxes for %d proxies", len(l.Proxies), len(s.Proxies))
	}
	for _, p := range l.Proxies {
		if k, id := l.HitTest(p.Center()); k != HitProxy || id != p.ID {
			t.Errorf("HitTest(centre of proxy %s) = %s %s", p.ID, k, id)
		}
	}
}

func TestLayoutPresets(t *testing.T) {
	for _, name := range scenario.PresetNames() {
		s := presetSnap(t, name, 30000)
		for _, size := range sizes {
			t.Run(fmt.Sprintf("%s/%gx%g", name, size.W, size.H), func(t *testing.T) {
				l := Compute(&s, size)
				checkLayout(t, &s, l)
				// Readability: cells big enough to see an owner colour and a shape.
				if l.CellW < 6 || l.CellH < 5 {
					t.Errorf("cells are %gx%g", l.CellW, l.CellH)
				}
			})
		}
	}
}

// The small and default presets show every owner's label in its cells at every size; the
// large one does on a laptop.
func TestLayoutCellText(t *testing.T) {
	for _, tt := range []struct {
		preset string
		size   Rect
	}{
		{"small", sizes[0]}, {"small", sizes[2]}, {"default", sizes[0]}, {"default", sizes[1]},
		{"default", sizes[2]}, {"default", sizes[3]}, {"large", sizes[0]}, {"large", sizes[1]},
	} {
		s := presetSnap(t, tt.preset, 0)
		if l := Compute(&s, tt.size); !l.CellText {
			t.Errorf("%s at %gx%g: cells %gx%g hold no label", tt.preset, tt.size.W, tt.size.H, l.CellW, l.CellH)
		}
	}
}

func TestLayoutOffsetAndCrowds(t *testing.T) {
	// A stage that does not start at the canvas's corner.
	s := presetSnap(t, "default", 5000)
	checkLayout(t, &s, Compute(&s, Rect{20, 50, 900, 600}))

	// 200 consumers, uneven brokers, several producers, long ids.
	cfg := scenario.Presets()["large"].Config
	for i := 65; i <= 200; i++ {
		cfg.Consumers = append(cfg.Consumers, cluster.ConsumerConfig{ID: "c" + strconv.Itoa(i)})
	}
	cfg.Brokers[3].Queues = 40
	cfg.Producers = append(cfg.Producers, cluster.ProducerConfig{ID: "p2", Rate: 10}, cluster.ProducerConfig{ID: "p3", Rate: 10})
	s = snapshot(t, cfg, 1000)
	for _, size := range sizes {
		l := Compute(&s, size)
		checkLayout(t, &s, l)
	}

	cfg = scenario.Presets()["small"].Config
	cfg.Consumers = []cluster.ConsumerConfig{{ID: "10.0.0.1@4242#1700000000"}, {ID: "10.0.0.2@4242#1700000001"}}
	s = snapshot(t, cfg, 1000)
	for _, size := range sizes {
		l := Compute(&s, size)
		checkLayout(t, &s, l)
		if m := l.Marks["10.0.0.2@4242#1700000001"]; m.Label != "2" {
			t.Errorf("long ids: mark %q; want 2", m.Label)
		}
	}

	// Nothing at all still lays out, and a canvas too small for anything does not panic.
	empty := cluster.Snapshot{}
	Compute(&empty, sizes[0])
	Compute(&s, Rect{0, 0, 10, 10})
	Compute(&s, Rect{0, 0, 0, 0})
}

func TestMarks(t *testing.T) {
	s := presetSnap(t, "large", 0)
	marks := Marks(s.Consumers)
	if len(marks) != 64 {
		t.Fatalf("%d marks", len(marks))
	}
	type pair struct {
		c     Color
		shape int
	}
	seen := map[pair]string{}
	labels := map[string]string{}
	for id, m := range marks {
		p := pair{m.Color, m.Shape}
		if other, dup := seen[p]; dup {
			t.Errorf("%s and %s share colour and shape", id, other)
		}
		seen[p] = id
		if other, dup := labels[m.Label]; dup {
			t.Errorf("%s and %s share label %q", id, other, m.Label)
		}
		labels[m.Label] = id
		if m.Label != id {
			t.Errorf("mark of %s is %q; want the id", id, m.Label)
		}
	}
	// The first eight differ in colour and in shape.
	shapes, colours := map[int]bool{}, map[Color]bool{}
	for i := 1; i <= 8; i++ {
		m := marks["c"+strconv.Itoa(i)]
		shapes[m.Shape], colours[m.Color] = true, true
	}
	if len(shapes) != 8 || len(colours) != 8 {
		t.Errorf("c1…c8: %d shapes, %d colours; want 8 and 8", len(shapes), len(colours))
	}
	// Ink contrasts with its fill: dark on the light colours, white on blue.
	if marks["c2"].Ink != Ink || marks["c5"].Ink != White {
		t.Errorf("ink on sky blue %v, on blue %v", marks["c2"].Ink, marks["c5"].Ink)
	}
	if got := ConsumerOrder(s.Consumers)[:12]; !slices.Equal(got, []string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12"}) {
		t.Errorf("natural order: %v", got)
	}
}

func TestMenus(t *testing.T) {
	b := sizes[2]
	keys := func(m *Menu) []string {
		var out []string
		for _, it := range m.Items {
			out = append(out, it.Key)
		}
		return out
	}
	for _, tt := range []struct {
		status string
		want   []string
	}{
		{cluster.StatusAlive, []string{"killConsumer", "partitionConsumer", "stopConsumer", "hangConsumer"}},
		{cluster.StatusHung, []string{"resumeConsumer", "killConsumer", "partitionConsumer", "stopConsumer"}},
		{cluster.StatusPartitioned, []string{"healConsumer", "restartConsumer", "killConsumer"}},
		{cluster.StatusKilled, []string{"restartConsumer"}},
		{cluster.StatusStopped, []string{"restartConsumer"}},
	} {
		m := ConsumerMenu(cluster.ConsumerView{ID: "c1", Status: tt.status}, 370, 660, b, EN)
		if got := keys(m); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v; want %v", tt.status, got, tt.want)
		}
		if !m.Rect.Within(b) {
			t.Errorf("%s menu %+v leaves the canvas", tt.status, m.Rect)
		}
		for i, it := range m.Items {
			if it.Cmd.ID != "c1" || it.Cmd.Type != it.Key {
				t.Errorf("item %+v", it)
			}
			if got := m.Hit(it.Center()); got != i {
				t.Errorf("Hit(item %d) = %d", i, got)
			}
		}
		if m.Hit(m.X+2, m.Y+2) != -2 || m.Hit(m.X-1, m.Y) != -1 {
			t.Error("title or outside hit an item")
		}
	}
	m := BrokerMenu(cluster.BrokerView{Name: "broker-a", LatencyMs: 600}, 10, 10, b, EN)
	if got := keys(m); !slices.Equal(got, []string{"slowBroker:0", "slowBroker:100", "slowBroker:600", "slowBroker:2000", "slowBroker:6000", "killBroker"}) {
		t.Errorf("broker menu %v", got)
	}
	if *m.Items[3].Cmd.LatencyMs != 2000 || m.Items[2].Label[0] != '*' {
		t.Errorf("items %+v", m.Items)
	}
	m = BrokerMenu(cluster.BrokerView{Name: "broker-a", Down: true}, 10, 10, b, EN)
	if last := m.Items[len(m.Items)-1]; last.Key != "restoreBroker" {
		t.Errorf("down broker's last item %s", last.Key)
	}
}

func TestAnimator(t *testing.T) {
	snap := func(ms int64, owners ...string) *cluster.Snapshot {
		s := &cluster.Snapshot{TimeMs: ms}
		for i, o := range owners {
			q := cluster.QueueView{Queue: "b:" + strconv.Itoa(i), Owners: []string{}}
			if o != "" {
				q.Owners = []string{o}
			}
			s.Queues = append(s.Queues, q)
		}
		return s
	}
	var a Animator
	a.Observe(snap(0, "c1", "c1", ""), 0)
	if from, t0 := a.From("b:0", "c1", 0); from != "c1" || t0 != 1 {
		t.Errorf("first snapshot animates: %s %g", from, t0)
	}
	a.Observe(snap(100, "c2", "c1", "c3"), 1000)
	if from, p := a.From("b:0", "c2", 1000); from != "c1" || p != 0 {
		t.Errorf("at the start of the slide: %s %g; want c1 0", from, p)
	}
	if _, p := a.From("b:0", "c2", 1200); p <= 0 || p >= 1 {
		t.Errorf("half way: %g", p)
	}
	if from, p := a.From("b:2", "c3", 1000); from != "" || p != 0 {
		t.Errorf("an orphan's new line grows from its cell: %q %g", from, p)
	}
	if from, p := a.From("b:0", "c2", 1000+SlideMs); from != "c2" || p != 1 {
		t.Errorf("after the slide: %s %g", from, p)
	}
	if !a.Active(1100) || a.Active(1000+SlideMs) {
		t.Error("Active is wrong")
	}
	// A reset (time going back) does not animate.
	a.Observe(snap(0, "c9", "c9", "c9"), 2000)
	if _, p := a.From("b:0", "c9", 2000); p != 1 {
		t.Errorf("a reset animates: %g", p)
	}
	// A queue that leaves (a broker's queues shrink) and comes back under another owner
	// appears there, as any new queue does: no slide from its owner before it left.
	a.Observe(snap(3000, "c1", "c1", "c1"), 9000)
	a.Observe(snap(3100, "c1"), 9100)
	a.Observe(snap(3200, "c1", "c1", "c2"), 9200)
	if from, p := a.From("b:2", "c2", 9200); from != "c2" || p != 1 {
		t.Errorf("a queue back after it left slides from its old owner: %s %g", from, p)
	}
	a.Observe(snap(3300, "c1", "c1", "c1"), 9300)
	if from, p := a.From("b:2", "c1", 9300); from != "c2" || p != 0 {
		t.Errorf("a queue back after it left does not slide on its next change: %s %g", from, p)
	}
	// Reduced motion: no slides.
	r := Animator{Reduced: true}
	r.Observe(snap(0, "c1"), 0)
	r.Observe(snap(1, "c2"), 10)
	if from, p := r.From("b:0", "c2", 10); from != "c2" || p != 1 {
		t.Errorf("reduced motion slides: %s %g", from, p)
	}
	var nilA *Animator
	if from, p := nilA.From("q", "c1", 0); from != "c1" || p != 1 {
		t.Error("a nil animator animates")
	}
}

func TestCanvas(t *testing.T) {
	var c Canvas
	c.Rect(LayerBack, Rect{0, 0, 10, 10}, White)
	c.Text(LayerMarks, 0, 0, "ab c", White)
	c.Ring(LayerMarks, 5, 5, 0, 5, 0, math.Pi, White)
	c.Rect(LayerBack, Rect{0, 0, 10, 10}, White.Alpha(0)) // invisible: skipped
	if got := len(c.Meshes(LayerBack)[0].Vertices); got != 4 {
		t.Errorf("back layer has %d vertices; want 4", got)
	}
	for l := range NumLayers {
		for _, m := range c.Meshes(l) {
			for _, i := range m.Indices {
				if int(i) >= len(m.Vertices) {
					t.Fatalf("layer %d: index %d of %d vertices", l, i, len(m.Vertices))
				}
			}
		}
	}
	// A layer past 65000 vertices splits into meshes that each index within uint16.
	for range 20000 {
		c.Rect(LayerCells, Rect{0, 0, 1, 1}, White)
	}
	ms := c.Meshes(LayerCells)
	if len(ms) != 2 || len(ms[0].Vertices) > maxVertices {
		t.Errorf("%d meshes, first %d vertices", len(ms), len(ms[0].Vertices))
	}
	c.Reset()
	if c.VertexCount() != 0 || len(c.Meshes(LayerCells)) != 0 {
		t.Error("Reset left vertices")
	}
	if got := Fit("broker-a", 30); got != "brk~" && TextWidth(got) > 30 {
		t.Errorf("Fit = %q", got)
	}
	if Fit("abc", 100) != "abc" || Fit("abc", 3) != "" {
		t.Error("Fit")
	}
}

// Draw handles every state a snapshot can show, at every size, without leaving the canvas.
func TestDrawStates(t *testing.T) {
	cfg := scenario.Presets()["default"].Config
	cfg.LatencyFault = true
	c, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(20000)
	lat := 2000
	for _, cmd := range []cluster.Command{
		{Type: "killConsumer", ID: "c1"}, {Type: "partitionConsumer", ID: "c2"}, {Type: "hangConsumer", ID: "c3"},
		{Type: "slowBroker", Broker: "broker-a", LatencyMs: &lat}, {Type: "killBroker", Broker: "broker-d"},
		{Type: "addConsumer", ID: "c5"}, {Type: "addConsumer", ID: "c6"}, {Type: "addConsumer", ID: "c7"},
		{Type: "addConsumer", ID: "c8"}, {Type: "addConsumer", ID: "c9"},
	} {
		if err := c.Apply(cmd); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(22000)
	if err := c.Apply(cluster.Command{Type: "stopConsumer", ID: "c4"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(23500)
	s := c.Snapshot()
	statuses := map[string]bool{}
	for _, cv := range s.Consumers {
		statuses[cv.Status] = true
	}
	isolated := false
	for _, b := range s.Brokers {
		isolated = isolated || b.IsolatedUntilMs > s.TimeMs
	}
	t.Logf("statuses %v, isolation %v, anomalies %d, sends %d", statuses, isolated, len(s.Anomalies), len(s.Sends))

	var a Animator
	var cv Canvas
	for _, lang := range []string{EN, ZH} {
		for _, size := range sizes {
			l := ComputeLang(&s, size, lang)
			checkLayout(t, &s, l)
			a.Observe(&s, 0)
			for _, hover := range []string{"", HitConsumer, HitQueue, HitBroker, HitProducer} {
				f := Frame{Snap: &s, Layout: l, Speed: 10, Paused: true, Anim: &a, WallMs: 100, Lang: lang}
				switch hover {
				case HitConsumer:
					f.HoverX, f.HoverY = l.Consumers[0].Center()
				case HitQueue:
					f.HoverX, f.HoverY = l.Cells[len(l.Cells)-1].Center()
				case HitBroker:
					f.HoverX, f.HoverY = l.Brokers[0].Title.Center()
				case HitProducer:
					f.HoverX, f.HoverY = l.Producers[0].Center()
				}
				f.HoverOK = hover != ""
				if hover == HitConsumer {
					f.Menu = ConsumerMenu(s.Consumers[0], f.HoverX, f.HoverY, size, lang)
				}
				cv.Reset()
				Draw(&cv, f)
				if cv.VertexCount() == 0 {
					t.Fatal("nothing drawn")
				}
				for layer := range NumLayers {
					for _, m := range cv.Meshes(layer) {
						for _, v := range m.Vertices {
							if float64(v.X) < size.X-3 || float64(v.X) > size.Right()+3 || float64(v.Y) < size.Y-3 || float64(v.Y) > size.Bottom()+3 {
								t.Fatalf("%gx%g hover %q: vertex (%g, %g) outside the canvas", size.W, size.H, hover, v.X, v.Y)
							}
							if v.A < 0 || v.A > 1 || v.R > v.A+1e-6 {
								t.Fatalf("colour not premultiplied: %+v", v)
							}
						}
					}
				}
			}
		}
	}
	// The large preset at 100 fps budget stays well inside one mesh per layer.
	s = presetSnap(t, "large", 60000)
	cv.Reset()
	Draw(&cv, Frame{Snap: &s, Layout: Compute(&s, sizes[0]), Speed: 1})
	if n := cv.VertexCount(); n > 60000 {
		t.Errorf("large preset: %d vertices", n)
	}
}

func TestTooltipAndClock(t *testing.T) {
	if got := Clock(61234); got != "01:01.2" {
		t.Errorf("Clock = %q", got)
	}
	if got := Clock(3723000); got != "1:02:03.0" {
		t.Errorf("Clock = %q", got)
	}
	if SpeedText(0.25) != "x0.25" || SpeedText(100) != "x100" {
		t.Error("SpeedText")
	}
	for ms, want := range map[int64]string{550: "550ms", 1000: "1s", 30000: "30s", 90000: "90s", 120000: "2m", 600000: "10m", 3600000: "1h"} {
		if got := Duration(ms); got != want {
			t.Errorf("Duration(%d) = %q; want %q", ms, got, want)
		}
	}
	s := presetSnap(t, "small", 5000)
	f := Frame{Snap: &s}
	if got := TooltipLines(f, HitQueue, "broker-a:0"); len(got) != 3 || got[1] != "pulled by c1" {
		t.Errorf("queue tooltip %q", got)
	}
	if got := TooltipLines(f, HitConsumer, "c1"); len(got) != 3 || got[0] != "c1 alive" {
		t.Errorf("consumer tooltip %q", got)
	}
	if got := TooltipLines(f, HitBroker, "broker-b"); len(got) < 3 || got[0] != "broker-b up" {
		t.Errorf("broker tooltip %q", got)
	}
	if got := TooltipLines(f, HitProducer, "p1"); len(got) != 2 {
		t.Errorf("producer tooltip %q", got)
	}
	if TooltipLines(f, HitQueue, "nope") != nil {
		t.Error("tooltip of nothing")
	}
}

// Once a group mixes clients, each consumer's tooltip says the SDK it runs; an all-Java
// group's says nothing of it.
func TestTooltipNamesTheClientOfAMixedGroup(t *testing.T) {
	cfg := scenario.Presets()["small"].Config
	cfg.Consumers = slices.Clone(cfg.Consumers)
	cfg.Consumers[0].Client = "go"
	s := snapshot(t, cfg, 5000)
	f := Frame{Snap: &s}
	id0, id1 := cfg.Consumers[0].ID, cfg.Consumers[1].ID
	if got := TooltipLines(f, HitConsumer, id0); len(got) == 0 || !strings.HasSuffix(got[0], " · go-2.1.2") {
		t.Errorf("Go consumer's tooltip %q; want its client named", got)
	}
	if got := TooltipLines(f, HitConsumer, id1); len(got) == 0 || !strings.HasSuffix(got[0], " · java") {
		t.Errorf("Java consumer's tooltip %q; want its client named", got)
	}
	if !mixedClients(&s) {
		t.Error("a group with a Go member is not mixed")
	}
	plain := presetSnap(t, "small", 5000)
	if mixedClients(&plain) {
		t.Error("an all-Java group counts as mixed")
	}
}

func TestBoxes(t *testing.T) {
	s := presetSnap(t, "default", 0)
	l := Compute(&s, sizes[0])
	m := BrokerMenu(s.Brokers[0], 100, 100, sizes[0], EN)
	h := l.Boxes(m)
	if len(h.Consumers) != 4 || len(h.Brokers) != 4 || len(h.Queues) != 32 || len(h.Menu) != 6 || h.Width != 1280 {
		t.Errorf("boxes %+v", h)
	}
	if h.Menu[5].ID != "killBroker" {
		t.Errorf("menu boxes %+v", h.Menu)
	}
}

func BenchmarkFrameLarge(b *testing.B) {
	s := presetSnap(b, "large", 60000)
	var a Animator
	var cv Canvas
	for b.Loop() {
		l := Compute(&s, sizes[1])
		a.Observe(&s, 0)
		cv.Reset()
		Draw(&cv, Frame{Snap: &s, Layout: l, Anim: &a, Speed: 1})
	}
}

// BenchmarkDrawLarge is one frame's meshes of the large preset at 1280×720, with its layout
// made once, as a run's frames share it (Layouts).
func BenchmarkDrawLarge(b *testing.B) {
	s := presetSnap(b, "large", 61000)
	l := ComputeZoom(&s, sizes[0], EN, 1)
	var a Animator
	a.Observe(&s, 0)
	var cv Canvas
	for b.Loop() {
		cv.Reset()
		Draw(&cv, Frame{Snap: &s, Layout: l, Anim: &a, Speed: 10, WallMs: 100, Lang: EN})
	}
}

// Queues beyond a broker's write or read count, and a member subscribing another topic, say
// so in their tooltips, in both languages.
func TestTooltipsOfQueueCountsAndSubscriptions(t *testing.T) {
	w := presetSnap(t, "incident-write-more-than-read", 20000)
	r := presetSnap(t, "incident-read-more-than-write", 20000)
	d := presetSnap(t, "incident-different-subscriptions", 20000)
	for _, lang := range []string{"en", "zh"} {
		if got := TooltipLines(Frame{Snap: &w, Lang: lang}, HitQueue, "broker-a:3"); len(got) != 3 || got[1] != Word(lang, "canvas.tip.writeOnly") {
			t.Errorf("%s: write-only queue tooltip %q", lang, got)
		}
		if got := TooltipLines(Frame{Snap: &w, Lang: lang}, HitQueue, "broker-a:1"); len(got) != 3 || got[1] == Word(lang, "canvas.tip.writeOnly") {
			t.Errorf("%s: read-write queue tooltip %q", lang, got)
		}
		if got := TooltipLines(Frame{Snap: &r, Lang: lang}, HitQueue, "broker-b:2"); len(got) != 4 || got[3] != Word(lang, "canvas.tip.readOnly") {
			t.Errorf("%s: read-only queue tooltip %q", lang, got)
		}
		if got := TooltipLines(Frame{Snap: &d, Lang: lang}, HitConsumer, "c3"); len(got) != 4 || got[3] != Word(lang, "canvas.tip.subscribes", "OrderTopic") {
			t.Errorf("%s: tooltip of the member subscribing another topic %q", lang, got)
		}
	}
}

// A consumer restarted with the default instance name is a new process with a new client id
// (c1 becomes c1#2, spec §1.2): its box says "restarted" where it fits, in both languages, and
// its tooltip gives the new id.
func TestRestartedConsumerIsShown(t *testing.T) {
	c, err := cluster.New(scenario.Presets()["small"].Config)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(5000)
	for _, cmd := range []cluster.Command{{Type: "killConsumer", ID: "c1"}, {Type: "restartConsumer", ID: "c1"}} {
		if err := c.Apply(cmd); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(8000)
	s := c.Snapshot()
	for lang, want := range map[string]string{EN: "c1 restarted: client id c1#2", ZH: "c1 已重启：客户端标识 c1#2"} {
		f := Frame{Snap: &s, Lang: lang}
		if got := TooltipLines(f, HitConsumer, "c1"); !slices.Contains(got, want) {
			t.Errorf("%s: tooltip %q; want the line %q", lang, got, want)
		}
		l := ComputeLang(&s, Rect{0, 0, 1280, 720}, lang)
		b, ok := l.Consumer("c1")
		if !ok || l.ConsumerMode != ConsumerTall || TextWidth(Word(lang, "canvas.restarted"))+4 > b.W {
			t.Errorf("%s: box %+v in mode %d; want a tall box that holds %q", lang, b, l.ConsumerMode, Word(lang, "canvas.restarted"))
		}
	}
	if got := TooltipLines(Frame{Snap: &s}, HitConsumer, "c2"); slices.ContainsFunc(got, func(x string) bool { return strings.Contains(x, "restarted") }) {
		t.Errorf("c2 never restarted, but its tooltip says %q", got)
	}
}

// A canvas drawn again draws what a new one does: what it keeps of the last frame's snapshot
// (its lookups) is that frame's only. Here a partitioned consumer leaves the snapshot while
// its queues still name it.
func TestCanvasDrawnAgainDrawsTheNewSnapshot(t *testing.T) {
	a := presetSnap(t, "small", 30000)
	a.Consumers = slices.Clone(a.Consumers)
	a.Consumers[1].Status = cluster.StatusPartitioned
	b := a
	b.Consumers = slices.Delete(slices.Clone(a.Consumers), 1, 2)
	draw := func(c *Canvas, s *cluster.Snapshot) [NumLayers][]Vertex {
		c.Reset()
		Draw(c, Frame{Snap: s, Layout: Compute(&a, sizes[0]), Speed: 1, Lang: EN})
		var out [NumLayers][]Vertex
		for l := range NumLayers {
			for _, m := range c.Meshes(l) {
				out[l] = append(out[l], m.Vertices...)
			}
		}
		return out
	}
	var reused, fresh Canvas
	draw(&reused, &a)
	if again, want := draw(&reused, &b), draw(&fresh, &b); !reflect.DeepEqual(again, want) {
		t.Error("a canvas drawn again draws what the last snapshot had")
	}
	if want, fromA := draw(&fresh, &b), draw(&Canvas{}, &a); reflect.DeepEqual(want, fromA) {
		t.Error("the two snapshots draw the same: the test tells nothing")
	}
}

// A canvas that keeps its countdown lines draws, frame after frame and language after
// language, what a new canvas draws.
func TestCanvasCountdownsFollowTimeAndLanguage(t *testing.T) {
	s := presetSnap(t, "small", 30000)
	l := Compute(&s, sizes[0])
	if l.ConsumerMode != ConsumerTall {
		t.Fatalf("mode %d: want tall boxes, which show the countdown", l.ConsumerMode)
	}
	draw := func(c *Canvas, lang string, ms int64) []Vertex {
		snap := s
		snap.TimeMs = ms
		c.Reset()
		Draw(c, Frame{Snap: &snap, Layout: l, Speed: 1, Lang: lang})
		var out []Vertex
		for layer := range NumLayers {
			for _, m := range c.Meshes(layer) {
				out = append(out, m.Vertices...)
			}
		}
		return out
	}
	var kept Canvas
	var prev []Vertex
	for i, lang := range []string{EN, ZH, EN, ZH, ZH, EN} {
		ms := s.TimeMs + int64(i/2)*1000 // a second later every other frame
		got, want := draw(&kept, lang, ms), draw(&Canvas{}, lang, ms)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("frame %d (%s, %d ms): the kept canvas draws another countdown", i, lang, ms)
		}
		if i > 0 && reflect.DeepEqual(got, prev) {
			t.Fatalf("frame %d draws what frame %d did: the test tells nothing", i, i-1)
		}
		prev = got
	}
}
