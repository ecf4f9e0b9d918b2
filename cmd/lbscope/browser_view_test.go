//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What each consumer believes and where the producer's sends go, on the canvas and in state().

type viewState struct {
	Brokers []struct {
		Name          string `json:"name"`
		SendLatencyMs int64  `json:"sendLatencyMs"`
		Window        struct {
			FromMs int64   `json:"fromMs"`
			Stored int64   `json:"stored"`
			Share  float64 `json:"share"`
		} `json:"window"`
	} `json:"brokers"`
	Consumers []struct {
		ID     string   `json:"id"`
		Queues []string `json:"queues"`
		View   *struct {
			Broker     string   `json:"broker"`
			At         int64    `json:"at"`
			Cids       []string `json:"cids"`
			NowBroker  string   `json:"nowBroker"`
			Now        []string `json:"now"`
			Stale      bool     `json:"stale"`
			Computed   []string `json:"computed"`
			Pulled     []string `json:"pulled"`
			LastAnswer string   `json:"lastAnswer"`
		} `json:"view"`
	} `json:"consumers"`
}

type cardLayout struct {
	Card *struct {
		Consumer   string `json:"consumer"`
		X, Y, W, H float64
		Lines      []string `json:"lines"`
	} `json:"card"`
}

// frameAround is the colour just above a cell, where a view's frame around it is drawn: a
// quarter of the way along its top edge, clear of the line that runs down from the cell above
// through the middle of the gap between them.
func frameAround(img image.Image, q box) [3]uint8 {
	r, g, b, _ := img.At(int(q.X+q.W/4), int(math.Floor(q.Y))-1).RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

func near(a, b [3]uint8, tol int) bool {
	for i := range a {
		if d := int(a[i]) - int(b[i]); d > tol || d < -tol {
			return false
		}
	}
	return true
}

// Cut c2 off and let the brokers expire it: state() says its view is stale (its list still
// has c2, the brokers' no longer does) and that it pulls none of the queues it computed;
// hovering c1 frames the queues it computed in its colour; opening c2's menu shows its card
// (STALE, pulls: none) beside the menu and frames its queues as warnings.
func TestBrowserConsumerView(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?theme=dark")
	dispatch(t, ctx, `{type: "step", ms: 20000}`)
	dispatch(t, ctx, `{type: "partitionConsumer", id: "c2"}`)
	dispatch(t, ctx, `{type: "step", ms: 180000}`)

	var s viewState
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.state())`)), &s))
	total := 0.0
	for _, b := range s.Brokers {
		total += b.Window.Share
		assert.Positive(t, b.SendLatencyMs, "%s's latest response time", b.Name)
		assert.Positive(t, b.Window.Stored, "%s stored sends in the window", b.Name)
	}
	assert.InDelta(t, 1, total, 1e-9, "the brokers' shares of the window add up to 1")
	byID := map[string]int{}
	for i, c := range s.Consumers {
		byID[c.ID] = i
	}
	c2 := s.Consumers[byID["c2"]].View
	require.NotNil(t, c2, "c2 has a view")
	assert.True(t, c2.Stale, "c2's view is stale: %+v", c2)
	assert.Contains(t, c2.Cids, "c2")
	assert.NotContains(t, c2.Now, "c2")
	assert.NotEmpty(t, c2.Computed)
	assert.Empty(t, c2.Pulled, "a cut-off consumer's pulls reach nobody")
	assert.Equal(t, "failed", c2.LastAnswer)
	c1 := s.Consumers[byID["c1"]]
	require.NotNil(t, c1.View)
	assert.False(t, c1.View.Stale)
	assert.Equal(t, c1.Queues, c1.View.Computed)
	assert.Equal(t, c1.Queues, c1.View.Pulled)
	assert.True(t, slices.IsSorted(c1.View.Cids), "ids in the order the client sorted them: %v", c1.View.Cids)

	l := layout(t, ctx)
	cells := map[string]box{}
	for _, q := range l.Queues {
		cells[q.Queue] = q
	}
	var c1Box, c2Box box
	for _, c := range l.Consumers {
		switch c.ID {
		case "c1":
			c1Box = c
		case "c2":
			c2Box = c
		}
	}
	// The picture before any hover: the step's moment reached and drawn in full, the pointer
	// off every consumer.
	waitFor(t, ctx, `!window.lbscope.state().reaching`)
	drawn := eval[float64](t, ctx, `window.lbscope.counters().frames`)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 2, 2)))
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v`, drawn))
	before := screenshot(t, ctx)

	// Hover c1: the queues it computed are framed in its colour.
	frames := eval[float64](t, ctx, `window.lbscope.counters().frames`)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, c1Box.X+c1Box.W/2, c1Box.Y+c1Box.H/2)))
	// Paused, the loop draws a frame for the move and then no more until asked.
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v`, frames))
	hover := screenshot(t, ctx)
	for _, q := range c1.View.Computed {
		cell := cells[q]
		assert.True(t, near(frameAround(hover, cell), colourAt(hover, cell), 40), "%s is framed in c1's colour when c1 is hovered: %v, cell %v", q, frameAround(hover, cell), colourAt(hover, cell))
		assert.False(t, near(frameAround(before, cell), colourAt(before, cell), 40), "%s is not framed before: %v", q, frameAround(before, cell))
	}

	// Open c2's menu: its card stands beside it; its computed queues are framed as warnings.
	click(t, ctx, c2Box)
	waitFor(t, ctx, `window.lbscope.layout().menu.length > 0 && !!window.lbscope.layout().card`)
	var cl cardLayout
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`)), &cl))
	require.NotNil(t, cl.Card)
	text := strings.Join(cl.Card.Lines, "\n")
	assert.Equal(t, "c2", cl.Card.Consumer)
	assert.Contains(t, text, "from "+c2.Broker)
	assert.Contains(t, text, "ids: "+strings.Join(c2.Cids, " "))
	assert.Contains(t, text, "STALE "+c2.NowBroker+" now: "+strings.Join(c2.Now, " "))
	assert.Contains(t, text, "pulls: none")
	menu := layout(t, ctx).Menu
	card := box{X: cl.Card.X, Y: cl.Card.Y, W: cl.Card.W, H: cl.Card.H}
	for _, it := range menu {
		assert.False(t, card.X < it.X+it.W && it.X < card.X+card.W && card.Y < it.Y+it.H && it.Y < card.Y+card.H, "the card covers menu item %s", it.ID)
	}
	// The frame that published the menu's layout drew it: no more frames come while paused.
	open := screenshot(t, ctx)
	warn := [3]uint8{0xff, 0x5c, 0x5c} // the dark theme's warning colour
	for _, q := range c2.Computed {
		assert.True(t, near(frameAround(open, cells[q]), warn, 40), "%s, computed by c2 and pulled by nobody for it, is framed as a warning: %v", q, frameAround(open, cells[q]))
	}
	// The card's text is drawn: light ink on its dark background, where the canvas showed
	// something else before.
	ink, changed := 0, 0
	for y := int(card.Y) + 2; y < int(card.Y+card.H)-2; y++ {
		for x := int(card.X) + 2; x < int(card.X+card.W)-2; x++ {
			if lum(open, x, y) > 0.5 {
				ink++
			}
			if math.Abs(lum(open, x, y)-lum(before, x, y)) > 0.1 {
				changed++
			}
		}
	}
	assert.Greater(t, ink, len(cl.Card.Lines)*20, "ink pixels in the card")
	assert.Greater(t, changed, int(card.W*card.H)/20, "pixels the card changed")

	// In Chinese the card says so in Chinese (a language switch closes the menu: open it again).
	eval[bool](t, ctx, `(window.lbscope.setLang("zh"), true)`)
	waitFor(t, ctx, `window.lbscope.layout().menu.length === 0`)
	click(t, ctx, c2Box)
	waitFor(t, ctx, `window.lbscope.layout().card && window.lbscope.layout().card.lines.some(l => l.includes("已过时"))`)
	assert.Empty(t, con.Errors())
}
