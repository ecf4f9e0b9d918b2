package view

import (
	"strconv"

	"github.com/lbscope/lbscope/core/cluster"
)

// MenuItem is one choice of a click menu and the command it sends.
type MenuItem struct {
	Key   string // a stable name for tests: the command type, or "slowBroker:600"
	Label string
	Cmd   cluster.Command
	Rect
}

// Menu is the small menu a click on a consumer or a broker opens.
type Menu struct {
	Kind   string // HitConsumer or HitBroker
	Target string
	Title  string
	Rect
	Items []MenuItem
}

const (
	menuItemH = GlyphH + 5
	menuPad   = 4
)

// BrokerLatencies are the slow-broker choices of the broker menu, in milliseconds.
var BrokerLatencies = []int{0, 100, 600, 2000, 6000}

// ConsumerMenu is the menu of a consumer in its current status: what can be done to it,
// worded in lang.
func ConsumerMenu(c cluster.ConsumerView, x, y float64, bounds Rect, lang string) *Menu {
	cmd := func(typ string) cluster.Command { return cluster.Command{Type: typ, ID: c.ID} }
	var items []MenuItem
	add := func(typ, key string) {
		items = append(items, MenuItem{Key: typ, Label: Word(lang, "menu."+key), Cmd: cmd(typ)})
	}
	switch c.Status {
	case cluster.StatusAlive, cluster.StatusIdle:
		add("killConsumer", "kill")
		add("partitionConsumer", "partition")
		add("stopConsumer", "stop")
		add("hangConsumer", "hang")
	case cluster.StatusHung:
		add("resumeConsumer", "resume")
		add("killConsumer", "kill")
		add("partitionConsumer", "partition")
		add("stopConsumer", "stop")
	case cluster.StatusPartitioned:
		add("healConsumer", "heal")
		add("restartConsumer", "restart")
		add("killConsumer", "kill")
	default: // killed, stopped
		add("restartConsumer", "restart")
	}
	return place(&Menu{Kind: HitConsumer, Target: c.ID, Title: c.ID + " " + StatusTextIn(lang, c.Status), Items: items}, x, y, bounds)
}

// BrokerMenu is the menu of a broker: its latency choices, and kill or restore, worded in
// lang.
func BrokerMenu(b cluster.BrokerView, x, y float64, bounds Rect, lang string) *Menu {
	var items []MenuItem
	for _, ms := range BrokerLatencies {
		v := ms
		label := Word(lang, "menu.slow", ms)
		if ms == 0 {
			label = Word(lang, "menu.normal")
		}
		if ms == b.LatencyMs {
			label = "* " + label
		} else {
			label = "  " + label
		}
		items = append(items, MenuItem{Key: "slowBroker:" + strconv.Itoa(ms), Label: label,
			Cmd: cluster.Command{Type: "slowBroker", Broker: b.Name, LatencyMs: &v}})
	}
	if b.Down {
		items = append(items, MenuItem{Key: "restoreBroker", Label: "  " + Word(lang, "menu.restore"), Cmd: cluster.Command{Type: "restoreBroker", Broker: b.Name}})
	} else {
		items = append(items, MenuItem{Key: "killBroker", Label: "  " + Word(lang, "menu.killBroker"), Cmd: cluster.Command{Type: "killBroker", Broker: b.Name}})
	}
	title := b.Name
	if b.Down {
		title = Word(lang, "broker.down.title", b.Name)
	}
	return place(&Menu{Kind: HitBroker, Target: b.Name, Title: title, Items: items}, x, y, bounds)
}

// place sizes the menu and puts it beside (x, y), inside bounds.
func place(m *Menu, x, y float64, bounds Rect) *Menu {
	w := TextWidth(m.Title)
	for _, it := range m.Items {
		w = max(w, TextWidth(it.Label))
	}
	w += 2 * menuPad
	h := float64(len(m.Items)+1)*menuItemH + 2*menuPad
	mx, my := x+6, y+6
	if mx+w > bounds.Right() {
		mx = x - 6 - w
	}
	if my+h > bounds.Bottom() {
		my = bounds.Bottom() - h
	}
	m.Rect = Rect{clamp(mx, bounds.X, bounds.Right()-w), clamp(my, bounds.Y, bounds.Bottom()-h), w, h}
	for i := range m.Items {
		m.Items[i].Rect = Rect{m.X + 1, m.Y + menuPad + float64(i+1)*menuItemH, m.W - 2, menuItemH}
	}
	return m
}

// Hit returns the index of the item at (x, y); -1 when (x, y) is outside the menu, -2 when
// it is inside but on no item (the title).
func (m *Menu) Hit(x, y float64) int {
	if !m.Contains(x, y) {
		return -1
	}
	for i, it := range m.Items {
		if it.Contains(x, y) {
			return i
		}
	}
	return -2
}
