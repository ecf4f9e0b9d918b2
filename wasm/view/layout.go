package view

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
)

// Box is a named rectangle: a consumer's or producer's box.
type Box struct {
	ID string `json:"id"`
	Rect
}

// BrokerBox is a broker's block: a title row over a grid of its queues.
type BrokerBox struct {
	Name  string `json:"name"`
	Label string `json:"-"` // what fits of the name in the title
	Rect
	Title Rect `json:"-"`
	// Bands are, in a run with several topics or groups, the label rows of Layout.Bands in
	// the block (a zero Rect where the broker has no queue of that band's topic).
	Bands []Rect `json:"-"`
	// Meter is the row under the title for the broker's share of recent sends (zero when
	// the stage has no height to spare: the share is then a strip along the title).
	Meter Rect `json:"-"`

	// Where the lines from its queues leave the grid of blocks (Layout.wire): below the last
	// row, straight from under the block; above it, along the gap under the block (exitY)
	// to the gutter left or right of its column, and down the gutter past the last row.
	lastRow          bool
	exitY            float64
	gutterL, gutterR float64
}

// Cell is one queue's square in its broker's block.
type Cell struct {
	Queue  string `json:"queue"` // "broker-a:0"
	Broker string `json:"-"`
	// Topic is, in a run with several topics or groups, the queue's topic (Layout.Group: the
	// group whose owners it shows).
	Topic string `json:"topic,omitempty"`
	Rect
	block int // its broker's index in Layout.Brokers
	band  int // its band's index in Layout.Bands (0 with one topic and one group)
}

// Band is one topic's rows of cells in every broker's block, in a run with several topics or
// groups: the shown group's topics, then its retry topic, then its dead-letter topic.
type Band struct {
	Topic string `json:"topic"`
	Kind  int    `json:"kind"` // BandTopic, BandRetry or BandDLQ
	qmax  int    // the most queues a broker has of it
}

// Consumer box styles, by how much room there is.
const (
	ConsumerTall    = iota // id, a status or countdown line, a countdown bar
	ConsumerCompact        // id and a thin countdown bar
	ConsumerTiny           // a coloured box with its shape mark
)

// Layout is where everything of one snapshot sits inside Bounds.
type Layout struct {
	Bounds       Rect
	Header       Rect
	LegendButton Rect // the header's button that shows the legend (LegendHit is its target)
	// Groups are the tabs of a run with several topics or groups, one per group (ID: its
	// name), under the header; Group is the shown one, Bands its topics' rows.
	Groups       []Box
	Group        string
	Bands        []Band
	Producers    []Box
	Proxies      []Box       // RocketMQ 5's proxies (spec §8.4), left of the producers in their row
	Brokers      []BrokerBox // in snapshot order
	Cells        []Cell      // in snapshot order
	Consumers    []Box       // in ConsumerOrder
	ConsumerMode int
	CellW, CellH float64
	CellText     bool // owner labels fit in the cells
	Marks        map[string]Mark
	Lang         string // the language whose words the boxes were sized for
	// Zoom is the CSS pixels per layout unit: 1, or PresentZoom in presenter mode. Every
	// rectangle of the layout is in layout units; Boxes converts them to CSS pixels.
	Zoom float64

	gridBottom float64 // the bottom of the grid of broker blocks: lines run straight below it
	cellAt     map[string]int
	cellsOnce  bool // no two cells name the same queue: Cells[i] is what Cell finds for its queue
	consumerAt map[string]int
	brokerAt   map[string]int
	producerAt map[string]int
	proxyAt    map[string]int
}

// Hit kinds.
const (
	HitConsumer = "consumer"
	HitBroker   = "broker"
	HitQueue    = "queue"
	HitProducer = "producer"
	HitProxy    = "proxy"
	HitLegend   = "legend" // the header's legend button
	HitGroup    = "group"  // a group's tab
)

// Spacing.
const (
	headerH    = GlyphH
	producerH  = GlyphH + 5
	titleH     = GlyphH + 2
	brokerPad  = 3
	consumerG  = 4
	tallH      = 2*GlyphH + 8
	compactH   = GlyphH + 5
	tabH       = GlyphH + 4 // a group's tab
	bandH      = GlyphH     // a band's label row
	bandGap    = 3.0        // between a band's last row of cells and the next band's label
	maxCellW   = 140
	maxCellH   = 46
	cellAspect = 1.75 // cells wide enough for a three-letter label at their height
	swatchW    = 10   // a compact consumer box's sample of its cells' shape mark
)

// PresentZoom is presenter mode's enlargement: every label, line and mark drawn 1.5 times
// as large, so the 12-unit em of labels is 18 CSS pixels, readable from the back of a room.
// The layout is computed for the stage's size divided by it, so it drops detail (labels in
// cells give way to ranges, then to shapes) where the enlarged labels no longer fit.
const PresentZoom = 1.5

// ComputeZoom lays the snapshot out in a stage of stageCSS (CSS pixels) at zoom CSS pixels
// per layout unit (1, or PresentZoom), for the words of lang.
func ComputeZoom(s *cluster.Snapshot, stageCSS Rect, lang string, zoom float64) *Layout {
	return ComputeShown(s, s, stageCSS, lang, zoom)
}

// ComputeShown is ComputeZoom for shown, the part of the snapshot all that the canvas shows
// (Pick.Of: one group of a run with several): the consumers' marks follow all's processes,
// so that a member of several groups keeps its colour in each.
func ComputeShown(shown, all *cluster.Snapshot, stageCSS Rect, lang string, zoom float64) *Layout {
	if zoom <= 0 || math.IsNaN(zoom) || math.IsInf(zoom, 0) {
		zoom = 1
	}
	l := computeLang(shown, all, Rect{stageCSS.X / zoom, stageCSS.Y / zoom, stageCSS.W / zoom, stageCSS.H / zoom}, lang)
	l.Zoom = zoom
	return l
}

