package cluster

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Tags (spec §5.7). Messages flow in counted batches, so a message's tag is a function of its
// place in its queue: the producers of a topic give its mix of tags (each producer's shares
// weighted by its rate as configured), and a queue's message at offset o carries the tag at
// position o of the mix's pattern, a smooth weighted round robin of the tags over a period of
// whole counts. The shares are exact over every period; which message carries which tag is
// the model's (a real producer decides each message's tag itself).
//
// The broker filters a pull by the group's stored subscription of the topic (the one with the
// highest subVersion: the member whose allocation changed last); the client then filters what
// it received by its own tags. A message either filter drops is never handed to a listener:
// it is counted as filtered, and the queue's offset moves past it (spec §3.16).

// tagPattern is a topic's mix of tags as a period of positions.
type tagPattern struct {
	names  []string  // the tags; "" is a message without a tag
	seq    []uint8   // the tag at each position of the period
	prefix [][]int32 // prefix[i][p]: messages of tag i among the period's first p positions
}

// maxTagPeriod bounds a pattern's period (shares are read in thousandths).
const maxTagPeriod = 1000

// newTagPattern is the pattern of the weighted tags (nil: every message is untagged).
func newTagPattern(weights map[string]float64) *tagPattern {
	names := make([]string, 0, len(weights))
	for name := range weights {
		names = append(names, name)
	}
	slices.Sort(names)
	w := make([]int64, len(names))
	var g, total int64
	for i, name := range names {
		w[i] = int64(math.Round(weights[name] * maxTagPeriod))
		g = gcd(g, w[i])
		total += w[i]
	}
	if total == 0 || (len(names) == 1 && names[0] == "") {
		return nil
	}
	p := &tagPattern{names: names, prefix: make([][]int32, len(names))}
	for i := range w {
		w[i] /= g
	}
	total /= g
	// Smooth weighted round robin: each position goes to the tag furthest behind its share.
	cur := make([]int64, len(w))
	for range total {
		best := 0
		for i := range w {
			cur[i] += w[i]
			if cur[i] > cur[best] {
				best = i
			}
		}
		cur[best] -= total
		p.seq = append(p.seq, uint8(best))
	}
	for i := range names {
		p.prefix[i] = make([]int32, len(p.seq)+1)
		for j, t := range p.seq {
			p.prefix[i][j+1] = p.prefix[i][j]
			if int(t) == i {
				p.prefix[i][j+1]++
			}
		}
	}
	return p
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// upTo is how many messages among offsets [0, o) carry a tag of mask.
func (p *tagPattern) upTo(mask uint32, o int64) int64 {
	period := int64(len(p.seq))
	full, rest := o/period, o%period
	var n int64
	for i := range p.names {
		if mask&(1<<i) != 0 {
			n += full*int64(p.prefix[i][period]) + int64(p.prefix[i][rest])
		}
	}
	return n
}

// matching is how many of offsets [from, to) carry a tag of mask.
func (p *tagPattern) matching(mask uint32, from, to int64) int64 {
	if to <= from {
		return 0
	}
	return p.upTo(mask, to) - p.upTo(mask, from)
}

// span is how far from from a listener reads to be handed want matching messages, at most
// avail offsets: the offsets it passes and the matching ones among them.
func (p *tagPattern) span(mask uint32, from, avail, want int64) (offsets, matched int64) {
	all := p.matching(mask, from, from+avail)
	if all <= want {
		return avail, all
	}
	// The smallest s with matching(from, from+s) = want, by bisection.
	lo, hi := int64(0), avail
	for lo < hi {
		mid := lo + (hi-lo)/2
		if p.matching(mask, from, from+mid) >= want {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo, want
}

// topicTags gives each declared topic its pattern from the producers that send to it.
func (c *Cluster) topicTags(producers []ProducerConfig) {
	weights := map[*topicState]map[string]float64{}
	for _, pc := range producers {
		t := c.topics[0]
		if pc.Topic != "" {
			t = c.topicBy[pc.Topic]
		}
		if weights[t] == nil {
			weights[t] = map[string]float64{}
		}
		rest := 1.0
		for tag, share := range pc.Tags {
			weights[t][tag] += float64(pc.Rate) * share
			rest -= share
		}
		if rest > 0 {
			weights[t][""] += float64(pc.Rate) * rest // messages without a tag
		}
	}
	for t, w := range weights {
		// Normalised so that the pattern's period stays within its bound.
		var total float64
		for _, x := range w {
			total += x
		}
		if total <= 0 {
			continue
		}
		for k := range w {
			w[k] /= total
		}
		t.tags = newTagPattern(w)
	}
}

// filter is what reaches member cs's listener of queue pq's messages (cached in pq.seen).
func (c *Cluster) filter(cs *consumer, pq *processQueue) (mask uint32, active bool) {
	s := c.seen(cs, pq)
	return s.mask, s.active
}

// seen is pq's queueSeen, made again when its broker's table or cs's subscriptions changed.
func (c *Cluster) seen(cs *consumer, pq *processQueue) *queueSeen {
	bg := pq.b.groupOf(cs)
	if s := &pq.seen; s.tableGen == bg.tableGen+1 && s.subsGen == cs.subsGen+1 {
		return s
	}
	mask, active := c.filterNow(cs, pq)
	was := pq.seen
	pq.seen = queueSeen{tableGen: bg.tableGen + 1, subsGen: cs.subsGen + 1, ok: bg.subscribed(pq.t), mask: mask, active: active}
	if active && (!was.active || was.mask != mask || was.tableGen == 0) {
		c.tellFiltered(cs, pq, mask)
	}
	return &pq.seen
}

// filterNow is a mask of the topic's tags that pass the broker's filter (the group's stored
// subscription there) and the member's own, and whether any filter applies at all ("*" both
// ways: every message passes).
func (c *Cluster) filterNow(cs *consumer, pq *processQueue) (mask uint32, active bool) {
	var own []string
	for _, sub := range cs.subs {
		if sub.t == pq.t {
			own = sub.tags
		}
	}
	var stored []string
	if e := pq.b.groupOf(cs).table[pq.t.name]; e != nil {
		stored = e.tags
	}
	if own == nil && stored == nil {
		return 0, false
	}
	p := pq.t.tags
	if p == nil {
		return 0, true // no message has a tag: a tag expression matches none
	}
	for i, name := range p.names {
		if name != "" && (stored == nil || slices.Contains(stored, name)) && (own == nil || slices.Contains(own, name)) {
			mask |= 1 << i
		}
	}
	return mask, true
}

// tellFiltered tells which of a queue's messages reach member cs's listener from now on, once
// the filters that decide it change: the tags both the broker's stored subscription and the
// member's own let through.
func (c *Cluster) tellFiltered(cs *consumer, pq *processQueue, mask uint32) {
	var pass []string
	if p := pq.t.tags; p != nil {
		for i, name := range p.names {
			if mask&(1<<i) != 0 {
				pass = append(pass, name)
			}
		}
	}
	stored := "*"
	if e := pq.b.groupOf(cs).table[pq.t.name]; e != nil && e.tags != nil {
		stored = strings.Join(e.tags, "||")
	}
	own := "*"
	for _, sub := range cs.subs {
		if sub.t == pq.t && sub.tags != nil {
			own = strings.Join(sub.tags, "||")
		}
	}
	what := "none of its messages reach the listener: each is counted as filtered"
	if len(pass) > 0 {
		what = "only its " + strings.Join(pass, ", ") + " messages reach the listener, the others are counted as filtered"
	}
	name := pq.b.short(pq.t, pq.mq.QueueID)
	c.emit(Event{Kind: EventInfo, Cause: CauseFiltered, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: pq.b.name,
		Queues: []string{name}, Arg: strings.Join(pass, "||"),
		Text: fmt.Sprintf("%s's pulls of %s: %s filters by the group's stored %s, the client by its own %s; %s", c.who(cs), name, pq.b.name, stored, own, what)})
}
