//go:build js && wasm

package main

import (
	"fmt"
	"image/color"
	"math"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/controller"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

// frameMs is one Update's share of wall time when Ebitengine keeps its 60 ticks a second.
const frameMs = 1000.0 / 60

// maxTickMs bounds the wall time one Update may account for, so that a tab left in the
// background does not jump minutes ahead when it comes back.
const maxTickMs = 100.0

// The simulation's share of one frame on the page's thread (session.SetBudget). On the way to
// a far moment a frame either runs a slice (tickBudget) or, with a short one
// (tickBudgetShared), pushes the state to the page or draws the scene: each of those costs
// tens of milliseconds with the large preset, and together in one frame they made it a long
// task.
const (
	tickBudget       = 20 * time.Millisecond
	tickBudgetShared = 4 * time.Millisecond
)

// stageEvery is how often, in ticks, the stage's rectangle is read from the page; it is read
// at once when the bridge's ResizeObserver sees #stage change.
const stageEvery = 15

// game is the Ebitengine game. Update owns the session's clock, the input and the layout;
// Draw only reads them and keeps its own render caches (canvas, animator, vertices).
type game struct {
	sess    *session.Session
	bridge  *bridge
	drawnAt float64 // wall ms of the last frame that drew the scene (see Draw)
	// drawNext: this frame arrived at a far moment; the scene is drawn, and answerNext (the
	// results of the commands that waited for it) told, in the next.
	drawNext   bool
	answerNext []session.Result
	in         input

	// Update's state.
	w, h      int // the screen size the stage was last read for
	lw, lh    int // the screen size Layout last returned
	stage     view.Rect
	stageAge  int
	snap      cluster.Snapshot
	group     string            // the group asked for (the page's data-group, a tab, the g key)
	pick      view.Pick         // projects snap onto the group shown
	part      *cluster.Snapshot // what the canvas shows of snap: snap, or one group's part of it
	layout    *view.Layout
	layouts   view.Layouts          // the last layout, again while its inputs are the same
	ctl       controller.Controller // the click menu and what input means
	hoverX    float64
	hoverY    float64
	hoverOK   bool
	lang      string      // the page's language (the session's), read each Update
	reduced   bool        // prefers-reduced-motion, read with the stage
	look      look        // the page's theme and presenter mode, read with the stage
	legend    atomic.Bool // the page's data-legend: the canvas's legend shows (layout() reads it)
	dpr       float64
	readyDone bool
	refused   []cluster.Event // the game's own commands the session could not queue, told with the frame
	lastTick  time.Time
	tickStart time.Time     // when this frame's simulation began
	budget    time.Duration // and how long it may run (tickBudget)
	running   bool          // the loop runs every display frame (pace)

	// Draw's render caches.
	atlas   *ebiten.Image
	face    *view.Face // the atlas's glyphs: rasterised for dpr × zoom
	canvas  view.Canvas
	anim    view.Animator
	animOf  string // the group the animator has seen (another's owners are no rebalance)
	verts   []ebiten.Vertex
	start   time.Time
	damage  view.Damage   // what changed since the frame on the screen
	shown   *ebiten.Image // the screen image that frame was drawn on
	shownBg color.RGBA    // and its background

	// Counters for tests, read by the bridge from another goroutine.
	frames, ticks, heldPolls, clicks atomic.Int64
	updateUs, drawUs                 atomic.Int64 // smoothed durations, microseconds
	fullFrames, partFrames           atomic.Int64 // frames drawn whole, and only where they changed
	drawnPpm                         atomic.Int64 // the share of the screen the last frame drew, per million
	runningNow                       atomic.Bool  // running, for counters()

	failMu sync.Mutex
	failed error
}

func newGame(sess *session.Session) *game {
	g := &game{sess: sess, start: time.Now(), w: 1, h: 1, lang: view.EN, dpr: 1}
	g.snap = sess.Snapshot()
	g.part = &g.snap
	sess.SetBudget(func() bool { return time.Since(g.tickStart) > g.budget })
	g.reduced = prefersReducedMotion()
	g.anim.Reduced = g.reduced
	return g
}

// fail records the first fatal error; Update returns it, which stops the game loop.
func (g *game) fail(err error) {
	g.failMu.Lock()
	defer g.failMu.Unlock()
	if g.failed == nil {
		g.failed = err
	}
	wake() // the loop must run to end with it, even from a frame drawn for input while idle
}

func (g *game) failure() error {
	g.failMu.Lock()
	defer g.failMu.Unlock()
	return g.failed
}

func recovered(where string, r any) error {
	return fmt.Errorf("%s panicked: %v\n%s", where, r, debug.Stack())
}

func (g *game) Layout(outsideWidth, outsideHeight int) (int, int) {
	w, h := g.LayoutF(float64(outsideWidth), float64(outsideHeight))
	return int(w), int(h)
}

// LayoutF makes the screen one pixel per device pixel (up to a ratio of 3), so everything is
// drawn at the display's resolution; the layout and the hit boxes stay in CSS pixels.
func (g *game) LayoutF(outsideWidth, outsideHeight float64) (float64, float64) {
	g.lw, g.lh = max(int(outsideWidth), 1), max(int(outsideHeight), 1)
	g.dpr = clamp(ebiten.Monitor().DeviceScaleFactor(), 1, 3)
	return math.Max(outsideWidth, 1) * g.dpr, math.Max(outsideHeight, 1) * g.dpr
}

func (g *game) Update() (err error) {
	if err := g.failure(); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = recovered("Update", r)
			g.fail(err)
		}
	}()
	g.ticks.Add(1)
	began := time.Now()
	defer func() { smooth(&g.updateUs, time.Since(began)) }()
	if !g.readyDone && g.frames.Load() > 0 {
		g.readyDone = true
		g.bridge.markReady()
	}
	w, h := g.lw, g.lh
	g.stageAge--
	if g.stageAge <= 0 || w != g.w || h != g.h || g.bridge.stageMoved.Swap(false) {
		g.w, g.h, g.stageAge = w, h, stageEvery
		// The preference can change while the page is open (a system setting).
		g.reduced = prefersReducedMotion()
		if lk := pageLook(); lk != g.look {
			g.look, g.ctl.Menu = lk, nil
			view.UseTheme(view.ThemeNamed(lk.theme))
		}
		g.legend.Store(pageLegend())
		g.group = pageGroup()
		g.stage = view.Rect{W: float64(w), H: float64(h)}
		if r, ok := stageRect(); ok {
			g.stage = clipRect(r, g.stage)
		}
	}

	p := g.in.poll()
	if p.held {
		g.heldPolls.Add(1)
	}
	// The pointer comes in device pixels: to CSS pixels for the stage, to layout units for
	// hit tests and menus.
	css, unit := g.dpr, g.dpr*g.look.zoom()
	g.hoverOK = p.over && g.bridge.pointerIn.Load() && g.stage.Contains(p.x/css, p.y/css)
	g.hoverX, g.hoverY = p.x/unit, p.y/unit
	st := g.sess.State()
	screen := controller.Screen{Snap: g.part, Layout: g.layout, Stage: g.unitStage(), Paused: st.Paused, Speed: st.Speed, Lang: g.lang}
	for _, ev := range p.events {
		ev.X, ev.Y = ev.X/unit, ev.Y/unit
		if ev.Kind == controller.Click {
			g.clicks.Add(1)
		}
		e := g.ctl.Handle(ev, screen)
		for _, c := range e.Commands {
			if _, err := g.sess.Enqueue(c); err != nil {
				g.refused = append(g.refused, cluster.Event{T: g.snap.TimeMs, Kind: session.EventError, Cause: session.CauseRefused, Arg: c.Type, Text: err.Error()})
			}
		}
		if e.Help {
			showHelp()
		}
		if e.Present {
			togglePresent()
		}
		if e.Legend {
			g.legend.Store(toggleLegend())
		}
		if e.Group != "" {
			g.group = e.Group
			setPageGroup(e.Group) // the page's group choice follows
		}
	}

	// A slow browser calls Update less often than 60 times a second: advance by the wall
	// time that really passed, so that 10× stays 10× (spec-exact stepping is the step command).
	now := time.Now()
	dt := frameMs
	if !g.lastTick.IsZero() {
		dt = min(float64(now.Sub(g.lastTick).Microseconds())/1000, maxTickMs)
	}
	g.lastTick = now
	if !g.bridge.shown() {
		// Nobody sees it: time waits (a frame drawn for a command applies the command only).
		dt = 0
	}
	g.tickStart, g.budget = time.Now(), tickBudget
	wasReaching := st.Reaching != nil
	if wasReaching {
		// The push comes after the slice: due by the time a whole slice would end.
		pushAt := float64(time.Since(g.start).Microseconds())/1000 + float64(tickBudget.Milliseconds())
		if g.bridge.api.StateDue(pushAt) || g.drawnAt == 0 {
			g.budget = tickBudgetShared // this frame pushes the state or draws the scene
		}
	}
	results := g.sess.Tick(dt)
	// The frame that arrives at a far moment has run a slice: the scene is drawn in the next
	// one, and the commands that waited for the moment answer there, so that a promise that
	// answers finds the moment drawn.
	g.drawNext = wasReaching && g.sess.State().Reaching == nil
	if g.drawNext {
		g.answerNext, results = append(g.answerNext, results...), nil
	} else if len(g.answerNext) > 0 {
		results, g.answerNext = append(g.answerNext, results...), nil
	}
	g.bridge.frame(results, append(g.sess.DrainEvents(), g.refused...))
	g.refused = g.refused[:0]

	// The words on the canvas follow the page's language (lbscope.setLang); the menu closes
	// when it was worded in another or its target left.
	g.lang = g.sess.Lang()
	g.snap = g.sess.Snapshot()
	g.part = g.pick.Of(&g.snap, g.group)
	g.layout = g.layouts.ComputeShown(g.part, &g.snap, g.stage, g.lang, g.look.zoom())
	st = g.sess.State()
	g.ctl.Follow(controller.Screen{Snap: g.part, Layout: g.layout, Stage: g.unitStage(), Paused: st.Paused, Speed: st.Speed, Lang: g.lang})
	g.bridge.setLayout(g.layout, g.ctl.Menu, g.hoverX, g.hoverY, g.hoverOK)
	g.pace(st)
	return nil
}

