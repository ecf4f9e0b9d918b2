//go:build js && wasm

package main

import (
	"fmt"
	"image/color"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

// frameMs is one Update's share of wall time when Ebitengine keeps its 60 ticks a second.
const frameMs = 1000.0 / 60

// maxTickMs bounds the wall time one Update may account for, so that a tab left in the
// background does not jump minutes ahead when it comes back.
const maxTickMs = 100.0

// stageEvery is how often, in ticks, the stage's rectangle is read from the page; it is read
// at once when the bridge's ResizeObserver sees #stage change.
const stageEvery = 15

// speeds are the steps of the + and - keys (the session's, which lbscope.speeds() gives).
var speeds = session.Speeds

// game is the Ebitengine game. Update owns the session's clock, the input and the layout;
// Draw only reads them and keeps its own render caches (canvas, animator, vertices).
type game struct {
	sess   *session.Session
	bridge *bridge
	in     input

	// Update's state.
	w, h      int // the screen size the stage was last read for
	lw, lh    int // the screen size Layout last returned
	stage     view.Rect
	stageAge  int
	snap      cluster.Snapshot
	layout    *view.Layout
	menu      *view.Menu
	hoverX    float64
	hoverY    float64
	hoverOK   bool
	lang      string // the page's language (the session's), read each Update
	reduced   bool   // prefers-reduced-motion, read with the stage
	readyDone bool
	refused   []cluster.Event // the game's own commands the session could not queue, told with the frame
	lastTick  time.Time

	// Draw's render caches.
	atlas  *ebiten.Image
	canvas view.Canvas
	anim   view.Animator
	verts  []ebiten.Vertex
	start  time.Time

	// Counters for tests, read by the bridge from another goroutine.
	frames, ticks, heldPolls, clicks atomic.Int64
	updateUs, drawUs                 atomic.Int64 // smoothed durations, microseconds

	failMu sync.Mutex
	failed error
}

func newGame(sess *session.Session) *game {
	w, h, pix := view.Atlas()
	atlas := ebiten.NewImage(w, h)
	atlas.WritePixels(pix)
	g := &game{sess: sess, atlas: atlas, start: time.Now(), w: 1, h: 1, lang: view.EN}
	g.snap = sess.Snapshot()
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
	// One canvas pixel per CSS pixel: the layout, the hit boxes and the page agree.
	g.lw, g.lh = max(outsideWidth, 1), max(outsideHeight, 1)
	return g.lw, g.lh
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
		g.stage = view.Rect{W: float64(w), H: float64(h)}
		if r, ok := stageRect(); ok {
			g.stage = clipRect(r, g.stage)
		}
	}

	p := g.in.poll()
	if p.held {
		g.heldPolls.Add(1)
	}
	g.hoverX, g.hoverY = p.x, p.y
	g.hoverOK = p.over && g.bridge.pointerIn.Load() && g.stage.Contains(p.x, p.y)
	for _, a := range p.actions {
		g.act(a)
	}

	// A slow browser calls Update less often than 60 times a second: advance by the wall
	// time that really passed, so that 10× stays 10× (spec-exact stepping is the step command).
	now := time.Now()
	dt := frameMs
	if !g.lastTick.IsZero() {
		dt = min(float64(now.Sub(g.lastTick).Microseconds())/1000, maxTickMs)
	}
	g.lastTick = now
	results := g.sess.Tick(dt)
	g.bridge.frame(results, append(g.sess.DrainEvents(), g.refused...))
	g.refused = g.refused[:0]

	// The words on the canvas follow the page's language (lbscope.setLang); an open menu
	// was worded in the old one, so it closes.
	if lang := g.sess.Lang(); lang != g.lang {
		g.lang, g.menu = lang, nil
	}
	g.snap = g.sess.Snapshot()
	g.layout = view.ComputeLang(&g.snap, g.stage, g.lang)
	if g.menu != nil && !g.menuStillValid() {
		g.menu = nil
	}
	g.bridge.setLayout(g.layout, g.menu)
	return nil
}

// act turns one input action into commands or menu changes.
func (g *game) act(a action) {
	switch a.kind {
	case actClick:
		g.clicks.Add(1)
		g.click(a.x, a.y)
	case actEscape:
		g.menu = nil
	case actKey:
		g.key(a.key)
	}
}

func (g *game) enqueue(c cluster.Command) {
	if _, err := g.sess.Enqueue(session.Command{Command: c}); err != nil {
		g.refused = append(g.refused, cluster.Event{T: g.snap.TimeMs, Kind: session.EventError, Cause: session.CauseRefused, Arg: c.Type, Text: err.Error()})
	}
}