// Layouts computes a frame's layout (ComputeZoom) and hands out the previous one again
// while everything a layout is computed from is unchanged: the stage, the zoom, the
// language, the owners' colours (UseTheme), the brokers' names and queue counts, the
// producers' ids and rates, the proxies' names, and the consumers' ids and whether each was
// restarted; in a run with several topics or groups also the group shown and its queues'
// topics, brokers and ids. Those change on a command or a rebalance's restart, not between the frames of a run,
// and a layout of the large preset is thousands of boxes and lookups. A layout handed out is
// shared (the controller and the page's layout() read it) and never changed: a change
// makes a new one.
type Layouts struct {
	last *Layout
	key  layoutKey
}

// layoutKey is what a layout is computed from. Its slices are its own: the snapshot's are
// overwritten by the next frame's.
type layoutKey struct {
	stage      Rect
	lang       string
	zoom       float64
	palette    [len(Palette)]Color
	ink, white Color
	brokers    []brokerKey
	producers  []producerKey
	consumers  []consumerKey
	proxies    []string
	// With several topics or groups: the group shown, its members, its groups' names and
	// its queues.
	group   string
	members []string
	groups  []string
	cells   []cellKey
}

type brokerKey struct {
	name   string
	queues int
}

type producerKey struct {
	id   string
	rate int
}

type consumerKey struct {
	id        string
	restarted bool
}

type cellKey struct {
	topic, broker string
	id            int
}

// Compute is ComputeZoom(s, stageCSS, lang, zoom), the previous result when its inputs are
// the same.
func (c *Layouts) Compute(s *cluster.Snapshot, stageCSS Rect, lang string, zoom float64) *Layout {
	return c.ComputeShown(s, s, stageCSS, lang, zoom)
}

// ComputeShown is ComputeShown(shown, all, stageCSS, lang, zoom), the previous result when
// its inputs are the same.
func (c *Layouts) ComputeShown(shown, all *cluster.Snapshot, stageCSS Rect, lang string, zoom float64) *Layout {
	if c.last != nil && c.key.same(shown, all, stageCSS, lang, zoom) {
		return c.last
	}
	c.last = ComputeShown(shown, all, stageCSS, lang, zoom)
	c.key.set(shown, all, stageCSS, lang, zoom)
	return c.last
}

func (k *layoutKey) same(s, all *cluster.Snapshot, stage Rect, lang string, zoom float64) bool {
	if k.stage != stage || k.lang != lang || k.zoom != zoom || k.palette != Palette || k.ink != Ink || k.white != White ||
		len(k.brokers) != len(s.Brokers) || len(k.producers) != len(s.Producers) || len(k.consumers) != len(all.Consumers) ||
		len(k.proxies) != len(s.Proxies) {
		return false
	}
	for i := range s.Proxies {
		if k.proxies[i] != s.Proxies[i].Name {
			return false
		}
	}
	for i := range s.Brokers {
		if b := &s.Brokers[i]; k.brokers[i] != (brokerKey{b.Name, b.Queues}) {
			return false
		}
	}
	for i := range s.Producers {
		if p := &s.Producers[i]; k.producers[i] != (producerKey{p.ID, p.Rate}) {
			return false
		}
	}
	for i := range all.Consumers {
		if cv := &all.Consumers[i]; k.consumers[i] != (consumerKey{cv.ID, Restarted(cv)}) {
			return false
		}
	}
	if len(s.Groups) == 0 {
		return k.group == "" && len(k.cells) == 0
	}
	if k.group != s.Group || len(k.members) != len(s.Consumers) || len(k.groups) != len(s.Groups) || len(k.cells) != len(s.Queues) {
		return false
	}
	for i := range s.Consumers {
		if k.members[i] != s.Consumers[i].ID {
			return false
		}
	}
	for i := range s.Groups {
		if k.groups[i] != s.Groups[i].Name {
			return false
		}
	}
	for i := range s.Queues {
		if q := &s.Queues[i]; k.cells[i] != (cellKey{q.Topic, q.Broker, q.ID}) {
			return false
		}
	}
	return true
}

func (k *layoutKey) set(s, all *cluster.Snapshot, stage Rect, lang string, zoom float64) {
	k.stage, k.lang, k.zoom, k.palette, k.ink, k.white = stage, lang, zoom, Palette, Ink, White
	k.brokers, k.producers, k.consumers, k.proxies = k.brokers[:0], k.producers[:0], k.consumers[:0], k.proxies[:0]
	for i := range s.Proxies {
		k.proxies = append(k.proxies, s.Proxies[i].Name)
	}
	for i := range s.Brokers {
		k.brokers = append(k.brokers, brokerKey{s.Brokers[i].Name, s.Brokers[i].Queues})
	}
	for i := range s.Producers {
		k.producers = append(k.producers, producerKey{s.Producers[i].ID, s.Producers[i].Rate})
	}
	for i := range all.Consumers {
		k.consumers = append(k.consumers, consumerKey{all.Consumers[i].ID, Restarted(&all.Consumers[i])})
	}
	k.group, k.members, k.groups, k.cells = "", k.members[:0], k.groups[:0], k.cells[:0]
	if len(s.Groups) == 0 {
		return
	}
	k.group = s.Group
	for i := range s.Consumers {
		k.members = append(k.members, s.Consumers[i].ID)
	}
	for i := range s.Groups {
		k.groups = append(k.groups, s.Groups[i].Name)
	}
	for i := range s.Queues {
		k.cells = append(k.cells, cellKey{s.Queues[i].Topic, s.Queues[i].Broker, s.Queues[i].ID})
	}
}

