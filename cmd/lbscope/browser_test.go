//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/lbscope/lbscope/core/scenario"
)

// The real-browser tests build the real playground, serve it on loopback and drive Debian's
// chromium through chromedp. Without chromium they skip on a developer's machine and fail
// under CI (CI is set), where scripts/ensure-tools.sh must have installed it.

var browserEnv struct {
	once    sync.Once
	dir     string // the site, built once per test process
	url     string
	alloc   context.Context
	stop    context.CancelFunc // ends chromium
	browser context.Context
	err     error
}

// TestMain removes the built site and ends chromium after the tests, whatever they did.
func TestMain(m *testing.M) {
	code := m.Run()
	if browserEnv.stop != nil {
		browserEnv.stop()
	}
	if browserEnv.dir != "" {
		os.RemoveAll(browserEnv.dir)
	}
	os.Exit(code)
}

func chromiumPath() (string, error) {
	for _, p := range []string{os.Getenv("LBSCOPE_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := exec.LookPath(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromium not found (install Debian's chromium: scripts/ensure-tools.sh)")
}

// playground returns a new tab's context on the served playground, shared browser and site.
func playground(t testing.TB) context.Context {
	t.Helper()
	browserEnv.once.Do(func() {
		path, err := chromiumPath()
		if err != nil {
			browserEnv.err = err
			return
		}
		root, err := repoRoot("test")
		if err != nil {
			browserEnv.err = err
			return
		}
		// A directory of this process's own: test processes running at once (go test of
		// several packages, a developer's second terminal) must not delete each other's site.
		dir, err := os.MkdirTemp("", "lbscope-browser-test-site-")
		if err != nil {
			browserEnv.err = err
			return
		}
		browserEnv.dir = dir
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		if _, err := buildSite(ctx, siteOptions{root: root, pkg: "./wasm", out: dir, brotliQuality: 5}); err != nil {
			browserEnv.err = err
			return
		}
		h, err := loadSite(dir)
		if err != nil {
			browserEnv.err = err
			return
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			browserEnv.err = err
			return
		}
		go http.Serve(ln, h)
		browserEnv.url = "http://" + ln.Addr().String() + "/"
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.Flag("enable-unsafe-swiftshader", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-quic", true),
			chromedp.WindowSize(1280, 720),
		)
		browserEnv.alloc, browserEnv.stop = chromedp.NewExecAllocator(context.Background(), opts...)
		browserEnv.browser, _ = chromedp.NewContext(browserEnv.alloc)
		if err := chromedp.Do(browserEnv.browser); err != nil {
			browserEnv.err = fmt.Errorf("chromium did not start: %w", err)
		}
	})
	if browserEnv.err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("real-browser test cannot run under CI: %v", browserEnv.err)
		}
		t.Skipf("real-browser test: %v", browserEnv.err)
	}
	tab, cancel := chromedp.NewContext(browserEnv.browser)
	t.Cleanup(cancel)
	// A coarse guard against a test that hangs, not a speed bound: the slowest test takes well
	// under a minute on a healthy 2-core machine, and a busy one may take several times that.
	tab, cancelTimeout := context.WithTimeout(tab, tabTimeout)
	t.Cleanup(cancelTimeout)
	return tab
}

// console collects the tab's console errors and uncaught exceptions.
type console struct {
	mu     sync.Mutex
	errors []string
}

func watchConsole(t testing.TB, ctx context.Context) *console {
	c := &console{}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.IsException() || m.Type == chromedp.ConsoleError {
				c.mu.Lock()
				c.errors = append(c.errors, m.String())
				c.mu.Unlock()
			}
		}
	}()
	return c
}

func (c *console) Errors() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.errors...)
}

// Coarse guards on waiting, in wall time: a healthy machine, even a busy one, is many times
// faster; each only turns a page that never gets there into a failure that says what it
// waited for, instead of a hang. None of them measures speed: speed is for the benchmarks and
// scripts/bench-*.sh.
const (
	tabTimeout     = 8 * time.Minute // one browser test's tab, all of it
	openGuardMs    = 120000          // the playground's first frame after navigation
	waitForGuardMs = 60000           // a condition waitFor polls for
)

// open navigates to the playground (with an optional query) and waits for the first frame.
func open(t testing.TB, ctx context.Context, query string) *console {
	t.Helper()
	con := watchConsole(t, ctx)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 720),
		chromedp.Navigate(browserEnv.url+query),
	))
	waitReady(t, ctx)
	return con
}

// waitReady waits, after a navigation, until the playground has drawn its first frame
// (window.lbscope.ready), failing after openGuardMs of wall time.
func waitReady(t testing.TB, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`window.lbscope ? window.lbscope.ready.then(() => true) : new Promise((ok, fail) => {
		const t0 = performance.now(); const poll = () => window.lbscope ? window.lbscope.ready.then(() => ok(true), fail)
			: (performance.now() - t0 > %d ? fail(new Error("window.lbscope never appeared in %d s (a coarse guard against a page that never starts, not a speed bound)")) : setTimeout(poll, 50)); poll(); })`, openGuardMs, openGuardMs/1000))
}

// eval runs JavaScript, awaiting a Promise, and decodes its value.
func eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	require.NoError(t, err, js)
	return v
}

