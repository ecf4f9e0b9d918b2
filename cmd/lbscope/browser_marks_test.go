//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The legend and the consumers' ids, as a newcomer meets them.

type legendLayout struct {
	LegendButton struct{ X, Y, W, H float64 } `json:"legendButton"`
	Legend       *struct {
		X, Y, W, H float64
		Lines      []string `json:"lines"`
	} `json:"legend"`
	Consumers []box `json:"consumers"`
}

func legendOf(t *testing.T, raw string) legendLayout {
	t.Helper()
	var l legendLayout
	require.NoError(t, json.Unmarshal([]byte(raw), &l))
	return l
}

// An imported group of twelve consumers on one host (ip@pid, one restarted ip@pid#nanoTime):
// state() gives every whole id, the boxes read the PIDs that tell them apart, and hovering
// one shows its whole id on its card. The legend shows and hides with the l key, the
// header's button on the canvas and the panel's Legend button (whose aria-pressed follows),
// explains the marks and maps each label to its id, in English and in Chinese.
func TestBrowserLegendAndConsumerIDs(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?lang=en&theme=dark")
	var ids []string
	for i := range 12 {
		ids = append(ids, fmt.Sprintf("127.0.0.1@%d", 4012+7*i))
	}
	ids[11] = "10.1.2.3@12345#123456789"
	var cs []string
	for _, id := range ids {
		cs = append(cs, fmt.Sprintf(`{id: %q}`, id))
	}
	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "load", scenario: {version: 1, title: "imported", brokers: [{name: "broker-a", queues: 8}, {name: "broker-b", queues: 8}],
		consumers: [`+strings.Join(cs, ",")+`], producers: [{id: "p1", rate: 100}]}}`)
	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "step", ms: 5000}`)

	// state(): the whole ids.
	s := state(t, ctx)
	var got []string
	for _, c := range s.Consumers {
		got = append(got, c.ID)
	}
	assert.ElementsMatch(t, ids, got, "state()'s consumers")
	// The boxes: distinct labels, each with the part of its id that differs.
	labels := eval[map[string]string](t, ctx, `window.lbscope.palette().labels`)
	seen := map[string]string{}
	for _, id := range ids {
		label := labels[id]
		if strings.HasPrefix(id, "127.0.0.1@") {
			assert.Contains(t, label, id[len("127.0.0.1"):], "%s's box gives its PID", id)
		}
		assert.NotContains(t, label, "127.0", "%s's box keeps the host every id shares", id)
		// What it reads past its number is in its id and in no other.
		_, part, _ := strings.Cut(label, " ")
		part = strings.Trim(part, "~")
		for _, other := range ids {
			assert.Equal(t, other == id, strings.Contains(other, part), "%s's box reads %q; in %s?", id, label, other)
		}
		if other, dup := seen[label]; dup {
			t.Errorf("%s and %s both read %q", id, other, label)
		}
		seen[label] = id
	}
	// The panel's list of consumers says which number is which id.
	waitFor(t, ctx, `document.getElementById("consumer-target").options.length === 12`)
	options := eval[[]string](t, ctx, `[...document.getElementById("consumer-target").options].map(o => o.textContent)`)
	for _, id := range ids {
		num, _, _ := strings.Cut(labels[id], " ")
		found := false
		for _, o := range options {
			found = found || strings.HasPrefix(o, num+" · "+id+" ")
		}
		assert.True(t, found, "the panel lists %s as %q; options %q", id, num+" · "+id, options)
	}
	// Opening a box's menu: its card starts with its number and its whole id.
	l := legendOf(t, eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`))
	require.Len(t, l.Consumers, 12)
	b := l.Consumers[3]
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, b.X+b.W/2, b.Y+b.H/2)))
	click(t, ctx, b) // the menu opens, and the card beside it
	waitFor(t, ctx, `window.lbscope.layout().card && window.lbscope.layout().card.lines.length > 0`)
	card := eval[[]string](t, ctx, `window.lbscope.layout().card.lines`)
	num, _, _ := strings.Cut(labels[b.ID], " ")
	assert.True(t, strings.HasPrefix(card[0], num+" · "+b.ID+" "), "the card's first line %q gives the number %s and the whole id %s", card[0], num, b.ID)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent(kb.Escape))) // close the menu

	// The legend: hidden at first; the l key shows it.
	require.Nil(t, l.Legend, "the legend shows before it is asked for")
	require.GreaterOrEqual(t, l.LegendButton.W, 24.0)
	require.GreaterOrEqual(t, l.LegendButton.H, 24.0)
	stage := eval[map[string]float64](t, ctx, `window.lbscope.layout().stage`)
	click(t, ctx, box{X: stage["x"] + 4, Y: stage["y"] + stage["h"]/2, W: 2, H: 2}) // focus the canvas, on nothing
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("l")))
	waitFor(t, ctx, `window.lbscope.layout().legend && document.getElementById("legend").getAttribute("aria-pressed") === "true"`)
	l = legendOf(t, eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`))
	text := strings.Join(l.Legend.Lines, "\n")
	for _, want := range []string{"next rebalance", "share of the last 5 s of sends", "latency fault tolerance", "two consumers", "nobody", "on its way"} {
		assert.Contains(t, text, want, "the legend explains it")
	}
	for _, id := range ids {
		assert.Contains(t, l.Legend.Lines, id, "the legend gives %s whole", id)
	}
	img := screenshot(t, ctx)
	assert.NotEqual(t, colourAt(img, box{X: l.Legend.X, Y: l.Legend.Y, W: l.Legend.W, H: l.Legend.H}), [3]uint8{0x1b, 0x1d, 0x23}, "the legend is drawn")

	// The canvas's button hides it, the panel's button shows it again, the key hides it.
	click(t, ctx, box{X: l.LegendButton.X, Y: l.LegendButton.Y, W: l.LegendButton.W, H: l.LegendButton.H})
	waitFor(t, ctx, `!window.lbscope.layout().legend && document.getElementById("legend").getAttribute("aria-pressed") === "false"`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("legend"))))
	waitFor(t, ctx, `window.lbscope.layout().legend !== undefined`)

	// In Chinese, its words are the dictionary's.
	eval[any](t, ctx, `window.lbscope.setLang("zh")`)
	waitFor(t, ctx, `window.lbscope.layout().legend && window.lbscope.layout().legend.lines.some(s => s.includes("重平衡"))`)
	screenshot(t, ctx)
	click(t, ctx, box{X: stage["x"] + 4, Y: stage["y"] + stage["h"]/2, W: 2, H: 2})
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("l")))
	waitFor(t, ctx, `!window.lbscope.layout().legend`)
	assert.Empty(t, con.Errors())
}

// ?legend=1 opens the page with the legend shown.
func TestBrowserLegendFromTheURL(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?legend=1&lang=en")
	waitFor(t, ctx, `window.lbscope.layout().legend && window.lbscope.layout().legend.lines.length > 10`)
	assert.Equal(t, "true", eval[string](t, ctx, `document.getElementById("legend").getAttribute("aria-pressed")`))
	assert.Empty(t, con.Errors())
}
