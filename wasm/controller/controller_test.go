package controller

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

// screen is the default scenario as a 1280×720 canvas shows it.
func screen(t *testing.T, lang string) Screen {
	t.Helper()
	s := session.NewDefault()
	s.Tick(16)
	snap := s.Snapshot()
	stage := view.Rect{W: 1280, H: 720}
	return Screen{Snap: &snap, Layout: view.ComputeLang(&snap, stage, lang), Stage: stage, Speed: 1, Lang: lang}
}

func centre(r view.Rect) (float64, float64) { return r.X + r.W/2, r.Y + r.H/2 }

func consumerAt(t *testing.T, s Screen, id string) (float64, float64) {
	t.Helper()
	b, ok := s.Layout.Consumer(id)
	if !ok {
		t.Fatalf("no consumer %s on the canvas", id)
	}
	return centre(b.Rect)
}

func brokerAt(t *testing.T, s Screen, name string) (float64, float64) {
	t.Helper()
	b, ok := s.Layout.Broker(name)
	if !ok {
		t.Fatalf("no broker %s on the canvas", name)
	}
	return centre(b.Title)
}

// itemAt is the centre of the open menu's item whose key is key.
func itemAt(t *testing.T, c *Controller, key string) (float64, float64) {
	t.Helper()
	if c.Menu == nil {
		t.Fatal("no menu is open")
	}
	for _, it := range c.Menu.Items {
		if it.Key == key {
			return centre(it.Rect)
		}
	}
	t.Fatalf("the menu has no %s", key)
	return 0, 0
}

// types lists the effect's command types with their target, e.g. "killConsumer c2".
func types(e Effect) string {
	var out []string
	for _, c := range e.Commands {
		s := c.Type
		if c.ID != "" {
			s += " " + c.ID
		}
		if c.Broker != "" {
			s += " " + c.Broker
		}
		if c.LatencyMs != nil {
			s += " " + itoa(*c.LatencyMs)
		}
		if c.Ms != nil {
			s += " " + itoa(int(*c.Ms))
		}
		if c.X != nil {
			s += " " + ftoa(*c.X)
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

func TestClicksOpenMenusAndChooseCommands(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps func(t *testing.T, c *Controller, s Screen) Effect
		menu  string // the menu open afterwards: "consumer c2", "broker broker-a" or ""
		want  string // the last event's commands
	}{
		{"click a consumer: its menu", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c2")
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "consumer c2", ""},
		{"choose kill: killConsumer", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c2")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			x, y = itemAt(t, c, "killConsumer")
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "", "killConsumer c2"},
		{"choose hang: hangConsumer", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c1")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			x, y = itemAt(t, c, "hangConsumer")
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "", "hangConsumer c1"},
		{"a consumer's menu leaves its box in sight", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c2")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			if b, _ := s.Layout.Consumer("c2"); c.Menu.Overlaps(b.Rect) {
				t.Fatalf("c2's menu %+v covers its box %+v", c.Menu.Rect, b.Rect)
			}
			return Effect{}
		}, "consumer c2", ""},
		{"a broker's menu leaves its block in sight", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := brokerAt(t, s, "broker-b")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			if b, _ := s.Layout.Broker("broker-b"); c.Menu.Overlaps(b.Rect) {
				t.Fatalf("broker-b's menu %+v covers its block %+v", c.Menu.Rect, b.Rect)
			}
			return Effect{}
		}, "broker broker-b", ""},
		{"click a broker: its menu", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := brokerAt(t, s, "broker-b")
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "broker broker-b", ""},
		{"click a queue: its broker's menu", func(t *testing.T, c *Controller, s Screen) Effect {
			cell, ok := s.Layout.Cell("broker-a:1")
			if !ok {
				t.Fatal("no queue broker-a:1")
			}
			x, y := centre(cell.Rect)
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "broker broker-a", ""},
		{"choose 600 ms: slowBroker", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := brokerAt(t, s, "broker-a")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			x, y = itemAt(t, c, "slowBroker:600")
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "", "slowBroker broker-a 600"},
		{"choose kill broker: killBroker", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := brokerAt(t, s, "broker-a")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			x, y = itemAt(t, c, "killBroker")
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "", "killBroker broker-a"},
		{"the menu's title keeps it open", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c2")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			m := c.Menu
			return c.Handle(Event{Kind: Click, X: m.X + m.W/2, Y: m.Y + 2}, s)
		}, "consumer c2", ""},
		{"a click on nothing closes it", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c2")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			return c.Handle(Event{Kind: Click, X: 1, Y: 1}, s)
		}, "", ""},
		{"a click on another consumer opens its menu", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c4")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s) // c4's menu opens beside c4, away from c1
			x, y = consumerAt(t, s, "c1")
			if c.Menu.Contains(x, y) {
				t.Fatalf("c4's menu %+v covers c1", c.Menu.Rect)
			}
			return c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		}, "consumer c1", ""},
		{"Escape closes it", func(t *testing.T, c *Controller, s Screen) Effect {
			x, y := consumerAt(t, s, "c2")
			c.Handle(Event{Kind: Click, X: x, Y: y}, s)
			return c.Handle(Event{Kind: Escape}, s)
		}, "", ""},
		{"a click before the first layout does nothing", func(t *testing.T, c *Controller, s Screen) Effect {
			s.Layout = nil
			return c.Handle(Event{Kind: Click, X: 100, Y: 100}, s)
		}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Controller
			e := tc.steps(t, &c, screen(t, "en"))
			menu := ""
			if c.Menu != nil {
				menu = c.Menu.Kind + " " + c.Menu.Target
			}
			if menu != tc.menu {
				t.Errorf("menu %q; want %q", menu, tc.menu)
			}
			if got := types(e); got != tc.want {
				t.Errorf("commands %q; want %q", got, tc.want)
			}
		})
	}
}

