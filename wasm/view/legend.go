package view

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/lbscope/lbscope/core/cluster"
)

// The legend: every mark the canvas draws, drawn once more as a sample beside what it
// means, in the canvas's language; and, when the consumers' labels are not their ids (an
// imported group's ip@pid), which label is which id. The header's button, the l key and the
// page's Legend button show and hide it.

// Samples a legend row draws at its left.
const (
	SampleHeader    = iota // "x1 AVG LF"
	SampleCountdown        // a consumer's "17s" over its bar
	SampleMeter            // a broker's "25% ▬ 4ms"
	SampleBacklog          // a cell's backlog bar
	SampleOverlap          // a cell pulled by two: "x2" in a warning frame
	SampleOrphan           // a cell pulled by nobody: "?" in a warning frame
	SampleMessage          // a message on its way
	SampleResent           // a message sent again
	SampleLate             // a message the producer saw fail
	SampleIsolated         // a broker's avoidance ring
	SampleKilled           // a killed consumer's box
	SampleHung             // a hung consumer's pause bars
	SampleCutOff           // a cut-off consumer's ghost
	SampleMark             // a consumer's label and colour, for its whole id
	// With a history read from logs (logged.go):
	SampleLogged       // the logs name another owner: a frame inside the cell, "log: 2"
	SampleLoggedTwice  // the logs show it held twice: the frame doubled
	SampleLoggedNobody // the logs show nobody holding it: the frame dashed
	// With several topics or groups (groups.go):
	SampleGroup    // a group's tab with its lag
	SampleBand     // a topic's name over its cells
	SampleRetry    // the retry topic's band, set apart
	SampleDLQ      // a dead-letter cell
	SampleFiltered // a cell whose owner filters by tag
	// With an orderly group's locks (lock.go):
	SampleLocked     // its owner's lock: a padlock in the owner's ink
	SampleLockedAway // another or a gone member's lock: a red padlock, its colour inside
	// With a group that pops (POP, pop marks in draw.go):
	SamplePop       // a queue its members pop, shared: strips and "POP"
	SampleInvisible // messages popped and not acked: a bar along the top
	// With RocketMQ 5 proxies (drawProxy):
	SampleProxy // a proxy's box: its stripe and its clients' count
)

// popKeys are the dictionary's words for the samples of a group that pops.
var popKeys = [...]string{"canvas.legend.pop", "canvas.legend.invisible"}

// hasPops reports whether a queue of the snapshot is popped.
func hasPops(s *cluster.Snapshot) bool {
	for i := range s.Queues {
		if s.Queues[i].Popped {
			return true
		}
	}
	return false
}

// groupKeys are the dictionary's words for the samples of a run with several topics or groups.
var groupKeys = [...]string{"canvas.legend.group", "canvas.legend.band", "canvas.legend.retry", "canvas.legend.dlq", "canvas.legend.filtered"}

// lockKeys are the dictionary's words for the samples of an orderly group's locks.
var lockKeys = [...]string{"canvas.legend.locked", "canvas.legend.lockedAway"}

// loggedKeys are the dictionary's words for the samples of a history read from logs.
var loggedKeys = [...]string{"canvas.legend.logged", "canvas.legend.loggedTwice", "canvas.legend.loggedNobody"}

// legendKeys are the dictionary's words for each sample but SampleMark, in their order.
var legendKeys = [...]string{
	SampleHeader: "canvas.legend.header", SampleCountdown: "canvas.legend.countdown", SampleMeter: "canvas.legend.meter",
	SampleBacklog: "canvas.legend.backlog", SampleOverlap: "canvas.legend.overlap", SampleOrphan: "canvas.legend.orphan",
	SampleMessage: "canvas.legend.message", SampleResent: "canvas.legend.resent", SampleLate: "canvas.legend.late",
	SampleIsolated: "canvas.legend.isolated", SampleKilled: "canvas.legend.killed", SampleHung: "canvas.legend.hung",
	SampleCutOff: "canvas.legend.cutOff",
}