type pgState struct {
	TimeMs   int64   `json:"timeMs"`
	Paused   bool    `json:"paused"`
	Speed    float64 `json:"speed"`
	Strategy string  `json:"strategy"`
	Brokers  []struct {
		Name            string `json:"name"`
		LatencyMs       int    `json:"latencyMs"`
		Down            bool   `json:"down"`
		IsolatedUntilMs int64  `json:"isolatedUntilMs"`
	} `json:"brokers"`
	Consumers []struct {
		ID     string   `json:"id"`
		Status string   `json:"status"`
		Queues []string `json:"queues"`
		Client string   `json:"client"`
	} `json:"consumers"`
	Metrics struct {
		Produced, Consumed, Duplicates, Lost int64
		SendsPerBroker                       map[string]int64 `json:"sendsPerBroker"`
	} `json:"metrics"`
}

func state(t testing.TB, ctx context.Context) pgState {
	t.Helper()
	raw := eval[string](t, ctx, `JSON.stringify(window.lbscope.state())`)
	var s pgState
	require.NoError(t, json.Unmarshal([]byte(raw), &s))
	return s
}

func dispatch(t testing.TB, ctx context.Context, cmd string) {
	t.Helper()
	res := eval[map[string]any](t, ctx, `window.lbscope.dispatch(`+cmd+`)`)
	require.Equal(t, true, res["ok"], "dispatch %s: %v", cmd, res)
}

func consumer(s pgState, id string) (status string, queues []string) {
	for _, c := range s.Consumers {
		if c.ID == id {
			return c.Status, c.Queues
		}
	}
	return "", nil
}

type box struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Queue      string `json:"queue"`
	X, Y, W, H float64
}

type pgLayout struct {
	Consumers []box `json:"consumers"`
	Brokers   []box `json:"brokers"`
	Queues    []box `json:"queues"`
	Menu      []box `json:"menu"`
}

func layout(t testing.TB, ctx context.Context) pgLayout {
	t.Helper()
	raw := eval[string](t, ctx, `JSON.stringify(window.lbscope.layout())`)
	var l pgLayout
	require.NoError(t, json.Unmarshal([]byte(raw), &l))
	return l
}

// click presses the mouse at a box's centre, waits until the game has seen the button held
// (input is polled once per tick: a press and release inside one tick is lost), then releases.
func click(t testing.TB, ctx context.Context, b box) {
	t.Helper()
	x, y := b.X+b.W/2, b.Y+b.H/2
	before := eval[float64](t, ctx, `window.lbscope.counters().mouseHeldPolls`)
	require.NoError(t, chromedp.Do(ctx,
		chromedp.MouseEvent(chromedp.MouseMoved, x, y),
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	))
	eval[bool](t, ctx, fmt.Sprintf(`new Promise(ok => { const poll = () =>
		window.lbscope.counters().mouseHeldPolls > %v ? ok(true) : setTimeout(poll, 10); poll(); })`, before))
	require.NoError(t, chromedp.Do(ctx,
		chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	))
}

// waitFor polls a JS condition (in page time) until it holds, failing after waitForGuardMs ms
// of wall time (a coarse guard against a condition that never comes, not a speed bound).
func waitFor(t testing.TB, ctx context.Context, cond string) {
	t.Helper()
	eval[bool](t, ctx, fmt.Sprintf(`new Promise((ok, fail) => { const t0 = performance.now(); const poll = () =>
		(`+cond+`) ? ok(true) : (performance.now() - t0 > %d ? fail(new Error("not met in %d s (a coarse guard, not a speed bound): `+strings.ReplaceAll(cond, `"`, `'`)+`")) : setTimeout(poll, 20)); poll(); })`, waitForGuardMs, waitForGuardMs/1000))
}

func screenshot(t testing.TB, ctx context.Context) image.Image {
	t.Helper()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(buf))
	require.NoError(t, err)
	if dir := os.Getenv("LBSCOPE_SCREENSHOTS"); dir != "" {
		os.WriteFile(filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "_")+".png"), buf, 0o644)
	}
	return img
}

func colourAt(img image.Image, b box) [3]uint8 {
	// The most common colour of eight points spread over the box, clear of its middle: a
	// message flying over the box, the line that runs down through a column of cells or a
	// label covers a few of them, never most.
	count := map[[3]uint8]int{}
	var best [3]uint8
	for _, fy := range []float64{0.25, 0.75} {
		for _, fx := range []float64{0.2, 0.35, 0.65, 0.8} {
			r, g, bl, _ := img.At(int(b.X+b.W*fx), int(b.Y+b.H*fy)).RGBA()
			c := [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8)}
			if count[c]++; count[c] > count[best] {
				best = c
			}
		}
	}
	return best
}

func TestBrowserPageLoadsWithoutErrors(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	loader := eval[map[string]any](t, ctx, `window.lbscopeLoader`)
	assert.Equal(t, true, loader["done"])
	assert.Equal(t, 1.0, loader["progress"], "the progress bar reaches 100%%")
	assert.Nil(t, loader["error"])
	s := state(t, ctx)
	assert.Len(t, s.Brokers, 4, "the default scenario has 4 brokers")
	assert.Len(t, s.Consumers, 4)
	assert.Equal(t, "AVG", s.Strategy)
	// The wasm came as the build's brotli (a 16 MB window, site.go's brotliWindow), decoded.
	m, err := readManifest(browserEnv.dir)
	require.NoError(t, err)
	wasm := m.Files[wasmName]
	got := eval[map[string]float64](t, ctx, `(() => { const e = performance.getEntriesByType("resource").find(e => e.name.endsWith("/`+wasmName+`"));
		return {encoded: e.encodedBodySize, decoded: e.decodedBodySize}; })()`)
	assert.Equal(t, float64(wasm.Brotli), got["encoded"], "the wasm's bytes on the wire")
	assert.Equal(t, float64(wasm.Raw), got["decoded"], "the wasm's bytes decoded")
	// Ebitengine polls the gamepads every frame; the playground takes none (web/loader.js).
	assert.Equal(t, 0.0, eval[float64](t, ctx, `navigator.getGamepads().length`), "no gamepad slots to poll")
	assert.Empty(t, con.Errors(), "console errors")
}

