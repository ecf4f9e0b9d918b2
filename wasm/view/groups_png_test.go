package view

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// TestRenderGroupsPNG rasterises each group of the scenario files with several topics or
// groups, for looking at them without a browser:
// LBSCOPE_VIEW_PNG=/tmp/view go test -run RenderGroupsPNG ./wasm/view
func TestRenderGroupsPNG(t *testing.T) {
	dir := os.Getenv("LBSCOPE_VIEW_PNG")
	if dir == "" {
		t.Skip("set LBSCOPE_VIEW_PNG to a directory to write PNGs")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"two-groups", "several-topics", "retry-topic", "different-tags", "retry-ladder", "autoscale-storm", "rolling-strategy", "drain-broker"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "scenarios", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		sc, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		c, err := cluster.New(sc.Config)
		if err != nil {
			t.Fatal(err)
		}
		at := int64(30000)
		if name == "retry-ladder" {
			at = 5 * 3600 * 1000
		}
		for _, st := range sc.Timeline {
			if int64(st.At) <= at {
				c.Advance(int64(st.At))
				_ = c.Apply(st.Command)
			}
		}
		c.Advance(at)
		all := c.Snapshot()
		for _, g := range all.Groups {
			for _, v := range []struct {
				name string
				size Rect
				lang string
				k    float64
			}{{"960-en", Rect{0, 0, 960, 720}, EN, 1}, {"375-zh", Rect{0, 0, 375, 560}, ZH, 2}, {"375-en", Rect{0, 0, 375, 560}, EN, 1}} {
				var p Pick
				s := p.Of(&all, g.Name)
				l := ComputeShown(s, &all, v.size, v.lang, 1)
				hx, hy := 0.0, 0.0
				if len(l.Consumers) > 0 {
					hx, hy = l.Consumers[len(l.Consumers)-1].Center()
				}
				img := render(Frame{Snap: s, All: &all, Layout: l, Speed: 1, HoverX: hx, HoverY: hy, HoverOK: true, Lang: v.lang, Paused: true, Legend: os.Getenv("LEGEND") != ""}, v.k)
				f, err := os.Create(filepath.Join(dir, name+"-"+g.Name+"-"+v.name+".png"))
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
}
