//go:build !js

package main

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Inputs over what one call may carry (a day of a client's log) are refused in the page's
// language, naming their size, the page's limit and the command that reads them whole; the
// dialog stays usable for a smaller paste.
func TestBrowserImportTooLarge(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = "2026-12-04 10:00:00,000 INFO x\n".repeat(45000); return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.getElementById("import-status").textContent.startsWith("The inputs are")`)
	status := eval[string](t, ctx, `document.getElementById("import-status").textContent`)
	assert.Equal(t, "The inputs are 1.4 MB; the page reads at most 1.0 MB at once. Read larger logs with lbscope diagnose FILE…, or paste the part around the moment that matters.", status)
	assert.True(t, eval[bool](t, ctx, `document.getElementById("import-open").disabled`))

	eval[bool](t, ctx, `(() => { LB.i18n.set("zh"); return true; })()`)
	waitFor(t, ctx, `document.getElementById("import-status").textContent.startsWith("输入共")`)
	assert.Equal(t, "输入共 1.4 MB；页面一次最多读取 1.0 MB。更大的日志请用 lbscope diagnose FILE… 读取，或只粘贴关键时刻前后的部分。",
		eval[string](t, ctx, `document.getElementById("import-status").textContent`))

	// A paste within the limit is read as before.
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = "#ClientId  #ClientAddr  #Language  #Version\n10.0.0.1@1  10.0.0.1:5000  JAVA  V4_9_4\n"; return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.getElementById("import-report").innerText.includes("10.0.0.1@1")`)
	assert.Empty(t, con.Errors())
}
