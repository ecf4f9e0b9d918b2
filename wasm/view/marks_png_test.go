package view

import (
	"image"
	"math"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// inkMask is, over a rectangle of img in device pixels, which pixels are nearer the ink
// than the fill.
func inkMask(img *image.RGBA, r image.Rectangle, ink, fill Color) []bool {
	in, bg := toRGBA(ink), toRGBA(fill)
	dist := func(p []uint8, c [3]uint8) float64 {
		return math.Abs(float64(p[0])-float64(c[0])) + math.Abs(float64(p[1])-float64(c[1])) + math.Abs(float64(p[2])-float64(c[2]))
	}
	var out []bool
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			p := img.Pix[img.PixOffset(x, y):]
			out = append(out, dist(p, [3]uint8{in.R, in.G, in.B}) < dist(p, [3]uint8{bg.R, bg.G, bg.B}))
		}
	}
	return out
}

// On the rasterised canvas, at 1 and 2 device pixels per CSS pixel, on a laptop and a phone
// in English and Chinese, each consumer of a group
// mixing clients carries its SDK's mark (J, J4, Go) at the end of its status line, drawn as
// the font draws that text alone on the box's colour, with nothing else over it; the three
// marks are told apart; an all-Java group carries none.
func TestMixedGroupMarksOnThePNG(t *testing.T) {
	cfg := scenario.Presets()["small"].Config
	cfg.Consumers = slices.Clone(cfg.Consumers)
	cfg.Consumers[1].Client, cfg.Consumers[2].Client = "java-4.9", "go-2.1.2"
	mixed := snapshot(t, cfg, 5000)
	plain := presetSnap(t, "small", 5000)
	want := map[string]string{cfg.Consumers[0].ID: "J", cfg.Consumers[1].ID: "J4", cfg.Consumers[2].ID: "Go"}

	for _, v := range []struct {
		k    float64
		size Rect
		lang string
	}{{1, Rect{0, 0, 960, 720}, EN}, {2, Rect{0, 0, 960, 720}, EN}, {1, Rect{0, 0, 375, 560}, ZH}, {2, Rect{0, 0, 375, 560}, ZH}} {
		k := v.k
		for _, s := range []*cluster.Snapshot{&mixed, &plain} {
			l := ComputeZoom(s, v.size, v.lang, 1)
			img := render(Frame{Snap: s, Layout: l, Lang: v.lang, Paused: true}, k)
			masks := map[string][]bool{}
			for _, b := range l.Consumers {
				cv := consumerOf(s, b.ID)
				if cv.Status != cluster.StatusAlive {
					t.Fatalf("%s is %s; the test draws live boxes", b.ID, cv.Status)
				}
				mark := want[b.ID]
				m := l.Marks[b.ID]
				// Where drawConsumer puts the mark, in device pixels: at the end of a tall
				// box's status line.
				if l.ConsumerMode != ConsumerTall {
					t.Fatalf("×%v: consumer boxes in mode %d; the test reads tall ones", k, l.ConsumerMode)
				}
				x0, y0 := b.Right()-TextWidth(mark)-2, b.Y+3+GlyphH
				px := image.Rect(int(math.Floor(x0*k)), int(math.Floor(y0*k)), int(math.Ceil((x0+TextWidth(mark))*k)), int(math.Ceil((y0+GlyphH)*k)))
				got := inkMask(img, px, m.Ink, m.Color)
				inked := 0
				for _, v := range got {
					if v {
						inked++
					}
				}
				// The same text alone on the box's colour.
				var ref Canvas
				face := ref.SetScale(k)
				ref.Rect(LayerMarks, b.Rect, m.Color)
				ref.Text(LayerMarks, x0, y0, mark, m.Ink.Alpha(0.8))
				refImg := image.NewRGBA(img.Rect)
				for layer := range NumLayers {
					for _, me := range ref.Meshes(layer) {
						for i := 0; i+2 < len(me.Indices); i += 3 {
							raster(refImg, me.Vertices[me.Indices[i]], me.Vertices[me.Indices[i+1]], me.Vertices[me.Indices[i+2]], face.W, face.H, face.Pix)
						}
					}
				}
				wantMask := inkMask(refImg, px, m.Ink, m.Color)
				glyph, same := 0, 0
				for i, v := range wantMask {
					if v {
						glyph++
						if got[i] {
							same++
						}
					}
				}
				if s == &plain {
					if same == glyph {
						t.Errorf("×%v all-Java group: %s carries the mark %q", k, b.ID, mark)
					}
					continue
				}
				// Readable: the glyph's strokes are there, several pixels each at ×1, and
				// nothing else (the countdown, the bar) inks its place.
				if glyph < 8*int(k*k) || same != glyph || inked != glyph {
					t.Errorf("×%v %s: mark %q has %d glyph pixels, %d of them drawn, %d inked in its corner", k, b.ID, mark, glyph, same, inked)
				}
				masks[mark] = got
			}
			if s == &mixed {
				for _, pair := range [][2]string{{"J", "J4"}, {"J", "Go"}, {"J4", "Go"}} {
					if slices.Equal(masks[pair[0]], masks[pair[1]]) {
						t.Errorf("×%v: marks %s and %s draw alike", k, pair[0], pair[1])
					}
				}
			}
		}
	}
}

func consumerOf(s *cluster.Snapshot, id string) *cluster.ConsumerView {
	for i := range s.Consumers {
		if s.Consumers[i].ID == id {
			return &s.Consumers[i]
		}
	}
	return nil
}
