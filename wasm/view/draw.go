package view

import (
	"math"
	"strconv"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/scenario"
)

// Frame is everything one drawing of the playground reads.
type Frame struct {
	Snap   *cluster.Snapshot
	Layout *Layout
	Paused bool
	Speed  float64
	WallMs float64   // wall-clock time, for the rebalance animation
	Anim   *Animator // nil: no animation
	Menu   *Menu     // the open click menu, if any
	// Hover is the pointer's position; HoverOK says whether it is over the canvas.
	HoverX, HoverY float64
	HoverOK        bool
	// Lang is the language of the canvas's words: EN (also when empty) or ZH.
	Lang string
	// Reduced is the reader's prefers-reduced-motion: nothing moves but what the
	// simulation's state moves (no travelling messages, countdowns in whole seconds).
	Reduced bool
	// Legend shows the legend of the canvas's marks (LegendCard).
	Legend bool
	// Observed is the scenario's history read from logs, whose holdings the hover card of a
	// queue quotes; the queues' logged owners come with the snapshot (QueueView.Observed).
	Observed *scenario.Observed
	// All is the whole snapshot when Snap is the part of it the canvas shows (one group of a
	// run with several, Pick.Of); nil: Snap is all of it.
	All *cluster.Snapshot
}

// all is the whole snapshot f shows a part of.
func (f Frame) all() *cluster.Snapshot {
	if f.All != nil {
		return f.All
	}
	return f.Snap
}

// Limits of what a frame draws.
const (
	MaxMessages         = 32    // travelling message dots
	rebalancePeriodMs   = 20000 // RocketMQ's rebalance wait interval: the countdown bar's full width
	fullBacklog         = 10000 // a backlog bar is full at this many messages (log scale)
	messageDot          = 8.0   // 12 CSS px in presenter mode
	isolationRingRadius = 5.0
)

// Draw adds the frame's triangles to c, layer by layer. It only reads f.
func Draw(c *Canvas, f Frame) {
	s, l := f.Snap, f.Layout
	brokers, consumers := c.lookups(s)
	anomaly := map[string]string{}
	for _, a := range s.Anomalies {
		if a.End == 0 {
			anomaly[a.Queue] = a.Kind
		}
	}
	hoverKind, hoverID := "", ""
	if f.HoverOK && (f.Menu == nil || !f.Menu.Contains(f.HoverX, f.HoverY)) {
		hoverKind, hoverID = l.HitTest(f.HoverX, f.HoverY)
	}

	waiting := FirstRebalancePending(s)
	drawHeader(c, f)
	if len(l.Groups) > 0 {
		drawGroups(c, f, hoverKind, hoverID)
	}
	for _, b := range l.Brokers {
		drawBroker(c, b, brokers[b.Name], s.TimeMs, f.Lang)
		if bv := brokers[b.Name]; bv != nil {
			drawMeter(c, b, bv, f.Lang)
		}
		if len(b.Bands) > 0 {
			drawBands(c, l, b, brokers[b.Name], f.Lang)
		}
	}
	drawLines(c, f, consumers, hoverKind, hoverID)
	runs, inRun := ownerRuns(s, l, brokers, anomaly)
	tagged := false // some consumer filters by tag: its cells are marked (drawCell)
	for i := range s.Consumers {
		tagged = tagged || len(s.Consumers[i].Tags) > 0
	}
	for i := range s.Queues {
		q := &s.Queues[i]
		cell, ok := l.cellOf(i, q.Queue)
		if !ok {
			continue
		}
		if len(l.Bands) > 0 && l.Bands[cell.band].Kind == BandDLQ {
			drawDeadLetters(c, l, cell, q, brokers[q.Broker])
			continue
		}
		drawCell(c, l, cell, q, brokers[q.Broker], consumers, anomaly[q.Queue], inRun[q.Queue], waiting, tagged)
		if LoggedDiffers(q) {
			drawLogged(c, l, cell.Rect, q, f.Lang)
		}
		if q.LockedBy != "" {
			if bv := brokers[q.Broker]; bv == nil || !bv.Down {
				drawLock(c, l, cell.Rect, q)
			}
		}
	}
	for _, r := range runs {
		m := l.Marks[r.owner]
		col := m.Color
		if cv := consumers[r.owner]; cv != nil && cv.Status == cluster.StatusPartitioned {
			col = col.Alpha(0.45)
		}
		for _, g := range r.gaps {
			c.Rect(LayerCells, g, col)
		}
		c.Text(LayerMarks, r.X+(r.W-TextWidth(m.Label))/2, r.Y+(r.H-GlyphH)/2, m.Label, m.Ink)
	}
	for _, p := range s.Producers {
		box, ok := l.Producer(p.ID)
		if !ok {
			continue
		}
		c.Rect(LayerMarks, box.Rect, Panel)
		c.Frame(LayerMarks, box.Rect, 1, Border)
		label := Fit(p.ID+" "+strconv.Itoa(p.Rate)+"/s", box.W-6)
		c.Text(LayerMarks, box.X+(box.W-TextWidth(label))/2, box.Y+(box.H-GlyphH)/2, label, TextColor)
	}
	for i := range s.Proxies {
		if box, ok := l.Proxy(s.Proxies[i].Name); ok {
			drawProxy(c, box, &s.Proxies[i], f.Lang, hoverKind == HitProxy && hoverID == box.ID)
		}
	}
	if !f.Reduced {
		drawMessages(c, f)
	}
	mixed := mixedClients(s)
	for _, b := range l.Consumers {
		if cv := consumers[b.ID]; cv != nil {
			drawConsumer(c, f, b, cv, hoverKind == HitConsumer && hoverID == b.ID, mixed)
		}
	}
	// A consumer's view card: beside its open menu, or where the pointer hovers it.
	switch {
	case f.Menu != nil && f.Menu.Kind == HitConsumer:
		if card := ViewCard(f, f.Menu.Target); card != nil {
			drawCard(c, f, card, consumers)
		}
	case f.Menu == nil && hoverKind == HitConsumer:
		if card := ViewCard(f, hoverID); card != nil {
			drawCard(c, f, card, consumers)
		}
	}
	if f.Legend {
		if lg := LegendCard(f); lg != nil {
			drawLegend(c, f, lg)
		}
	}
	if f.Menu != nil {
		drawMenu(c, f.Menu, f.HoverX, f.HoverY, f.HoverOK)
	} else if hoverKind != "" && hoverKind != HitConsumer && hoverKind != HitLegend && hoverKind != HitGroup {
		drawTooltip(c, f, hoverKind, hoverID)
	}
}

// Clock formats virtual time as mm:ss.t (h:mm:ss.t past an hour).
func Clock(ms int64) string { return cluster.ClockTenths(ms) }

