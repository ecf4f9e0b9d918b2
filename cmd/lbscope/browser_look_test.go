//go:build !js

package main

import (
	"context"
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/wasm/view"
)

// How the canvas looks: device resolution, presenter mode, the light theme.

// openScaled is open with the viewport at a device pixel ratio of scale.
func openScaled(t testing.TB, ctx context.Context, query string, w, h int64, scale float64) *console {
	t.Helper()
	con := watchConsole(t, ctx)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(w, h, chromedp.EmulateScale(scale)),
		chromedp.Navigate(browserEnv.url+query),
	))
	waitReady(t, ctx)
	return con
}

type lookLayout struct {
	pgLayout
	TextPx float64 `json:"textPx"`
	LinePx float64 `json:"linePx"`
}

func lookOf(t testing.TB, ctx context.Context) lookLayout {
	t.Helper()
	var l lookLayout
	l.pgLayout = layout(t, ctx)
	l.TextPx = eval[float64](t, ctx, `window.lbscope.layout().textPx`)
	l.LinePx = eval[float64](t, ctx, `window.lbscope.layout().linePx`)
	return l
}

func lum(img image.Image, x, y int) float64 {
	r, g, b, _ := img.At(x, y).RGBA()
	return (0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)) / 65535
}

// sharpSteps counts, in the CSS-pixel rectangle b of a screenshot taken at scale 2, the
// pairs of device pixels inside one CSS pixel (columns 2i and 2i+1, rows 2j and 2j+1) whose
// luminance differs by more than 60% of the rectangle's range. A canvas drawn at CSS pixels
// and stretched to the screen has none: nearest-neighbour stretching repeats each pixel, and
// a linear filter splits a step between two CSS pixels into halves.
func sharpSteps(img image.Image, b box) (steps int, rng float64) {
	x0, y0, x1, y1 := int(2*b.X), int(2*b.Y), int(2*(b.X+b.W)), int(2*(b.Y+b.H))
	lo, hi := 1.0, 0.0
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			l := lum(img, x, y)
			lo, hi = math.Min(lo, l), math.Max(hi, l)
		}
	}
	rng = hi - lo
	for y := y0 &^ 1; y+1 < y1; y += 2 {
		for x := x0 &^ 1; x+1 < x1; x += 2 {
			if math.Abs(lum(img, x, y)-lum(img, x+1, y)) > 0.6*rng {
				steps++
			}
			if math.Abs(lum(img, x, y)-lum(img, x, y+1)) > 0.6*rng {
				steps++
			}
		}
	}
	return steps, rng
}

// At a device pixel ratio of 2 the canvas's backing store has two device pixels per CSS
// pixel and its text is drawn at that resolution.
func TestBrowserLookDeviceResolution(t *testing.T) {
	ctx := playground(t)
	con := openScaled(t, ctx, "?lang=en&theme=dark", 1280, 720, 2)
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	waitFor(t, ctx, `window.lbscope.counters().frames > 1`) // paused: the loop draws no more until asked
	canvas := eval[map[string]float64](t, ctx, `(() => { const c = document.querySelector("body > canvas"), r = c.getBoundingClientRect();
		return {w: c.width, h: c.height, cssW: r.width, cssH: r.height, dpr: window.devicePixelRatio}; })()`)
	require.Equal(t, 2.0, canvas["dpr"], "the emulation took")
	assert.InDelta(t, 2*canvas["cssW"], canvas["w"], 2, "the backing store is two device pixels per CSS pixel wide")
	assert.InDelta(t, 2*canvas["cssH"], canvas["h"], 2)
	img := screenshot(t, ctx)
	require.Equal(t, int(2*canvas["cssW"]), img.Bounds().Dx(), "the screenshot is in device pixels")
	l := lookOf(t, ctx)
	assert.Equal(t, 12.0, l.TextPx, "labels keep their CSS size")
	// Every broker's title ("broker-a") is text on its block: sharp steps inside CSS pixels.
	for _, b := range l.Brokers {
		title := box{X: b.X + 3, Y: b.Y + 1, W: math.Min(b.W-6, 60), H: 13}
		steps, rng := sharpSteps(img, title)
		t.Logf("%s: %d sharp device-pixel steps (luminance range %.2f)", b.Name, steps, rng)
		assert.Greater(t, rng, 0.4, "%s's title shows text", b.Name)
		assert.GreaterOrEqual(t, steps, 12, "%s's title is drawn at device resolution", b.Name)
	}
	// Hit boxes stay in CSS pixels: clicking a consumer's box opens its menu.
	click(t, ctx, l.Consumers[0])
	waitFor(t, ctx, `window.lbscope.layout().menu.length > 0`)
	assert.Empty(t, con.Errors())
}

