//go:build !js

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
