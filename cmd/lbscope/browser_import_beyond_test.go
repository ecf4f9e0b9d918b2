//go:build !js

package main

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The Dashboard's cluster page, a consumer list and a broker's STATUS table, as users pasted
// them into issues, are shown in the Import dialog as lbscope diagnose prints them: the
// brokers with their roles, the groups with their connections, and the broker's day — in
// English and Chinese.
func TestBrowserImportShowsBrokersAndGroups(t *testing.T) {
	ctx := playground(t)
	var files []string
	for _, f := range []string{"real-9.1-cluster-externals685.txt", "real-9.5-consumer-list-rocketmq3323.txt", "real-9.3-broker-status-clientgo601.txt"} {
		p, err := filepath.Abs("../../core/admin/testdata/tables/" + f)
		require.NoError(t, err)
		files = append(files, p)
	}
	con := open(t, ctx, "?lang=en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("import-files"), files)))
	waitFor(t, ctx, `document.getElementById("import-status").textContent === LB.i18n.t("import.dropped", {n: 3})`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.getElementById("import-report").innerText.includes("Brokers")`)
	text := eval[string](t, ctx, `document.getElementById("import-report").innerText`)
	assert.Contains(t, text, "dstable-broker-002\t0\tmaster\t192.168.31.23:10911\tV4_7_1")
	assert.Contains(t, text, "dstable-broker-001\t1\tslave\t192.168.31.23:10915\tV4_7_1")
	assert.Contains(t, text, "default%consumerA\t1\tV4_5_2\tPUSH\tCLUSTERING\t1")
	assert.Contains(t, text, "brokerVersionDesc\tV4_8_0")
	// The day's counts as the cluster page's row of the same broker shows them (86 put,
	// 20509 got today; 646 and 13234 yesterday: dashboard-tables.md §9.2–9.3).
	assert.Contains(t, text, "messages today\t86 put, 20509 got")
	assert.Contains(t, text, "messages yesterday\t646 put, 13234 got")

	eval[bool](t, ctx, `(() => { LB.i18n.set("zh"); return true; })()`)
	waitFor(t, ctx, `document.getElementById("import-report").innerText.includes("Broker 列表")`)
	text = eval[string](t, ctx, `document.getElementById("import-report").innerText`)
	assert.Contains(t, text, "dstable-broker-002\t0\t主\t192.168.31.23:10911")
	assert.Contains(t, text, "消费者列表中的消费组")
	assert.Contains(t, text, "今天的消息\t写入 86，读取 20509")
	logShot(t, ctx, "beyond-zh") // for a look: LBSCOPE_SCREENSHOTS=DIR
	assert.Empty(t, con.Errors())
}