// SpeedText is a speed as the header shows it: "x0.25", "x10".
func SpeedText(x float64) string {
	return "x" + strconv.FormatFloat(x, 'g', 4, 64)
}

// FirstRebalancePending reports whether the group is still on its way to its first
// rebalance: every consumer started (alive, or idle with nothing yet), none holding a queue
// or a decided round. Its queues are
// then unassigned, not orphaned, and the canvas draws them so (no warning, no "?").
func FirstRebalancePending(s *cluster.Snapshot) bool {
	if len(s.Consumers) == 0 {
		return false
	}
	for i := range s.Consumers {
		cv := &s.Consumers[i]
		if (cv.Status != cluster.StatusAlive && cv.Status != cluster.StatusIdle) || len(cv.Queues) > 0 || !cv.View.IsZero() {
			return false
		}
	}
	for _, a := range s.Anomalies {
		if a.Kind == "orphan" {
			return false
		}
	}
	return true
}

// HeaderRight is what the header says at its right: the duplicates and the lost, the unread
// when there are any, or, before the first rebalance, what the queues wait for.
func HeaderRight(f Frame) string {
	m := f.Snap.Metrics
	switch {
	case FirstRebalancePending(f.Snap):
		return Word(f.Lang, "canvas.waiting")
	case m.Unread > 0:
		// Messages in write queues beyond the read count: nobody will ever read them.
		return Word(f.Lang, "canvas.unread", m.Unread) + "  " + Word(f.Lang, "canvas.dupLost", m.Duplicates, m.Lost)
	}
	return Word(f.Lang, "canvas.dupLost", m.Duplicates, m.Lost)
}

func drawHeader(c *Canvas, f Frame) {
	if lb := f.Layout.LegendButton; lb.W > 0 {
		// The legend's button: pressed while the legend shows.
		if f.Legend {
			c.Rect(LayerMarks, lb, Highlight)
		}
		c.Frame(LayerMarks, lb, 1, Border)
		word := Word(f.Lang, "canvas.legend.button")
		c.Text(LayerMarks, lb.X+(lb.W-TextWidth(word))/2, lb.Y, word, TextColor)
	}
	h := f.Layout.Header
	if h.W <= 0 {
		return
	}
	left := Clock(f.Snap.TimeMs) + " " + SpeedText(f.Speed)
	if f.Paused {
		left += " " + Word(f.Lang, "canvas.paused")
	}
	left += " " + f.Snap.Strategy
	if f.Snap.MessageModel == cluster.Broadcasting {
		left += " " + Word(f.Lang, "canvas.broadcast")
	}
	if f.Snap.LatencyFault {
		left += " " + Word(f.Lang, "canvas.lf")
	}
	left = Fit(left, h.W)
	c.Text(LayerMarks, h.X, h.Y, left, TextColor)
	m := f.Snap.Metrics
	right := HeaderRight(f)
	if free := h.W - TextWidth(left) - 14; TextWidth(right) <= free {
		col := Dim
		if m.Duplicates > 0 || m.Lost > 0 || m.Unread > 0 {
			col = Slow
		}
		c.Text(LayerMarks, h.Right()-TextWidth(right), h.Y, right, col)
	}
}

func drawBroker(c *Canvas, b BrokerBox, bv *cluster.BrokerView, now int64, lang string) {
	if bv == nil {
		return
	}
	bg, border := Panel, Border
	if bv.Down {
		bg, border = PanelDown, Warn.Alpha(0.8)
	}
	c.Rect(LayerBack, b.Rect, bg)
	c.Frame(LayerBack, b.Rect, 1, border)
	t := b.Title
	x := t.X + brokerPad
	right := t.Right() - brokerPad
	if iso := isolated(bv, now); iso > 0 {
		cx, cy := right-isolationRingRadius, t.Y+t.H/2
		c.Disc(LayerMarks, cx, cy, isolationRingRadius, Dead)
		c.Ring(LayerMarks, cx, cy, 0, isolationRingRadius, -math.Pi/2, -math.Pi/2+2*math.Pi*iso, Slow)
		right -= 2*isolationRingRadius + 3
	}
	label := b.Label
	status := ""
	switch {
	case bv.Down:
		status = Word(lang, "canvas.DOWN")
	case bv.Removed:
		status = Word(lang, "canvas.removed") // out of the name server's routes
	case permWords[bv.Perm] != "":
		status = Word(lang, permWords[bv.Perm]) // read-only, write-only or neither
	case bv.LatencyMs > 0:
		status = "+" + Word(lang, "canvas.ms", bv.LatencyMs) // the added latency, with its unit
	case isolated(bv, now) > 0:
		status = DurationIn(lang, bv.IsolatedForMs) // the fault table's tier that isolated it
	}
	if status != "" {
		status = Fit(status, right-x) // a narrow block shows what fits, inside it
		label = brokerLabel(b.Name, right-x-TextWidth(status)-4)
		col := Slow
		if bv.Down {
			col = Warn
		}
		c.Text(LayerMarks, right-TextWidth(status), t.Y+1, status, col)
	}
	if label != "" {
		col := TextColor
		if bv.Down {
			col = Dim
		}
		c.Text(LayerMarks, x, t.Y+1, label, col)
	}
	if bv.Down {
		// A down broker is crossed out, so its state does not hang on the border's colour.
		top := t.Bottom()
		if b.Meter.H > 0 {
			top = b.Meter.Bottom() // the meter row stays readable: its failures matter now
		}
		body := Rect{b.X, top, b.W, b.Bottom() - top}
		c.Line(LayerMarks, body.X+2, body.Y+2, body.Right()-2, body.Bottom()-2, 2, Warn.Alpha(0.7))
		c.Line(LayerMarks, body.Right()-2, body.Y+2, body.X+2, body.Bottom()-2, 2, Warn.Alpha(0.7))
	}
}

