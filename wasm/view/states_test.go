package view

import (
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// A killed consumer's words are drawn on its box's fill, clear of the cross over it: on the
// rasterised canvas, in both themes, no pixel of the warning colour lies between the lines
// of its id and its status.
func TestKilledConsumerReadsOverItsCross(t *testing.T) {
	defer UseTheme(DarkTheme)
	c, err := cluster.New(scenario.Presets()["default"].Config)
	if err != nil {
		t.Fatal(err)
	}
	c.Advance(20000)
	if err := c.Apply(cluster.Command{Type: "killConsumer", ID: "c1"}); err != nil {
		t.Fatal(err)
	}
	c.Advance(21000)
	s := c.Snapshot()
	for _, th := range []Theme{DarkTheme, LightTheme} {
		UseTheme(th)
		for _, lang := range []string{EN, ZH} {
			l := ComputeLang(&s, Rect{0, 0, 960, 600}, lang)
			b, ok := l.Consumer("c1")
			if !ok || l.ConsumerMode != ConsumerTall {
				t.Fatalf("c1's box %+v in mode %d; the test reads a tall one", b, l.ConsumerMode)
			}
			img := render(Frame{Snap: &s, Layout: l, Speed: 1, Lang: lang, Paused: true}, 2)
			want := toRGBA(Warn)
			cross, inWords := 0, 0
			for _, line := range []string{"c1", StatusTextIn(lang, cluster.StatusKilled)} {
				w := TextWidth(line)
				y0 := b.Y + 3
				if line != "c1" {
					y0 += GlyphH
				}
				x0 := b.X + (b.W-w)/2
				for y := int(y0*2) + 1; y < int((y0+GlyphH)*2)-1; y++ {
					for x := int(x0*2) + 1; x < int((x0+w)*2)-1; x++ {
						if p := img.RGBAAt(x, y); near(p.R, want.R) && near(p.G, want.G) && near(p.B, want.B) {
							inWords++
						}
					}
				}
			}
			for y := int(b.Y * 2); y < int(b.Bottom()*2); y++ {
				for x := int(b.X * 2); x < int(b.Right()*2); x++ {
					if p := img.RGBAAt(x, y); near(p.R, want.R) && near(p.G, want.G) && near(p.B, want.B) {
						cross++
					}
				}
			}
			if cross < 50 || inWords > 0 {
				t.Errorf("%s %s: %d warning pixels on the killed box, %d of them under its words", th.Name, lang, cross, inWords)
			}
		}
	}
}
