package view

import (
	"image"
	"math"
	"slices"

	"golang.org/x/image/font/basicfont"
)

// Glyph metrics of basicfont.Face7x13, the canvas's font for ASCII.
const (
	GlyphW  = 6  // drawn width
	GlyphH  = 13 // line height
	Advance = 7  // pen advance
)

// Glyph metrics of the Chinese glyphs (glyphs_zh.go): as tall as the ASCII line, and as wide
// as two ASCII characters, so mixed text keeps to one grid.
const (
	CJKW       = 13 // drawn width
	CJKAdvance = 2 * Advance
)

// The atlas: ASCII glyph masks stacked in a column GlyphW wide, beside it a 3×3 white block
// whose centre texel solid shapes sample (so shapes and text share one texture), and to the
// right the Chinese glyphs in columns of cjkPerColumn.
const (
	whiteX       = GlyphW + 2.5
	whiteY       = 1.5
	asciiGlyphs  = 0x7f - 0x20
	cjkX         = GlyphW + 5 // the first Chinese column
	cjkPerColumn = asciiGlyphs
)

// AtlasW is the atlas's width in texels.
var AtlasW = cjkX + cjkColumns()*(CJKW+1)

func cjkColumns() int { return (len(cjkRunes) + cjkPerColumn - 1) / cjkPerColumn }

// Atlas returns the atlas's size and its pixels (RGBA, premultiplied alpha).
func Atlas() (w, h int, pix []byte) {
	face := basicfont.Face7x13
	mask := face.Mask.(*image.Alpha)
	w, h = AtlasW, mask.Rect.Dy()
	pix = make([]byte, 4*w*h)
	set := func(x, y int, a byte) {
		i := 4 * (y*w + x)
		pix[i], pix[i+1], pix[i+2], pix[i+3] = a, a, a, a
	}
	for y := range h {
		for x := range GlyphW {
			set(x, y, mask.AlphaAt(x, y).A)
		}
	}
	for y := range 3 {
		for x := GlyphW + 1; x < GlyphW+4; x++ {
			set(x, y, 0xff)
		}
	}
	for i := range cjkRunes {
		src := cjkSrc(i)
		m := cjkMasks[i*CJKW*GlyphH:]
		for y := range GlyphH {
			for x := range CJKW {
				set(int(src.X)+x, int(src.Y)+y, m[y*CJKW+x])
			}
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

// cjkSrc is the atlas rectangle of the i-th Chinese glyph.
func cjkSrc(i int) Rect {
	return Rect{float64(cjkX + i/cjkPerColumn*(CJKW+1)), float64(i % cjkPerColumn * GlyphH), CJKW, GlyphH}
}

// glyph returns where r's glyph is in the atlas, its pen advance and whether it has ink.
// ASCII comes from basicfont, Chinese from the generated glyphs; anything else draws as '?'.
func glyph(r rune) (src Rect, advance int, ink bool) {
	if r < 0x80 {
		c := byte(r)
		return Rect{0, float64(glyphRow(c) * GlyphH), GlyphW, GlyphH}, Advance, c != ' '
	}
	if i, ok := slices.BinarySearch(cjkRunes, r); ok {
		return cjkSrc(i), CJKAdvance, true
	}
	return glyph('?')
}

// HasGlyph reports whether r draws as itself rather than as '?'.
func HasGlyph(r rune) bool {
	if r >= 0x20 && r <= 0x7e {
		return true
	}
	_, ok := slices.BinarySearch(cjkRunes, r)
	return ok
}

// TextWidth is the drawn width of s in pixels.
func TextWidth(s string) float64 {
	n := 0
	last := 0
	for _, r := range s {
		_, adv, _ := glyph(r)
		n += adv
		last = adv
	}
	if n == 0 {
		return 0
	}
	// The last glyph's blank column after its ink is not part of the drawn width.
	if last == CJKAdvance {
		return float64(n - (CJKAdvance - CJKW))
	}
	return float64(n - (Advance - GlyphW))
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

// Text draws s (ASCII and the Chinese of the words table) with its top-left corner at (x, y),
// snapped to whole pixels so the bitmap glyphs stay crisp. It returns the drawn width.
func (c *Canvas) Text(l Layer, x, y float64, s string, col Color) float64 {
	x, y = math.Round(x), math.Round(y)
	pen := x
	for _, r := range s {
		src, adv, ink := glyph(r)
		if ink {
			c.quad(l, [4]float64{pen, pen + src.W, pen + src.W, pen}, [4]float64{y, y, y + GlyphH, y + GlyphH}, &src, col)
		}
		pen += float64(adv)
	}
	return TextWidth(s)
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
