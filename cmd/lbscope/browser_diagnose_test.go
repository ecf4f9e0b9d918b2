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

// The reader of pastes is a wasm of its own, diagnose.wasm: the first load neither fetches
// nor carries it, lbscope.diagnose and lbscope.diagnoseStage load it on their first call and
// answer with a Promise, in the language lbscope.setLang chose (the reader carries its words in
// both); a failed load answers {error} naming the file, the Import dialog says it could not
// load the reader, and the next Diagnose tries again and reads.
func TestBrowserDiagnoseLoadsItsOwnWasm(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	fetched := `performance.getEntriesByType("resource").some((e) => e.name.endsWith("/diagnose.wasm"))`
	assert.False(t, eval[bool](t, ctx, `LB.lazy.loaded("diagnose")`), "the first load carries no reader")
	assert.False(t, eval[bool](t, ctx, fetched), "the first load fetches no reader")
	assert.Equal(t, []string{"function", "function"}, eval[[]string](t, ctx, `[typeof lbscope.diagnose, typeof lbscope.diagnoseStage]`))
	assert.Equal(t, "en", eval[string](t, ctx, `lbscope.lang()`))

	// The server fails the reader twice: a call says why, the dialog too, then both read.
	eval[bool](t, ctx, `(() => {
		const real = window.fetch;
		window.failsLeft = 2;
		window.fetch = function (url) {
			if (String(url).endsWith("diagnose.wasm") && window.failsLeft > 0) {
				window.failsLeft--;
				return Promise.resolve(new Response("busy", {status: 503, statusText: "Service Unavailable"}));
			}
			return real.apply(this, arguments);
		};
		return true; })()`)
	route, err := os.ReadFile(fixture(t, "16"))
	require.NoError(t, err)
	status, err := os.ReadFile(fixture(t, "20"))
	require.NoError(t, err)
	inputs, _ := json.Marshal([]map[string]string{{"name": "route.txt", "text": string(route)}, {"name": "status.txt", "text": string(status)}})
	got := eval[map[string]any](t, ctx, `lbscope.diagnose({inputs: `+string(inputs)+`})`)
	assert.Equal(t, "lbscope.diagnose: diagnose.wasm: HTTP 503 Service Unavailable", got["error"])
	assert.False(t, eval[bool](t, ctx, `LB.lazy.loaded("diagnose")`))

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	waitFor(t, ctx, `!document.getElementById("import-dialog").hidden`)
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = `+jsString(string(route)+"\n"+string(status))+`; return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.getElementById("import-status").textContent.startsWith("Could not load")`)
	assert.Equal(t, "Could not load the reader of outputs and logs: diagnose.wasm: HTTP 503 Service Unavailable. Press Diagnose to try again.",
		eval[string](t, ctx, `document.getElementById("import-status").textContent`))
	assert.True(t, eval[bool](t, ctx, `document.getElementById("import-open").disabled`))
	if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
		buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "import-load-failed-en.png"), buf, 0o644))
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="allocation-ok"]') !== null`)
	assert.True(t, eval[bool](t, ctx, `LB.lazy.loaded("diagnose") && `+fetched))
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("import-report").textContent`), "the allocation is sound")

	// The page's calls: a Promise each, the report in the language setLang chose, even when
	// the page's script calls setLang itself; the stage; errors named as the page's own calls'.
	got = eval[map[string]any](t, ctx, `lbscope.diagnose({inputs: `+string(inputs)+`})`)
	assert.Equal(t, "en", got["lang"])
	assert.Equal(t, []any{"allocation-ok"}, got["codes"])
	assert.Equal(t, "zh", eval[string](t, ctx, `lbscope.setLang("zh").lang`))
	got = eval[map[string]any](t, ctx, `lbscope.diagnose({inputs: `+string(inputs)+`})`)
	assert.Equal(t, "zh", got["lang"])
	require.NotEmpty(t, got["headlines"])
	assert.Contains(t, got["headlines"].([]any)[0].(map[string]any)["title"], "分配正常", "the reader carries the Chinese words")
	assert.Contains(t, eval[map[string]any](t, ctx, `lbscope.diagnose({inputs: [{name: "x", text: "hello"}]})`)["error"], "粘贴")
	assert.Equal(t, "en", eval[string](t, ctx, `lbscope.setLang("en").lang`))
	assert.Equal(t, map[string]any{"inputs": 1.0, "bytes": 5.0}, eval[map[string]any](t, ctx, `lbscope.diagnoseStage({name: "a.log", text: "hello"})`))
	assert.Equal(t, map[string]any{"inputs": 0.0, "bytes": 0.0}, eval[map[string]any](t, ctx, `lbscope.diagnoseStage({clear: true})`))
	for js, want := range map[string]string{
		`lbscope.diagnose()`: "lbscope.diagnose: needs an argument: {inputs: ",
		`lbscope.diagnose({inputs: [], queue: "broker-a:4"})`:               `lbscope.diagnose: unknown field "queue"`,
		`(() => { const a = {}; a.a = a; return lbscope.diagnose(a); })()`:  "lbscope.diagnose: the argument cannot become JSON: ",
		`lbscope.diagnoseStage({text: "x"})`:                                "lbscope.diagnoseStage: needs a name: ",
		`lbscope.diagnoseStage({name: "b.log", text: "x".repeat(1 << 20)})`: "lbscope.diagnoseStage: the argument is ",
	} {
		assert.Contains(t, eval[map[string]any](t, ctx, js)["error"], want, js)
	}
	assert.Empty(t, con.Errors())
}