// drawProxy draws a proxy's box: a stripe at its left, its name, and the gRPC consumers
// registered on it now; a down one on the down panel, its frame doubled and its stripe in the
// warning colour, saying it is down in the place of the count. (No cross as over a killed
// consumer: over a box one line high it would run through the words.)
func drawProxy(c *Canvas, b Box, pv *cluster.ProxyView, lang string, hover bool) {
	r := b.Rect
	fill, border, borderW, stripe, name := Panel, Border, 1.0, Dim, TextColor
	right, rightCol := Word(lang, "canvas.proxy.consumers", len(pv.Clients)), Dim
	if pv.Down {
		fill, border, borderW, stripe, name = PanelDown, Warn, 2, Warn, Dim
		right, rightCol = Word(lang, "canvas.DOWN"), Warn
	}
	c.Rect(LayerMarks, r, fill)
	c.Rect(LayerMarks, Rect{r.X, r.Y, math.Min(proxyBand, r.W), r.H}, stripe)
	c.Frame(LayerMarks, r, borderW, border)
	if hover {
		c.Frame(LayerMarks, r.Inset(-2), 1, Bright)
	}
	words := func(x float64, s string, col Color) {
		c.Text(LayerMarks, x, r.Y+math.Floor((r.H-GlyphH)/2), s, col)
	}
	x := r.X + proxyBand + 4
	room := r.Right() - 4 - x
	label := b.ID
	if TextWidth(label)+8+TextWidth(right) > room {
		right = "" // the name first: the hover card says the rest
		if pv.Down {
			right = "!" // still visibly down where the words do not fit
		}
		if TextWidth(label)+4+TextWidth(right) > room {
			label = brokerLabel(b.ID, room-4-TextWidth(right))
		}
	}
	if label != "" {
		words(x, label, name)
	}
	if right != "" {
		words(r.Right()-4-TextWidth(right), right, rightCol)
	}
}

// permWords are the words of a broker's permission other than RW, in its title.
var permWords = map[string]string{cluster.PermR: "canvas.perm.R", cluster.PermW: "canvas.perm.W", cluster.PermNone: "canvas.perm.none"}

// isolated returns the remaining share (0…1] of a broker's avoidance, or 0.
func isolated(bv *cluster.BrokerView, now int64) float64 {
	if bv.IsolatedUntilMs <= now || bv.IsolatedForMs <= 0 {
		return 0
	}
	return clamp(float64(bv.IsolatedUntilMs-now)/float64(bv.IsolatedForMs), 0.02, 1)
}

// Duration formats a span compactly: "550ms", "30s", "2m", "1h".
func Duration(ms int64) string { return DurationIn(EN, ms) }

// DurationIn is Duration in lang ("30秒" in Chinese).
func DurationIn(lang string, ms int64) string {
	switch {
	case ms < 1000:
		return Word(lang, "canvas.ms", ms)
	case ms < 60000 || ms%60000 != 0:
		return Word(lang, "canvas.s", strconv.FormatFloat(float64(ms)/1000, 'f', -1, 64))
	case ms < 3600000 || ms%3600000 != 0:
		return Word(lang, "canvas.m", ms/60000)
	}
	return Word(lang, "canvas.h", ms/3600000)
}

// anchor is where a consumer's lines attach: the middle of its box's top edge.
func anchor(b Box) (float64, float64) { return b.X + b.W/2, b.Y }

func drawLines(c *Canvas, f Frame, consumers map[string]*cluster.ConsumerView, hoverKind, hoverID string) {
	l := f.Layout
	for i, q := range f.Snap.Queues {
		cell, ok := l.cellOf(i, q.Queue)
		if !ok {
			continue
		}
		for _, o := range q.Owners {
			to, ok := l.Consumer(o)
			if !ok {
				continue
			}
			tx, ty := anchor(to)
			from, t := f.Anim.From(q.Queue, o, f.WallMs)
			if t < 1 {
				fx, fy := l.wire(cell, tx, ty).exit() // a new owner's line grows from where it leaves the grid
				if fb, ok := l.Consumer(from); ok && from != "" {
					fx, fy = anchor(fb)
				}
				tx, ty = lerp(fx, tx, t), lerp(fy, ty, t)
			}
			m := l.Marks[o]
			alpha := float32(0.45)
			if len(f.Snap.Queues) > 64 {
				alpha = 0.25 // hundreds of lines: keep them a texture, not a wall
			}
			width := 1.0
			switch {
			case hoverKind == HitConsumer && hoverID == o, hoverKind == HitQueue && hoverID == q.Queue:
				alpha, width = 1, 2
			case hoverKind == HitConsumer:
				alpha = 0.15
			}
			if cv := consumers[o]; cv != nil && cv.Status == cluster.StatusPartitioned {
				alpha *= 0.5
			}
			if t < 1 {
				alpha, width = 1, 2
			}
			drawWire(c, l.wire(cell, tx, ty), width, m.Color.Alpha(alpha))
		}
	}
	// A consumer cut off from the network still holds its process queues, but pulls nothing:
	// the queues count as orphans, and its ghost lines are faint.
	for _, cv := range f.Snap.Consumers {
		if cv.Status != cluster.StatusPartitioned {
			continue
		}
		to, ok := l.Consumer(cv.ID)
		if !ok {
			continue
		}
		tx, ty := anchor(to)
		for _, q := range cv.Queues {
			if cell, ok := l.Cell(q); ok {
				drawWire(c, l.wire(cell, tx, ty), 1, l.Marks[cv.ID].Color.Alpha(0.2))
			}
		}
	}
}

// drawWire draws a line's path (Layout.wire) segment by segment.
func drawWire(c *Canvas, w wire, width float64, col Color) {
	for i := 1; i < w.n; i++ {
		a, b := w.pts[i-1], w.pts[i]
		c.Line(LayerLines, a[0], a[1], b[0], b[1], width, col)
	}
}

type countdownKey struct {
	lang string
	s    int64
}

// countdown is Word(lang, "canvas.countdown", s), formatted once and kept: every tall box
// says its countdown each frame, and it changes once a second.
func (c *Canvas) countdown(lang string, s int64) string {
	k := countdownKey{lang, s}
	if w, ok := c.countdowns[k]; ok {
		return w
	}
	if c.countdowns == nil || len(c.countdowns) >= 256 {
		c.countdowns = make(map[countdownKey]string) // a few dozen in use: the rebalance interval's seconds
	}
	w := Word(lang, "canvas.countdown", s)
	c.countdowns[k] = w
	return w
}

// brokerViews indexes the snapshot's brokers by name.
func brokerViews(s *cluster.Snapshot) map[string]*cluster.BrokerView {
	brokers := make(map[string]*cluster.BrokerView, len(s.Brokers))
	for i := range s.Brokers {
		brokers[s.Brokers[i].Name] = &s.Brokers[i]
	}
	return brokers
}

// lookups indexes the snapshot's brokers (as brokerViews) and consumers by name, for Draw,
// in maps the canvas keeps from frame to frame: made anew, they were most of what a frame's
// drawing allocated.
func (c *Canvas) lookups(s *cluster.Snapshot) (map[string]*cluster.BrokerView, map[string]*cluster.ConsumerView) {
	if c.brokers == nil {
		c.brokers = make(map[string]*cluster.BrokerView, len(s.Brokers))
		c.consumers = make(map[string]*cluster.ConsumerView, len(s.Consumers))
	}
	clear(c.brokers)
	clear(c.consumers)
	for i := range s.Brokers {
		c.brokers[s.Brokers[i].Name] = &s.Brokers[i]
	}
	for i := range s.Consumers {
		c.consumers[s.Consumers[i].ID] = &s.Consumers[i]
	}
	return c.brokers, c.consumers
}

