//go:build !js

package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pgCounters struct {
	Frames  float64 `json:"frames"`
	Ticks   float64 `json:"ticks"`
	Running bool    `json:"running"`
}

// countersAfter reads lbscope.counters() after waitMs of page time.
func countersAfter(t testing.TB, ctx context.Context, waitMs int) pgCounters {
	t.Helper()
	return eval[pgCounters](t, ctx, fmt.Sprintf(`new Promise(r => setTimeout(() => r(window.lbscope.counters()), %d))`, waitMs))
}

// settledCounters waits until the playground in window w ("window", or a frame's
// contentWindow) has stopped its loop and drawn no frame for a whole second of page time —
// the last state push, paced at 250 ms, or a rebalance's 400 ms slide finished however slow
// the machine — and reads its counters then. A loop that never stops fails it after
// waitForGuardMs (coarsely): that is the check that a paused or hidden page goes still.
func settledCounters(t testing.TB, ctx context.Context, w string) pgCounters {
	t.Helper()
	return eval[pgCounters](t, ctx, fmt.Sprintf(`new Promise((ok, fail) => { const t0 = performance.now();
		let frames = -1, since = t0; const poll = () => { const c = %[1]s.lbscope.counters(), now = performance.now();
			if (c.running || c.frames !== frames) { frames = c.frames; since = now; }
			else if (now - since >= 1000) return ok(c);
			if (now - t0 > %[2]d) return fail(new Error("the playground did not settle in %[3]d s (a coarse guard, not a speed bound): " + JSON.stringify(c)));
			setTimeout(poll, 50); }; poll(); })`, w, waitForGuardMs, waitForGuardMs/1000))
}

