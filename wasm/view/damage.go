package view

import (
	"image"
	"math"
	"math/bits"
	"slices"
)

// DamageTile is the side, in device pixels, of the tiles Damage compares frames by. Smaller
// tiles find less to redraw but cost more to hash; with the large preset at 10× on a
// 1280×720 screen, the rectangles to redraw cover about 11% of the screen a frame with
// 16-pixel tiles against 20% with 32-pixel ones, for about the same work here.
const DamageTile = 16

// DamageRects is how many rectangles a partial redraw is merged into at most: each is a fill
// and a draw call of its own, and a triangle that meets two of them is drawn twice.
const DamageRects = 32

var _ [64 - DamageRects]struct{} // a rectangle is a bit of a uint64 (see assign)

// DamageFull is the share of the screen beyond which a redraw is done in full: the
// rectangles would then cost more than the one full frame they replace.
const DamageFull = 0.6

// Damage finds the parts of the screen a frame changes, from its triangles alone. The screen
// is cut into tiles; a tile's hash folds in, in draw order, every triangle (all of its
// vertices' fields) that may cover one of its pixels: every tile of the triangle's box,
// widened to whole pixels, for a quad that fills its box (a rectangle, a glyph) or a small
// triangle, and the tiles its edges let it reach for the others (a long line's box holds
// many tiles it never touches). Two frames that give a tile the same ordered list of
// triangles over the same background draw the same pixels there, so only the tiles whose
// hash changed need drawing again: by filling them with the background and drawing, clipped
// to them, the triangles that reach them.
//
// Frame compares each frame with the previous one it was given; the caller must draw every
// frame Frame answers for (or Invalidate), so that the previous frame is what the screen
// shows. The zero value is ready: its first frame is full.
type Damage struct {
	w, h       int
	cols, rows int
	valid      bool
	prev, cur  []uint64
	boxes      []image.Rectangle // each triangle's pixels, in draw order (all layers, meshes)
	kinds      []uint8           // and its kind (kindTriangle, …)
	dirty      []bool
	rects      []image.Rectangle
	drawn      float64

	// reach's, and reached's for this frame and the one before.
	lo, hi           []int
	xlo, xhi         []float64
	memo, memoPrev   []reachMemo
	spans, spansPrev []span

	// merge's buffers.
	alive       []bool
	best, waste []int

	// The frame's meshes, the triangles that reach each rectangle (indices in boxes), and
	// for each tile the rectangles over it (a bit each).
	meshes []Mesh
	lists  [][]int32
	masks  []uint64

	// Clip's buffers.
	clip  []Mesh
	stamp []uint32 // per vertex of the mesh being clipped: gen when remapped
	remap []uint16
	gen   uint32
}

// Invalidate forgets the previous frame: the next one is drawn in full (the screen was
// cleared or resized, the atlas or the background changed, a frame was not drawn).
func (d *Damage) Invalidate() { d.valid = false }

// Share is the part of the screen's pixels the last frame redraws (rectangles counted once
// each, overlaps included): 1 for a full frame, 0 when nothing changed.
func (d *Damage) Share() float64 { return d.drawn }

// Frame hashes c's triangles for a w×h screen (device pixels) and returns what must be drawn
// to turn the previous frame into this one: full, or the rectangles (none when nothing
// changed). The rectangles are valid until the next call.
func (d *Damage) Frame(c *Canvas, w, h int) (rects []image.Rectangle, full bool) {
	w, h = max(w, 1), max(h, 1)
	cols, rows := (w+DamageTile-1)/DamageTile, (h+DamageTile-1)/DamageTile
	if w != d.w || h != d.h {
		d.w, d.h, d.cols, d.rows, d.valid = w, h, cols, rows, false
		d.prev, d.cur = make([]uint64, cols*rows), make([]uint64, cols*rows)
		d.dirty = make([]bool, cols*rows)
	}
	d.hash(c)
	d.prev, d.cur = d.cur, d.prev
	if !d.valid {
		d.valid, d.drawn = true, 1
		return nil, true
	}
	n := 0
	for i := range d.prev {
		d.dirty[i] = d.prev[i] != d.cur[i]
		if d.dirty[i] {
			n++
		}
	}
	if float64(n*DamageTile*DamageTile) >= DamageFull*float64(w*h) {
		d.drawn = 1
		return nil, true
	}
	// Runs of coarser blocks when there are too many for merge's pairwise search.
	for f := 1; ; f *= 2 {
		d.rects = d.runs(d.rects[:0], f)
		if len(d.rects) <= 256 {
			break
		}
	}
	d.rects = d.merge(d.rects)
	area := 0
	for _, r := range d.rects {
		area += r.Dx() * r.Dy()
	}
	if float64(area) >= DamageFull*float64(w*h) {
		d.drawn = 1
		return nil, true
	}
	d.drawn = float64(area) / float64(w*h)
	d.assign()
	return d.rects, false
}

