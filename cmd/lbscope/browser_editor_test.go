//go:build !js

package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// editorReport is what the Strategy tab's report shows.
type editorReport struct {
	Verdict  string   `json:"verdict"`
	Doubled  []string `json:"doubled"`
	Orphaned string   `json:"orphaned"`
	Spread   string   `json:"spread"`
	Moves    []string `json:"moves"`
	Error    string   `json:"error"`
	Marked   string   `json:"marked"`
}

const readEditor = `(() => {
	const text = (id) => { const el = document.getElementById(id); return el ? el.textContent : ""; };
	const err = document.getElementById("strategy-error");
	return {verdict: text("strategy-verdict"), orphaned: text("strategy-orphaned"), spread: text("strategy-spread"),
		doubled: [...document.querySelectorAll("#strategy-doubled li")].map(li => li.textContent),
		moves: [...document.querySelectorAll("#strategy-moves tbody tr")].map(tr => tr.textContent),
		error: err.hidden ? "" : err.textContent,
		marked: (document.querySelector(".editor-gutter").textContent.match(/▶\d+/) || [""])[0]};
})()`

// openEditor opens the playground in lang and theme with the Strategy tab shown, the
// interpreter loaded and the gallery in place.
func openEditor(t *testing.T, lang, theme string) (context.Context, *console) {
	t.Helper()
	ctx := playground(t)
	con := open(t, ctx, "?lang="+lang+"&theme="+theme)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("tab-button-strategy"))))
	waitFor(t, ctx, `LB.starlark.loaded() && document.getElementById("strategy-gallery").options.length > 0`)
	dispatch(t, ctx, `{type: "pause"}`)
	return ctx, con
}

// editorRun puts source in the editor under name and presses button (check or apply).
func editorRun(t *testing.T, ctx context.Context, name, source, button string) editorReport {
	t.Helper()
	eval[any](t, ctx, fmt.Sprintf(`LB.editor.set(%s, %s), LB.editor.%s().then(() => true)`, jsString(source), jsString(name), button))
	return eval[editorReport](t, ctx, readEditor)
}

// A newcomer opens the Strategy tab, picks the weighted example (each member weighs the
// group by its own view of the published metrics), presses Check and sees the queues its
// members leave to nobody or pull twice named, the spread and the moves against AVG; the port
// of AVG is found exact and allocates as AVG does, in the page too. In English and Chinese,
// both themes.
func TestBrowserStrategyEditorCheck(t *testing.T) {
	for _, c := range []struct{ lang, theme, exact, notExact, orphaned string }{
		{"en", "light", "Every queue is pulled exactly once.", "Not every queue is pulled exactly once.", "Orphaned:"},
		{"zh", "dark", "每个队列恰好被一个成员拉取。", "并非每个队列都恰好被一个成员拉取。", "孤立："},
	} {
		t.Run(c.lang, func(t *testing.T) {
			ctx, con := openEditor(t, c.lang, c.theme)
			dispatch(t, ctx, `{type: "step", ms: 34000}`) // the members have published their metrics
			eval[bool](t, ctx, `(() => { const s = document.getElementById("strategy-gallery"); s.value = "weighted"; s.dispatchEvent(new Event("change")); return true; })()`)
			eval[bool](t, ctx, `document.getElementById("strategy-check").click(), true`)
			waitFor(t, ctx, `document.getElementById("strategy-verdict") !== null`)
			r := eval[editorReport](t, ctx, readEditor)
			want := eval[map[string]any](t, ctx, `lbscope.checkStrategy({strategy: document.getElementById("strategy-name").value, source: document.getElementById("strategy-source").value})`)
			assert.Equal(t, c.notExact, r.Verdict)
			orphans, doubled := want["orphaned"].([]any), want["doubled"].([]any)
			require.NotEmpty(t, append(orphans, doubled...), "members that weigh by their own views disagree")
			for _, q := range orphans {
				assert.Contains(t, r.Orphaned, q.(string), "the orphaned queue is named")
			}
			for i, d := range doubled {
				assert.Contains(t, r.Doubled[i], d.(map[string]any)["queue"].(string), "the doubled queue is named")
			}
			assert.Contains(t, eval[string](t, ctx, `document.getElementById("strategy-report").textContent`), c.orphaned)
			assert.Len(t, r.Moves, 2, "one kill, one join, against AVG")
			screenshot(t, ctx)

			port := editorRun(t, ctx, "AVG_PORT", galleryAVG(t, ctx), "check")
			assert.Equal(t, c.exact, port.Verdict)
			assert.Equal(t, eval[string](t, ctx, `JSON.stringify(lbscope.checkStrategy({strategy: "AVG"}).members)`),
				eval[string](t, ctx, `JSON.stringify(lbscope.checkStrategy({strategy: "AVG_PORT", source: document.getElementById("strategy-source").value}).members)`),
				"the port allocates as the built-in AVG")
			assert.Empty(t, con.Errors())
		})
	}
}