func TestBrowserAddConsumerButtonReassignsQueues(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "step", ms: 5000}`) // paused, settled
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("cmd-addConsumer"))))
	waitFor(t, ctx, `window.lbscope.state().consumers.length === 5`)
	dispatch(t, ctx, `{type: "step", ms: 3000}`)
	s := state(t, ctx)
	total := 0
	for _, c := range s.Consumers {
		assert.NotEmpty(t, c.Queues, "%s holds no queue 3 s after a fifth consumer joined", c.ID)
		total += len(c.Queues)
	}
	assert.Equal(t, 32, total, "every queue has exactly one owner")
	assert.Empty(t, con.Errors())
}

// The Add consumer row chooses the SDK the new process runs; state() tells it.
func TestBrowserAddGoConsumer(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.ID("cmd-addConsumer-client"), "go-2.1.2"),
		chromedp.Click(chromedp.ID("cmd-addConsumer"))))
	waitFor(t, ctx, `window.lbscope.state().consumers.length === 5`)
	s := state(t, ctx)
	clients := map[string]int{}
	for _, c := range s.Consumers {
		clients[c.Client]++
	}
	assert.Equal(t, map[string]int{"java": 4, "go-2.1.2": 1}, clients, "four Java consumers and the added Go one")
	assert.Empty(t, con.Errors())
}

func TestBrowserKillConsumerFromTheCanvas(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	before := screenshot(t, ctx)
	l := layout(t, ctx)
	require.NotEmpty(t, l.Consumers)
	victim := l.Consumers[0]
	_, owned := consumer(state(t, ctx), victim.ID)
	require.NotEmpty(t, owned)
	click(t, ctx, victim)
	waitFor(t, ctx, `window.lbscope.layout().menu.length > 0`)
	var kill box
	for _, m := range layout(t, ctx).Menu {
		if m.ID == "killConsumer" {
			kill = m
		}
	}
	require.NotEmpty(t, kill.ID, "the consumer's menu offers kill")
	click(t, ctx, kill)
	waitFor(t, ctx, fmt.Sprintf(`window.lbscope.state().consumers.some(c => c.id === %q && c.status === "killed")`, victim.ID))
	dispatch(t, ctx, `{type: "step", ms: 2000}`)
	s := state(t, ctx)
	for _, q := range owned {
		found := false
		for _, c := range s.Consumers {
			if c.ID != victim.ID && c.Status != "killed" && contains(c.Queues, q) {
				found = true
			}
		}
		assert.True(t, found, "%s moved to a live consumer within 2 s of the kill", q)
	}
	// The killed consumer's queues now show another owner's colour.
	after := screenshot(t, ctx)
	l2 := layout(t, ctx)
	changed := 0
	for _, q := range l2.Queues {
		if contains(owned, q.Queue) && colourAt(before, q) != colourAt(after, q) {
			changed++
		}
	}
	assert.Positive(t, changed, "queue cells change colour when their owner changes")
	assert.Empty(t, con.Errors())
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestBrowserSlowBrokerIsIsolatedAndSendsShift(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "setLatencyFault", on: true}`)
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	l := layout(t, ctx)
	require.NotEmpty(t, l.Brokers)
	click(t, ctx, l.Brokers[0])
	waitFor(t, ctx, `window.lbscope.layout().menu.some(m => m.id === "slowBroker:2000")`)
	for _, m := range layout(t, ctx).Menu {
		if m.ID == "slowBroker:2000" {
			click(t, ctx, m)
		}
	}
	waitFor(t, ctx, `window.lbscope.state().brokers[0].latencyMs === 2000`)
	before := state(t, ctx).Metrics.SendsPerBroker
	dispatch(t, ctx, `{type: "step", ms: 3000}`)
	s := state(t, ctx)
	assert.Greater(t, s.Brokers[0].IsolatedUntilMs, s.TimeMs, "%s is isolated after its 2 s sends", s.Brokers[0].Name)
	dispatch(t, ctx, `{type: "step", ms: 30000}`)
	after := state(t, ctx).Metrics.SendsPerBroker
	slow := after[s.Brokers[0].Name] - before[s.Brokers[0].Name]
	other := after[s.Brokers[1].Name] - before[s.Brokers[1].Name]
	assert.Less(t, slow*2, other, "sends shift away from the slow broker (%d vs %d)", slow, other)
	assert.Empty(t, con.Errors())
}