// pace chooses how the loop runs after this Update. While time runs on a page one can see,
// every display frame (one Update, one Draw). Otherwise (paused, the tab hidden, an embed
// scrolled out of view) only when something asks for a frame: Ebitengine's
// FPSModeVsyncOffMinimum draws on input and resizes itself, and wake (ScheduleFrame) is
// called by the bridge for a command, an API call that changes what is shown, a page change
// (stage, theme, language, visibility), and here while work remains: the first frames
// before ready, a seek or step reached in slices, a state push the API still holds, and
// (in Draw) a rebalance's slide still moving.
func (g *game) pace(st session.State) {
	running := !st.Paused && g.bridge.shown()
	if running != g.running {
		g.running = running
		g.runningNow.Store(running)
		if running {
			ebiten.SetFPSMode(ebiten.FPSModeVsyncOn)
		} else {
			ebiten.SetFPSMode(ebiten.FPSModeVsyncOffMinimum)
		}
	}
	if running {
		releaseFrames()
		return
	}
	// The next run starts with one frame's time, not the whole pause (see Update's dt).
	g.lastTick = time.Time{}
	// Commands still queued (those that wait for a far moment, or past a frame's budget) and a
	// dispatch still unanswered keep the loop going.
	if !g.readyDone || st.Reaching != nil || g.drawNext || len(g.answerNext) > 0 || g.sess.Queued() > 0 || g.bridge.api.Pending() || g.bridge.awaiting() {
		wake()
		return
	}
	holdFrames()
}

