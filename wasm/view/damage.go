package view

import (
	"image"
	"math"
	"math/bits"
	"slices"
)

// DamageTile is the side, in device pixels, of the tiles Damage compares frames by. Smaller
// tiles find less to redraw but cost more to hash; with the large preset at 10× on a
// 1280×720 screen, about 11% of 16-pixel tiles change from one frame to the next against 18%
// of 32-pixel ones.
const DamageTile = 16

// DamageRects is how many rectangles a partial redraw is merged into at most: each is a fill
// and a draw call of its own, and a triangle that meets two of them is drawn twice.
const DamageRects = 32

// DamageFull is the share of the screen beyond which a redraw is done in full: the
// rectangles would then cost more than the one full frame they replace.
const DamageFull = 0.6

// Damage finds the parts of the screen a frame changes, from its triangles alone. The screen
// is cut into tiles; a tile's hash folds in, in draw order, every triangle (all of its
// vertices' fields) whose bounding box, widened to whole pixels, touches it. Two frames that
// give a tile the same ordered list of triangles over the same background draw the same
// pixels there, so only the tiles whose hash changed need drawing again: by filling them with
// the background and drawing, clipped to them, the triangles that touch them.
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
	dirty      []bool
	rects      []image.Rectangle
	drawn      float64

	// merge's buffers.
	alive       []bool
	best, waste []int

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

// hash fills cur with each tile's hash of c's triangles and boxes with their pixels.
func (d *Damage) hash(c *Canvas) {
	for i := range d.cur {
		d.cur[i] = hashSeed
	}
	d.boxes = d.boxes[:0]
	screen := image.Rect(0, 0, d.w, d.h)
	for l := range NumLayers {
		for _, m := range c.Meshes(l) {
			vs, is := m.Vertices, m.Indices
			for t := 0; t+2 < len(is); t += 3 {
				a, b, e := vs[is[t]], vs[is[t+1]], vs[is[t+2]]
				box := pixelBox(a, b, e).Intersect(screen)
				d.boxes = append(d.boxes, box)
				if box.Empty() {
					continue
				}
				th := vertexHash(vertexHash(vertexHash(hashSeed, a), b), e)
				c0, c1 := box.Min.X/DamageTile, (box.Max.X-1)/DamageTile
				r0, r1 := box.Min.Y/DamageTile, (box.Max.Y-1)/DamageTile
				if c0 == c1 && r0 == r1 {
					d.cur[r0*d.cols+c0] = fold(d.cur[r0*d.cols+c0], th)
					continue
				}
				sh := shapeOf(a, b, e)
				for row := r0; row <= r1; row++ {
					for col := c0; col <= c1; col++ {
						tl := image.Rect(col*DamageTile, row*DamageTile, col*DamageTile+DamageTile, row*DamageTile+DamageTile)
						if sh.meets(tl) {
							d.cur[row*d.cols+col] = fold(d.cur[row*d.cols+col], th)
						}
					}
				}
			}
		}
	}
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
	var s shape
	s.n = 3
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
	x0, x1 := min(a.X, b.X, c.X), max(a.X, b.X, c.X)
	y0, y1 := min(a.Y, b.Y, c.Y), max(a.Y, b.Y, c.Y)
	if x0 != x0 || x1 != x1 || y0 != y0 || y1 != y1 {
		return image.Rect(-1<<30, -1<<30, 1<<30, 1<<30)
	}
	return image.Rect(pixelFloor(x0), pixelFloor(y0), pixelCeil(x1), pixelCeil(y1))
}

func pixelFloor(v float32) int { return pixelInt(math.Floor(float64(v))) }
func pixelCeil(v float32) int  { return pixelInt(math.Ceil(float64(v))) }

// pixelInt is v as an int, within ±2³⁰ (past any screen, and an int on every platform).
func pixelInt(v float64) int { return int(math.Min(math.Max(v, -1<<30), 1<<30)) }

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

// Clip returns what redraws r (a part of the screen of c's last Frame), to be drawn clipped
// to r: a quad over r in the opaque colour bg (the screen's background), then, in draw
// order, the triangles of c whose pixels meet r, as meshes of their own with the vertices
// they use (at most one mesh for each of c's). They are valid until the next call.
func (d *Damage) Clip(c *Canvas, r image.Rectangle, bg Color) []Mesh {
	d.clip = d.clip[:0]
	fill := d.out()
	cr, cg, cb, ca := premul(bg)
	x0, y0, x1, y1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)
	for _, p := range [4][2]float32{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}} {
		fill.Vertices = append(fill.Vertices, Vertex{X: p[0], Y: p[1], SrcX: whiteX, SrcY: whiteY, R: cr, G: cg, B: cb, A: ca})
	}
	fill.Indices = append(fill.Indices, 0, 1, 2, 0, 2, 3)
	t := 0 // index in boxes
	for l := range NumLayers {
		for _, m := range c.Meshes(l) {
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
			for i := 0; i+2 < len(m.Indices); i, t = i+3, t+1 {
				if t >= len(d.boxes) || !d.boxes[t].Overlaps(r) {
					continue
				}
				if box := d.boxes[t]; !box.In(r) {
					sh := shapeOf(m.Vertices[m.Indices[i]], m.Vertices[m.Indices[i+1]], m.Vertices[m.Indices[i+2]])
					if !sh.meets(r) {
						continue
					}
				}
				for _, v := range m.Indices[i : i+3] {
					if d.stamp[v] != d.gen {
						d.stamp[v], d.remap[v] = d.gen, uint16(len(out.Vertices))
						out.Vertices = append(out.Vertices, m.Vertices[v])
					}
					out.Indices = append(out.Indices, d.remap[v])
				}
			}
			if len(out.Indices) == 0 {
				d.clip = d.clip[:len(d.clip)-1]
			}
		}
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
