package view

import (
	"math"

	"github.com/lbscope/lbscope/core/cluster"
)

// Vertex is one corner of a triangle: position in device pixels, atlas texel and
// premultiplied colour.
type Vertex struct {
	X, Y, SrcX, SrcY, R, G, B, A float32
}

// Mesh is a batch of triangles for one DrawTriangles call.
type Mesh struct {
	Vertices []Vertex
	Indices  []uint16
}

// Layer orders what is drawn: each is one or more meshes, drawn in this order.
type Layer int

const (
	LayerBack    Layer = iota // broker blocks
	LayerLines                // consumer-to-queue lines, travelling messages
	LayerCells                // queue cells, backlog bars, highlights
	LayerMarks                // marks, titles, consumer and producer boxes, header
	LayerOverlay              // tooltip, menu
	NumLayers
)

// maxVertices keeps a mesh's indices within uint16.
const maxVertices = 65000

// Canvas collects the triangles of a frame, layer by layer. Reset it and draw again each
// frame; it keeps its buffers. Drawing takes layout units (CSS pixels at zoom 1); the
// vertices are in device pixels, Scale of them per unit, and text is drawn from the Face of
// that scale, glyph by glyph on whole device pixels.
type Canvas struct {
	layers [NumLayers][]Mesh
	scale  float64
	face   *Face
	// Draw's index of the frame's snapshot (lookups), kept for its memory.
	brokers   map[string]*cluster.BrokerView
	consumers map[string]*cluster.ConsumerView
	// The consumers' countdown lines, by language and seconds (countdown).
	countdowns map[countdownKey]string
	flights    []Flight // drawMessages's, kept from frame to frame
}

// SetScale sets the device pixels per layout unit (the device pixel ratio times the zoom)
// for what is drawn next, and returns the Face whose atlas the meshes then sample.
func (c *Canvas) SetScale(k float64) *Face {
	if k <= 0 || math.IsNaN(k) || math.IsInf(k, 0) {
		k = 1
	}
	if c.face == nil || c.scale != k {
		c.scale, c.face = k, FaceAt(k)
	}
	return c.face
}

// Face is the atlas the canvas's meshes sample.
func (c *Canvas) Face() *Face {
	if c.face == nil {
		c.SetScale(1)
	}
	return c.face
}

// k is the canvas's scale.
func (c *Canvas) k() float64 {
	c.Face()
	return c.scale
}

// Reset empties every layer, keeping allocations.
func (c *Canvas) Reset() {
	for l := range c.layers {
		for i := range c.layers[l] {
			c.layers[l][i].Vertices = c.layers[l][i].Vertices[:0]
			c.layers[l][i].Indices = c.layers[l][i].Indices[:0]
		}
		c.layers[l] = c.layers[l][:min(len(c.layers[l]), 1)]
	}
}

// Meshes returns the non-empty meshes of layer l.
func (c *Canvas) Meshes(l Layer) []Mesh {
	out := c.layers[l]
	for len(out) > 0 && len(out[len(out)-1].Vertices) == 0 {
		out = out[:len(out)-1]
	}
	return out
}

// VertexCount is the number of vertices in every layer.
func (c *Canvas) VertexCount() int {
	n := 0
	for l := range c.layers {
		for _, m := range c.layers[l] {
			n += len(m.Vertices)
		}
	}
	return n
}

// room returns the mesh of layer l with space for n more vertices.
func (c *Canvas) room(l Layer, n int) *Mesh {
	ms := c.layers[l]
	if len(ms) == 0 || len(ms[len(ms)-1].Vertices)+n > maxVertices {
		if len(ms) < cap(ms) {
			ms = ms[:len(ms)+1]
			ms[len(ms)-1].Vertices = ms[len(ms)-1].Vertices[:0]
			ms[len(ms)-1].Indices = ms[len(ms)-1].Indices[:0]
		} else {
			ms = append(ms, Mesh{})
		}
		c.layers[l] = ms
	}
	return &c.layers[l][len(ms)-1]
}

func premul(col Color) (r, g, b, a float32) {
	return col.R * col.A, col.G * col.A, col.B * col.A, col.A
}

// quad adds a quadrilateral with corners in order (p0, p1, p2, p3), in layout units, filled
// with the white texel.
func (c *Canvas) quad(l Layer, xs, ys [4]float64, col Color) {
	k := c.k()
	for i := range 4 {
		xs[i], ys[i] = xs[i]*k, ys[i]*k
	}
	c.quadPx(l, xs, ys, nil, col)
}

