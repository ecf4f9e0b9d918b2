//go:build !js

package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/api"
)

// hostileValues defines, in the page, window.hostile: arguments that cannot become JSON.
const hostileValues = `(() => {
	const cyclic = {type: "pause"}; cyclic.self = cyclic;
	const getter = {type: "pause"}; Object.defineProperty(getter, "ms", {enumerable: true, get() { throw new Error("getter says no"); }});
	const toJSON = {type: "pause", toJSON() { throw new Error("toJSON says no"); }};
	window.hostile = {cyclic, bigint: {type: "step", ms: 10n}, getter, toJSON, bare: 10n, fn: () => 1, sym: Symbol("s")};
	return true;
})()`

// stackless fails when an error text looks like it carries a Go stack or Go's own words.
func stackless(t *testing.T, what, text string) {
	t.Helper()
	for _, bad := range []string{"goroutine", ".go:", "runtime.", "panic", "syscall/js"} {
		assert.NotContains(t, text, bad, "%s: %q", what, text)
	}
}

// stillRuns asserts the playground goes on: its clock advances, a command is obeyed and the
// share link can still be taken.
func stillRuns(t *testing.T, ctx context.Context) {
	t.Helper()
	dispatch(t, ctx, `{type: "play"}`)
	t0 := eval[float64](t, ctx, `lbscope.state().timeMs`)
	waitFor(t, ctx, fmt.Sprintf(`lbscope.state().timeMs > %v`, t0+200))
	assert.Nil(t, eval[any](t, ctx, `lbscope.linkError`))
	link := eval[string](t, ctx, `String(lbscope.share())`)
	assert.True(t, strings.HasPrefix(link, "#s=1."), "share() after hostile calls: %q", link)
	assert.Equal(t, true, eval[bool](t, ctx, `window.lbscopeLoader.error === null`), "the playground stopped: %v",
		eval[any](t, ctx, `window.lbscopeLoader.error`))
}