// Only window.lbscope: the way a documentation page would script the playground.
func TestBrowserScriptUsingOnlyTheJSAPI(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	got := eval[map[string]any](t, ctx, `(async () => {
		const api = window.lbscope, out = {};
		const events = []; api.on("rebalance", e => events.push(e));
		await api.dispatch({type: "pause"});
		await api.dispatch({type: "step", ms: 5000});
		out.bad = await api.dispatch({type: "killConsumer", id: "nobody"});
		out.add = await api.dispatch({type: "addConsumer", id: "c9"});
		await api.dispatch({type: "step", ms: 3000});
		out.c9 = api.state().consumers.find(c => c.id === "c9").queues.length;
		await api.dispatch({type: "killConsumer", id: "c1"});
		out.c1 = api.state().consumers.find(c => c.id === "c1").status;
		await api.dispatch({type: "slowBroker", broker: "broker-b", latencyMs: 6000});
		out.slow = api.state().brokers.find(b => b.name === "broker-b").latencyMs;
		const t0 = api.state().timeMs;
		await api.dispatch({type: "step", ms: 1234});
		out.stepped = api.state().timeMs - t0;
		await new Promise(r => setTimeout(r, 200));
		out.rebalanceEvents = events.length;
		return out;
	})()`)
	assert.Contains(t, got["bad"].(map[string]any)["error"], "nobody")
	assert.Equal(t, true, got["add"].(map[string]any)["ok"])
	assert.Positive(t, got["c9"], "c9 got queues")
	assert.Equal(t, "killed", got["c1"])
	assert.Equal(t, 6000.0, got["slow"])
	assert.Equal(t, 1234.0, got["stepped"], "step advances a paused simulation by exactly that much")
	assert.Positive(t, got["rebalanceEvents"], "on('rebalance') delivers events")
	assert.Empty(t, con.Errors())
}

func TestBrowserCanvasIsDrawnWithOwnerColours(t *testing.T) {
	ctx := playground(t)
	open(t, ctx, "")
	dispatch(t, ctx, `{type: "step", ms: 5000}`)
	waitFor(t, ctx, `window.lbscope.counters().frames > 1`) // paused: the loop draws no more until asked
	img := screenshot(t, ctx)
	l := layout(t, ctx)
	s := state(t, ctx)
	owner := map[string]string{}
	for _, c := range s.Consumers {
		for _, q := range c.Queues {
			owner[q] = c.ID
		}
	}
	colours := map[string]map[[3]uint8]bool{}
	for _, q := range l.Queues {
		id := owner[q.Queue]
		if colours[id] == nil {
			colours[id] = map[[3]uint8]bool{}
		}
		colours[id][colourAt(img, q)] = true
	}
	seen := map[[3]uint8]string{}
	for id, cs := range colours {
		assert.Len(t, cs, 1, "all of %s's queues share its colour", id)
		for c := range cs {
			if other, dup := seen[c]; dup {
				t.Errorf("%s and %s are drawn in the same colour %v", id, other, c)
			}
			seen[c] = id
		}
	}
	assert.Len(t, seen, len(s.Consumers), "one colour per consumer")
}

// A failure of the Go side (lbscopeFatal is what a recovered panic calls) must show a visible
// message with a reload button above the canvas, not leave a frozen picture.
func TestBrowserFatalErrorIsVisible(t *testing.T) {
	ctx := playground(t)
	open(t, ctx, "")
	eval[bool](t, ctx, `(window.lbscopeFatal("Update panicked: test"), true)`)
	got := eval[map[string]any](t, ctx, `(() => {
		const box = document.getElementById("loader-error"), loader = document.getElementById("loader");
		const r = box.getBoundingClientRect(), b = document.getElementById("loader-reload");
		return {hidden: box.hidden, loaderShown: getComputedStyle(loader).display !== "none",
			text: document.getElementById("loader-error-text").textContent, w: r.width, h: r.height,
			reload: b !== null && getComputedStyle(b).display !== "none"};
	})()`)
	assert.Equal(t, false, got["hidden"])
	assert.Equal(t, true, got["loaderShown"])
	assert.Contains(t, got["text"], "Update panicked: test")
	assert.Positive(t, got["w"])
	assert.Equal(t, true, got["reload"])
}

// On a 375 px phone the panel collapses behind a Controls toggle and the canvas stays usable.
func TestBrowserPhoneLayout(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(375, 667, chromedp.EmulateMobile), chromedp.Navigate(browserEnv.url)))
	waitFor(t, ctx, `window.lbscope && window.lbscope.firstFrameMs > 0`)
	dispatch(t, ctx, `{type: "step", ms: 3000}`)
	waitFor(t, ctx, `window.lbscope.layout().consumers.length === 4`)
	got := eval[map[string]any](t, ctx, `(() => {
		const toggle = document.getElementById("panel-toggle"), l = window.lbscope.layout();
		const inside = l.consumers.concat(l.brokers).every(b => b.x >= 0 && b.y >= 0 && b.x + b.w <= innerWidth + 0.5 && b.y + b.h <= innerHeight + 0.5);
		return {toggle: toggle !== null && toggle.offsetParent !== null, expanded: toggle && toggle.getAttribute("aria-expanded"), inside};
	})()`)
	assert.Equal(t, true, got["toggle"], "a Controls toggle is shown")
	assert.Equal(t, "false", got["expanded"], "the panel starts collapsed")
	assert.Equal(t, true, got["inside"], "every consumer and broker box is on screen")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("panel-toggle"))))
	assert.Equal(t, "true", eval[string](t, ctx, `document.getElementById("panel-toggle").getAttribute("aria-expanded")`))
	assert.Empty(t, con.Errors())
}