const (
	hashSeed = 0xcbf29ce484222325
	hashK1   = 0x9e3779b97f4a7c15
	hashK2   = 0xbf58476d1ce4e5b9
)

// fold mixes v into h; the order of the values matters.
func fold(h, v uint64) uint64 {
	h ^= v * hashK1
	return bits.RotateLeft64(h, 31)*hashK2 + 0x94d049bb133111eb
}

func vertexHash(h uint64, v Vertex) uint64 {
	b := math.Float32bits
	h = fold(h, uint64(b(v.X))<<32|uint64(b(v.Y)))
	h = fold(h, uint64(b(v.SrcX))<<32|uint64(b(v.SrcY)))
	h = fold(h, uint64(b(v.R))<<32|uint64(b(v.G)))
	return fold(h, uint64(b(v.B))<<32|uint64(b(v.A)))
}

// hash fills cur with each tile's hash of c's triangles, meshes with c's meshes, and boxes
// and kinds with the pixels and the kind of each of their triangles.
func (d *Damage) hash(c *Canvas) {
	for i := range d.cur {
		d.cur[i] = hashSeed
	}
	d.boxes = d.boxes[:0]
	d.kinds = d.kinds[:0]
	// What reached found in this frame is for the next one to look up.
	d.memo, d.memoPrev = d.memoPrev[:0], d.memo
	d.spans, d.spansPrev = d.spansPrev[:0], d.spans
	d.meshes = d.meshes[:0]
	for l := range NumLayers {
		d.meshes = append(d.meshes, c.Meshes(l)...)
	}
	screen := image.Rect(0, 0, d.w, d.h)
	for _, m := range d.meshes {
		vs, is := m.Vertices, m.Indices
		for t := 0; t+2 < len(is); t += 3 {
			if quad(is, t) {
				// Two triangles of one quad: one hash for both, over the tiles the quad
				// reaches (all of its box when it is an upright rectangle or a glyph).
				q := vs[is[t] : is[t]+4 : is[t]+4]
				th, up := quadHash(q)
				box := quadBox(q, up).Intersect(screen)
				d.boxes = append(d.boxes, box, box)
				if up {
					d.kinds = append(d.kinds, kindFill, kindPair)
				} else {
					d.kinds = append(d.kinds, kindSlant, kindPair)
				}
				t += 3
				if box.Empty() {
					continue
				}
				if up {
					for row := box.Min.Y / DamageTile; row <= (box.Max.Y-1)/DamageTile; row++ {
						for i := row*d.cols + box.Min.X/DamageTile; i <= row*d.cols+(box.Max.X-1)/DamageTile; i++ {
							d.cur[i] = fold(d.cur[i], th)
						}
					}
					continue
				}
				for _, sp := range d.reached(box, q) {
					for i := sp.row*d.cols + sp.lo; i <= sp.row*d.cols+sp.hi; i++ {
						d.cur[i] = fold(d.cur[i], th)
					}
				}
				continue
			}
			a, b, e := vs[is[t]], vs[is[t+1]], vs[is[t+2]]
			box := pixelBox(a, b, e).Intersect(screen)
			d.boxes = append(d.boxes, box)
			d.kinds = append(d.kinds, kindTriangle)
			if box.Empty() {
				continue
			}
			th := vertexHash(vertexHash(vertexHash(hashSeed, a), b), e)
			d.reach(box, a, b, e, Vertex{}, false)
			for row := box.Min.Y / DamageTile; row <= (box.Max.Y-1)/DamageTile; row++ {
				for i := row*d.cols + d.lo[row]; i <= row*d.cols+d.hi[row]; i++ {
					d.cur[i] = fold(d.cur[i], th)
				}
			}
		}
	}
}