// Arguments that cannot become JSON — a cycle, a BigInt, a throwing getter or toJSON — are
// refused with an {error} in JavaScript's words, to every method, and the playground goes on.
func TestBrowserArgumentsThatCannotBecomeJSONAreRefused(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	eval[bool](t, ctx, hostileValues)
	for _, name := range []string{"cyclic", "bigint", "getter", "toJSON", "bare", "fn", "sym"} {
		for _, call := range []string{"dispatch", "compare", "setLang", "series", "lessonStart", "timeline", "diagnose", "diagnoseStage"} {
			js := fmt.Sprintf(`Promise.resolve().then(() => lbscope.%s(hostile.%s)).then(r => JSON.stringify(r), e => "threw " + e)`, call, name)
			got := eval[string](t, ctx, js)
			assert.Contains(t, got, `"error"`, "lbscope.%s(%s) = %s", call, name, got)
			stackless(t, fmt.Sprintf("lbscope.%s(%s)", call, name), got)
		}
	}
	// on() with the wrong kinds of argument, a BigInt among them.
	for _, args := range []string{"hostile.bare, () => 1", `"action", hostile.bare`, "hostile.sym", `"action"`} {
		got := eval[string](t, ctx, `JSON.stringify(lbscope.on(`+args+`))`)
		assert.Contains(t, got, "want an event name and a function", "on(%s)", args)
	}
	assert.Contains(t, eval[string](t, ctx, `lbscope.dispatch(hostile.cyclic).then(r => r.error)`), "circular")
	assert.Contains(t, eval[string](t, ctx, `lbscope.dispatch(hostile.bigint).then(r => r.error)`), "BigInt")
	assert.Contains(t, eval[string](t, ctx, `lbscope.compare(hostile.getter).then(r => r.error)`), "getter says no")
	assert.Contains(t, eval[string](t, ctx, `lbscope.dispatch(hostile.toJSON).then(r => r.error)`), "toJSON says no")
	// Over the limits lbscope.limits() states, an argument is refused before it reaches Go,
	// and the answer names the limit.
	lim := eval[map[string]any](t, ctx, `lbscope.limits().args`)
	assert.Equal(t, map[string]any{"chars": float64(api.MaxArgBytes), "depth": float64(cluster.MaxArgDepth), "string": float64(cluster.MaxArgString)}, lim)
	// A setting's limits are the field table's, for a script to check a scenario against.
	assert.Equal(t, []any{float64(0), float64(cluster.MaxQueues)}, eval[[]any](t, ctx, `(l => [l.min, l.max])(lbscope.limits().fields["brokers[].queues"])`))
	for js, want := range map[string]string{
		`lbscope.dispatch({type: "addConsumer", id: "y".repeat(100000)}).then(r => r.error)`:                                                  "a string of 100000 characters; at most 65536",
		`lbscope.dispatch({type: "pause", ["k".repeat(70000)]: 1}).then(r => r.error)`:                                                        "a string of 70000 characters; at most 65536",
		`lbscope.series("y".repeat(70000)).error`:                                                                                             "at most 65536",
		`(() => { let v = 1; for (let i = 0; i < 3000; i++) v = [v]; return lbscope.dispatch({type: "pause", x: v}).then(r => r.error); })()`: "nests deeper than 16 levels",
		`(() => { let v = 1; for (let i = 0; i < 17; i++) v = {a: v}; return lbscope.setLang(v).error; })()`:                                  "nests deeper than 16 levels",
		`lbscope.setLang("x".repeat(1100000)).error`:                                                                                          "characters of JSON; at most 1048576",
	} {
		got := eval[string](t, ctx, js)
		assert.Contains(t, got, want, js)
		stackless(t, js, got)
	}
	// Just within them, the argument reaches the call, which says what is wrong with it.
	assert.Contains(t, eval[string](t, ctx, `lbscope.dispatch({type: "addConsumer", id: "y".repeat(65536)}).then(r => r.error)`), "the limit is 64")
	assert.Contains(t, eval[string](t, ctx, `(() => { let v = 1; for (let i = 0; i < 15; i++) v = [v]; return lbscope.dispatch({type: "pause", x: v}).then(r => r.error); })()`), "x")
	// A plain string argument is a JSON string: the page's language switch goes through.
	assert.Equal(t, "zh", eval[string](t, ctx, `lbscope.setLang("zh").lang`))
	assert.Equal(t, "en", eval[string](t, ctx, `lbscope.setLang("en").lang`))
	stillRuns(t, ctx)
	assert.Empty(t, con.Errors())
}

// The same through the embed's postMessage: structured cloning carries cycles and BigInts to
// the embed, which must answer {error} without a stack and keep running.
func TestBrowserEmbedPostMessageHostileCommands(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	embedOrigin := strings.TrimSuffix(browserEnv.url, "/")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	host := "http://" + ln.Addr().String()
	page := strings.NewReplacer(
		"EMBED_ORIGIN", fmt.Sprintf("%q", embedOrigin),
		"EMBED", browserEnv.url+"embed.html?autoplay=1&controls=min&origins="+host,
		"FOREIGN", "about:blank",
	).Replace(hostPage)
	serveHTML(t, ln, page)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(host+"/")))
	require.Equal(t, true, eval[map[string]any](t, ctx, `ask({type: "getState"})`)["ok"])

	for name, msg := range map[string]string{
		"cyclic":        `(() => { const c = {type: "pause"}; c.self = c; return {type: "dispatch", command: c}; })()`,
		"bigint":        `({type: "dispatch", command: {type: "step", ms: 10n}})`,
		"bigint step":   `({type: "step", ms: 10n})`,
		"bigint seek":   `({type: "seek", ms: 10n})`,
		"cyclic load":   `(() => { const s = {version: 1}; s.me = s; return {type: "load", scenario: s}; })()`,
		"array command": `({type: "dispatch", command: [[[[]]]]})`,
	} {
		got := eval[map[string]any](t, ctx, `ask(`+msg+`)`)
		text, _ := got["error"].(string)
		assert.NotEmpty(t, text, "%s: %v", name, got)
		stackless(t, name, text)
	}
	res := eval[map[string]any](t, ctx, `ask({type: "step", ms: 500})`)
	assert.Equal(t, true, res["ok"], "the embed stopped obeying: %v", res)
	st := eval[map[string]any](t, ctx, `ask({type: "getState"})`)
	assert.Equal(t, true, st["ok"], "getState: %v", st)
	assert.Empty(t, con.Errors())
}