// Presenter mode (?present=1, the p key, the panel's button) draws labels at least 16 CSS px
// tall, with the layout's boxes still inside the stage and apart.
func TestBrowserLookPresenterMode(t *testing.T) {
	ctx := playground(t)
	con := openScaled(t, ctx, "?lang=en&present=1", 1280, 720, 1)
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	waitFor(t, ctx, `window.lbscope.layout().textPx > 12`)
	l := lookOf(t, ctx)
	assert.GreaterOrEqual(t, l.TextPx, 16.0, "presenter labels' em in CSS px")
	assert.Equal(t, "true", eval[string](t, ctx, `document.getElementById("present").getAttribute("aria-pressed")`))
	stage := eval[map[string]float64](t, ctx, `(() => { const r = document.getElementById("stage").getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; })()`)
	for _, c := range l.Consumers {
		assert.GreaterOrEqual(t, c.H, l.LinePx, "consumer %s's box holds a presenter line", c.ID)
		assert.True(t, c.X >= stage["x"]-1 && c.Y >= stage["y"]-1 && c.X+c.W <= stage["x"]+stage["w"]+1 && c.Y+c.H <= stage["y"]+stage["h"]+1,
			"consumer %s %+v is inside the stage %v", c.ID, c, stage)
	}
	for i, a := range l.Queues {
		for _, b := range l.Queues[i+1:] {
			assert.False(t, a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H, "cells %s and %s overlap", a.Queue, b.Queue)
		}
	}
	// On the screenshot, the first line of c1's box (its id) has ink at least 11 CSS px high:
	// the digit of "c1" is about 0.7 em, an em of 12 px at zoom 1 gives 8 or 9.
	img := screenshot(t, ctx)
	c1 := l.Consumers[0]
	require.Equal(t, "c1", c1.ID)
	fill := lum(img, int(c1.X)+2, int(c1.Y)+2)
	rows := 0
	for y := int(c1.Y) + 1; y < int(c1.Y+l.LinePx)+2; y++ {
		for x := int(c1.X) + 2; x < int(c1.X+c1.W)-2; x++ {
			if math.Abs(lum(img, x, y)-fill) > 0.3 {
				rows++
				break
			}
		}
	}
	t.Logf("c1's label: %d rows of ink", rows)
	assert.GreaterOrEqual(t, rows, 11, "rows of ink in c1's label")
	// The canvas's p key turns it off, the panel's button on again.
	click(t, ctx, box{X: stage["x"] + 4, Y: stage["y"] + stage["h"]/2, W: 2, H: 2}) // focus the canvas, on nothing
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("p")))
	waitFor(t, ctx, `window.lbscope.layout().textPx === 12 && document.getElementById("present").getAttribute("aria-pressed") === "false"`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("present"))))
	waitFor(t, ctx, `window.lbscope.layout().textPx >= 16`)
	assert.Empty(t, con.Errors())
}