// reached is the tiles a quad that is not upright reaches (see reach), as spans of columns
// in rows. A scene's lines stay where they are from frame to frame while their colours
// change: the n-th such quad of a frame whose corners and box are those of the n-th of the
// frame before reaches the same tiles, found again by its spans.
func (d *Damage) reached(box image.Rectangle, q []Vertex) []span {
	n := len(d.memo)
	geom := [8]float32{q[0].X, q[0].Y, q[1].X, q[1].Y, q[2].X, q[2].Y, q[3].X, q[3].Y}
	from := int32(len(d.spans))
	if n < len(d.memoPrev) && d.memoPrev[n].geom == geom && d.memoPrev[n].box == box {
		p := d.memoPrev[n]
		d.spans = append(d.spans, d.spansPrev[p.from:p.to]...)
	} else {
		d.reach(box, q[0], q[1], q[2], q[3], true)
		for row := box.Min.Y / DamageTile; row <= (box.Max.Y-1)/DamageTile; row++ {
			if d.lo[row] <= d.hi[row] {
				d.spans = append(d.spans, span{row: row, lo: d.lo[row], hi: d.hi[row]})
			}
		}
	}
	d.memo = append(d.memo, reachMemo{geom: geom, box: box, from: from, to: int32(len(d.spans))})
	return d.spans[from:]
}

// span is the tiles lo…hi of a row.
type span struct{ row, lo, hi int }

// reachMemo is what reached found for one quad: its corners, its box and its spans.
type reachMemo struct {
	geom     [8]float32
	box      image.Rectangle
	from, to int32
}

// The kinds of triangle assign tells apart: the first half of an upright quad, which fills
// its box; the first half of another quad, which reaches the rectangles over the tiles
// reached found for the quad; the second half of either, which reaches the rectangles the
// first does; and a triangle alone.
const (
	kindTriangle uint8 = iota
	kindFill
	kindSlant
	kindPair
)

// rectSeed starts the hash of an upright quad of one colour and an upright source
// rectangle — a rectangle or a glyph, most of a scene — which its first and third corners
// describe whole; other quads hash all four corners from hashSeed.
const rectSeed = 0x84222325cbf29ce4

// quadHash is the hash of the quad q (four corners as Canvas makes them) and whether it is
// upright (an axis-aligned rectangle, so that its two triangles cover its box). Two quads
// with the same hash draw the same pixels.
func quadHash(q []Vertex) (uint64, bool) {
	a, b, c, e := q[0], q[1], q[2], q[3]
	up := a.Y == b.Y && b.X == c.X && c.Y == e.Y && e.X == a.X
	if up && a.SrcX == e.SrcX && b.SrcX == c.SrcX && a.SrcY == b.SrcY && c.SrcY == e.SrcY &&
		a.R == b.R && a.G == b.G && a.B == b.B && a.A == b.A &&
		a.R == c.R && a.G == c.G && a.B == c.B && a.A == c.A &&
		a.R == e.R && a.G == e.G && a.B == e.B && a.A == e.A {
		f := math.Float32bits
		h := fold(rectSeed, uint64(f(a.X))<<32|uint64(f(a.Y)))
		h = fold(h, uint64(f(c.X))<<32|uint64(f(c.Y)))
		h = fold(h, uint64(f(a.SrcX))<<32|uint64(f(a.SrcY)))
		h = fold(h, uint64(f(c.SrcX))<<32|uint64(f(c.SrcY)))
		h = fold(h, uint64(f(a.R))<<32|uint64(f(a.G)))
		return fold(h, uint64(f(a.B))<<32|uint64(f(a.A))), true
	}
	return vertexHash(vertexHash(vertexHash(vertexHash(hashSeed, a), b), c), e), up
}