func (g *game) enqueuePlay(c session.Command) {
	if _, err := g.sess.Enqueue(c); err != nil {
		g.refused = append(g.refused, cluster.Event{T: g.snap.TimeMs, Kind: session.EventError, Cause: session.CauseRefused, Arg: c.Type, Text: err.Error()})
	}
}

func (g *game) click(x, y float64) {
	if g.menu != nil {
		switch i := g.menu.Hit(x, y); {
		case i >= 0:
			g.enqueue(g.menu.Items[i].Cmd)
			g.menu = nil
			return
		case i == -2:
			return
		}
		g.menu = nil
	}
	if g.layout == nil {
		return
	}
	kind, id := g.layout.HitTest(x, y)
	switch kind {
	case view.HitConsumer:
		for _, c := range g.snap.Consumers {
			if c.ID == id {
				g.menu = view.ConsumerMenu(c, x, y, g.stage, g.lang)
			}
		}
	case view.HitBroker, view.HitQueue:
		if kind == view.HitQueue {
			if cell, ok := g.layout.Cell(id); ok {
				id = cell.Broker
			}
		}
		for _, b := range g.snap.Brokers {
			if b.Name == id {
				g.menu = view.BrokerMenu(b, x, y, g.stage, g.lang)
			}
		}
	}
}

// menuStillValid reports whether the open menu's target still exists.
func (g *game) menuStillValid() bool {
	if g.menu.Kind == view.HitConsumer {
		_, ok := g.layout.Consumer(g.menu.Target)
		return ok
	}
	_, ok := g.layout.Broker(g.menu.Target)
	return ok
}

func (g *game) key(r rune) {
	st := g.sess.State()
	switch r {
	case ' ':
		typ := session.Pause
		if st.Paused {
			typ = session.Play
		}
		g.enqueuePlay(session.Command{Command: cluster.Command{Type: typ}})
	case '.':
		ms := int64(1000)
		g.enqueuePlay(session.Command{Command: cluster.Command{Type: session.Step}, Ms: &ms})
	case '+', '=':
		g.setSpeed(nextSpeed(st.Speed, +1))
	case '-', '_':
		g.setSpeed(nextSpeed(st.Speed, -1))
	case 'a', 'A':
		g.enqueue(cluster.Command{Type: "addConsumer"}) // the session picks the next free c<N>
	case '?':
		showHelp()
	}
}

func (g *game) setSpeed(x float64) {
	g.enqueuePlay(session.Command{Command: cluster.Command{Type: session.SetSpeed}, X: &x})
}

// nextSpeed is the next step of speeds above (dir > 0) or below the current speed.
func nextSpeed(cur float64, dir int) float64 {
	if dir > 0 {
		for _, s := range speeds {
			if s > cur+1e-9 {
				return s
			}
		}
		return speeds[len(speeds)-1]
	}
	for i := len(speeds) - 1; i >= 0; i-- {
		if speeds[i] < cur-1e-9 {
			return speeds[i]
		}
	}
	return speeds[0]
}

func (g *game) Draw(screen *ebiten.Image) {
	if g.failure() != nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			g.fail(recovered("Draw", r))
		}
	}()
	began := time.Now()
	defer func() { smooth(&g.drawUs, time.Since(began)) }()
	screen.Fill(toColor(view.Background))
	if g.layout == nil {
		return
	}
	wall := float64(time.Since(g.start).Milliseconds())
	g.anim.Reduced = g.reduced
	g.anim.Observe(&g.snap, wall)
	g.canvas.Reset()
	st := g.sess.State()
	view.Draw(&g.canvas, view.Frame{
		Snap: &g.snap, Layout: g.layout, Paused: st.Paused, Speed: st.Speed, WallMs: wall,
		Anim: &g.anim, Menu: g.menu, HoverX: g.hoverX, HoverY: g.hoverY, HoverOK: g.hoverOK,
		Lang: g.lang, Reduced: g.reduced,
	})
	op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}
	for l := range view.NumLayers {
		for _, m := range g.canvas.Meshes(l) {
			g.verts = g.verts[:0]
			for _, v := range m.Vertices {
				g.verts = append(g.verts, ebiten.Vertex{DstX: v.X, DstY: v.Y, SrcX: v.SrcX, SrcY: v.SrcY,
					ColorR: v.R, ColorG: v.G, ColorB: v.B, ColorA: v.A})
			}
			screen.DrawTriangles(g.verts, m.Indices, g.atlas, op)
		}
	}
	g.frames.Add(1)
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