// Compute lays the snapshot out in bounds, for English words: a header line, the producers,
// the brokers' blocks of queue cells, and the consumers' boxes along the bottom.
func Compute(s *cluster.Snapshot, bounds Rect) *Layout { return ComputeLang(s, bounds, EN) }

// ComputeLang is Compute for the words of lang (EN or ZH): boxes fit its status words.
//
// The embed's poster lays a scenario out before any wasm with the same arithmetic, written
// again in web/poster.mjs (posterLayout and the functions named after these): a change here
// is a change there, and TestBrowserEmbedPosterIsTheCanvas fails until both agree.
func ComputeLang(s *cluster.Snapshot, bounds Rect, lang string) *Layout {
	return computeLang(s, s, bounds, lang)
}

// computeLang is ComputeLang for shown, the part of all the canvas shows (ComputeShown).
// A snapshot with groups (a run with several topics or groups) gets the groups' tabs under
// the header and its topics in bands; poster.mjs draws none (the embed's poster of such a
// run is its first group's consumers over its first topic's queues).
func computeLang(s, all *cluster.Snapshot, bounds Rect, lang string) *Layout {
	ids := ConsumerOrder(s.Consumers)
	markIDs := ids
	if all != s {
		markIDs = ConsumerOrder(all.Consumers)
	}
	// The lookup maps are made to size with the boxes (a nil one finds nothing).
	l := &Layout{Bounds: bounds, Marks: marksOf(markIDs), Lang: lang, Zoom: 1}
	pad := 8.0
	if bounds.W < 600 || bounds.H < 400 {
		pad = 4
	}
	inner := bounds.Inset(pad)
	if inner.W <= 0 || inner.H <= 0 {
		return l
	}
	y := inner.Y
	l.Header = Rect{inner.X, y, inner.W, headerH}
	if bw := legendButtonW(lang); inner.W >= 4*bw {
		l.LegendButton = Rect{inner.Right() - bw, y, bw, headerH}
		l.Header.W -= bw + 8
	}
	y += headerH + 4

	if len(s.Groups) > 0 {
		l.Group = s.Group
		l.layoutGroups(s, Rect{inner.X, y, inner.W, tabH})
		y += tabH + 6
	}

	if len(s.Producers) > 0 || len(s.Proxies) > 0 {
		l.layoutTopRow(s, Rect{inner.X, y, inner.W, producerH})
		y += producerH + 10
	}

	rest := Rect{inner.X, y, inner.W, inner.Bottom() - y}
	consH := l.layoutConsumers(s, ids, rest)
	gap := clamp(0.08*bounds.H, 14, 48)
	if consH == 0 {
		gap = 0
	}
	l.layoutBrokers(s, Rect{inner.X, y, inner.W, rest.H - consH - gap})
	return l
}

// tabLag is the widest lag a group's tab makes room for.
const tabLag = 999999

// layoutGroups places a tab per group in r, from its left: as wide as the group's name and
// its lag need, all narrowed alike when they do not fit.
func (l *Layout) layoutGroups(s *cluster.Snapshot, r Rect) {
	n := len(s.Groups)
	ws := make([]float64, n)
	total := 0.0
	lagW := TextWidth(Word(l.Lang, "canvas.group.lag", tabLag))
	for i := range s.Groups {
		ws[i] = TextWidth(s.Groups[i].Name) + 8 + lagW + 10
		total += ws[i] + consumerG
	}
	scale := 1.0
	if total-consumerG > r.W {
		scale = (r.W - float64(n-1)*consumerG) / (total - float64(n)*consumerG)
	}
	l.Groups = make([]Box, 0, n)
	x := r.X
	for i := range s.Groups {
		w := math.Max(ws[i]*scale, 1)
		l.Groups = append(l.Groups, Box{ID: s.Groups[i].Name, Rect: Rect{x, r.Y, w, r.H}})
		x += w + consumerG
	}
}

// layoutTopRow lays out the row under the header: the producers centred in r, or, in a run
// with proxies, the proxies and then the producers, centred in r together.
func (l *Layout) layoutTopRow(s *cluster.Snapshot, r Rect) {
	if len(s.Proxies) == 0 {
		l.layoutProducers(s.Producers, r)
		return
	}
	proxies := l.layoutProxies(s.Proxies, r)
	group, producers := proxies, 0.0
	if len(s.Producers) > 0 {
		producers = math.Min(producersW(s.Producers), r.W-proxies-proxyGap)
		group += proxyGap + producers
	}
	dx := math.Max(0, (r.W-group)/2)
	for i := range l.Proxies {
		l.Proxies[i].X += dx
	}
	if len(s.Producers) > 0 {
		l.layoutProducers(s.Producers, Rect{r.X + dx + proxies + proxyGap, r.Y, producers, r.H})
	}
}

// producerLabel is what a producer's box says: its id and its rate.
func producerLabel(p *cluster.ProducerView) string { return p.ID + " " + strconv.Itoa(p.Rate) + "/s" }

// producersW is the width the producers' boxes take side by side at their natural widths.
func producersW(ps []cluster.ProducerView) float64 {
	total := 0.0
	for i := range ps {
		total += TextWidth(producerLabel(&ps[i])) + 10 + consumerG
	}
	return total - consumerG
}

func (l *Layout) layoutProducers(ps []cluster.ProducerView, r Rect) {
	labels := make([]string, len(ps))
	total := 0.0
	for i := range ps {
		labels[i] = producerLabel(&ps[i])
		total += TextWidth(labels[i]) + 10 + consumerG
	}
	w := 0.0
	if total-consumerG > r.W {
		w = (r.W+consumerG)/float64(len(ps)) - consumerG
		total = r.W + consumerG
	}
	x := r.X + (r.W-(total-consumerG))/2
	l.Producers = make([]Box, 0, len(ps))
	l.producerAt = make(map[string]int, len(ps))
	for i, p := range ps {
		bw := w
		if w == 0 {
			bw = TextWidth(labels[i]) + 10
		}
		l.producerAt[p.ID] = len(l.Producers)
		l.Producers = append(l.Producers, Box{ID: p.ID, Rect: Rect{x, r.Y, max(bw, 1), r.H}})
		x += bw + consumerG
	}
}

