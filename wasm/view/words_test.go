package view

import (
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/words"
)

// A Chinese word whose runes have no glyph would draw as '?': the generated glyphs must be
// regenerated (go run ./scripts/glyphs) whenever a word changes.
func TestChineseGlyphs(t *testing.T) {
	for _, key := range canvasKeys() {
		zh := words.Word(ZH, key)
		for _, r := range zh {
			if !HasGlyph(r) {
				t.Errorf("word %s (%q) uses %q, which has no glyph: run go run ./scripts/glyphs", key, zh, r)
			}
		}
	}
	if !slices.IsSorted(cjkRunes) || len(cjkMasks) != len(cjkRunes)*CJKW*GlyphH {
		t.Fatalf("glyphs_zh.go is malformed: %d runes, %d mask bytes", len(cjkRunes), len(cjkMasks))
	}
	if got := ChineseRunes(); !slices.Equal(got, cjkRunes) {
		t.Errorf("the atlas holds %d glyphs, the words use %d runes: run go run ./scripts/glyphs", len(cjkRunes), len(got))
	}
}

func TestChineseInTheAtlas(t *testing.T) {
	w, h, pix := Atlas()
	if w != AtlasW || len(pix) != 4*w*h {
		t.Fatalf("atlas %dx%d, %d bytes", w, h, len(pix))
	}
	for i, r := range cjkRunes {
		src := cjkSrc(i)
		if src.Right() > float64(w) || src.Bottom() > float64(h) || src.X < GlyphW+4 {
			t.Fatalf("glyph %q at %+v leaves the atlas or covers ASCII", r, src)
		}
		ink := 0
		for y := int(src.Y); y < int(src.Bottom()); y++ {
			for x := int(src.X); x < int(src.Right()); x++ {
				if pix[4*(y*w+x)+3] > 0x80 {
					ink++
				}
			}
		}
		if ink < 3 {
			t.Errorf("glyph %q has %d inked texels", r, ink)
		}
	}
}

func TestMixedText(t *testing.T) {
	// Two ASCII advances, a space, three ideographs; the last one's trailing gap not counted.
	if got, want := TextWidth("c1 已终止"), float64(3*Advance+3*CJKAdvance-(CJKAdvance-CJKW)); got != want {
		t.Errorf("TextWidth = %g; want %g", got, want)
	}
	var c Canvas
	c.Text(LayerMarks, 10, 20, "c1 已终止", White)
	vs := c.Meshes(LayerMarks)[0].Vertices
	if len(vs) != 5*4 {
		t.Fatalf("%d vertices; want 4 for each of the 5 inked glyphs", len(vs))
	}
	// The ideographs start after "c1 " and follow each other by CJKAdvance, on the same line.
	for i, x := range []float32{10, 10 + Advance, 10 + 3*Advance, 10 + 3*Advance + CJKAdvance, 10 + 3*Advance + 2*CJKAdvance} {
		q := vs[4*i:]
		if q[0].X != x || q[0].Y != 20 || q[2].Y != 20+GlyphH {
			t.Errorf("glyph %d at (%g, %g)-(%g); want x %g, rows 20…%d", i, q[0].X, q[0].Y, q[2].Y, x, 20+GlyphH)
		}
		if wantW := float32(GlyphW); i >= 2 {
			wantW = CJKW
			if q[1].X-q[0].X != wantW || q[0].SrcX < cjkX {
				t.Errorf("ideograph %d drawn %g wide from atlas x %g", i, q[1].X-q[0].X, q[0].SrcX)
			}
		}
	}
	// A rune outside the table draws as '?'.
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

func TestCanvasWordsInChinese(t *testing.T) {
	s := presetSnap(t, "small", 5000)
	f := Frame{Snap: &s, Lang: ZH}
	if got := TooltipLines(f, HitQueue, "broker-a:0"); len(got) != 3 || got[1] != "由 c1 拉取" || !strings.HasPrefix(got[2], "积压 ") {
		t.Errorf("queue tooltip %q", got)
	}
	if got := TooltipLines(f, HitConsumer, "c1"); len(got) != 3 || got[0] != "c1 运行中" || !strings.HasPrefix(got[1], "3 个队列") {
		t.Errorf("consumer tooltip %q", got)
	}
	if got := TooltipLines(f, HitBroker, "broker-b"); got[0] != "broker-b 正常" {
		t.Errorf("broker tooltip %q", got)
	}
	m := ConsumerMenu(cluster.ConsumerView{ID: "c2", Status: cluster.StatusPartitioned}, 10, 10, sizes[2], ZH)
	if m.Title != "c2 断网" || m.Items[0].Label != "恢复网络" || m.Items[0].Key != "healConsumer" {
		t.Errorf("consumer menu %q %+v", m.Title, m.Items)
	}
	b := BrokerMenu(cluster.BrokerView{Name: "broker-a", Down: true, LatencyMs: 100}, 370, 660, sizes[2], ZH)
	if b.Title != "broker-a 宕机" || b.Items[1].Label != "* 变慢 100 毫秒" || b.Items[5].Key != "restoreBroker" {
		t.Errorf("broker menu %q %+v", b.Title, b.Items)
	}
	for _, menu := range []*Menu{m, b} {
		if !menu.Within(sizes[2]) {
			t.Errorf("menu %q leaves the phone's canvas: %+v", menu.Title, menu.Rect)
		}
		for _, it := range menu.Items {
			if TextWidth(it.Label)+2*menuPad > menu.W {
				t.Errorf("item %q is wider than its menu", it.Label)
			}
		}
	}
	if DurationIn(ZH, 30000) != "30秒" || DurationIn(ZH, 550) != "550毫秒" || Duration(30000) != "30s" {
		t.Error("DurationIn")
	}
	// Every word of the table, formatted, stays within the English grid's line height and
	// uses no rune without a glyph: checked above; here no ASCII letters are left in Chinese
	// words but units and the ids the formats fill in.
	for _, key := range canvasKeys() {
		zh := words.Word(ZH, key)
		if strings.HasPrefix(key, "command.") {
			zh = strings.ReplaceAll(zh, "Broker", "") // the product's own term, as the panel writes it
		}
		for _, r := range strings.NewReplacer("%d", "", "%s", "", "%.1f", "").Replace(zh) {
			if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				t.Errorf("Chinese word %s = %q keeps English", key, zh)
				break
			}
		}
	}
}

// With reduced motion nothing travels: the producer's message dots are not drawn.
func TestReducedMotion(t *testing.T) {
	s := presetSnap(t, "small", 5000)
	if len(s.Sends) == 0 {
		t.Fatal("no messages on their way to draw")
	}
	l := Compute(&s, sizes[0])
	count := func(reduced bool) int {
		var c Canvas
		Draw(&c, Frame{Snap: &s, Layout: l, Speed: 1, Reduced: reduced})
		n := 0
		for _, m := range c.Meshes(LayerLines) {
			n += len(m.Vertices)
		}
		return n
	}
	full, reduced := count(false), count(true)
	if want := full - 4*min(len(s.Sends), MaxMessages); reduced > want {
		t.Errorf("reduced motion draws %d line-layer vertices; want at most %d (no message dots)", reduced, want)
	}
	var a Animator
	a.Reduced = true
	a.Observe(&s, 0)
	if from, t1 := a.From("broker-a:0", "c1", 10); from != "c1" || t1 != 1 {
		t.Errorf("reduced animator slides: %s %g", from, t1)
	}
}
