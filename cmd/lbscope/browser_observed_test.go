//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A history read from logs played beside the simulation, as a user meets it.

type observedState struct {
	TimeMs int64 `json:"timeMs"`
	Queues []struct {
		Queue    string    `json:"queue"`
		Owners   []string  `json:"owners"`
		Observed *[]string `json:"observed"`
	} `json:"queues"`
	Observed *struct {
		Source   string `json:"source"`
		Zone     string `json:"zone"`
		Start    string `json:"start"`
		Holdings int    `json:"holdings"`
		Rounds   int    `json:"rounds"`
	} `json:"observed"`
}

type observedLayout struct {
	Queues  []box `json:"queues"`
	Tooltip *struct {
		Kind  string   `json:"kind"`
		ID    string   `json:"id"`
		Lines []string `json:"lines"`
	} `json:"tooltip"`
}

// loggedPixels counts the pixels of a cell nearest the canvas's Logged colour of the theme.
func loggedPixels(img image.Image, b box, col [3]uint8) int {
	n := 0
	for y := int(b.Y); y < int(b.Y+b.H); y++ {
		for x := int(b.X); x < int(b.X+b.W); x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if near([3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}, col, 40) {
				n++
			}
		}
	}
	return n
}

// observed-kill.json loaded as a file is: the logs of three members across a kill. Seeking to
// 63 s, where the logs and the simulation disagree, state() gives each queue's simulated and
// logged owners; the line over the stage says what is compared; the logged rounds are dots
// on the timeline; the disagreeing cells carry the logs' frame and the agreeing ones do not;
// hovering a queue says what the log says, with its file and line — in English and Chinese,
// on the dark and the light theme. Seeking on shows the logs' owners of that moment, and a
// share link carries the history to its reader.
func TestBrowserObservedHistory(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/observed-kill.json")
	require.NoError(t, err)
	const c2, c3 = "10.0.0.2@2345", "10.0.0.3@3456"
	for _, th := range []struct {
		name   string
		logged [3]uint8 // the canvas's Logged colour on that theme
	}{{"dark", [3]uint8{0xc9, 0xa3, 0xff}}, {"light", [3]uint8{0x6a, 0x3d, 0xc8}}} {
		t.Run(th.name, func(t *testing.T) {
			ctx := playground(t)
			con := open(t, ctx, "?lang=en&theme="+th.name)
			dispatch(t, ctx, `{type: "pause"}`)
			dispatch(t, ctx, `{type: "load", scenario: `+string(data)+`}`)
			dispatch(t, ctx, `{type: "seek", ms: 63000}`)
			waitFor(t, ctx, `!window.lbscope.state().reaching && window.lbscope.state().timeMs === 63000`)

			var st observedState
			require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.state())`)), &st))
			require.NotNil(t, st.Observed)
			assert.Equal(t, "rocketmq_client.log of 3 members", st.Observed.Source)
			assert.Equal(t, "+08:00", st.Observed.Zone)
			assert.Equal(t, 13, st.Observed.Holdings)
			assert.Equal(t, 15, st.Observed.Rounds)
			queues := map[string][2][]string{}
			for _, q := range st.Queues {
				require.NotNil(t, q.Observed, "%s has its logged owners", q.Queue)
				queues[q.Queue] = [2][]string{q.Owners, *q.Observed}
			}
			assert.Equal(t, [2][]string{{c2}, {}}, queues["broker-a:0"], "broker-a:0: the simulation's c2; nobody per the logs")
			assert.Equal(t, [2][]string{{c3}, {c2, c3}}, queues["broker-b:1"], "broker-b:1: the simulation's c3; held twice per the logs")
			assert.Equal(t, [2][]string{{c2}, {c2}}, queues["broker-a:3"], "broker-a:3: the same on both sides")

			line := eval[string](t, ctx, `document.getElementById("scenario-observed").hidden ? "" : document.getElementById("scenario-observed").textContent`)
			assert.Contains(t, line, "rocketmq_client.log of 3 members")
			assert.Contains(t, line, "+08:00")
			assert.Contains(t, line, "2026-11-30 10:15:02.120")
			assert.Contains(t, line, "LBScope's simulation of the same joins and kills")
			// The rounds the logs show up to the horizon (63 s) are dots on the timeline.
			waitFor(t, ctx, `document.querySelectorAll("#timeline .tl-round").length === 10`)
			assert.Equal(t, "01:02: the log shows a rebalance by "+c3+" (member3.log:611)",
				eval[string](t, ctx, `[...document.querySelectorAll("#timeline .tl-round")].pop().title`))

			var l observedLayout
			require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`)), &l))
			cells := map[string]box{}
			for _, q := range l.Queues {
				cells[q.Queue] = q
			}
			// Hover broker-b:1 and read its card.
			hover := func(queue string) []string {
				t.Helper()
				b := cells[queue]
				frames := eval[float64](t, ctx, `window.lbscope.counters().frames`)
				require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, b.X+b.W*0.7, b.Y+b.H*0.7)))
				waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v && window.lbscope.layout().tooltip && window.lbscope.layout().tooltip.id === %q`, frames, queue))
				var l observedLayout
				require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`)), &l))
				return l.Tooltip.Lines
			}
			card := strings.Join(hover("broker-b:1"), "\n")
			assert.Contains(t, card, "pulled by "+c3)
			assert.Contains(t, card, "the log says "+c2+" held it from 00:01.0 to 01:05.0 (member2.log:98)")
			assert.Contains(t, card, "the log says "+c3+" held it from 01:02.0 to the end (member3.log:611)")

			// The picture, the pointer off the cells: the logs' frame in the cells where they
			// disagree, none elsewhere.
			away := func() {
				t.Helper()
				frames := eval[float64](t, ctx, `window.lbscope.counters().frames`)
				require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 2, 2)))
				waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v && !window.lbscope.layout().tooltip`, frames))
			}
			away()
			img := screenshot(t, ctx)
			for _, q := range []string{"broker-a:0", "broker-a:1", "broker-a:2", "broker-b:0", "broker-b:1"} {
				assert.Greater(t, loggedPixels(img, cells[q], th.logged), int(cells[q].W), "%s, where the logs and the simulation disagree, carries the logs' frame", q)
			}
			for _, q := range []string{"broker-a:3", "broker-b:2", "broker-b:3"} {
				assert.Zero(t, loggedPixels(img, cells[q], th.logged), "%s, where they agree, carries nothing of the logs", q)
			}

			// In Chinese.
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("lang-zh"))))
			waitFor(t, ctx, `document.getElementById("scenario-observed").textContent.includes("日志对比模拟：rocketmq_client.log of 3 members 记载的各队列持有者")`)
			card = strings.Join(hover("broker-b:1"), "\n")
			assert.Contains(t, card, "日志中 "+c2+" 在 00:01.0 ~ 01:05.0 持有它（member2.log:98）")
			card = strings.Join(hover("broker-a:0"), "\n")
			assert.Contains(t, card, "日志中此刻无人持有它")
			t.Run("zh", func(t *testing.T) { screenshot(t, ctx) }) // for a look: LBSCOPE_SCREENSHOTS=DIR
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("lang-en"))))
			waitFor(t, ctx, `document.getElementById("scenario-observed").textContent.startsWith("Logs against simulation")`)

			// Travel on: at 90 s both sides agree, and the card says who held it since when.
			dispatch(t, ctx, `{type: "seek", ms: 90000}`)
			waitFor(t, ctx, `!window.lbscope.state().reaching && window.lbscope.state().timeMs === 90000`)
			card = strings.Join(hover("broker-b:1"), "\n")
			assert.Contains(t, card, "the log says "+c3+" held it from 01:02.0 to the end (member3.log:611)")
			assert.NotContains(t, card, c2)
			waitFor(t, ctx, `document.querySelectorAll("#timeline .tl-round").length === 13`)
			away()
			img = screenshot(t, ctx)
			for _, q := range []string{"broker-a:0", "broker-b:1"} {
				assert.Zero(t, loggedPixels(img, cells[q], th.logged), "%s at 90 s: the logs agree again", q)
			}

			// A share link carries the history: its reader sees the same comparison.
			link := eval[string](t, ctx, `window.lbscope.share()`)
			require.True(t, strings.HasPrefix(link, "#s="), link)
			other := playground(t)
			con2 := open(t, other, "?lang=en&theme="+th.name+link)
			waitFor(t, other, `!window.lbscope.state().reaching && window.lbscope.state().timeMs === 90000`)
			var got observedState
			require.NoError(t, json.Unmarshal([]byte(eval[string](t, other, `JSON.stringify(window.lbscope.state())`)), &got))
			require.NotNil(t, got.Observed, "the link's reader has the history")
			assert.Equal(t, *st.Observed, *got.Observed)
			waitFor(t, other, `!document.getElementById("scenario-observed").hidden`)
			assert.Empty(t, con.Errors())
			assert.Empty(t, con2.Errors())
		})
	}
}

// A history too large for a share link: the Share button says why there is no link, in the
// page's language, instead of making one nobody can open.
func TestBrowserObservedTooLargeToShare(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/observed-kill.json")
	require.NoError(t, err)
	ctx := playground(t)
	con := open(t, ctx, "?lang=en")
	res := eval[map[string]any](t, ctx, `(() => {
		const sc = `+string(data)+`;
		const hs = [];
		let x = 1;
		for (let i = 0; i < 6000; i++) {
			x = (Math.imul(x, 1664525) + 1013904223) >>> 0; // refs and times a compressor cannot fold away
			const from = x % 100000;
			hs.push({broker: "broker-a", queue: i % 2, owner: "10.0.0.1@1234", from, to: from + 1 + (x >>> 20) % 1000, ref: "member" + (x % 97) + ".log:" + (x >>> 8)});
		}
		sc.observed.holdings = hs;
		return window.lbscope.dispatch({type: "load", scenario: sc});
	})()`)
	require.Equal(t, true, res["ok"], "load: %v", res)
	waitFor(t, ctx, `window.lbscope.state().observed && window.lbscope.state().observed.holdings === 6000`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("share"))))
	waitFor(t, ctx, `!document.getElementById("panel-feedback").hidden`)
	msg := eval[string](t, ctx, `document.getElementById("panel-feedback").textContent`)
	assert.Contains(t, msg, "No link: with its history read from logs it would be")
	assert.Contains(t, msg, "Share the scenario file instead.")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("lang-zh"))))
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("share"))))
	waitFor(t, ctx, `document.getElementById("panel-feedback").textContent.includes("无法生成链接")`)
	assert.Empty(t, con.Errors())
}
