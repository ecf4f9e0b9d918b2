//go:build js && wasm

package main

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// Actions the input produces, polled once per Update.
const (
	actClick  = iota // a press of the left button or a touch, at (x, y)
	actKey           // a typed character
	actEscape        // the Escape key
)

type action struct {
	kind int
	x, y float64
	key  rune
}

// polled is one Update's reading of the pointer and keyboard.
type polled struct {
	x, y    float64 // the pointer
	over    bool    // the pointer is over the canvas (a mouse; touches do not hover)
	held    bool    // the left button is down during this poll
	actions []action
}

// input turns Ebitengine's polled state into actions. A click acts when the button goes
// down: a press and a release within one tick are lost (polling sees neither), so tests
// press, wait for the held counter, then release.
type input struct {
	chars []rune
	touch []ebiten.TouchID
	out   []action
}

func (in *input) poll() polled {
	in.out = in.out[:0]
	cx, cy := ebiten.CursorPosition()
	p := polled{x: float64(cx), y: float64(cy), held: ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft)}
	p.over = cx > 0 || cy > 0
	if inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft) {
		in.out = append(in.out, action{kind: actClick, x: p.x, y: p.y})
	}
	in.touch = inpututil.AppendJustPressedTouchIDs(in.touch[:0])
	for _, id := range in.touch {
		tx, ty := ebiten.TouchPosition(id)
		in.out = append(in.out, action{kind: actClick, x: float64(tx), y: float64(ty)})
		p.over = false
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		in.out = append(in.out, action{kind: actEscape})
	}
	in.chars = ebiten.AppendInputChars(in.chars[:0])
	for _, r := range in.chars {
		in.out = append(in.out, action{kind: actKey, key: r})
	}
	p.actions = in.out
	return p
}
