//go:build js && wasm

package main

// What the game reads from the page around the canvas.

import (
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

// canvasElement is the canvas Ebitengine added to the body.
func canvasElement() js.Value {
	return js.Global().Get("document").Call("querySelector", "body > canvas")
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

// watchPage follows what the game reads from the page between its reads: #stage's size, and
// whether the pointer is over the canvas.
func (b *bridge) watchPage() {
	b.pointerIn.Store(true)
	if ro := js.Global().Get("ResizeObserver"); ro.Type() == js.TypeFunction {
		if stage := js.Global().Get("document").Call("getElementById", "stage"); stage.Truthy() {
			ro.New(b.fn("stageResized", func(js.Value, []js.Value) any {
				b.stageMoved.Store(true)
				return nil
			})).Call("observe", stage)
		}
	}
	// Hover: the pointer is over the canvas until it enters another element (the panel) or
	// leaves the window; crossing elements is rare enough to cross into Go for.
	doc := js.Global().Get("document")
	doc.Call("addEventListener", "pointerover", b.fn("pointerover", func(_ js.Value, a []js.Value) any {
		b.pointerIn.Store(a[0].Get("target").Get("tagName").String() == "CANVAS")
		return nil
	}))
	doc.Call("addEventListener", "pointerout", b.fn("pointerout", func(_ js.Value, a []js.Value) any {
		if !a[0].Get("relatedTarget").Truthy() {
			b.pointerIn.Store(false)
		}
		return nil
	}))
}

// setLayout publishes the layout and menu for layout(). Called from Update.
func (b *bridge) setLayout(l *view.Layout, m *view.Menu) {
	b.mu.Lock()
	b.layout, b.menu = l, m
	b.mu.Unlock()
}

func (b *bridge) layoutJS(js.Value, []js.Value) any {
	b.mu.Lock()
	l, m := b.layout, b.menu
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
		snap := b.sess.Snapshot()
		if c := view.ViewCard(view.Frame{Snap: &snap, Layout: l, Menu: m, Lang: b.sess.Lang()}, m.Target); c != nil {
			r := c.Rect.Scale(l.Zoom)
			r.X, r.Y = r.X+canvas.X, r.Y+canvas.Y
			card = &cardBox{Consumer: c.Consumer, Rect: r}
			for _, line := range c.Lines {
				card.Lines = append(card.Lines, line.Text)
			}
		}
	}
	return jsonParse(struct {
		view.HitBoxes
		Canvas view.Rect `json:"canvas"`
		Stage  view.Rect `json:"stage"`
		Card   *cardBox  `json:"card,omitempty"`
	}{hb, canvas, stage, card})
}

// cardBox is a consumer's view card as layout() gives it.
type cardBox struct {
	Consumer string `json:"consumer"`
	view.Rect
	Lines []string `json:"lines"`
}

func (b *bridge) counters(js.Value, []js.Value) any {
	return js.ValueOf(map[string]any{
		"frames": b.g.frames.Load(), "ticks": b.g.ticks.Load(),
		"mouseHeldPolls": b.g.heldPolls.Load(), "clicks": b.g.clicks.Load(),
		"updateMs": float64(b.g.updateUs.Load()) / 1000, "drawMs": float64(b.g.drawUs.Load()) / 1000,
	})
}

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