// theme=light draws a light canvas and a light poster, with the light palette in the
// charts' colours; auto follows the system's preference as it changes.
func TestBrowserLookLightTheme(t *testing.T) {
	ctx := playground(t)
	con := openScaled(t, ctx, "?lang=en&theme=light", 1280, 720, 1)
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	waitFor(t, ctx, `window.lbscope.counters().frames > 1`) // paused: the loop draws no more until asked
	img := screenshot(t, ctx)
	l := lookOf(t, ctx)
	bg := func(img image.Image) float64 { // just inside the stage's top-left corner, over nothing
		x, y := eval[float64](t, ctx, `document.getElementById("stage").getBoundingClientRect().left`), eval[float64](t, ctx, `document.getElementById("stage").getBoundingClientRect().bottom`)
		return lum(img, int(x)+2, int(y)-2)
	}
	assert.Greater(t, bg(img), 0.85, "the light canvas's background")
	assert.Equal(t, "#b87a00", eval[string](t, ctx, `window.lbscope.palette().palette[0]`), "the charts get the light palette")
	// Owners keep distinct colours on it.
	s := state(t, ctx)
	owner := map[string]string{}
	for _, c := range s.Consumers {
		for _, q := range c.Queues {
			owner[q] = c.ID
		}
	}
	seen := map[[3]uint8]string{}
	for _, q := range l.Queues {
		c := colourAt(img, q)
		if other, ok := seen[c]; ok && other != owner[q.Queue] {
			t.Errorf("%s and %s share the colour %v", owner[q.Queue], other, c)
		}
		seen[c] = owner[q.Queue]
	}
	assert.Len(t, seen, len(s.Consumers))

	// auto follows prefers-color-scheme, also while the page is open.
	setScheme := func(v string) {
		require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}},
			})
			return err
		})))
	}
	setScheme("dark")
	openScaled(t, ctx, "?lang=en&theme=auto", 1280, 720, 1)
	waitFor(t, ctx, `document.documentElement.dataset.theme === "dark" && window.lbscope.palette().palette[0] === "#e69f00"`)
	full := eval[float64](t, ctx, `window.lbscope.counters().fullFrames`)
	setScheme("light")
	waitFor(t, ctx, `document.documentElement.dataset.theme === "light" && window.lbscope.palette().palette[0] === "#b87a00"`)
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().fullFrames > %v`, full)) // drawn in the new theme
	assert.Greater(t, bg(screenshot(t, ctx)), 0.85, "the canvas turned light with the system")

	// The embed's poster.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(browserEnv.url+"embed.html?theme=light")))
	waitFor(t, ctx, `!!document.querySelector("#poster-picture svg rect")`)
	assert.Equal(t, "#f4f5f7", eval[string](t, ctx, `document.querySelector("#poster-picture svg rect").getAttribute("fill")`))
	posterColours(t, ctx, view.LightTheme)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(browserEnv.url+"embed.html?theme=dark")))
	waitFor(t, ctx, `!!document.querySelector("#poster-picture svg rect")`)
	assert.Equal(t, "#1b1d23", eval[string](t, ctx, `document.querySelector("#poster-picture svg rect").getAttribute("fill")`))
	posterColours(t, ctx, view.DarkTheme)
	// Without theme=, the poster follows the system, also while it shows.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(browserEnv.url+"embed.html")))
	waitFor(t, ctx, `!!document.querySelector("#poster-picture svg rect") && document.querySelector("#poster-picture svg rect").getAttribute("fill") === "#f4f5f7"`)
	setScheme("dark")
	waitFor(t, ctx, `document.querySelector("#poster-picture svg rect").getAttribute("fill") === "#1b1d23"`)
	assert.Empty(t, con.Errors())
}

// posterColours checks the embed's poster, drawn before any wasm, against the canvas's own
// theme in Go: its background, and its queue cells (the default preset: 4 consumers over 32
// queues) in the first four owner colours of the palette, in order.
func posterColours(t *testing.T, ctx context.Context, th view.Theme) {
	t.Helper()
	got := eval[map[string]any](t, ctx, `(() => {
		const rects = [...document.querySelectorAll("#poster-picture svg rect")];
		const cells = rects.filter(r => r.getAttribute("fill-opacity") === "0.85").map(r => r.getAttribute("fill").toLowerCase());
		return {background: rects[0].getAttribute("fill").toLowerCase(), owners: [...new Set(cells)]};
	})()`)
	assert.Equal(t, th.Background.Hex(), got["background"], "the %s poster's background", th.Name)
	var want []any
	for _, c := range th.Palette[:4] {
		want = append(want, c.Hex())
	}
	assert.Equal(t, want, got["owners"], "the %s poster's owners take the canvas's palette", th.Name)
}

// The canvas draws again only where a frame changed (view.Damage): after the large preset
// played at 10× on such frames, what the screen shows is what a frame drawn whole shows.
// Nothing moves while paused with reduced motion; a switch of the system's colour scheme
// (theme=auto) to light and back draws the same moment whole again. At one device pixel per
// CSS pixel and at 1.5, where the tiles' edges fall between CSS pixels.
func TestBrowserPartialRedrawsLeaveTheFullFrame(t *testing.T) {
	for _, scale := range []float64{1, 1.5} {
		t.Run(fmt.Sprint(scale), func(t *testing.T) { partialRedrawsLeaveTheFullFrame(t, scale) })
	}
}

func partialRedrawsLeaveTheFullFrame(t *testing.T, scale float64) {
	ctx := playground(t)
	media := func(scheme string) {
		require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}, {Name: "prefers-reduced-motion", Value: "reduce"}},
			})
			return err
		})))
	}
	media("dark")
	con := openScaled(t, ctx, "?lang=en&theme=auto", 1280, 720, scale)
	dispatch(t, ctx, `{type: "load", preset: "large"}`)
	dispatch(t, ctx, `{type: "setSpeed", x: 10}`)
	dispatch(t, ctx, `{type: "step", ms: 20000}`) // past the start-up rebalancing
	dispatch(t, ctx, `{type: "killConsumer", id: "c7"}`)
	dispatch(t, ctx, `{type: "play"}`)
	played := eval[map[string]float64](t, ctx, `new Promise(r => { let least = 1; const c0 = window.lbscope.counters();
		const sample = setInterval(() => least = Math.min(least, window.lbscope.counters().drawnShare), 50);
		setTimeout(() => { clearInterval(sample); const c = window.lbscope.counters();
			r({frames: c.frames - c0.frames, partial: c.partialFrames - c0.partialFrames, least}); }, 3000); })`)
	dispatch(t, ctx, `{type: "pause"}`)
	t.Logf("playing: %v frames, %v drawn only where they changed, down to %.1f%% of the screen", played["frames"], played["partial"], 100*played["least"])
	require.Positive(t, played["frames"])
	// What share of frames is partial depends on how much virtual time a frame covers, so on
	// the machine's speed: that share is bench-browser.sh's "frames drawn only where they
	// changed". Here partial frames must happen, since what follows checks what they leave.
	require.Positive(t, played["partial"], "frames drawn only where they changed")
	gc := eval[map[string]float64](t, ctx, `(({gcCycles, gcMs, heapLiveMB}) => ({gcCycles, gcMs, heapLiveMB}))(window.lbscope.counters())`)
	assert.Positive(t, gc["gcCycles"], "the collector's cycles are counted")
	assert.Positive(t, gc["gcMs"], "and their time")
	assert.Greater(t, gc["heapLiveMB"], 1.0, "the large preset's live heap, in MB")

	settle := func() { settledCounters(t, ctx, "window") }
	settle()
	st := eval[map[string]float64](t, ctx, `window.lbscope.layout().stage`)
	stage := image.Rect(int(math.Ceil(st["x"]*scale)), int(math.Ceil(st["y"]*scale)), int((st["x"]+st["w"])*scale), int((st["y"]+st["h"])*scale))
	require.False(t, stage.Empty(), "the stage %v", st)
	before := screenshot(t, ctx)
	require.Equal(t, int(1280*scale), before.Bounds().Dx(), "a screenshot in device pixels")
	full := eval[float64](t, ctx, `window.lbscope.counters().fullFrames`)
	media("light")
	waitFor(t, ctx, fmt.Sprintf(`document.documentElement.dataset.theme === "light" && window.lbscope.counters().fullFrames > %v`, full))
	media("dark")
	waitFor(t, ctx, fmt.Sprintf(`document.documentElement.dataset.theme === "dark" && window.lbscope.counters().fullFrames > %v`, full+1))
	settle()
	after := screenshot(t, ctx)
	assert.Equal(t, 1.0, eval[float64](t, ctx, `window.lbscope.counters().drawnShare`), "the last frame was drawn whole")

	diff, where := 0, image.Rectangle{}
	for y := stage.Min.Y; y < stage.Max.Y; y++ {
		for x := stage.Min.X; x < stage.Max.X; x++ {
			r0, g0, b0, _ := before.At(x, y).RGBA()
			r1, g1, b1, _ := after.At(x, y).RGBA()
			if r0 != r1 || g0 != g1 || b0 != b1 {
				diff++
				where = where.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	assert.Zero(t, diff, "pixels of the stage %v differ between the partly redrawn frame and the full one, within %v", stage, where)
	assert.Empty(t, con.Errors())
}
