//go:build !js

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An operator pastes what the Dashboard shows of a group into the Import dialog: the CLIENT
// dialog, where two rows share one ClientId, and the CONSUME DETAIL, both copied from the page
// as tabs. The dialog names the duplicate id and the share nobody pulls, and says the empty
// consumerClient cells are to be confirmed; in English, then in Chinese (dark theme, DPR 2).
func TestBrowserImportDashboardTables(t *testing.T) {
	ctx := playground(t)
	con := openScaled(t, ctx, "?lang=en&theme=dark", 1280, 900, 2)
	client, err := os.ReadFile(dashTables + "client-angular-en-tabs.txt")
	require.NoError(t, err)
	detail, err := os.ReadFile(dashTables + "detail-angular-en-tabs.txt")
	require.NoError(t, err)
	js, _ := json.Marshal(string(client) + "\n" + string(detail))

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = `+string(js)+`; return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="duplicate-client-id"]') !== null`)

	for _, lang := range []string{"en", "zh"} {
		en := lang == "en"
		pick := func(e, z string) string {
			if en {
				return e
			}
			return z
		}
		eval[bool](t, ctx, `(() => { LB.i18n.set("`+lang+`"); return true; })()`)
		waitFor(t, ctx, `document.querySelector('#import-report [data-code="duplicate-client-id"]').textContent.includes(`+
			pick(`"duplicate client id 172.17.0.1@1"`, `"重复的客户端 ID 172.17.0.1@1"`)+`)`)
		eval[bool](t, ctx, `(() => { document.querySelectorAll("#import-report details").forEach((d) => { d.open = true; }); return true; })()`)
		text := eval[string](t, ctx, `document.getElementById("import-report").innerText`)
		assert.Contains(t, text, pick("TopicTest broker-a:3-5 is pulled by nobody", "TopicTest broker-a:3-5 无人拉取"), lang)
		assert.Contains(t, eval[string](t, ctx, `document.querySelector('#import-report [data-code="unowned-queues"]').textContent`),
			pick("TopicTest: broker-a:3-5 pulled by nobody", "TopicTest：broker-a:3-5 无人消费"), lang)
		assert.Contains(t, text, pick("whether the 3 queues of TopicTest with an empty consumerClient are owned",
			"TopicTest 中 consumerClient 为空的 3 个队列是否有持有者"), lang)
		assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll('#import-report [data-code="allocation-ok"]').length`), lang)
		if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
			eval[bool](t, ctx, `(() => { document.querySelector('#import-report [data-code="duplicate-client-id"]').scrollIntoView(); return true; })()`)
			buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(dir, "import-dashboard-"+lang+".png"), buf, 0o644))
		}
	}
	assert.Empty(t, con.Errors())
}