// LegendRow is one row of the legend: a sample and what it means (its lines, wrapped).
type LegendRow struct {
	Sample   int
	Consumer string // SampleMark's consumer
	Lines    []string
}

// Legend is the placed legend.
type Legend struct {
	Rect
	Title   string
	SampleW float64 // the samples' column
	Rows    []LegendRow
	More    string // "+N more" consumers that did not fit
}

const (
	legendPad  = 6
	maxLegendW = 420
)

// legendButtonW is the header's legend button's width for lang.
func legendButtonW(lang string) float64 { return TextWidth(Word(lang, "canvas.legend.button")) + 10 }

// LegendHit is the legend button's target: its drawn box grown to 24 by 24 units at least
// (WCAG 2.2's target size), around the same centre.
func (l *Layout) LegendHit() Rect {
	r := l.LegendButton
	if r.W <= 0 {
		return r
	}
	w, h := math.Max(r.W, 24), math.Max(r.H, 24)
	cx, cy := r.Center()
	return Rect{cx - w/2, cy - h/2, w, h}
}

// legendSample is the text of a sample that is words (the header's and the countdown's).
func legendSample(lang string, s int, speed float64) string {
	switch s {
	case SampleHeader:
		return SpeedText(speed) + " AVG " + Word(lang, "canvas.lf")
	case SampleCountdown:
		return Word(lang, "canvas.countdown", 17)
	}
	return ""
}

// LegendCard lays the legend out for f: below the header's button, at the stage's right,
// as wide as its words need up to maxLegendW. Rows that do not fit the stage's height are
// left out, the consumers' ids first ("+N more").
func LegendCard(f Frame) *Legend {
	l, lang := f.Layout, f.Lang
	b := l.Bounds
	if b.W < 60 || b.H < 60 {
		return nil
	}
	w := math.Min(maxLegendW, b.W-12)
	lg := &Legend{Title: Word(lang, "canvas.legend.title")}
	sampleW := TextWidth(legendSample(lang, SampleHeader, f.Speed))
	sampleW = max(sampleW, TextWidth("25%")+22+TextWidth(DurationIn(lang, 4)), 40)
	lg.SampleW = sampleW + 12
	textW := w - 2*legendPad - lg.SampleW
	if textW < 60 {
		return nil
	}
	for s, key := range legendKeys {
		lg.Rows = append(lg.Rows, LegendRow{Sample: s, Lines: wrapText(Word(lang, key), textW)})
	}
	if hasLogged(f.Snap) {
		for i, key := range loggedKeys {
			lg.Rows = append(lg.Rows, LegendRow{Sample: SampleLogged + i, Lines: wrapText(Word(lang, key), textW)})
		}
	}
	// The group's marks first, then its locks': rows that do not fit go from the end.
	var rows []LegendRow
	if len(f.Snap.Groups) > 0 {
		for i, key := range groupKeys {
			rows = append(rows, LegendRow{Sample: SampleGroup + i, Lines: wrapText(Word(lang, key), textW)})
		}
	}
	if hasLocks(f.Snap) {
		for i, key := range lockKeys {
			rows = append(rows, LegendRow{Sample: SampleLocked + i, Lines: wrapText(Word(lang, key), textW)})
		}
	}
	if hasPops(f.Snap) {
		for i, key := range popKeys {
			rows = append(rows, LegendRow{Sample: SamplePop + i, Lines: wrapText(Word(lang, key), textW)})
		}
	}
	if len(f.Snap.Proxies) > 0 {
		rows = append(rows, LegendRow{Sample: SampleProxy, Lines: wrapText(Word(lang, "canvas.legend.proxy"), textW)})
	}
	lg.Rows = append(rows, lg.Rows...)
	// The consumers' whole ids, where their boxes carry a label and a part of it.
	ids := ConsumerOrder(f.Snap.Consumers)
	var marks []LegendRow
	for _, id := range ids {
		if m := l.Marks[id]; m.Label != id {
			marks = append(marks, LegendRow{Sample: SampleMark, Consumer: id, Lines: wrapText(id, textW)})
		}
	}
	height := func(rows []LegendRow, more bool) float64 {
		h := float64(2*legendPad + GlyphH + 4)
		for _, r := range rows {
			h += float64(max(1, len(r.Lines)))*GlyphH + 3
		}
		if more {
			h += GlyphH
		}
		return h
	}
	room := b.H - 2*(l.Header.Bottom()-b.Y) - 8
	for len(lg.Rows) > 0 && height(lg.Rows, false) > room {
		lg.Rows = lg.Rows[:len(lg.Rows)-1]
	}
	n := 0
	for n < len(marks) && height(append(lg.Rows[:len(lg.Rows):len(lg.Rows)], marks[:n+1]...), n+1 < len(marks)) <= room {
		n++
	}
	lg.Rows = append(lg.Rows, marks[:n]...)
	if n < len(marks) {
		lg.More = Word(lang, "canvas.view.more", len(marks)-n)
	}
	// As wide as its widest line.
	widest := TextWidth(lg.Title)
	for _, r := range lg.Rows {
		for _, s := range r.Lines {
			widest = max(widest, lg.SampleW+TextWidth(s))
		}
	}
	w = math.Min(w, widest+2*legendPad)
	h := height(lg.Rows, lg.More != "")
	top := l.Header.Bottom() + 4
	if lb := l.LegendHit(); lb.W > 0 {
		top = max(top, lb.Bottom()+2)
	}
	lg.Rect = Rect{b.Right() - 6 - w, clamp(top, b.Y, b.Bottom()-h), w, h}
	return lg
}

