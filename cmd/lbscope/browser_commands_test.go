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
			killBroker: document.getElementById("cmd-killBroker").textContent,
		};
	})()`)
	assert.Equal(t, true, got["same"], "one button per consumer command of the table, in its order")
	assert.Equal(t, true, got["labels"], "the table's words")
	assert.Equal(t, true, got["enabled"], "enabled from the table's statuses")
	assert.Equal(t, "正常关闭", got["stop"], "stopConsumer has the canvas's name")
	assert.Equal(t, "停掉 Broker", got["killBroker"])
	assert.Empty(t, con.Errors())
}

// The producers' controls send their commands: the send mode (setSendMode), the threads
// (setProducerThreads) and the latency tiers editor (setLatencyTiers), which refuses what is
// not a list of whole milliseconds before sending anything.
func TestBrowserCommandsProducerSends(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "step", ms: 1000}`)
	waitFor(t, ctx, `document.getElementById("cmd-setLatencyTiers-latencyMax").value === lbscope.state().producers[0].latencyMax.join(",")`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setProducerThreads-threads"), "8"), chromedp.Click(chromedp.ID("cmd-setProducerThreads"))))
	waitFor(t, ctx, `lbscope.state().producers[0].threads === 8 && lbscope.state().producers[0].mode === "sync"`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setSendMode-mode"), "async"), chromedp.Click(chromedp.ID("cmd-setSendMode"))))
	waitFor(t, ctx, `lbscope.state().producers[0].mode === "async" && lbscope.state().producers[0].threads === 0`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setLatencyTiers-latencyMax"), "50, 100,550,1800"),
		chromedp.SetValue(chromedp.ID("cmd-setLatencyTiers-notAvailableDuration"), "0,0,30000,60000"), chromedp.Click(chromedp.ID("cmd-setLatencyTiers"))))
	waitFor(t, ctx, `JSON.stringify(lbscope.state().producers[0].latencyMax) === "[50,100,550,1800]" && JSON.stringify(lbscope.state().producers[0].notAvailableDuration) === "[0,0,30000,60000]"`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setLatencyTiers-latencyMax"), "50,1.5"), chromedp.Click(chromedp.ID("cmd-setLatencyTiers"))))
	waitFor(t, ctx, `!document.getElementById("panel-feedback").hidden`)
	assert.Equal(t, "Write the tiers as whole milliseconds separated by commas, e.g. 50,100,550.",
		eval[string](t, ctx, `document.getElementById("panel-feedback").textContent`))
	assert.Equal(t, "[50,100,550,1800]", eval[string](t, ctx, `JSON.stringify(lbscope.state().producers[0].latencyMax)`), "nothing was sent")
	assert.Empty(t, con.Errors())
}

// The broker, group and producer sections have a control for every command of the table of
// their target, worded by the table and enabled from its "from": nothing is registered here,
// the page is checked against the table it was given. A broker going down turns the broker
// rows' enablement over as the table says.
func TestBrowserPanelRowsComeFromTheCommandTable(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=zh")
	dispatch(t, ctx, `{type: "step", ms: 1000}`)
	waitFor(t, ctx, `document.querySelector("[data-row]") !== null && document.getElementById("broker-target").value !== ""`)
	check := `(() => {
		// setSelector's form is the Strategy tab's editor (TestBrowserSelector*).
		const table = lbscope.commands().filter((c) => (["broker", "proxy", "group", "producer", "cluster"].includes(c.target) || c.target === "consumer" && !c.menu) &&
			(c.name === "setStrategy" || !c.args.some((a) => a.type === "source")));
		const b = lbscope.state().brokers.find((x) => x.name === document.getElementById("broker-target").value);
		const out = {missing: [], unlabelled: [], wrong: [], args: [], n: table.length};
		for (const c of table) {
			const row = document.querySelector('[data-row="' + c.name + '"]');
			if (!row) { out.missing.push(c.name); continue; }
			if (!row.textContent.includes(c.words.zh.label) && !row.querySelector("button, select")) out.unlabelled.push(c.name);
			if (/panel\./.test(row.textContent)) out.unlabelled.push(c.name + " (a key the dictionary lacks)");
			const btn = document.getElementById("cmd-" + c.name);
			if (c.target === "broker" && btn && btn.disabled !== !c.from.includes(b.down ? "down" : "up")) out.wrong.push(c.name);
			// setStrategy's form is the strategy table's (TestBrowserStrategy*).
			if (c.args.some((a) => a.type === "object")) continue;
			for (const a of c.args) {
				// The target's argument is the section's choice, a group's the panel's group choice.
				if (a.name === ({broker: "broker", proxy: "proxy", producer: "id", consumer: "id"})[c.target] || a.name === "group") continue;
				if (!document.getElementById("cmd-" + c.name + "-" + a.name)) out.args.push(c.name + "." + a.name);
			}
		}
		return out;
	})()`
	got := eval[map[string]any](t, ctx, check)
	assert.Greater(t, got["n"], 8.0, "the table has broker, group and producer commands")
	assert.Empty(t, got["missing"], "every command has its row")
	assert.Empty(t, got["unlabelled"], "worded by the table")
	assert.Empty(t, got["args"], "an input per argument")
	assert.Empty(t, got["wrong"], "enabled from the table's from, broker up")
	assert.Equal(t, "停掉 Broker", eval[string](t, ctx, `document.getElementById("cmd-killBroker").textContent`))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cmd-killBroker"))))
	waitFor(t, ctx, `lbscope.state().brokers.find((x) => x.name === document.getElementById("broker-target").value).down && !document.getElementById("cmd-restoreBroker").disabled`)
	got = eval[map[string]any](t, ctx, check)
	assert.Empty(t, got["wrong"], "enabled from the table's from, broker down")
	assert.Equal(t, true, eval[bool](t, ctx, `document.getElementById("cmd-killBroker").disabled`))
	// A choice worded from its unit, and a row that sends its arguments typed.
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("cmd-slowBroker-latencyMs").options[1].textContent`), "毫秒")
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-setQueues-queues"), "3"), chromedp.Click(chromedp.ID("cmd-setQueues"))))
	waitFor(t, ctx, `lbscope.state().brokers.find((x) => x.name === document.getElementById("broker-target").value).queues === 3`)
	eval[bool](t, ctx, `(() => { const s = document.getElementById("cmd-setMessageModel-model"); s.value = "BROADCASTING"; return s.dispatchEvent(new Event("change")); })()`)
	waitFor(t, ctx, `lbscope.state().messageModel === "BROADCASTING"`)
	assert.Empty(t, con.Errors())
}
