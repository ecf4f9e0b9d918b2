//go:build !js

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Logs larger than one call carries (a day of a client's log) are handed over in slices, the
// progress said and a Stop button shown meanwhile, and read as one: the kill logs, the first
// padded past 1 MiB with lines that are not about rebalancing, give the history the small ones
// give. Stop hands nothing over; inputs past the command line's limits are refused in the
// page's language, naming their size, the limits and the command that reads them whole.
func TestBrowserImportTooLarge(t *testing.T) {
	ctx := playground(t)
	dir := t.TempDir()
	var files []string
	for _, f := range []string{"a-java-4.9.8.log", "b-java-5.1.4.log", "c-go-2.1.2.log"} {
		data, err := os.ReadFile(logFixtures + "kill/" + f)
		require.NoError(t, err)
		if f == "a-java-4.9.8.log" {
			pad := strings.Repeat("2026-12-04 10:00:00,000 INFO RocketmqClient - PullMessageService service started\n", 20000)
			data = append([]byte(pad), data...)
		}
		p := filepath.Join(dir, f)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		files = append(files, p)
	}
	con := open(t, ctx, "?lang=en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetUploadFiles(chromedp.ID("import-files"), files)))
	waitFor(t, ctx, `document.getElementById("import-status").textContent === LB.i18n.t("import.dropped", {n: 3})`)
	eval[bool](t, ctx, `(() => {
		window.seen = [];
		new MutationObserver(() => {
			const s = document.getElementById("import-status").textContent;
			if (s.startsWith("Handing")) window.seen.push(s + (document.getElementById("import-cancel").hidden ? "" : " [stop]"));
		}).observe(document.getElementById("import-status"), {childList: true, characterData: true, subtree: true});
		return true;
	})()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="orphaned-window"]') !== null || document.getElementById("import-status").textContent.startsWith("Could")`)
	status := eval[string](t, ctx, `document.getElementById("import-status").textContent`)
	require.False(t, strings.HasPrefix(status, "Could"), status)
	text := eval[string](t, ctx, `document.getElementById("import-report").textContent`)
	assert.Contains(t, text, "3 spans in which a queue had no owner, the longest 35 ms (broker-b:2 from 2026-12-04 10:00:58.310)")
	assert.Contains(t, text, "a-java-4.9.8.log:20022")
	seen := eval[[]string](t, ctx, `window.seen`)
	require.NotEmpty(t, seen, "no progress was said")
	assert.Regexp(t, `^Handing the inputs over in slices: [0-9.]+ of 1\.[0-9] MB… \[stop\]$`, seen[0])
	assert.True(t, eval[bool](t, ctx, `document.getElementById("import-cancel").hidden`), "Stop is hidden once handed over")
	assert.False(t, eval[bool](t, ctx, `document.getElementById("import-open").disabled`), "the logged group opens as a scenario")

	// Stop: nothing is read, and the report is gone.
	eval[bool](t, ctx, `(() => {
		document.getElementById("import-run").click();
		setTimeout(() => document.getElementById("import-cancel").click(), 0);
		return true;
	})()`)
	waitFor(t, ctx, `document.getElementById("import-status").textContent === "Stopped: nothing was read."`)
	assert.Empty(t, eval[string](t, ctx, `document.getElementById("import-report").textContent`))
	assert.True(t, eval[bool](t, ctx, `document.getElementById("import-open").disabled`))

	// Past one log's limit: refused, in both languages.
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = "2026-12-04 10:00:00,000 INFO x\n".repeat(1200000); return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.getElementById("import-status").textContent.startsWith("The inputs are")`)
	status = eval[string](t, ctx, `document.getElementById("import-status").textContent`)
	assert.Regexp(t, `^The inputs are 3[0-9]\.[0-9] MB; the page reads at most 32\.0 MB of one log and 64\.0 MB in all\. Read larger logs with lbscope diagnose FILE…, or paste the part around the moment that matters\.$`, status)
	assert.True(t, eval[bool](t, ctx, `document.getElementById("import-open").disabled`))
	eval[bool](t, ctx, `(() => { LB.i18n.set("zh"); return true; })()`)
	waitFor(t, ctx, `document.getElementById("import-status").textContent.startsWith("输入共")`)
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("import-status").textContent`), "页面最多读取单个日志 32.0 MB、总共 64.0 MB。更大的日志请用 lbscope diagnose FILE… 读取")
	eval[bool](t, ctx, `(() => { LB.i18n.set("en"); return true; })()`)

	assert.Empty(t, con.Errors())
}
