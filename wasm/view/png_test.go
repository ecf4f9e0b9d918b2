package view

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// TestRenderPNG rasterises frames in software to PNG files, for looking at the layout without
// a browser: LBSCOPE_VIEW_PNG=/tmp/view go test -run RenderPNG ./wasm/view
func TestRenderPNG(t *testing.T) {
	dir := os.Getenv("LBSCOPE_VIEW_PNG")
	if dir == "" {
		t.Skip("set LBSCOPE_VIEW_PNG to a directory to write PNGs")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range scenario.PresetNames() {
		cfg := scenario.Presets()[name].Config
		cfg.LatencyFault = true
		c, err := cluster.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		c.Advance(20000)
		lat := 2000
		for _, cmd := range []cluster.Command{{Type: "killConsumer", ID: "c1"}, {Type: "partitionConsumer", ID: "c2"},
			{Type: "hangConsumer", ID: "c3"}, {Type: "slowBroker", Broker: "broker-a", LatencyMs: &lat}, {Type: "killBroker", Broker: "broker-b"}} {
			_ = c.Apply(cmd)
		}
		c.Advance(21500)
		s := c.Snapshot()
		type variant struct {
			name  string
			size  Rect
			lang  string
			zoom  float64
			k     float64 // device pixels per CSS pixel
			theme Theme
		}
		var vs []variant
		for _, size := range []Rect{{0, 0, 960, 720}, {0, 0, 375, 560}} {
			for _, lang := range []string{EN, ZH} {
				vs = append(vs, variant{itoa(int(size.W)) + "-" + lang, size, lang, 1, 1, DarkTheme})
			}
		}
		vs = append(vs,
			variant{"1280-present", Rect{0, 0, 1280, 720}, EN, PresentZoom, 1, DarkTheme},
			variant{"375-present", Rect{0, 0, 375, 560}, EN, PresentZoom, 1, DarkTheme},
			variant{"800-present-x2", Rect{0, 0, 800, 480}, EN, PresentZoom, 2, DarkTheme},
			variant{"960-light", Rect{0, 0, 960, 720}, EN, 1, 1, LightTheme},
			variant{"960-en-x2", Rect{0, 0, 960, 720}, EN, 1, 2, DarkTheme},
			variant{"960-zh-x2-light", Rect{0, 0, 960, 720}, ZH, 1, 2, LightTheme})
		for _, v := range vs {
			UseTheme(v.theme)
			l := ComputeZoom(&s, v.size, v.lang, v.zoom)
			hx, hy := l.Cells[3].Center()
			// The menu of the cut-off consumer, open beside its box.
			mx, my := l.Consumers[1].Center()
			img := render(Frame{Snap: &s, Layout: l, Speed: 10, HoverX: hx, HoverY: hy, HoverOK: true, Lang: v.lang, Paused: true,
				Menu: ConsumerMenu(s.Consumers[1], mx, my, l.Bounds, v.lang).Beside(l, l.Bounds)}, v.k*v.zoom)
			UseTheme(DarkTheme)
			f, err := os.Create(filepath.Join(dir, name+"-"+v.name+".png"))
			if err != nil {
				t.Fatal(err)
			}
			if err := png.Encode(f, img); err != nil {
				t.Fatal(err)
			}
			f.Close()
		}
	}
}

// render draws f in software at k device pixels per layout unit, over the background.
func render(f Frame, k float64) *image.RGBA {
	var cv Canvas
	face := cv.SetScale(k)
	Draw(&cv, f)
	b := f.Layout.Bounds
	img := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(b.Right()*k)), int(math.Ceil(b.Bottom()*k))))
	bg := toRGBA(Background)
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = bg.R, bg.G, bg.B, bg.A
	}
	for layer := range NumLayers {
		for _, m := range cv.Meshes(layer) {
			for i := 0; i+2 < len(m.Indices); i += 3 {
				raster(img, m.Vertices[m.Indices[i]], m.Vertices[m.Indices[i+1]], m.Vertices[m.Indices[i+2]], face.W, face.H, face.Pix)
			}
		}
	}
	return img
}

func toRGBA(c Color) color.RGBA {
	return color.RGBA{uint8(c.R*255 + 0.5), uint8(c.G*255 + 0.5), uint8(c.B*255 + 0.5), 0xff}
}

func itoa(n int) string {
	return string([]byte{byte('0' + n/100%10), byte('0' + n/10%10), byte('0' + n%10)})
}

// raster fills one triangle within img's bounds (a sub-image clips it), sampling the atlas at
// the nearest texel (as the GPU does with FilterNearest) and blending premultiplied colour
// over the image.
func raster(img *image.RGBA, a, b, c Vertex, aw, ah int, atlas []byte) {
	minX := int(math.Floor(float64(min(a.X, b.X, c.X))))
	maxX := int(math.Ceil(float64(max(a.X, b.X, c.X))))
	minY := int(math.Floor(float64(min(a.Y, b.Y, c.Y))))
	maxY := int(math.Ceil(float64(max(a.Y, b.Y, c.Y))))
	area := (b.X-a.X)*(c.Y-a.Y) - (c.X-a.X)*(b.Y-a.Y)
	if area == 0 {
		return
	}
	for y := max(minY, img.Rect.Min.Y); y < min(maxY, img.Rect.Max.Y); y++ {
		for x := max(minX, img.Rect.Min.X); x < min(maxX, img.Rect.Max.X); x++ {
			px, py := float32(x)+0.5, float32(y)+0.5
			w0 := ((b.X-px)*(c.Y-py) - (c.X-px)*(b.Y-py)) / area
			w1 := ((c.X-px)*(a.Y-py) - (a.X-px)*(c.Y-py)) / area
			w2 := 1 - w0 - w1
			if w0 < 0 || w1 < 0 || w2 < 0 {
				continue
			}
			sx := int(w0*a.SrcX + w1*b.SrcX + w2*c.SrcX)
			sy := int(w0*a.SrcY + w1*b.SrcY + w2*c.SrcY)
			if sx < 0 || sy < 0 || sx >= aw || sy >= ah {
				continue
			}
			ta := float32(atlas[4*(sy*aw+sx)+3]) / 255
			r, g, bl, al := a.R*ta, a.G*ta, a.B*ta, a.A*ta
			i := img.PixOffset(x, y)
			p := img.Pix[i : i+4]
			p[0] = uint8(math.Min(255, float64(r*255+float32(p[0])*(1-al))))
			p[1] = uint8(math.Min(255, float64(g*255+float32(p[1])*(1-al))))
			p[2] = uint8(math.Min(255, float64(bl*255+float32(p[2])*(1-al))))
			p[3] = 255
		}
	}
}
