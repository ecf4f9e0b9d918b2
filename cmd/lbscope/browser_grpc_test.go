//go:build !js

package main

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A newcomer follows the gRPC lesson in either language: every gRPC PushConsumer holds each
// broker's acting queue; Add consumer from the panel starts a gRPC one (as the group's first
// member is) that consumes at once while nobody else changes; P2, killed holding messages,
// gets them cleared by the proxy when its channel expires and revived for the others, which
// the event log tells in the page's language (spec §8.4.6, §8.6.4).
func TestBrowserGrpcLessonFromThePanel(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?lesson=grpc-no-rebalance&lang="+lang)
			waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-step.current") !== null`)
			dispatch(t, ctx, `{type: "step", ms: 3000}`)
			waitFor(t, ctx, `lbscope.state().consumers.every(c => c.kind === "grpc-push" && c.queues.join(" ") === "broker-a:-1 broker-b:-1")`)

			eval[bool](t, ctx, `LB.tabs.select("controls"), true`)
			waitFor(t, ctx, `document.getElementById("cmd-addConsumer") !== null && document.getElementById("cmd-addConsumer-kind") !== null`)
			assert.Equal(t, "", eval[string](t, ctx, `document.getElementById("cmd-addConsumer-kind").value`), "the kind starts at its rule: as the group's first member")
			assert.NotContains(t, eval[string](t, ctx, `document.getElementById("cmd-addConsumer-kind").textContent`), "panel.", "its choices are worded")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cmd-addConsumer"))))
			waitFor(t, ctx, `lbscope.state().consumers.length === 4`)
			fourth := eval[string](t, ctx, `lbscope.state().consumers[3].id`)
			dispatch(t, ctx, `{type: "step", ms: 3000}`)
			waitFor(t, ctx, fmt.Sprintf(`(() => { const c = lbscope.state().consumers.find(c => c.id === %q); return c.kind === "grpc-push" && c.queues.length === 2 && c.consumed > 0; })()`, fourth))
			assert.True(t, eval[bool](t, ctx, `lbscope.state().consumers.every(c => c.queues.join(" ") === "broker-a:-1 broker-b:-1")`), "nobody's assignment changed")

			dispatch(t, ctx, `{type: "killConsumer", id: "P2"}`)
			killedAt := eval[float64](t, ctx, `lbscope.state().timeMs`)
			dispatch(t, ctx, `{type: "step", ms: 60000}`)
			// A minute on, P2's messages are still held, renewed by the proxy; only those its
			// parked receives popped after the kill came back, nacked (spec §8.4.6).
			want := map[string]string{"en": "P2's channel expired", "zh": "不再认得 P2"}[lang]
			expired := fmt.Sprintf(`[...document.querySelectorAll("#event-log li")].some(li => li.textContent.includes(%q))`, want)
			waitFor(t, ctx, fmt.Sprintf(`lbscope.state().timeMs >= %v + 60000 && lbscope.state().metrics.invisible > 0`, killedAt))
			assert.False(t, eval[bool](t, ctx, expired), "the proxy has not noticed P2 is gone a minute after the kill")
			early := eval[float64](t, ctx, `lbscope.state().metrics.revived || 0`)
			screenshot(t, ctx)
			dispatch(t, ctx, `{type: "step", ms: 80000}`)
			waitFor(t, ctx, fmt.Sprintf(`(lbscope.state().metrics.revived || 0) > %v + 100`, early))
			waitFor(t, ctx, expired)
			waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 3`)
			assert.Empty(t, con.Errors())
		})
	}
}

// A teacher follows the FIFO lesson in either language: every gRPC consumer of the orderly
// group has one assignment per queue; P1, hung from the panel, blocks the queues it holds
// batches of while P2 idles; killed, its batches come back to P2 only once its channel
// expires, where they were, and the lesson's steps complete (spec §8.3.9, §8.4.6).
func TestBrowserFifoLessonFromThePanel(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?lesson=grpc-fifo&lang="+lang)
			waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-step.current") !== null`)
			dispatch(t, ctx, `{type: "step", ms: 3000}`)
			waitFor(t, ctx, `lbscope.state().consumers.every(c => c.kind === "grpc-push" && c.queues.join(" ") === "broker-a:0 broker-a:1 broker-a:2 broker-a:3 broker-b:0 broker-b:1 broker-b:2 broker-b:3")`)

			eval[bool](t, ctx, `LB.tabs.select("controls"), true`)
			waitFor(t, ctx, `document.getElementById("consumer-hang") !== null`)
			eval[bool](t, ctx, `(() => { const s = document.getElementById("consumer-target"); s.value = "P1"; s.dispatchEvent(new Event("change")); return true; })()`)
			waitFor(t, ctx, `!document.getElementById("consumer-hang").disabled`)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("consumer-hang"))))
			waitFor(t, ctx, `lbscope.state().consumers.find(c => c.id === "P1").status === "hung"`)
			dispatch(t, ctx, `{type: "step", ms: 60000}`)
			waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 1`)

			dispatch(t, ctx, `{type: "killConsumer", id: "P1"}`)
			killedAt := eval[float64](t, ctx, `lbscope.state().timeMs`)
			dispatch(t, ctx, `{type: "step", ms: 60000}`)
			waitFor(t, ctx, fmt.Sprintf(`lbscope.state().timeMs >= %v + 60000`, killedAt))
			assert.Equal(t, 1, int(eval[float64](t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length`)), "a minute after the kill, P1's batches are still renewed")
			screenshot(t, ctx)
			dispatch(t, ctx, `{type: "step", ms: 120000}`)
			waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 2`)
			assert.Empty(t, con.Errors())
		})
	}
}
