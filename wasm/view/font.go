package view

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/vector"
)

// glyphsBin holds the outlines of every glyph the canvas draws — printable ASCII and the
// Chinese runes of the words — taken from WenQuanYi Micro Hei by `go run ./scripts/glyphs`
// (see assets/FONTS.md). They are rasterised at run time into an atlas for the screen's
// scale, so text is drawn at device pixels whatever the pixel ratio and the presenter zoom.
//
//go:embed glyphs.bin
var glyphsBin []byte

// Text metrics in layout units (CSS pixels at zoom 1).
const (
	GlyphH = 13 // the line: the height text takes in a layout
	EmSize = 12 // the font's em: ideographs fill about 11 of the 13 px line
)

// Outlines is a parsed glyphs.bin: TrueType outlines in font units, sorted by rune.
type Outlines struct {
	UnitsPerEm, Ascent, Descent int
	Glyphs                      []Outline
}

// Outline is one glyph: its pen advance and closed contours of quadratic on/off-curve points
// (TrueType's), y up.
type Outline struct {
	Rune     rune
	Advance  int
	Contours [][]OutlinePoint
}

// OutlinePoint is a contour point in font units.
type OutlinePoint struct {
	X, Y int16
	On   bool
}

// maxOutlineGlyphs bounds what ParseOutlines accepts.
const maxOutlineGlyphs = 4096

// ParseOutlines reads the outline file scripts/glyphs writes: "LBGL", version 1, units per
// em, ascender, descender, the glyph count, then per glyph its rune (u32), advance (u16) and
// contours (u16 count; each a u16 point count and points of i16 x, i16 y, u8 on-curve),
// little-endian, runes strictly increasing.
func ParseOutlines(b []byte) (*Outlines, error) {
	p := 0
	need := func(n int) error {
		if p+n > len(b) {
			return fmt.Errorf("truncated at byte %d", p)
		}
		return nil
	}
	u16 := func() int { v := binary.LittleEndian.Uint16(b[p:]); p += 2; return int(v) }
	if len(b) < 14 || string(b[:4]) != "LBGL" {
		return nil, errors.New("not a glyph outline file (no LBGL header)")
	}
	p = 4
	if v := u16(); v != 1 {
		return nil, fmt.Errorf("outline file version %d; this build reads 1", v)
	}
	o := &Outlines{UnitsPerEm: u16()}
	o.Ascent, o.Descent = int(int16(u16())), int(int16(u16()))
	n := u16()
	if o.UnitsPerEm == 0 || n > maxOutlineGlyphs {
		return nil, fmt.Errorf("bad header: %d units per em, %d glyphs", o.UnitsPerEm, n)
	}
	for i := range n {
		if err := need(8); err != nil {
			return nil, err
		}
		g := Outline{Rune: rune(binary.LittleEndian.Uint32(b[p:]))}
		p += 4
		g.Advance = u16()
		nc := u16()
		if i > 0 && g.Rune <= o.Glyphs[i-1].Rune {
			return nil, fmt.Errorf("glyph %d (%q) is out of order", i, g.Rune)
		}
		for range nc {
			if err := need(2); err != nil {
				return nil, err
			}
			np := u16()
			if err := need(5 * np); err != nil {
				return nil, err
			}
			ct := make([]OutlinePoint, np)
			for k := range ct {
				ct[k] = OutlinePoint{int16(binary.LittleEndian.Uint16(b[p:])), int16(binary.LittleEndian.Uint16(b[p+2:])), b[p+4] != 0}
				p += 5
			}
			g.Contours = append(g.Contours, ct)
		}
		o.Glyphs = append(o.Glyphs, g)
	}
	if p != len(b) {
		return nil, fmt.Errorf("%d bytes after the last glyph", len(b)-p)
	}
	return o, nil
}

// outlines is the embedded font; a malformed file is a build error, which TestOutlines and
// scripts/glyphs catch before anything ships.
var outlines = sync.OnceValue(func() *Outlines {
	o, err := ParseOutlines(glyphsBin)
	if err != nil {
		panic("wasm/view/glyphs.bin: " + err.Error() + " (run go run ./scripts/glyphs)")
	}
	return o
})

// emScale converts font units to layout units.
func emScale() float64 { return EmSize / float64(outlines().UnitsPerEm) }

// baseline is where a line's baseline sits below its top, in layout units: the font's
// ascender and descender centred on the line.
func baseline() float64 {
	o, s := outlines(), emScale()
	return (GlyphH-float64(o.Ascent-o.Descent)*s)/2 + float64(o.Ascent)*s
}

