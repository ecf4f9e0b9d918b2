package view

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/narrate"
)

// A consumer's view card: what it believes (the client list of its last decided rebalance,
// which broker answered and when, the queues it computed) against what is (the list that
// broker holds now, the queues its pulls reach). Hovering a consumer shows it; so does its
// open click menu, beside the menu.

// CardLine is one line of a view card.
type CardLine struct {
	Text  string
	Color Color
}

// Card is a placed view card.
type Card struct {
	Consumer string
	Rect
	Lines []CardLine
}

const (
	cardPad   = 4
	maxCardW  = 300
	maxIDRows = 3 // rows of client ids before "+N more"
)

// queueRanges is queue names as the canvas writes a set of them: "broker-a:0-3,6 broker-b:1".
func queueRanges(lang string, qs []string) string {
	if len(qs) == 0 {
		return Word(lang, "canvas.view.noQueues")
	}
	return strings.ReplaceAll(strings.Join(narrate.Ranges(qs), " "), "–", "-")
}

// wrapIDs lays ids out in rows of at most w pixels, the first after label, the others
// indented; past maxIDRows rows the last one ends with how many ids are left out.
func wrapIDs(lang, label string, ids []string, w float64) []string {
	var rows [][]string // the ids of each row
	width := func(k int, row []string) float64 {
		head := "  "
		if k == 0 {
			head = label
		}
		return TextWidth(head + " " + strings.Join(row, " "))
	}
	for _, id := range ids {
		k := len(rows) - 1
		if k < 0 || (len(rows[k]) > 0 && width(k, append(slices.Clip(rows[k]), id)) > w) {
			rows = append(rows, nil)
			k++
		}
		rows[k] = append(rows[k], id)
	}
	if len(rows) == 0 {
		rows = [][]string{nil}
	}
	text := func(k int, row []string, more int) string {
		head := "  "
		if k == 0 {
			head = label
		}
		t := head
		if len(row) > 0 {
			t += " " + strings.Join(row, " ")
		}
		if more > 0 {
			t += " " + Word(lang, "canvas.view.more", more)
		}
		return t
	}
	out := make([]string, 0, maxIDRows)
	for k, row := range rows {
		if k == maxIDRows-1 && len(rows) > maxIDRows {
			shown := 0
			for _, r := range rows[:k] {
				shown += len(r)
			}
			for len(row) > 0 && TextWidth(text(k, row, len(ids)-shown-len(row))) > w {
				row = row[:len(row)-1]
			}
			return append(out, Fit(text(k, row, len(ids)-shown-len(row)), w))
		}
		out = append(out, Fit(text(k, row, 0), w))
	}
	return out
}

// ViewCardLines are a consumer's card: its tooltip's lines, then its view.
func ViewCardLines(f Frame, id string, w float64) []CardLine {
	s, lang := f.Snap, f.Lang
	var cv *cluster.ConsumerView
	for i := range s.Consumers {
		if s.Consumers[i].ID == id {
			cv = &s.Consumers[i]
		}
	}
	if cv == nil {
		return nil
	}
	var out []CardLine
	add := func(text string, col Color) { out = append(out, CardLine{Fit(text, w), col}) }
	member := len(cv.Topics) > 0 || len(cv.Tags) > 0 // a member of a group with several topics, or of tags
	for _, t := range TooltipLines(f, HitConsumer, id) {
		if !member {
			add(t, TextColor)
			continue
		}
		for _, line := range wrapText(t, w) {
			add(line, TextColor)
		}
	}
	v := cv.View
	switch {
	case s.MessageModel == cluster.Broadcasting:
		add(Word(lang, "canvas.view.broadcast"), Dim)
		return out
	case v.IsZero():
		add(Word(lang, "canvas.view.none"), Dim)
		return out
	}
	add(Word(lang, "canvas.view.from", Clock(v.AtMs), v.Broker), Dim)
	for _, row := range wrapIDs(lang, Word(lang, "canvas.view.ids"), v.Cids, w) {
		add(row, TextColor)
	}
	nowCol, nowLabel := TextColor, Word(lang, "canvas.view.now", v.NowBroker)
	if v.NowBroker == "" {
		nowLabel = Word(lang, "canvas.view.nowNone")
	}
	if v.Stale {
		nowCol = Warn
		nowLabel = Word(lang, "canvas.view.stale") + " " + nowLabel
	}
	for _, row := range wrapIDs(lang, nowLabel, v.Now, w) {
		add(row, nowCol)
	}
	if v.Stale {
		// What differs, which long lists cut off: the ids the broker no longer lists, and
		// those it lists that the view lacks.
		gone, added := idDiff(v.Cids, v.Now), idDiff(v.Now, v.Cids)
		if len(gone) > 0 {
			for _, row := range wrapIDs(lang, Word(lang, "canvas.view.gone"), gone, w) {
				add(row, Warn)
			}
		}
		if len(added) > 0 {
			for _, row := range wrapIDs(lang, Word(lang, "canvas.view.added"), added, w) {
				add(row, Warn)
			}
		}
	}
	same := slices.Equal(v.Computed, v.Pulled)
	if len(cv.Topics) > 0 {
		// A round computes one topic's queues: what it pulls of the others is no difference.
		same = true
		for _, q := range v.Computed {
			same = same && slices.Contains(v.Pulled, q)
		}
	}
	pulledCol := TextColor
	if !same {
		pulledCol = Warn
	}
	if member {
		for _, line := range wrapText(Word(lang, "canvas.view.computed", queueRanges(lang, v.Computed)), w) {
			add(line, TextColor)
		}
		for _, line := range wrapText(Word(lang, "canvas.view.pulled", queueRanges(lang, v.Pulled)), w) {
			add(line, pulledCol)
		}
	} else {
		add(Word(lang, "canvas.view.computed", queueRanges(lang, v.Computed)), TextColor)
		add(Word(lang, "canvas.view.pulled", queueRanges(lang, v.Pulled)), pulledCol)
	}
	if v.LastAnswer != cluster.AnswerOK && v.LastAskMs > v.AtMs {
		key := "canvas.view.failed"
		if v.LastAnswer == cluster.AnswerEmpty {
			key = "canvas.view.empty"
		}
		add(Word(lang, key, v.LastAskBroker, Clock(v.LastAskMs)), Slow)
	}
	return out
}