// quadBox is the pixels a quad may cover: the box of its corners widened to whole pixels
// (the whole screen when a coordinate is not a number). An upright one's first and third
// corners span it.
func quadBox(q []Vertex, upright bool) image.Rectangle {
	if upright {
		a, c := q[0], q[2]
		if a.X == a.X && a.Y == a.Y && c.X == c.X && c.Y == c.Y {
			return image.Rect(pixelFloor(min(a.X, c.X)), pixelFloor(min(a.Y, c.Y)), pixelCeil(max(a.X, c.X)), pixelCeil(max(a.Y, c.Y)))
		}
	}
	x0, x1 := minmax(q[0].X, q[1].X, q[2].X)
	y0, y1 := minmax(q[0].Y, q[1].Y, q[2].Y)
	x, y := q[3].X, q[3].Y
	if x0 != x0 || x1 != x1 || y0 != y0 || y1 != y1 || x != x || y != y {
		return image.Rect(-1<<30, -1<<30, 1<<30, 1<<30)
	}
	x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
	return image.Rect(pixelFloor(x0), pixelFloor(y0), pixelCeil(x1), pixelCeil(y1))
}

// reach sets lo[row]…hi[row], for each row of tiles that box (the pixels of a polygon within
// the screen) meets, to the columns of the tiles the polygon reaches in that row (lo > hi for
// none). The polygon is the triangle a, b, c, or with quad the two triangles a, b, c and a,
// c, e. A polygon's part in a row's band is widest at one of its corners there or where an
// edge crosses the band's top or bottom: the columns span those.
func (d *Damage) reach(box image.Rectangle, a, b, c, e Vertex, quad bool) {
	c0, c1 := box.Min.X/DamageTile, (box.Max.X-1)/DamageTile
	r0, r1 := box.Min.Y/DamageTile, (box.Max.Y-1)/DamageTile
	if len(d.lo) < d.rows {
		d.lo, d.hi = make([]int, d.rows), make([]int, d.rows)
		d.xlo, d.xhi = make([]float64, d.rows), make([]float64, d.rows)
	}
	if r1-r0 <= 1 && c1-c0 <= 1 { // a small one takes the tiles of its box
		for row := r0; row <= r1; row++ {
			d.lo[row], d.hi[row] = c0, c1
		}
		return
	}
	for row := r0; row <= r1; row++ {
		d.xlo[row], d.xhi[row] = math.Inf(1), math.Inf(-1)
	}
	// The sides, and for a quad that is not clearly convex (a line's is) the diagonal too: the
	// two triangles' union may then have it on its outline.
	ok := d.edge(a, b, r0, r1) && d.edge(b, c, r0, r1)
	if quad {
		ok = ok && d.edge(c, e, r0, r1) && d.edge(e, a, r0, r1) && (convex(a, b, c, e) || d.edge(a, c, r0, r1))
	} else {
		ok = ok && d.edge(c, a, r0, r1)
	}
	if !ok {
		for row := r0; row <= r1; row++ { // not a number: all of the box
			d.lo[row], d.hi[row] = c0, c1
		}
		return
	}
	for row := r0; row <= r1; row++ {
		if d.xlo[row] > d.xhi[row] {
			d.lo[row], d.hi[row] = 1, 0
			continue
		}
		d.lo[row] = max(c0, floorInt(d.xlo[row])/DamageTile)
		d.hi[row] = min(c1, (ceilInt(d.xhi[row])-1)/DamageTile)
	}
}

// convex tells whether the quad a, b, c, e turns the same way, by at least half a square
// pixel, at each of its corners: then the triangles a, b, c and a, c, e make up the convex
// polygon of its sides.
func convex(a, b, c, e Vertex) bool {
	turn := func(p, q, r Vertex) float64 {
		return float64(q.X-p.X)*float64(r.Y-q.Y) - float64(q.Y-p.Y)*float64(r.X-q.X)
	}
	t0, t1, t2, t3 := turn(a, b, c), turn(b, c, e), turn(c, e, a), turn(e, a, b)
	const least = 0.5
	return t0 > least && t1 > least && t2 > least && t3 > least ||
		t0 < -least && t1 < -least && t2 < -least && t3 < -least
}