// textMetrics is what every Text and TextWidth reads of the font, found once rather than
// through the font's sync.OnceValue a few times a string.
type textMetrics struct {
	glyphs   []Outline
	ascii    *[128]int32 // asciiGlyphs
	em       float64     // emScale
	baseline float64     // baseline
}

var metrics = sync.OnceValue(func() *textMetrics {
	return &textMetrics{glyphs: outlines().Glyphs, ascii: asciiGlyphs(), em: emScale(), baseline: baseline()}
})

// glyphIndex is r's glyph, or '?”s for a rune the font file lacks.
func glyphIndex(r rune) int { return glyphIn(asciiGlyphs(), r) }

// glyphIn is glyphIndex with asciiGlyphs at hand: a loop over a string's runes fetches the
// table once, not once a rune.
func glyphIn(ascii *[128]int32, r rune) int {
	if r >= 0 && r < 128 {
		return int(ascii[r])
	}
	return searchGlyph(r)
}

// asciiGlyphs is glyphIndex of every ASCII rune, most of what is drawn, found without a
// search: a frame of the large preset draws thousands of glyphs.
var asciiGlyphs = sync.OnceValue(func() *[128]int32 {
	var t [128]int32
	for r := range rune(len(t)) {
		t[r] = int32(searchGlyph(r))
	}
	return &t
})

// searchGlyph is glyphIndex by a binary search of the font's runes.
func searchGlyph(r rune) int {
	gs := outlines().Glyphs
	if i, ok := slices.BinarySearchFunc(gs, r, func(g Outline, r rune) int { return int(g.Rune - r) }); ok {
		return i
	}
	if r == '?' {
		return 0
	}
	return searchGlyph('?')
}

// HasGlyph reports whether r draws as itself rather than as '?'.
func HasGlyph(r rune) bool {
	gs := outlines().Glyphs
	_, ok := slices.BinarySearchFunc(gs, r, func(g Outline, r rune) int { return int(g.Rune - r) })
	return ok && r >= 0x20
}

// TextWidth is the width of s in layout units: the sum of its glyphs' advances.
func TextWidth(s string) float64 {
	t := metrics()
	n := 0
	for _, r := range s {
		n += t.glyphs[glyphIn(t.ascii, r)].Advance
	}
	return float64(n) * t.em
}

// The atlas: a 3×3 white block in its corner, whose centre texel solid shapes sample (so
// shapes and text share one texture and one draw call per layer), then the glyphs.
const (
	whiteX = 1.5
	whiteY = 1.5
	// atlasMaxW is the widest an atlas row may grow, in texels.
	atlasMaxW = 1024
)

// Face is the atlas of every glyph rasterised for one scale (device pixels per layout unit).
type Face struct {
	Scale float64
	W, H  int
	Pix   []byte // RGBA, premultiplied alpha
	// glyphs parallels outlines().Glyphs.
	glyphs []faceGlyph
}

// faceGlyph is where a glyph's mask is in the atlas and where it goes relative to the pen
// on the baseline, in device pixels.
type faceGlyph struct {
	src    Rect
	dx, dy float64
	ink    bool
}

var (
	facesMu sync.Mutex
	faces   = map[int]*Face{}
)

// FaceAt returns the atlas for scale (rounded to hundredths), rasterising it the first time.
func FaceAt(scale float64) *Face {
	scale = math.Round(clamp(scale, 0.5, 8)*100) / 100
	key := int(scale * 100)
	facesMu.Lock()
	defer facesMu.Unlock()
	if f := faces[key]; f != nil {
		return f
	}
	f := rasteriseFace(outlines(), scale)
	if len(faces) >= 6 {
		clear(faces) // a few scales in a session: the pixel ratio and the presenter zoom
	}
	faces[key] = f
	return f
}