func TestKeys(t *testing.T) {
	for _, tc := range []struct {
		key    rune
		speed  float64
		paused bool
		want   string
		help   bool
	}{
		{' ', 1, false, "pause", false},
		{' ', 1, true, "play", false},
		{'.', 1, false, "step 1000", false},
		{'+', 1, false, "setSpeed 2", false},
		{'=', 20, false, "setSpeed 50", false},
		{'+', 100, false, "setSpeed 100", false}, // the top stays the top
		{'-', 1, false, "setSpeed 0.5", false},
		{'_', 3, false, "setSpeed 2", false}, // between steps: the one below
		{'-', 0.25, false, "setSpeed 0.25", false},
		{'a', 1, false, "addConsumer", false},
		{'A', 1, false, "addConsumer", false},
		{'?', 1, false, "", true},
		{'x', 1, false, "", false},
	} {
		var c Controller
		s := screen(t, "en")
		s.Speed, s.Paused = tc.speed, tc.paused
		e := c.Handle(Event{Kind: Key, Rune: tc.key}, s)
		if got := types(e); got != tc.want || e.Help != tc.help {
			t.Errorf("key %q at %g× (paused %v): %q, help %v; want %q, help %v", tc.key, tc.speed, tc.paused, got, e.Help, tc.want, tc.help)
		}
	}
}

// The p key asks for presenter mode to toggle, and nothing else.
func TestPresentKey(t *testing.T) {
	for _, r := range []rune{'p', 'P'} {
		var c Controller
		e := c.Handle(Event{Kind: Key, Rune: r}, screen(t, "en"))
		if !e.Present || e.Help || len(e.Commands) != 0 {
			t.Errorf("key %q: %+v; want presenter mode toggled", r, e)
		}
	}
	var c Controller
	if e := c.Handle(Event{Kind: Key, Rune: 'a'}, screen(t, "en")); e.Present {
		t.Error("a toggles presenter mode")
	}
}