// wake asks for one more Update and Draw when the loop runs only when asked; harmless
// otherwise. Safe from the bridge's callbacks.
func wake() {
	ebiten.ScheduleFrame()
	releaseFrames()
}

func (g *game) Draw(screen *ebiten.Image) {
	if g.failure() != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			g.damage.Invalidate() // what it left on the screen is not a frame
			g.fail(recovered("Draw", r))
		}
	}()
	began := time.Now()
	wall := float64(time.Since(g.start).Milliseconds())
	st := g.sess.State()
	// On the way to a far moment each frame already runs a slice of the simulation; a frame
	// that draws the large preset's scene in a software-rendered browser holds the page's
	// thread tens of milliseconds by itself, and on top of a slice past 100 ms. The screen is
	// kept between frames (SetScreenClearedEveryFrame is off), so the scene keeps its last
	// picture on the way — the timeline's bar shows the progress — and is drawn again at the
	// moment reached.
	if (st.Reaching != nil || g.drawNext) && g.layout != nil && g.drawnAt > 0 {
		g.drawNext = false
		return
	}
	g.drawnAt = wall
	defer func() { smooth(&g.drawUs, time.Since(began)) }()
	bg := toColor(view.Background)
	if g.layout == nil {
		screen.Fill(bg)
		g.damage.Invalidate()
		return
	}
	if g.part.Group != g.animOf {
		// Another group's owners: nothing moved.
		g.anim, g.animOf = view.Animator{}, g.part.Group
	}
	g.anim.Reduced = g.reduced
	g.anim.Observe(g.part, wall)
	if g.anim.Active(wall) {
		wake() // a slide started or under way finishes while paused too
	}
	g.canvas.Reset()
	if face := g.canvas.SetScale(g.dpr * g.look.zoom()); face != g.face {
		if g.atlas != nil {
			g.atlas.Deallocate()
		}
		g.face, g.atlas = face, ebiten.NewImage(face.W, face.H)
		g.atlas.WritePixels(face.Pix)
		g.damage.Invalidate()
	}
	view.Draw(&g.canvas, view.Frame{
		Snap: g.part, All: &g.snap, Layout: g.layout, Paused: st.Paused, Speed: st.Speed, WallMs: wall,
		Anim: &g.anim, Menu: g.ctl.Menu, HoverX: g.hoverX, HoverY: g.hoverY, HoverOK: g.hoverOK,
		Lang: g.lang, Reduced: g.reduced, Legend: g.legend.Load(), Observed: g.sess.Observed(),
	})
	g.drawScene(screen, bg)
	g.frames.Add(1)
}