// edge widens xlo and xhi in rows r0…r1 to where the edge pq is in each row's band: its ends
// and its crossings of the bands' tops and bottoms. It is false when a coordinate is not a
// number.
func (d *Damage) edge(p, q Vertex, r0, r1 int) bool {
	if p.Y > q.Y {
		p, q = q, p
	}
	px, py, qx, qy := float64(p.X), float64(p.Y), float64(q.X), float64(q.Y)
	if py != py || qy != qy || px != px || qx != qx {
		return false
	}
	xlo, xhi := d.xlo[r0:r1+1], d.xhi[r0:r1+1] // indexed by row - r0
	const tile = float64(DamageTile)
	rp, rq := floorInt(py/tile), floorInt(qy/tile)
	if rp >= r0 && rp <= r1 {
		widen(xlo, xhi, rp-r0, px)
	}
	if rq >= r0 && rq <= r1 {
		widen(xlo, xhi, rq-r0, qx)
	}
	if qy == py {
		return true
	}
	slope := (qx - px) / (qy - py)
	// The tops of the bands strictly between the ends, within r0+1…r1 (the screen's own top
	// and bottom bound the box).
	for k := max(rp+1, r0+1); k <= min(ceilInt(qy/tile)-1, r1); k++ {
		x := px + slope*(float64(k)*tile-py)
		i := k - r0
		widen(xlo, xhi, i-1, x)
		widen(xlo, xhi, i, x)
	}
	// Where the edge leaves the screen's band of rows, at its top or bottom.
	if y := float64(r0) * tile; py < y && y < qy {
		x := px + slope*(y-py)
		widen(xlo, xhi, 0, x)
	}
	if y := float64(r1+1) * tile; py < y && y < qy {
		x := px + slope*(y-py)
		i := r1 - r0
		widen(xlo, xhi, i, x)
	}
	return true
}

// widen makes lo[i]…hi[i] take in x (not a number: left out).
func widen(lo, hi []float64, i int, x float64) {
	if x < lo[i] {
		lo[i] = x
	}
	if x > hi[i] {
		hi[i] = x
	}
}

// quad tells whether the triangles at t and t+3 of is are a quad as Canvas makes them:
// corners b…b+3, triangles b, b+1, b+2 and b, b+2, b+3.
func quad(is []uint16, t int) bool {
	if t+5 >= len(is) {
		return false
	}
	b := is[t]
	return is[t+1] == b+1 && is[t+2] == b+2 && is[t+3] == b && is[t+4] == b+2 && is[t+5] == b+3
}

// shape is a triangle's edges, to tell the rectangles its box meets that it cannot reach (a
// long line's box holds many).
type shape struct {
	n         int // the edges that count: none for a triangle of no area
	nx, ny, c [3]float64
}

// shapeOf is the edges of the triangle abc, each with the inside where nx·x + ny·y ≥ c.
func shapeOf(a, b, c Vertex) shape {
	p := [3][2]float64{{float64(a.X), float64(a.Y)}, {float64(b.X), float64(b.Y)}, {float64(c.X), float64(c.Y)}}
	twice := (p[1][0]-p[0][0])*(p[2][1]-p[0][1]) - (p[2][0]-p[0][0])*(p[1][1]-p[0][1])
	if twice == 0 || twice != twice || math.IsInf(twice, 0) {
		return shape{} // a line or a point, or not a number: its box alone decides
	}
	side := math.Copysign(1, twice)
	s := shape{n: 3}
	for i := range 3 {
		from, to := p[i], p[(i+1)%3]
		s.nx[i], s.ny[i] = -(to[1]-from[1])*side, (to[0]-from[0])*side
		s.c[i] = s.nx[i]*from[0] + s.ny[i]*from[1]
	}
	return s
}