// BenchmarkBrowserPlayground measures the playground in headless Chromium (software WebGL):
// the time from navigation to the first frame (the first load in the browser, then the median
// of later ones), and frames per second with the large preset at 10×, against baselines
// measured in the same browser: a bare WebGL2 canvas of the same size that only clears itself
// every frame, and an Ebitengine game that only fills its screen (testdata/emptygame), with
// Ebitengine's defaults and with the playground's settings ("tuned", measured just before and
// just after the playground, the fair baseline of its ratio; FPS_ROUNDS rounds of the three,
// default 5, the medians reported). The Go time of a frame is
// counters()'s updateMs and drawMs, sampled while it plays, with the garbage collector's
// time per frame and the live heap, with the share of its frames drawn
// only where they changed and the share of the screen a frame draws (drawnShare); the CPU
// time the whole browser spends per frame (from /proc) holds better than the frame rate when
// other work shares the machine.
// scripts/bench-browser.sh prints the figures with targets.
func BenchmarkBrowserPlayground(b *testing.B) {
	ctx := playground(b)
	var firstFrame []float64
	for b.Loop() {
		open(b, ctx, "")
		// firstFrameMs is performance.now() (from navigation start) when the first frame was drawn.
		firstFrame = append(firstFrame, eval[float64](b, ctx, `window.lbscope.firstFrameMs`))
	}
	empty := emptyGame(b)
	proc := chromedp.FromContext(ctx).Browser.Process()
	require.NotNil(b, proc, "the browser's process")
	// Rounds of the tuned empty game, the playground and the tuned game again: the ratio of
	// each round is the playground's frame rate over its round's baseline, and the figures are
	// the rounds' medians, so that a spell of other work on the machine moves one round, not
	// the ratio.
	type round struct {
		m          map[string]float64
		cpu, tuned float64
		ratio      float64
	}
	var rounds []round
	for range fpsRounds(b) {
		tunedBefore := empty(ctx, "?tuned")
		open(b, ctx, "")
		dispatch(b, ctx, `{type: "load", preset: "large"}`)
		dispatch(b, ctx, `{type: "setSpeed", x: 10}`)
		dispatch(b, ctx, `{type: "play"}`)
		eval[bool](b, ctx, `new Promise(r => setTimeout(() => r(true), 2000))`) // warm up
		cpu0, err := treeCPU(proc.Pid)
		require.NoError(b, err)
		m := eval[map[string]float64](b, ctx, `(async () => {
		const c0 = window.lbscope.counters(), s0 = window.lbscope.state().timeMs, t0 = performance.now();
		let update = 0, draw = 0, drawn = 0, n = 0;
		const sample = setInterval(() => { const c = window.lbscope.counters(); update += c.updateMs; draw += c.drawMs; drawn += c.drawnShare; n++; }, 100);
		await new Promise(r => setTimeout(r, 5000));
		clearInterval(sample);
		const c1 = window.lbscope.counters(), s1 = window.lbscope.state().timeMs, t1 = performance.now();
		return {gcMs: (c1.gcMs - c0.gcMs) / (c1.frames - c0.frames), heapMB: c1.heapLiveMB, frames: c1.frames - c0.frames, fps: (c1.frames - c0.frames) * 1000 / (t1 - t0), tps: (c1.ticks - c0.ticks) * 1000 / (t1 - t0),
			speed: (s1 - s0) / (t1 - t0), updateMs: update / n, drawMs: draw / n, drawn: drawn / n,
			partial: (c1.partialFrames - c0.partialFrames) / (c1.frames - c0.frames)};
	})()`)
		cpu1, err := treeCPU(proc.Pid)
		require.NoError(b, err)
		cpu := 0.0
		for pid, t := range cpu1 {
			cpu += t - cpu0[pid]
		}
		tuned := (tunedBefore + empty(ctx, "?tuned")) / 2
		rounds = append(rounds, round{m: m, cpu: cpu * 1000 / m["frames"], tuned: tuned, ratio: m["fps"] / tuned})
	}
	med := func(f func(r round) float64) float64 {
		v := make([]float64, len(rounds))
		for i, r := range rounds {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	metric := func(k string) float64 { return med(func(r round) float64 { return r.m[k] }) }
	plain := empty(ctx, "")
	require.NoError(b, chromedp.Do(ctx, chromedp.Navigate("about:blank")))
	baseline := eval[float64](b, ctx, `new Promise(r => {
		const c = document.createElement("canvas"); c.width = 1280; c.height = 720; document.body.appendChild(c);
		const gl = c.getContext("webgl2"); let n = 0, t0 = 0;
		const f = t => { gl.clearColor(n % 2, 0, 0, 1); gl.clear(gl.COLOR_BUFFER_BIT);
			if (n === 30) t0 = t; if (n === 330) return r(300 * 1000 / (t - t0)); n++; requestAnimationFrame(f); };
		requestAnimationFrame(f); })`)
	later := append([]float64(nil), firstFrame[1:]...)
	slices.Sort(later)
	if len(later) > 0 {
		b.ReportMetric(later[len(later)/2], "first-frame-ms")
	}
	b.ReportMetric(firstFrame[0], "first-frame-cold-ms")
	b.ReportMetric(metric("fps"), "fps-large-10x")
	b.ReportMetric(med(func(r round) float64 { return r.cpu }), "browser-cpu-ms/frame")
	b.ReportMetric(baseline, "fps-bare-webgl")
	b.ReportMetric(plain, "fps-empty-ebitengine")
	b.ReportMetric(med(func(r round) float64 { return r.tuned }), "fps-empty-tuned")
	b.ReportMetric(med(func(r round) float64 { return r.ratio }), "fps-ratio-tuned")
	b.ReportMetric(float64(len(rounds)), "fps-rounds")
	b.ReportMetric(metric("tps"), "ticks/s")
	b.ReportMetric(metric("speed"), "virtual-ms/ms")
	b.ReportMetric(metric("updateMs"), "update-ms")
	b.ReportMetric(metric("drawMs"), "draw-ms")
	b.ReportMetric(metric("gcMs"), "gc-ms/frame")
	b.ReportMetric(metric("heapMB"), "heap-live-mb")
	b.ReportMetric(metric("partial"), "partial-frames")
	b.ReportMetric(metric("drawn"), "screen-drawn")
}

// emptyGame builds testdata/emptygame and serves it; the function it returns measures its
// frame rate in a tab, with a query ("?tuned": the playground's settings).
func emptyGame(b *testing.B) func(ctx context.Context, query string) float64 {
	b.Helper()
	dir := b.TempDir()
	root, err := repoRoot("test")
	require.NoError(b, err)
	goTool, err := findGo()
	require.NoError(b, err)
	cmd := exec.Command(goTool, "build", "-o", filepath.Join(dir, "emptygame.wasm"), "./cmd/lbscope/testdata/emptygame")
	cmd.Dir, cmd.Env = root, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(b, err, string(out))
	goroot, _, err := goEnv(context.Background(), goTool)
	require.NoError(b, err)
	for _, f := range []string{"index.html", "run.js"} {
		require.NoError(b, copyFile(filepath.Join("testdata/emptygame", f), filepath.Join(dir, f)))
	}
	require.NoError(b, copyFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js")))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	b.Cleanup(func() { ln.Close() })
	go http.Serve(ln, http.FileServer(http.Dir(dir)))
	return func(ctx context.Context, query string) float64 {
		require.NoError(b, chromedp.Do(ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/"+query)))
		eval[bool](b, ctx, `new Promise(r => { const p = () => (window.emptyGameFrames || 0) > 30 ? r(true) : setTimeout(p, 50); p(); })`)
		return eval[float64](b, ctx, `new Promise(r => { const f0 = window.emptyGameFrames, t0 = performance.now();
			setTimeout(() => r((window.emptyGameFrames - f0) * 1000 / (performance.now() - t0)), 4000); })`)
	}
}

// ---- Share links ----

// sameMoment compares what a share link must reproduce: the time, every consumer's status and
// queues, and the message counts.
func sameMoment(t *testing.T, want, got pgState) {
	t.Helper()
	assert.Equal(t, want.TimeMs, got.TimeMs, "time")
	require.Equal(t, len(want.Consumers), len(got.Consumers), "consumers")
	for i, c := range want.Consumers {
		assert.Equal(t, c.ID, got.Consumers[i].ID)
		assert.Equal(t, c.Status, got.Consumers[i].Status, "%s's status", c.ID)
		assert.Equal(t, c.Queues, got.Consumers[i].Queues, "%s's queues", c.ID)
	}
	assert.Equal(t, want.Metrics.Produced, got.Metrics.Produced, "produced")
	assert.Equal(t, want.Metrics.Consumed, got.Metrics.Consumed, "consumed")
	assert.Equal(t, want.Metrics.Duplicates, got.Metrics.Duplicates, "duplicates")
	assert.Equal(t, want.Metrics.Lost, got.Metrics.Lost, "lost")
	assert.Equal(t, want.Metrics.SendsPerBroker, got.Metrics.SendsPerBroker, "sends per broker")
}

// A link taken after real-time running, actions and steps opens in a new tab at the same
// moment in the same state, paused there.
func TestBrowserShareLinkRoundTrip(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	// Some wall-clock running first: the link must not depend on how frames cut time.
	eval[bool](t, ctx, `new Promise(r => setTimeout(() => r(true), 400))`)
	dispatch(t, ctx, `{type: "setSpeed", x: 20}`)
	eval[bool](t, ctx, `new Promise(r => setTimeout(() => r(true), 300))`)
	dispatch(t, ctx, `{type: "killConsumer", id: "c2"}`)
	dispatch(t, ctx, `{type: "setLatencyFault", on: true}`)
	dispatch(t, ctx, `{type: "step", ms: 2500}`)
	dispatch(t, ctx, `{type: "slowBroker", broker: "broker-c", latencyMs: 2000}`)
	dispatch(t, ctx, `{type: "addConsumer"}`)
	dispatch(t, ctx, `{type: "step", ms: 6789}`)
	want := state(t, ctx)
	require.True(t, want.Paused)
	link := eval[string](t, ctx, `window.lbscope.share()`)
	require.True(t, strings.HasPrefix(link, "#s=1."), "share() = %.40q", link)
	assert.Less(t, len(link), 2000, "a short session's link stays short")

	// The panel's Share button copies the whole address (or shows it to copy by hand).
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("share"))))
	waitFor(t, ctx, `document.getElementById("share-note").textContent !== ""`)
	note := eval[map[string]any](t, ctx, `navigator.clipboard.readText().then(text => ({text}), () => ({text: document.getElementById("share-link").value}))`)
	assert.Equal(t, browserEnv.url+link, note["text"], "the Share button's link")

	other := playground(t)
	con2 := open(t, other, link)
	got := state(t, other)
	sameMoment(t, want, got)
	assert.True(t, got.Paused, "an opened link is paused at its moment")
	assert.Nil(t, eval[any](t, other, `window.lbscope.linkError`))
	assert.Equal(t, true, eval[bool](t, other, `document.getElementById("link-error").hidden`))
	assert.Empty(t, con.Errors())
	assert.Empty(t, con2.Errors())
}

// A broken link says what is wrong where the reader sees it, and the default scenario runs.
func TestBrowserBrokenShareLinks(t *testing.T) {
	good, err := scenario.EncodeShare(scenario.Share{Scenario: scenario.Presets()["small"], TimeMs: 5000})
	require.NoError(t, err)
	for _, link := range []string{"1.AAAA", good[:len(good)*2/3], "9.x"} {
		t.Run(link[:min(len(link), 8)], func(t *testing.T) {
			_, decodeErr := scenario.DecodeShare(link)
			require.Error(t, decodeErr)
			ctx := playground(t)
			open(t, ctx, "#s="+link)
			got := eval[map[string]any](t, ctx, `(() => {
				const box = document.getElementById("link-error"), r = box.getBoundingClientRect();
				const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
				return {hidden: box.hidden, text: box.textContent, w: r.width, h: r.height, onTop: box.contains(top)};
			})()`)
			assert.Equal(t, false, got["hidden"])
			assert.Contains(t, got["text"], decodeErr.Error())
			assert.Positive(t, got["w"])
			assert.Equal(t, true, got["onTop"], "the message is not covered")
			s := state(t, ctx)
			assert.Len(t, s.Brokers, 4, "the default scenario runs")
			t0 := s.TimeMs
			waitFor(t, ctx, fmt.Sprintf(`window.lbscope.state().timeMs > %d`, t0))
			screenshot(t, ctx)
		})
	}
}

// ---- The embed page ----

// posterBudget is what the embed page may transfer before the reader presses play.
const posterBudget = 60_000

func TestBrowserEmbedPosterIsLightAndLoadsOnPlay(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(800, 450), chromedp.Navigate(browserEnv.url+"embed.html")))
	waitFor(t, ctx, `document.querySelector("#poster-picture svg rect") !== null && document.readyState === "complete"`)
	eval[bool](t, ctx, `new Promise(r => setTimeout(() => r(true), 500))`) // anything late would show now
	got := eval[map[string]any](t, ctx, `(() => {
		// A revalidated file (304) transfers little: count at least its body.
		const size = e => Math.max(e.transferSize, e.encodedBodySize);
		const nav = performance.getEntriesByType("navigation")[0];
		const res = performance.getEntriesByType("resource");
		return {bytes: size(nav) + res.reduce((n, e) => n + size(e), 0), names: res.map(e => e.name),
			api: typeof window.lbscope, title: document.getElementById("poster-title").textContent,
			play: document.getElementById("poster-play").getBoundingClientRect().width};
	})()`)
	t.Logf("poster: %v bytes, resources %v", got["bytes"], got["names"])
	assert.Less(t, got["bytes"], float64(posterBudget), "bytes before play")
	for _, n := range got["names"].([]any) {
		assert.NotContains(t, n, ".wasm", "requested before play")
		assert.NotContains(t, n, "wasm_exec.js", "requested before play")
	}
	assert.Equal(t, "undefined", got["api"])
	assert.Equal(t, "Default cluster", got["title"])
	assert.Positive(t, got["play"], "a visible play button")
	screenshot(t, ctx)

	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("poster-play"))))
	waitFor(t, ctx, `window.lbscope !== undefined`)
	eval[bool](t, ctx, `window.lbscope.ready.then(() => true)`)
	waitFor(t, ctx, `window.lbscope.state().timeMs > 0`)
	s := state(t, ctx)
	assert.False(t, s.Paused, "play plays")
	assert.Len(t, s.Brokers, 4)
	assert.Equal(t, false, eval[bool](t, ctx, `document.getElementById("poster") !== null`), "the poster is gone")
	assert.Equal(t, true, eval[bool](t, ctx, `document.getElementById("panel").childElementCount > 0`), "controls=full shows the panel")
	assert.Empty(t, con.Errors())
}

