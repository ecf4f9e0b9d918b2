package view

import (
	"math"
	"strconv"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

func contrast(a, b Color) float64 {
	la, lb := a.luminance(), b.luminance()
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// deltaE is the CIE76 distance of two colours in CIELAB (D65): about 2.3 is a just
// noticeable difference; 20 and more tells two colours apart at a glance.
func deltaE(a, b Color) float64 {
	lab := func(c Color) [3]float64 {
		lin := func(v float32) float64 {
			x := float64(v)
			if x <= 0.04045 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		r, g, bl := lin(c.R), lin(c.G), lin(c.B)
		x := (0.4124*r + 0.3576*g + 0.1805*bl) / 0.95047
		y := 0.2126*r + 0.7152*g + 0.0722*bl
		z := (0.0193*r + 0.1192*g + 0.9505*bl) / 1.08883
		f := func(t float64) float64 {
			if t > 0.008856 {
				return math.Cbrt(t)
			}
			return 7.787*t + 16.0/116
		}
		return [3]float64{116*f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))}
	}
	p, q := lab(a), lab(b)
	return math.Sqrt((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
}

// On both canvases every owner colour stands out from the background and from the empty
// cell (WCAG's 3:1 for graphics), its label ink is readable on it (4.5:1, WCAG's body
// text), the colours differ from each other at a glance, and the words contrast with the
// background and the panels.
func TestThemeContrast(t *testing.T) {
	for _, th := range []Theme{DarkTheme, LightTheme} {
		for i, c := range th.Palette {
			if r := contrast(c, th.Background); r < 3 {
				t.Errorf("%s: owner colour %d has %.2f:1 against the background; want 3:1", th.Name, i, r)
			}
			if r := contrast(c, th.Empty); r < 3 {
				t.Errorf("%s: owner colour %d has %.2f:1 against an empty cell; want 3:1", th.Name, i, r)
			}
			if r := contrast(inkOn(c), c); r < 4.5 {
				t.Errorf("%s: the label ink on owner colour %d has %.2f:1; want 4.5:1", th.Name, i, r)
			}
			for j, d := range th.Palette[i+1:] {
				if e := deltaE(c, d); e < 20 {
					t.Errorf("%s: owner colours %d and %d are %.1f apart (CIE76); want 20", th.Name, i, i+1+j, e)
				}
			}
		}
		for name, c := range map[string]Color{"text": th.Text, "slow": th.Slow, "warn": th.Warn, "logged": th.Logged} {
			for bgName, bg := range map[string]Color{"background": th.Background, "panel": th.Panel, "tooltip": th.Tooltip} {
				if r := contrast(c, bg); r < 4.5 {
					t.Errorf("%s: %s on the %s has %.2f:1; want 4.5:1", th.Name, name, bgName, r)
				}
			}
		}
		// A consumer's box in every status, for every owner colour: its words (id and status
		// line) at 4.5:1 on its fill, drawn over the background (a killed one's on strips of
		// the fill over its cross); its frame and its marks (the cross, the pause bars of a hung one) at
		// 3:1 against the background and the fill, so a killed, stopped, hung or cut-off
		// consumer reads at a glance.
		UseTheme(th)
		for i := range th.Palette {
			for _, st := range []string{cluster.StatusAlive, cluster.StatusIdle, cluster.StatusKilled, cluster.StatusStopped, cluster.StatusPartitioned, cluster.StatusHung} {
				m := marksOf([]string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8"})["c"+strconv.Itoa(i+1)]
				look := ConsumerLookOf(st, m)
				fill := over(look.Fill, th.Background)
				for name, ink := range map[string]Color{"id": look.Ink, "status": look.Status} {
					if r := contrast(ink, fill); r < 4.5 {
						t.Errorf("%s: a %s consumer's %s on colour %d has %.2f:1; want 4.5:1", th.Name, st, name, i, r)
					}
				}
				if r := contrast(look.Border, th.Background); r < 3 {
					t.Errorf("%s: a %s consumer's frame on colour %d has %.2f:1 against the background; want 3:1", th.Name, st, i, r)
				}
				if r := contrast(over(look.Mark, fill), fill); r < 3 {
					t.Errorf("%s: a %s consumer's marks on colour %d have %.2f:1; want 3:1", th.Name, st, i, r)
				}
			}
		}
		UseTheme(DarkTheme)
		// The killed one's frame tells it from a stopped one's.
		if k, s := ConsumerLookOf(cluster.StatusKilled, Mark{}), ConsumerLookOf(cluster.StatusStopped, Mark{}); k.Border == s.Border {
			t.Errorf("%s: killed and stopped consumers share their frame", th.Name)
		}
		if r := contrast(th.Dim, th.Background); r < 3 {
			t.Errorf("%s: dim text has %.2f:1 against the background", th.Name, r)
		}
		if r := contrast(th.Bright, th.Background); r < 7 {
			t.Errorf("%s: messages and the hover frame have %.2f:1 against the background", th.Name, r)
		}
	}
}

// UseTheme switches every colour the drawing reads, marks included; the dark theme is the
// default.
func TestUseTheme(t *testing.T) {
	defer UseTheme(DarkTheme)
	if ThemeName() != "dark" || Background != DarkTheme.Background {
		t.Fatal("the canvas does not start dark")
	}
	s := presetSnap(t, "small", 5000)
	UseTheme(ThemeNamed("light"))
	if ThemeName() != "light" || Background != LightTheme.Background || TextColor != LightTheme.Text || Palette != LightTheme.Palette {
		t.Error("UseTheme(light) left dark colours")
	}
	if m := Marks(s.Consumers)["c1"]; m.Color != LightTheme.Palette[0] {
		t.Errorf("c1's mark is %v on the light canvas", m.Color)
	}
	l := Compute(&s, sizes[0])
	img := render(Frame{Snap: &s, Layout: l, Speed: 1}, 1)
	if got := img.RGBAAt(1, 1); got != toRGBA(LightTheme.Background) {
		t.Errorf("the light canvas's corner is %v", got)
	}
	UseTheme(ThemeNamed("anything else"))
	if ThemeName() != "dark" {
		t.Error("an unknown theme is not dark")
	}
}
