//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// proxyScenario is testdata's grpc-proxy-killed (three gRPC PushConsumers through proxy-1)
// without its timeline: the test kills and restores the proxy itself.
func proxyScenario(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/scenarios/grpc-proxy-killed.json")
	require.NoError(t, err)
	var s map[string]any
	require.NoError(t, json.Unmarshal(data, &s))
	delete(s, "timeline")
	out, err := json.Marshal(s)
	require.NoError(t, err)
	return string(out)
}

// proxyTexts are the visible texts of the panel's Proxies section, as panelTexts reads the
// whole panel's.
const proxyTexts = `(() => {
	const out = [];
	const sec = document.getElementById("proxies");
	const walk = document.createTreeWalker(sec, NodeFilter.SHOW_TEXT);
	for (let n = walk.nextNode(); n; n = walk.nextNode()) {
		if (n.parentElement.tagName !== "OPTION" && n.parentElement.checkVisibility() && n.data.trim()) out.push(n.data.trim());
	}
	for (const o of document.getElementById("proxy-target").options) out.push(o.textContent.trim());
	return out;
})()`

// A reader of the proxy lessons kills the proxy from the panel's Proxies section and restores
// it, in either language: the section is there only in a run with proxies; its target choice
// lists the proxy with its registered consumers; its buttons are the command table's proxy
// commands, enabled from the proxy's status; the state and the event log say the proxy is
// down, and, once restored, its consumers register with it again.
func TestBrowserProxyFromThePanel(t *testing.T) {
	words := map[string]map[string]string{
		"en": {"kill": "Kill proxy", "restore": "Restore proxy", "title": "Proxies", "up": "proxy-1 (consumers: 3)",
			"down": "proxy-1 (down)", "log": "proxy-1 down", "back": "proxy-1 back"},
		"zh": {"kill": "停掉 Proxy", "restore": "恢复 Proxy", "title": "Proxy", "up": "proxy-1（消费者：3）",
			"down": "proxy-1（宕机）", "log": "proxy-1 宕机", "back": "proxy-1 恢复"},
	}
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			w := words[lang]
			ctx := playground(t)
			con := open(t, ctx, "?lang="+lang)
			eval[bool](t, ctx, `LB.tabs.select("controls"), true`)
			// The default cluster has no proxy: no section, though its rows are built.
			waitFor(t, ctx, `document.getElementById("broker-target").value !== "" && document.getElementById("cmd-killProxy") !== null`)
			assert.True(t, eval[bool](t, ctx, `document.getElementById("proxies").hidden && !document.getElementById("proxies").checkVisibility()`),
				"a run without proxies shows no Proxies section")

			dispatch(t, ctx, `{type: "load", scenario: `+proxyScenario(t)+`}`)
			dispatch(t, ctx, `{type: "step", ms: 20000}`)
			waitFor(t, ctx, `lbscope.state().proxies.length === 1 && lbscope.state().proxies[0].clients.length === 3`)
			waitFor(t, ctx, fmt.Sprintf(`!document.getElementById("proxies").hidden && document.getElementById("proxy-target").value === "proxy-1" && document.getElementById("proxy-target").selectedOptions[0].textContent === %q`, w["up"]))
			assert.Equal(t, w["title"], eval[string](t, ctx, `document.getElementById("h-proxies").textContent`))
			// The rows are the table's proxy commands, in its words, enabled from "up".
			got := eval[map[string]any](t, ctx, fmt.Sprintf(`(() => {
				const table = lbscope.commands().filter((c) => c.target === "proxy");
				const sec = document.getElementById("proxies");
				return {
					rows: table.every((c) => sec.querySelector('[data-row="' + c.name + '"]') !== null),
					labels: table.every((c) => document.getElementById("cmd-" + c.name).textContent === c.words[%q].label),
					n: table.length,
				};
			})()`, lang))
			assert.Equal(t, map[string]any{"rows": true, "labels": true, "n": 2.0}, got, "a row per proxy command of the table, worded by it")
			assert.Equal(t, w["kill"], eval[string](t, ctx, `document.getElementById("cmd-killProxy").textContent`))
			assert.Equal(t, w["restore"], eval[string](t, ctx, `document.getElementById("cmd-restoreProxy").textContent`))
			assert.False(t, eval[bool](t, ctx, `document.getElementById("cmd-killProxy").disabled`))
			assert.True(t, eval[bool](t, ctx, `document.getElementById("cmd-restoreProxy").disabled`))
			if lang == "zh" {
				for _, s := range eval[[]string](t, ctx, proxyTexts) {
					assert.Empty(t, englishWords(s), "English in the Chinese Proxies section: %q", s)
				}
			}
			eval[bool](t, ctx, `document.getElementById("proxies").scrollIntoView({block: "center"}), true`)
			shot(t, ctx, "up")

			// Kill it from the panel.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cmd-killProxy"))))
			waitFor(t, ctx, `lbscope.state().proxies[0].down && lbscope.state().proxies[0].clients.length === 0 && document.getElementById("cmd-killProxy").disabled && !document.getElementById("cmd-restoreProxy").disabled`)
			waitFor(t, ctx, fmt.Sprintf(`document.getElementById("proxy-target").selectedOptions[0].textContent === %q`, w["down"]))
			logged := func(s string) string {
				return fmt.Sprintf(`[...document.querySelectorAll("#event-log li")].some((li) => li.textContent.includes(%q))`, s)
			}
			waitFor(t, ctx, logged(w["log"]))
			assert.True(t, eval[bool](t, ctx, `document.getElementById("panel-feedback").hidden`), "no error")
			shot(t, ctx, "down")

			// Restore it: its consumers register again at their next heartbeat (10 s apart).
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cmd-restoreProxy"))))
			waitFor(t, ctx, `!lbscope.state().proxies[0].down && !document.getElementById("cmd-killProxy").disabled && document.getElementById("cmd-restoreProxy").disabled`)
			waitFor(t, ctx, logged(w["back"]))
			dispatch(t, ctx, `{type: "step", ms: 11000}`)
			waitFor(t, ctx, fmt.Sprintf(`lbscope.state().proxies[0].clients.length === 3 && document.getElementById("proxy-target").selectedOptions[0].textContent === %q`, w["up"]))

			// Another run without proxies hides the section again.
			dispatch(t, ctx, `{type: "load", preset: "small"}`)
			waitFor(t, ctx, `(lbscope.state().proxies || []).length === 0 && document.getElementById("proxies").hidden`)
			assert.Empty(t, con.Errors())
		})
	}
}

