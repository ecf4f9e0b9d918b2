//go:build !js

package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// everyOther is a strategy whose result is easy to see: consumer i of n takes the queues
// i, i+n, i+2n…
const everyOther = `def allocate(group, current, queues, consumers):
    i = consumers.index(current)
    return [q for k, q in enumerate(queues) if k % len(consumers) == i]
`

// A strategy given with its source runs in the page: the interpreter's wasm is loaded when it
// is first needed, setStrategy with the source allocates with it, a share link carries it,
// and the link opens with the interpreter loaded before the page's wasm opens it.
func TestBrowserStrategySourceRunsAndShares(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "?preset=small")
	assert.False(t, eval[bool](t, ctx, `LB.starlark.loaded()`), "the first load carries no interpreter")
	res := eval[map[string]any](t, ctx, `lbscope.dispatch({type: "setStrategy", strategy: "EVERY_OTHER", source: `+jsString(everyOther)+`})`)
	assert.Contains(t, res["error"], "the Starlark interpreter is not loaded yet", "before it is loaded, a source is refused with a reason")
	eval[bool](t, ctx, `LB.starlark.load().then(() => true)`)
	dispatch(t, ctx, `{type: "setStrategy", strategy: "EVERY_OTHER", source: `+jsString(everyOther)+`}`)
	dispatch(t, ctx, `{type: "step", ms: 25000}`)
	st := state(t, ctx)
	assert.Equal(t, "EVERY_OTHER", st.Strategy)
	_, q1 := consumer(st, "c1")
	require.NotEmpty(t, q1)
	assert.Equal(t, "broker-a:0", q1[0])

	link := eval[string](t, ctx, `lbscope.share()`)
	require.True(t, strings.HasPrefix(link, "#s=1."), "share() = %.60q", link)
	other := playground(t)
	con2 := open(t, other, link)
	assert.True(t, eval[bool](t, other, `LB.starlark.loaded()`), "a link with a source loads the interpreter first")
	assert.Nil(t, eval[any](t, other, `window.lbscope.linkError`))
	got := state(t, other)
	assert.Equal(t, "EVERY_OTHER", got.Strategy)
	sameMoment(t, st, got)
	assert.Empty(t, con.Errors())
	assert.Empty(t, con2.Errors())
}
