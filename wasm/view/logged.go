package view

import (
	"math"
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// A history read from logs beside the simulation: a queue whose logged owners at the moment
// shown (QueueView.Observed) are not the simulated ones carries a second mark, a frame
// inside its cell in the Logged colour — solid: the logs name another owner; doubled: they
// show it held twice; dashed: they show nobody holding it — and, where the cell has room,
// a tag saying whom the logs name ("log: 2"). Its hover card quotes the holdings.

// maxLoggedLines bounds the holdings a queue's hover card quotes.
const maxLoggedLines = 4

// LoggedDiffers reports whether the logs name other owners for q than the simulation does
// (false without a history).
func LoggedDiffers(q *cluster.QueueView) bool {
	if q.Observed == nil {
		return false
	}
	if len(q.Observed) != len(q.Owners) {
		return true
	}
	for _, id := range q.Observed {
		if !slices.Contains(q.Owners, id) {
			return true
		}
	}
	return false
}

// loggedName is how the canvas names a logged owner: the label its cells carry when it is
// a consumer of the simulation, else the part of its id that tells it apart.
func loggedName(l *Layout, id string) string {
	if m, ok := l.Marks[id]; ok {
		return m.Label
	}
	ids := []string{id}
	for other := range l.Marks {
		ids = append(ids, other)
	}
	return DistinctParts(ids)[0]
}

// LoggedTag is the tag of a cell whose logs disagree: whom the logs name.
func LoggedTag(l *Layout, lang string, q *cluster.QueueView) string {
	switch len(q.Observed) {
	case 0:
		return Word(lang, "canvas.log.nobody")
	case 1:
		return Word(lang, "canvas.log.owner", loggedName(l, q.Observed[0]))
	}
	return Word(lang, "canvas.log.twice", len(q.Observed))
}

// loggedFrame is the frame's rectangle and width inside a cell r.
func loggedFrame(r Rect) (Rect, float64) {
	w := math.Max(1, math.Min(2, math.Floor(r.W/12)))
	return r.Inset(math.Max(1, math.Min(3, math.Floor(r.W/10)))), w
}

// drawLogged draws a disagreeing cell's second mark over its own: the frame, and the tag at
// its top where it fits beside the owner's label.
func drawLogged(c *Canvas, l *Layout, r Rect, q *cluster.QueueView, lang string) {
	in, w := loggedFrame(r)
	drawLoggedFrame(c, LayerMarks, in, w, len(q.Observed))
	if !l.CellText {
		return
	}
	tag := LoggedTag(l, lang, q)
	if TextWidth(tag)+4 > in.W || r.H < 2*GlyphH+2 {
		return // the frame alone; the hover card says the rest
	}
	back := Rect{math.Round(in.X), math.Round(in.Y), TextWidth(tag) + 4, GlyphH}
	c.Rect(LayerMarks, back, Logged)
	c.Text(LayerMarks, back.X+2, back.Y, tag, inkOn(Logged))
}

// drawLoggedFrame draws the frame for n logged owners: doubled for two or more, dashed for
// none.
func drawLoggedFrame(c *Canvas, layer Layer, in Rect, w float64, n int) {
	switch {
	case n == 0:
		const dash, gap = 4.0, 3.0
		for x := in.X; x < in.Right(); x += dash + gap {
			d := math.Min(dash, in.Right()-x)
			c.Rect(layer, Rect{x, in.Y, d, w}, Logged)
			c.Rect(layer, Rect{x, in.Bottom() - w, d, w}, Logged)
		}
		for y := in.Y; y < in.Bottom(); y += dash + gap {
			d := math.Min(dash, in.Bottom()-y)
			c.Rect(layer, Rect{in.X, y, w, d}, Logged)
			c.Rect(layer, Rect{in.Right() - w, y, w, d}, Logged)
		}
	case n > 1:
		c.Frame(layer, in, w, Logged)
		if inner := in.Inset(w + 2); inner.W > 2*w && inner.H > 2*w {
			c.Frame(layer, inner, w, Logged)
		}
	default:
		c.Frame(layer, in, w, Logged)
	}
}

// loggedLines are a queue's hover card's lines about the logs: each holding of the queue at
// the moment shown, "the log says 2 held it from 00:01.0 to the end (member2.log:98)", or
// that the logs show nobody; none without a history.
func loggedLines(f Frame, q *cluster.QueueView) []string {
	if q.Observed == nil {
		return nil
	}
	lang := f.Lang
	var lines []string
	if f.Observed != nil {
		n := 0
		for _, h := range f.Observed.Holdings {
			if h.Queue != q.ID || h.Broker != q.Broker || !h.Covers(f.Snap.TimeMs) {
				continue
			}
			if n++; n > maxLoggedLines {
				continue
			}
			from := Clock(h.From.Ms())
			if !h.FromKnown {
				from = Word(lang, "canvas.tip.logOrBefore", from)
			}
			line := Word(lang, "canvas.tip.logHeldOpen", h.Owner, from)
			if h.To != nil {
				to := Clock(h.To.Ms())
				if !h.ToKnown {
					to = Word(lang, "canvas.tip.logOrLater", to)
				}
				line = Word(lang, "canvas.tip.logHeld", h.Owner, from, to)
			}
			if h.Ref != "" {
				line += Word(lang, "canvas.tip.logRef", h.Ref)
			}
			lines = append(lines, line)
		}
		if n > maxLoggedLines {
			lines = append(lines, Word(lang, "canvas.view.more", n-maxLoggedLines))
		}
	}
	if len(lines) == 0 {
		switch len(q.Observed) {
		case 0:
			lines = append(lines, Word(lang, "canvas.tip.logNobody"))
		default:
			lines = append(lines, Word(lang, "canvas.tip.logOwners", joinList(lang, q.Observed)))
		}
	}
	return lines
}

// hasLogged reports whether the snapshot carries logged owners: the legend then explains
// their marks.
func hasLogged(s *cluster.Snapshot) bool {
	return len(s.Queues) > 0 && s.Queues[0].Observed != nil
}
