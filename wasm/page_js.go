//go:build js && wasm

package main

// What the game reads from the page around the canvas.

import (
	"runtime/metrics"
	"strings"
	"syscall/js"

	"github.com/lbscope/lbscope/wasm/view"
)

// mark records a performance mark (visible in the browser's performance tools) and returns
// its time since navigation start, in milliseconds.
func mark(name string) float64 {
	perf := js.Global().Get("performance")
	if perf.IsUndefined() {
		return 0
	}
	perf.Call("mark", name)
	return perf.Call("now").Float()
}

// frameGate is web/loader.js's lbscopeFrameGate (undefined on a page without it): it holds
// the animation frame Ebitengine's loop asks for while the game is idle, so that an idle
// playground costs the browser no frames at all, not even empty ones.
var frameGate = js.Global().Get("lbscopeFrameGate")

// holdFrames holds Ebitengine's next animation frame until releaseFrames.
func holdFrames() {
	if frameGate.Type() == js.TypeObject && !frameGate.Get("idle").Bool() {
		frameGate.Set("idle", true)
	}
}

// releaseFrames lets Ebitengine's loop run again, with the frame it asked for meanwhile.
func releaseFrames() {
	if frameGate.Type() == js.TypeObject && (frameGate.Get("idle").Bool() || frameGate.Get("parked").Truthy()) {
		frameGate.Call("release")
	}
}

// canvasElement is the canvas Ebitengine added to the body.
func canvasElement() js.Value {
	return js.Global().Get("document").Call("querySelector", "body > canvas")
}

// createContext asks for the canvas's WebGL2 context before Ebitengine does, with the
// attributes it asks for (alpha, premultipliedAlpha, stencil) and antialias and depth off:
// a later getContext("webgl2") returns this context whatever it asks. Ebitengine leaves
// them at the browser's default, on, though it draws into its own textures and only copies
// the finished screen to the canvas, which a multisampled drawing buffer cannot smooth and
// which uses no depth. A software GPU pays for both on every frame: in headless Chromium
// with SwiftShader, an empty Ebitengine game runs 1.5 to 3 times as many frames without
// them (scripts/bench-browser.sh measures it, its "tuned" baseline).
func createContext() {
	if c := canvasElement(); c.Truthy() {
		c.Call("getContext", "webgl2", map[string]any{
			"alpha": true, "premultipliedAlpha": true, "stencil": true, "antialias": false, "depth": false})
	}
}

// stageRect is the page's #stage element in viewport coordinates, where the playground
// draws; the canvas itself covers the whole viewport behind the panel.
func stageRect() (view.Rect, bool) {
	el := js.Global().Get("document").Call("getElementById", "stage")
	if !el.Truthy() {
		return view.Rect{}, false
	}
	r := el.Call("getBoundingClientRect")
	out := view.Rect{X: r.Get("left").Float(), Y: r.Get("top").Float(), W: r.Get("width").Float(), H: r.Get("height").Float()}
	if c := canvasElement(); c.Truthy() {
		cr := c.Call("getBoundingClientRect")
		out.X -= cr.Get("left").Float()
		out.Y -= cr.Get("top").Float()
	}
	return out, out.W > 0 && out.H > 0
}

// prefersReducedMotion reads the user's motion preference.
func prefersReducedMotion() bool {
	mm := js.Global().Get("matchMedia")
	if mm.Type() != js.TypeFunction {
		return false
	}
	return js.Global().Call("matchMedia", "(prefers-reduced-motion: reduce)").Get("matches").Truthy()
}

// showHelp asks the page to toggle its help overlay.
func showHelp() {
	if f := js.Global().Get("lbscopeHelp"); f.Type() == js.TypeFunction {
		f.Invoke()
	}
}

