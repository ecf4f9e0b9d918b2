//go:build !js

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Three members' logs chosen at once in the Import dialog are read as one history: its
// findings (the windows after the kill, the rounds as AVG gives them) are shown in the page's
// language, in both themes.
func TestBrowserImportLogs(t *testing.T) {
	ctx := playground(t)
	var files []string
	for _, f := range []string{"a-java-4.9.8.log", "b-java-5.1.4.log", "c-go-2.1.2.log"} {
		p, err := filepath.Abs(logFixtures + "kill/" + f)
		require.NoError(t, err)
		files = append(files, p)
	}
	for _, theme := range []string{"light", "dark"} {
		con := openScaled(t, ctx, "?lang=en&theme="+theme, 1280, 900, 2)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
		waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
		require.NoError(t, chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("import-files"), files)))
		waitFor(t, ctx, `document.getElementById("import-status").textContent === LB.i18n.t("import.dropped", {n: 3})`)
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
		waitFor(t, ctx, `document.querySelector('#import-report [data-code="orphaned-window"]') !== null`)
		text := eval[string](t, ctx, `document.getElementById("import-report").innerText`)
		assert.Contains(t, text, "3 spans in which a queue had no owner, the longest 35 ms (broker-b:2 from 2026-12-04 10:00:58.310)")
		assert.Contains(t, text, "the logged rounds are what AVG gives")
		assert.Contains(t, text, "a-java-4.9.8.log:22 8 rounds of 3 members held against AVG")
		logShot(t, ctx, theme+"-en")

		eval[bool](t, ctx, `(() => { LB.i18n.set("zh"); return true; })()`)
		waitFor(t, ctx, `document.querySelector('#import-report [data-code="orphaned-window"]').textContent.includes("无人持有")`)
		text = eval[string](t, ctx, `document.getElementById("import-report").innerText`)
		assert.Contains(t, text, "3 个时段内队列无人持有，最长 35 ms（broker-b:2，自 2026-12-04 10:00:58.310 起）")
		assert.Contains(t, text, "没有时区的日志时间按 UTC+08:00 读取")
		logShot(t, ctx, theme+"-zh")
		assert.Empty(t, con.Errors())
	}

	// The dialog's load button plays the logged group beside its logs: just after the kill
	// (58.31 s) the simulation has handed the killed member's broker-b:2-3 on already, while
	// per the logs nobody holds them until 10.0.0.2's round at 58.345 s.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-open"))))
	waitFor(t, ctx, `document.getElementById("import-dialog").hidden && window.lbscope.state().observed != null`)
	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "seek", ms: 58320}`)
	waitFor(t, ctx, `!window.lbscope.state().reaching && window.lbscope.state().timeMs === 58320`)
	var st observedState
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.state())`)), &st))
	require.NotNil(t, st.Observed)
	assert.Equal(t, "3 client logs: a-java-4.9.8.log, b-java-5.1.4.log, c-go-2.1.2.log", st.Observed.Source)
	assert.Equal(t, "2026-12-04 10:00:00.000", st.Observed.Start)
	const a, b = "10.0.0.1@1001#1111", "10.0.0.2@2002#2222"
	queues := map[string][2][]string{}
	for _, q := range st.Queues {
		require.NotNil(t, q.Observed, "%s has its logged owners", q.Queue)
		queues[q.Queue] = [2][]string{q.Owners, *q.Observed}
	}
	assert.Equal(t, [2][]string{{b}, {}}, queues["broker-b:2"], "broker-b:2: the simulation's survivor; nobody per the logs")
	assert.Equal(t, [2][]string{{b}, {}}, queues["broker-b:3"], "broker-b:3: the simulation's survivor; nobody per the logs")
	assert.Equal(t, [2][]string{{a}, {a}}, queues["broker-a:0"], "broker-a:0: the same on both sides")
	assert.Equal(t, [2][]string{{b}, {b}}, queues["broker-b:0"], "broker-b:0: the same on both sides")
	logShot(t, ctx, "dark-zh-loaded")
}

// logShot keeps a screenshot under $LBSCOPE_SCREENSHOTS by its own name, to be looked at.
func logShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "import-logs-"+name+".png"), buf, 0o644))
	}
}

// Dashboard tables and the members' logs dropped together in the Import dialog are read as
// one report: the logs' windows and the tables' owners side by side, the consumer list's count
// explained, in both languages.
func TestBrowserImportTablesAndLogs(t *testing.T) {
	ctx := playground(t)
	var files []string
	for _, f := range []string{logFixtures + "kill/a-java-4.9.8.log", logFixtures + "kill/b-java-5.1.4.log", logFixtures + "kill/c-go-2.1.2.log",
		dashTables + "kill-list-angular-en-github.txt", dashTables + "kill-client-angular-en-tabs.txt", dashTables + "kill-detail-angular-en-tabs.txt"} {
		p, err := filepath.Abs(f)
		require.NoError(t, err)
		files = append(files, p)
	}
	con := openScaled(t, ctx, "?lang=en", 1280, 900, 1)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("import-files"), files)))
	waitFor(t, ctx, `document.getElementById("import-status").textContent === LB.i18n.t("import.dropped", {n: 6})`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="orphaned-window"]') !== null`)
	text := eval[string](t, ctx, `document.getElementById("import-report").textContent`)
	assert.Contains(t, text, "3 spans in which a queue had no owner, the longest 35 ms")
	assert.Contains(t, text, "the logged rounds are what AVG gives")
	assert.Contains(t, text, "the 8 queues whose owner is observed agree")
	assert.Contains(t, text, "the consumer list's Quantity for OrderGroup is 3 connections, not client ids")
	codes := eval[string](t, ctx, `[...document.querySelectorAll('#import-report [data-code]')].map(e => e.dataset.code).join(" ")`)
	assert.Equal(t, "double-owned-window orphaned-window allocation-ok allocation-ok", codes)

	eval[bool](t, ctx, `(() => { LB.i18n.set("zh"); return true; })()`)
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="orphaned-window"]').textContent.includes("无人持有")`)
	text = eval[string](t, ctx, `document.getElementById("import-report").textContent`)
	assert.Contains(t, text, "消费者列表中 OrderGroup 的数量为 3，统计的是连接数而非客户端 ID")
	assert.Empty(t, con.Errors())
}