// ownerRun is a column of consecutive queues of one broker with the same single owner.
type ownerRun struct {
	owner string
	Rect
	gaps []Rect // between its cells, filled so the label reads as one block
}

// ownerRuns finds, when the cells are too short for an owner's label but wide enough, the
// runs of two or more queues one above the other that one consumer pulls alone, tall enough
// for its label: those cells carry one label for the range instead of a shape each. It
// returns the runs and the queues they cover.
func ownerRuns(s *cluster.Snapshot, l *Layout, brokers map[string]*cluster.BrokerView, anomaly map[string]string) ([]ownerRun, map[string]bool) {
	if l.CellText || len(l.Cells) == 0 || l.CellW < TextWidth("c64")+2 {
		return nil, nil
	}
	queues := make(map[string]*cluster.QueueView, len(s.Queues))
	for i := range s.Queues {
		queues[s.Queues[i].Queue] = &s.Queues[i]
	}
	sole := func(c Cell) string {
		q := queues[c.Queue]
		if q == nil || len(q.Owners) != 1 || anomaly[c.Queue] != "" {
			return ""
		}
		if bv := brokers[c.Broker]; bv == nil || bv.Down {
			return ""
		}
		return q.Owners[0]
	}
	var runs []ownerRun
	in := map[string]bool{}
	for i := 0; i < len(l.Cells); {
		o := sole(l.Cells[i])
		j := i + 1
		for o != "" && j < len(l.Cells) && l.Cells[j].Broker == l.Cells[i].Broker && l.Cells[j].band == l.Cells[i].band && l.Cells[j].X == l.Cells[i].X && sole(l.Cells[j]) == o {
			j++
		}
		first, last := l.Cells[i], l.Cells[j-1]
		r := Rect{first.X, first.Y, first.W, last.Bottom() - first.Y}
		if o != "" && j-i >= 2 && r.H >= GlyphH && TextWidth(l.Marks[o].Label)+2 <= r.W {
			run := ownerRun{owner: o, Rect: r}
			for k, c := range l.Cells[i:j] {
				in[c.Queue] = true
				if k > 0 {
					prev := l.Cells[i+k-1]
					run.gaps = append(run.gaps, Rect{c.X, prev.Bottom(), c.W, c.Y - prev.Bottom()})
				}
			}
			runs = append(runs, run)
		}
		i = j
	}
	return runs, in
}

// popLabel marks a queue its owners pop (POP): they share it.
const popLabel = "POP"

func drawCell(c *Canvas, l *Layout, cell Cell, q *cluster.QueueView, bv *cluster.BrokerView, consumers map[string]*cluster.ConsumerView, anomaly string, inRun, waiting, tagged bool) {
	r := cell.Rect
	down := bv != nil && bv.Down
	switch {
	case down:
		c.Rect(LayerCells, r, Dead)
	case len(q.Owners) == 0:
		c.Rect(LayerCells, r, Empty)
	default:
		// Overlapping owners share the cell in vertical strips.
		w := r.W / float64(len(q.Owners))
		for i, o := range q.Owners {
			col := l.Marks[o].Color
			if cv := consumers[o]; cv != nil && cv.Status == cluster.StatusPartitioned {
				col = col.Alpha(0.45)
			}
			if q.Access == cluster.AccessReadOnly {
				col = col.Alpha(0.3) // pulled, and no producer writes it: nothing flows
			}
			c.Rect(LayerCells, Rect{r.X + float64(i)*w, r.Y, w, r.H}, col)
		}
	}
	if q.Backlog > 0 && !down {
		frac := clamp(math.Log10(1+float64(q.Backlog))/math.Log10(1+fullBacklog), 0.08, 1)
		bh := math.Max(2, math.Round(r.H*0.18))
		c.Rect(LayerCells, Rect{r.X, r.Bottom() - bh, r.W * frac, bh}, Ink.Alpha(0.7))
	}
	if q.Invisible > 0 && !down {
		// Popped and not yet acked: invisible to every pop until acked or revived (spec §8.3.3),
		// a bar along the top as the backlog's along the bottom.
		frac := clamp(math.Log10(1+float64(q.Invisible))/math.Log10(1+fullBacklog), 0.08, 1)
		bh := math.Max(2, math.Round(r.H*0.18))
		c.Rect(LayerCells, Rect{r.X, r.Y, r.W * frac, bh}, Bright.Alpha(0.85))
	}
	// A queue its owners pop is shared by design (POP, spec §8.2.2): no overlap.
	overlap := !q.Popped && (anomaly == "overlap" || len(q.Owners) > 1)
	orphan := anomaly == "orphan" || (len(q.Owners) == 0 && !down)
	if orphan && waiting {
		// Not yet assigned: the first rebalance is on its way.
		c.Frame(LayerCells, r, 1, Border)
		return
	}
	if overlap || orphan {
		c.Frame(LayerCells, r, math.Max(1, math.Min(2, r.W/8)), Warn)
	}
	// The owner's mark: its label where it fits, else its shape.
	switch {
	case down:
	case overlap && l.CellText:
		drawCentered(c, r, "x"+strconv.Itoa(len(q.Owners)), White, Ink.Alpha(0.6))
	case q.Popped && l.CellText && TextWidth(popLabel)+2 <= r.W:
		drawCentered(c, r, popLabel, White, Ink.Alpha(0.6))
	case orphan && l.CellText && q.Access == cluster.AccessWriteOnly:
		drawCentered(c, r, "W", Warn, Color{}) // written, and beyond the read count: nobody can pull it
	case orphan && l.CellText:
		drawCentered(c, r, "?", Warn, Color{})
	case inRun: // its owner's label spans the run (ownerRuns)
	case len(q.Owners) == 1 && l.CellText:
		m := l.Marks[q.Owners[0]]
		c.Text(LayerMarks, r.X+(r.W-TextWidth(m.Label))/2, r.Y+(r.H-GlyphH)/2, m.Label, m.Ink)
	case len(q.Owners) >= 1:
		for i, o := range q.Owners {
			w := r.W / float64(len(q.Owners))
			m := l.Marks[o]
			drawShape(c, Rect{r.X + float64(i)*w, r.Y, w, r.H}, m.Shape, m.Ink)
		}
	}
	if tagged && !down && len(q.Owners) > 0 {
		// An owner that takes only some of the topic's tags: the rest of its messages are
		// filtered, consumed by no one of the group (spec §5.7).
		w := r.W / float64(len(q.Owners))
		for i, o := range q.Owners {
			if cv := consumers[o]; cv != nil && cv.Tags != nil && cv.Tags[q.Topic] != "" {
				drawFiltered(c, LayerMarks, Rect{r.X + float64(i)*w, r.Y, w, r.H}, l.Marks[o].Ink)
			}
		}
	}
}

