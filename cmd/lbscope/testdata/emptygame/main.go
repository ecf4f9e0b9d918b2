//go:build js && wasm

// Command emptygame is the browser benchmark's baseline: an Ebitengine game that only fills
// its screen, so the playground's frame rate can be compared with what Ebitengine alone
// reaches in the same browser.
package main

import (
	"image/color"
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

func main() { ebiten.RunGame(&game{}) }