// Proxy boxes.
const (
	proxyBand         = 3   // the stripe at a proxy box's left that sets it apart from a producer's
	proxyGap          = 12  // between the proxies and the producers
	proxyConsumersMax = 999 // the most consumers a proxy box makes room for
)

// proxyWordsW is the widest of what a proxy box says after its name: its consumers' count or
// the word for down.
func proxyWordsW(lang string) float64 {
	return max(TextWidth(Word(lang, "canvas.proxy.consumers", proxyConsumersMax)), TextWidth(Word(lang, "canvas.DOWN")))
}

// layoutProxies places a box per proxy (ID: its name) from the left of r, each as wide as
// its name and proxyWordsW need, all narrowed alike where they would take more than half of
// the row: centred with the producers (layoutTopRow), they stay clear of the header's legend
// button over the row's right end. It returns the width they take. The embed's poster (poster.mjs) draws no proxies: a run with some shows
// its producers a little to the right when it plays.
func (l *Layout) layoutProxies(ps []cluster.ProxyView, r Rect) float64 {
	n := len(ps)
	ws := make([]float64, n)
	total := float64(n-1) * consumerG
	after := proxyWordsW(l.Lang)
	for i := range ps {
		ws[i] = proxyBand + 4 + TextWidth(ps[i].Name) + 8 + after + 4
		total += ws[i]
	}
	if limit := r.W / 2; total > limit {
		gaps := float64(n-1) * consumerG
		scale := math.Max(limit-gaps, float64(n)) / (total - gaps)
		total = gaps
		for i := range ws {
			ws[i] = math.Max(ws[i]*scale, 1)
			total += ws[i]
		}
	}
	l.Proxies = make([]Box, 0, n)
	l.proxyAt = make(map[string]int, n)
	x := r.X
	for i := range ps {
		l.proxyAt[ps[i].Name] = len(l.Proxies)
		l.Proxies = append(l.Proxies, Box{ID: ps[i].Name, Rect: Rect{x, r.Y, ws[i], r.H}})
		x += ws[i] + consumerG
	}
	return total
}

// ProxyHit is a proxy box's target: the box grown down to 24 units tall at least (WCAG 2.2's
// target size), into the gap under the producers' row, clear of the header and the group
// tabs above it.
func ProxyHit(b Box) Rect {
	return Rect{b.X, b.Y, b.W, math.Max(b.H, minTargetCSS)}
}

// ConsumerLabel is the text on a consumer's box: its id, or, when the id is long, its mark's
// label (what its cells carry) and the part of the id that tells it apart from the others
// ("3 ~@4012" for 127.0.0.1@4012): never the start that every id of a host shares.
func ConsumerLabel(id string, m Mark) string {
	if len(id) <= shortID || m.Label == id {
		return id
	}
	part := m.Part
	if part == "" {
		part = id
	}
	return m.Label + " " + part
}

// Restarted reports whether the consumer's current process is a restart with a new client id
// (c1 comes back as c1#2, ip@pid as ip@pid'#nanoTime, spec §1.2): the canvas says so.
func Restarted(cv *cluster.ConsumerView) bool { return cv.ClientID != "" && cv.ClientID != cv.ID }

// layoutConsumers places the consumer boxes in centred rows at the bottom of r and returns
// the height they take. ids are the consumers in ConsumerOrder.
func (l *Layout) layoutConsumers(s *cluster.Snapshot, ids []string, r Rect) float64 {
	n := len(ids)
	if n == 0 {
		return 0
	}
	labelW := 0.0
	for _, id := range ids {
		labelW = max(labelW, TextWidth(ConsumerLabel(id, l.Marks[id])))
	}
	type mode struct {
		kind   int
		w, h   float64
		maxFrc float64
	}
	statusW := 0.0
	for _, st := range []string{cluster.StatusAlive, cluster.StatusIdle, cluster.StatusKilled, cluster.StatusPartitioned, cluster.StatusStopped, cluster.StatusHung} {
		statusW = max(statusW, TextWidth(StatusTextIn(l.Lang, st)))
	}
	for i := range s.Consumers {
		if Restarted(&s.Consumers[i]) {
			statusW = max(statusW, TextWidth(Word(l.Lang, "canvas.restarted")))
			break
		}
	}
	modes := []mode{
		{ConsumerTall, max(labelW, statusW, TextWidth("stopped")) + 8, tallH, 0.34},
		{ConsumerCompact, labelW + 8 + swatchW, compactH, 0.42},
	}
	pick := func(w, h float64) (perRow, rows int) {
		perRow = max(1, int((r.W+consumerG)/(w+consumerG)))
		return perRow, (n + perRow - 1) / perRow
	}
	chosen := mode{kind: -1}
	for _, m := range modes {
		if m.w > r.W {
			continue
		}
		_, rows := pick(m.w, m.h)
		if float64(rows)*(m.h+consumerG)-consumerG <= m.maxFrc*r.H {
			chosen = m
			break
		}
	}
	if chosen.kind < 0 {
		// Tiny boxes: the largest square-ish size whose rows fit the same share.
		chosen = mode{kind: ConsumerTiny, w: 3, h: 3}
		for size := 16.0; size >= 3; size-- {
			w := math.Min(size*1.4, r.W)
			_, rows := pick(w, size)
			if float64(rows)*(size+2)-2 <= 0.42*r.H {
				chosen = mode{kind: ConsumerTiny, w: w, h: size}
				break
			}
		}
	}
	l.ConsumerMode = chosen.kind
	g := float64(consumerG)
	if chosen.kind == ConsumerTiny {
		g = 2
	}
	perRow := max(1, int((r.W+g)/(chosen.w+g)))
	rows := (n + perRow - 1) / perRow
	height := float64(rows)*(chosen.h+g) - g
	top := r.Bottom() - height
	l.Consumers = make([]Box, 0, n)
	l.consumerAt = make(map[string]int, n)
	for i, id := range ids {
		row, col := i/perRow, i%perRow
		inRow := min(perRow, n-row*perRow)
		rowW := float64(inRow)*(chosen.w+g) - g
		x := r.X + (r.W-rowW)/2 + float64(col)*(chosen.w+g)
		l.consumerAt[id] = len(l.Consumers)
		l.Consumers = append(l.Consumers, Box{ID: id, Rect: Rect{x, top + float64(row)*(chosen.h+g), chosen.w, chosen.h}})
	}
	return height
}

