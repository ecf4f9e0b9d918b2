package api

import (
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

// BenchmarkPlaygroundFrameLarge10x is the Go side of one playground frame with the large
// preset at 10×, as wasm/game_js.go runs it (natively here, so that a CPU profile can say
// where the time goes): Update's tick, push to the page and layout, then Draw's animator,
// meshes and what changed since the last frame (view.Damage, with the triangles of each
// rectangle to redraw). The wasm's own figures are counters().updateMs and drawMs.
func BenchmarkPlaygroundFrameLarge10x(b *testing.B) {
	sess := session.NewDefault()
	a := New(sess)
	x := 10.0
	for _, c := range []session.Command{
		{Command: cluster.Command{Type: session.Load}, Preset: "large"},
		{Command: cluster.Command{Type: session.SetSpeed}, X: &x},
		{Command: cluster.Command{Type: session.Play}},
	} {
		if _, err := sess.Enqueue(c); err != nil {
			b.Fatal(err)
		}
	}
	const frameMs = 1000.0 / 60
	stage := view.Rect{W: 1280, H: 720}
	var layouts view.Layouts
	var anim view.Animator
	var cv view.Canvas
	var damage view.Damage
	wall := 0.0
	frame := func() {
		wall += frameMs
		rs := sess.Tick(frameMs)
		a.Frame(Input{Results: rs, Events: sess.DrainEvents(), WallMs: wall})
		snap := sess.Snapshot()
		l := layouts.Compute(&snap, stage, view.EN, 1)
		anim.Observe(&snap, wall)
		cv.Reset()
		cv.SetScale(1)
		st := sess.State()
		view.Draw(&cv, view.Frame{Snap: &snap, Layout: l, Speed: st.Speed, WallMs: wall, Anim: &anim, Lang: view.EN})
		rects, _ := damage.Frame(&cv, int(stage.W), int(stage.H))
		for i := range rects {
			damage.Clip(i, view.Background)
		}
	}
	for range 120 {
		frame() // past the start-up rebalancing
	}
	for b.Loop() {
		frame()
	}
}