// The playground's Embed button shows an iframe snippet that keeps 16:9 and points at
// embed.html with the current scenario's link, and the poster of that link shows its title.
func TestBrowserEmbedSnippet(t *testing.T) {
	ctx := playground(t)
	con := open(t, ctx, "")
	dispatch(t, ctx, `{type: "load", preset: "small"}`)
	dispatch(t, ctx, `{type: "step", ms: 4000}`)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.ID("embed"))))
	waitFor(t, ctx, `!document.getElementById("embed-dialog").hidden`)
	code := eval[string](t, ctx, `document.getElementById("embed-code").value`)
	assert.Contains(t, code, "aspect-ratio:16/9")
	assert.Contains(t, code, `src="`+browserEnv.url+"embed.html#s=1.")
	screenshot(t, ctx)
	src := code[strings.Index(code, `src="`)+5:]
	src = strings.ReplaceAll(src[:strings.Index(src, `"`)], "&amp;", "&")
	other := playground(t)
	require.NoError(t, chromedp.Do(other, chromedp.Navigate(src)))
	waitFor(t, other, `document.getElementById("poster-title").textContent === "Small cluster"`)
	// The producer, 2 brokers, their 2 × 4 queue cells and 3 consumers.
	assert.Equal(t, 1+2+8+3.0, eval[float64](t, other, `document.querySelectorAll("#poster-picture svg :is([data-producer], [data-broker], [data-queue], [data-consumer])").length`),
		"the poster draws the link's scenario")
	assert.Empty(t, con.Errors())
}