// layoutBrokers fits the broker blocks into r: it tries every number of blocks per row and of
// queue columns per block, and keeps the one with the largest readable cells. In a run with
// several topics or groups a block holds a band per topic of the group shown (bandsOf): a
// label row over the topic's cells, each band as many rows as its broker with the most of
// its queues needs, so that a topic sits at the same height in every block of a row.
func (l *Layout) layoutBrokers(s *cluster.Snapshot, r Rect) {
	n := len(s.Brokers)
	if n == 0 || r.W <= 0 || r.H <= 0 {
		return
	}
	bands, bandOf := l.bandsOf(s)
	nb := len(bands)
	qmax := 1
	for _, bd := range bands {
		qmax = max(qmax, bd.qmax)
	}
	// labelsH is the height the bands' labels and the gaps between bands take (none for the
	// one band of a run with one topic and one group).
	labelsH := 0.0
	if len(s.Groups) > 0 {
		labelsH = float64(nb)*bandH + float64(nb-1)*bandGap
	}
	// rowsOf is the rows of cells of every band with qc columns, and each band's in rows.
	rows := make([]int, nb)
	rowsOf := func(qc int) int {
		total := 0
		for i, bd := range bands {
			rows[i] = max(1, (bd.qmax+qc-1)/qc)
			total += rows[i]
		}
		return total
	}
	const bgap = 6.0
	type fit struct {
		bc, qc        int
		cw, ch, score float64
	}
	search := func(meter float64) fit {
		best := fit{score: -1}
		for bc := n; bc >= 1; bc-- { // on a tie, fewer rows of blocks
			br := (n + bc - 1) / bc
			bw := (r.W - float64(bc-1)*bgap) / float64(bc)
			bh := (r.H - float64(br-1)*bgap) / float64(br)
			iw, ih := bw-2*brokerPad, bh-titleH-meter-2*brokerPad-labelsH
			if iw <= 0 || ih <= 0 {
				continue
			}
			for qc := 1; qc <= qmax; qc++ {
				qr := rowsOf(qc)
				g := cellGap(iw/float64(qc), ih/float64(qr))
				cw := (iw - float64(qc-1)*g) / float64(qc)
				ch := (ih - float64(qr-nb)*g) / float64(qr)
				if cw < 2 || ch < 2 {
					continue
				}
				cw, ch = math.Min(cw, maxCellW), math.Min(ch, maxCellH)
				score := math.Min(cw/cellAspect, ch)
				if score > best.score+1e-9 {
					best = fit{bc, qc, cw, ch, score}
				}
			}
		}
		return best
	}
	// The meter row (each broker's share and latency, with their units) is worth a little of
	// the cells' size: the cells keep their labels, or most of their size.
	best := search(0)
	if m := search(meterH); m.score >= 0 && (m.score >= 0.85*best.score ||
		math.Floor(m.cw) >= TextWidth("c64")+2 && math.Floor(m.ch) >= GlyphH) {
		best = m
	}
	if best.score < 0 {
		return
	}
	bc, qc := best.bc, best.qc
	qr := rowsOf(qc)
	br := (n + bc - 1) / bc
	g := cellGap(best.cw, best.ch)
	cw, ch := math.Floor(best.cw), math.Floor(best.ch)
	contentW := float64(qc)*cw + float64(qc-1)*g + 2*brokerPad
	bw := contentW
	// Widen blocks, within their share of the row, to show the broker's name.
	share := (r.W - float64(bc-1)*bgap) / float64(bc)
	nameW := 0.0
	for _, b := range s.Brokers {
		// The name, a latency label and the isolation ring side by side.
		nameW = max(nameW, TextWidth(b.Name)+TextWidth("+"+Word(l.Lang, "canvas.ms", 6000))+2*brokerPad+2*isolationRingRadius+10)
	}
	if len(s.Groups) > 0 {
		for _, bd := range bands {
			nameW = max(nameW, TextWidth(bandLabel(l.Lang, bd))+2*brokerPad)
		}
	}
	bw = math.Max(bw, math.Min(share, nameW))
	bh := titleH + 2*brokerPad + labelsH + float64(qr)*ch + float64(qr-nb)*g
	// A meter row under each title where the height spares it: the cells keep their size.
	meter := 0.0
	if float64(br)*(bh+meterH)+float64(br-1)*bgap <= r.H {
		meter = meterH
		bh += meter
	}
	// Spread the blocks over the row when they are narrow, up to a comfortable gap.
	gapX := bgap
	if bc > 1 {
		gapX = clamp((r.W-float64(bc)*bw)/float64(bc-1), bgap, 48)
	}
	gridW := float64(bc)*bw + float64(bc-1)*gapX
	gridH := float64(br)*bh + float64(br-1)*bgap
	x0 := r.X + (r.W-gridW)/2
	y0 := r.Y + math.Max(0, (r.H-gridH)/2)
	l.CellW, l.CellH = cw, ch
	l.CellText = cw >= TextWidth("c64")+2 && ch >= GlyphH
	cells := len(s.Queues)
	if len(s.Groups) == 0 {
		cells = 0
		for _, b := range s.Brokers {
			cells += max(b.Queues, 0)
		}
	}
	l.Brokers, l.brokerAt = make([]BrokerBox, 0, n), make(map[string]int, n)
	l.Cells, l.cellAt = make([]Cell, 0, cells), make(map[string]int, cells)
	l.gridBottom = y0 + gridH
	// A gutter is the middle of the gap between two columns of blocks; the outer ones keep
	// inside the stage.
	edge := min(gapX/2, (x0-l.Bounds.X)/2, (l.Bounds.Right()-(x0+gridW))/2)
	// Each band's top in a block, below the title and meter: its label row, then its rows.
	bandTop := make([]float64, nb)
	if len(s.Groups) > 0 {
		y := 0.0
		for i := range bands {
			bandTop[i] = y
			y += bandH + float64(rows[i])*ch + float64(rows[i]-1)*g + bandGap
		}
	}
	// With groups, each broker's queues (the snapshot lists them broker by broker).
	var queuesOf map[string][]int
	if len(s.Groups) > 0 {
		queuesOf = make(map[string][]int, n)
		for k := range s.Queues {
			queuesOf[s.Queues[k].Broker] = append(queuesOf[s.Queues[k].Broker], k)
		}
	}
	for i, b := range s.Brokers {
		row, col := i/bc, i%bc
		box := Rect{x0 + float64(col)*(bw+gapX), y0 + float64(row)*(bh+bgap), bw, bh}
		title := Rect{box.X, box.Y, box.W, titleH}
		l.brokerAt[b.Name] = len(l.Brokers)
		bb := BrokerBox{Name: b.Name, Label: brokerLabel(b.Name, box.W-2*brokerPad-12), Rect: box, Title: title,
			lastRow: row == br-1, exitY: box.Bottom() + bgap/2, gutterL: box.X - gapX/2, gutterR: box.Right() + gapX/2}
		if col == 0 {
			bb.gutterL = box.X - edge
		}
		if col == bc-1 {
			bb.gutterR = box.Right() + edge
		}
		if meter > 0 {
			bb.Meter = Rect{box.X + brokerPad, title.Bottom(), box.W - 2*brokerPad, meter}
		}
		cx0 := box.X + (box.W-contentW)/2 + brokerPad
		top := box.Y + titleH + meter + brokerPad
		if len(s.Groups) == 0 {
			l.Brokers = append(l.Brokers, bb)
			for q := range b.Queues {
				col, row := q/qr, q%qr // column-major: a broker reads as columns of its queues
				cell := Rect{cx0 + float64(col)*(cw+g), top + float64(row)*(ch+g), cw, ch}
				name := queueName(s, len(l.Cells), b.Name, q)
				l.cellAt[name] = len(l.Cells)
				l.Cells = append(l.Cells, Cell{Queue: name, Broker: b.Name, Rect: cell, block: i})
			}
			continue
		}
		bb.Bands = make([]Rect, nb)
		for _, k := range queuesOf[b.Name] {
			q := &s.Queues[k]
			bi := bandOf[k]
			if bb.Bands[bi].W == 0 {
				bb.Bands[bi] = Rect{box.X + brokerPad, top + bandTop[bi], box.W - 2*brokerPad, bandH}
			}
			col, row := q.ID/rows[bi], q.ID%rows[bi]
			cell := Rect{cx0 + float64(col)*(cw+g), top + bandTop[bi] + bandH + float64(row)*(ch+g), cw, ch}
			if bands[bi].Kind != BandTopic && bands[bi].qmax == 1 {
				cell.W = contentW - 2*brokerPad // a broker's one queue of it: the band's whole width
			}
			l.cellAt[q.Queue] = len(l.Cells)
			l.Cells = append(l.Cells, Cell{Queue: q.Queue, Broker: b.Name, Topic: q.Topic, Rect: cell, block: i, band: bi})
		}
		l.Brokers = append(l.Brokers, bb)
	}
	l.cellsOnce = len(l.cellAt) == len(l.Cells)
}

