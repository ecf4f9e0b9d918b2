// Command glyphs extracts, from a TrueType font, the outlines of every glyph the canvas draws
// (printable ASCII and the Chinese runes of the canvas's words, view.ChineseRunes) into
// wasm/view/glyphs.bin, which the view package embeds and rasterises at whatever scale the
// screen needs (device pixel ratio × presenter zoom). Run it from the repository root after
// changing a Chinese word:
//
//	apt-get install fonts-wqy-microhei   # once; the build and the tests never need the font
//	go run ./scripts/glyphs [-font /usr/share/fonts/truetype/wqy/wqy-microhei.ttc]
//
// golang.org/x/image/font/opentype would need golang.org/x/text, which the module does not
// require, so this reads the TrueType outlines itself (cmap, loca, glyf, hmtx). The file's
// format is view.ParseOutlines's.
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/lbscope/lbscope/wasm/view"
)

func main() {
	fontPath := flag.String("font", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "a TrueType font or collection with Latin and CJK outlines")
	out := flag.String("out", filepath.Join("wasm", "view", "glyphs.bin"), "the outline file to write")
	flag.Parse()
	data, err := os.ReadFile(*fontPath)
	if err != nil {
		log.Fatalf("%v (install the font: apt-get install fonts-wqy-microhei)", err)
	}
	f, err := parse(data)
	if err != nil {
		log.Fatalf("%s: %v", *fontPath, err)
	}
	var runes []rune
	for r := rune(0x20); r <= 0x7e; r++ {
		runes = append(runes, r)
	}
	runes = append(runes, view.ChineseRunes()...)
	bin, err := f.encode(runes)
	if err != nil {
		log.Fatal(err)
	}
	// The file must read back as the view package will read it.
	if _, err := view.ParseOutlines(bin); err != nil {
		log.Fatalf("the encoded outlines do not parse: %v", err)
	}
	if err := os.WriteFile(*out, bin, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d glyphs, %d bytes, from %s\n", *out, len(runes), len(bin), *fontPath)
}

// encode writes the outlines of runes (sorted) in view.ParseOutlines's format: a header
// ("LBGL", version, units per em, ascender, descender, glyph count), then per glyph its rune,
// advance and contours of (x, y, on-curve) points in font units, little-endian.
func (f *font) encode(runes []rune) ([]byte, error) {
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	hhea := f.tables["hhea"]
	b.WriteString("LBGL")
	w(uint16(1))
	w(uint16(f.unitsPerEm))
	w(int16(i16(hhea, 4)))
	w(int16(i16(hhea, 6)))
	w(uint16(len(runes)))
	for _, r := range runes {
		g := f.index(r)
		if g == 0 {
			return nil, fmt.Errorf("%q: the font has no glyph for it", r)
		}
		cs, err := f.contours(g, 0)
		if err != nil {
			return nil, fmt.Errorf("%q: %v", r, err)
		}
		if len(cs) == 0 && r != ' ' && r != '\u3000' {
			return nil, fmt.Errorf("%q: the glyph is empty", r)
		}
		w(uint32(r))
		w(uint16(f.advance(g)))
		w(uint16(len(cs)))
		for _, ct := range cs {
			w(uint16(len(ct)))
			for _, q := range ct {
				on := uint8(0)
				if q.on {
					on = 1
				}
				w(int16(math.Round(q.x)))
				w(int16(math.Round(q.y)))
				w(on)
			}
		}
	}
	return b.Bytes(), nil
}

// font is the part of a TrueType font the rasteriser needs.
type font struct {
	data       []byte
	tables     map[string][]byte
	unitsPerEm float64
	longLoca   bool
	cmap       []byte // a format 4 subtable
	numHMetric int
}

func u16(b []byte, i int) int { return int(binary.BigEndian.Uint16(b[i:])) }
func i16(b []byte, i int) int { return int(int16(binary.BigEndian.Uint16(b[i:]))) }
func u32(b []byte, i int) int { return int(binary.BigEndian.Uint32(b[i:])) }

func parse(data []byte) (*font, error) {
	off := 0
	if len(data) < 12 {
		return nil, errors.New("too short for a font")
	}
	if string(data[:4]) == "ttcf" {
		off = u32(data, 12) // the collection's first font
	}
	f := &font{data: data, tables: map[string][]byte{}}
	n := u16(data, off+4)
	for i := range n {
		rec := off + 12 + 16*i
		tag := string(data[rec : rec+4])
		o, l := u32(data, rec+8), u32(data, rec+12)
		if o+l > len(data) {
			return nil, fmt.Errorf("table %s out of the file", tag)
		}
		f.tables[tag] = data[o : o+l]
	}
	for _, t := range []string{"head", "cmap", "loca", "glyf", "hhea", "hmtx"} {
		if f.tables[t] == nil {
			return nil, fmt.Errorf("no %s table (a TrueType-outline font is needed)", t)
		}
	}
	head := f.tables["head"]
	f.unitsPerEm = float64(u16(head, 18))
	f.longLoca = i16(head, 50) == 1
	f.numHMetric = u16(f.tables["hhea"], 34)
	cmap := f.tables["cmap"]
	for i := range u16(cmap, 2) {
		rec := 4 + 8*i
		if u16(cmap, rec) == 3 && u16(cmap, rec+2) == 1 {
			sub := cmap[u32(cmap, rec+4):]
			if u16(sub, 0) == 4 {
				f.cmap = sub
			}
		}
	}
	if f.cmap == nil {
		return nil, errors.New("no Unicode BMP (3, 1, format 4) cmap")
	}
	return f, nil
}

// index maps a rune to its glyph through the format 4 cmap.
func (f *font) index(r rune) int {
	c := f.cmap
	seg := u16(c, 6) / 2
	ends, starts, deltas, ranges := 14, 16+2*seg, 16+4*seg, 16+6*seg
	for i := range seg {
		if int(r) > u16(c, ends+2*i) {
			continue
		}
		if int(r) < u16(c, starts+2*i) {
			return 0
		}
		ro := u16(c, ranges+2*i)
		if ro == 0 {
			return (int(r) + i16(c, deltas+2*i)) & 0xffff
		}
		g := u16(c, ranges+2*i+ro+2*(int(r)-u16(c, starts+2*i)))
		if g == 0 {
			return 0
		}
		return (g + i16(c, deltas+2*i)) & 0xffff
	}
	return 0
}

func (f *font) glyphData(g int) []byte {
	loca := f.tables["loca"]
	var a, b int
	if f.longLoca {
		a, b = u32(loca, 4*g), u32(loca, 4*g+4)
	} else {
		a, b = 2*u16(loca, 2*g), 2*u16(loca, 2*g+2)
	}
	return f.tables["glyf"][a:b]
}

func (f *font) advance(g int) int {
	hmtx := f.tables["hmtx"]
	return u16(hmtx, 4*min(g, f.numHMetric-1))
}

type point struct {
	x, y float64
	on   bool
}

// contours returns the glyph's outlines in font units, composites resolved.
func (f *font) contours(g, depth int) ([][]point, error) {
	d := f.glyphData(g)
	if len(d) == 0 {
		return nil, nil
	}
	if depth > 8 {
		return nil, errors.New("composite glyphs nest too deep")
	}
	nc := i16(d, 0)
	if nc < 0 {
		return f.composite(d[10:], depth)
	}
	ends := make([]int, nc)
	for i := range nc {
		ends[i] = u16(d, 10+2*i)
	}
	p := 10 + 2*nc
	p += 2 + u16(d, p) // instructions
	n := 0
	if nc > 0 {
		n = ends[nc-1] + 1
	}
	flags := make([]byte, 0, n)
	for len(flags) < n {
		fl := d[p]
		p++
		flags = append(flags, fl)
		if fl&8 != 0 {
			rep := int(d[p])
			p++
			for range rep {
				flags = append(flags, fl)
			}
		}
	}
	pts := make([]point, n)
	v := 0
	for i, fl := range flags {
		switch {
		case fl&2 != 0:
			dx := int(d[p])
			p++
			if fl&16 == 0 {
				dx = -dx
			}
			v += dx
		case fl&16 == 0:
			v += i16(d, p)
			p += 2
		}
		pts[i].x, pts[i].on = float64(v), fl&1 != 0
	}
	v = 0
	for i, fl := range flags {
		switch {
		case fl&4 != 0:
			dy := int(d[p])
			p++
			if fl&32 == 0 {
				dy = -dy
			}
			v += dy
		case fl&32 == 0:
			v += i16(d, p)
			p += 2
		}
		pts[i].y = float64(v)
	}
	var out [][]point
	start := 0
	for _, e := range ends {
		out = append(out, pts[start:e+1])
		start = e + 1
	}
	return out, nil
}

// composite places each component glyph by its offset and scale (TrueType glyf flags).
func (f *font) composite(d []byte, depth int) ([][]point, error) {
	var out [][]point
	for p := 0; ; {
		fl, g := u16(d, p), u16(d, p+2)
		p += 4
		var dx, dy float64
		if fl&1 != 0 {
			dx, dy = float64(i16(d, p)), float64(i16(d, p+2))
			p += 4
		} else {
			dx, dy = float64(int8(d[p])), float64(int8(d[p+1]))
			p += 2
		}
		if fl&2 == 0 {
			dx, dy = 0, 0 // point matching: not used by the ideographs this needs
		}
		a, b, c, e := 1.0, 0.0, 0.0, 1.0
		f2 := func(i int) float64 { return float64(i16(d, i)) / 16384 }
		switch {
		case fl&8 != 0:
			a = f2(p)
			e = a
			p += 2
		case fl&0x40 != 0:
			a, e = f2(p), f2(p+2)
			p += 4
		case fl&0x80 != 0:
			a, b, c, e = f2(p), f2(p+2), f2(p+4), f2(p+6)
			p += 8
		}
		cs, err := f.contours(g, depth+1)
		if err != nil {
			return nil, err
		}
		for _, ct := range cs {
			moved := make([]point, len(ct))
			for i, q := range ct {
				moved[i] = point{a*q.x + c*q.y + dx, b*q.x + e*q.y + dy, q.on}
			}
			out = append(out, moved)
		}
		if fl&0x20 == 0 {
			return out, nil
		}
	}
}