// wrapText breaks s into lines of at most w: after a space, or beside an ideograph
// (Chinese has no spaces; not before its closing punctuation), or, in a word wider than a
// line, anywhere.
func wrapText(s string, w float64) []string {
	var lines []string
	for s != "" {
		if TextWidth(s) <= w {
			lines = append(lines, s)
			break
		}
		cut, fit := 0, 0 // the last break that fits; the most bytes that fit
		prev := rune(0)
		for i, r := range s {
			if i > 0 && (prev == ' ' || wide(prev) || wide(r)) && !closing(r) {
				if TextWidth(strings.TrimRight(s[:i], " ")) > w {
					break
				}
				cut = i
			}
			if TextWidth(s[:i+utf8.RuneLen(r)]) <= w {
				fit = i + utf8.RuneLen(r)
			}
			prev = r
		}
		if cut == 0 {
			cut = max(fit, 1)
		}
		lines = append(lines, strings.TrimRight(s[:cut], " "))
		s = strings.TrimLeft(s[cut:], " ")
	}
	return lines
}

// wide reports whether r is an ideograph or other wide rune a line may break beside.
func wide(r rune) bool { return r >= 0x2E80 }

// closing reports whether r is punctuation a line does not begin with.
func closing(r rune) bool { return strings.ContainsRune("，。、：；）！？", r) }

func drawLegend(c *Canvas, f Frame, lg *Legend) {
	c.Rect(LayerOverlay, lg.Rect, Tooltip.Alpha(0.97))
	c.Frame(LayerOverlay, lg.Rect, 1, Border)
	x, y := lg.X+legendPad, lg.Y+legendPad
	c.Text(LayerOverlay, x, y, lg.Title, Dim)
	y += GlyphH + 4
	for _, r := range lg.Rows {
		rowH := float64(max(1, len(r.Lines))) * GlyphH
		drawSample(c, f, r, Rect{x, y, lg.SampleW - 12, GlyphH})
		for i, s := range r.Lines {
			c.Text(LayerOverlay, x+lg.SampleW, y+float64(i)*GlyphH, s, TextColor)
		}
		y += rowH + 3
	}
	if lg.More != "" {
		c.Text(LayerOverlay, x+lg.SampleW, y, lg.More, Dim)
	}
}

