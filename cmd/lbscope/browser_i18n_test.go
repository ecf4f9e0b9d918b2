//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/wasm/words"
)

// The page in Chinese, the live region that narrates, and the keyboard.

// panelTexts returns what a reader of #panel sees or hears: the text of its rendered elements,
// every option of its rendered selects, and its rendered elements' aria-label, title and
// placeholder. The event log is left out: its lines are the simulation's own words.
const panelTexts = `(() => {
	const out = [];
	const panel = document.getElementById("panel");
	const shown = (el) => el.checkVisibility() && !el.closest("#event-log");
	const walk = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		const el = n.parentElement;
		if (el.tagName === "OPTION" || !shown(el) || !n.data.trim()) continue;
		out.push(n.data.trim());
	}
	for (const sel of panel.querySelectorAll("select")) {
		if (shown(sel)) for (const o of sel.options) out.push(o.textContent.trim());
	}
	for (const el of panel.querySelectorAll("[aria-label], [title], [placeholder]")) {
		if (!shown(el)) continue;
		for (const a of ["aria-label", "title"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
	}
	return out;
})()`

var (
	latinWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_.@-]*`)
	// Words that stay as they are in Chinese: names (RocketMQ's own terms, as its Chinese
	// documentation keeps them; the client SDKs Java and Go), identifiers and units.
	keptWords = map[string]bool{"RocketMQ": true, "LBScope": true, "Broker": true, "Java": true, "Go": true, "ms": true, "consumeridcs": true, "mod": true,
		"Topic": true, "Proxy": true, "Push": true, "PushConsumer": true, "mqadmin": true}
	// camelCase is an identifier of RocketMQ's API or tools (clientRebalance, setConsumeMode,
	// popShareQueueNum), kept as the Chinese documentation keeps it.
	camelCase = regexp.MustCompile(`[a-z][A-Z]`)
)

// englishWords lists the words of s that are English prose rather than names: identifiers in
// capitals (AVG, CONSISTENT_HASH, EN), broker names, consumer ids and version numbers pass.
func englishWords(s string) []string {
	var out []string
	for _, w := range latinWord.FindAllString(s, -1) {
		w = strings.TrimRight(w, ".-")
		switch {
		case len(w) < 2, keptWords[w], strings.ToUpper(w) == w, strings.HasPrefix(w, "broker-"), camelCase.MatchString(w),
			regexp.MustCompile(`\d`).MatchString(w):
			continue
		}
		out = append(out, w)
	}
	return out
}

func TestEnglishWordsKeepsNames(t *testing.T) {
	got := englishWords("c1（运行中，8 个队列） broker-a（+600 毫秒） AVG_BY_CIRCLE RocketMQ 4.x 旧版 Broker 1×")
	assert.Empty(t, got)
	assert.Equal(t, []string{"Pause", "queues"}, englishWords("Pause 暂停 8 queues"))
}

func TestBrowserI18nPanelIsChinese(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=zh")
	dispatch(t, ctx, `{type: "pause"}`)
	waitFor(t, ctx, `document.getElementById("pause").textContent === "播放"`)
	assert.Equal(t, "zh-CN", eval[string](t, ctx, `document.documentElement.lang`))
	texts := eval[[]string](t, ctx, panelTexts)
	require.NotEmpty(t, texts)
	han := 0
	for _, s := range texts {
		if w := englishWords(s); len(w) > 0 {
			t.Errorf("English in the Chinese panel: %q (words %v)", s, w)
		}
		if regexp.MustCompile(`\p{Han}`).MatchString(s) {
			han++
		}
	}
	assert.Greater(t, han, len(texts)/2, "most of the panel's texts are Chinese: %q", texts)
	status := eval[string](t, ctx, `document.getElementById("status-line").textContent`)
	assert.Contains(t, status, "已暂停", "the status line is in Chinese")
	// The page's static texts: its title and the panel's landmark.
	assert.Contains(t, eval[string](t, ctx, `document.title`), "负载均衡")
	assert.Equal(t, "模拟控制", eval[string](t, ctx, `document.getElementById("panel").getAttribute("aria-label")`))
	// The canvas is an image named in the page's language.
	assert.Contains(t, eval[string](t, ctx, `document.querySelector("body > canvas").getAttribute("aria-label")`), "模拟画面")
	assert.Equal(t, "img", eval[string](t, ctx, `document.querySelector("body > canvas").getAttribute("role")`))

	// The help dialog too.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("help-button"))))
	help := eval[string](t, ctx, `document.getElementById("help").innerText`)
	assert.Empty(t, englishWords(strings.NewReplacer("Esc", "", "LBScope", "").Replace(help)), "help: %s", help)
	assert.Empty(t, con.Errors())

	if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)))
		for _, size := range [][2]int64{{1280, 800}, {375, 740}} {
			require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1])))
			if size[0] < 720 {
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("panel-toggle"))))
			}
			eval[bool](t, ctx, `(document.activeElement.blur(), document.getElementById("panel-body").scrollTop = 0,
				new Promise(r => setTimeout(() => r(true), 500)))`)
			buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			require.NoError(t, err)
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("zh-%dx%d.png", size[0], size[1])), buf, 0o644)
		}
	}
}

// Chinese glyphs must be drawn with a font that has them: without one, every character is the
// same empty box ("tofu"), the box an unassigned code point gets.
func TestBrowserI18nChineseGlyphsRender(t *testing.T) {
	ctx := playground(t)
	open(t, ctx, "?lang=zh")
	got := eval[map[string]any](t, ctx, `(() => {
		const c = document.createElement("canvas");
		c.width = 64; c.height = 64;
		const g = c.getContext("2d", {willReadFrequently: true});
		const family = getComputedStyle(document.getElementById("h-run")).fontFamily;
		const draw = (ch) => {
			g.clearRect(0, 0, 64, 64);
			g.fillStyle = "#000";
			g.font = "40px " + family;
			g.textBaseline = "top";
			g.fillText(ch, 4, 4);
			const d = g.getImageData(0, 0, 64, 64).data;
			let ink = 0, key = "";
			for (let i = 3; i < d.length; i += 4) { ink += d[i] > 0; key += d[i].toString(16); }
			return {ink, key};
		};
		const tofu = draw("\u0378"); // unassigned: drawn as the missing-glyph box
		const han = [..."负载均衡"].map(draw);
		return {
			family,
			// The premise: two characters no font has come out as the same box.
			boxesAlike: tofu.ink > 0 && draw("\u0379").key === tofu.key,
			inked: han.filter((x) => x.ink > 20).length,
			distinct: new Set(han.map((x) => x.key)).size,
			tofu: han.filter((x) => x.key === tofu.key).length,
		};
	})()`)
	t.Logf("font-family %v", got["family"])
	require.Equal(t, true, got["boxesAlike"], "characters without a font draw one and the same box")
	assert.Equal(t, 4.0, got["inked"], "every character leaves ink")
	assert.Equal(t, 4.0, got["distinct"], "four different characters draw four different glyphs (a missing font draws one box for all)")
	assert.Equal(t, 0.0, got["tofu"], "no character is drawn as the missing-glyph box")
}

func TestBrowserI18nSwitchesLive(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	dispatch(t, ctx, `{type: "step", ms: 2000}`)
	waitFor(t, ctx, `document.getElementById("h-run").textContent === "Run" && /queues/.test(document.getElementById("consumer-target").options[0].textContent)`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("lang-zh"))))
	waitFor(t, ctx, `document.getElementById("h-run").textContent === "运行"`)
	got := eval[map[string]any](t, ctx, `({
		lang: document.documentElement.lang, search: location.search, pressed: document.getElementById("lang-zh").getAttribute("aria-pressed"),
		play: document.getElementById("pause").textContent, consumer: document.getElementById("consumer-target").options[0].textContent,
		status: document.getElementById("status-line").textContent, tab: document.getElementById("tab-button-controls").textContent,
		kill: document.getElementById("consumer-kill").textContent, hint: document.getElementById("strategy-hint").textContent,
		latency: document.getElementById("cmd-slowBroker-latencyMs").options[0].textContent,
	})`)
	assert.Equal(t, "zh-CN", got["lang"])
	assert.Contains(t, got["search"], "lang=zh", "a reload keeps the language")
	assert.Equal(t, "true", got["pressed"])
	assert.Equal(t, "播放", got["play"], "paused: the button offers play")
	assert.Contains(t, got["consumer"], "个队列")
	assert.Contains(t, got["status"], "已暂停")
	assert.Equal(t, "控制", got["tab"])
	assert.Equal(t, "终止", got["kill"])
	assert.Contains(t, got["hint"], "平均分配")
	assert.Contains(t, got["latency"], "毫秒")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("lang-en"))))
	waitFor(t, ctx, `document.getElementById("h-run").textContent === "Run"`)
	assert.Contains(t, eval[string](t, ctx, `document.getElementById("consumer-target").options[0].textContent`), "queues")
	assert.Equal(t, "Play", eval[string](t, ctx, `document.getElementById("pause").textContent`))
	assert.Contains(t, eval[string](t, ctx, `document.querySelector("body > canvas").getAttribute("aria-label")`), "Simulation:")
	assert.Empty(t, con.Errors())
}

// A browser that prefers Chinese gets Chinese without ?lang=.
func TestBrowserI18nFollowsBrowserLanguage(t *testing.T) {
	ctx := playground(t)
	ua := eval[string](t, ctx, `navigator.userAgent`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{UserAgent: ua, AcceptLanguage: "zh-CN,zh;q=0.9,en;q=0.5"})
		return err
	})))
	open(t, ctx, "")
	assert.Equal(t, "zh-CN", eval[string](t, ctx, `navigator.language`), "the emulation took")
	assert.Equal(t, "zh", eval[string](t, ctx, `LB.i18n.lang`))
	assert.Equal(t, "运行", eval[string](t, ctx, `document.getElementById("h-run").textContent`))
	assert.Equal(t, "true", eval[string](t, ctx, `document.getElementById("lang-zh").getAttribute("aria-pressed")`))
}

// From the top of the page, Tab reaches the tabs and the main buttons, and Space on Pause
// pauses.
func TestBrowserA11yKeyboardReachesControls(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	dispatch(t, ctx, `{type: "play"}`)
	eval[bool](t, ctx, `(document.activeElement && document.activeElement.blur(), window.getSelection().removeAllRanges(), true)`)
	var seen []string
	for i := 0; i < 40; i++ {
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)))
		id := eval[string](t, ctx, `(() => { const a = document.activeElement; return a ? (a.id || a.tagName) : ""; })()`)
		seen = append(seen, id)
		if id == "cmd-addConsumer" {
			break
		}
	}
	t.Logf("tab order: %v", seen)
	for _, want := range []string{"lang-zh", "tab-button-controls", "pause", "step", "reset", "share", "cmd-addConsumer"} {
		assert.Contains(t, seen, want, "Tab reaches #%s", want)
	}
	// The focused control shows it: a visible outline.
	eval[bool](t, ctx, `(document.getElementById("pause").focus({focusVisible: true}), true)`)
	outline := eval[string](t, ctx, `getComputedStyle(document.getElementById("pause")).outlineStyle`)
	assert.NotEqual(t, "none", outline, "a focused button has a visible outline")

	require.False(t, state(t, ctx).Paused)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(" ")))
	waitFor(t, ctx, `window.lbscope.state().paused === true`)
	waitFor(t, ctx, `document.getElementById("pause").textContent === "Play"`)

	// The help dialog keeps focus inside and Escape closes it, back to where focus was.
	eval[bool](t, ctx, `(document.getElementById("help-button").focus(), true)`)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Enter)))
	waitFor(t, ctx, `!document.getElementById("help").hidden`)
	for i := 0; i < 3; i++ {
		require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab)))
		assert.Equal(t, true, eval[bool](t, ctx, `document.getElementById("help").contains(document.activeElement)`), "Tab stays in the dialog")
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape)))
	waitFor(t, ctx, `document.getElementById("help").hidden && document.activeElement.id === "help-button"`)

	// A reader who asks for reduced motion gets no transition or animation.
	probe := `(() => { const b = document.createElement("div"); b.className = "loader-bar indeterminate";
		const f = document.createElement("div"); f.className = "loader-fill"; b.append(f); document.body.append(b);
		const cs = getComputedStyle(f); const out = cs.transitionDuration + " " + cs.animationName; b.remove(); return out; })()`
	require.NotEqual(t, "0s none", eval[string](t, ctx, probe), "the probe moves without the preference")
	require.NoError(t, chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
		})
		return err
	})))
	assert.Equal(t, "0s none", eval[string](t, ctx, probe))
	assert.Empty(t, con.Errors())
}

// A reader without the canvas hears what happens: killing a consumer puts a sentence in the
// live region.
func TestBrowserA11yNarrationAnnouncesAKill(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	live := eval[map[string]any](t, ctx, `(() => { const n = document.getElementById("narration");
		return {live: n && n.getAttribute("aria-live"), w: n && n.getBoundingClientRect().width}; })()`)
	require.Equal(t, "polite", live["live"], "#narration is a polite live region")
	assert.LessOrEqual(t, live["w"], 1.0, "and visually hidden")
	dispatch(t, ctx, `{type: "step", ms: 3000}`)
	// Let the notes of the start be said (one announcement per 1.5 s at most), then listen.
	eval[bool](t, ctx, `new Promise(r => setTimeout(() => r(document.getElementById("narration").replaceChildren() || true), 2000))`)
	dispatch(t, ctx, `{type: "killConsumer", id: "c1"}`)
	dispatch(t, ctx, `{type: "step", ms: 1000}`)
	// A sentence (words, not a bare id) about the consumer killed.
	waitFor(t, ctx, `(t => /\bc1\b/.test(t) && /\S{2,}\s+\S{2,}|\p{Script=Han}{2,}/u.test(t))(document.getElementById("narration").textContent)`)
	t.Logf("narration: %s", eval[string](t, ctx, `document.getElementById("narration").textContent`))
	assert.Empty(t, con.Errors())
}

// The embed in Chinese: its poster and slim bar, and the playground it loads.
func TestBrowserI18nEmbedInChinese(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(800, 450), chromedp.Navigate(browserEnv.url+"embed.html?lang=zh&controls=min")))
	waitFor(t, ctx, `document.querySelector("#poster-picture svg rect") !== null`)
	poster := eval[map[string]string](t, ctx, `({title: document.getElementById("poster-title").textContent,
		sub: document.querySelector(".poster-sub").textContent, play: document.getElementById("poster-play").getAttribute("aria-label")})`)
	assert.Equal(t, "默认集群", poster["title"])
	assert.Empty(t, englishWords(poster["sub"]+" "+poster["play"]), "poster: %v", poster)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("poster-play"))))
	waitFor(t, ctx, `window.lbscope !== undefined && document.getElementById("bar-play") !== null`)
	assert.Equal(t, "zh", eval[string](t, ctx, `LB.i18n.lang`), "the playground follows lang=")
	assert.Equal(t, "暂停", eval[string](t, ctx, `document.getElementById("bar-play").textContent`))
	assert.Empty(t, con.Errors())
}

// Each word reaches its reader: the wasm carries the dictionary's part that Go reads
// (words.GoPart: the canvas's, the narration's, the API's and the statuses), diagnose.wasm
// the reader of pastes' (words.PastePart), and the first carries none of the page's, which
// words.js brings; in Chinese, the page, the canvas's legend, the narration and
// lbscope.words() each have theirs.
func TestBrowserI18nWordsReachTheirReaders(t *testing.T) {
	ctx := playground(t)
	root, err := repoRoot("test")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "assets", "words.json"))
	require.NoError(t, err)
	part, err := words.GoPart(data)
	require.NoError(t, err)
	wasm, err := os.ReadFile(filepath.Join(browserEnv.dir, wasmName))
	require.NoError(t, err)
	assert.True(t, bytes.Contains(wasm, part), "the wasm carries the words Go reads, as words.GoPart gives them")
	// The reader of pastes' words travel with the reader, in both languages, not in the first load.
	pastePart, err := words.PastePart(data)
	require.NoError(t, err)
	reader, err := os.ReadFile(filepath.Join(browserEnv.dir, diagnoseName))
	require.NoError(t, err)
	assert.True(t, bytes.Contains(reader, pastePart), "diagnose.wasm carries the reader's words, as words.PastePart gives them")
	assert.False(t, bytes.Contains(wasm, []byte(`"api.said.missing.members"`)), "the first load carries the reader's words")
	assert.False(t, bytes.Contains(reader, []byte(`"canvas.legend.button"`)), "diagnose.wasm carries the canvas's words")
	var carried []string
	for key := range words.Page()[words.EN] {
		if !strings.HasPrefix(key, "status.") && !strings.HasPrefix(key, "command.") && bytes.Contains(wasm, []byte(`"`+key+`"`)) {
			carried = append(carried, key)
		}
	}
	assert.Empty(t, carried, "the wasm carries these of the page's words, which words.js brings")

	con := open(t, ctx, "?lang=zh&legend=1")
	page := eval[map[string]map[string]string](t, ctx, `LB.words`)
	for lang, d := range words.Page() {
		for key, text := range d {
			assert.Equal(t, text, page[lang][key], "the page's %s %s", lang, key)
		}
	}
	assert.Equal(t, "暂停", eval[string](t, ctx, `document.getElementById("pause").textContent`))
	assert.Equal(t, map[string]map[string]string{words.EN: words.Lang(words.EN, "status.", "command."), words.ZH: words.Lang(words.ZH, "status.", "command.")},
		eval[map[string]map[string]string](t, ctx, `window.lbscope.words()`))
	waitFor(t, ctx, `window.lbscope.layout().legend !== undefined`)
	assert.Contains(t, eval[[]string](t, ctx, `window.lbscope.layout().legend.lines`), words.Word(words.ZH, "canvas.legend.header"), "the canvas's legend in Chinese")
	eval[bool](t, ctx, `(window.saidKill = new Promise(r => window.lbscope.on("*", e => { if (e.consumer === "c1" && e.kind === "action") r(e.say); })), true)`)
	dispatch(t, ctx, `{type: "killConsumer", id: "c1"}`)
	dispatch(t, ctx, `{type: "step", ms: 1000}`)
	say := eval[string](t, ctx, `window.saidKill`)
	assert.Regexp(t, `\p{Han}{2,}`, say, "the narration of a kill in Chinese")
	assert.Empty(t, con.Errors())
}
