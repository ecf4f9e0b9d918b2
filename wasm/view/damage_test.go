package view

import (
	"image"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// quads is a canvas at one device pixel per unit with a filled rectangle for each of rs.
func quads(rs ...Rect) *Canvas {
	var c Canvas
	c.SetScale(1)
	for i, r := range rs {
		c.Rect(LayerCells, r, Color{R: float32(i%7) / 7, G: 0.5, B: 0.25, A: 1})
	}
	return &c
}

// tile is the pixels of the tile at (col, row) of a w×h screen.
func tile(col, row, w, h int) image.Rectangle {
	return image.Rect(col*DamageTile, row*DamageTile, min(col*DamageTile+DamageTile, w), min(row*DamageTile+DamageTile, h))
}

// covered is the set of tiles that the rectangles touch.
func covered(rs []image.Rectangle) map[[2]int]bool {
	out := map[[2]int]bool{}
	for _, r := range rs {
		for row := r.Min.Y / DamageTile; row <= (r.Max.Y-1)/DamageTile; row++ {
			for col := r.Min.X / DamageTile; col <= (r.Max.X-1)/DamageTile; col++ {
				out[[2]int{col, row}] = true
			}
		}
	}
	return out
}

func tiles(ts ...[2]int) map[[2]int]bool {
	out := map[[2]int]bool{}
	for _, t := range ts {
		out[t] = true
	}
	return out
}

func TestDamageFirstFrameIsFullThenNothingChanged(t *testing.T) {
	var d Damage
	c := quads(Rect{10, 10, 50, 30}, Rect{300, 200, 40, 40})
	if rs, full := d.Frame(c, 640, 360); !full || rs != nil || d.Share() != 1 {
		t.Fatalf("first frame: rects %v, full %v, share %v; want full", rs, full, d.Share())
	}
	for range 3 {
		c = quads(Rect{10, 10, 50, 30}, Rect{300, 200, 40, 40}) // the same triangles, drawn again
		if rs, full := d.Frame(c, 640, 360); full || len(rs) != 0 || d.Share() != 0 {
			t.Fatalf("an unchanged frame: rects %v, full %v, share %v; want nothing", rs, full, d.Share())
		}
	}
}

func TestDamageMovedQuadDirtiesItsOldAndNewTiles(t *testing.T) {
	var d Damage
	d.Frame(quads(Rect{40, 40, 8, 8}, Rect{500, 300, 20, 20}), 640, 360)
	rs, full := d.Frame(quads(Rect{200, 100, 8, 8}, Rect{500, 300, 20, 20}), 640, 360)
	if full {
		t.Fatal("a moved quad redraws everything")
	}
	want := []image.Rectangle{tile(2, 2, 640, 360), tile(12, 6, 640, 360)}
	got := slices.Clone(rs)
	slices.SortFunc(got, func(a, b image.Rectangle) int { return a.Min.X - b.Min.X })
	if !slices.Equal(got, want) {
		t.Fatalf("rects %v; want the old and the new tile %v", got, want)
	}
	if s := d.Share(); s != float64(2*DamageTile*DamageTile)/(640*360) {
		t.Errorf("share %v; want two tiles' worth", s)
	}
}

// Each field of each vertex of a triangle is part of what the tiles it touches show.
func TestDamageAnyVertexFieldDirtiesTheTrianglesTiles(t *testing.T) {
	fields := []func(*Vertex) *float32{
		func(v *Vertex) *float32 { return &v.X }, func(v *Vertex) *float32 { return &v.Y },
		func(v *Vertex) *float32 { return &v.SrcX }, func(v *Vertex) *float32 { return &v.SrcY },
		func(v *Vertex) *float32 { return &v.R }, func(v *Vertex) *float32 { return &v.G },
		func(v *Vertex) *float32 { return &v.B }, func(v *Vertex) *float32 { return &v.A },
	}
	// A quad over tiles 1…2 of row 1 (x 20…44, y 20…28), another far away.
	scene := func() *Canvas { return quads(Rect{20, 20, 24, 8}, Rect{400, 200, 8, 8}) }
	for i, field := range fields {
		for corner := range 4 {
			var d Damage
			d.Frame(scene(), 640, 360)
			c := scene()
			v := &c.Meshes(LayerCells)[0].Vertices[corner]
			*field(v) += 0.25
			rs, full := d.Frame(c, 640, 360)
			if full {
				t.Fatalf("field %d of corner %d: full redraw", i, corner)
			}
			got := covered(rs)
			if !got[[2]int{1, 1}] || !got[[2]int{2, 1}] || got[[2]int{25, 12}] {
				t.Errorf("field %d of corner %d changed: tiles %v; want the quad's (1,1) and (2,1) and not the other quad's", i, corner, got)
			}
		}
	}
}

// Two quads overlapping in tiles 1 and 2 swap their drawing order: those tiles change, the
// tiles only one of them touches do not.
func TestDamageReorderDirtiesOnlyTheSharedTiles(t *testing.T) {
	a, b := Rect{0, 0, 40, 10}, Rect{24, 0, 48, 10} // tiles 0…2 and 1…4 of row 0
	var d Damage
	d.Frame(quads(a, b), 640, 360)
	c := quads(a, b)
	ms := c.Meshes(LayerCells)[0]
	// Swap the quads' vertices, so that b is drawn first with the same colours.
	vs := ms.Vertices
	vs[0], vs[1], vs[2], vs[3], vs[4], vs[5], vs[6], vs[7] = vs[4], vs[5], vs[6], vs[7], vs[0], vs[1], vs[2], vs[3]
	rs, full := d.Frame(c, 640, 360)
	if full {
		t.Fatal("full redraw")
	}
	if got, want := covered(rs), tiles([2]int{1, 0}, [2]int{2, 0}); !mapsEqual(got, want) {
		t.Fatalf("tiles %v; want %v", got, want)
	}
}

func mapsEqual(a, b map[[2]int]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// A long slanted line that changes colour dirties the tiles it covers pixels of, and not the
// rest of its box.
func TestDamageLongLineDirtiesTheTilesItCrosses(t *testing.T) {
	const w, h = 640, 360
	line := func(c Color) *Canvas {
		var cv Canvas
		cv.SetScale(1)
		cv.Line(LayerLines, 3, 7, 401.5, 296.25, 2.5, c)
		return &cv
	}
	var d Damage
	d.Frame(line(Color{R: 1, A: 1}), w, h)
	cv := line(Color{G: 1, A: 1})
	rs, full := d.Frame(cv, w, h)
	if full {
		t.Fatal("full redraw")
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	face := cv.Face()
	m := cv.Meshes(LayerLines)[0]
	for i := 0; i+2 < len(m.Indices); i += 3 {
		raster(img, m.Vertices[m.Indices[i]], m.Vertices[m.Indices[i+1]], m.Vertices[m.Indices[i+2]], face.W, face.H, face.Pix)
	}
	got, inked := covered(rs), map[[2]int]bool{}
	for y := range h {
		for x := range w {
			if img.Pix[img.PixOffset(x, y)+3] != 0 {
				inked[[2]int{x / DamageTile, y / DamageTile}] = true
			}
		}
	}
	for tl := range inked {
		if !got[tl] {
			t.Errorf("tile %v has the line's pixels and is not redrawn", tl)
		}
	}
	box := (401/DamageTile + 1) * (297/DamageTile + 1)
	if len(got) > 2*len(inked) || len(got) >= box/4 {
		t.Errorf("%d tiles redrawn for a line over %d tiles of a box of %d", len(got), len(inked), box)
	}
}

// Scattered changes are merged into at most DamageRects rectangles that cover every one.
func TestDamageMergesScatteredChangesIntoFewRects(t *testing.T) {
	const w, h = 1280, 720
	var before, after []Rect
	var want [][2]int
	for row := 0; row < 45; row += 4 {
		for col := (row / 4) % 3; col < 80; col += 5 {
			before = append(before, Rect{float64(col*DamageTile + 2), float64(row*DamageTile + 2), 4, 4})
			after = append(after, Rect{float64(col*DamageTile + 6), float64(row*DamageTile + 2), 4, 4})
			want = append(want, [2]int{col, row})
		}
	}
	var d Damage
	d.Frame(quads(before...), w, h)
	rs, full := d.Frame(quads(after...), w, h)
	if full {
		t.Fatalf("%d changed tiles of %d: full redraw", len(want), 80*45)
	}
	if len(rs) > DamageRects {
		t.Errorf("%d rects; want at most %d", len(rs), DamageRects)
	}
	got := covered(rs)
	for _, tl := range want {
		if !got[tl] {
			t.Errorf("changed tile %v is not redrawn", tl)
		}
	}
	for _, r := range rs {
		if !r.In(image.Rect(0, 0, w, h)) || r.Empty() {
			t.Errorf("rect %v is not a part of the screen", r)
		}
	}
	if d.Share() >= DamageFull {
		t.Errorf("share %v", d.Share())
	}
}

func TestDamageFullWhenMostChangedOrTheScreenDid(t *testing.T) {
	var d Damage
	d.Frame(quads(Rect{0, 0, 640, 360}), 640, 360)
	c := quads(Rect{0, 0, 640, 360})
	for i := range c.Meshes(LayerCells)[0].Vertices {
		c.Meshes(LayerCells)[0].Vertices[i].G = 0.75
	}
	if _, full := d.Frame(c, 640, 360); !full || d.Share() != 1 {
		t.Error("the whole screen recoloured: want full")
	}
	// Two thirds of the screen changed.
	d.Frame(quads(Rect{0, 0, 640, 360}), 640, 360)
	if _, full := d.Frame(quads(Rect{0, 0, 640, 360}, Rect{0, 0, 430, 360}), 640, 360); !full {
		t.Error("two thirds of the screen changed: want full")
	}
	d.Frame(quads(Rect{0, 0, 640, 360}), 640, 360)
	if _, full := d.Frame(quads(Rect{0, 0, 640, 360}), 641, 360); !full {
		t.Error("a new size: want full")
	}
	d.Frame(quads(Rect{0, 0, 640, 360}), 641, 360)
	d.Invalidate()
	if _, full := d.Frame(quads(Rect{0, 0, 640, 360}), 641, 360); !full {
		t.Error("after Invalidate: want full")
	}
	// Triangles off the screen or spread past it change nothing they cannot reach.
	d.Frame(quads(Rect{-100, -100, 50, 50}, Rect{100, 100, 8, 8}), 641, 360)
	if rs, full := d.Frame(quads(Rect{-90, -100, 50, 50}, Rect{100, 100, 8, 8}), 641, 360); full || len(rs) != 0 {
		t.Errorf("a quad moved off the screen: rects %v, full %v; want nothing", rs, full)
	}
}

// Clip keeps, in order, the triangles that reach a rectangle to redraw, with their vertices,
// after a quad of the background over it.
func TestDamageClipKeepsTheTrianglesThatMeetTheRect(t *testing.T) {
	scene := func(added bool) *Canvas {
		var c Canvas
		c.SetScale(1)
		c.Rect(LayerBack, Rect{0, 0, 100, 100}, Color{R: 1, A: 1})
		c.Rect(LayerCells, Rect{200, 0, 10, 10}, Color{G: 1, A: 1})
		if added {
			c.Rect(LayerCells, Rect{10, 10, 10, 10}, Color{B: 1, A: 1}) // over tiles (0…1, 0…1)
		}
		c.Line(LayerMarks, 5, 95, 95, 5, 2, Color{R: 1, G: 1, A: 1}) // its box meets the tiles, it does not
		c.Line(LayerMarks, 5, 5, 95, 95, 2, Color{R: 1, G: 1, B: 1, A: 1})
		return &c
	}
	var d Damage
	d.Frame(scene(false), 640, 360)
	c := scene(true)
	rs, full := d.Frame(c, 640, 360)
	if full || len(rs) != 1 || rs[0] != image.Rect(0, 0, 2*DamageTile, 2*DamageTile) {
		t.Fatalf("rects %v, full %v; want the new quad's 2×2 tiles", rs, full)
	}
	bg := Color{R: 0.5, G: 0.5, B: 0.5, A: 1}
	ms := d.Clip(0, bg)
	if len(ms) != 4 {
		t.Fatalf("%d meshes; want the fill's, the back's, the cells' and the marks'", len(ms))
	}
	fill := ms[0]
	if len(fill.Indices) != 6 || fill.Vertices[0].X != 0 || fill.Vertices[2].X != 2*DamageTile || fill.Vertices[2].Y != 2*DamageTile || fill.Vertices[1].R != 0.5 || fill.Vertices[3].SrcX != whiteX {
		t.Errorf("the fill %v; want a quad over the rect in the background from the white texel", fill)
	}
	ms = ms[1:]
	if len(ms[0].Indices) != 6 || len(ms[1].Indices) != 6 || len(ms[2].Indices) != 6 {
		t.Fatalf("indices %d, %d, %d; want two triangles each", len(ms[0].Indices), len(ms[1].Indices), len(ms[2].Indices))
	}
	if v := ms[2].Vertices[0]; v.B != 1 {
		t.Errorf("the marks' triangles %v; want the line through the rect's", ms[2].Vertices)
	}
	cells := c.Meshes(LayerCells)[0]
	for i, ix := range ms[1].Indices {
		if got, want := ms[1].Vertices[ix], cells.Vertices[cells.Indices[6+i]]; got != want {
			t.Errorf("cells' vertex %d: %v; want the new quad's %v", i, got, want)
		}
	}
	if len(ms[1].Vertices) != 4 {
		t.Errorf("%d vertices; a quad's two triangles share 4", len(ms[1].Vertices))
	}
}

// The real thing: frames of the large preset at 10× (with a consumer killed on the way, so
// that queues slide to their new owners), rasterised in software. The screen redrawn only
// where Damage says shows, frame after frame, exactly the pixels a full redraw does.
func TestDamagePartialRedrawsMatchFullFrames(t *testing.T) {
	cfg := scenario.Presets()["large"].Config
	cl, err := cluster.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cl.Advance(20000)
	const w, h = 1280, 720
	screen := image.NewRGBA(image.Rect(0, 0, w, h))
	var (
		d                    Damage
		anim                 Animator
		cv                   Canvas
		partial, fullFrames  int
		drawnShare, dirtyTri float64
	)
	face := cv.SetScale(1)
	// paint draws meshes over img (clipped to its bounds) as the GPU does; fill fills it
	// first, as the full redraw does.
	paint := func(img *image.RGBA, ms []Mesh, fill bool) {
		bg := toRGBA(Background)
		for y := img.Rect.Min.Y; fill && y < img.Rect.Max.Y; y++ {
			for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
				i := img.PixOffset(x, y)
				img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = bg.R, bg.G, bg.B, bg.A
			}
		}
		for _, m := range ms {
			for i := 0; i+2 < len(m.Indices); i += 3 {
				raster(img, m.Vertices[m.Indices[i]], m.Vertices[m.Indices[i+1]], m.Vertices[m.Indices[i+2]], face.W, face.H, face.Pix)
			}
		}
	}
	all := func() []Mesh {
		var ms []Mesh
		for l := range NumLayers {
			ms = append(ms, cv.Meshes(l)...)
		}
		return ms
	}
	const frames = 30
	for f := range frames {
		wall := float64(f) * 1000 / 60
		if f == 24 {
			if err := cl.Apply(cluster.Command{Type: "killConsumer", ID: "c5"}); err != nil {
				t.Fatal(err)
			}
		}
		cl.Advance(cl.Now() + 167)
		s := cl.Snapshot()
		l := ComputeZoom(&s, Rect{W: w, H: h}, EN, 1)
		anim.Observe(&s, wall)
		cv.Reset()
		cv.SetScale(1)
		Draw(&cv, Frame{Snap: &s, Layout: l, Speed: 10, WallMs: wall, Anim: &anim, Lang: EN})
		rs, full := d.Frame(&cv, w, h)
		if full {
			fullFrames++
			paint(screen, all(), true)
		} else {
			partial++
			drawnShare += d.Share()
			n := 0
			for i, r := range rs {
				ms := d.Clip(i, Background)
				for _, m := range ms[1:] {
					n += len(m.Indices) / 3
				}
				paint(screen.SubImage(r).(*image.RGBA), ms, false) // the first mesh fills r
			}
			dirtyTri += float64(n)
		}
		if f%2 == 1 && f != frames-1 {
			continue // a pixel left wrong stays so until drawn over: every other frame tells
		}
		want := image.NewRGBA(screen.Rect)
		paint(want, all(), true)
		if !slices.Equal(screen.Pix, want.Pix) {
			for y := range h {
				for x := range w {
					if i := want.PixOffset(x, y); !slices.Equal(screen.Pix[i:i+4], want.Pix[i:i+4]) {
						t.Fatalf("frame %d (full %v, rects %v): pixel (%d, %d) is %v; a full redraw gives %v", f, full, rs, x, y, screen.Pix[i:i+4], want.Pix[i:i+4])
					}
				}
			}
		}
	}
	// The slides after the kill move most of the screen: those frames may be full.
	if partial < frames/2 {
		t.Errorf("%d full and %d partial frames; want mostly partial", fullFrames, partial)
	}
	t.Logf("%d full frames, %d partial; partial frames redraw %.0f%% of the screen and %.0f triangles (of %d) on average",
		fullFrames, partial, 100*drawnShare/float64(partial), dirtyTri/float64(partial), cv.VertexCount()/2)
}

// BenchmarkDamageLarge10x is Damage alone (Frame, then Clip for every rectangle) over 60
// frames of the large preset at 10× recorded first, as the playground draws them.
func BenchmarkDamageLarge10x(b *testing.B) {
	cl, err := cluster.New(scenario.Presets()["large"].Config)
	if err != nil {
		b.Fatal(err)
	}
	cl.Advance(20000)
	var anim Animator
	frames := make([]Canvas, 60)
	for i := range frames {
		cl.Advance(cl.Now() + 160)
		s := cl.Snapshot()
		wall := float64(i) * 1000 / 60
		anim.Observe(&s, wall)
		cv := &frames[i]
		cv.SetScale(1)
		Draw(cv, Frame{Snap: &s, Layout: Compute(&s, Rect{W: 1280, H: 720}), Speed: 10, WallMs: wall, Anim: &anim})
	}
	var d Damage
	i := 0
	for b.Loop() {
		rects, _ := d.Frame(&frames[i%len(frames)], 1280, 720)
		for k := range rects {
			d.Clip(k, Background)
		}
		i++
	}
}

// Quads of any shape — convex or not, crossed, thin lines at any angle, partly off the
// screen — that change colour dirty every tile they ink.
func TestDamageAnyQuadDirtiesTheTilesItInks(t *testing.T) {
	const w, h = 320, 200
	rng := rand.New(rand.NewPCG(7, 9))
	coord := func(n float64) float64 { return rng.Float64()*(n+80) - 40 }
	for k := range 300 {
		var xs, ys [4]float64
		for i := range 4 {
			xs[i], ys[i] = coord(w), coord(h)
		}
		if k%3 == 0 { // a line's quad: a thin rotated rectangle
			var cv Canvas
			cv.SetScale(1)
			cv.Line(LayerLines, xs[0], ys[0], xs[1], ys[1], 0.5+3*rng.Float64(), Color{R: 1, A: 1})
			m := cv.Meshes(LayerLines)
			if len(m) == 0 {
				continue
			}
			for i, v := range m[0].Vertices[:4] {
				xs[i], ys[i] = float64(v.X), float64(v.Y)
			}
		}
		frame := func(c Color) *Canvas {
			var cv Canvas
			cv.SetScale(1)
			cv.quadPx(LayerLines, xs, ys, nil, c)
			return &cv
		}
		var d Damage
		d.Frame(frame(Color{R: 1, A: 1}), w, h)
		cv := frame(Color{G: 1, A: 1})
		rs, full := d.Frame(cv, w, h)
		if full {
			continue
		}
		if p, missed := inkMissed(cv, rs, w, h); missed {
			t.Fatalf("quad %d %v %v: pixel %v is inked and its tile is not redrawn", k, xs, ys, p)
		}
	}
}

// A line turned about within the same box, from one diagonal to the other, dirties the tiles
// it now inks: the tiles a line reaches are looked up from the frame before only for the
// same corners.
func TestDamageTurnedLineDirtiesItsNewTiles(t *testing.T) {
	const w, h = 640, 360
	line := func(x0, y0, x1, y1 float64) *Canvas {
		var cv Canvas
		cv.SetScale(1)
		cv.Line(LayerLines, x0, y0, x1, y1, 2, Color{R: 1, A: 1})
		return &cv
	}
	var d Damage
	d.Frame(line(20, 20, 400, 300), w, h)
	cv := line(400, 20, 20, 300)
	rs, full := d.Frame(cv, w, h)
	if full {
		t.Fatal("full redraw")
	}
	if p, missed := inkMissed(cv, rs, w, h); missed {
		t.Fatalf("pixel %v of the turned line is not redrawn", p)
	}
}

// inkMissed rasterises cv's lines layer on a w×h screen and returns a pixel it inks whose
// tile none of rs redraws, if there is one.
func inkMissed(cv *Canvas, rs []image.Rectangle, w, h int) (image.Point, bool) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	face := cv.Face()
	m := cv.Meshes(LayerLines)[0]
	for i := 0; i+2 < len(m.Indices); i += 3 {
		raster(img, m.Vertices[m.Indices[i]], m.Vertices[m.Indices[i+1]], m.Vertices[m.Indices[i+2]], face.W, face.H, face.Pix)
	}
	got := covered(rs)
	for y := range h {
		for x := range w {
			if img.Pix[img.PixOffset(x, y)+3] != 0 && !got[[2]int{x / DamageTile, y / DamageTile}] {
				return image.Pt(x, y), true
			}
		}
	}
	return image.Point{}, false
}