// framesPast waits until the playground has drawn a frame past frames (waitFor's guard).
func framesPast(t testing.TB, ctx context.Context, frames float64) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v`, frames))
}

// Paused and untouched, the playground draws no frame and runs no update; a dispatch on the
// paused page still takes effect, resolves, redraws the canvas and reaches the page's store;
// then it is still again.
func TestBrowserIdleWhenPausedAndRedrawnOnDispatch(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	// The canvas's context is the playground's own, without antialias or depth (page_js.go's
	// createContext): what a software GPU pays for on every frame.
	attrs := eval[map[string]any](t, ctx, `document.querySelector("body > canvas").getContext("webgl2").getContextAttributes()`)
	assert.Equal(t, false, attrs["antialias"], "the canvas's context: %v", attrs)
	assert.Equal(t, false, attrs["depth"], "the canvas's context: %v", attrs)
	assert.Equal(t, true, attrs["stencil"], "the canvas's context keeps what Ebitengine asks for: %v", attrs)
	playing := countersAfter(t, ctx, 0)
	assert.True(t, playing.Running, "a shown playground that plays runs every frame")
	framesPast(t, ctx, playing.Frames) // frames are drawn while it plays

	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "step", ms: 5000}`) // settled, paused
	before := screenshot(t, ctx)
	// A rebalance's slide (400 ms) may still be finishing: let it.
	settled := settledCounters(t, ctx, "window") // the paused loop stops
	still := countersAfter(t, ctx, 1500)
	assert.Equal(t, settled.Frames, still.Frames, "frames drawn in 1.5 s paused and untouched")
	assert.Equal(t, settled.Ticks, still.Ticks, "updates run in 1.5 s paused and untouched")
	// Reads do not wake it.
	eval[bool](t, ctx, `(window.lbscope.state(), window.lbscope.layout(), window.lbscope.share(), true)`)
	read := countersAfter(t, ctx, 300)
	assert.Equal(t, still.Frames, read.Frames, "frames drawn for state(), layout() and share()")

	l := layout(t, ctx)
	require.NotEmpty(t, l.Consumers)
	victim := l.Consumers[0].ID
	_, owned := consumer(state(t, ctx), victim)
	require.NotEmpty(t, owned)
	// The page's store listens to the frames: so does this.
	eval[bool](t, ctx, `(window.pushed = [], window.lbscope.on("frame", f => f.state && window.pushed.push(f.state)), true)`)
	dispatch(t, ctx, fmt.Sprintf(`{type: "killConsumer", id: %q}`, victim))
	status, _ := consumer(state(t, ctx), victim)
	assert.Equal(t, "killed", status, "the kill took effect on the paused page")
	assert.Equal(t, "killed", eval[string](t, ctx, fmt.Sprintf(`window.pushed.length ? window.pushed[window.pushed.length - 1].consumers.find(c => c.id === %q).status : "no frame pushed"`, victim)),
		"the page got the frame of the kill")
	dispatch(t, ctx, `{type: "step", ms: 2000}`) // the survivors rebalance
	woke := settledCounters(t, ctx, "window")
	assert.Greater(t, woke.Frames, still.Frames, "the dispatches drew frames")
	assert.True(t, state(t, ctx).Paused, "still paused")
	after := screenshot(t, ctx)
	changed := 0
	for _, q := range layout(t, ctx).Queues {
		if contains(owned, q.Queue) && colourAt(before, q) != colourAt(after, q) {
			changed++
		}
	}
	assert.Positive(t, changed, "the killed consumer's queue cells are redrawn in their new owners' colours")
	again := countersAfter(t, ctx, 1500)
	assert.Equal(t, woke.Frames, again.Frames, "frames drawn after the redraw, paused and untouched")

	// Input draws: a pointer move over the canvas (hover) draws the next frame.
	c := l.Consumers[0]
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, c.X+c.W/2, c.Y+c.H/2)))
	framesPast(t, ctx, again.Frames) // a pointer move draws a frame

	// Play runs every frame again.
	dispatch(t, ctx, `{type: "play"}`)
	t0 := state(t, ctx).TimeMs
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.state().timeMs > %d && window.lbscope.counters().running`, t0))
	assert.Empty(t, con.Errors())
}

// A hidden page stops its loop, and a shown one runs on.
func TestBrowserIdleWhenHidden(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	require.True(t, countersAfter(t, ctx, 0).Running)
	// Headless Chromium never hides a tab: tell the game the page went hidden as a browser would.
	hide := `(v) => { Object.defineProperty(document, "hidden", {configurable: true, get: () => v});
		document.dispatchEvent(new Event("visibilitychange")); }`
	eval[bool](t, ctx, `((`+hide+`)(true), true)`)
	// A hidden page's loop runs only when asked: it stops, once the last state push (paced at
	// 250 ms) has taken its frame.
	hidden := settledCounters(t, ctx, "window")
	at := state(t, ctx).TimeMs
	later := countersAfter(t, ctx, 1000)
	assert.Equal(t, hidden.Frames, later.Frames, "frames drawn in 1 s hidden")
	// A command still resolves (a script may drive a hidden page); time still waits.
	dispatch(t, ctx, `{type: "setSpeed", x: 2}`)
	s := state(t, ctx)
	assert.Equal(t, 2.0, s.Speed)
	assert.Equal(t, at, s.TimeMs, "virtual time ran while hidden")
	assert.False(t, s.Paused, "hidden is not paused: it plays on when shown")
	eval[bool](t, ctx, `((`+hide+`)(false), true)`)
	waitFor(t, ctx, `window.lbscope.counters().running`)
	assert.Empty(t, con.Errors())
}

// An embed scrolled out of its reader's view stops its loop, and plays on when scrolled back.
func TestBrowserIdleWhenEmbedScrolledAway(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	// A host page of the same origin (any small file of the site will do) with the embed at
	// its top and a long article below.
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1000, 700), chromedp.Navigate(browserEnv.url+"embed.css")))
	eval[bool](t, ctx, `(() => {
		document.body.textContent = "";
		const f = document.createElement("iframe");
		f.id = "embed"; f.src = "embed.html?autoplay=1"; f.style.cssText = "width: 800px; height: 450px; border: 0; display: block";
		const article = document.createElement("div"); article.style.height = "4000px";
		document.body.append(f, article);
		return true;
	})()`)
	inner := `document.getElementById("embed").contentWindow`
	waitFor(t, ctx, inner+`.lbscope !== undefined`)
	eval[bool](t, ctx, inner+`.lbscope.ready.then(() => true)`)
	waitFor(t, ctx, inner+`.lbscope.counters().running`)
	hostErrors := len(con.Errors()) // the host page (a stylesheet shown as a page) has no favicon: a 404
	eval[bool](t, ctx, `(window.scrollTo(0, 2000), true)`)
	waitFor(t, ctx, `!`+inner+`.lbscope.counters().running`)
	// The last state push (paced at 250 ms) may still take a frame or two.
	frames := settledCounters(t, ctx, inner).Frames
	away := eval[float64](t, ctx, inner+`.lbscope.state().timeMs`)
	eval[bool](t, ctx, `new Promise(r => setTimeout(() => r(true), 1000))`)
	assert.Equal(t, frames, eval[float64](t, ctx, inner+`.lbscope.counters().frames`), "frames drawn in 1 s out of view")
	assert.Equal(t, away, eval[float64](t, ctx, inner+`.lbscope.state().timeMs`), "time ran out of view")
	assert.False(t, eval[bool](t, ctx, inner+`.lbscope.state().paused`), "out of view is not paused: it plays on when seen")
	eval[bool](t, ctx, `(window.scrollTo(0, 0), true)`)
	waitFor(t, ctx, inner+`.lbscope.counters().running && `+inner+fmt.Sprintf(`.lbscope.state().timeMs > %v`, away))
	assert.Empty(t, con.Errors()[hostErrors:])
}
