//go:build !js

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/csv"
	"fmt"
	"image/png"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Charts tab after a run with a consumer killed: the charts are drawn, in the canvas's
// consumer colours, with a marker for the kill; the series shows the killed consumer's queues
// going to 0; the exports give a CSV table and a PNG.
func TestBrowserCharts(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)))
	// Let it run in real time (faster), then kill c2 and let the group settle.
	dispatch(t, ctx, `{type: "setSpeed", x: 20}`)
	waitFor(t, ctx, `window.lbscope.state().timeMs > 6000`)
	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "killConsumer", id: "c2"}`)
	killedAt := state(t, ctx).TimeMs
	dispatch(t, ctx, `{type: "play"}`)
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.state().timeMs > %d`, killedAt+8000))
	dispatch(t, ctx, `{type: "pause"}`)

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("tab-button-charts"))))
	waitFor(t, ctx, `window.LB.charts && !document.getElementById("tab-charts").hidden`)
	eval[bool](t, ctx, `(window.LB.charts.redraw(), true)`)

	// The series: samples, the kill's marker, c2's queues reaching 0 and staying there.
	got := eval[map[string]any](t, ctx, `(() => {
		const d = window.lbscope.series();
		const c2 = d.consumers.find(c => c.id === "c2");
		return {n: d.t.length, last: d.t[d.t.length - 1], marks: d.marks.map(m => m.text + "@" + m.t),
			c2first: c2.queues[1], c2last: c2.queues[c2.queues.length - 1],
			c2rate: c2.msgsPerS[c2.msgsPerS.length - 1]};
	})()`)
	assert.Greater(t, got["n"], 10.0, "samples after ~14 s")
	assert.Contains(t, got["marks"], fmt.Sprintf("killConsumer c2@%d", killedAt), "a marker for the kill")
	assert.Positive(t, got["c2first"], "c2 held queues before the kill")
	assert.Equal(t, 0.0, got["c2last"], "the killed c2 holds no queue at the end")
	assert.Equal(t, 0.0, got["c2rate"], "the killed c2 consumes nothing at the end")

	// Every chart is drawn; the queues chart has a line in each live consumer's canvas colour.
	drawn := eval[map[string]any](t, ctx, `(() => {
		const pal = window.lbscope.palette().consumers, out = {};
		for (const fig of document.querySelectorAll("#tab-charts .chart")) {
			if (fig.hidden) continue;
			const c = fig.querySelector("canvas"), ctx = c.getContext("2d");
			const px = ctx.getImageData(0, 0, c.width, c.height).data;
			let ink = 0;
			const near = {};
			for (let i = 0; i < px.length; i += 4) {
				if (px[i + 3] === 0) continue;
				ink++;
				if (fig.dataset.chart !== "queues") continue;
				for (const [id, hex] of Object.entries(pal)) {
					const r = parseInt(hex.slice(1, 3), 16), g = parseInt(hex.slice(3, 5), 16), b = parseInt(hex.slice(5, 7), 16);
					if (Math.abs(px[i] - r) + Math.abs(px[i + 1] - g) + Math.abs(px[i + 2] - b) < 24 && px[i + 3] > 200) near[id] = (near[id] || 0) + 1;
				}
			}
			out[fig.dataset.chart] = {ink, w: c.width, near, title: fig.querySelector(".chart-title").textContent,
				legend: fig.querySelectorAll(".chart-legend li").length};
		}
		return out;
	})()`)
	for _, name := range []string{"queues", "throughput", "backlog", "share", "duplicates"} {
		c, ok := drawn[name].(map[string]any)
		require.True(t, ok, "no %s chart in %v", name, drawn)
		assert.Positive(t, c["w"], "%s: canvas width", name)
		assert.Greater(t, c["ink"], 1000.0, "%s: drawn pixels", name)
		assert.NotEmpty(t, c["title"], "%s: title", name)
		assert.Positive(t, c["legend"], "%s: legend", name)
	}
	_, failures := drawn["failures"].(map[string]any)
	assert.False(t, failures, "no chart of failures in a run without any")
	assert.True(t, eval[bool](t, ctx, `document.querySelector('#tab-charts .chart[data-chart="failures"]').hidden`))
	near := drawn["queues"].(map[string]any)["near"].(map[string]any)
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		assert.Greater(t, near[id], 20.0, "the queues chart draws %s in its canvas colour", id)
	}

	// Keyboard: a focused chart shows the values at the crosshair; Left moves it back.
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#tab-charts .chart[data-chart="queues"] canvas`))))
	waitFor(t, ctx, `!document.querySelector('.chart[data-chart="queues"] .chart-tip').hidden`)
	tipAt := func() string {
		return eval[string](t, ctx, `document.querySelector('.chart[data-chart="queues"] .chart-tip .tip-time').textContent`)
	}
	end := tipAt()
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)))
	waitFor(t, ctx, fmt.Sprintf(`document.querySelector('.chart[data-chart="queues"] .chart-tip .tip-time').textContent !== %q`, end))
	assert.Contains(t, tipAt(), "Time ")
	assert.Contains(t, eval[string](t, ctx, `document.querySelector('.chart[data-chart="queues"] .chart-tip').textContent`), "c1: ")

	// CSV: a header and a row per sample, of equal lengths.
	text := eval[string](t, ctx, `window.lbscope.exportMetrics({format: "csv"}).text`)
	rows, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	require.NoError(t, err)
	require.Greater(t, len(rows), 10)
	assert.Equal(t, "t_ms", rows[0][0])
	assert.Contains(t, rows[0], "consumer.c2.queues")
	assert.Contains(t, rows[0], "broker.broker-a.share")

	// PNG: every chart in one image.
	b64 := eval[string](t, ctx, `window.LB.charts.exportPNG().then(b => new Promise((ok, fail) => {
		const r = new FileReader(); r.onload = () => ok(r.result.split(",")[1]); r.onerror = fail; r.readAsDataURL(b); }))`)
	pngBytes, err := base64.StdEncoding.DecodeString(b64)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pngBytes, []byte("\x89PNG\r\n\x1a\n")), "the PNG signature")
	cfg, err := png.DecodeConfig(bytes.NewReader(pngBytes))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, cfg.Width, 1200, "PNG width")
	assert.Greater(t, cfg.Height, cfg.Width, "five charts stacked")
	assert.Greater(t, len(pngBytes), 20_000, "a PNG with content")

	// The Export buttons download without an error note.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("charts-export-csv"))))
	waitFor(t, ctx, `document.querySelector("#tab-charts .charts-note").textContent.includes(".csv")`)

	// Time travel back before the kill: the timeline is unchanged, so the series keeps the
	// moments ahead (the kill included) and the charts mark the moment shown; continuing from
	// there discards the future, and the charts read everything again without the kill.
	before := eval[map[string]any](t, ctx, `(() => { const d = window.lbscope.series(); return {n: d.t.length, marks: d.marks.length}; })()`)
	dispatch(t, ctx, `{type: "seek", ms: 5000}`)
	eval[bool](t, ctx, `(window.LB.charts.redraw(), true)`)
	back := eval[map[string]any](t, ctx, `(() => { const d = window.lbscope.series();
		return {n: d.t.length, marks: d.marks.length}; })()`)
	assert.Equal(t, before, back, "a seek back keeps the series")
	dispatch(t, ctx, `{type: "continue"}`)
	eval[bool](t, ctx, `(window.LB.charts.redraw(), true)`)
	cont := eval[map[string]any](t, ctx, `(() => { const d = window.lbscope.series();
		return {n: d.t.length, last: d.t[d.t.length - 1], marks: d.marks.length,
			meta: document.querySelector("#tab-charts .charts-meta").textContent}; })()`)
	assert.LessOrEqual(t, cont["last"], 5000.0, "samples after the moment continued from")
	assert.Equal(t, 0.0, cont["marks"], "the kill, after 5 s, is no longer in the series")
	assert.Contains(t, cont["meta"], fmt.Sprintf("Samples: %v,", cont["n"]), "the charts hold what the series holds")
	assert.Contains(t, cont["meta"], "Actions: 0", "the charts dropped the kill's marker")

	// Chinese: titles and the note follow the language.
	require.NoError(t, chromedp.Do(ctx, chromedp.Blur(chromedp.CSS(`#tab-charts .chart[data-chart="queues"] canvas`))))
	screenshot(t, ctx)
	eval[bool](t, ctx, `(window.LB.i18n.set("zh"), true)`)
	waitFor(t, ctx, `document.querySelector('.chart[data-chart="queues"] .chart-title').textContent === "每个消费者的队列数"`)
	assert.Empty(t, con.Errors(), "console errors")
}