// meets is false only when an edge of the triangle has all of r (its border included)
// outside it. A pixel is covered where its centre, half a pixel inside r's border, is
// inside, so a triangle that does not meet r covers none of r's pixels.
func (s *shape) meets(r image.Rectangle) bool {
	for i := range s.n {
		x, y := float64(r.Min.X), float64(r.Min.Y)
		if s.nx[i] > 0 {
			x = float64(r.Max.X)
		}
		if s.ny[i] > 0 {
			y = float64(r.Max.Y)
		}
		if s.nx[i]*x+s.ny[i]*y < s.c[i] {
			return false
		}
	}
	return true
}

// pixelBox is the pixels a triangle may cover: its bounding box widened to whole pixels (the
// whole screen when a coordinate is not a number).
func pixelBox(a, b, c Vertex) image.Rectangle {
	x0, x1 := minmax(a.X, b.X, c.X)
	y0, y1 := minmax(a.Y, b.Y, c.Y)
	if x0 != x0 || x1 != x1 || y0 != y0 || y1 != y1 {
		return image.Rect(-1<<30, -1<<30, 1<<30, 1<<30)
	}
	return image.Rect(pixelFloor(x0), pixelFloor(y0), pixelCeil(x1), pixelCeil(y1))
}

// pixelFloor and pixelCeil are floorInt and ceilInt of a float32 (exact: a float32 past
// 2²⁴ is a whole number).
func pixelFloor(v float32) int {
	if v > -1<<30 && v < 1<<30 {
		i := int(v)
		if float32(i) > v {
			i--
		}
		return i
	}
	return floorInt(float64(v))
}

func pixelCeil(v float32) int {
	if v > -1<<30 && v < 1<<30 {
		i := int(v)
		if float32(i) < v {
			i++
		}
		return i
	}
	return ceilInt(float64(v))
}

// minmax is the least and the greatest of a, b, c (NaN when one is).
func minmax(a, b, c float32) (lo, hi float32) {
	if a != a || b != b || c != c {
		return a + b + c, a + b + c
	}
	lo, hi = a, a
	if b < lo {
		lo = b
	} else if b > hi {
		hi = b
	}
	if c < lo {
		lo = c
	} else if c > hi {
		hi = c
	}
	return lo, hi
}

// floorInt and ceilInt round v down and up to an int within ±2³⁰ (past any screen, and an
// int on every platform); v is a number.
func floorInt(v float64) int {
	v = clampPx(v)
	i := int(v)
	if float64(i) > v {
		i--
	}
	return i
}

func ceilInt(v float64) int {
	v = clampPx(v)
	i := int(v)
	if float64(i) < v {
		i++
	}
	return i
}

func clampPx(v float64) float64 {
	if v < -1<<30 {
		return -1 << 30
	}
	if v > 1<<30 {
		return 1 << 30
	}
	return v
}

// runs appends the dirty tiles as rectangles, at f tiles to a side (a block is dirty when a
// tile of it is): each row's runs of dirty blocks, a run joined with the one below when they
// span the same columns.
func (d *Damage) runs(out []image.Rectangle, f int) []image.Rectangle {
	cols, rows := (d.cols+f-1)/f, (d.rows+f-1)/f
	dirty := func(col, row int) bool {
		for y := row * f; y < min(row*f+f, d.rows); y++ {
			for _, t := range d.dirty[y*d.cols+col*f : y*d.cols+min(col*f+f, d.cols)] {
				if t {
					return true
				}
			}
		}
		return false
	}
	start := len(out)
	open := start // the rectangles of the row above, which may still grow down
	for row := range rows {
		next := len(out)
		for col := 0; col < cols; {
			if !dirty(col, row) {
				col++
				continue
			}
			end := col + 1
			for end < cols && dirty(end, row) {
				end++
			}
			r := image.Rect(col, row, end, row+1)
			for i := open; i < next; i++ {
				if o := out[i]; o.Min.X == col && o.Max.X == end && o.Max.Y == row {
					r.Min.Y = o.Min.Y
					out[i] = image.Rectangle{} // it goes on in this row
					break
				}
			}
			out = append(out, r)
			col = end
		}
		open = next
	}
	// Drop the slots emptied above, then go from blocks to pixels.
	k := start
	for _, r := range out[start:] {
		if !r.Empty() {
			s := f * DamageTile
			out[k] = image.Rect(r.Min.X*s, r.Min.Y*s, min(r.Max.X*s, d.w), min(r.Max.Y*s, d.h))
			k++
		}
	}
	return out[:k]
}

