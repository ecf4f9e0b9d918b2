//go:build !js

package main

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// mainThreadMetrics reads Chromium's cumulative main-thread figures: TaskDuration (every
// task: scripts, style, layout, paint, the wasm) and ScriptDuration (JavaScript and wasm), in
// seconds.
func mainThreadMetrics(b *testing.B, ctx context.Context) (task, script float64) {
	b.Helper()
	require.NoError(b, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		res, err := cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			return err
		}
		for _, m := range res.Metrics {
			switch m.Name {
			case "TaskDuration":
				task = m.Value
			case "ScriptDuration":
				script = m.Value
			}
		}
		return nil
	})))
	return task, script
}

// BenchmarkBrowserMainThread measures the main thread's busy time per wall second of the
// full playground page (panel, timeline, lessons and charts included) with the default and the
// large preset, playing at 1× and paused: what the game loop, the page's scripts and the
// browser's own work on the page cost together. scripts/bench-browser.sh prints it.
func BenchmarkBrowserMainThread(b *testing.B) {
	ctx := playground(b)
	const window = 5 * time.Second
	for b.Loop() {
		open(b, ctx, "")
		require.NoError(b, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{})
			return err
		})))
		// The charts tab shown: its updates are part of the page's cost.
		eval[bool](b, ctx, `(document.getElementById("tab-button-charts") || {click() {}}).click(), true`)
		for _, preset := range []string{"default", "large"} {
			dispatch(b, ctx, fmt.Sprintf(`{type: "load", preset: %q}`, preset))
			for _, mode := range []string{"play", "pause"} {
				dispatch(b, ctx, fmt.Sprintf(`{type: %q}`, mode))
				eval[bool](b, ctx, `new Promise(r => setTimeout(() => r(true), 1000))`) // settle
				task0, script0 := mainThreadMetrics(b, ctx)
				t0 := time.Now()
				eval[bool](b, ctx, fmt.Sprintf(`new Promise(r => setTimeout(() => r(true), %d))`, window.Milliseconds()))
				task1, script1 := mainThreadMetrics(b, ctx)
				wall := time.Since(t0).Seconds()
				name := preset + "-" + map[string]string{"play": "playing", "pause": "paused"}[mode]
				b.ReportMetric((task1-task0)*1000/wall, name+"-task-ms/s")
				b.ReportMetric((script1-script0)*1000/wall, name+"-script-ms/s")
			}
		}
	}
}
