//go:build !js

package main

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// selectorReport is what the Strategy tab shows for a selector.
type selectorReport struct {
	Hot   []string            `json:"hot"`
	Rows  map[string][]string `json:"rows"` // queue → hash, selector, hot key by hash, by selector
	Error string              `json:"error"`
}

const readSelector = `(() => {
	const rows = {};
	for (const tr of document.querySelectorAll("#strategy-report .selector-queues tbody tr")) {
		rows[tr.dataset.queue] = [...tr.querySelectorAll("td")].slice(1).map(td => td.textContent);
	}
	const err = document.getElementById("strategy-error");
	return {hot: [...document.querySelectorAll("#strategy-report .selector-hot")].map(p => p.textContent), rows,
		error: err.hidden ? "" : err.textContent};
})()`

// The gallery's composite-key selector in the hot-key scenario: Check shows where each
// queue's messages go under the hash and under the selector (the hot key on one queue, then on
// four) and the hottest queue before and after; Apply sets it on the producer's keyed sends,
// and from then on the hot queue grows no faster than the others. In English and Chinese.
func TestBrowserSelectorEditor(t *testing.T) {
	scn, err := os.ReadFile("../../testdata/scenarios/hot-key.json")
	require.NoError(t, err)
	for _, c := range []struct{ lang, theme, hot, applied string }{
		{"en", "light", "Hottest queue: broker-a:0 with 5", "COMPOSITE_EXAMPLE is set"},
		{"zh", "dark", "最热的队列：按哈希（SelectMessageQueueByHash）是 broker-a:0，占 5", "已设置 COMPOSITE_EXAMPLE"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			ctx, con := openEditor(t, c.lang, c.theme)
			dispatch(t, ctx, `{type: "load", scenario: `+string(scn)+`}`)
			dispatch(t, ctx, `{type: "pause"}`)
			eval[bool](t, ctx, `(() => { const s = document.getElementById("strategy-gallery"); s.value = "composite"; s.dispatchEvent(new Event("change")); return true; })()`)
			eval[bool](t, ctx, `document.querySelector("#tab-strategy #strategy-check").click(), true`)
			waitFor(t, ctx, `document.querySelector("#strategy-report .selector-hot") !== null`)
			r := eval[selectorReport](t, ctx, readSelector)
			assert.Empty(t, r.Error)
			require.Len(t, r.Hot, 1)
			assert.Contains(t, r.Hot[0], c.hot)
			require.Len(t, r.Rows, 8, "one row a queue of the publish list")
			hotByHash, hotBySelector := 0, 0
			for q, row := range r.Rows {
				require.Len(t, row, 4, q)
				if row[2] != "0" {
					hotByHash++
				}
				if row[3] != "0" {
					hotBySelector++
				}
			}
			assert.Equal(t, 1, hotByHash, "the hash sends the hot key to one queue")
			assert.Equal(t, 4, hotBySelector, "the composite key spreads it over four")
			screenshot(t, ctx)

			// The panel's strategy form has a button with the editor's Apply's id: the tab's own.
			eval[bool](t, ctx, `document.querySelector("#tab-strategy #strategy-apply").click(), true`)
			waitFor(t, ctx, `document.getElementById("strategy-status").textContent !== "" || !document.getElementById("strategy-error").hidden`)
			require.Empty(t, eval[selectorReport](t, ctx, readSelector).Error)
			assert.Contains(t, eval[string](t, ctx, `document.getElementById("strategy-status").textContent`), c.applied)
			grew := func() map[string]int64 {
				const offsets = `Object.fromEntries(lbscope.state().queues.map(q => [q.queue, q.maxOffset]))`
				before := eval[map[string]int64](t, ctx, offsets)
				dispatch(t, ctx, `{type: "step", ms: 20000}`)
				after := eval[map[string]int64](t, ctx, offsets)
				out := map[string]int64{}
				for q, n := range after {
					out[q] = n - before[q]
				}
				return out
			}
			g := grew()
			assert.Less(t, g["broker-a:0"], 2*g["broker-a:1"], "under the selector the hot queue grows about as its neighbours: %v", g)
			assert.Empty(t, con.Errors())
		})
	}
}

// A selector that throws fails the keyed sends it places, as the client's does: Check names
// its line, and after Apply the failed sends are counted and the log says why.
func TestBrowserSelectorEditorErrors(t *testing.T) {
	scn, err := os.ReadFile("../../testdata/scenarios/hot-key.json")
	require.NoError(t, err)
	ctx, con := openEditor(t, "en", "light")
	dispatch(t, ctx, `{type: "load", scenario: `+string(scn)+`}`)
	dispatch(t, ctx, `{type: "pause"}`)
	src := "def select(queues, message, arg):\n    if message.key == 'streamer-0':\n        fail('no queue for ' + arg)\n    return queues[0]\n"
	r := editorRun(t, ctx, "PICKY", src, "check")
	assert.Contains(t, r.Error, "line 3")
	assert.Contains(t, r.Error, "fail: no queue for streamer-0")
	assert.Equal(t, "▶3", r.Marked)
	r = editorRun(t, ctx, "PICKY", src, "apply")
	assert.Empty(t, r.Error, "it compiles: it fails only when called")
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	assert.Greater(t, eval[int64](t, ctx, `lbscope.state().metrics.sendFailures`), int64(500))
	assert.Empty(t, con.Errors())
}

// The Compare tab takes the Strategy tab's source as a variant, "your strategy": the port of
// AVG beside AVG, the comparison names it and finds it moving the queues AVG moves.
func TestBrowserCompareOwnStrategy(t *testing.T) {
	for _, c := range []struct{ lang, own string }{{"en", "Your strategy"}, {"zh", "你的策略"}} {
		t.Run(c.lang, func(t *testing.T) {
			ctx, con := openEditor(t, c.lang, "light")
			eval[bool](t, ctx, `LB.editor.set(lbscope.gallery().find(g => g.id === "avg").source, "AVG_PORT"), true`)
			dispatch(t, ctx, `{type: "step", ms: 20000}`)
			dispatch(t, ctx, `{type: "killConsumer", id: "c2"}`)
			dispatch(t, ctx, `{type: "step", ms: 30000}`)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("tab-button-compare"))))
			waitFor(t, ctx, `!document.getElementById("tab-compare").hidden && document.getElementById("compare-b-strategy") !== null`)
			assert.Contains(t, eval[string](t, ctx, `document.querySelector('#compare-b-strategy option[value="@own"]').textContent`), c.own)
			eval[bool](t, ctx, `(() => {
				const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("change")); };
				set("compare-by", "strategy");
				set("compare-a-strategy", "AVG");
				set("compare-b-strategy", "@own");
				return true; })()`)
			eval[bool](t, ctx, `document.getElementById("compare-run").click(), true`)
			waitFor(t, ctx, `document.querySelector("#compare-table tbody tr[data-key=movedTotal]")`)
			labels := eval[[]string](t, ctx, `[...document.querySelectorAll("#compare-table thead th")].slice(1).map(th => th.textContent)`)
			require.Len(t, labels, 2)
			assert.Contains(t, labels[1], "AVG_PORT", "the comparison names your strategy")
			moved := eval[[]float64](t, ctx, `[...document.querySelector("#compare-table tr[data-key=movedTotal]").querySelectorAll("td")].map(td => Number(td.dataset.value))`)
			require.Len(t, moved, 2)
			assert.Equal(t, moved[0], moved[1], "the port of AVG moves what AVG moves")
			assert.Greater(t, moved[0], float64(0))
			assert.Empty(t, con.Errors())
		})
	}
}