// merge joins rectangles, two at a time those whose union adds the fewest pixels, while
// there are more than DamageRects or a union adds at most mergeFree pixels (cheaper than the
// draw call it saves); a rectangle the union covers goes with them.
func (d *Damage) merge(rs []image.Rectangle) []image.Rectangle {
	n := len(rs)
	d.alive = slices.Grow(d.alive[:0], n)[:n]
	d.best = slices.Grow(d.best[:0], n)[:n]
	d.waste = slices.Grow(d.waste[:0], n)[:n]
	cost := func(i, j int) int { return area(rs[i].Union(rs[j])) - area(rs[i]) - area(rs[j]) }
	// best[i] is the partner after i that wastes least, waste[i] what it wastes.
	partner := func(i int) {
		d.best[i], d.waste[i] = -1, math.MaxInt
		for j := i + 1; j < n; j++ {
			if d.alive[j] {
				if w := cost(i, j); w < d.waste[i] {
					d.best[i], d.waste[i] = j, w
				}
			}
		}
	}
	for i := range n {
		d.alive[i] = true
	}
	for i := range n {
		partner(i)
	}
	for left := n; left > 1; {
		bi := -1
		for i := range n {
			if d.alive[i] && d.best[i] >= 0 && (bi < 0 || d.waste[i] < d.waste[bi]) {
				bi = i
			}
		}
		if bi < 0 || left <= DamageRects && d.waste[bi] > mergeFree {
			break
		}
		u := rs[bi].Union(rs[d.best[bi]])
		rs[bi] = u
		for j := range n {
			if d.alive[j] && j != bi && rs[j].In(u) {
				d.alive[j] = false
				left--
			}
		}
		// Those that paired with a rectangle gone or with bi look again; the others may
		// pair with the grown bi instead.
		for i := range n {
			if !d.alive[i] {
				continue
			}
			if j := d.best[i]; i == bi || j >= 0 && (!d.alive[j] || j == bi) {
				partner(i)
			} else if i < bi {
				if w := cost(i, bi); w < d.waste[i] {
					d.best[i], d.waste[i] = bi, w
				}
			}
		}
	}
	k := 0
	for i, r := range rs {
		if d.alive[i] {
			rs[k] = r
			k++
		}
	}
	return rs[:k]
}

// mergeFree is the pixels a merge may add even when there are few rectangles: two tiles.
const mergeFree = 2 * DamageTile * DamageTile

func area(r image.Rectangle) int { return r.Dx() * r.Dy() }

