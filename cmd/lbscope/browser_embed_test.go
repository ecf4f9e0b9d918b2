//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
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

// posterBoxes are the poster's brokers, queue cells and consumers where the page shows them,
// in CSS pixels of the viewport, as layout() gives the canvas's.
func posterBoxes(t *testing.T, ctx context.Context) pgLayout {
	t.Helper()
	raw := eval[string](t, ctx, `JSON.stringify((() => {
		const boxes = (attr, key) => [...document.querySelectorAll("#poster-picture [" + attr + "]")].map(e => {
			const r = e.getBoundingClientRect();
			return {[key]: e.getAttribute(attr), X: r.x, Y: r.y, W: r.width, H: r.height};
		});
		return {brokers: boxes("data-broker", "name"), queues: boxes("data-queue", "queue"), consumers: boxes("data-consumer", "id")};
	})())`)
	var l pgLayout
	require.NoError(t, json.Unmarshal([]byte(raw), &l))
	return l
}

// sameBoxes says where two lists of boxes differ by more than a pixel (an SVG stroke and
// rounding to device pixels move an edge by less).
func sameBoxes(t *testing.T, what string, poster, canvas []box) {
	t.Helper()
	key := func(b box) string { return b.ID + b.Name + b.Queue }
	if !assert.Equal(t, len(canvas), len(poster), "%s: as many on the poster as on the canvas", what) {
		return
	}
	at := map[string]box{}
	for _, b := range canvas {
		at[key(b)] = b
	}
	bad := 0
	for _, p := range poster {
		c, ok := at[key(p)]
		near := func(a, b float64) bool { return a-b < 1.01 && b-a < 1.01 }
		if !ok || !near(p.X, c.X) || !near(p.Y, c.Y) || !near(p.W, c.W) || !near(p.H, c.H) {
			if bad++; bad <= 3 {
				t.Errorf("%s %s: the poster has it at %.1f,%.1f %.1f×%.1f, the canvas at %.1f,%.1f %.1f×%.1f", what, key(p), p.X, p.Y, p.W, p.H, c.X, c.Y, c.W, c.H)
			}
		}
	}
}

