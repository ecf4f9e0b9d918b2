//go:build js && wasm

// Command wasm is the browser playground: the simulation drawn with Ebitengine, driven by
// the page through window.lbscope (bridge_js.go).
package main

import (
	"fmt"
	"runtime/debug"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/lbscope/lbscope/wasm/session"
)

func main() {
	mark("lbscope:main")
	sess := session.NewDefault()
	g := newGame(sess)
	g.bridge = installBridge(sess, g)

	ebiten.SetWindowTitle("LBScope")
	ebiten.SetRunnableOnUnfocused(true) // the panel's controls take focus; the simulation goes on
	// Draw fills the whole screen itself, and the canvas is never scaled: skip Ebitengine's
	// own clear and its screen filter, two full-screen passes a software GPU pays for.
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetScreenFilterEnabled(false)
	mark("lbscope:run-game")
	err := run(g)
	if err == nil {
		err = fmt.Errorf("the game loop ended")
	}
	g.bridge.stop(err.Error())
	// Stay alive: the bridge keeps answering (dispatch with an error, state with the last
	// snapshot) instead of throwing "Go program has already exited".
	select {}
}

// run runs the game loop, turning a panic outside Update and Draw into an error.
func run(g *game) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{})
}