// The l key and a click on the header's legend button ask for the legend to toggle, and
// nothing else; a click beside the button does not.
func TestLegendKeyAndButton(t *testing.T) {
	for _, r := range []rune{'l', 'L'} {
		var c Controller
		e := c.Handle(Event{Kind: Key, Rune: r}, screen(t, "en"))
		if !e.Legend || e.Present || e.Help || len(e.Commands) != 0 {
			t.Errorf("key %q: %+v; want the legend toggled", r, e)
		}
	}
	s := screen(t, "en")
	b := s.Layout.LegendHit()
	if b.W < 24 || b.H < 24 {
		t.Fatalf("legend button %+v", b)
	}
	var c Controller
	x, y := b.Center()
	if e := c.Handle(Event{Kind: Click, X: x, Y: y}, s); !e.Legend || c.Menu != nil || len(e.Commands) != 0 {
		t.Errorf("a click on the legend button: %+v, menu %v", e, c.Menu)
	}
	if e := c.Handle(Event{Kind: Click, X: b.X - 30, Y: y}, s); e.Legend {
		t.Error("a click beside the legend button toggles the legend")
	}
	if e := c.Handle(Event{Kind: Key, Rune: 'a'}, s); e.Legend {
		t.Error("a toggles the legend")
	}
}

// In a run with several groups a click on a group's tab shows it, and g shows the next; a
// run with one group has no tab, and g does nothing there.
func TestGroupTabsAndKey(t *testing.T) {
	sess, err := session.New(scenario.Presets()["groups"])
	if err != nil {
		t.Fatal(err)
	}
	sess.Tick(16)
	all := sess.Snapshot()
	stage := view.Rect{W: 1280, H: 720}
	var p view.Pick
	shown := p.Of(&all, "")
	s := Screen{Snap: shown, Layout: view.ComputeShown(shown, &all, stage, "en", 1), Stage: stage, Speed: 1, Lang: "en"}
	if len(s.Layout.Groups) != 2 {
		t.Fatalf("tabs %+v", s.Layout.Groups)
	}
	var c Controller
	x, y := centre(s.Layout.Groups[1].Rect)
	if e := c.Handle(Event{Kind: Click, X: x, Y: y}, s); e.Group != "GID_AUDIT" || len(e.Commands) != 0 || c.Menu != nil {
		t.Errorf("a click on GID_AUDIT's tab: %+v, menu %v", e, c.Menu)
	}
	for _, r := range []rune{'g', 'G'} {
		if e := c.Handle(Event{Kind: Key, Rune: r}, s); e.Group != "GID_AUDIT" {
			t.Errorf("key %q shows %q; want GID_AUDIT, the group after GID_ORDER", r, e.Group)
		}
	}
	one := screen(t, "en")
	if len(one.Layout.Groups) != 0 {
		t.Errorf("one group has tabs %+v", one.Layout.Groups)
	}
	if e := c.Handle(Event{Kind: Key, Rune: 'g'}, one); e.Group != "" {
		t.Errorf("g with one group: %+v", e)
	}
}

// The menu follows the screen: worded in the page's language, it closes when the language
// changes or its consumer leaves the canvas.
func TestMenuFollowsTheScreen(t *testing.T) {
	var c Controller
	zh := screen(t, "zh")
	x, y := consumerAt(t, zh, "c1")
	c.Handle(Event{Kind: Click, X: x, Y: y}, zh)
	kill, _ := cluster.Lookup("killConsumer")
	if c.Menu == nil || c.Menu.Items[0].Label != kill.WordsIn("zh").Label {
		t.Fatalf("the menu in Chinese: %+v", c.Menu)
	}
	c.Follow(zh)
	if c.Menu == nil {
		t.Fatal("the menu closed on an unchanged screen")
	}
	en := screen(t, "en")
	c.Follow(en)
	if c.Menu != nil {
		t.Error("the menu stayed open after the language changed")
	}

	x, y = consumerAt(t, en, "c1")
	c.Handle(Event{Kind: Click, X: x, Y: y}, en)
	snap := *en.Snap
	snap.Consumers = snap.Consumers[1:]
	gone := en
	gone.Snap, gone.Layout = &snap, view.ComputeLang(&snap, en.Stage, "en")
	c.Follow(gone)
	if c.Menu != nil {
		t.Error("the menu of c1 stayed open after c1 left")
	}
}