// drawScene puts the canvas's meshes on the screen. The screen keeps the last frame drawn
// (SetScreenClearedEveryFrame is off), so only the rectangles where this frame's triangles
// differ from that one's are drawn again, each filled with the background and drawn over
// with the triangles that reach it, clipped to it (see view.Damage); all of it when the
// screen image, its size, the atlas or the background changed, or most of it did. Under a
// software GPU every pixel filled and every triangle set up is the page's main thread's time.
func (g *game) drawScene(screen *ebiten.Image, bg color.RGBA) {
	if screen != g.shown || bg != g.shownBg {
		g.shown, g.shownBg = screen, bg
		g.damage.Invalidate()
	}
	b := screen.Bounds()
	rects, full := g.damage.Frame(&g.canvas, b.Dx(), b.Dy())
	g.drawnPpm.Store(int64(g.damage.Share()*1e6 + 0.5))
	op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}
	if full {
		g.fullFrames.Add(1)
		screen.Fill(bg)
		for l := range view.NumLayers {
			for _, m := range g.canvas.Meshes(l) {
				screen.DrawTriangles(g.vertices(m), m.Indices, g.atlas, op)
			}
		}
		return
	}
	g.partFrames.Add(1)
	// The fill is a quad from the atlas's white texel, not Fill: one source image for all,
	// so Ebitengine sends every rectangle's triangles as one batch.
	for i, r := range rects {
		sub := screen.SubImage(r).(*ebiten.Image)
		for _, m := range g.damage.Clip(i, view.Background) {
			sub.DrawTriangles(g.vertices(m), m.Indices, g.atlas, op)
		}
	}
}

// vertices is m's vertices as Ebitengine's, in a buffer reused from call to call
// (DrawTriangles copies them).
func (g *game) vertices(m view.Mesh) []ebiten.Vertex {
	g.verts = g.verts[:0]
	for _, v := range m.Vertices {
		g.verts = append(g.verts, ebiten.Vertex{DstX: v.X, DstY: v.Y, SrcX: v.SrcX, SrcY: v.SrcY,
			ColorR: v.R, ColorG: v.G, ColorB: v.B, ColorA: v.A})
	}
	return g.verts
}

// smooth folds d into an exponentially weighted average.
func smooth(avg *atomic.Int64, d time.Duration) {
	old := avg.Load()
	avg.Store(old + (d.Microseconds()-old)/8)
}

// toColor converts a view colour to a premultiplied color.RGBA.
func toColor(c view.Color) color.RGBA {
	return color.RGBA{uint8(c.R*c.A*255 + 0.5), uint8(c.G*c.A*255 + 0.5), uint8(c.B*c.A*255 + 0.5), uint8(c.A*255 + 0.5)}
}

// clipRect is r cut to fit within bounds (the page's stage may extend past the canvas).
func clipRect(r, bounds view.Rect) view.Rect {
	x0, y0 := max(r.X, bounds.X), max(r.Y, bounds.Y)
	x1, y1 := min(r.Right(), bounds.Right()), min(r.Bottom(), bounds.Bottom())
	if x1-x0 < 100 || y1-y0 < 100 {
		return bounds // a stage too small to draw in: use the whole canvas
	}
	return view.Rect{X: x0, Y: y0, W: x1 - x0, H: y1 - y0}
}

// unitStage is the stage in layout units, where menus must fit.
func (g *game) unitStage() view.Rect {
	if g.layout != nil {
		return g.layout.Bounds
	}
	return g.stage.Scale(1 / g.look.zoom())
}

// look is how the page wants the canvas drawn: its theme ("light" or "dark", auto resolved)
// and presenter mode.
type look struct {
	theme   string
	present bool
}

// zoom is the CSS pixels per layout unit.
func (l look) zoom() float64 {
	if l.present {
		return view.PresentZoom
	}
	return 1
}

func clamp(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }
