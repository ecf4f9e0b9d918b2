package view

import (
	"math"
	"strings"
	"testing"
)

func TestOutlines(t *testing.T) {
	o, err := ParseOutlines(glyphsBin)
	if err != nil {
		t.Fatalf("glyphs.bin: %v", err)
	}
	for r := rune(0x20); r <= 0x7e; r++ {
		if !HasGlyph(r) {
			t.Errorf("no glyph for ASCII %q", r)
		}
	}
	if o.Ascent <= 0 || o.Descent >= 0 || o.UnitsPerEm <= 0 {
		t.Errorf("metrics: ascent %d, descent %d, %d units per em", o.Ascent, o.Descent, o.UnitsPerEm)
	}
	// Truncated, trailing and foreign files are errors, never panics.
	for _, bad := range [][]byte{nil, []byte("LBGL"), glyphsBin[:len(glyphsBin)-3], append(append([]byte{}, glyphsBin...), 0), []byte("PK\x03\x04and more bytes")} {
		if _, err := ParseOutlines(bad); err == nil {
			t.Errorf("ParseOutlines accepted %d bytes", len(bad))
		}
	}
}

// inkRows returns how many rows and columns of the face's mask for r hold ink.
func inkBox(f *Face, r rune) (w, h int) {
	g := f.glyphs[glyphIndex(r)]
	minX, minY, maxX, maxY := math.MaxInt, math.MaxInt, -1, -1
	for y := int(g.src.Y); y < int(g.src.Bottom()); y++ {
		for x := int(g.src.X); x < int(g.src.Right()); x++ {
			if f.Pix[4*(y*f.W+x)+3] > 0x80 {
				minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
			}
		}
	}
	if maxX < 0 {
		return 0, 0
	}
	return maxX - minX + 1, maxY - minY + 1
}

// The atlas is rasterised for each scale: at 2 device pixels per unit every glyph is twice
// as large in texels as at 1, so text on a 2× screen is drawn at its own resolution.
func TestFaceScales(t *testing.T) {
	f1, f2, f3 := FaceAt(1), FaceAt(2), FaceAt(3)
	if FaceAt(2) != f2 {
		t.Error("FaceAt does not reuse the atlas of a scale")
	}
	for _, f := range []*Face{f1, f2, f3} {
		if len(f.Pix) != 4*f.W*f.H || f.Pix[4*(1*f.W+1)+3] != 0xff {
			t.Fatalf("scale %g: atlas %dx%d with %d bytes, white texel %d", f.Scale, f.W, f.H, len(f.Pix), f.Pix[4*(f.W+1)+3])
		}
		for i, g := range f.glyphs {
			if g.ink && (g.src.Right() > float64(f.W) || g.src.Bottom() > float64(f.H) || (g.src.X < 4 && g.src.Y < 4)) {
				t.Fatalf("scale %g: glyph %q at %+v leaves the atlas or covers the white block", f.Scale, outlines().Glyphs[i].Rune, g.src)
			}
		}
	}
	for _, r := range []rune{'A', 'g', '8', '终', '队'} {
		w1, h1 := inkBox(f1, r)
		w2, h2 := inkBox(f2, r)
		w3, h3 := inkBox(f3, r)
		if w1 == 0 || h1 < 5 {
			t.Errorf("%q at 1×: ink %dx%d", r, w1, h1)
		}
		if math.Abs(float64(h2)-2*float64(h1)) > 2 || math.Abs(float64(h3)-3*float64(h1)) > 3 || math.Abs(float64(w2)-2*float64(w1)) > 2 {
			t.Errorf("%q: ink %dx%d at 1×, %dx%d at 2×, %dx%d at 3×", r, w1, h1, w2, h2, w3, h3)
		}
	}
	if w, h := inkBox(f1, ' '); w != 0 || h != 0 {
		t.Error("space has ink")
	}
	// Ideographs fill most of the 13-unit line; capitals about two thirds of it.
	if _, h := inkBox(f1, '终'); h < 9 || h > GlyphH {
		t.Errorf("an ideograph is %d px tall on a %d px line", h, GlyphH)
	}
	if _, h := inkBox(f2, 'H'); h < 14 || h > 20 {
		t.Errorf("H is %d device px tall at 2×", h)
	}
}

func TestMixedText(t *testing.T) {
	s := "c1 已终止"
	want := 0.0
	for _, r := range s {
		want += TextWidth(string(r))
	}
	if got := TextWidth(s); math.Abs(got-want) > 1e-9 || got <= 0 {
		t.Errorf("TextWidth = %g; want the sum of the advances %g", got, want)
	}
	if TextWidth("已") <= TextWidth("c") {
		t.Error("an ideograph is no wider than a Latin letter")
	}
	for _, k := range []float64{1, 2, 1.5} {
		var c Canvas
		c.SetScale(k)
		w := c.Text(LayerMarks, 10, 20, s, White)
		if math.Abs(w-TextWidth(s)) > 1e-9 {
			t.Errorf("Text returns %g; TextWidth %g", w, TextWidth(s))
		}
		vs := c.Meshes(LayerMarks)[0].Vertices
		if len(vs) != 5*4 {
			t.Fatalf("%d vertices; want 4 for each of the 5 inked glyphs", len(vs))
		}
		prev := float32(-1)
		for i := 0; i < len(vs); i += 4 {
			q := vs[i:]
			// Whole device pixels, inside the line's device rows, left to right.
			for _, v := range q[:4] {
				if v.X != float32(math.Round(float64(v.X))) || v.Y != float32(math.Round(float64(v.Y))) {
					t.Errorf("%g×: glyph %d corner at (%g, %g), not on a device pixel", k, i/4, v.X, v.Y)
				}
			}
			if float64(q[0].Y) < 20*k-1 || float64(q[2].Y) > (20+GlyphH)*k+1 || q[0].X <= prev {
				t.Errorf("%g×: glyph %d at (%g, %g)-(%g, %g); line rows %g…%g", k, i/4, q[0].X, q[0].Y, q[2].X, q[2].Y, 20*k, (20+GlyphH)*k)
			}
			// The quad's size is the atlas rectangle's: one texel per device pixel.
			if q[1].X-q[0].X != q[1].SrcX-q[0].SrcX || q[2].Y-q[1].Y != q[2].SrcY-q[1].SrcY {
				t.Errorf("%g×: glyph %d is scaled from its atlas texels", k, i/4)
			}
			prev = q[0].X
		}
	}
	// A rune outside the font file draws as '?'.
	if HasGlyph('龘') || TextWidth("龘") != TextWidth("?") {
		t.Error("a rune without a glyph does not fall back to '?'")
	}
	// Fit cuts between runes, never inside one.
	for w := 0.0; w < 80; w++ {
		got := Fit("c1 已终止已停止", w)
		if !strings.HasPrefix("c1 已终止已停止", strings.TrimSuffix(got, "~")) || TextWidth(got) > w {
			t.Errorf("Fit(%g) = %q (%g px)", w, got, TextWidth(got))
		}
	}
}
