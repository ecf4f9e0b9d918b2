package view

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
)

// Color is a straight-alpha colour with channels in 0…1.
type Color struct{ R, G, B, A float32 }

// RGB is an opaque colour from 8-bit channels.
func RGB(r, g, b uint8) Color { return Color{float32(r) / 255, float32(g) / 255, float32(b) / 255, 1} }

// Hex is c's CSS form, #rrggbb (alpha left out).
func (c Color) Hex() string {
	b := func(v float32) int { return int(math.Round(float64(min(max(v, 0), 1)) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", b(c.R), b(c.G), b(c.B))
}

// Alpha returns c with its opacity multiplied by a.
func (c Color) Alpha(a float32) Color { c.A *= a; return c }

// luminance is the relative luminance (WCAG) of c, ignoring alpha.
func (c Color) luminance() float64 {
	lin := func(v float32) float64 {
		x := float64(v)
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// Palette is the owners' colours on the current theme's canvas (UseTheme): Okabe and Ito's
// colour-blind-safe set, adjusted for the background. Owners take these in order; every owner
// also has a Mark.
var Palette = DarkTheme.Palette

// Colours of the canvas outside the owner palette, for the current theme.
var (
	Background = DarkTheme.Background
	Panel      = DarkTheme.Panel // a broker's block
	PanelDown  = DarkTheme.PanelDown
	Border     = DarkTheme.Border
	TextColor  = DarkTheme.Text
	Dim        = DarkTheme.Dim
	Empty      = DarkTheme.Empty // a queue nobody pulls
	Warn       = DarkTheme.Warn  // overlaps, orphans, down brokers
	Slow       = DarkTheme.Slow  // slow broker's latency label
	Dead       = DarkTheme.Dead
	Tooltip    = DarkTheme.Tooltip
	Highlight  = DarkTheme.Highlight
	Bright     = DarkTheme.Bright // travelling messages, the hover frame: the most visible
	Logged     = DarkTheme.Logged // a queue whose logged owners are not the simulated ones
	Ink        = RGB(0x11, 0x11, 0x11)
	White      = RGB(0xff, 0xff, 0xff)
)

// Theme is a set of canvas colours.
type Theme struct {
	Name                                                string
	Palette                                             [8]Color
	Background, Panel, PanelDown, Border, Text, Dim     Color
	Empty, Warn, Slow, Dead, Tooltip, Highlight, Bright Color
	Logged                                              Color
}

// DarkTheme is the canvas's dark look: Okabe–Ito with its black replaced by a light grey.
var DarkTheme = Theme{
	Name: "dark",
	Palette: [8]Color{
		RGB(0xE6, 0x9F, 0x00), // orange
		RGB(0x56, 0xB4, 0xE9), // sky blue
		RGB(0x00, 0x9E, 0x73), // bluish green
		RGB(0xF0, 0xE4, 0x42), // yellow
		RGB(0x00, 0x72, 0xB2), // blue
		RGB(0xD5, 0x5E, 0x00), // vermillion
		RGB(0xCC, 0x79, 0xA7), // reddish purple
		RGB(0xDD, 0xDD, 0xDD), // light grey (Okabe–Ito's black)
	},
	Background: RGB(0x1b, 0x1d, 0x23),
	Panel:      RGB(0x26, 0x29, 0x31),
	PanelDown:  RGB(0x14, 0x14, 0x17),
	Border:     RGB(0x4a, 0x4f, 0x5c),
	Text:       RGB(0xe6, 0xe6, 0xe6),
	Dim:        RGB(0x8a, 0x8f, 0x9a),
	Empty:      RGB(0x12, 0x13, 0x17),
	Warn:       RGB(0xff, 0x5c, 0x5c),
	Slow:       RGB(0xff, 0xc8, 0x57),
	Dead:       RGB(0x3a, 0x3d, 0x45),
	Tooltip:    RGB(0x0c, 0x0d, 0x10),
	Highlight:  RGB(0x3d, 0x44, 0x55),
	Bright:     RGB(0xff, 0xff, 0xff),
	Logged:     RGB(0xc9, 0xa3, 0xff), // violet: none of the owners' hues, nor the warning's
}

// LightTheme is the canvas on a light page (documentation sites are light by default): the
// same hues, those that would fade into the background darkened to at least 3:1 against it,
// and Okabe–Ito's black as a dark grey.
var LightTheme = Theme{
	Name: "light",
	Palette: [8]Color{
		RGB(0xB8, 0x7A, 0x00), // orange, darkened
		RGB(0x2B, 0x8F, 0xD0), // sky blue, darkened
		RGB(0x00, 0x7A, 0x5A), // bluish green, darkened
		RGB(0x8F, 0x85, 0x00), // yellow, darkened to olive
		RGB(0x23, 0x46, 0x9E), // blue, deepened apart from the sky blue
		RGB(0xCC, 0x4B, 0x00), // vermillion
		RGB(0xA8, 0x44, 0x7F), // reddish purple, darkened
		RGB(0x40, 0x40, 0x40), // dark grey (Okabe–Ito's black)
	},
	Background: RGB(0xf4, 0xf5, 0xf7),
	Panel:      RGB(0xff, 0xff, 0xff),
	PanelDown:  RGB(0xe2, 0xe3, 0xe7),
	Border:     RGB(0xa9, 0xb0, 0xbc),
	Text:       RGB(0x1c, 0x23, 0x30),
	Dim:        RGB(0x5b, 0x65, 0x76),
	Empty:      RGB(0xee, 0xf0, 0xf3),
	Warn:       RGB(0xc8, 0x1e, 0x1e),
	Slow:       RGB(0x9a, 0x5b, 0x00),
	Dead:       RGB(0xc9, 0xcc, 0xd3),
	Tooltip:    RGB(0xff, 0xff, 0xff),
	Highlight:  RGB(0xdd, 0xe4, 0xf0),
	Bright:     RGB(0x1c, 0x23, 0x30),
	Logged:     RGB(0x6a, 0x3d, 0xc8),
}

// UseTheme makes t the canvas's colours (the page's theme=light|dark|auto decides which).
// Call it from the goroutine that lays out and draws, between frames.
func UseTheme(t Theme) {
	Palette = t.Palette
	Background, Panel, PanelDown, Border, TextColor, Dim = t.Background, t.Panel, t.PanelDown, t.Border, t.Text, t.Dim
	Empty, Warn, Slow, Dead, Tooltip, Highlight, Bright = t.Empty, t.Warn, t.Slow, t.Dead, t.Tooltip, t.Highlight, t.Bright
	Logged = t.Logged
	theme = t.Name
}

// theme is the current theme's name.
var theme = DarkTheme.Name

// ThemeName is the current theme's name, "dark" or "light".
func ThemeName() string { return theme }

// ThemeNamed is LightTheme for "light", DarkTheme for anything else.
func ThemeNamed(name string) Theme {
	if name == LightTheme.Name {
		return LightTheme
	}
	return DarkTheme
}

// Shapes drawn on a queue cell too small for its owner's label.
const (
	ShapeNone = iota
	ShapeDot
	ShapeHBar
	ShapeVBar
	ShapeCorner
	ShapeHollow
	ShapeFoot
	ShapeCross
	numShapes
)

// Mark tells one consumer apart from the others by more than colour: a short label drawn on
// its box and on every queue cell it owns, and, where the cell is too small for the label, a
// shape. Consumer i (in natural order of ids) takes colour i mod 8 and shape
// (i mod 8 + i div 8) mod 8, so the first 64 consumers have distinct colour-and-shape pairs
// and, among the first 8, both the colours and the shapes differ.
type Mark struct {
	Index int
	Color Color
	Ink   Color // text and shape colour on Color
	Label string
	// Part is what tells its id apart from the others' (DistinctParts): the id itself when
	// short, "~@4012" for 127.0.0.1@4012 beside 127.0.0.1@4013.
	Part  string
	Shape int
}

// ConsumerOrder returns the consumers' ids in natural order (c2 before c10), the order of
// their boxes and marks, each once (a process that is a member of several groups has an
// entry in each). A restarted consumer keeps its place.
func ConsumerOrder(cs []cluster.ConsumerView) []string {
	ids := make([]string, len(cs))
	for i, c := range cs {
		ids[i] = c.ID
	}
	slices.SortFunc(ids, route.NaturalCompare)
	return slices.Compact(ids)
}

// Marks assigns every consumer its mark. Labels are the ids themselves when all are at most
// three characters (c1 … c64), otherwise 1-based positions in natural order, which the
// consumer's box writes beside the part of its id that tells it apart (ConsumerLabel) and
// the legend beside its whole id.
func Marks(cs []cluster.ConsumerView) map[string]Mark { return marksOf(ConsumerOrder(cs)) }

// marksOf is Marks for the consumers' ids in ConsumerOrder.
func marksOf(ids []string) map[string]Mark {
	short := true
	for _, id := range ids {
		if len(id) > 3 || !isASCII(id) {
			short = false
		}
	}
	out := make(map[string]Mark, len(ids))
	var parts []string
	if !short {
		parts = DistinctParts(ids)
	}
	for i, id := range ids {
		col := Palette[i%len(Palette)]
		m := Mark{Index: i, Color: col, Ink: inkOn(col), Label: id, Part: id, Shape: (i%8 + i/8) % numShapes}
		if parts != nil {
			m.Part = parts[i]
		}
		if !short {
			m.Label = strconv.Itoa(i + 1)
		}
		out[id] = m
	}
	return out
}

// inkOn picks black or white text, whichever contrasts more with bg.
func inkOn(bg Color) Color {
	l := bg.luminance()
	if (l+0.05)/0.05 >= 1.05/(l+0.05) {
		return Ink
	}
	return White
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
