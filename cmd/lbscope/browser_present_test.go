//go:build !js

package main

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallText lists the rendered elements under the elements matching sel whose own text (or
// whose value, for a form control) is drawn under min CSS px, as "tag.class 14px: text".
func smallText(t testing.TB, ctx context.Context, sel string, min float64) []string {
	t.Helper()
	return eval[[]string](t, ctx, `(() => {
		const out = [];
		for (const root of document.querySelectorAll(`+jsString(sel)+`)) {
			for (const el of [root, ...root.querySelectorAll("*")]) {
				if (!el.getClientRects().length || el.closest("[hidden], [aria-hidden=true]")) continue;
				const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== "");
				if (!own && !el.matches("button, select, textarea, input:is([type=text], [type=number], :not([type]))")) continue;
				const px = parseFloat(getComputedStyle(el).fontSize);
				if (px < `+strconv.FormatFloat(min, 'g', -1, 64)+`) out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "." + el.className + " " + px + "px: " + el.textContent.trim().slice(0, 40));
			}
		}
		return out; })()`)
}

// Presenter mode is for the whole page: the panel's status line, tabs and controls, a lesson
// being followed and the timeline under the stage are all at least 18 CSS px, in English and
// in Chinese, at a device pixel ratio of 2; out of presenter mode the page has its usual sizes.
func TestBrowserPresenterModeWholePage(t *testing.T) {
	ctx := playground(t)
	con := openScaled(t, ctx, "?lang=en&present=1", 1280, 800, 2)
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	dispatch(t, ctx, `{type: "killConsumer", id: "c2"}`)
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	waitFor(t, ctx, `document.getElementById("timeline-range") !== null && window.lbscope.layout().textPx === 18`)

	const where = "#panel, #timeline"
	for _, lang := range []string{"en", "zh"} {
		eval[bool](t, ctx, `(LB.i18n.set("`+lang+`"), true)`)
		eval[bool](t, ctx, `(LB.tabs.select("controls"), true)`)
		assert.Empty(t, smallText(t, ctx, where, 18), "%s, controls tab: text under 18 CSS px in presenter mode", lang)
		eval[bool](t, ctx, `(LB.tabs.select("lessons"), true)`)
		waitFor(t, ctx, `document.querySelector('.lesson-open[data-lesson="idle-consumers"]') !== null`)
		assert.Empty(t, smallText(t, ctx, where, 18), "%s, lessons tab: text under 18 CSS px in presenter mode", lang)
	}
	eval[bool](t, ctx, `(LB.i18n.set("en"), true)`)
	// A lesson followed: its steps and its explanation.
	eval[bool](t, ctx, `(document.querySelector('.lesson-open[data-lesson="idle-consumers"]').click(), true)`)
	waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-step.current") !== null`)
	assert.Empty(t, smallText(t, ctx, where, 18), "a lesson followed: text under 18 CSS px in presenter mode")
	assert.GreaterOrEqual(t, eval[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector("#tab-lessons .lesson-step.current")).fontSize)`), 18.0)
	assert.GreaterOrEqual(t, eval[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector("#panel .status-line")).fontSize)`), 18.0)
	assert.GreaterOrEqual(t, eval[float64](t, ctx, `parseFloat(getComputedStyle(document.getElementById("timeline-end")).fontSize)`), 18.0)
	screenshot(t, ctx) // LBSCOPE_SCREENSHOTS=dir keeps it, to look at

	// Presenter mode off: the panel's usual sizes, and the canvas's.
	eval[bool](t, ctx, `(LB.tabs.select("controls"), document.getElementById("present").click(), true)`)
	waitFor(t, ctx, `window.lbscope.layout().textPx === 12`)
	assert.NotEmpty(t, smallText(t, ctx, where, 18), "out of presenter mode the panel keeps its usual sizes")
	assert.Equal(t, 14.0, eval[float64](t, ctx, `parseFloat(getComputedStyle(document.getElementById("panel")).fontSize)`))
	assert.Empty(t, con.Errors(), "console errors")
}