// drawFiltered marks a cell whose owner filters its messages by tag: a corner cut off at its
// top left.
func drawFiltered(c *Canvas, layer Layer, r Rect, col Color) {
	s := math.Max(3, math.Min(7, math.Min(r.W, r.H)/3))
	c.Line(layer, r.X+1, r.Y+s+1, r.X+s+1, r.Y+1, 1.5, col)
	c.Line(layer, r.X+1, r.Y+s/2+1, r.X+s/2+1, r.Y+1, 1.5, col)
}

// drawDeadLetters draws a cell of the group's dead-letter topic: nobody consumes it, so it
// is no orphan; it holds the messages that failed too often, counted where they fit.
func drawDeadLetters(c *Canvas, l *Layout, cell Cell, q *cluster.QueueView, bv *cluster.BrokerView) {
	r := cell.Rect
	if bv != nil && bv.Down {
		c.Rect(LayerCells, r, Dead)
		return
	}
	c.Rect(LayerCells, r, Empty)
	c.Frame(LayerCells, r, 1, Slow)
	if n := strconv.FormatInt(q.MaxOffset, 10); l.CellText && TextWidth(n)+2 <= r.W {
		c.Text(LayerMarks, r.X+(r.W-TextWidth(n))/2, r.Y+(r.H-GlyphH)/2, n, Slow)
	}
}

// drawGroups draws the groups' tabs: each group's name and lag, the one shown pressed.
func drawGroups(c *Canvas, f Frame, hoverKind, hoverID string) {
	s := f.all()
	for _, tab := range f.Layout.Groups {
		var gv *cluster.GroupView
		for i := range s.Groups {
			if s.Groups[i].Name == tab.ID {
				gv = &s.Groups[i]
			}
		}
		if gv == nil {
			continue
		}
		r := tab.Rect
		shown := tab.ID == f.Layout.Group
		if shown {
			c.Rect(LayerMarks, r, Highlight)
			c.Frame(LayerMarks, r, 1, TextColor)
		} else {
			c.Frame(LayerMarks, r, 1, Border)
		}
		if hoverKind == HitGroup && hoverID == tab.ID {
			c.Frame(LayerMarks, r.Inset(-2), 1, Bright)
		}
		name, lag := tab.ID, Word(f.Lang, "canvas.group.lag", gv.Backlog)
		x, y, room := r.X+5, r.Y+(r.H-GlyphH)/2, r.W-10
		if TextWidth(name)+8+TextWidth(lag) > room {
			lag = ""
		}
		name = Fit(name, room)
		col := Dim
		if shown {
			col = TextColor
		}
		c.Text(LayerMarks, x, y, name, col)
		if lag != "" {
			lc := Dim
			if gv.Backlog > 0 {
				lc = Slow
			}
			c.Text(LayerMarks, r.Right()-5-TextWidth(lag), y, lag, lc)
		}
	}
}

// drawBands writes the label of each band of a broker's block over its cells; the group's
// retry and dead-letter topics are set apart by a rule over their label.
func drawBands(c *Canvas, l *Layout, b BrokerBox, bv *cluster.BrokerView, lang string) {
	bg := Panel
	if bv != nil && bv.Down {
		bg = PanelDown
	}
	for i, r := range b.Bands {
		if r.W == 0 || i >= len(l.Bands) {
			continue
		}
		bd := l.Bands[i]
		// Over the lines that pass under the cells above it.
		c.Rect(LayerCells, Rect{r.X, r.Y - bandGap, r.W, r.H + bandGap}, bg)
		col := TextColor
		if bd.Kind != BandTopic {
			col = Dim
			if i > 0 {
				c.Rect(LayerMarks, Rect{b.X + 1, r.Y - bandGap/2 - 0.5, b.W - 2, 1}, Border)
			}
		}
		c.Text(LayerMarks, r.X, r.Y, bandLabelIn(lang, bd, r.W), col)
	}
}

// drawCentered writes s in the middle of r on an optional backing.
func drawCentered(c *Canvas, r Rect, s string, col, back Color) {
	w := TextWidth(s)
	if w > r.W {
		return
	}
	x, y := r.X+(r.W-w)/2, r.Y+(r.H-GlyphH)/2
	if back.A > 0 {
		c.Rect(LayerMarks, Rect{math.Round(x) - 1, math.Round(y), w + 2, GlyphH}, back)
	}
	c.Text(LayerMarks, x, y, s, col)
}

// drawShape draws one of the Shape marks in r.
func drawShape(c *Canvas, r Rect, shape int, col Color) {
	s := math.Max(1, math.Floor(math.Min(r.W, r.H)/3))
	cx, cy := r.Center()
	switch shape {
	case ShapeDot:
		c.Rect(LayerMarks, Rect{cx - s/2, cy - s/2, s, s}, col)
	case ShapeHBar:
		c.Rect(LayerMarks, Rect{r.X + 1, cy - s/4 - 0.5, r.W - 2, math.Max(1, s/2)}, col)
	case ShapeVBar:
		c.Rect(LayerMarks, Rect{cx - s/4 - 0.5, r.Y + 1, math.Max(1, s/2), r.H - 2}, col)
	case ShapeCorner:
		c.Rect(LayerMarks, Rect{r.X, r.Y, s, s}, col)
	case ShapeHollow:
		c.Frame(LayerMarks, r.Inset(math.Max(1, s/2)), 1, col)
	case ShapeFoot:
		c.Rect(LayerMarks, Rect{r.Right() - s, r.Bottom() - s, s, s}, col)
	case ShapeCross:
		c.Rect(LayerMarks, Rect{r.X + 1, cy - 0.5, r.W - 2, 1}, col)
		c.Rect(LayerMarks, Rect{cx - 0.5, r.Y + 1, 1, r.H - 2}, col)
	}
}

// drawMessageDot draws a travelling message at (x, y): a square of messageDot units in col,
// outlined in the background's colour so that it stands out on a cell of any colour.
func drawMessageDot(c *Canvas, l Layer, x, y float64, col Color) {
	const d = messageDot
	c.Rect(l, Rect{x - d/2 - 1, y - d/2 - 1, d + 2, d + 2}, Background)
	c.Rect(l, Rect{x - d/2, y - d/2, d, d}, col)
}