// idDiff is a without b, as multisets: an id a lists twice and b once is left once.
func idDiff(a, b []string) []string {
	left := map[string]int{}
	for _, id := range b {
		left[id]++
	}
	var out []string
	for _, id := range a {
		if left[id] > 0 {
			left[id]--
			continue
		}
		out = append(out, id)
	}
	return out
}

// cardSize is the box a card's lines need.
func cardSize(lines []CardLine) (w, h float64) {
	for _, l := range lines {
		w = max(w, TextWidth(l.Text))
	}
	return w + 2*cardPad, float64(len(lines))*GlyphH + 2*cardPad
}

// cardWidth is the widest a card's text may be in bounds.
func cardWidth(bounds Rect) float64 { return math.Min(maxCardW, bounds.W-12) - 2*cardPad }

// ViewCard places consumer id's card: beside the pointer when it hovers the consumer, or,
// with the consumer's menu open, beside the menu, clear of it and of the consumer's box.
func ViewCard(f Frame, id string) *Card {
	b := f.Layout.Bounds
	lines := ViewCardLines(f, id, cardWidth(b))
	if len(lines) == 0 {
		return nil
	}
	w, h := cardSize(lines)
	c := &Card{Consumer: id, Lines: lines}
	if m := f.Menu; m != nil && m.Kind == HitConsumer && m.Target == id {
		box, _ := f.Layout.Consumer(id)
		top := box.Y // the top of the consumers' rows
		for _, cb := range f.Layout.Consumers {
			top = min(top, cb.Y)
		}
		// Above the consumers' rows beside the menu, then right of it, left of it, above it,
		// below it: the first clear of the menu and of every consumer; failing that, the
		// first clear of the menu and of this consumer's box.
		cands := []Rect{
			{m.Right() + 4, top - 4 - h, w, h},
			{m.X - 4 - w, top - 4 - h, w, h},
			{m.Right() + 4, m.Y, w, h},
			{m.X - 4 - w, m.Y, w, h},
			{m.X, m.Y - 4 - h, w, h},
			{m.X, m.Bottom() + 4, w, h},
			{m.X, top - 4 - h, w, h},
		}
		for i := range cands {
			cands[i].X = clamp(cands[i].X, b.X, b.Right()-w)
			cands[i].Y = clamp(cands[i].Y, b.Y, b.Bottom()-h)
		}
		clear := func(r Rect, all bool) bool {
			if r.Overlaps(m.Rect) || r.Overlaps(box.Rect) {
				return false
			}
			if all {
				for _, cb := range f.Layout.Consumers {
					if r.Overlaps(cb.Rect) {
						return false
					}
				}
			}
			return true
		}
		for _, all := range []bool{true, false} {
			for _, r := range cands {
				if clear(r, all) {
					c.Rect = r
					return c
				}
			}
		}
		// Nowhere clear of both: clear of the menu at least, above it.
		c.Rect = Rect{clamp(m.X, b.X, b.Right()-w), clamp(m.Y-4-h, b.Y, b.Bottom()-h), w, h}
		return c
	}
	// Hovered: above the consumers' rows, under the pointer's column, so that neither the
	// consumer nor its neighbours hide behind it; failing that, beside the pointer, clear of
	// the consumer's box where it can be.
	box, _ := f.Layout.Consumer(id)
	top := box.Y
	var others []Rect
	for _, cb := range f.Layout.Consumers {
		top = min(top, cb.Y)
		others = append(others, cb.Rect)
	}
	x, y := f.HoverX+12, f.HoverY+14
	if x+w > b.Right() {
		x = f.HoverX - 12 - w
	}
	if y+h > b.Bottom() {
		y = f.HoverY - 8 - h
	}
	cands := []Rect{
		{f.HoverX - w/2, top - 4 - h, w, h},
		{f.HoverX - w/2, box.Y - 4 - h, w, h},
		{x, y, w, h},
	}
	if r, ok := clearSpot(cands, box.Rect, others, b); ok {
		c.Rect = r
		return c
	}
	c.Rect = Rect{clamp(x, b.X, b.Right()-w), clamp(y, b.Y, b.Bottom()-h), w, h}
	return c
}