// A few thousand generated hostile calls — every method, values of every type, sizes,
// nesting, characters — never stop the playground, never answer with a stack, never take more
// than a second of the page's main thread each (timed around each call: a coarse guard, as
// longTaskGuardMs; the 100 ms target is BenchmarkBrowserLongTasks'), never make any task — a
// frame drawing what they changed included — hold it long (guardLongTasks), and leave it
// shareable.
func TestBrowserThousandsOfHostileCalls(t *testing.T) {
	ctx := playground(t)
	watchLongTasks(t, ctx)
	con := open(t, ctx, "")
	from, res := hostileCalls(t, ctx)
	guardLongTasks(t, ctx, "3,000 hostile calls", from, pastAll)
	assert.LessOrEqual(t, res["slowest"], float64(longTaskGuardMs), "the slowest call held the page %v ms, over a coarse guard no healthy machine crosses: %v", res["slowest"], res["slowestWhat"])
	assert.Equal(t, 3000.0, res["calls"])
	assert.Equal(t, 0.0, res["nbad"], "answers with a stack or a throw: %v", res["bad"])
	assert.Nil(t, res["stopped"], "the playground stopped")
	assert.Equal(t, "#s=1.", res["share"], "share() after the hostile calls")
	assert.Equal(t, "en", eval[string](t, ctx, `lbscope.setLang("en").lang`))
	stillRuns(t, ctx)
	assert.Empty(t, con.Errors())
}