// drawMessages draws the messages on their way: the animator's flights, which last long
// enough to be seen, or, without one, the snapshot's sends where the simulation has them.
// The dots are drawn over the cells, their trails under them.
func drawMessages(c *Canvas, f Frame) {
	flights := c.flights[:0]
	if f.Anim != nil {
		flights = f.Anim.Flights(f.Snap.TimeMs, f.WallMs, flights)
	} else {
		for _, m := range f.Snap.Sends {
			if m.ArriveAt > m.SentAt && len(flights) < MaxMessages {
				t := clamp(float64(f.Snap.TimeMs-m.SentAt)/float64(m.ArriveAt-m.SentAt), 0, 1)
				flights = append(flights, Flight{Producer: m.Producer, Queue: m.Queue, Late: m.Late, Resend: m.Resend, T: t})
			}
		}
	}
	c.flights = flights
	for _, m := range flights {
		p, ok1 := f.Layout.Producer(m.Producer)
		cell, ok2 := f.Layout.Cell(m.Queue)
		if !ok1 || !ok2 {
			continue
		}
		t := m.T
		px, py := p.X+p.W/2, p.Bottom()
		qx, qy := cell.Center()
		x, y := lerp(px, qx, t), lerp(py, qy, t)
		switch {
		case m.Late:
			// The producer already saw this send fail (a timeout); the broker stores it anyway.
			c.Line(LayerLines, px, py, x, y, 1, Warn.Alpha(0.5))
			drawMessageDot(c, LayerMarks, x, y, Warn)
		case m.Resend:
			// Sent again after an attempt on another broker failed.
			c.Line(LayerLines, px, py, x, y, 1, Slow.Alpha(0.5))
			drawMessageDot(c, LayerMarks, x, y, Slow)
		default:
			drawMessageDot(c, LayerMarks, x, y, Bright)
		}
	}
}

// StatusText is a consumer's status as its box shows it.
func StatusText(status string) string { return statusWord(EN, status) }

// StatusTextIn is StatusText in lang.
func StatusTextIn(lang, status string) string { return statusWord(lang, status) }

// ConsumerLook is how a consumer's box is drawn in a status: its fill (over the background),
// its border, the ink of its id and marks, the ink of its status line, and the colour of
// the cross over a killed one.
type ConsumerLook struct {
	Fill, Border, Ink, Status, Mark Color
	BorderW                         float64
}

// ConsumerLookOf is a consumer's look in status: a live one in its mark's colours; an idle
// one on the panel; a killed one on the panel, framed and crossed out in the warning colour,
// its words on strips of the panel over the cross; a stopped one on the panel with a dim frame; a cut-off one a ghost
// of its colour (brokers still list it) with its frame in its colour. Every status keeps
// its words at 4.5:1 and its frame at 3:1 or more (TestThemeContrast).
func ConsumerLookOf(status string, m Mark) ConsumerLook {
	l := ConsumerLook{Fill: m.Color, Border: m.Color, Ink: m.Ink, Status: m.Ink, Mark: m.Ink, BorderW: 1}
	switch status {
	case cluster.StatusIdle:
		l.Fill, l.Ink, l.Status, l.Mark = Panel, TextColor, TextColor, TextColor
	case cluster.StatusKilled:
		l.Fill, l.Border, l.Ink, l.Status, l.Mark, l.BorderW = Panel, Warn, TextColor, TextColor, Warn, 2
	case cluster.StatusStopped:
		l.Fill, l.Border, l.Ink, l.Status, l.Mark = Panel, Dim, TextColor, TextColor, Dim
	case cluster.StatusPartitioned:
		l.Fill = m.Color.Alpha(0.35) // a ghost: brokers still list it
		l.Ink, l.Status, l.Mark = TextColor, TextColor, TextColor
	}
	return l
}

// drawConsumer draws a consumer's box; mixed is mixedClients of the frame's snapshot.
func drawConsumer(c *Canvas, f Frame, b Box, cv *cluster.ConsumerView, hover, mixed bool) {
	l, now := f.Layout, f.Snap.TimeMs
	m := l.Marks[b.ID]
	r := b.Rect
	look := ConsumerLookOf(cv.Status, m)
	ink := look.Ink
	c.Rect(LayerMarks, r, look.Fill)
	c.Frame(LayerMarks, r, look.BorderW, look.Border)
	if hover {
		c.Frame(LayerMarks, r.Inset(-2), 1, Bright)
	}
	if cv.Status == cluster.StatusKilled {
		// Crossed out under the words, which stay readable over it.
		c.Line(LayerMarks, r.X+2, r.Y+2, r.Right()-2, r.Bottom()-2, 1.5, look.Mark)
		c.Line(LayerMarks, r.Right()-2, r.Y+2, r.X+2, r.Bottom()-2, 1.5, look.Mark)
	}
	// The SDK it runs (J, J4, Go), once the group is not all the default Java client: in a
	// tall box at the end of the status line, which keeps the room left of it; otherwise in
	// the bottom corner.
	mark, markW := "", 0.0
	want := ""
	switch {
	case cv.Kind != "":
		want = "gRPC" // a gRPC client through a proxy (spec §8.4), whatever the others run
	case mixed:
		want = cv.ClientMark
	}
	if want != "" && TextWidth(want)+4 < r.W {
		mark, markW = want, TextWidth(want)
		if l.ConsumerMode != ConsumerTall {
			c.Text(LayerMarks, r.Right()-markW-2, r.Bottom()-GlyphH, mark, ink.Alpha(0.8))
		}
	}
	remaining := float64(cv.NextRebalanceMs - now)
	if f.Reduced {
		remaining = math.Ceil(remaining/1000) * 1000 // the bar moves in the countdown's steps
	}
	live := cv.Status != cluster.StatusKilled && cv.Status != cluster.StatusStopped && cv.NextRebalanceMs > 0
	// The box's words; a killed one's on a strip of its fill, clear of the cross.
	words := func(x, y float64, s string, col Color) {
		if cv.Status == cluster.StatusKilled && s != "" {
			c.Rect(LayerMarks, Rect{math.Round(x) - 2, math.Round(y), TextWidth(s) + 4, GlyphH}, look.Fill)
		}
		c.Text(LayerMarks, x, y, s, col)
	}
	switch l.ConsumerMode {
	case ConsumerTall:
		label := ConsumerLabel(b.ID, m)
		words(r.X+(r.W-TextWidth(label))/2, r.Y+3, label, ink)
		line := StatusTextIn(f.Lang, cv.Status)
		switch {
		case cv.Status == cluster.StatusAlive && Restarted(cv):
			line = Word(f.Lang, "canvas.restarted") // a new process with a new client id (spec §1.2)
		case cv.Status == cluster.StatusAlive && live:
			line = c.countdown(f.Lang, max(0, int64(math.Ceil(remaining/1000))))
		}
		if cv.Kind != "" && TextWidth(line)+markW+7 > r.W {
			mark = "" // the status first: the hover card says gRPC too
		}
		room := r.W
		if mark != "" {
			room -= markW + 3
			c.Text(LayerMarks, r.Right()-markW-2, r.Y+3+GlyphH, mark, ink.Alpha(0.8))
		}
		line = Fit(line, room-4)
		words(r.X+(room-TextWidth(line))/2, r.Y+3+GlyphH, line, look.Status)
	case ConsumerCompact:
		label := ConsumerLabel(b.ID, m)
		words(r.X+(r.W-swatchW-TextWidth(label))/2, r.Y+1, label, ink)
		// A sample of the shape its cells carry when they are too small for its label.
		sw := Rect{r.Right() - swatchW, r.Y + 3, swatchW - 3, r.H - 8}
		c.Frame(LayerMarks, sw, 1, ink.Alpha(0.6))
		drawShape(c, sw.Inset(1), m.Shape, ink)
	default:
		drawShape(c, r, m.Shape, ink)
	}
	if l.ConsumerMode == ConsumerTall && !l.CellText {
		sw := Rect{r.X + 2, r.Y + 2, 7, 7}
		c.Frame(LayerMarks, sw, 1, ink.Alpha(0.6))
		drawShape(c, sw.Inset(1), m.Shape, ink)
	}
	if cv.Status == cluster.StatusHung {
		// Two pause bars in the corner: hung, whatever the box's size; in a tall box at the
		// start of its status line, clear of a long label.
		h := math.Min(8, r.H-4)
		x, y := r.Right()-7, r.Y+2
		if l.ConsumerMode == ConsumerTall {
			x, y = r.X+3, r.Y+3+GlyphH+(GlyphH-h)/2
		}
		c.Rect(LayerMarks, Rect{x, y, 2, h}, ink)
		c.Rect(LayerMarks, Rect{x + 3, y, 2, h}, ink)
	}
	if live && l.ConsumerMode != ConsumerTiny {
		frac := clamp(remaining/rebalancePeriodMs, 0, 1)
		bh := 3.0
		if l.ConsumerMode == ConsumerCompact {
			bh = 2
		}
		c.Rect(LayerMarks, Rect{r.X + 1, r.Bottom() - bh - 1, (r.W - 2) * frac, bh}, ink.Alpha(0.75))
	}
}

