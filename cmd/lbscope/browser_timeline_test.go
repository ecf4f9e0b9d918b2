//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pgTimeline struct {
	NowMs     int64 `json:"nowMs"`
	HorizonMs int64 `json:"horizonMs"`
	Paused    bool  `json:"paused"`
	Actions   []struct {
		T    int64  `json:"t"`
		Text string `json:"text"`
	} `json:"actions"`
	Checkpoints []int64 `json:"checkpoints"`
}

// evalJSON runs JavaScript whose value is an object and decodes it into T.
func evalJSON[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	var v T
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(`+js+`)`)), &v))
	return v
}

func timelineOf(t testing.TB, ctx context.Context) pgTimeline {
	t.Helper()
	return evalJSON[pgTimeline](t, ctx, `window.lbscope.timeline()`)
}

// Actions over time, a scrub back with the scrubber (mouse, then keys), "Continue from here",
// one more action: the page ends exactly where a fresh run of the kept actions and the new
// one ends.
func TestBrowserTimelineScrubAndContinue(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "load", preset: "default"}`) // 00:00, paused: exact times below
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	dispatch(t, ctx, `{type: "killConsumer", id: "c2"}`)
	dispatch(t, ctx, `{type: "step", ms: 20000}`)
	dispatch(t, ctx, `{type: "setLatencyFault", on: true}`)
	dispatch(t, ctx, `{type: "slowBroker", broker: "broker-b", latencyMs: 2000}`)
	dispatch(t, ctx, `{type: "step", ms: 20000}`)
	dispatch(t, ctx, `{type: "addConsumer"}`)
	dispatch(t, ctx, `{type: "step", ms: 15000}`)
	waitFor(t, ctx, `document.getElementById("timeline-range") !== null && document.getElementById("timeline-end").textContent === "01:00"`)
	tl := timelineOf(t, ctx)
	require.Equal(t, int64(60000), tl.HorizonMs)
	require.Len(t, tl.Actions, 4)
	assert.Equal(t, true, eval[bool](t, ctx, `document.getElementById("timeline-continue").disabled`), "continue is off at the horizon")
	assert.Equal(t, float64(len(tl.Actions)), eval[float64](t, ctx, `document.querySelectorAll("#timeline .tl-tick").length`), "one tick per action")

	// Scrub back with the mouse: a press on the range at a third of its width.
	r := evalJSON[box](t, ctx, `(() => { const r = document.getElementById("timeline-range").getBoundingClientRect(); return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`)
	x, y := r.X+8+(r.W-16)/3, r.Y+r.H/2
	require.NoError(t, chromedp.Do(ctx,
		chromedp.MouseEvent(chromedp.MouseMoved, x, y),
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	))
	waitFor(t, ctx, `(() => { const s = window.lbscope.state(); return s.timeMs > 15000 && s.timeMs < 25000 && s.timeMs === Number(document.getElementById("timeline-range").value); })()`)
	// Then two seconds back with the keyboard.
	before := state(t, ctx).TimeMs
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(chromedp.ID("timeline-range"))))
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft)))
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.state().timeMs === %d`, before-2000))
	at := state(t, ctx).TimeMs
	assert.Equal(t, at, timelineOf(t, ctx).NowMs)
	assert.Equal(t, int64(60000), timelineOf(t, ctx).HorizonMs, "scrubbing keeps the horizon")
	waitFor(t, ctx, `!document.getElementById("timeline-continue").disabled`)
	assert.Equal(t, fmt.Sprintf("%02d:%02d", at/60000, at/1000%60), eval[string](t, ctx, `document.getElementById("timeline-now").textContent`))

	// Continue from here: the later actions go, the horizon comes back to now.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("timeline-continue"))))
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.timeline().horizonMs === %d`, at))
	tl = timelineOf(t, ctx)
	require.Len(t, tl.Actions, 1, "only the kill at 00:05 is left: %+v", tl.Actions)
	assert.Equal(t, int64(5000), tl.Actions[0].T)
	waitFor(t, ctx, `document.getElementById("timeline-continue").disabled`)
	dispatch(t, ctx, `{type: "hangConsumer", id: "c3"}`)
	dispatch(t, ctx, `{type: "step", ms: 7000}`)
	got := state(t, ctx)
	screenshot(t, ctx)

	other := playground(t)
	con2 := open(t, other, "")
	dispatch(t, other, `{type: "pause"}`)
	dispatch(t, other, `{type: "load", preset: "default"}`)
	dispatch(t, other, `{type: "step", ms: 5000}`)
	dispatch(t, other, `{type: "killConsumer", id: "c2"}`)
	dispatch(t, other, fmt.Sprintf(`{type: "step", ms: %d}`, at-5000))
	dispatch(t, other, `{type: "hangConsumer", id: "c3"}`)
	dispatch(t, other, `{type: "step", ms: 7000}`)
	sameMoment(t, state(t, other), got)
	assert.Empty(t, con.Errors())
	assert.Empty(t, con2.Errors())
}