func rasteriseFace(o *Outlines, scale float64) *Face {
	s := EmSize / float64(o.UnitsPerEm) * scale
	type mask struct {
		img    *image.Alpha
		x0, y0 int
	}
	masks := make([]mask, len(o.Glyphs))
	for i, g := range o.Glyphs {
		minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
		for _, ct := range g.Contours {
			for _, q := range ct {
				x, y := float64(q.X)*s, -float64(q.Y)*s
				minX, maxX = min(minX, x), max(maxX, x)
				minY, maxY = min(minY, y), max(maxY, y)
			}
		}
		if minX > maxX {
			continue
		}
		x0, y0 := int(math.Floor(minX)), int(math.Floor(minY))
		w, h := int(math.Ceil(maxX))-x0, int(math.Ceil(maxY))-y0
		if w <= 0 || h <= 0 {
			continue
		}
		masks[i] = mask{fill(g.Contours, s, float64(-x0), float64(-y0), w, h), x0, y0}
	}
	// Pack the masks in shelves, a texel apart, after the white block.
	f := &Face{Scale: scale, glyphs: make([]faceGlyph, len(o.Glyphs))}
	x, y, shelf, w := 4, 0, 3, 4
	for i, m := range masks {
		if m.img == nil {
			continue
		}
		mw, mh := m.img.Rect.Dx(), m.img.Rect.Dy()
		if x+mw > atlasMaxW {
			x, y, shelf = 0, y+shelf+1, 0
		}
		f.glyphs[i] = faceGlyph{src: Rect{float64(x), float64(y), float64(mw), float64(mh)}, dx: float64(m.x0), dy: float64(m.y0), ink: true}
		x += mw + 1
		w = max(w, x)
		shelf = max(shelf, mh)
	}
	f.W, f.H = w, y+shelf
	f.Pix = make([]byte, 4*f.W*f.H)
	set := func(x, y int, a byte) {
		i := 4 * (y*f.W + x)
		f.Pix[i], f.Pix[i+1], f.Pix[i+2], f.Pix[i+3] = a, a, a, a
	}
	for y := range 3 {
		for x := range 3 {
			set(x, y, 0xff)
		}
	}
	// Thin strokes at small sizes cover part of a pixel: a mild curve keeps them from greying.
	var curve [256]byte
	for a := range curve {
		curve[a] = uint8(math.Round(255 * math.Pow(float64(a)/255, 0.8)))
	}
	for i, m := range masks {
		if m.img == nil {
			continue
		}
		src := f.glyphs[i].src
		for my := range m.img.Rect.Dy() {
			for mx := range m.img.Rect.Dx() {
				set(int(src.X)+mx, int(src.Y)+my, curve[m.img.Pix[my*m.img.Stride+mx]])
			}
		}
	}
	return f
}

// fill rasterises contours (font units, y up) scaled by s and moved by (ox, oy) device
// pixels into a w×h alpha mask, with TrueType's quadratic on/off-curve rule.
func fill(cs [][]OutlinePoint, s, ox, oy float64, w, h int) *image.Alpha {
	ras := vector.NewRasterizer(w, h)
	type pt struct{ x, y float64 }
	tx := func(p pt) (float32, float32) { return float32(p.x*s + ox), float32(-p.y*s + oy) }
	mid := func(a, b pt) pt { return pt{(a.x + b.x) / 2, (a.y + b.y) / 2} }
	for _, ct := range cs {
		if len(ct) == 0 {
			continue
		}
		// Start on an on-curve point (or the midpoint of two off-curve ones).
		k := slices.IndexFunc(ct, func(q OutlinePoint) bool { return q.On })
		var pts []OutlinePoint
		start := pt{}
		if k < 0 {
			a, b := ct[len(ct)-1], ct[0]
			start = mid(pt{float64(a.X), float64(a.Y)}, pt{float64(b.X), float64(b.Y)})
			pts = ct
		} else {
			start = pt{float64(ct[k].X), float64(ct[k].Y)}
			pts = append(append([]OutlinePoint{}, ct[k+1:]...), ct[:k]...)
		}
		ras.MoveTo(tx(start))
		var ctrl *pt
		emit := func(q pt, on bool) {
			switch {
			case on && ctrl == nil:
				ras.LineTo(tx(q))
			case on:
				cx, cy := tx(*ctrl)
				x, y := tx(q)
				ras.QuadTo(cx, cy, x, y)
				ctrl = nil
			case ctrl == nil:
				c := q
				ctrl = &c
			default:
				m := mid(*ctrl, q)
				cx, cy := tx(*ctrl)
				x, y := tx(m)
				ras.QuadTo(cx, cy, x, y)
				c := q
				ctrl = &c
			}
		}
		for _, q := range pts {
			emit(pt{float64(q.X), float64(q.Y)}, q.On)
		}
		emit(start, true)
		ras.ClosePath()
	}
	dst := image.NewAlpha(image.Rect(0, 0, w, h))
	ras.Draw(dst, dst.Bounds(), image.Opaque, image.Point{})
	return dst
}