func drawMenu(c *Canvas, m *Menu, hx, hy float64, hoverOK bool) {
	c.Rect(LayerOverlay, m.Rect, Tooltip)
	c.Frame(LayerOverlay, m.Rect, 1, TextColor)
	c.Text(LayerOverlay, m.X+menuPad, m.Y+menuPad+(menuItemH-GlyphH)/2, m.Title, Dim)
	for i, it := range m.Items {
		if hoverOK && m.Hit(hx, hy) == i {
			c.Rect(LayerOverlay, it.Rect, Highlight)
		}
		c.Text(LayerOverlay, m.X+menuPad, it.Y+(menuItemH-GlyphH)/2, it.Label, TextColor)
	}
}

// TooltipLines are the short lines the canvas shows for what the pointer is over.
func TooltipLines(f Frame, kind, id string) []string {
	s, lang := f.Snap, f.Lang
	switch kind {
	case HitConsumer:
		for _, cv := range s.Consumers {
			if cv.ID != id {
				continue
			}
			lines := []string{cv.ID + " " + StatusTextIn(lang, cv.Status), Word(lang, "canvas.tip.queues", len(cv.Queues))}
			if f.Layout != nil {
				if m, ok := f.Layout.Marks[cv.ID]; ok && m.Label != cv.ID {
					lines[0] = m.Label + " · " + lines[0] // the number its cells carry, and its whole id
				}
			}
			if mixedClients(s) {
				lines[0] += " · " + cv.Client
			}
			if cv.NextRebalanceMs > s.TimeMs {
				lines[1] += Word(lang, "canvas.tip.rebalance", float64(cv.NextRebalanceMs-s.TimeMs)/1000)
			}
			if Restarted(&cv) {
				lines = append(lines, Word(lang, "canvas.tip.restarted", cv.ID, cv.ClientID))
			}
			switch cv.Kind {
			case cluster.KindGrpcPush:
				lines = append(lines, Word(lang, "canvas.tip.grpcPush", cv.Proxy))
			case cluster.KindGrpcSimple:
				lines = append(lines, Word(lang, "canvas.tip.grpcSimple", cv.Proxy))
			}
			lines = append(lines, Word(lang, "canvas.tip.consumed", cv.Consumed, cv.Cached))
			if cv.Subscription != "" {
				lines = append(lines, Word(lang, "canvas.tip.subscribes", cv.Subscription))
			}
			if len(cv.Topics) > 0 || len(cv.Tags) > 0 {
				lines = append(lines, memberLines(f, &cv)...)
			}
			return lines
		}
	case HitQueue:
		for _, q := range s.Queues {
			if q.Queue != id {
				continue
			}
			owner := Word(lang, "canvas.tip.orphan")
			switch {
			case len(q.Owners) == 0:
			case q.Popped:
				owner = Word(lang, "canvas.tip.popped", joinList(lang, q.Owners))
			case len(q.Owners) == 1:
				owner = Word(lang, "canvas.tip.pulledBy", q.Owners[0])
			default:
				owner = Word(lang, "canvas.tip.overlap", joinList(lang, q.Owners))
			}
			lines := []string{q.Queue, owner, Word(lang, "canvas.tip.backlog", q.Backlog, q.MaxOffset)}
			if len(s.Groups) > 0 {
				if bandKind(s.Group, q.Topic) == BandDLQ {
					// Nobody subscribes a dead-letter topic: no owner, no backlog, only its messages.
					return []string{q.Queue, Word(lang, "canvas.tip.topicGroup", q.Topic, s.Group), Word(lang, "canvas.tip.dlq", q.MaxOffset)}
				}
				lines = []string{lines[0], Word(lang, "canvas.tip.topicGroup", q.Topic, s.Group), lines[1], lines[2]}
			}
			for _, o := range q.Owners {
				for i := range s.Consumers {
					if cv := &s.Consumers[i]; cv.ID == o && cv.Tags[q.Topic] != "" {
						lines = append(lines, Word(lang, "canvas.tip.filters", o, cv.Tags[q.Topic]))
					}
				}
			}
			if q.Invisible > 0 {
				lines = append(lines, Word(lang, "canvas.tip.invisible", q.Invisible, Clock(q.InvisibleUntil)))
			}
			if q.LockedBy != "" {
				// An orderly group's lock on its broker: the holder's own, or a gone member's
				// that pauses the queue until it expires (spec §8.5).
				key := "canvas.tip.lockedAway"
				for _, o := range q.Owners {
					if o == q.LockedBy {
						key = "canvas.tip.locked"
					}
				}
				lines = append(lines, Word(lang, key, q.LockedBy, Clock(q.LockUntil)))
			}
			switch q.Access {
			case cluster.AccessWriteOnly:
				lines[1] = Word(lang, "canvas.tip.writeOnly")
			case cluster.AccessReadOnly:
				lines = append(lines, Word(lang, "canvas.tip.readOnly"))
			}
			return append(lines, loggedLines(f, &q)...)
		}
	case HitBroker:
		for _, b := range s.Brokers {
			if b.Name != id {
				continue
			}
			state := Word(lang, "canvas.tip.up")
			if b.Down {
				state = Word(lang, "canvas.tip.down")
			}
			lines := []string{b.Name + " " + state, Word(lang, "canvas.tip.latency", b.LatencyMs, b.Sends, b.Failures)}
			if b.Removed {
				lines = append(lines, Word(lang, "canvas.tip.removed"))
			}
			if permWords[b.Perm] != "" {
				lines = append(lines, Word(lang, "canvas.tip.perm", Word(lang, permWords[b.Perm])))
			}
			if b.IsolatedUntilMs > s.TimeMs {
				lines = append(lines, Word(lang, "canvas.tip.avoided", float64(b.IsolatedUntilMs-s.TimeMs)/1000, b.IsolatedForMs/1000))
			}
			lines = append(lines, Word(lang, "canvas.tip.lists", len(b.Consumers)))
			w := b.Window
			latest := "-"
			if b.SendLatencyMs > 0 {
				latest = DurationIn(lang, b.SendLatencyMs)
			}
			lines = append(lines, Word(lang, "canvas.tip.window", int(math.Round(w.Share*100)), cluster.SendWindowSeconds, latest))
			if w.Failed > 0 || w.Resent > 0 {
				lines = append(lines, Word(lang, "canvas.tip.windowFailed", w.Failed, w.Resent))
			}
			return lines
		}
	case HitProducer:
		for _, p := range s.Producers {
			if p.ID == id {
				return []string{Word(lang, "canvas.tip.rate", p.ID, p.Rate), Word(lang, "canvas.tip.sent", p.Sent)}
			}
		}
	case HitProxy:
		for _, p := range s.Proxies {
			if p.Name != id {
				continue
			}
			state := Word(lang, "canvas.tip.up")
			if p.Down {
				state = Word(lang, "canvas.tip.down")
			}
			lines := []string{p.Name + " " + state}
			if p.Down {
				lines = append(lines, Word(lang, "canvas.tip.proxyDown"))
			}
			if len(p.Clients) > 0 {
				lines = append(lines, Word(lang, "canvas.tip.proxyConsumers", joinList(lang, p.Clients)))
			} else {
				lines = append(lines, Word(lang, "canvas.tip.proxyNoConsumers"))
			}
			var producers []string
			for _, pv := range f.all().Producers {
				if pv.Kind == cluster.ProducerGrpc && pv.Proxy == p.Name {
					producers = append(producers, pv.ID)
				}
			}
			if len(producers) > 0 {
				lines = append(lines, Word(lang, "canvas.tip.proxyProducers", joinList(lang, producers)))
			}
			return lines
		}
	}
	return nil
}