// The scrubber speaks Chinese too, and fits a phone's width.
func TestBrowserTimelineChineseAndPhone(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "step", ms: 30000}`)
	dispatch(t, ctx, `{type: "seek", ms: 10000}`)
	eval[bool](t, ctx, `(window.LB.i18n.set("zh"), true)`)
	waitFor(t, ctx, `document.getElementById("timeline-continue").textContent === "从这里继续"`)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(375, 740)))
	waitFor(t, ctx, `!document.getElementById("timeline-continue").disabled`)
	got := eval[map[string]any](t, ctx, `(() => {
		const bar = document.querySelector("#timeline .tl-bar").getBoundingClientRect();
		const range = document.getElementById("timeline-range").getBoundingClientRect();
		const btn = document.getElementById("timeline-continue").getBoundingClientRect();
		return {barH: bar.height, barRight: bar.right, rangeW: range.width, btnRight: btn.right, vw: innerWidth,
			label: document.getElementById("timeline-range").getAttribute("aria-label")};
	})()`)
	assert.GreaterOrEqual(t, got["barH"], 44.0)
	assert.LessOrEqual(t, got["barH"], 56.0)
	assert.GreaterOrEqual(t, got["rangeW"], 100.0, "the range is usable on a phone")
	assert.LessOrEqual(t, got["btnRight"], got["vw"], "the button fits the screen")
	assert.Equal(t, "时间线", got["label"])
	screenshot(t, ctx)
	assert.Empty(t, con.Errors())
}

// BenchmarkBrowserSeek measures seeks in the real page: a 30-minute session of the default
// preset with an action every two minutes, then seeks to moments spread over it. The
// baseline, measured in the same run, is opening the session's share link, which replays all
// 30 minutes from 00:00 as a seek back did before checkpoints.
func BenchmarkBrowserSeek(b *testing.B) {
	ctx := playground(b)
	open(b, ctx, "")
	eval[bool](b, ctx, `(async () => {
		const api = window.lbscope;
		await api.dispatch({type: "pause"});
		await api.dispatch({type: "load", preset: "default"});
		const acts = [{type: "killConsumer", id: "c2"}, {type: "setLatencyFault", on: true},
			{type: "slowBroker", broker: "broker-b", latencyMs: 2000}, {type: "addConsumer"},
			{type: "partitionConsumer", id: "c3"}, {type: "restartConsumer", id: "c2"},
			{type: "slowBroker", broker: "broker-b", latencyMs: 0}, {type: "hangConsumer", id: "c4"}];
		for (let i = 0; i < 15; i++) {
			await api.dispatch({type: "step", ms: 120000});
			await api.dispatch(acts[i % acts.length]);
		}
		return api.state().timeMs === 1800000;
	})()`)
	targets := []int64{1790000, 60000, 1500000, 333000, 1234567, 900000, 5000, 1799999, 450000, 1100000}
	var perSeek []float64
	for i := 0; b.Loop(); i++ {
		ms := eval[float64](b, ctx, fmt.Sprintf(`(async () => { const t0 = performance.now();
			const r = await window.lbscope.dispatch({type: "seek", ms: %d});
			if (!r.ok) throw new Error(r.error); return performance.now() - t0; })()`, targets[i%len(targets)]))
		perSeek = append(perSeek, ms)
	}
	link := eval[string](b, ctx, `(async () => { await window.lbscope.dispatch({type: "seek", ms: 1800000}); return window.lbscope.share(); })()`)
	baseline := eval[float64](b, ctx, fmt.Sprintf(`(async () => { const t0 = performance.now();
		const r = await window.lbscope.dispatch({type: "load", link: %q});
		if (!r.ok) throw new Error(r.error); return performance.now() - t0; })()`, link))
	slices.Sort(perSeek)
	b.ReportMetric(perSeek[len(perSeek)/2], "ms/seek-median")
	b.ReportMetric(perSeek[len(perSeek)-1], "ms/seek-max")
	b.ReportMetric(baseline, "ms-baseline-replay-30min")
}

// A moment too far for one frame is reached a slice per frame with its progress under the
// stage, and "Stop here" ends the way at the moment reached, leaving the page responsive.
func TestBrowserFarSeekShowsProgressAndStops(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "pause"}`)
	// Not awaited: the seek's promise settles when the way ends.
	eval[bool](t, ctx, `(window.farSeek = window.lbscope.dispatch({type: "seek", ms: 86400000}), true)`)
	waitFor(t, ctx, `!document.getElementById("timeline-reaching").hidden`)
	text := eval[string](t, ctx, `document.getElementById("timeline-reaching").textContent`)
	assert.Contains(t, text, "24:00:00", "the progress names the moment on its way to")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("timeline-cancel"))))
	waitFor(t, ctx, `document.getElementById("timeline-reaching").hidden && !window.lbscope.state().reaching`)
	st := state(t, ctx)
	assert.Less(t, st.TimeMs, int64(86400000), "stopped on the way, before 24 h")
	assert.True(t, st.Paused, "stopped paused at the moment reached")
	assert.Equal(t, map[string]any{"ok": true}, eval[map[string]any](t, ctx, `window.farSeek`), "the stopped seek's promise answers")
	// The page goes on: a command after the stop is applied at once.
	dispatch(t, ctx, `{type: "killConsumer", id: "c1"}`)
	status, _ := consumer(state(t, ctx), "c1")
	assert.Equal(t, "killed", status)
	assert.Empty(t, con.Errors())
}