// A run with consume failures: the Charts tab draws the messages sent back (and the dead
// letters and the filtered, none here) once there are any.
func TestBrowserChartsOfFailures(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?preset=groups")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800)))
	dispatch(t, ctx, `{type: "step", ms: 20000}`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("tab-button-charts"))))
	waitFor(t, ctx, `window.LB.charts && !document.getElementById("tab-charts").hidden`)
	eval[bool](t, ctx, `(window.LB.charts.redraw(), true)`)
	got := eval[map[string]any](t, ctx, `(() => {
		const fig = document.querySelector('#tab-charts .chart[data-chart="failures"]'), c = fig.querySelector("canvas");
		const px = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let ink = 0;
		for (let i = 3; i < px.length; i += 4) if (px[i] > 0) ink++;
		const d = window.lbscope.series();
		return {hidden: fig.hidden, ink, legend: [...fig.querySelectorAll(".chart-legend li")].map(li => li.textContent),
			retried: d.retried[d.retried.length - 1], metric: window.lbscope.state().metrics.retried};
	})()`)
	assert.Equal(t, false, got["hidden"])
	assert.Greater(t, got["ink"], 1000.0)
	assert.Equal(t, []any{"Sent back", "Dead letters", "Filtered by tag"}, got["legend"])
	assert.Positive(t, got["retried"])
	assert.LessOrEqual(t, got["retried"], got["metric"], "a count of the run so far")
	assert.Empty(t, con.Errors())
}