// The Compare tab takes the width it needs: with it shown the panel widens, no variant's name
// is clipped or broken inside a word (in the pickers, the grids' captions, the cost table's
// header), and every colour the legends show is a colour of some cell of its grid, every
// marked cell (shared, orphaned) has its legend entry. Six consumers on four queues leave two
// with none: their entries have no colour.
func TestBrowserCompareTabWidth(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	narrow := eval[float64](t, ctx, `document.getElementById("panel").getBoundingClientRect().width`)
	dispatch(t, ctx, `{type: "load", preset: "incident-more-consumers-than-queues"}`)
	dispatch(t, ctx, `{type: "step", ms: 25000}`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("tab-button-compare"))))
	waitFor(t, ctx, `!document.getElementById("tab-compare").hidden`)
	eval[bool](t, ctx, `(() => {
		const set = (id, v) => { const el = document.getElementById(id); el.value = v; el.dispatchEvent(new Event("change")); };
		set("compare-by", "strategy");
		set("compare-a-strategy", "AVG_BY_CIRCLE");
		set("compare-b-strategy", "CONSISTENT_HASH");
		return true; })()`)
	eval[bool](t, ctx, `(document.getElementById("compare-run").click(), true)`)
	waitFor(t, ctx, `document.querySelector("#compare-table tbody tr[data-key=movedTotal]")`)
	wide := eval[float64](t, ctx, `document.getElementById("panel").getBoundingClientRect().width`)
	assert.Greater(t, wide, narrow+200, "the panel widens for the Compare tab (%g px, %g before)", wide, narrow)

	// Names broken inside a word or clipped: each word of a caption or header on one line,
	// inside its box; a select's chosen text within the select.
	broken := eval[[]string](t, ctx, `(() => {
		const out = [];
		for (const el of document.querySelectorAll("#tab-compare figcaption, #compare-table thead th, #tab-compare .compare-variant legend")) {
			if (el.scrollWidth > el.clientWidth + 1) out.push("clipped: " + el.textContent);
			const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
			for (let n = walk.nextNode(); n; n = walk.nextNode()) {
				const re = /\S+/g;
				for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
					const r = document.createRange();
					r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
					const lines = new Set([...r.getClientRects()].map((q) => Math.round(q.top)));
					if (lines.size > 1) out.push("broken: " + m[0] + " in " + el.textContent);
				}
			}
		}
		const ctx2 = document.createElement("canvas").getContext("2d");
		for (const sel of document.querySelectorAll("#tab-compare select")) {
			if (!sel.getClientRects().length) continue;
			const cs = getComputedStyle(sel);
			ctx2.font = cs.fontWeight + " " + cs.fontSize + " " + cs.fontFamily;
			const text = sel.options[sel.selectedIndex].text;
			const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 16; // the arrow
			if (ctx2.measureText(text).width > room) out.push("select " + sel.id + ": " + text + " in " + room + " px");
		}
		return out; })()`)
	assert.Empty(t, broken, "variant names clipped or broken")

	type legendView struct {
		Cells   [][]string `json:"cells"`
		Swatch  [][]string `json:"swatch"`
		None    []int      `json:"none"`
		Marked  [][]string `json:"marked"`
		Entries [][]string `json:"entries"`
	}
	lv := evalJSON[legendView](t, ctx, `(() => {
		const figs = [...document.querySelectorAll("#compare-results .compare-figure")];
		return {
			cells: figs.map((f) => [...f.querySelectorAll(".compare-cell")].map((c) => c.style.background).filter((b) => b)),
			swatch: figs.map((f) => [...f.querySelectorAll(".compare-legend .compare-swatch")].map((s) => s.style.background).filter((b) => b)),
			none: figs.map((f) => f.querySelectorAll(".compare-legend .compare-swatch.none").length),
			marked: figs.map((f) => [...new Set([...f.querySelectorAll(".compare-cell.overlap, .compare-cell.orphan")].map((c) => c.classList.contains("overlap") ? "overlap" : "orphan"))].sort()),
			entries: figs.map((f) => [...f.querySelectorAll(".compare-legend .compare-swatch.overlap, .compare-legend .compare-swatch.orphan")].map((s) => s.classList.contains("overlap") ? "overlap" : "orphan").sort()),
		}; })()`)
	require.Len(t, lv.Cells, 2, "a grid per variant")
	for i := range lv.Cells {
		for _, c := range lv.Swatch[i] {
			assert.Contains(t, lv.Cells[i], c, "grid %d: the legend's colour %s is no cell's", i, c)
		}
		for _, c := range lv.Cells[i] {
			assert.Contains(t, lv.Swatch[i], c, "grid %d: the cells' colour %s has no legend entry", i, c)
		}
		assert.Equal(t, lv.Marked[i], lv.Entries[i], "grid %d: the marked cells and their legend entries", i)
	}
	assert.Equal(t, 2, lv.None[0], "AVG_BY_CIRCLE leaves two of six consumers without a queue: no colour in their entries")
	screenshot(t, ctx) // LBSCOPE_SCREENSHOTS=dir keeps it, to look at
	assert.Empty(t, con.Errors(), "console errors")
}
