//go:build js && wasm

// Command wasm is the browser playground: the simulation drawn with Ebitengine, driven by
// the page through window.lbscope (bridge_js.go).
package main

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
)

func main() {
	mark("lbscope:main")
	// The collector runs on the page's only thread, and with the large preset (a live heap
	// of about 11 MB) a cycle takes about 10 ms there: at the default GOGC of 100, two or
	// three cycles a second cost about 1 ms of every frame at 10×; at 400, a tenth of that
	// (counters().gcMs, measured in the page). The limit keeps a big scenario's heap in
	// bounds: past it, cycles come as often as they need.
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(gcMemoryLimit)
	sess := session.NewDefault()
	linkErr := openFromURL(sess)
	g := newGame(sess)
	g.bridge = installBridge(sess, g)
	// The page's language (i18n.js chose it from ?lang= or the browser) from the first frame,
	// so that no early event or canvas word comes out in the other language.
	if lb := js.Global().Get("LB"); lb.Type() == js.TypeObject {
		if i18n := lb.Get("i18n"); i18n.Type() == js.TypeObject {
			if lang := i18n.Get("lang"); lang.Type() == js.TypeString {
				g.bridge.api.Call("setLang", []byte(strconv.Quote(lang.String()))) // an unknown one stays "en"
			}
		}
	}
	if linkErr != "" {
		js.Global().Get("lbscope").Set("linkError", linkErr)
		js.Global().Get("console").Call("warn", "lbscope: "+linkErr)
	}

	ebiten.SetWindowTitle("LBScope")
	ebiten.SetRunnableOnUnfocused(true) // the panel's controls take focus; the simulation goes on
	// Draw fills the whole screen itself, and the canvas is never scaled: skip Ebitengine's
	// own clear and its screen filter, two full-screen passes a software GPU pays for.
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetScreenFilterEnabled(false)
	// One Update per drawn frame: Update advances the simulation by the wall time since the
	// last one, so Ebitengine's fixed 60 ticks a second would only run it (and build its
	// layout, and push it to the page) two or three times for each frame a slow browser
	// draws. And no frame at all until one is needed: the game runs every display frame only
	// while time runs on a page one can see (game.pace).
	ebiten.SetTPS(ebiten.SyncWithFPS)
	ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
	createContext()
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

const (
	gcPercent     = 400
	gcMemoryLimit = 256 << 20
)

// run runs the game loop, turning a panic outside Update and Draw into an error.
func run(g *game) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{})
}

// openFromURL starts the session from the page's address: a share link in the fragment
// (#s=1.…) or a preset in the query (?preset=large). It returns why that failed, for the page
// to show; the default scenario runs then.
func openFromURL(sess *session.Session) string {
	loc := js.Global().Get("location")
	if hash := loc.Get("hash").String(); strings.HasPrefix(hash, "#s=") {
		if err := sess.OpenLink(hash); err != nil {
			return "This share link cannot be opened — " + err.Error() + ". Showing the default scenario instead."
		}
		return ""
	}
	preset := js.Global().Get("URLSearchParams").New(loc.Get("search")).Call("get", "preset")
	if preset.Type() != js.TypeString || preset.String() == "" || preset.String() == "default" {
		return ""
	}
	cmd := session.Command{Command: cluster.Command{Type: session.Load}, Preset: preset.String()}
	if _, err := sess.Enqueue(cmd); err != nil {
		return err.Error()
	}
	for _, r := range sess.Tick(0) {
		if r.Err != nil {
			return "Cannot open the preset: " + r.Err.Error() + ". Showing the default scenario instead."
		}
	}
	return ""
}
