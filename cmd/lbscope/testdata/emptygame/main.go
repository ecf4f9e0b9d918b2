//go:build js && wasm

// Command emptygame is the browser benchmark's baseline: an Ebitengine game that only fills
// its screen, so the playground's frame rate can be compared with what Ebitengine alone
// reaches in the same browser. With ?tuned it runs with the playground's settings (no
// screen clear or filter of Ebitengine's own, the canvas's context without antialias and
// depth, no gamepads to poll: wasm/main_js.go, wasm/page_js.go, web/loader.js and run.js),
// the fair baseline for the playground's ratio.
package main

import (
	"image/color"
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
)

type game struct{ frames int }

func (g *game) Update() error { return nil }

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{20, 20, 30, 255})
	g.frames++
	js.Global().Set("emptyGameFrames", g.frames)
}

func (g *game) Layout(w, h int) (int, int) { return w, h }

func main() {
	if strings.Contains(js.Global().Get("location").Get("search").String(), "tuned") {
		ebiten.SetScreenClearedEveryFrame(false)
		ebiten.SetScreenFilterEnabled(false)
		if c := js.Global().Get("document").Call("querySelector", "body > canvas"); c.Truthy() {
			c.Call("getContext", "webgl2", map[string]any{
				"alpha": true, "premultipliedAlpha": true, "stencil": true, "antialias": false, "depth": false})
		}
	}
	ebiten.RunGame(&game{})
}