// drawCard draws the card and marks, on the cells, the queues the consumer computed for
// itself (a frame in its colour) and those it computed but whose pulls reach nobody (a
// warning frame).
func drawCard(c *Canvas, f Frame, card *Card, consumers map[string]*cluster.ConsumerView) {
	if cv := consumers[card.Consumer]; cv != nil && !cv.View.IsZero() {
		pulled := map[string]bool{}
		for _, q := range cv.View.Pulled {
			pulled[q] = true
		}
		m := f.Layout.Marks[card.Consumer]
		for _, q := range cv.View.Computed {
			cell, ok := f.Layout.Cell(q)
			if !ok {
				continue
			}
			col := m.Color
			if !pulled[q] {
				col = Warn
			}
			c.Frame(LayerOverlay, cell.Inset(-2), 2, col)
			c.Frame(LayerOverlay, cell.Inset(-3), 1, Bright.Alpha(0.6))
		}
	}
	c.Rect(LayerOverlay, card.Rect, Tooltip.Alpha(0.96))
	c.Frame(LayerOverlay, card.Rect, 1, Border)
	for i, l := range card.Lines {
		c.Text(LayerOverlay, card.X+cardPad, card.Y+cardPad+float64(i*GlyphH), l.Text, l.Color)
	}
}

// Meter rows: each broker's share of the last seconds' sends, its latest response time, and
// the attempts that failed on it and were sent again.

const meterH = GlyphH + 2

// drawMeter draws bv's send meter in its block: a row under the title when the layout gave
// one, else a strip along the title's bottom edge.
func drawMeter(c *Canvas, b BrokerBox, bv *cluster.BrokerView, lang string) {
	w := bv.Window
	share := clamp(w.Share, 0, 1)
	if b.Meter.H == 0 {
		t := b.Title
		c.Rect(LayerMarks, Rect{t.X + 1, t.Bottom() - 2, (t.W - 2) * share, 2}, Bright.Alpha(0.8))
		return
	}
	r := b.Meter
	x, right := r.X, r.Right()
	// The failure counts on the right: in words where they fit, else as numbers on a dot.
	type count struct {
		n    int64
		key  string
		col  Color
		text string
	}
	var counts []count
	if w.Failed > 0 {
		counts = append(counts, count{w.Failed, "canvas.meter.failed", Warn, ""})
	}
	if w.Resent > 0 {
		counts = append(counts, count{w.Resent, "canvas.meter.resent", Slow, ""})
	}
	wordsW, numsW := 0.0, 0.0
	for i := range counts {
		counts[i].text = Word(lang, counts[i].key, counts[i].n)
		wordsW += TextWidth(counts[i].text) + 4
		numsW += TextWidth(strconv.FormatInt(counts[i].n, 10)) + 10
	}
	pct := strconv.Itoa(int(math.Round(share*100))) + "%"
	lat := ""
	if bv.SendLatencyMs > 0 && !bv.Down {
		lat = DurationIn(lang, bv.SendLatencyMs)
	}
	// What a narrow row gives up first: the counts' words for numbers, the bar, the
	// counts, the latency; the percentage and the latency keep their units to the last.
	pctW, latW := TextWidth(pct)+4, 0.0
	if lat != "" {
		latW = TextWidth(lat) + 4
	}
	const bar = 24 // the bar's least width, where it is drawn at all
	useWords := pctW+latW+wordsW+bar <= r.W
	if !useWords && pctW+latW+numsW > r.W {
		counts = nil
	}
	if !useWords && pctW+latW > r.W {
		lat = ""
	}
	for i := len(counts) - 1; i >= 0; i-- {
		k := counts[i]
		if useWords {
			right -= TextWidth(k.text)
			c.Text(LayerMarks, right, r.Y+1, k.text, k.col)
			right -= 4
			continue
		}
		n := strconv.FormatInt(k.n, 10)
		right -= TextWidth(n)
		c.Text(LayerMarks, right, r.Y+1, n, k.col)
		c.Disc(LayerMarks, right-4, r.Y+r.H/2, 3, k.col)
		right -= 10
	}
	if lat != "" {
		col := Dim
		if bv.LatencyMs > 0 {
			col = Slow
		}
		right -= TextWidth(lat)
		c.Text(LayerMarks, right, r.Y+1, lat, col)
		right -= 4
	}
	if TextWidth(pct)+4 <= right-x {
		c.Text(LayerMarks, x, r.Y+1, pct, TextColor)
		x += TextWidth(pct) + 4
	}
	if bar := right - x; bar > 2 {
		track := Rect{x, r.Y + r.H/2 - 2, bar, 4}
		c.Rect(LayerMarks, track, Empty)
		c.Rect(LayerMarks, Rect{track.X, track.Y, track.W * share, track.H}, Bright.Alpha(0.85))
	}
}