// watchPage follows what the game reads from the page between its reads: #stage's size,
// <html>'s theme and presenter mode, the motion preference, whether the pointer is over the
// canvas, and whether the canvas can be seen at all (the tab shown, the embed scrolled into
// view). Each change wakes the game loop, which runs only when asked while paused (pace).
func (b *bridge) watchPage() {
	b.pointerIn.Store(true)
	global, doc := js.Global(), js.Global().Get("document")
	moved := b.fn("stageChanged", func(js.Value, []js.Value) any {
		b.stageMoved.Store(true)
		wake()
		return nil
	})
	if ro := global.Get("ResizeObserver"); ro.Type() == js.TypeFunction {
		if stage := doc.Call("getElementById", "stage"); stage.Truthy() {
			ro.New(moved).Call("observe", stage)
		}
	}
	// The canvas is fixed to the viewport: a scroll moves #stage on it without resizing it.
	global.Call("addEventListener", "scroll", moved, map[string]any{"passive": true})
	// theme.js and the presenter button set data-theme and data-present on <html>.
	if mo := global.Get("MutationObserver"); mo.Type() == js.TypeFunction {
		mo.New(moved).Call("observe", doc.Get("documentElement"), map[string]any{
			"attributes": true, "attributeFilter": []any{"data-theme", "data-present", "data-legend", "data-group"}})
	}
	if mm := global.Get("matchMedia"); mm.Type() == js.TypeFunction {
		q := global.Call("matchMedia", "(prefers-reduced-motion: reduce)")
		if q.Get("addEventListener").Type() == js.TypeFunction {
			q.Call("addEventListener", "change", moved)
		}
	}
	// Hover: the pointer is over the canvas until it enters another element (the panel) or
	// leaves the window; crossing elements is rare enough to cross into Go for.
	doc.Call("addEventListener", "pointerover", b.fn("pointerover", func(_ js.Value, a []js.Value) any {
		b.pointerIn.Store(a[0].Get("target").Get("tagName").String() == "CANVAS")
		wake()
		return nil
	}))
	doc.Call("addEventListener", "pointerout", b.fn("pointerout", func(_ js.Value, a []js.Value) any {
		if !a[0].Get("relatedTarget").Truthy() {
			b.pointerIn.Store(false)
			wake()
		}
		return nil
	}))
	// Nobody can see the canvas: a hidden tab, or an embed scrolled out of its reader's view
	// (an IntersectionObserver without a root measures against the top-level viewport, through
	// the iframe). Time stops there and runs on when it is seen again.
	b.hidden.Store(doc.Get("hidden").Truthy())
	doc.Call("addEventListener", "visibilitychange", b.fn("visibilitychange", func(js.Value, []js.Value) any {
		b.hidden.Store(doc.Get("hidden").Truthy())
		wake()
		return nil
	}))
	if io := global.Get("IntersectionObserver"); io.Type() == js.TypeFunction {
		target := canvasElement()
		if !target.Truthy() {
			target = doc.Get("body")
		}
		if target.Truthy() {
			io.New(b.fn("intersection", func(_ js.Value, a []js.Value) any {
				entries := a[0]
				last := entries.Index(entries.Length() - 1)
				b.offscreen.Store(!last.Get("isIntersecting").Truthy())
				wake()
				return nil
			})).Call("observe", target)
		}
	}
}

// shown reports whether anyone can see the canvas (watchPage).
func (b *bridge) shown() bool { return !b.hidden.Load() && !b.offscreen.Load() }

// setLayout publishes the layout, the menu and the pointer's place (ok: over the canvas) for
// layout(). Called from Update.
func (b *bridge) setLayout(l *view.Layout, m *view.Menu, x, y float64, ok bool) {
	b.mu.Lock()
	b.layout, b.menu, b.hover, b.hoverOK = l, m, [2]float64{x, y}, ok
	b.mu.Unlock()
}

func (b *bridge) layoutJS(js.Value, []js.Value) any {
	b.mu.Lock()
	l, m, hover, hoverOK := b.layout, b.menu, b.hover, b.hoverOK
	b.mu.Unlock()
	if l == nil {
		return js.Null()
	}
	hb := l.Boxes(m)
	// Boxes are in CSS pixels (the layout's units times its zoom); add the canvas's
	// offset so the boxes are in the viewport's coordinates, where a test clicks.
	canvas := view.Rect{W: hb.Width, H: hb.Height}
	if c := canvasElement(); c.Truthy() {
		r := c.Call("getBoundingClientRect")
		canvas = view.Rect{X: r.Get("left").Float(), Y: r.Get("top").Float(), W: r.Get("width").Float(), H: r.Get("height").Float()}
	}
	hb.Shift(canvas.X, canvas.Y)
	stage := l.Bounds.Scale(l.Zoom) // CSS pixels
	stage.X, stage.Y = stage.X+canvas.X, stage.Y+canvas.Y
	// The view card the open consumer menu shows beside it, in the same coordinates.
	var card *cardBox
	if m != nil && m.Kind == view.HitConsumer {
		all := b.sess.Snapshot()
		snap := view.Project(&all, l.Group)
		if c := view.ViewCard(view.Frame{Snap: &snap, All: &all, Layout: l, Menu: m, Lang: b.sess.Lang()}, m.Target); c != nil {
			r := c.Rect.Scale(l.Zoom)
			r.X, r.Y = r.X+canvas.X, r.Y+canvas.Y
			card = &cardBox{Consumer: c.Consumer, Rect: r}
			for _, line := range c.Lines {
				card.Lines = append(card.Lines, line.Text)
			}
		}
	}
	// The legend, where it shows.
	var legend *legendBox
	if b.g.legend.Load() {
		all := b.sess.Snapshot()
		snap := view.Project(&all, l.Group)
		if lg := view.LegendCard(view.Frame{Snap: &snap, All: &all, Layout: l, Lang: b.sess.Lang(), Speed: b.sess.State().Speed}); lg != nil {
			r := lg.Rect.Scale(l.Zoom)
			r.X, r.Y = r.X+canvas.X, r.Y+canvas.Y
			legend = &legendBox{Rect: r}
			for _, row := range lg.Rows {
				legend.Lines = append(legend.Lines, strings.Join(row.Lines, " "))
			}
		}
	}
	// The hover card of the queue, broker or producer under the pointer: its lines.
	var tip *tipBox
	if hoverOK && m == nil {
		if kind, id := l.HitTest(hover[0], hover[1]); kind != "" && kind != view.HitConsumer && kind != view.HitLegend && kind != view.HitGroup {
			all := b.sess.Snapshot()
			snap := view.Project(&all, l.Group)
			f := view.Frame{Snap: &snap, All: &all, Layout: l, Lang: b.sess.Lang(), Observed: b.sess.Observed()}
			tip = &tipBox{Kind: kind, ID: id, Lines: view.TooltipLines(f, kind, id)}
		}
	}
	return jsonParse(struct {
		view.HitBoxes
		Canvas  view.Rect  `json:"canvas"`
		Stage   view.Rect  `json:"stage"`
		Card    *cardBox   `json:"card,omitempty"`
		Legend  *legendBox `json:"legend,omitempty"`
		Tooltip *tipBox    `json:"tooltip,omitempty"`
	}{hb, canvas, stage, card, legend, tip})
}