// assign lists, for each rectangle, the triangles that reach it, in draw order: a small
// triangle (its box within 2×2 tiles) those its box's tiles are in, a larger one those its
// edges let it reach.
func (d *Damage) assign() {
	n := len(d.rects)
	d.lists = slices.Grow(d.lists[:0], n)[:n]
	for i := range d.lists {
		d.lists[i] = d.lists[i][:0]
	}
	d.masks = slices.Grow(d.masks[:0], len(d.prev))[:len(d.prev)]
	clear(d.masks)
	for i, r := range d.rects {
		for row := r.Min.Y / DamageTile; row <= (r.Max.Y-1)/DamageTile; row++ {
			for col := r.Min.X / DamageTile; col <= (r.Max.X-1)/DamageTile; col++ {
				d.masks[row*d.cols+col] |= 1 << i
			}
		}
	}
	t, slant := 0, 0
	var last uint64 // the mask of the triangle before, for the second of a quad
	for _, m := range d.meshes {
		vs, is := m.Vertices, m.Indices
		for k := 0; k+2 < len(is); k, t = k+3, t+1 {
			box, kind := d.boxes[t], d.kinds[t]
			if box.Empty() {
				continue
			}
			if kind == kindSlant {
				slant++ // the quad's spans are reached's memo[slant-1]
			}
			var mask uint64
			switch kind {
			case kindPair:
				mask = last // the same quad's first half reaches the same rectangles
			case kindSlant:
				// The rectangles over the tiles the quad reaches: a rectangle is whole tiles,
				// so one that a pixel of either half is in holds that pixel's tile.
				p := d.memo[slant-1]
				for _, sp := range d.spans[p.from:p.to] {
					for _, m := range d.masks[sp.row*d.cols+sp.lo : sp.row*d.cols+sp.hi+1] {
						mask |= m
					}
				}
				last = mask
			default:
				fills := kind == kindFill
				c0, c1 := box.Min.X/DamageTile, (box.Max.X-1)/DamageTile
				r0, r1 := box.Min.Y/DamageTile, (box.Max.Y-1)/DamageTile
				switch {
				case (r1-r0+1)*(c1-c0+1) <= 4 || fills && (r1-r0+1)*(c1-c0+1) <= 16:
					for row := r0; row <= r1; row++ {
						for col := c0; col <= c1; col++ {
							mask |= d.masks[row*d.cols+col]
						}
					}
				case fills:
					for i, r := range d.rects {
						if box.Overlaps(r) {
							mask |= 1 << i
						}
					}
				default:
					sh := shapeOf(vs[is[k]], vs[is[k+1]], vs[is[k+2]])
					for i, r := range d.rects {
						if box.Overlaps(r) && (box.In(r) || sh.meets(r)) {
							mask |= 1 << i
						}
					}
				}
				last = mask
			}
			for ; mask != 0; mask &= mask - 1 {
				i := bits.TrailingZeros64(mask)
				d.lists[i] = append(d.lists[i], int32(t))
			}
		}
	}
}

// Clip returns what redraws the i-th rectangle r of the last Frame, to be drawn clipped to r,
// while the canvas still holds that frame: a quad over r in the opaque colour bg (the
// screen's background), then, in draw order, the triangles that reach r, as meshes of their
// own with the vertices they use (at most one mesh for each of the canvas's). They are valid
// until the next call.
func (d *Damage) Clip(i int, bg Color) []Mesh {
	r := d.rects[i]
	d.clip = d.clip[:0]
	fill := d.out()
	cr, cg, cb, ca := premul(bg)
	x0, y0, x1, y1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)
	for _, p := range [4][2]float32{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		fill.Vertices = append(fill.Vertices, Vertex{X: p[0], Y: p[1], SrcX: whiteX, SrcY: whiteY, R: cr, G: cg, B: cb, A: ca})
	}
	fill.Indices = append(fill.Indices, 0, 1, 2, 0, 2, 3)
	list := d.lists[i]
	first := 0 // the index of the mesh's first triangle
	for _, m := range d.meshes {
		end := first + len(m.Indices)/3
		if len(list) == 0 || int(list[0]) >= end {
			first = end
			continue
		}
		if len(d.stamp) < len(m.Vertices) {
			d.stamp = make([]uint32, len(m.Vertices))
			d.remap = make([]uint16, len(m.Vertices))
			d.gen = 0
		}
		d.gen++
		if d.gen == 0 { // wrapped: no stamp may look current
			clear(d.stamp)
			d.gen = 1
		}
		out := d.out()
		for len(list) > 0 && int(list[0]) < end {
			k := 3 * (int(list[0]) - first)
			list = list[1:]
			for _, v := range m.Indices[k : k+3] {
				if d.stamp[v] != d.gen {
					d.stamp[v], d.remap[v] = d.gen, uint16(len(out.Vertices))
					out.Vertices = append(out.Vertices, m.Vertices[v])
				}
				out.Indices = append(out.Indices, d.remap[v])
			}
		}
		first = end
	}
	return d.clip
}

// out is a new empty mesh at the end of clip, reusing an earlier one's buffers.
func (d *Damage) out() *Mesh {
	if len(d.clip) < cap(d.clip) {
		d.clip = d.clip[:len(d.clip)+1]
	} else {
		d.clip = append(d.clip, Mesh{})
	}
	m := &d.clip[len(d.clip)-1]
	m.Vertices, m.Indices = m.Vertices[:0], m.Indices[:0]
	return m
}
