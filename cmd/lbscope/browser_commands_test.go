//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The panel's consumer buttons are the command table's consumer menu commands, worded by the
// table, enabled from the statuses the table names: an entry added to the table gets its
// button with no edit of the page.
func TestBrowserPanelButtonsComeFromTheCommandTable(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=zh")
	dispatch(t, ctx, `{type: "step", ms: 2000}`)
	waitFor(t, ctx, `document.querySelectorAll("button[data-command]").length > 0 && document.getElementById("consumer-target").value !== ""`)
	got := eval[map[string]any](t, ctx, `(() => {
		const table = lbscope.commands().filter((c) => c.target === "consumer" && c.menu);
		const btns = [...document.querySelectorAll("button[data-command]")];
		const c = lbscope.state().consumers.find((x) => x.id === document.getElementById("consumer-target").value);
		return {
			same: JSON.stringify(table.map((c) => c.name)) === JSON.stringify(btns.map((b) => b.dataset.command)),
			labels: btns.every((b, i) => b.textContent === table[i].words.zh.label),
			enabled: btns.every((b, i) => b.disabled === !table[i].from.includes(c.status)),
			stop: document.getElementById("consumer-stop").textContent,
			killBroker: document.getElementById("broker-kill").textContent,
		};
	})()`)
	assert.Equal(t, true, got["same"], "one button per consumer command of the table, in its order")
	assert.Equal(t, true, got["labels"], "the table's words")
	assert.Equal(t, true, got["enabled"], "enabled from the table's statuses")
	assert.Equal(t, "正常关闭", got["stop"], "stopConsumer has the canvas's name")
	assert.Equal(t, "停掉 Broker", got["killBroker"])
	assert.Empty(t, con.Errors())
}

// The producers' controls send their commands: the send mode and threads (setSendMode,
// setProducerThreads) and the latency tiers editor (setLatencyTiers), which refuses what is not
// a list of whole milliseconds before sending anything.
func TestBrowserCommandsProducerSends(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "step", ms: 1000}`)
	waitFor(t, ctx, `document.getElementById("latency-max").value === lbscope.state().producers[0].latencyMax.join(",")`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("producer-threads"), "8"), chromedp.Click(chromedp.ID("sends-apply"))))
	waitFor(t, ctx, `lbscope.state().producers[0].threads === 8 && lbscope.state().producers[0].mode === "sync"`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("send-mode"), "async"), chromedp.Click(chromedp.ID("sends-apply"))))
	waitFor(t, ctx, `lbscope.state().producers[0].mode === "async" && lbscope.state().producers[0].threads === 0`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("latency-max"), "50, 100,550,1800"),
		chromedp.SetValue(chromedp.ID("not-available-duration"), "0,0,30000,60000"), chromedp.Click(chromedp.ID("tiers-apply"))))
	waitFor(t, ctx, `JSON.stringify(lbscope.state().producers[0].latencyMax) === "[50,100,550,1800]" && JSON.stringify(lbscope.state().producers[0].notAvailableDuration) === "[0,0,30000,60000]"`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("latency-max"), "50,1.5"), chromedp.Click(chromedp.ID("tiers-apply"))))
	waitFor(t, ctx, `!document.getElementById("panel-feedback").hidden`)
	assert.Equal(t, "Write the tiers as whole milliseconds separated by commas, e.g. 50,100,550.",
		eval[string](t, ctx, `document.getElementById("panel-feedback").textContent`))
	assert.Equal(t, "[50,100,550,1800]", eval[string](t, ctx, `JSON.stringify(lbscope.state().producers[0].latencyMax)`), "nothing was sent")
	assert.Empty(t, con.Errors())
}
