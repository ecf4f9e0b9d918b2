//go:build !js

package main

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// beforePageScripts runs script in every page the tab loads from now on, before the page's
// own scripts (e.g. to make storage throw as a browser blocking it does).
func beforePageScripts(t testing.TB, ctx context.Context, script string) {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return err
	})))
}

// openLessonsTab shows the Lessons tab and waits for its list.
func openLessonsTab(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `document.getElementById("tab-button-lessons").click(), true`)
	waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-open").length >= 12`)
}

func TestBrowserLessonInChineseCompletesAndIsRemembered(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=zh")
	eval[bool](t, ctx, `localStorage.removeItem("lbscope.lessons.v1"), true`)
	openLessonsTab(t, ctx)
	assert.Contains(t, eval[string](t, ctx, `document.querySelector("#tab-lessons .lesson-heading").textContent`), "引导课程")

	// Pick a lesson with the keyboard: focus its button, press Enter.
	eval[bool](t, ctx, `document.querySelector('.lesson-open[data-lesson="idle-consumers"]').focus(), true`)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)))
	waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-step.current") !== null`)
	assert.Equal(t, "Lesson: idle consumers", eval[string](t, ctx, `lbscope.state().title`))
	assert.Equal(t, 0, eval[int](t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length`))
	assert.Contains(t, eval[string](t, ctx, `document.querySelector(".lesson-step.current .lesson-prompt").textContent`), "第五个消费者")

	// Step 1: add a fifth consumer, as the prompt asks.
	dispatch(t, ctx, `{type: "addConsumer"}`)
	waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 1`)
	assert.Contains(t, eval[string](t, ctx, `document.querySelector(".lesson-step.done .lesson-explain").textContent`), "空闲")
	waitFor(t, ctx, `document.getElementById("lesson-announce").textContent.includes("第 1 步完成")`)

	// Step 2: kill a consumer that has a queue.
	dispatch(t, ctx, `{type: "killConsumer", id: "c1"}`)
	waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-complete") !== null`)
	assert.Equal(t, 2, eval[int](t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length`))
	assert.Contains(t, eval[string](t, ctx, `document.querySelector(".lesson-complete").textContent`), "课程完成")

	// Back to the list: the lesson is ticked; and still after a reload.
	eval[bool](t, ctx, `document.querySelector(".lesson-back").click(), true`)
	waitFor(t, ctx, `document.querySelector('.lesson-open[data-lesson="idle-consumers"]') !== null`)
	assert.True(t, eval[bool](t, ctx, `document.querySelector('.lesson-open[data-lesson="idle-consumers"]').parentElement.classList.contains("completed")`))
	assert.Empty(t, con.Errors(), "console errors")
	con = open(t, ctx, "?lang=zh")
	openLessonsTab(t, ctx)
	assert.True(t, eval[bool](t, ctx, `document.querySelector('.lesson-open[data-lesson="idle-consumers"]').parentElement.classList.contains("completed")`),
		"after a reload the completed lesson is no longer marked")
	assert.False(t, eval[bool](t, ctx, `document.querySelector('.lesson-open[data-lesson="avg-paging"]').parentElement.classList.contains("completed")`))
	assert.Empty(t, con.Errors(), "console errors after the reload")
}

func TestBrowserLessonRunsWithStorageBlocked(t *testing.T) {
	ctx := playground(t)
	beforePageScripts(t, ctx, `Object.defineProperty(window, "localStorage", {
		get() { throw new DOMException("The operation is insecure.", "SecurityError"); } });`)
	// A workshop link straight into a lesson.
	con := open(t, ctx, "?lang=en&lesson=avg-paging")
	require.True(t, eval[bool](t, ctx, `(() => { try { window.localStorage; return false } catch (e) { return true } })()`),
		"the injected script did not block storage")
	waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-step.current") !== null`)
	assert.Equal(t, "lessons", eval[string](t, ctx, `LB.tabs.current()`))
	assert.Equal(t, "Lesson: AVG as paging", eval[string](t, ctx, `lbscope.state().title`))
	// Its first step only asks to watch the first rebalance.
	waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 1`)
	dispatch(t, ctx, `{type: "addConsumer"}`)
	waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 2`)
	// Restart works too.
	eval[bool](t, ctx, `document.querySelector(".lesson-restart").click(), true`)
	waitFor(t, ctx, `document.querySelectorAll("#tab-lessons .lesson-step.done").length === 0`)
	waitFor(t, ctx, `lbscope.state().consumers.length === 3`)
	assert.Empty(t, con.Errors(), "console errors with storage blocked")
}

// A documentation page embeds a lesson: the embed with controls=full is the whole playground,
// tabs and timeline included, and lesson= opens the lesson once the reader presses play.
func TestBrowserEmbedOpensALesson(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1024, 640),
		chromedp.Navigate(browserEnv.url+"embed.html?controls=full&lesson=consumer-joins&lang=zh")))
	waitFor(t, ctx, `document.readyState === "complete" && document.getElementById("poster-play") !== null`)
	assert.Equal(t, "undefined", eval[string](t, ctx, `typeof window.lbscope`), "nothing loads before play")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("poster-play"))))
	waitFor(t, ctx, `document.querySelector("#tab-lessons .lesson-step.current") !== null`)
	assert.Equal(t, "lessons", eval[string](t, ctx, `LB.tabs.current()`))
	assert.Contains(t, eval[string](t, ctx, `document.querySelector("#tab-lessons h2, #tab-lessons h3").textContent`), "消费者加入")
	assert.True(t, eval[bool](t, ctx, `document.getElementById("timeline-range") !== null`), "the timeline is there")
	assert.Equal(t, 5, eval[int](t, ctx, `document.querySelectorAll("#panel .tab").length`), "the panel's tabs are there")
	screenshot(t, ctx)
	assert.Empty(t, con.Errors())
}