func drawTooltip(c *Canvas, f Frame, kind, id string) {
	lines := TooltipLines(f, kind, id)
	if len(lines) == 0 {
		return
	}
	b := f.Layout.Bounds
	w := 0.0
	for i, s := range lines {
		lines[i] = Fit(s, b.W-12)
		w = max(w, TextWidth(lines[i]))
	}
	r := tooltipRect(f, kind, id, w+8, float64(len(lines))*GlyphH+6)
	c.Rect(LayerOverlay, r, Tooltip.Alpha(0.95))
	c.Frame(LayerOverlay, r, 1, Border)
	for i, s := range lines {
		c.Text(LayerOverlay, r.X+4, r.Y+3+float64(i*GlyphH), s, TextColor)
	}
}

// tooltipRect places a w×h tooltip for what the pointer is over: under or over the queue's
// cell, the broker's title or the producer's box, at the pointer's column, so that the thing
// it tells of stays in sight; beside the pointer where neither fits.
func tooltipRect(f Frame, kind, id string, w, h float64) Rect {
	b, l := f.Layout.Bounds, f.Layout
	x, y := f.HoverX+12, f.HoverY+14
	if x+w > b.Right() {
		x = f.HoverX - 12 - w
	}
	if y+h > b.Bottom() {
		y = f.HoverY - 8 - h
	}
	var target Rect
	switch kind {
	case HitQueue:
		cell, _ := l.Cell(id)
		target = cell.Rect
	case HitBroker:
		bb, _ := l.Broker(id)
		target = bb.Title
	case HitProducer:
		p, _ := l.Producer(id)
		target = p.Rect
	case HitProxy:
		p, _ := l.Proxy(id)
		target = p.Rect
	}
	if target.W > 0 {
		cands := []Rect{
			{f.HoverX - w/2, target.Bottom() + 4, w, h},
			{f.HoverX - w/2, target.Y - 4 - h, w, h},
			{x, y, w, h},
		}
		if r, ok := clearSpot(cands, target, nil, b); ok {
			return r
		}
	}
	return Rect{clamp(x, b.X, b.Right()-w), clamp(y, b.Y, b.Bottom()-h), w, h}
}

// memberLines are what a member of a group says on its card in a run with several topics or
// groups: what it subscribes (with its tags), the other groups the process is a member of,
// and its own strategy while a rolling deploy gave it one its group does not run.
func memberLines(f Frame, cv *cluster.ConsumerView) []string {
	lang := f.Lang
	subs := cv.Topics
	if len(subs) == 0 {
		subs = []string{f.Snap.Topic} // one topic: the run's
	}
	topics := make([]string, len(subs))
	for i, t := range subs {
		topics[i] = t
		if tags := cv.Tags[t]; tags != "" {
			topics[i] += ":" + tags
		}
	}
	lines := []string{Word(lang, "canvas.tip.topics", joinList(lang, topics))}
	var also []string
	for _, o := range f.all().Consumers {
		if o.ID == cv.ID && o.Group != cv.Group {
			also = append(also, o.Group)
		}
	}
	if len(also) > 0 {
		lines = append(lines, Word(lang, "canvas.tip.alsoIn", joinList(lang, also)))
	}
	if cv.Strategy != "" {
		lines = append(lines, Word(lang, "canvas.tip.ownStrategy", cv.Strategy, f.Snap.Strategy))
	}
	return lines
}

// mixedClients reports whether some consumer runs another client than the default Java one:
// then every consumer is marked with its SDK.
func mixedClients(s *cluster.Snapshot) bool {
	for _, cv := range s.Consumers {
		if cv.Client != "" && cv.Client != string(profile.Default) {
			return true
		}
	}
	return false
}