// bandsOf is the bands of the snapshot's queues and the band of each queue: one band of
// every queue without groups; with groups, one per topic of the group shown, its own topics
// in the snapshot's order, then its retry topic, then its dead-letter topic.
func (l *Layout) bandsOf(s *cluster.Snapshot) ([]Band, []int) {
	if len(s.Groups) == 0 {
		qmax := 1
		for _, b := range s.Brokers {
			qmax = max(qmax, b.Queues)
		}
		return []Band{{Topic: s.Topic, qmax: qmax}}, nil
	}
	index := func(bands []Band, topic string) int {
		for k := range bands {
			if bands[k].Topic == topic {
				return k
			}
		}
		return -1
	}
	var seen []Band
	for i := range s.Queues {
		q := &s.Queues[i]
		k := index(seen, q.Topic)
		if k < 0 {
			k = len(seen)
			seen = append(seen, Band{Topic: q.Topic, Kind: bandKind(s.Group, q.Topic)})
		}
		seen[k].qmax = max(seen[k].qmax, q.ID+1)
	}
	// The topics, then the retry topic, then the dead letters, each in the snapshot's order.
	bands := make([]Band, 0, max(len(seen), 1))
	for _, kind := range []int{BandTopic, BandRetry, BandDLQ} {
		for _, b := range seen {
			if b.Kind == kind {
				bands = append(bands, b)
			}
		}
	}
	if len(bands) == 0 {
		bands = append(bands, Band{Topic: s.Topic, qmax: 1})
	}
	of := make([]int, len(s.Queues))
	for i := range s.Queues {
		of[i] = index(bands, s.Queues[i].Topic)
	}
	l.Bands = bands
	return bands, of
}

