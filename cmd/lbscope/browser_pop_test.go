//go:build !js

package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The POP lesson as a newcomer plays it from the panel, in both languages (issue #24): a
// fourth member on three queues sits idle by PULL; switched to POP (the panel's consume mode
// row) it consumes; killed, a slow member's popped messages are revived later. The canvas
// shows the queues as popped (POP, no overlap) and the invisible messages, the log the revive.
func TestBrowserPopLessonFromThePanel(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?lesson=pop-fourth-consumer&lang="+lang)
			waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-step.current") !== null`)
			eval[bool](t, ctx, `LB.tabs.select("controls"), true`)
			waitFor(t, ctx, `document.getElementById("cmd-setConsumeMode") !== null && document.getElementById("cmd-addConsumer") !== null`)
			assert.NotContains(t, eval[string](t, ctx, `document.querySelector('[data-row="setConsumeMode"]').textContent`), "panel.", "the row is worded")

			// A fourth member: the brokers give it nothing by PULL.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cmd-addConsumer"))))
			dispatch(t, ctx, `{type: "step", ms: 5000}`)
			waitFor(t, ctx, `lbscope.state().consumers.length === 4`)
			fourth := eval[string](t, ctx, `lbscope.state().consumers[3].id`)
			waitFor(t, ctx, fmt.Sprintf(`lbscope.state().consumers.find(c => c.id === %q).queues.length === 0`, fourth))
			assert.False(t, eval[bool](t, ctx, fmt.Sprintf(`lbscope.state().consumers.find(c => c.id === %q).clientRebalance`, fourth)),
				"the added member asks the brokers, as the group's first does")

			// POP, from the panel.
			eval[bool](t, ctx, `(() => { const s = document.getElementById("cmd-setConsumeMode-consumeMode"); s.value = "POP"; s.dispatchEvent(new Event("change")); return true; })()`)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cmd-setConsumeMode"))))
			dispatch(t, ctx, `{type: "step", ms: 25000}`)
			waitFor(t, ctx, fmt.Sprintf(`(() => { const c = lbscope.state().consumers.find(c => c.id === %q); return c.queues.includes("broker-a:-1") && c.consumed > 0; })()`, fourth))
			assert.True(t, eval[bool](t, ctx, `lbscope.state().queues.every(q => q.topic !== "TopicPop" || (q.popped && q.owners.length === 4))`),
				"every queue is popped by all four")
			assert.Greater(t, eval[float64](t, ctx, `lbscope.state().metrics.invisible`), 0.0, "messages in flight")

			// c2, slow, is killed holding popped messages: revived about a minute later.
			dispatch(t, ctx, `{type: "killConsumer", id: "c2"}`)
			dispatch(t, ctx, `{type: "step", ms: 30000}`)
			waitFor(t, ctx, `lbscope.state().queues.some(q => q.invisible > 0)`)
			screenshot(t, ctx)
			dispatch(t, ctx, `{type: "step", ms: 40000}`)
			waitFor(t, ctx, `lbscope.state().metrics.revived > 0`)
			want := map[string]string{"en": "revives", "zh": "复活了"}[lang]
			waitFor(t, ctx, fmt.Sprintf(`[...document.querySelectorAll("#event-log li")].some(li => li.textContent.includes(%q) && li.textContent.includes("GID_POP_TopicPop"))`, want))
			waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 3`)
			assert.Empty(t, con.Errors())
		})
	}
}