// The canvas draws the proxy and offers its commands: hovered, its card says it is up and who
// is registered on it; clicked, its menu kills it; its box then says it is down, and its
// menu restores it.
func TestBrowserProxyOnTheCanvas(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		t.Run(lang, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?lang="+lang)
			dispatch(t, ctx, `{type: "load", scenario: `+proxyScenario(t)+`}`)
			dispatch(t, ctx, `{type: "step", ms: 20000}`)
			waitFor(t, ctx, `lbscope.state().proxies[0].clients.length === 3 && (window.lbscope.layout().proxies || []).length === 1`)
			type proxyBoxes struct {
				Proxies []box `json:"proxies"`
				Menu    []box `json:"menu"`
				Tooltip *struct {
					Kind  string   `json:"kind"`
					ID    string   `json:"id"`
					Lines []string `json:"lines"`
				} `json:"tooltip"`
			}
			boxes := func() proxyBoxes {
				return eval[proxyBoxes](t, ctx, `window.lbscope.layout()`)
			}
			p := boxes().Proxies[0]
			assert.Equal(t, "proxy-1", p.ID)
			x, y := p.X+p.W/2, p.Y+p.H/2
			require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y)))
			waitFor(t, ctx, `(window.lbscope.layout().tooltip || {}).kind === "proxy"`)
			tip := boxes().Tooltip
			want := map[string]string{"en": "proxy-1 up", "zh": "proxy-1 正常"}[lang]
			assert.Equal(t, want, tip.Lines[0])
			assert.Contains(t, tip.Lines[1], "P1")
			shot(t, ctx, "hover")

			click(t, ctx, p)
			waitFor(t, ctx, `window.lbscope.layout().menu.length === 1`)
			m := boxes().Menu
			require.Equal(t, "killProxy", m[0].ID)
			click(t, ctx, m[0])
			waitFor(t, ctx, `lbscope.state().proxies[0].down && window.lbscope.layout().menu.length === 0`)
			require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, x, y)))
			want = map[string]string{"en": "proxy-1 DOWN", "zh": "proxy-1 宕机"}[lang]
			waitFor(t, ctx, fmt.Sprintf(`((window.lbscope.layout().tooltip || {}).lines || [])[0] === %q`, want))
			shot(t, ctx, "down")

			click(t, ctx, p)
			waitFor(t, ctx, `window.lbscope.layout().menu.length === 1 && window.lbscope.layout().menu[0].id === "restoreProxy"`)
			click(t, ctx, boxes().Menu[0])
			waitFor(t, ctx, `!lbscope.state().proxies[0].down`)
			assert.Empty(t, con.Errors())
		})
	}
}