func galleryAVG(t *testing.T, ctx context.Context) string {
	return eval[string](t, ctx, `lbscope.gallery().find(g => g.id === "avg").source`)
}

// A strategy that loops forever, one that builds too much, one that returns a queue that does
// not exist and one with a syntax error each show the Starlark message with its line, marked
// beside the text; the page goes on (the simulation steps, the next Check works).
func TestBrowserStrategyEditorErrors(t *testing.T) {
	ctx, con := openEditor(t, "en", "light")
	head := "def allocate(group, current, queues, consumers):\n"
	for _, c := range []struct{ name, body, button, line, msg string }{
		{"LOOP", "    n = 0\n    while True:\n        n += 1\n", "check", "▶4", "ran past its budget of 20000 steps"},
		{"BOMB", "    s = current\n    for i in range(40): s = s + s\n    return []\n", "check", "▶3", "would build more than its budget of 64 MiB of memory"},
		{"MISSING", "    return [queues[0], 'broker-z:9']\n", "check", "▶1", `item 1 of allocate's result, "broker-z:9", is not one of the queues passed in`},
		{"SYNTAX", "    return [q for q in queues if]\n", "check", "▶2", "syntax error"},
		{"SYNTAX", "    return [q for q in queues if]\n", "apply", "▶2", "syntax error"},
	} {
		t.Run(c.name+" "+c.button, func(t *testing.T) {
			r := editorRun(t, ctx, c.name, head+c.body, c.button)
			assert.Contains(t, r.Error, c.msg)
			assert.Contains(t, r.Error, "line "+c.line[len("▶"):])
			assert.Equal(t, c.line, r.Marked, "the line is marked beside the text")
			if c.name == "SYNTAX" {
				screenshot(t, ctx)
			}
		})
	}
	before := state(t, ctx).TimeMs
	dispatch(t, ctx, `{type: "step", ms: 1000}`)
	assert.Equal(t, before+1000, state(t, ctx).TimeMs, "the simulation goes on")
	ok := editorRun(t, ctx, "AVG_PORT", galleryAVG(t, ctx), "check")
	assert.Equal(t, "Every queue is pulled exactly once.", ok.Verdict)
	assert.Empty(t, ok.Error)
	assert.Empty(t, con.Errors())
}

// Apply sets the strategy on the live group: at the members' next rebalance the canvas's
// state shows its allocation; a strategy that throws in the simulation is what an exception
// in allocate is to the Java client: logged, the old queues kept, the run going on.
func TestBrowserStrategyEditorApply(t *testing.T) {
	ctx, con := openEditor(t, "en", "dark")
	r := editorRun(t, ctx, "EVERY_OTHER", everyOther, "apply")
	assert.Empty(t, r.Error)
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("strategy-status").textContent`), "EVERY_OTHER is set")
	dispatch(t, ctx, `{type: "step", ms: 25000}`)
	st := state(t, ctx)
	assert.Equal(t, "EVERY_OTHER", st.Strategy)
	_, q1 := consumer(st, "c1")
	require.NotEmpty(t, q1)
	assert.Equal(t, "broker-a:0", q1[0])

	held := map[string][]string{}
	for _, c := range st.Consumers {
		held[c.ID] = c.Queues
	}
	r = editorRun(t, ctx, "THROWS", "def allocate(group, current, queues, consumers):\n    fail('no weights yet')\n", "apply")
	assert.Empty(t, r.Error, "it compiles: it fails only when called")
	dispatch(t, ctx, `{type: "step", ms: 25000}`)
	st = state(t, ctx)
	for _, c := range st.Consumers {
		assert.Equal(t, held[c.ID], c.Queues, "%s keeps its queues when allocate throws", c.ID)
	}
	screenshot(t, ctx)
	assert.Empty(t, con.Errors())
}

// A lesson whose strategy comes with its source starts from the Lessons tab: the page loads
// the interpreter first, and the simulation completes its first step.
func TestBrowserStrategyLesson(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=zh")
	eval[bool](t, ctx, `document.getElementById("tab-button-lessons").click(), true`)
	waitFor(t, ctx, `document.querySelector('.lesson-open[data-lesson="rounding-nobody"]') !== null`)
	eval[bool](t, ctx, `document.querySelector('.lesson-open[data-lesson="rounding-nobody"]').click(), true`)
	waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 1`)
	assert.True(t, eval[bool](t, ctx, `LB.starlark.loaded()`))
	assert.Contains(t, eval[string](t, ctx, `document.querySelector(".lesson-step.done .lesson-explain").textContent`), "broker-b:7")
	assert.Equal(t, "ROUNDING", state(t, ctx).Strategy)
	assert.Empty(t, con.Errors())
}
