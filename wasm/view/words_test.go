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
	// The outline file holds printable ASCII and exactly the words' Chinese runes.
	var have []rune
	for _, g := range outlines().Glyphs {
		if g.Rune > 0x7e {
			have = append(have, g.Rune)
		}
	}
	if got := ChineseRunes(); !slices.Equal(got, have) {
		t.Errorf("glyphs.bin holds %d Chinese glyphs, the words use %d runes: run go run ./scripts/glyphs", len(have), len(got))
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
		if strings.HasPrefix(key, "command.") || strings.HasPrefix(key, "canvas.legend.") {
			// The product's own terms, as the panel writes them.
			zh = strings.NewReplacer("Broker", "", "Proxy", "").Replace(zh)
		}
		zh = strings.ReplaceAll(zh, "POP", "")  // RocketMQ's name of the mode (mqadmin setConsumeMode -m POP)
		zh = strings.ReplaceAll(zh, "gRPC", "") // the protocol RocketMQ 5's clients speak
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
		return c.VertexCount()
	}
	full, reduced := count(false), count(true)
	if want := full - 4*min(len(s.Sends), MaxMessages); reduced > want {
		t.Errorf("reduced motion draws %d vertices; want at most %d (no message dots)", reduced, want)
	}
	var a Animator
	a.Reduced = true
	a.Observe(&s, 0)
	if from, t1 := a.From("broker-a:0", "c1", 10); from != "c1" || t1 != 1 {
		t.Errorf("reduced animator slides: %s %g", from, t1)
	}
}
