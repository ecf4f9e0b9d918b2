package view

import (
	"slices"
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

// Menu is the small menu a click on a consumer, a broker or a proxy opens.
type Menu struct {
	Kind   string // HitConsumer, HitBroker or HitProxy
	Target string
	Title  string
	Rect
	Items []MenuItem
}

const (
	// menuItemH is an item's height in layout units: 24 CSS pixels at least (a layout unit is
	// a CSS pixel or more), the target size a finger or a mouse hits (WCAG 2.2, 2.5.8).
	menuItemH = 24
	menuPad   = 4
	menuGap   = 4 // between a menu and the box it acts on
)

// BrokerLatencies are the slow-broker choices of the broker menu, in milliseconds (the
// command table's choices for slowBroker's latencyMs).
var BrokerLatencies = cluster.BrokerLatencies

// menuCommands are the command table's entries the click menu of a target offers from the
// status, in the table's order.
func menuCommands(target, status string) []*cluster.CommandSpec {
	var out []*cluster.CommandSpec
	for _, s := range cluster.Commands() {
		if s.Menu && s.Target == target && (s.From == nil || slices.Contains(s.From, status)) {
			out = append(out, s)
		}
	}
	return out
}

// ConsumerMenu is the menu of a consumer in its current status: what can be done to it (the
// command table's consumer commands that apply from the status), worded in lang.
func ConsumerMenu(c cluster.ConsumerView, x, y float64, bounds Rect, lang string) *Menu {
	var items []MenuItem
	for _, s := range menuCommands(cluster.TargetConsumer, c.Status) {
		items = append(items, MenuItem{Key: s.Name, Label: s.WordsIn(lang).Label, Cmd: cluster.Command{Type: s.Name, ID: c.ID}})
	}
	return place(&Menu{Kind: HitConsumer, Target: c.ID, Title: c.ID + " " + StatusTextIn(lang, c.Status), Items: items}, x, y, bounds)
}

// BrokerMenu is the menu of a broker: the command table's broker commands that apply from its
// status, one item per choice of an argument that offers choices (slowBroker's latencies),
// worded in lang.
func BrokerMenu(b cluster.BrokerView, x, y float64, bounds Rect, lang string) *Menu {
	status := cluster.BrokerUp
	if b.Down {
		status = cluster.BrokerDown
	}
	var items []MenuItem
	for _, s := range menuCommands(cluster.TargetBroker, status) {
		choice, ok := choiceArg(s)
		if !ok {
			items = append(items, MenuItem{Key: s.Name, Label: "  " + s.WordsIn(lang).Label, Cmd: cluster.Command{Type: s.Name, Broker: b.Name}})
			continue
		}
		for _, ms := range choice.Choices {
			v := ms
			label := Word(lang, "canvas.menu.slow", ms)
			if ms == 0 {
				label = Word(lang, "canvas.menu.normal")
			}
			if ms == b.LatencyMs {
				label = "* " + label
			} else {
				label = "  " + label
			}
			cmd := cluster.Command{Type: s.Name, Broker: b.Name}
			cluster.SetIntArg(&cmd, choice.Name, v)
			items = append(items, MenuItem{Key: s.Name + ":" + strconv.Itoa(ms), Label: label, Cmd: cmd})
		}
	}
	title := b.Name
	if b.Down {
		title = Word(lang, "canvas.broker.down.title", b.Name)
	}
	return place(&Menu{Kind: HitBroker, Target: b.Name, Title: title, Items: items}, x, y, bounds)
}

// ProxyMenu is the menu of a proxy: the command table's proxy commands that apply from its
// status (up or down, as a broker's), worded in lang. A local-mode proxy, inside the brokers,
// stops and starts with them: no proxy command applies to it.
func ProxyMenu(p cluster.ProxyView, x, y float64, bounds Rect, lang string) *Menu {
	status := cluster.BrokerUp
	switch {
	case p.Mode == cluster.ProxyLocal:
		status = cluster.ProxyLocal
	case p.Down:
		status = cluster.BrokerDown
	}
	var items []MenuItem
	for _, s := range menuCommands(cluster.TargetProxy, status) {
		items = append(items, MenuItem{Key: s.Name, Label: s.WordsIn(lang).Label, Cmd: cluster.Command{Type: s.Name, Proxy: p.Name}})
	}
	title := p.Name
	if p.Down {
		title = Word(lang, "canvas.broker.down.title", p.Name) // "%s down", a broker's or a proxy's
	}
	return place(&Menu{Kind: HitProxy, Target: p.Name, Title: title, Items: items}, x, y, bounds)
}

// choiceArg is the command's argument that menus offer choices of.
func choiceArg(s *cluster.CommandSpec) (cluster.Arg, bool) {
	for _, a := range s.Args {
		if len(a.Choices) > 0 {
			return a, true
		}
	}
	return cluster.Arg{}, false
}

// place sizes the menu and puts it beside (x, y), inside bounds.
func place(m *Menu, x, y float64, bounds Rect) *Menu {
	w := TextWidth(m.Title)
	for _, it := range m.Items {
		w = max(w, TextWidth(it.Label))
	}
	w = max(w+2*menuPad, menuItemH)
	h := float64(len(m.Items)+1)*menuItemH + 2*menuPad
	mx, my := x+6, y+6
	if mx+w > bounds.Right() {
		mx = x - 6 - w
	}
	if my+h > bounds.Bottom() {
		my = bounds.Bottom() - h
	}
	m.moveTo(Rect{clamp(mx, bounds.X, bounds.Right()-w), clamp(my, bounds.Y, bounds.Bottom()-h), w, h})
	return m
}

// moveTo puts the menu at r, its items under its title.
func (m *Menu) moveTo(r Rect) {
	m.Rect = r
	for i := range m.Items {
		m.Items[i].Rect = Rect{m.X + 1, m.Y + menuPad + float64(i+1)*menuItemH, m.W - 2, menuItemH}
	}
}

// Beside moves the menu off the box it acts on, so that the consumer, broker or proxy stays
// in sight while its menu is open: a consumer's menu goes above its box (clear of the other
// consumers where it can), else beside or under it; a broker's beside its block, else under
// or over it; a proxy's under its box (at the top of the stage), else beside or over it. Where no place in bounds is clear of the box (a block that fills the stage),
// the menu stays where it was.
func (m *Menu) Beside(l *Layout, bounds Rect) *Menu {
	if l == nil {
		return m
	}
	var target Rect
	var others []Rect
	switch m.Kind {
	case HitConsumer:
		b, ok := l.Consumer(m.Target)
		if !ok {
			return m
		}
		target = b.Rect
		for _, c := range l.Consumers {
			others = append(others, c.Rect)
		}
	case HitBroker:
		b, ok := l.Broker(m.Target)
		if !ok {
			return m
		}
		target = b.Rect
	case HitProxy:
		b, ok := l.Proxy(m.Target)
		if !ok {
			return m
		}
		target = ProxyHit(b)
	default:
		return m
	}
	w, h := m.W, m.H
	above := Rect{target.X, target.Y - menuGap - h, w, h}
	right := Rect{target.Right() + menuGap, target.Bottom() - h, w, h}
	left := Rect{target.X - menuGap - w, target.Bottom() - h, w, h}
	below := Rect{target.X, target.Bottom() + menuGap, w, h}
	cands := []Rect{above, right, left, below}
	switch m.Kind {
	case HitBroker:
		right.Y, left.Y = target.Y, target.Y
		cands = []Rect{right, left, below, above}
	case HitProxy:
		right.Y, left.Y = target.Y, target.Y
		cands = []Rect{below, left, right, above}
	}
	if r, ok := clearSpot(cands, target, others, bounds); ok {
		m.moveTo(r)
	}
	return m
}

// clearSpot is the first of cands, each moved inside bounds, that covers neither target nor
// any of others; failing that, the first that leaves target clear. ok is false when every
// one covers target.
func clearSpot(cands []Rect, target Rect, others []Rect, bounds Rect) (Rect, bool) {
	for i := range cands {
		cands[i].X = clamp(cands[i].X, bounds.X, bounds.Right()-cands[i].W)
		cands[i].Y = clamp(cands[i].Y, bounds.Y, bounds.Bottom()-cands[i].H)
	}
	for _, all := range []bool{true, false} {
	next:
		for _, r := range cands {
			if r.Overlaps(target) {
				continue
			}
			if all {
				for _, o := range others {
					if r.Overlaps(o) {
						continue next
					}
				}
			}
			return r, true
		}
	}
	return Rect{}, false
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