// bandLabel is what a band's label row says: its topic's name; "retry topic" and "dead
// letters" for the group's own.
func bandLabel(lang string, b Band) string {
	switch b.Kind {
	case BandRetry:
		return Word(lang, "canvas.band.retry")
	case BandDLQ:
		return Word(lang, "canvas.band.dlq")
	}
	return b.Topic
}

// bandLabelIn is bandLabel in w: where it does not fit, a topic's name keeps its end (the
// part that tells TopicA from TopicB: "~A"), the group's own topics a shorter word.
func bandLabelIn(lang string, b Band, w float64) string {
	s := bandLabel(lang, b)
	if TextWidth(s) <= w {
		return s
	}
	switch b.Kind {
	case BandRetry:
		s = Word(lang, "canvas.band.retryShort")
	case BandDLQ:
		s = Word(lang, "canvas.band.dlqShort")
	default:
		for i := range s {
			if i > 0 && TextWidth("~"+s[i:]) <= w {
				return "~" + s[i:]
			}
		}
	}
	return Fit(s, w)
}

// wire is the path of a line from a queue's cell to (tx, ty), a point below the grid of
// broker blocks (a consumer's anchor): down from the cell to under its block and, from a
// block above the grid's last row, along the gap under it to the gutter on the side of
// (tx, ty) and down the gutter, so that no line crosses another broker's block.
type wire struct {
	pts [5][2]float64
	n   int
}

func (w *wire) add(x, y float64) { w.pts[w.n] = [2]float64{x, y}; w.n++ }

// exit is where the wire leaves the grid: its last point before (tx, ty).
func (w wire) exit() (float64, float64) { return w.pts[w.n-2][0], w.pts[w.n-2][1] }

func (l *Layout) wire(cell Cell, tx, ty float64) wire {
	var w wire
	qx := cell.X + cell.W/2
	w.add(qx, cell.Bottom())
	if cell.block < len(l.Brokers) && l.Brokers[cell.block].Name == cell.Broker {
		b := &l.Brokers[cell.block]
		if b.lastRow {
			w.add(qx, b.Bottom())
		} else {
			gx := b.gutterR
			if tx < b.X+b.W/2 {
				gx = b.gutterL
			}
			w.add(qx, b.exitY)
			w.add(gx, b.exitY)
			w.add(gx, l.gridBottom)
		}
	}
	w.add(tx, ty)
	return w
}

// queueName is "broker:q", the name of the k-th cell: the snapshot's own string where its
// k-th queue is that one (a snapshot lists its queues broker by broker, in id order), so that
// a frame's layout does not format a string per cell.
func queueName(s *cluster.Snapshot, k int, broker string, q int) string {
	var digits [20]byte
	if k < len(s.Queues) {
		if qv := &s.Queues[k]; qv.ID == q && len(qv.Queue) > len(broker) && qv.Queue[:len(broker)] == broker &&
			qv.Queue[len(broker)] == ':' && qv.Queue[len(broker)+1:] == string(strconv.AppendInt(digits[:0], int64(q), 10)) {
			return qv.Queue
		}
	}
	return broker + ":" + strconv.Itoa(q)
}

func cellGap(cw, ch float64) float64 {
	if math.Min(cw, ch) < 8 {
		return 1
	}
	return 2
}

// brokerLabel is as much of a broker's name as fits in w: the whole name, then the part
// after "broker-", then nothing.
func brokerLabel(name string, w float64) string {
	if TextWidth(name) <= w {
		return name
	}
	if i := strings.LastIndexAny(name, "-_@."); i >= 0 && TextWidth(name[i+1:]) <= w {
		return name[i+1:]
	}
	return Fit(name, w)
}

// HitTest names what lies under (x, y): the header's legend button, a group's tab, a proxy,
// a consumer, a queue, a broker or a producer, or ("", "") for nothing.
func (l *Layout) HitTest(x, y float64) (kind, id string) {
	if l.LegendHit().Contains(x, y) {
		return HitLegend, HitLegend
	}
	for _, g := range l.Groups {
		if g.Contains(x, y) {
			return HitGroup, g.ID
		}
	}
	for _, p := range l.Proxies {
		if ProxyHit(p).Contains(x, y) {
			return HitProxy, p.ID
		}
	}
	for _, c := range l.Consumers {
		if c.Contains(x, y) {
			return HitConsumer, c.ID
		}
	}
	for _, c := range l.Cells {
		if c.Contains(x, y) {
			return HitQueue, c.Queue
		}
	}
	for _, b := range l.Brokers {
		if b.Contains(x, y) {
			return HitBroker, b.Name
		}
	}
	for _, p := range l.Producers {
		if p.Contains(x, y) {
			return HitProducer, p.ID
		}
	}
	// Near a consumer box smaller than a finger: the consumer whose box, grown to 24×24 CSS
	// px around its centre (the target size of WCAG 2.2), holds the point, the nearest one
	// where several do.
	if id := l.nearConsumer(x, y); id != "" {
		return HitConsumer, id
	}
	return "", ""
}

// minTargetCSS is the least size of a target in CSS pixels (WCAG 2.2, 2.5.8).
const minTargetCSS = 24

func (l *Layout) nearConsumer(x, y float64) string {
	z := l.Zoom
	if z <= 0 {
		z = 1
	}
	side := minTargetCSS / z
	best, bestD := "", math.Inf(1)
	for _, c := range l.Consumers {
		if c.W >= side && c.H >= side {
			continue
		}
		cx, cy := c.Center()
		w, h := max(c.W, side), max(c.H, side)
		if math.Abs(x-cx) > w/2 || math.Abs(y-cy) > h/2 {
			continue
		}
		if d := math.Hypot(x-cx, y-cy); d < bestD {
			best, bestD = c.ID, d
		}
	}
	return best
}