// hostileCalls makes 3,000 generated hostile calls on the open playground, each in a task of
// its own, from a settled, paused page, and returns the performance.now() value they started
// at with what they found: calls, slowest (ms) and slowestWhat, bad and nbad (answers with a
// stack or a throw), stopped (the loader's error) and share (the start of share()).
func hostileCalls(t testing.TB, ctx context.Context) (float64, map[string]any) {
	t.Helper()
	dispatch(t, ctx, `{type: "pause"}`)
	// From when the page has settled: its start (the wasm compiled, the panel's first render
	// from the first state, in the task that resolves ready) is not what the calls do.
	eval[bool](t, ctx, `new Promise(r => setTimeout(() => r(true), 500))`)
	from := eval[float64](t, ctx, `performance.now()`)
	res := eval[map[string]any](t, ctx, `(async () => {
	let seed = 20261201;
	const rnd = () => { seed = (seed + 0x6D2B79F5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
	const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
	const st = lbscope.state();
	const types = st.commands.filter(c => c !== "seek" && c !== "step" && c !== "play" && c !== "load");
	const strings = ["", "c1", "broker-a", "<img src=x onerror=alert(1)>", "a\u0000b", "line\nbreak", "\u202Eevil",
		"x".repeat(70), "y".repeat(100000), "\uD800", "🙂", "AVG", "CONSISTENT_HASH", "constructor", "__proto__", "null"];
	const numbers = [0, -1, 1, 0.5, -0, NaN, Infinity, -Infinity, 1e308, 2 ** 53, 2000000000, 4096, 513, 3e6];
	const nest = (d) => d === 0 ? pick(numbers) : (rnd() < 0.5 ? [nest(d - 1)] : {a: nest(d - 1)});
	const value = (depth) => {
		switch (Math.floor(rnd() * 9)) {
		case 0: return pick(strings);
		case 1: return pick(numbers);
		case 2: return rnd() < 0.5;
		case 3: return null;
		case 4: return undefined;
		case 5: return nest(Math.floor(rnd() * 3000));
		case 6: return depth > 2 ? {} : command(depth + 1);
		case 7: return Array.from({length: Math.floor(rnd() * 5)}, () => value(depth + 1));
		default: return {[pick(strings)]: depth > 2 ? 1 : value(depth + 1)};
		}
	};
	const fields = ["id", "broker", "latencyMs", "queues", "consumeRate", "rate", "strategy", "params", "model",
		"table", "on", "ms", "x", "preset", "scenario", "link", "extra"];
	const command = (depth) => {
		const c = {type: rnd() < 0.9 ? pick(types) : pick(strings)};
		for (let i = Math.floor(rnd() * 4); i > 0; i--) c[pick(fields)] = value(depth);
		if (rnd() < 0.05) c.params = {virtualNodeCnt: pick(numbers), inner: pick(strings)};
		return c;
	};
	const methods = lbscope.methods().filter(m => m !== "compare");
	const bad = [];
	let calls = 0, slowest = 0, slowestWhat = "";
	const check = (what, r) => {
		const text = typeof r === "string" ? r : JSON.stringify(r === undefined ? null : r) || "";
		if (/goroutine|\.go:\d|runtime\.|panic/.test(text)) bad.push(what + " → " + text.slice(0, 300));
	};
	// Each call in a task of its own, as a page's script calling now and then makes them: a
	// long task is then the call's own (or a frame's).
	const nextTask = () => new Promise((r) => { const ch = new MessageChannel(); ch.port1.onmessage = () => r(); ch.port2.postMessage(0); });
	for (let batch = 0; batch < 20; batch++) {
		const waits = [];
		for (let i = 0; i < 150; i++) {
			await nextTask();
			calls++;
			const arg = rnd() < 0.7 ? command(0) : value(0);
			let what = "";
			try {
				const t0 = performance.now();
				if (rnd() < 0.6) {
					what = "dispatch";
					waits.push(Promise.resolve(lbscope.dispatch(rnd() < 0.1 ? JSON.stringify(arg) || "" : arg)).then(r => check(what, r), e => bad.push("dispatch threw " + e)));
				} else {
					what = pick(methods);
					check(what, lbscope[what](arg));
				}
				const took = performance.now() - t0;
				if (took > slowest) { slowest = took; slowestWhat = what; }
			} catch (e) {
				bad.push(what + " threw " + e);
			}
		}
		await Promise.all(waits);
	}
	const stopped = window.lbscopeLoader.error;
	const share = lbscope.share();
	return {calls, slowest, slowestWhat, bad: bad.slice(0, 10), nbad: bad.length, stopped, share: typeof share === "string" ? share.slice(0, 5) : JSON.stringify(share)};
})()`)
	return from, res
}

// A scenario without consumers or producers (both optional) runs, and nothing on the page
// throws on its empty lists.
func TestBrowserScenarioWithoutConsumersOrProducers(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "load", scenario: {version: 1, title: "empty", brokers: [{name: "broker-a", queues: 4}]}}`)
	waitFor(t, ctx, `lbscope.state().title === "empty"`)
	assert.Equal(t, true, eval[bool](t, ctx, `Array.isArray(lbscope.state().consumers) && Array.isArray(lbscope.state().producers)`))
	t0 := eval[float64](t, ctx, `lbscope.state().timeMs`)
	waitFor(t, ctx, fmt.Sprintf(`lbscope.state().timeMs > %v`, t0+4500))
	assert.Empty(t, con.Errors())
}

// The embed without controls, playing a share link at once, removes its poster before the
// link's shape is read: nothing may throw drawing on it.
func TestBrowserEmbedAutoplayLinkWithoutControls(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	link := eval[string](t, ctx, `lbscope.share()`)
	con = watchConsole(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(browserEnv.url+"embed.html?controls=none&autoplay=1"+link)))
	waitFor(t, ctx, `window.lbscope && window.lbscopeLoader && window.lbscopeLoader.done`)
	eval[bool](t, ctx, `lbscope.ready.then(() => new Promise(ok => setTimeout(() => ok(true), 1500)))`)
	assert.Nil(t, eval[any](t, ctx, `lbscope.linkError`))
	assert.Empty(t, con.Errors())
}
