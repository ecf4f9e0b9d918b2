//go:build !js

package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer pastes a real topicRoute and consumerStatus into the Import dialog, reads what
// the consumer gets and the verdict, in English and then Chinese, and opens the group as a
// scenario. A line of markup in the paste shows as text and never becomes an element.
func TestBrowserImportDialog(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	route, err := os.ReadFile(fixture(t, "16"))
	require.NoError(t, err)
	status, err := os.ReadFile(fixture(t, "20"))
	require.NoError(t, err)
	paste := string(route) + "<img src=x onerror=\"window.__pasted=1\">\n" + string(status)
	js, _ := json.Marshal(paste)

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = `+string(js)+`; return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="allocation-ok"]') !== null`)

	text := eval[string](t, ctx, `document.getElementById("import-report").textContent`)
	assert.Contains(t, text, "Group please_rename_unique_group_name_4")
	assert.Contains(t, text, "192.168.1.104@14365")
	assert.Contains(t, text, "broker-a:0-3")
	assert.Contains(t, text, "the allocation is sound")
	assert.Contains(t, text, `<img src=x onerror=`, "the markup line is reported as text")
	assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll("#import-report img").length`))
	assert.False(t, eval[bool](t, ctx, `window.__pasted === 1`))

	// In Chinese, the verdict is Chinese.
	eval[bool](t, ctx, `(() => { LB.i18n.set("zh"); return true; })()`)
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="allocation-ok"]').textContent.includes("分配正常")`)
	assert.Equal(t, "作为场景打开", eval[string](t, ctx, `document.getElementById("import-open").textContent`))

	// Open it: the playground now runs the imported group.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-open"))))
	waitFor(t, ctx, `document.getElementById("import-dialog").hidden`)
	waitFor(t, ctx, `lbscope.state().consumers.length === 1 && lbscope.state().consumers[0].id === "192.168.1.104@14365"`)
	assert.Empty(t, con.Errors())
}