// A stopped consumer's menu offers what its status allows: restart only.
func TestMenuOfAStoppedConsumer(t *testing.T) {
	s := screen(t, "en")
	snap := *s.Snap
	snap.Consumers = append([]cluster.ConsumerView(nil), snap.Consumers...)
	snap.Consumers[0].Status = cluster.StatusStopped
	s.Snap = &snap
	var c Controller
	x, y := consumerAt(t, s, snap.Consumers[0].ID)
	c.Handle(Event{Kind: Click, X: x, Y: y}, s)
	if c.Menu == nil || len(c.Menu.Items) != 1 || c.Menu.Items[0].Key != "restartConsumer" {
		t.Fatalf("menu of a stopped consumer: %+v; want restart only", c.Menu)
	}
}

func itoa(n int) string     { return strconv.Itoa(n) }
func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// proxyScreen is a run with a proxy (testdata's grpc-proxy-killed at 20 s), proxy-1 killed
// when down, as a 960×600 canvas shows it.
func proxyScreen(t *testing.T, down bool) Screen {
	t.Helper()
	data, err := os.ReadFile("../../testdata/scenarios/grpc-proxy-killed.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := cluster.New(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	cl.Advance(20000)
	if down {
		if err := cl.Apply(cluster.Command{Type: "killProxy", Proxy: "proxy-1"}); err != nil {
			t.Fatal(err)
		}
		cl.Advance(21000)
	}
	all := cl.Snapshot()
	snap := view.Project(&all, "")
	stage := view.Rect{W: 960, H: 600}
	return Screen{Snap: &snap, Layout: view.ComputeLang(&snap, stage, "en"), Stage: stage, Speed: 1, Lang: "en"}
}

// A click on a proxy opens its menu, the command table's proxy commands that apply from its
// status; its item sends the command for that proxy. The menu closes when the proxy is gone.
func TestProxyMenu(t *testing.T) {
	for _, tc := range []struct {
		down bool
		item string
	}{{false, "killProxy"}, {true, "restoreProxy"}} {
		s := proxyScreen(t, tc.down)
		b, ok := s.Layout.Proxy("proxy-1")
		if !ok {
			t.Fatal("no proxy-1 on the canvas")
		}
		var c Controller
		x, y := centre(b.Rect)
		c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		if c.Menu == nil || c.Menu.Kind != view.HitProxy || c.Menu.Target != "proxy-1" {
			t.Fatalf("down=%v: menu %+v after a click on proxy-1", tc.down, c.Menu)
		}
		c.Follow(s)
		if c.Menu == nil {
			t.Fatal("the menu closed while its proxy is there")
		}
		x, y = itemAt(t, &c, tc.item)
		e := c.Handle(Event{Kind: Click, X: x, Y: y}, s)
		if len(e.Commands) != 1 || e.Commands[0].Type != tc.item || e.Commands[0].Proxy != "proxy-1" || c.Menu != nil {
			t.Errorf("down=%v: %+v, menu %v; want %s of proxy-1", tc.down, e.Commands, c.Menu, tc.item)
		}
	}
	s := proxyScreen(t, false)
	b, _ := s.Layout.Proxy("proxy-1")
	var c Controller
	x, y := centre(b.Rect)
	c.Handle(Event{Kind: Click, X: x, Y: y}, s)
	c.Follow(screen(t, "en")) // a run without proxies
	if c.Menu != nil {
		t.Errorf("the menu of a proxy that is gone stays open: %+v", c.Menu)
	}
}
