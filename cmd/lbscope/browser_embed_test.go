//go:build !js

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/wasm/lesson"
	"github.com/lbscope/lbscope/wasm/words"
)

// shot is screenshot under a name of its own, for a test that looks at several moments.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
		buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		require.NoError(t, err)
		os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+"-"+name+".png"), buf, 0o644)
	}
}

// named is what the page says is loaded: the header over the stage and the Scenario control.
type named struct {
	Title, Kind, Desc string
	Control, Option   string
	Hidden            bool
}

func scenarioNamed(t *testing.T, ctx context.Context) named {
	t.Helper()
	return eval[named](t, ctx, `(() => {
		const sel = document.getElementById("preset");
		return {Title: document.getElementById("scenario-title").textContent,
			Kind: document.getElementById("scenario-kind").hidden ? "" : document.getElementById("scenario-kind").textContent,
			Desc: document.getElementById("scenario-desc").textContent,
			Control: sel.value, Option: sel.options[sel.selectedIndex].textContent,
			Hidden: document.getElementById("scenario-head").hidden};
	})()`)
}

// waitNamed waits until the header names title (a change of scenario reaches the page with
// the next state it pushes).
func waitNamed(t *testing.T, ctx context.Context, title string) named {
	t.Helper()
	js, _ := json.Marshal(title)
	waitFor(t, ctx, `document.getElementById("scenario-title").textContent === `+string(js))
	return scenarioNamed(t, ctx)
}

// After a lesson, an incident, an import or a share link, the page says what is loaded, over
// the stage and in the Scenario control, in English and in Chinese; a preset is named by the
// control's own choice.
func TestBrowserScenarioIsNamed(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	en, zh := func(k string) string { return words.Word(words.EN, k) }, func(k string) string { return words.Word(words.ZH, k) }
	setLang := func(l string) { eval[bool](t, ctx, `(() => { LB.i18n.set("`+l+`"); return true; })()`) }

	n := waitNamed(t, ctx, en("panel.title.default"))
	assert.Equal(t, named{Title: en("panel.title.default"), Kind: en("scenario.kind.preset"), Desc: en("panel.desc.default"),
		Control: "default", Option: en("panel.preset.default")}, n)
	shot(t, ctx, "default")

	// A lesson: its title and goal.
	l := lesson.ByID("kill-vs-partition")
	require.NotNil(t, l)
	eval[map[string]any](t, ctx, `lbscope.lessonStart({id: "kill-vs-partition"})`)
	n = waitNamed(t, ctx, l.Title.En)
	assert.Equal(t, en("scenario.kind.lesson"), n.Kind)
	assert.Equal(t, l.Goal.En, n.Desc)
	assert.Equal(t, "loaded", n.Control, "the Scenario control shows the lesson, not a preset")
	assert.Equal(t, "Loaded: Lesson: "+l.Title.En, n.Option)
	shot(t, ctx, "lesson")
	setLang("zh")
	n = waitNamed(t, ctx, l.Title.Zh)
	assert.Equal(t, l.Goal.Zh, n.Desc)
	assert.Equal(t, "已加载：课程："+l.Title.Zh, n.Option)
	shot(t, ctx, "lesson-zh")
	// Load starts what is loaded again.
	dispatch(t, ctx, `{type: "step", ms: 3000}`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("load-preset"))))
	waitFor(t, ctx, `lbscope.state().timeMs < 3000`)
	assert.Equal(t, l.Title.Zh, scenarioNamed(t, ctx).Title)
	eval[map[string]any](t, ctx, `lbscope.lessonStop()`)

	// An incident: its title and text, in the page's language.
	var inc struct{ Title, Text map[string]string }
	raw := eval[string](t, ctx, `JSON.stringify(lbscope.incidents().find(x => x.name === "incident-broker-restart"))`)
	require.NoError(t, json.Unmarshal([]byte(raw), &inc))
	dispatch(t, ctx, `{type: "load", preset: "incident-broker-restart"}`)
	n = waitNamed(t, ctx, inc.Title["zh"])
	assert.Equal(t, zh("scenario.kind.incident"), n.Kind)
	assert.Equal(t, inc.Text["zh"], n.Desc)
	assert.Equal(t, "loaded", n.Control)
	shot(t, ctx, "incident-zh")
	setLang("en")
	n = waitNamed(t, ctx, inc.Title["en"])
	assert.Equal(t, inc.Text["en"], n.Desc)
	assert.Equal(t, "Loaded: Incident: "+inc.Title["en"], n.Option)

	// An imported group, opened from the Import dialog.
	route, err := os.ReadFile(fixture(t, "16"))
	require.NoError(t, err)
	status, err := os.ReadFile(fixture(t, "20"))
	require.NoError(t, err)
	js, _ := json.Marshal(string(route) + string(status))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import"))))
	eval[bool](t, ctx, `(() => { document.getElementById("import-text").value = `+string(js)+`; return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-run"))))
	waitFor(t, ctx, `document.querySelector('#import-report [data-code="allocation-ok"]') !== null`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("import-open"))))
	n = waitNamed(t, ctx, "Imported group please_rename_unique_group_name_4")
	assert.Equal(t, en("scenario.kind.import"), n.Kind)
	assert.Contains(t, n.Desc, "Imported from")
	assert.Equal(t, "loaded", n.Control)
	shot(t, ctx, "import")
	setLang("zh")
	n = waitNamed(t, ctx, "导入的消费组 please_rename_unique_group_name_4")
	assert.Equal(t, zh("scenario.imported.desc"), n.Desc)
	setLang("en")

	// A share link of a scenario of its own: its own title and description.
	dispatch(t, ctx, `{type: "load", scenario: Object.assign(lbscope.presets().small, {title: "Checkout consumers", description: "Two brokers as in production."})}`)
	raw = eval[string](t, ctx, `JSON.stringify(lbscope.share())`)
	var link string
	require.NoError(t, json.Unmarshal([]byte(raw), &link), raw)
	require.True(t, strings.HasPrefix(link, "#s=1."), raw)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(browserEnv.url+"?lang=en"+link)))
	waitFor(t, ctx, `window.lbscope !== undefined`)
	eval[bool](t, ctx, `lbscope.ready.then(() => true)`)
	n = waitNamed(t, ctx, "Checkout consumers")
	assert.Equal(t, named{Title: "Checkout consumers", Desc: "Two brokers as in production.", Control: "loaded", Option: "Loaded: Checkout consumers"}, n)

	// Back to a preset: the control shows it and offers no "Loaded" choice.
	eval[bool](t, ctx, `(() => { document.getElementById("preset").value = "small"; return true; })()`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("load-preset"))))
	n = waitNamed(t, ctx, en("panel.title.small"))
	assert.Equal(t, "small", n.Control)
	assert.Zero(t, eval[int](t, ctx, `document.querySelectorAll("#preset option[value=loaded]").length`))
	assert.Empty(t, con.Errors())
}