// quadPx adds a quadrilateral with corners in device pixels sampling the atlas rectangle s
// (or the white texel when s is nil).
func (c *Canvas) quadPx(l Layer, xs, ys [4]float64, s *Rect, col Color) {
	if col.A <= 0 {
		return
	}
	m := c.room(l, 4)
	r, g, b, a := premul(col)
	base := uint16(len(m.Vertices))
	sx0, sy0, sx1, sy1 := float32(whiteX), float32(whiteY), float32(whiteX), float32(whiteY)
	if s != nil {
		sx0, sy0 = float32(s.X), float32(s.Y)
		sx1, sy1 = sx0+float32(s.W), sy0+float32(s.H)
	}
	// One append of the four corners: a frame of the large preset adds thousands of quads.
	m.Vertices = append(m.Vertices,
		Vertex{X: float32(xs[0]), Y: float32(ys[0]), SrcX: sx0, SrcY: sy0, R: r, G: g, B: b, A: a},
		Vertex{X: float32(xs[1]), Y: float32(ys[1]), SrcX: sx1, SrcY: sy0, R: r, G: g, B: b, A: a},
		Vertex{X: float32(xs[2]), Y: float32(ys[2]), SrcX: sx1, SrcY: sy1, R: r, G: g, B: b, A: a},
		Vertex{X: float32(xs[3]), Y: float32(ys[3]), SrcX: sx0, SrcY: sy1, R: r, G: g, B: b, A: a})
	m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
}

// Rect fills r.
func (c *Canvas) Rect(l Layer, r Rect, col Color) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	c.quad(l, [4]float64{r.X, r.Right(), r.Right(), r.X}, [4]float64{r.Y, r.Y, r.Bottom(), r.Bottom()}, col)
}

// Frame strokes r's outline inside r, w pixels wide.
func (c *Canvas) Frame(l Layer, r Rect, w float64, col Color) {
	w = min(w, r.W/2, r.H/2)
	c.Rect(l, Rect{r.X, r.Y, r.W, w}, col)
	c.Rect(l, Rect{r.X, r.Bottom() - w, r.W, w}, col)
	c.Rect(l, Rect{r.X, r.Y + w, w, r.H - 2*w}, col)
	c.Rect(l, Rect{r.Right() - w, r.Y + w, w, r.H - 2*w}, col)
}

// Line strokes a segment w pixels wide.
func (c *Canvas) Line(l Layer, x0, y0, x1, y1, w float64, col Color) {
	dx, dy := x1-x0, y1-y0
	n := math.Hypot(dx, dy)
	if n == 0 {
		return
	}
	nx, ny := -dy/n*w/2, dx/n*w/2
	c.quad(l, [4]float64{x0 + nx, x1 + nx, x1 - nx, x0 - nx}, [4]float64{y0 + ny, y1 + ny, y1 - ny, y0 - ny}, col)
}

// Ring fills the part of the annulus r0…r1 around (cx, cy) from angle a0 to a1 (radians,
// clockwise on screen from the positive x axis).
func (c *Canvas) Ring(l Layer, cx, cy, r0, r1, a0, a1 float64, col Color) {
	if a1 <= a0 || r1 <= r0 || col.A <= 0 {
		return
	}
	k := c.k()
	cx, cy, r0, r1 = cx*k, cy*k, r0*k, r1*k
	steps := max(2, int(math.Ceil((a1-a0)/(math.Pi/16))))
	m := c.room(l, 2*(steps+1))
	r, g, b, a := premul(col)
	base := uint16(len(m.Vertices))
	for i := 0; i <= steps; i++ {
		t := a0 + (a1-a0)*float64(i)/float64(steps)
		cos, sin := math.Cos(t), math.Sin(t)
		m.Vertices = append(m.Vertices,
			Vertex{X: float32(cx + r0*cos), Y: float32(cy + r0*sin), SrcX: whiteX, SrcY: whiteY, R: r, G: g, B: b, A: a},
			Vertex{X: float32(cx + r1*cos), Y: float32(cy + r1*sin), SrcX: whiteX, SrcY: whiteY, R: r, G: g, B: b, A: a})
		if i > 0 {
			k := base + uint16(2*i)
			m.Indices = append(m.Indices, k-2, k-1, k+1, k-2, k+1, k)
		}
	}
}

// Disc fills a circle.
func (c *Canvas) Disc(l Layer, cx, cy, radius float64, col Color) {
	c.Ring(l, cx, cy, 0, radius, 0, 2*math.Pi, col)
}

// Text draws s (ASCII and the Chinese of the words table) with its line's top-left corner
// at (x, y) in layout units, each glyph on whole device pixels so that it stays crisp. It
// returns the width in layout units.
func (c *Canvas) Text(l Layer, x, y float64, s string, col Color) float64 {
	k, f := c.k(), c.Face()
	t := metrics()
	gs := t.glyphs
	base := math.Round((y + t.baseline) * k)
	adv := t.em
	pen := x
	for _, r := range s {
		i := glyphIn(t.ascii, r)
		if g := f.glyphs[i]; g.ink {
			gx, gy := math.Round(pen*k)+g.dx, base+g.dy
			c.quadPx(l, [4]float64{gx, gx + g.src.W, gx + g.src.W, gx}, [4]float64{gy, gy, gy + g.src.H, gy + g.src.H}, &g.src, col)
		}
		pen += float64(gs[i].Advance) * adv
	}
	return pen - x
}

// Fit shortens s with a trailing '~' until it is at most w pixels wide ("" if nothing fits).
func Fit(s string, w float64) string {
	if TextWidth(s) <= w {
		return s
	}
	end := 0
	for i, r := range s {
		if TextWidth(s[:i+len(string(r))]+"~") > w {
			break
		}
		end = i + len(string(r))
	}
	if end == 0 {
		return ""
	}
	return s[:end] + "~"
}
