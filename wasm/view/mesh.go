package view

import (
	"image"
	"math"

	"golang.org/x/image/font/basicfont"
)

// Glyph metrics of basicfont.Face7x13, the canvas's only font.
const (
	GlyphW  = 6  // drawn width
	GlyphH  = 13 // line height
	Advance = 7  // pen advance
)

// The atlas: glyph masks stacked in a column GlyphW wide, then a 3×3 white block whose centre
// texel solid shapes sample, so shapes and text share one texture.
const (
	AtlasW = GlyphW + 4
	whiteX = GlyphW + 2.5
	whiteY = 1.5
)

// Atlas returns the atlas's size and its pixels (RGBA, premultiplied alpha).
func Atlas() (w, h int, pix []byte) {
	face := basicfont.Face7x13
	mask := face.Mask.(*image.Alpha)
	w, h = AtlasW, mask.Rect.Dy()
	pix = make([]byte, 4*w*h)
	for y := range h {
		for x := range GlyphW {
			a := mask.AlphaAt(x, y).A
			i := 4 * (y*w + x)
			pix[i], pix[i+1], pix[i+2], pix[i+3] = a, a, a, a
		}
	}
	for y := range 3 {
		for x := GlyphW + 1; x < GlyphW+4; x++ {
			i := 4 * (y*w + x)
			pix[i], pix[i+1], pix[i+2], pix[i+3] = 0xff, 0xff, 0xff, 0xff
		}
	}
	return w, h, pix
}

// glyphRow is the atlas row (in glyphs) of an ASCII character; anything else draws as '?'.
func glyphRow(c byte) int {
	if c < 0x20 || c > 0x7e {
		c = '?'
	}
	return int(c - 0x20)
}

// TextWidth is the drawn width of s in pixels.
func TextWidth(s string) float64 {
	if s == "" {
		return 0
	}
	return float64(len(s)*Advance - (Advance - GlyphW))
}

// Vertex is one corner of a triangle: position, atlas texel and premultiplied colour.
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
// frame; it keeps its buffers.
type Canvas struct {
	layers [NumLayers][]Mesh
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

// quad adds a quadrilateral with corners in order (p0, p1, p2, p3) sampling the atlas
// rectangle s (or the white texel when s is nil).
func (c *Canvas) quad(l Layer, xs, ys [4]float64, s *Rect, col Color) {
	if col.A <= 0 {
		return
	}
	m := c.room(l, 4)
	r, g, b, a := premul(col)
	base := uint16(len(m.Vertices))
	for i := range 4 {
		sx, sy := float32(whiteX), float32(whiteY)
		if s != nil {
			sx, sy = float32(s.X), float32(s.Y)
			if i == 1 || i == 2 {
				sx += float32(s.W)
			}
			if i >= 2 {
				sy += float32(s.H)
			}
		}
		m.Vertices = append(m.Vertices, Vertex{X: float32(xs[i]), Y: float32(ys[i]), SrcX: sx, SrcY: sy, R: r, G: g, B: b, A: a})
	}
	m.Indices = append(m.Indices, base, base+1, base+2, base, base+2, base+3)
}

// Rect fills r.
func (c *Canvas) Rect(l Layer, r Rect, col Color) {
	if r.W <= 0 || r.H <= 0 {
		return
	}
	c.quad(l, [4]float64{r.X, r.Right(), r.Right(), r.X}, [4]float64{r.Y, r.Y, r.Bottom(), r.Bottom()}, nil, col)
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
	c.quad(l, [4]float64{x0 + nx, x1 + nx, x1 - nx, x0 - nx}, [4]float64{y0 + ny, y1 + ny, y1 - ny, y0 - ny}, nil, col)
}

// Ring fills the part of the annulus r0…r1 around (cx, cy) from angle a0 to a1 (radians,
// clockwise on screen from the positive x axis).
func (c *Canvas) Ring(l Layer, cx, cy, r0, r1, a0, a1 float64, col Color) {
	if a1 <= a0 || r1 <= r0 || col.A <= 0 {
		return
	}
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

// Text draws ASCII s with its top-left corner at (x, y), snapped to whole pixels so the
// bitmap glyphs stay crisp. It returns the drawn width.
func (c *Canvas) Text(l Layer, x, y float64, s string, col Color) float64 {
	x, y = math.Round(x), math.Round(y)
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			continue
		}
		gx := x + float64(i*Advance)
		src := Rect{0, float64(glyphRow(s[i]) * GlyphH), GlyphW, GlyphH}
		c.quad(l, [4]float64{gx, gx + GlyphW, gx + GlyphW, gx}, [4]float64{y, y, y + GlyphH, y + GlyphH}, &src, col)
	}
	return TextWidth(s)
}

// Fit shortens s with a trailing '~' until it is at most w pixels wide ("" if nothing fits).
func Fit(s string, w float64) string {
	if TextWidth(s) <= w {
		return s
	}
	n := int((w + (Advance - GlyphW)) / Advance)
	if n <= 1 {
		return ""
	}
	return s[:n-1] + "~"
}
