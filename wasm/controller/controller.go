// Package controller is the playground's input handling, without a browser: it turns the
// canvas's input events (clicks, keys), read against the snapshot and the layout on screen,
// into the session's commands and the click menu's changes. The game (wasm/game_js.go) only
// polls Ebitengine for the events and enqueues what comes out; everything here is tested
// natively.
package controller

import (
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

// Kind is the kind of an input event.
type Kind int

const (
	Click  Kind = iota // a press of the left button or a touch, at (X, Y)
	Key                // a typed character, Rune
	Escape             // the Escape key
)

// Event is one input event, in canvas pixels.
type Event struct {
	Kind Kind
	X, Y float64
	Rune rune
}

// Screen is what the input is read against: the world as the canvas shows it.
type Screen struct {
	Snap   *cluster.Snapshot
	Layout *view.Layout // nil before the first layout
	Stage  view.Rect    // where menus must fit
	Paused bool
	Speed  float64
	Lang   string
}

// Effect is what one event asks for: commands to enqueue, in order, and whether the page
// should toggle its help.
type Effect struct {
	Commands []session.Command
	Help     bool
	Present  bool // toggle presenter mode (the p key)
	Legend   bool // show or hide the canvas's legend (the l key, the header's button)
	// Group is the group to show, in a run with several topics or groups (a click on its
	// tab, or the g key for the next one); "" for no change.
	Group string
}

// Speeds are the steps of the + and - keys: the session's, which the page's speed control and
// lbscope.speeds() give too.
var Speeds = session.Speeds

// StepMs is what the . key steps: one virtual second.
const StepMs = 1000

// Controller holds the input's own state: the open click menu.
type Controller struct {
	Menu *view.Menu // nil when closed
	lang string     // the language the menu was worded in
}

// Handle turns one event into its effect, opening, choosing from or closing the menu.
func (c *Controller) Handle(ev Event, s Screen) Effect {
	switch ev.Kind {
	case Click:
		return c.click(ev.X, ev.Y, s)
	case Escape:
		c.Menu = nil
	case Key:
		return key(ev.Rune, s)
	}
	return Effect{}
}

// Follow keeps the menu true to the screen after a frame: it closes when the page's language
// changed (it was worded in the old one) or its consumer, broker or proxy is gone.
func (c *Controller) Follow(s Screen) {
	if c.Menu == nil {
		return
	}
	if s.Lang != c.lang || s.Layout == nil {
		c.Menu = nil
		return
	}
	var ok bool
	switch c.Menu.Kind {
	case view.HitConsumer:
		_, ok = s.Layout.Consumer(c.Menu.Target)
	case view.HitProxy:
		_, ok = s.Layout.Proxy(c.Menu.Target)
	default:
		_, ok = s.Layout.Broker(c.Menu.Target)
	}
	if !ok {
		c.Menu = nil
	}
}

func (c *Controller) click(x, y float64, s Screen) Effect {
	if c.Menu != nil {
		switch i := c.Menu.Hit(x, y); {
		case i >= 0:
			cmd := c.Menu.Items[i].Cmd
			c.Menu = nil
			return Effect{Commands: []session.Command{{Command: cmd}}}
		case i == -2: // the menu's title
			return Effect{}
		}
		c.Menu = nil // a click elsewhere closes it, and may open another
	}
	if s.Layout == nil || s.Snap == nil {
		return Effect{}
	}
	kind, id := s.Layout.HitTest(x, y)
	switch kind {
	case view.HitLegend:
		return Effect{Legend: true}
	case view.HitGroup:
		return Effect{Group: id}
	case view.HitConsumer:
		for _, k := range s.Snap.Consumers {
			if k.ID == id {
				c.Menu, c.lang = view.ConsumerMenu(k, x, y, s.Stage, s.Lang).Beside(s.Layout, s.Stage), s.Lang
			}
		}
	case view.HitBroker, view.HitQueue:
		if kind == view.HitQueue {
			if cell, ok := s.Layout.Cell(id); ok {
				id = cell.Broker
			}
		}
		for _, b := range s.Snap.Brokers {
			if b.Name == id {
				c.Menu, c.lang = view.BrokerMenu(b, x, y, s.Stage, s.Lang).Beside(s.Layout, s.Stage), s.Lang
			}
		}
	case view.HitProxy:
		for _, p := range s.Snap.Proxies {
			if p.Name == id {
				c.Menu, c.lang = view.ProxyMenu(p, x, y, s.Stage, s.Lang).Beside(s.Layout, s.Stage), s.Lang
			}
		}
	}
	return Effect{}
}

func key(r rune, s Screen) Effect {
	play := func(c session.Command) Effect { return Effect{Commands: []session.Command{c}} }
	switch r {
	case ' ':
		typ := session.Pause
		if s.Paused {
			typ = session.Play
		}
		return play(session.Command{Command: cluster.Command{Type: typ}})
	case '.':
		ms := int64(StepMs)
		return play(session.Command{Command: cluster.Command{Type: session.Step}, Ms: &ms})
	case '+', '=':
		return setSpeed(NextSpeed(s.Speed, +1))
	case '-', '_':
		return setSpeed(NextSpeed(s.Speed, -1))
	case 'a', 'A':
		return play(session.Command{Command: cluster.Command{Type: "addConsumer"}}) // the session picks the next free c<N>
	case '?':
		return Effect{Help: true}
	case 'p', 'P':
		return Effect{Present: true}
	case 'l', 'L':
		return Effect{Legend: true}
	case 'g', 'G':
		if s.Snap != nil && len(s.Snap.Groups) > 1 {
			return Effect{Group: view.NextGroup(s.Snap, s.Snap.Group)}
		}
	}
	return Effect{}
}

func setSpeed(x float64) Effect {
	return Effect{Commands: []session.Command{{Command: cluster.Command{Type: session.SetSpeed}, X: &x}}}
}

// NextSpeed is the next step of Speeds above (dir > 0) or below the current speed; at either
// end it stays there.
func NextSpeed(cur float64, dir int) float64 {
	if dir > 0 {
		for _, s := range Speeds {
			if s > cur+1e-9 {
				return s
			}
		}
		return Speeds[len(Speeds)-1]
	}
	for i := len(Speeds) - 1; i >= 0; i-- {
		if Speeds[i] < cur-1e-9 {
			return Speeds[i]
		}
	}
	return Speeds[0]
}
