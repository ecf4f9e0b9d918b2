//go:build !js

package main

import (
	"os"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pageParam is one parameter input of the panel's strategy form as the page shows it.
type pageParam struct {
	Strategy string `json:"strategy"`
	Param    string `json:"param"`
	Hidden   bool   `json:"hidden"`
	Label    string `json:"label"`
	Min      string `json:"min"`
	Max      string `json:"max"`
}

const readStrategyForm = `(() => [...document.querySelectorAll("#panel .strategy-form .field[data-param]")].map(f => {
	const c = f.querySelector("input, select");
	return {strategy: f.dataset.strategy, param: f.dataset.param, hidden: f.hidden, label: f.querySelector("label").textContent,
		min: c.getAttribute("min") || "", max: c.getAttribute("max") || ""};
}))()`

const chooseStrategy = `((name, values) => {
	const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("change")); };
	set("strategy", name);
	for (const [k, v] of Object.entries(values || {})) set("strategy-" + name + "-" + k, v);
	return true; })`

// The panel's strategy choice and parameter inputs are the strategy table's
// (lbscope.strategies()): each strategy's editable parameters with their limits and words,
// shown while chosen (and while their condition holds), sent with setStrategy, refused by the
// engine past their limits; in English and Chinese.
func TestBrowserStrategyFormFollowsTheTable(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	waitFor(t, ctx, `document.getElementById("strategy") !== null`)
	assert.Equal(t, eval[[]string](t, ctx, `lbscope.strategies().map(s => s.name)`),
		eval[[]string](t, ctx, `[...document.getElementById("strategy").options].map(o => o.value)`), "one choice per strategy, in the table's order")

	// Every editable parameter of the table has its input, with the table's limits and label.
	type schemaParam struct {
		Strategy, Param, Label string
		Min, Max               *int
	}
	want := eval[[]schemaParam](t, ctx, `lbscope.strategies().flatMap(s => s.params.filter(p => p.type !== "queues").map(p =>
		({strategy: s.name, param: p.name, label: p.words.en.label, min: p.min === undefined ? null : p.min, max: p.max === undefined ? null : p.max})))`)
	require.Len(t, want, 4, "virtualNodeCnt, consumeridcs, inner, innerVirtualNodeCnt")
	got := eval[[]pageParam](t, ctx, readStrategyForm)
	require.Len(t, got, len(want))
	for i, w := range want {
		assert.Equal(t, w.Strategy+"."+w.Param+": "+w.Label, got[i].Strategy+"."+got[i].Param+": "+got[i].Label)
		if w.Min != nil {
			assert.Equal(t, strconv.Itoa(*w.Min)+"…"+strconv.Itoa(*w.Max), got[i].Min+"…"+got[i].Max, w.Param)
		}
	}

	visible := func() (out []string) {
		for _, p := range eval[[]pageParam](t, ctx, readStrategyForm) {
			if !p.Hidden {
				out = append(out, p.Param)
			}
		}
		return out
	}
	eval[bool](t, ctx, chooseStrategy+`("AVG")`)
	assert.Empty(t, visible(), "AVG takes no parameter")
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("strategy-hint").textContent`), "Contiguous blocks")
	eval[bool](t, ctx, chooseStrategy+`("MACHINE_ROOM_NEARBY", {inner: "AVG"})`)
	assert.Equal(t, []string{"inner"}, visible())
	eval[bool](t, ctx, chooseStrategy+`("MACHINE_ROOM_NEARBY", {inner: "CONSISTENT_HASH"})`)
	assert.Equal(t, []string{"inner", "innerVirtualNodeCnt"}, visible(), "inner virtual nodes only with a CONSISTENT_HASH inner")

	// Applying sends the form's parameters; the state names the inner strategy.
	eval[bool](t, ctx, chooseStrategy+`("MACHINE_ROOM_NEARBY", {inner: "CONSISTENT_HASH", innerVirtualNodeCnt: "7"})`)
	eval[bool](t, ctx, `document.getElementById("strategy-apply").click(), true`)
	waitFor(t, ctx, `lbscope.state().strategy === "MACHINE_ROOM_NEARBY-CONSISTENT_HASH"`)
	eval[bool](t, ctx, chooseStrategy+`("CONSISTENT_HASH", {virtualNodeCnt: "40"})`)
	eval[bool](t, ctx, `document.getElementById("strategy-apply").click(), true`)
	waitFor(t, ctx, `lbscope.state().strategy === "CONSISTENT_HASH"`)
	// Past the table's limit the engine refuses, naming the parameter and its range.
	eval[bool](t, ctx, chooseStrategy+`("CONSISTENT_HASH", {virtualNodeCnt: "2000"})`)
	eval[bool](t, ctx, `document.getElementById("strategy-apply").click(), true`)
	waitFor(t, ctx, `!document.getElementById("panel-feedback").hidden`)
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("panel-feedback").textContent`), "virtualNodeCnt: 2000; want 0…1000")

	// In Chinese, the labels and the hint are the table's Chinese words.
	eval[bool](t, ctx, `(LB.i18n.set("zh"), true)`)
	eval[bool](t, ctx, chooseStrategy+`("MACHINE_ROOM_NEARBY", {inner: "CONSISTENT_HASH"})`)
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("strategy-hint").textContent`), "机房")
	assert.Equal(t, "内层虚拟节点数", eval[string](t, ctx, `document.querySelector("label[for=strategy-MACHINE_ROOM_NEARBY-innerVirtualNodeCnt]").textContent`))
	// The Compare tab's variants are built from the same table.
	assert.Equal(t, "内层策略", eval[string](t, ctx, `document.querySelector("label[for=compare-a-strategy-MACHINE_ROOM_NEARBY-inner]").textContent`))
	if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
		for _, theme := range []string{"light", "dark"} {
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800, chromedp.EmulateScale(2)),
				chromedp.Navigate(browserEnv.url+"?lang=zh&theme="+theme)))
			waitReady(t, ctx)
			waitFor(t, ctx, `document.getElementById("strategy") !== null`)
			eval[bool](t, ctx, chooseStrategy+`("MACHINE_ROOM_NEARBY", {inner: "CONSISTENT_HASH"})`)
			eval[bool](t, ctx, `document.querySelector("section[aria-labelledby=h-allocation]").scrollIntoView(), true`)
			shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err == nil {
				os.WriteFile(dir+"/strategy-form-"+theme+".png", shot, 0o644)
			}
		}
	}
	assert.Empty(t, con.Errors(), "console errors")
}

// The page knows strategies from the table alone: one more entry in lbscope.strategies()
// (as a strategy registered in the engine gives it) appears in the panel and the Compare
// tab with its parameter's limits and words, and the panel sends it with its parameter.
func TestBrowserStrategyRegisteredInTheTableShows(t *testing.T) {
	ctx := playground(t)
	beforePageScripts(t, ctx, `window.addEventListener("lbscope:started", () => setTimeout(() => {
		const strategies = window.lbscope.strategies;
		window.lbscope.strategies = () => strategies().concat([{name: "EVERY_NTH",
			words: {en: {hint: "Runs of step queues, dealt round."}, zh: {hint: "每 step 个队列一段，轮流分配。"}},
			params: [{name: "step", type: "int", min: 1, max: 8, default: 1, words: {en: {label: "Step"}, zh: {label: "步长"}}}]}]);
		const dispatch = window.lbscope.dispatch;
		window.sentStrategies = [];
		window.lbscope.dispatch = (c) => { if (c && c.type === "setStrategy") window.sentStrategies.push(c); return dispatch(c); };
	}, 0));`)
	con := open(t, ctx, "?lang=zh")
	waitFor(t, ctx, `document.getElementById("strategy-EVERY_NTH-step") !== null`)
	eval[bool](t, ctx, chooseStrategy+`("EVERY_NTH", {step: "3"})`)
	got := eval[[]pageParam](t, ctx, readStrategyForm)
	var step *pageParam
	for i := range got {
		if got[i].Strategy == "EVERY_NTH" {
			step = &got[i]
		}
	}
	require.NotNil(t, step, "EVERY_NTH's step has its input")
	assert.Equal(t, pageParam{Strategy: "EVERY_NTH", Param: "step", Label: "步长", Min: "1", Max: "8"}, *step)
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("strategy-hint").textContent`), "轮流分配")
	assert.True(t, eval[bool](t, ctx, `document.getElementById("compare-b-strategy-EVERY_NTH-step") !== null`), "the Compare tab offers it too")
	eval[bool](t, ctx, `document.getElementById("strategy-apply").click(), true`)
	waitFor(t, ctx, `window.sentStrategies.length === 1`)
	assert.Equal(t, map[string]any{"type": "setStrategy", "strategy": "EVERY_NTH", "params": map[string]any{"step": float64(3)}},
		eval[map[string]any](t, ctx, `window.sentStrategies[0]`))
	// This wasm has no such strategy registered: the engine refuses the parameter no strategy
	// it knows declares, naming it.
	waitFor(t, ctx, `!document.getElementById("panel-feedback").hidden`)
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("panel-feedback").textContent`), `unknown field "step"`)
	assert.Empty(t, con.Errors(), "console errors")
}
