//go:build !js

package main

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/scenario"
)

// In the real page: kill a consumer, let time pass, compare AVG with CONSISTENT_HASH in the
// Compare tab. Both grids and the cost table show, and the queues moved are those of a
// native comparison of the same recorded scenario, taken from the page's share link.
func TestBrowserCompareTab(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "step", ms: 20000}`)
	dispatch(t, ctx, `{type: "killConsumer", id: "c2"}`)
	dispatch(t, ctx, `{type: "step", ms: 30000}`)

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("tab-button-compare"))))
	waitFor(t, ctx, `!document.getElementById("tab-compare").hidden`)
	// Choose the variants as a reader does, with the keyboard-operable selects.
	eval[bool](t, ctx, `(() => {
		const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("change")); };
		set("compare-by", "strategy");
		set("compare-a-strategy", "AVG");
		set("compare-b-strategy", "CONSISTENT_HASH");
		return true; })()`)
	assert.False(t, eval[bool](t, ctx, `document.getElementById("compare-b-strategy-CONSISTENT_HASH-virtualNodeCnt").closest(".field").hidden`),
		"CONSISTENT_HASH shows its virtual nodes")
	assert.True(t, eval[bool](t, ctx, `document.getElementById("compare-a-strategy-CONSISTENT_HASH-virtualNodeCnt").closest(".field").hidden`),
		"AVG has no virtual nodes")
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(chromedp.ID("compare-run")), chromedp.KeyEvent("\r")))
	waitFor(t, ctx, `document.querySelector("#compare-table tbody tr[data-key=movedTotal]")`)

	type pageView struct {
		Figures  int         `json:"figures"`
		Cells    []int       `json:"cells"`
		Coloured []int       `json:"coloured"`
		Labels   []string    `json:"labels"`
		Moved    []float64   `json:"moved"`
		PerAct   [][]float64 `json:"perAction"`
		Best     []bool      `json:"best"`
		Status   string      `json:"status"`
	}
	raw := eval[string](t, ctx, `JSON.stringify((() => {
		const figs = [...document.querySelectorAll("#compare-results .compare-figure")];
		const row = document.querySelector("#compare-table tr[data-key=movedTotal]");
		return {
			figures: figs.length,
			cells: figs.map(f => f.querySelectorAll(".compare-cell").length),
			coloured: figs.map(f => [...f.querySelectorAll(".compare-cell")].filter(c => c.style.background !== "").length),
			labels: [...document.querySelectorAll("#compare-table thead th")].slice(1).map(th => th.textContent),
			moved: [...row.querySelectorAll("td")].map(td => Number(td.dataset.value)),
			perAction: [...document.querySelectorAll("#compare-moved tbody tr")].map(tr => [...tr.querySelectorAll("td")].map(td => Number(td.dataset.value))),
			best: [...row.querySelectorAll("td")].map(td => td.classList.contains("best")),
			status: document.getElementById("compare-status").textContent,
		}; })())`)
	var got pageView
	require.NoError(t, json.Unmarshal([]byte(raw), &got))

	link := eval[string](t, ctx, `window.lbscope.share()`)
	sh, err := scenario.DecodeShare(link)
	require.NoError(t, err)
	sc := sh.Scenario
	var kept []scenario.Step
	for _, st := range sc.Timeline {
		if st.At.Ms() <= sh.TimeMs {
			kept = append(kept, st)
		}
	}
	sc.Timeline, sc.Until = kept, scenario.Duration(sh.TimeMs)
	want, err := scenario.Compare(sc, []scenario.Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH", Params: nil}})
	require.NoError(t, err)

	assert.Equal(t, 2, got.Figures, "a grid per variant")
	assert.Equal(t, []int{32, 32}, got.Cells, "4 brokers × 8 queues in each grid")
	assert.Equal(t, []int{32, 32}, got.Coloured, "every queue has one owner, drawn in its colour")
	assert.Equal(t, []string{"AVG", "CONSISTENT_HASH virtualNodeCnt=10"}, got.Labels)
	require.Len(t, got.Moved, 2)
	assert.Equal(t, float64(want.Rows[0].MovedTotal), got.Moved[0], "AVG's queues moved")
	assert.Equal(t, float64(want.Rows[1].MovedTotal), got.Moved[1], "CONSISTENT_HASH's queues moved")
	require.Len(t, got.PerAct, len(want.Rows[0].Moved))
	for i, m := range want.Rows[0].Moved {
		assert.Equal(t, []float64{float64(m.Queues), float64(want.Rows[1].Moved[i].Queues)}, got.PerAct[i], "action %d", i)
	}
	assert.Equal(t, []bool{false, true}, got.Best, "fewer queues move under CONSISTENT_HASH: its cell is highlighted")
	assert.Contains(t, got.Status, "00:50")

	// Chinese: the table is drawn again in the reader's language.
	eval[bool](t, ctx, `(LB.i18n.set("zh"), true)`)
	assert.Equal(t, "代价", eval[string](t, ctx, `document.querySelector("#compare-table thead th").textContent`))
	assert.Equal(t, "迁移的队列总数", eval[string](t, ctx, `document.querySelector("#compare-table tr[data-key=movedTotal] th").textContent`))
	eval[bool](t, ctx, `(LB.i18n.set("en"), true)`)

	// A wrong call says what is wrong.
	errText := eval[string](t, ctx, `window.lbscope.compare({variants: [{strategy: "AVG"}]}).then(r => r.error)`)
	assert.Contains(t, errText, "variants: 1 given; want 2 to 4")

	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 1700)))
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID("tab-compare")))
	require.NoError(t, err)
	if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
		os.WriteFile(dir+"/compare-tab.png", shot, 0o644)
	}
	assert.Empty(t, con.Errors(), "console errors")
}

// By client: a Go consumer joins the Java group under CONSISTENT_HASH, so the group has
// queues doubled or orphaned (rocketmq-client-go#419); compared with every consumer on Java
// and every consumer on Go, each grid has every queue with one owner.
func TestBrowserCompareByClient(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "setStrategy", strategy: "CONSISTENT_HASH"}`)
	dispatch(t, ctx, `{type: "step", ms: 10000}`)
	dispatch(t, ctx, `{type: "addConsumer", client: "go-2.1.2"}`)
	dispatch(t, ctx, `{type: "step", ms: 30000}`)
	require.Positive(t, eval[int](t, ctx, `lbscope.state().consumers.filter(c => c.client === "go-2.1.2").length`))

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("tab-button-compare"))))
	waitFor(t, ctx, `!document.getElementById("tab-compare").hidden`)
	eval[bool](t, ctx, `(() => {
		const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("change")); };
		set("compare-by", "client");
		set("compare-a-client", "java");
		set("compare-b-client", "go-2.1.2");
		return true; })()`)
	assert.False(t, eval[bool](t, ctx, `document.getElementById("compare-a-client").closest(".compare-client").hidden`), "the client choice shows")
	assert.True(t, eval[bool](t, ctx, `document.getElementById("compare-a-strategy").closest(".compare-strategy").hidden`), "the strategy choice hides")
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(chromedp.ID("compare-run")), chromedp.KeyEvent("\r")))
	waitFor(t, ctx, `document.querySelector("#compare-table tbody tr[data-key=movedTotal]")`)

	var got struct {
		Labels   []string `json:"labels"`
		Cells    []int    `json:"cells"`
		Coloured []int    `json:"coloured"`
	}
	raw := eval[string](t, ctx, `JSON.stringify((() => {
		const figs = [...document.querySelectorAll("#compare-results .compare-figure")];
		return {
			labels: [...document.querySelectorAll("#compare-table thead th")].slice(1).map(th => th.textContent),
			cells: figs.map(f => f.querySelectorAll(".compare-cell").length),
			coloured: figs.map(f => [...f.querySelectorAll(".compare-cell")].filter(c => c.style.background !== "").length),
		}; })())`)
	require.NoError(t, json.Unmarshal([]byte(raw), &got))
	assert.Equal(t, []string{"java", "go-2.1.2"}, got.Labels)
	assert.Equal(t, []int{32, 32}, got.Cells)
	assert.Equal(t, []int{32, 32}, got.Coloured, "one client in the group: every queue has one owner")

	eval[bool](t, ctx, `(LB.i18n.set("zh"), true)`)
	assert.Equal(t, "客户端 SDK（所有消费者使用同一种）", eval[string](t, ctx, `document.querySelector("#compare-by option[value=client]").textContent`))
	eval[bool](t, ctx, `(LB.i18n.set("en"), true)`)
	assert.Empty(t, con.Errors(), "console errors")
}