// tipBox is the hover card of what the pointer is over, as layout() gives it.
type tipBox struct {
	Kind  string   `json:"kind"`
	ID    string   `json:"id"`
	Lines []string `json:"lines"`
}

// legendBox is the canvas's legend as layout() gives it: where it is and its rows' words.
type legendBox struct {
	view.Rect
	Lines []string `json:"lines"`
}

// cardBox is a consumer's view card as layout() gives it.
type cardBox struct {
	Consumer string `json:"consumer"`
	view.Rect
	Lines []string `json:"lines"`
}

func (b *bridge) counters(js.Value, []js.Value) any {
	metrics.Read(gcSample[:])
	return js.ValueOf(map[string]any{
		"frames": b.g.frames.Load(), "ticks": b.g.ticks.Load(),
		"mouseHeldPolls": b.g.heldPolls.Load(), "clicks": b.g.clicks.Load(),
		"updateMs": float64(b.g.updateUs.Load()) / 1000, "drawMs": float64(b.g.drawUs.Load()) / 1000,
		"running":    b.g.runningNow.Load(),
		"fullFrames": b.g.fullFrames.Load(), "partialFrames": b.g.partFrames.Load(),
		"drawnShare": float64(b.g.drawnPpm.Load()) / 1e6,
		"gcCycles":   gcSample[0].Value.Uint64(), "gcMs": gcSample[1].Value.Float64() * 1000,
		"heapLiveMB": float64(gcSample[2].Value.Uint64()) / 1e6,
	})
}

// gcSample is what counters() reads of the garbage collector: its cycles, the time it took
// (an estimate the runtime keeps) and the heap that the last cycle found live.
var gcSample = [...]metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/gc/heap/live:bytes"}}

// pageLook reads the theme and presenter mode the page asks for, from <html>'s data-theme
// ("light" or "dark", set by web/theme.js with auto resolved) and data-present ("1").
func pageLook() look {
	ds := js.Global().Get("document").Get("documentElement").Get("dataset")
	lk := look{theme: view.DarkTheme.Name}
	if t := ds.Get("theme"); t.Type() == js.TypeString && t.String() == view.LightTheme.Name {
		lk.theme = view.LightTheme.Name
	}
	if p := ds.Get("present"); p.Type() == js.TypeString && p.String() == "1" {
		lk.present = true
	}
	return lk
}

// pageLegend reads whether the page asks for the canvas's legend: <html>'s data-legend
// ("1"), which the panel's Legend button, ?legend=1 and toggleLegend set.
func pageLegend() bool {
	l := js.Global().Get("document").Get("documentElement").Get("dataset").Get("legend")
	return l.Type() == js.TypeString && l.String() == "1"
}

// toggleLegend shows or hides the legend (the l key, the header's button) on <html>, where
// the page's button sees it, and returns whether it shows now.
func toggleLegend() bool {
	ds := js.Global().Get("document").Get("documentElement").Get("dataset")
	if pageLegend() {
		ds.Delete("legend")
		return false
	}
	ds.Set("legend", "1")
	return true
}

// pageGroup reads the group the page asks the canvas to show, in a run with several topics
// or groups: <html>'s data-group, which the panel's group choice sets ("": the first).
func pageGroup() string {
	g := js.Global().Get("document").Get("documentElement").Get("dataset").Get("group")
	if g.Type() != js.TypeString {
		return ""
	}
	return g.String()
}

// setPageGroup shows group (a click on its tab, the g key) on <html>, where the panel's
// group choice sees it.
func setPageGroup(group string) {
	js.Global().Get("document").Get("documentElement").Get("dataset").Set("group", group)
}

// togglePresent switches presenter mode (the p key): through the page's lbscopePresent,
// which also updates its button, or on <html> directly.
func togglePresent() {
	if f := js.Global().Get("lbscopePresent"); f.Type() == js.TypeFunction {
		f.Invoke()
		return
	}
	ds := js.Global().Get("document").Get("documentElement").Get("dataset")
	if p := ds.Get("present"); p.Type() == js.TypeString && p.String() == "1" {
		ds.Delete("present")
	} else {
		ds.Set("present", "1")
	}
}
