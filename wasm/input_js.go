//go:build js && wasm

package main

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"github.com/lbscope/lbscope/wasm/controller"
)

// polled is one Update's reading of the pointer and keyboard.
type polled struct {
	x, y   float64 // the pointer
	over   bool    // the pointer is over the canvas (a mouse; touches do not hover)
	held   bool    // the left button is down during this poll
	events []controller.Event
}

// input turns Ebitengine's polled state into the controller's events. A click acts when the button goes
// down: a press and a release within one tick are lost (polling sees neither), so tests
// press, wait for the held counter, then release.
type input struct {
	chars []rune
	touch []ebiten.TouchID
	out   []controller.Event
}

func (in *input) poll() polled {
	in.out = in.out[:0]
	cx, cy := ebiten.CursorPosition()
	p := polled{x: float64(cx), y: float64(cy), held: ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft)}
	p.over = cx > 0 || cy > 0
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		in.out = append(in.out, controller.Event{Kind: controller.Click, X: p.x, Y: p.y})
	}
	in.touch = inpututil.AppendJustPressedTouchIDs(in.touch[:0])
	for _, id := range in.touch {
		tx, ty := ebiten.TouchPosition(id)
		in.out = append(in.out, controller.Event{Kind: controller.Click, X: float64(tx), Y: float64(ty)})
		p.over = false
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		in.out = append(in.out, controller.Event{Kind: controller.Escape})
	}
	in.chars = ebiten.AppendInputChars(in.chars[:0])
	for _, r := range in.chars {
		in.out = append(in.out, controller.Event{Kind: controller.Key, Rune: r})
	}
	p.events = in.out
	return p
}