// The poster is the picture the canvas draws when the reader presses play: the same brokers,
// queue cells and consumers at the same places and sizes, and the same words on the consumers'
// boxes, without controls and above the slim bar, small and large, in both languages, in
// presenter mode and for ids that differ only at their end.
func TestBrowserEmbedPosterIsTheCanvas(t *testing.T) {
	for _, c := range []struct {
		name, query string
		w, h        int64
	}{
		{"small-none", "preset=small&controls=none", 800, 450},
		{"default-min-zh", "controls=min&lang=zh", 800, 450},
		{"large-none", "preset=large&controls=none", 1280, 720},
		{"small-min-present", "preset=small&controls=min&present=1", 1024, 576},
		{"phone", "preset=default&controls=none", 360, 203},
		{"long-ids-dark", "preset=incident-java-and-go-consistent-hash&controls=none&theme=dark", 800, 450},
		{"long-ids-min-zh", "preset=incident-same-client-id&controls=min&lang=zh", 640, 360},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := playground(t)
			con := watchConsole(t, ctx)
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(c.w, c.h), chromedp.Navigate(browserEnv.url+"embed.html?"+c.query)))
			waitFor(t, ctx, `document.querySelector("#poster-picture [data-queue]") !== null`)
			before := posterBoxes(t, ctx)
			words := eval[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll("#poster-picture [data-label-of]")].map(e => [e.getAttribute("data-label-of"), e.textContent]))`)
			shot(t, ctx, "poster")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("poster-play"))))
			waitFor(t, ctx, `window.lbscope !== undefined`)
			eval[bool](t, ctx, `window.lbscope.ready.then(() => true)`)
			waitFor(t, ctx, `window.lbscope.layout().queues.length > 0`)
			after := layout(t, ctx)
			shot(t, ctx, "canvas")
			sameBoxes(t, "broker", before.Brokers, after.Brokers)
			sameBoxes(t, "queue", before.Queues, after.Queues)
			sameBoxes(t, "consumer", before.Consumers, after.Consumers)
			assert.NotEmpty(t, words, "the poster's consumer boxes carry their labels")
			labels := eval[map[string]string](t, ctx, `window.lbscope.palette().labels`)
			for id, w := range words {
				assert.Equal(t, labels[id], w, "%s: the poster's label and the canvas's", id)
			}
			assert.Empty(t, con.Errors())
		})
	}
}

// ?lesson= shows the lesson's cluster on the poster, under the lesson's title, and that
// cluster plays.
func TestBrowserEmbedLessonPoster(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	l := lesson.ByID("kill-vs-partition")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(800, 450), chromedp.Navigate(browserEnv.url+"embed.html?lesson=kill-vs-partition&lang=en")))
	waitFor(t, ctx, `document.querySelector("#poster-picture [data-queue]") !== null`)
	assert.Equal(t, l.Title.En, eval[string](t, ctx, `document.getElementById("poster-title").textContent`))
	p := posterBoxes(t, ctx)
	var brokers []string
	for _, b := range p.Brokers {
		brokers = append(brokers, b.Name)
	}
	assert.Equal(t, []string{"broker-a", "broker-b"}, brokers, "the lesson's two brokers, not the default cluster's four")
	assert.Len(t, p.Consumers, 4)
	shot(t, ctx, "poster")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("poster-play"))))
	waitFor(t, ctx, `window.lbscope !== undefined`)
	eval[bool](t, ctx, `window.lbscope.ready.then(() => true)`)
	waitFor(t, ctx, `document.getElementById("scenario-title") && document.getElementById("scenario-title").textContent === `+jsString(l.Title.En))
	s := state(t, ctx)
	var playing []string
	for _, b := range s.Brokers {
		playing = append(playing, b.Name)
	}
	assert.Equal(t, brokers, playing, "the poster's brokers play")
	assert.Len(t, s.Consumers, len(p.Consumers))
	shot(t, ctx, "playing")
	assert.Empty(t, con.Errors())
}

// The poster's caption reads in both themes and both languages, wide and phone-sized: its
// title and line at 4.5:1 against the band behind them whatever the picture under the band,
// nothing cut, and clear of the play button.
func TestBrowserEmbedPosterCaptionReads(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	for _, theme := range []string{"light", "dark"} {
		for _, lang := range []string{"en", "zh"} {
			for _, size := range [][2]int64{{800, 450}, {320, 180}} {
				name := fmt.Sprintf("%s-%s-%dx%d", theme, lang, size[0], size[1])
				require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1]),
					chromedp.Navigate(browserEnv.url+"embed.html?preset=small&theme="+theme+"&lang="+lang)))
				waitFor(t, ctx, `document.readyState === "complete" && document.querySelector("#poster-picture [data-queue]") !== null`)
				got := eval[map[string]float64](t, ctx, `(() => {
					const rgba = s => { const m = s.match(/[\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
					const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
						return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
					const over = (top, under) => ({r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a)});
					const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
					const cap = document.querySelector(".poster-caption");
					const band = rgba(getComputedStyle(cap).backgroundColor);
					// The worst of what the band may cover: black or white picture under it.
					const worst = el => { const fg = rgba(getComputedStyle(el).color);
						return Math.min(ratio(fg, over(band, {r: 0, g: 0, b: 0})), ratio(fg, over(band, {r: 255, g: 255, b: 255}))); };
					const title = document.getElementById("poster-title"), sub = document.querySelector(".poster-sub");
					const cut = el => Math.max(el.scrollWidth - el.clientWidth, el.scrollHeight - el.clientHeight);
					const c = cap.getBoundingClientRect(), play = document.getElementById("poster-play").getBoundingClientRect();
					// Shown, not painted under the picture: what lies at each line's start is the line.
					const top = el => { const r = el.getBoundingClientRect(), hit = document.elementFromPoint(r.left + 4, r.top + r.height / 2);
						return hit && el.contains(hit) ? 1 : 0; };
					return {title: worst(title), sub: worst(sub), cutTitle: cut(title), cutSub: cut(sub), titleOnTop: top(title), subOnTop: top(sub),
						left: c.left, right: innerWidth - c.right, top: c.top, bottom: c.bottom, playTop: play.top,
						subH: sub.getBoundingClientRect().height};
				})()`)
				assert.GreaterOrEqual(t, got["title"], 4.5, "%s: the title's contrast", name)
				assert.GreaterOrEqual(t, got["sub"], 4.5, "%s: the line's contrast", name)
				assert.LessOrEqual(t, got["cutTitle"], 0.0, "%s: the title is cut", name)
				assert.LessOrEqual(t, got["cutSub"], 0.0, "%s: the line is cut", name)
				assert.Positive(t, got["subH"], "%s: the line shows", name)
				assert.Equal(t, 1.0, got["titleOnTop"], "%s: the title is over the picture", name)
				assert.Equal(t, 1.0, got["subOnTop"], "%s: the line is over the picture", name)
				assert.GreaterOrEqual(t, got["left"], 0.0, name)
				assert.GreaterOrEqual(t, got["right"], 0.0, name)
				assert.GreaterOrEqual(t, got["top"], 0.0, name)
				assert.LessOrEqual(t, got["bottom"], got["playTop"], "%s: the caption covers the play button", name)
				shot(t, ctx, name)
			}
		}
	}
	assert.Empty(t, con.Errors())
}

// The Embed dialog previews the snippet's own frame, which shows the embed's poster of the
// current scenario, and says that an address of this computer (the tests serve on
// 127.0.0.1) is no address for documentation.
func TestBrowserEmbedDialogPreviewsAndWarns(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?lang="+lang)
			dispatch(t, ctx, `{type: "load", preset: "small"}`)
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("embed"))))
			waitFor(t, ctx, `!document.getElementById("embed-dialog").hidden`)
			code := eval[string](t, ctx, `document.getElementById("embed-code").value`)
			src := code[strings.Index(code, `src="`)+5:]
			src = strings.ReplaceAll(src[:strings.Index(src, `"`)], "&amp;", "&")
			assert.Equal(t, src, eval[string](t, ctx, `document.getElementById("embed-preview-frame").src`), "the preview is the snippet's frame")
			title := words.Word(lang, "panel.title.small")
			// (One line: waitFor quotes the condition in its message.)
			frame := `document.getElementById("embed-preview-frame").contentDocument`
			waitFor(t, ctx, `!!`+frame+` && !!`+frame+`.getElementById("poster-title") && `+frame+`.getElementById("poster-title").textContent === `+jsString(title)+` && `+frame+`.querySelectorAll("#poster-picture [data-queue]").length === 8`)
			box := eval[map[string]float64](t, ctx, `(() => { const r = document.getElementById("embed-preview-frame").getBoundingClientRect(); return {w: r.width, h: r.height}; })()`)
			assert.Greater(t, box["w"], 200.0, "a preview one can see")
			assert.InDelta(t, 16.0/9, box["w"]/box["h"], 0.02, "the snippet's 16:9")
			note := eval[string](t, ctx, `document.getElementById("embed-local").hidden ? "" : document.getElementById("embed-local").textContent`)
			host := strings.TrimSuffix(strings.TrimPrefix(browserEnv.url, "http://"), "/")
			assert.Contains(t, note, host, "the note names the local address")
			assert.Equal(t, words.Format(lang, "embed.local"), strings.ReplaceAll(note, host, "{host}"))
			shot(t, ctx, "dialog")
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("embed-close"))))
			waitFor(t, ctx, `!document.getElementById("embed-preview-frame").hasAttribute("src")`)
			assert.Empty(t, con.Errors())
		})
	}
}