// A step too far for one frame answers when it gets there: after the await the page is at the
// moment asked, and a command sent with it is applied there, not on the way.
func TestBrowserFarStepAnswersOnArrival(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	got := eval[map[string]any](t, ctx, `(async () => {
		const api = window.lbscope;
		await api.dispatch({type: "pause"});
		const t0 = api.state().timeMs, seen = [];
		const off = api.on("frame", f => { if (f.state && f.state.reaching) seen.push(f.state.reaching.atMs); });
		const [step, kill] = await Promise.all([api.dispatch({type: "step", ms: 3600000}), api.dispatch({type: "killConsumer", id: "c2"})]);
		off();
		const st = api.state(), tl = api.timeline();
		return {step, kill, stepped: st.timeMs - t0, reaching: st.reaching || null, slices: seen.length,
			killAt: tl.actions.filter(a => a.text.includes("c2")).map(a => a.t - t0)};
	})()`)
	assert.Equal(t, map[string]any{"ok": true}, got["step"])
	assert.Equal(t, map[string]any{"ok": true}, got["kill"])
	assert.Equal(t, 3600000.0, got["stepped"], "after the step's await the page is an hour on")
	assert.Nil(t, got["reaching"])
	assert.Positive(t, got["slices"], "the hour was reached over several frames")
	assert.Equal(t, []any{3600000.0}, got["killAt"], "the kill sent with the step is applied at the step's moment")
	assert.Empty(t, con.Errors())
}