// Consumer, Cell, Broker and Producer look a box up by id.
func (l *Layout) Consumer(id string) (Box, bool) {
	i, ok := l.consumerAt[id]
	if !ok {
		return Box{}, false
	}
	return l.Consumers[i], true
}

func (l *Layout) Cell(queue string) (Cell, bool) {
	i, ok := l.cellAt[queue]
	if !ok {
		return Cell{}, false
	}
	return l.Cells[i], true
}

// cellOf is Cell(queue) for the snapshot's i-th queue: the i-th cell when that is the
// queue's (the cells follow the snapshot's queues), without hashing its name.
func (l *Layout) cellOf(i int, queue string) (Cell, bool) {
	if l.cellsOnce && i < len(l.Cells) && l.Cells[i].Queue == queue {
		return l.Cells[i], true
	}
	return l.Cell(queue)
}

func (l *Layout) Broker(name string) (BrokerBox, bool) {
	i, ok := l.brokerAt[name]
	if !ok {
		return BrokerBox{}, false
	}
	return l.Brokers[i], true
}

func (l *Layout) Producer(id string) (Box, bool) {
	i, ok := l.producerAt[id]
	if !ok {
		return Box{}, false
	}
	return l.Producers[i], true
}

// Proxy looks a proxy's box up by name.
func (l *Layout) Proxy(name string) (Box, bool) {
	i, ok := l.proxyAt[name]
	if !ok {
		return Box{}, false
	}
	return l.Proxies[i], true
}

// HitBoxes is the layout's JSON form for the JS API's layout(): every clickable rectangle in
// the canvas's CSS pixels.
type HitBoxes struct {
	Width     float64     `json:"width"`
	Height    float64     `json:"height"`
	Consumers []Box       `json:"consumers"`
	Brokers   []BrokerBox `json:"brokers"`
	Queues    []Cell      `json:"queues"`
	Producers []Box       `json:"producers"`
	// Proxies are the proxies' targets (ProxyHit; id: the proxy's name); absent in a run
	// without proxies.
	Proxies []Box `json:"proxies,omitempty"`
	Menu    []Box `json:"menu"` // the open menu's items, id = the command type
	// Groups are the group tabs of a run with several topics or groups (id: the group's
	// name), Group the one shown; absent otherwise.
	Groups []Box  `json:"groups,omitempty"`
	Group  string `json:"group,omitempty"`
	// LegendButton is the header's legend button's target (LegendHit).
	LegendButton Rect `json:"legendButton"`
	// TextPx is the labels' em and LinePx their line, in CSS pixels (EmSize and GlyphH
	// times the zoom).
	TextPx float64 `json:"textPx"`
	LinePx float64 `json:"linePx"`
}

// Boxes returns the layout's hit boxes, and the open menu's items when m is not nil. They
// are copies: the caller may move them (Shift), the layout is shared and stays as it is.
func (l *Layout) Boxes(m *Menu) HitBoxes {
	h := HitBoxes{
		Width: l.Bounds.Right(), Height: l.Bounds.Bottom(),
		Consumers: nonNil(slices.Clone(l.Consumers)), Brokers: nonNil(slices.Clone(l.Brokers)), Queues: nonNil(slices.Clone(l.Cells)),
		Producers: nonNil(slices.Clone(l.Producers)), Menu: []Box{}, TextPx: EmSize, LinePx: GlyphH,
		LegendButton: l.LegendHit(), Groups: slices.Clone(l.Groups), Group: l.Group,
	}
	for _, p := range l.Proxies {
		h.Proxies = append(h.Proxies, Box{ID: p.ID, Rect: ProxyHit(p)})
	}
	if m != nil {
		for _, it := range m.Items {
			h.Menu = append(h.Menu, Box{ID: it.Key, Rect: it.Rect})
		}
	}
	if z := l.Zoom; z > 0 && z != 1 {
		h.Width, h.Height, h.TextPx, h.LinePx = h.Width*z, h.Height*z, h.TextPx*z, h.LinePx*z
		h.LegendButton = h.LegendButton.Scale(z)
		zoomBoxes(h.Consumers, z)
		zoomBoxes(h.Producers, z)
		zoomBoxes(h.Menu, z)
		zoomBoxes(h.Groups, z)
		zoomBoxes(h.Proxies, z)
		for i := range h.Brokers {
			h.Brokers[i].Rect, h.Brokers[i].Title = h.Brokers[i].Rect.Scale(z), h.Brokers[i].Title.Scale(z)
		}
		for i := range h.Queues {
			h.Queues[i].Rect = h.Queues[i].Rect.Scale(z)
		}
	}
	return h
}

func zoomBoxes(bs []Box, z float64) {
	for i := range bs {
		bs[i].Rect = bs[i].Rect.Scale(z)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Shift moves every box by (dx, dy): from canvas pixels to a page's coordinates.
func (hb *HitBoxes) Shift(dx, dy float64) {
	move := func(r *Rect) { r.X += dx; r.Y += dy }
	for i := range hb.Consumers {
		move(&hb.Consumers[i].Rect)
	}
	for i := range hb.Brokers {
		move(&hb.Brokers[i].Rect)
	}
	for i := range hb.Queues {
		move(&hb.Queues[i].Rect)
	}
	for i := range hb.Producers {
		move(&hb.Producers[i].Rect)
	}
	for i := range hb.Menu {
		move(&hb.Menu[i].Rect)
	}
	for i := range hb.Groups {
		move(&hb.Groups[i].Rect)
	}
	for i := range hb.Proxies {
		move(&hb.Proxies[i].Rect)
	}
	move(&hb.LegendButton)
}