// hostPage is a plain page of another origin that embeds the playground and talks to it by
// postMessage; its second frame, from a third origin, sends messages the embed must ignore.
const hostPage = `<!doctype html><meta charset="utf-8"><title>host</title>
<iframe id="embed" src="EMBED" width="800" height="450"></iframe>
<iframe id="foreign" src="FOREIGN" width="10" height="10"></iframe>
<script>
window.events = []; window.foreign = null;
const waiting = {};
addEventListener("message", e => {
	const d = e.data || {};
	if (d.foreignReplies !== undefined) { window.foreign = d; return; }
	if (e.origin !== EMBED_ORIGIN || d.lbscope !== 1) return;
	if (d.event) { events.push(d); return; }
	if (waiting[d.re]) { waiting[d.re](d); delete waiting[d.re]; }
});
let n = 0;
window.ask = (msg) => new Promise((ok, fail) => {
	const id = "m" + (++n);
	waiting[id] = ok;
	setTimeout(() => fail(new Error("no answer to " + JSON.stringify(msg))), 60000);
	document.getElementById("embed").contentWindow.postMessage(Object.assign({lbscope: 1, id}, msg), EMBED_ORIGIN);
});
</script>`

const foreignPage = `<!doctype html><meta charset="utf-8"><script>
const replies = [];
addEventListener("message", e => {
	if (e.data === "go") {
		const target = parent.frames[0];
		target.postMessage({lbscope: 1, id: "f1", type: "pause"}, "*");
		target.postMessage({lbscope: 1, id: "f2", type: "getState"}, "*");
		setTimeout(() => parent.postMessage({foreignReplies: replies.length}, "*"), 1500);
	} else if (e.data && e.data.lbscope) replies.push(e.data);
});
</script>`