// drawSample draws a legend row's sample in r (one line high), as the canvas draws the mark.
func drawSample(c *Canvas, f Frame, row LegendRow, r Rect) {
	const L = LayerOverlay
	cell := Rect{r.X, r.Y, 30, r.H}
	msg := func(col Color, trail bool) {
		cy := r.Y + r.H/2
		if trail {
			c.Line(L, r.X, cy, r.X+22, cy, 1, col.Alpha(0.5))
		}
		drawMessageDot(c, L, r.X+26, cy, col)
	}
	box := Rect{r.X, r.Y, 30, r.H}
	switch row.Sample {
	case SampleHeader, SampleCountdown:
		s := legendSample(f.Lang, row.Sample, f.Speed)
		c.Text(L, r.X, r.Y, s, TextColor)
		if row.Sample == SampleCountdown {
			c.Rect(L, Rect{r.X, r.Bottom() - 2, TextWidth(s) * 0.85, 2}, TextColor.Alpha(0.75))
		}
	case SampleMeter:
		pct, lat := "25%", DurationIn(f.Lang, 4)
		c.Text(L, r.X, r.Y, pct, TextColor)
		bx := r.X + TextWidth(pct) + 3
		track := Rect{bx, r.Y + r.H/2 - 2, 16, 4}
		c.Rect(L, track, Empty)
		c.Rect(L, Rect{track.X, track.Y, 4, 4}, Bright.Alpha(0.85))
		c.Text(L, track.Right()+3, r.Y, lat, Dim)
	case SampleBacklog:
		c.Rect(L, cell, Palette[1])
		c.Rect(L, Rect{cell.X, cell.Bottom() - 3, cell.W * 0.6, 3}, Ink.Alpha(0.7))
	case SampleOverlap:
		w := cell.W / 2
		c.Rect(L, Rect{cell.X, cell.Y, w, cell.H}, Palette[0])
		c.Rect(L, Rect{cell.X + w, cell.Y, w, cell.H}, Palette[1])
		c.Frame(L, cell, 2, Warn)
		s := "x2"
		tx := cell.X + (cell.W-TextWidth(s))/2
		c.Rect(L, Rect{math.Round(tx) - 1, cell.Y, TextWidth(s) + 2, GlyphH}, Ink.Alpha(0.6))
		c.Text(L, tx, cell.Y, s, White)
	case SampleOrphan:
		c.Rect(L, cell, Empty)
		c.Frame(L, cell, 2, Warn)
		c.Text(L, cell.X+(cell.W-TextWidth("?"))/2, cell.Y, "?", Warn)
	case SampleMessage:
		msg(Bright, false)
	case SampleResent:
		msg(Slow, true)
	case SampleLate:
		msg(Warn, true)
	case SampleIsolated:
		cx, cy := r.X+8, r.Y+r.H/2
		c.Disc(L, cx, cy, isolationRingRadius, Dead)
		c.Ring(L, cx, cy, 0, isolationRingRadius, -math.Pi/2, -math.Pi/2+2*math.Pi*0.6, Slow)
	case SampleKilled, SampleHung, SampleCutOff:
		status := map[int]string{SampleKilled: cluster.StatusKilled, SampleHung: cluster.StatusHung, SampleCutOff: cluster.StatusPartitioned}[row.Sample]
		m := Mark{Color: Palette[2], Ink: inkOn(Palette[2])}
		look := ConsumerLookOf(status, m)
		c.Rect(L, box, over(look.Fill, Tooltip))
		c.Frame(L, box, look.BorderW, look.Border)
		switch row.Sample {
		case SampleKilled:
			c.Line(L, box.X+2, box.Y+2, box.Right()-2, box.Bottom()-2, 1.5, look.Mark)
			c.Line(L, box.Right()-2, box.Y+2, box.X+2, box.Bottom()-2, 1.5, look.Mark)
		case SampleHung:
			h := math.Min(8, box.H-4)
			c.Rect(L, Rect{box.Right() - 7, box.Y + 2, 2, h}, look.Mark)
			c.Rect(L, Rect{box.Right() - 4, box.Y + 2, 2, h}, look.Mark)
		}
	case SampleLogged, SampleLoggedTwice, SampleLoggedNobody:
		c.Rect(L, cell, Palette[1])
		in, w := loggedFrame(Rect{cell.X, cell.Y - 3, cell.W, cell.H + 6})
		in = Rect{in.X, cell.Y, in.W, cell.H}
		owners := row.Sample - SampleLogged + 1 // 1, 2, and none for SampleLoggedNobody
		if row.Sample == SampleLoggedNobody {
			owners = 0
		}
		drawLoggedFrame(c, L, in, w, owners)
	case SampleGroup:
		s := "GID"
		tab := Rect{r.X, r.Y, TextWidth(s) + 8, r.H}
		c.Rect(L, tab, Highlight)
		c.Frame(L, tab, 1, TextColor)
		c.Text(L, tab.X+4, r.Y, s, TextColor)
	case SampleBand:
		c.Text(L, r.X, r.Y, "Topic", TextColor)
	case SampleRetry:
		c.Rect(L, Rect{r.X, r.Y, 36, 1}, Border)
		c.Text(L, r.X, r.Y+1, "%RETRY%", Dim)
	case SampleDLQ:
		c.Rect(L, cell, Empty)
		c.Frame(L, cell, 1, Slow)
		c.Text(L, cell.X+(cell.W-TextWidth("3"))/2, cell.Y, "3", Slow)
	case SampleFiltered:
		c.Rect(L, cell, Palette[1])
		drawFiltered(c, L, cell, inkOn(Palette[1]))
	case SampleLocked:
		c.Rect(L, cell, Palette[2])
		box, padlock := lockMark(cell)
		drawLockIn(c, L, box, padlock, LockHeld, inkOn(Palette[2]), Palette[2])
	case SampleLockedAway:
		c.Rect(L, cell, Empty)
		c.Frame(L, cell, 2, Warn)
		box, padlock := lockMark(cell)
		drawLockIn(c, L, box, padlock, LockAway, Warn, Palette[1])
	case SamplePop:
		w := cell.W / 3
		for i := range 3 {
			c.Rect(L, Rect{cell.X + float64(i)*w, cell.Y, w, cell.H}, Palette[i])
		}
		tx := cell.X + (cell.W-TextWidth(popLabel))/2
		c.Rect(L, Rect{math.Round(tx) - 1, cell.Y, TextWidth(popLabel) + 2, GlyphH}, Ink.Alpha(0.6))
		c.Text(L, tx, cell.Y, popLabel, White)
	case SampleInvisible:
		c.Rect(L, cell, Palette[1])
		c.Rect(L, Rect{cell.X, cell.Y, cell.W * 0.6, 3}, Bright.Alpha(0.85))
	case SampleProxy:
		c.Rect(L, box, Panel)
		c.Rect(L, Rect{box.X, box.Y, proxyBand, box.H}, Dim)
		c.Frame(L, box, 1, Border)
		n := "3"
		c.Text(L, box.Right()-4-TextWidth(n), box.Y+(box.H-GlyphH)/2, n, Dim)
	case SampleMark:
		m := f.Layout.Marks[row.Consumer]
		w := math.Max(TextWidth(m.Label)+6, 18)
		sw := Rect{r.X, r.Y, w, r.H}
		c.Rect(L, sw, m.Color)
		c.Text(L, sw.X+(sw.W-TextWidth(m.Label))/2, sw.Y, m.Label, m.Ink)
		if m.Index >= len(Palette) && r.W > w+r.H+2 {
			// Past the palette's colours, the shape its cells carry tells it from the
			// consumer of the same colour.
			sh := Rect{sw.Right() + 3, r.Y, r.H, r.H}
			c.Frame(L, sh, 1, m.Color)
			drawShape(c, sh.Inset(1), m.Shape, TextColor)
		}
	}
}

// over is c drawn over the opaque bg.
func over(c, bg Color) Color {
	a := c.A
	return Color{c.R*a + bg.R*(1-a), c.G*a + bg.G*(1-a), c.B*a + bg.B*(1-a), 1}
}
