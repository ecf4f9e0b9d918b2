//go:build !js

package main

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// orderly-owner-killed.json loaded as a file, at 60 s: c2 was killed at 30 s, and its locks
// on broker-b outlive it until 81 s. The canvas marks every locked queue in its cell's top
// right corner: a padlock in its owner's ink where the owner holds the lock, a red one where
// the killed member still does, its queue pulled by nobody; the legend says which is which.
func TestBrowserOrderlyLockMarks(t *testing.T) {
	data, err := os.ReadFile("../../testdata/scenarios/orderly-owner-killed.json")
	require.NoError(t, err)
	ctx := playground(t)
	con := open(t, ctx, "?lang=en&theme=dark")
	dispatch(t, ctx, `{type: "pause"}`)
	dispatch(t, ctx, `{type: "load", scenario: `+string(data)+`}`)
	dispatch(t, ctx, `{type: "seek", ms: 60000}`)
	waitFor(t, ctx, `!window.lbscope.state().reaching && window.lbscope.state().timeMs === 60000`)

	var st struct {
		Queues []struct {
			Queue    string   `json:"queue"`
			Owners   []string `json:"owners"`
			LockedBy string   `json:"lockedBy"`
		} `json:"queues"`
	}
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.state())`)), &st))
	var l struct {
		Queues []box `json:"queues"`
	}
	require.NoError(t, json.Unmarshal([]byte(eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`)), &l))
	cells := map[string]box{}
	for _, q := range l.Queues {
		cells[q.Queue] = q
	}
	frames := eval[float64](t, ctx, `window.lbscope.counters().frames`)
	require.NoError(t, chromedp.Do(ctx, chromedp.MouseEvent(chromedp.MouseMoved, 2, 2)))
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.counters().frames > %v && !window.lbscope.layout().tooltip`, frames))
	img := screenshot(t, ctx) // for a look: LBSCOPE_SCREENSHOTS=DIR

	warn := [3]uint8{0xff, 0x5c, 0x5c} // the dark theme's warning colour
	held, away := 0, 0
	for _, q := range st.Queues {
		c, ok := cells[q.Queue]
		if !ok || q.LockedBy == "" {
			continue
		}
		// The padlock's box: the top right corner, inside the cell's warning frame.
		s := min(10.0, max(7.0, float64(int(min(c.W, c.H)*0.45))))
		corner := box{X: c.X + c.W - 3 - s, Y: c.Y + 3, W: s, H: s}
		if len(q.Owners) == 1 && q.Owners[0] == q.LockedBy {
			held++
			// Most of the corner differs from the cell's colour: the padlock in the owner's ink.
			fill := colourAt(img, c)
			assert.Greater(t, pixelsAway(img, corner, fill, 60), int(s*s/2), "%s: %s's lock has no padlock in its corner", q.Queue, q.LockedBy)
		} else {
			away++
			assert.Empty(t, q.Owners, "%s: nobody pulls a queue a killed member's lock holds", q.Queue)
			assert.Greater(t, loggedPixels(img, corner, warn), int(s*s/3), "%s: %s's lock, which it outlives, has no red padlock", q.Queue, q.LockedBy)
		}
	}
	assert.Equal(t, 4, held, "queues locked by their owners, c1 and c3")
	assert.Equal(t, 2, away, "queues locked by the killed c2")

	// The legend explains both marks.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("legend"))))
	waitFor(t, ctx, `window.lbscope.layout().legend && window.lbscope.layout().legend.lines.some(s => s.startsWith("padlock:"))`)
	lines := eval[[]string](t, ctx, `window.lbscope.layout().legend.lines`)
	assert.True(t, slices.ContainsFunc(lines, func(s string) bool { return strings.HasPrefix(s, "red padlock, the holder") }), "the legend's lines %q", lines)
	t.Run("legend", func(t *testing.T) { screenshot(t, ctx) })
	assert.Empty(t, con.Errors())
}

// pixelsAway counts the pixels of b farther than d from col in a channel.
func pixelsAway(img image.Image, b box, col [3]uint8, d int) int {
	n := 0
	for y := int(b.Y); y < int(b.Y+b.H); y++ {
		for x := int(b.X); x < int(b.X+b.W); x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if !near([3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}, col, d) {
				n++
			}
		}
	}
	return n
}