func serveLoopback(t *testing.T, body string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	serveHTML(t, ln, body)
	return "http://" + ln.Addr().String()
}

func TestBrowserEmbedPostMessage(t *testing.T) {
	ctx := playground(t)
	con := watchConsole(t, ctx)
	embedOrigin := strings.TrimSuffix(browserEnv.url, "/")
	foreign := serveLoopback(t, foreignPage)
	// The host's own address is in the embed's URL: listen first, then fill in the page.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	host := "http://" + ln.Addr().String()
	page := strings.NewReplacer(
		"EMBED_ORIGIN", fmt.Sprintf("%q", embedOrigin),
		"EMBED", browserEnv.url+"embed.html?autoplay=1&controls=min&origins="+host,
		"FOREIGN", foreign+"/",
	).Replace(hostPage)
	serveHTML(t, ln, page)

	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(host+"/")))
	first := eval[map[string]any](t, ctx, `ask({type: "getState"})`)
	require.Equal(t, true, first["ok"], "getState: %v", first)

	// A third origin's messages: no answer, no effect.
	eval[bool](t, ctx, `(document.getElementById("foreign").contentWindow.postMessage("go", "*"), true)`)
	waitFor(t, ctx, `window.foreign !== null`)
	assert.Equal(t, 0.0, eval[float64](t, ctx, `window.foreign.foreignReplies`), "a foreign origin got answers")
	st := eval[map[string]any](t, ctx, `ask({type: "getState"}).then(r => r.state)`)
	assert.Equal(t, false, st["paused"], "a foreign origin's pause was obeyed")

	// The host drives it.
	res := eval[map[string]any](t, ctx, `ask({type: "pause"})`)
	assert.Equal(t, true, res["ok"], "pause: %v", res)
	t0 := eval[float64](t, ctx, `ask({type: "getState"}).then(r => r.state.timeMs)`)
	res = eval[map[string]any](t, ctx, `ask({type: "step", ms: 2500})`)
	assert.Equal(t, true, res["ok"], "step: %v", res)
	got := eval[map[string]any](t, ctx, `ask({type: "getState"}).then(r => ({t: r.state.timeMs, paused: r.state.paused}))`)
	assert.Equal(t, t0+2500, got["t"], "getState after step 2500")
	assert.Equal(t, true, got["paused"])
	// Backward seek replays to the moment.
	res = eval[map[string]any](t, ctx, `ask({type: "seek", ms: 1000})`)
	assert.Equal(t, true, res["ok"], "seek: %v", res)
	assert.Equal(t, 1000.0, eval[float64](t, ctx, `ask({type: "getState"}).then(r => r.state.timeMs)`))
	res = eval[map[string]any](t, ctx, `ask({type: "dispatch", command: {type: "killConsumer", id: "nobody"}})`)
	assert.Contains(t, res["error"], "nobody")
	res = eval[map[string]any](t, ctx, `ask({type: "explode"})`)
	assert.Contains(t, res["error"], "unknown message type")
	waitFor(t, ctx, `window.events.some(e => e.event === "action")`)
	assert.Empty(t, con.Errors())
}

// serveHTML serves page, as text/html, on ln until the test ends.
func serveHTML(t *testing.T, ln net.Listener, page string) {
	t.Helper()
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
}

// fpsRounds is FPS_ROUNDS, the rounds BenchmarkBrowserPlayground measures the frame rate in
// (1…20, default 5).
func fpsRounds(b *testing.B) int {
	v := os.Getenv("FPS_ROUNDS")
	if v == "" {
		return 5
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 20 {
		b.Fatalf("FPS_ROUNDS=%q: want a whole number of rounds from 1 to 20", v)
	}
	return n
}
