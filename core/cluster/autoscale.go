package cluster

import (
	"fmt"
	"strconv"

	"github.com/lbscope/lbscope/core/sim"
)

// AutoscaleConfig is a group's autoscaler, as a Kubernetes HPA on the group's backlog runs it:
// every period it reads the group's backlog (what its members have still to consume of the
// topics they subscribe, retry topics aside); once the backlog has stayed above OutAbove for
// OutForMs it starts Step more members, once it has stayed below InBelow for InForMs it stops
// Step members (the newest first, gracefully), never beyond Min…Max and never within
// CoolDownMs of its last step. Each step is a join or a leave: a rebalance of the group.
type AutoscaleConfig struct {
	OutAbove   int64  `json:"outAbove"`             // backlog above which it scales out
	OutForMs   int64  `json:"outForMs,omitempty"`   // … once it stayed above that long
	InBelow    int64  `json:"inBelow,omitempty"`    // backlog below which it scales in
	InForMs    int64  `json:"inForMs,omitempty"`    // … once it stayed below that long
	Step       int    `json:"step,omitempty"`       // members a step adds or stops; 0: 1
	Min        int    `json:"min,omitempty"`        // members it keeps at least
	Max        int    `json:"max"`                  // members it starts at most
	CoolDownMs int64  `json:"coolDownMs,omitempty"` // least time between two steps
	PeriodMs   int64  `json:"periodMs,omitempty"`   // how often it reads the backlog; 0: 15000 (the HPA's sync period)
	Prefix     string `json:"prefix,omitempty"`     // the ids of the members it starts: prefix1, prefix2, …; "": "auto-"
}

// autoscaler is a group's autoscaler's state.
type autoscaler struct {
	cfg         *AutoscaleConfig // immutable
	aboveSince  int64            // the backlog has been above OutAbove since (-1: it is not)
	belowSince  int64            // … below InBelow since (-1: it is not)
	lastStep    int64            // the last step's time (-1: none yet)
	started     int              // members it has started, for their ids
	startedByID []string         // the ids it started, oldest first
}

// defaultAutoscalePeriod is the HPA's default sync period.
const defaultAutoscalePeriod = 15000

// startAutoscaler arms g's autoscaler.
func (c *Cluster) startAutoscaler(g *groupState, cfg *AutoscaleConfig) {
	a := &autoscaler{cfg: cfg, aboveSince: -1, belowSince: -1, lastStep: -1}
	if g.scaler != nil { // replaced: the ids it gave stay used
		a.started, a.startedByID = g.scaler.started, g.scaler.startedByID
	}
	g.scaler = a
	g.scalerGen++
	c.events.Push(sim.Event{At: c.now + a.period(), Kind: evAutoscale, A: g.idx, B: g.scalerGen})
}

func (a *autoscaler) period() int64 {
	if a.cfg.PeriodMs > 0 {
		return a.cfg.PeriodMs
	}
	return defaultAutoscalePeriod
}

// groupBacklog is what g's members have still to consume of the topics they subscribe, retry
// topics aside (the autoscaler's metric: the group's consumer lag).
func (c *Cluster) groupBacklog(g *groupState) int64 {
	var n int64
	for _, b := range c.brokers {
		for _, t := range g.topics {
			if t.isRetry() || t.unsimulated {
				continue
			}
			bt := b.topicOf(t)
			if bt == nil {
				continue
			}
			offs := b.offsetsOf(g, t)
			for id, q := range bt.qs {
				if id < bt.readQ {
					n += q.maxOffset - offs[id].frontier
				}
			}
		}
	}
	return n
}

// runningMembers is g's members whose process runs, in start order.
func (c *Cluster) runningMembers(g *groupState) []*consumer {
	var out []*consumer
	for _, cs := range c.consumers {
		if cs.g == g && !cs.dead && c.current[memberKey{cs.id, g.idx}] == cs {
			out = append(out, cs)
		}
	}
	return out
}

// autoscale is one evaluation of g's autoscaler.
func (c *Cluster) autoscale(g *groupState, gen int) {
	a := g.scaler
	if a == nil || gen != g.scalerGen {
		return // turned off or replaced (setAutoscale) since this reading was due
	}
	c.events.Push(sim.Event{At: c.now + a.period(), Kind: evAutoscale, A: g.idx, B: gen})
	backlog := c.groupBacklog(g)
	cfg := a.cfg
	switch {
	case backlog > cfg.OutAbove:
		if a.aboveSince < 0 {
			a.aboveSince = c.now
		}
	default:
		a.aboveSince = -1
	}
	switch {
	case backlog < cfg.InBelow:
		if a.belowSince < 0 {
			a.belowSince = c.now
		}
	default:
		a.belowSince = -1
	}
	if a.lastStep >= 0 && c.now-a.lastStep < cfg.CoolDownMs {
		return
	}
	members := c.runningMembers(g)
	step := max(cfg.Step, 1)
	switch {
	case a.aboveSince >= 0 && c.now-a.aboveSince >= cfg.OutForMs && len(members) < cfg.Max:
		n := min(step, cfg.Max-len(members))
		for range n {
			id := c.nextScaledID(g)
			// The step is told first, then what it sets off (as an applied command's).
			c.emit(Event{Kind: EventAction, Cause: CauseAutoscale, Consumer: id, Group: c.groupName0(g), N: int64(len(members) + n), Arg: "start",
				Text: fmt.Sprintf("the autoscaler starts %s: %s's backlog %d has been above %d for %s; %d members", id, g.name, backlog, cfg.OutAbove, spanText(c.now-a.aboveSince), len(members)+n)})
			c.startScaled(g, id)
		}
		a.lastStep, a.aboveSince = c.now, -1
		c.noteOwnership()
	case a.belowSince >= 0 && c.now-a.belowSince >= cfg.InForMs && len(members) > cfg.Min:
		n := min(step, len(members)-cfg.Min)
		for _, cs := range stopOrder(members, a.startedByID)[:n] {
			c.emit(Event{Kind: EventAction, Cause: CauseAutoscale, Consumer: cs.id, Group: c.groupName0(g), N: int64(len(members) - n), Arg: "stop",
				Text: fmt.Sprintf("the autoscaler stops %s: %s's backlog %d has been below %d for %s; %d members", cs.id, g.name, backlog, cfg.InBelow, spanText(c.now-a.belowSince), len(members)-n)})
			c.stop(cs)
		}
		a.lastStep, a.belowSince = c.now, -1
		c.noteOwnership()
	}
}

// groupName0 is g's name when the run has several groups.
func (c *Cluster) groupName0(g *groupState) string {
	if len(c.groups) > 1 {
		return g.name
	}
	return ""
}

// nextScaledID is the id of the next member g's autoscaler starts, one no process has used.
func (c *Cluster) nextScaledID(g *groupState) string {
	a := g.scaler
	prefix := a.cfg.Prefix
	if prefix == "" {
		prefix = "auto-"
	}
	for {
		a.started++
		id := prefix + strconv.Itoa(a.started)
		if len(c.process(id)) == 0 {
			a.startedByID = append(a.startedByID, id)
			return id
		}
	}
}

// stopOrder is the members a scale-in stops first: those the autoscaler started, newest first,
// then the others, newest first (a Deployment scales in the newest pods).
func stopOrder(members []*consumer, scaled []string) []*consumer {
	var mine, others []*consumer
	for i := len(members) - 1; i >= 0; i-- {
		cs := members[i]
		own := false
		for _, id := range scaled {
			own = own || id == cs.id
		}
		if own {
			mine = append(mine, cs)
		} else {
			others = append(others, cs)
		}
	}
	return append(mine, others...)
}

// startScaled starts a member the autoscaler adds: another replica of the group's first
// member's program (its client, rate, listener and subscriptions), or a default one.
func (c *Cluster) startScaled(g *groupState, id string) {
	var tpl *consumer
	for _, cs := range c.consumers {
		if cs.g == g {
			tpl = cs
			break
		}
	}
	if tpl == nil {
		c.startConsumer(id, 0, nil, g, nil, nil)
		return
	}
	var px *proxyState // the same client as the template: a gRPC consumer through its proxy
	if tpl.grpc {
		px = c.proxies[tpl.px]
	}
	cs := c.startConsumer(id, tpl.rate, tpl.prof, g, tpl.subscriptions(), px)
	cs.failPPM, cs.consumeMs, cs.own, cs.from, cs.brokerSide = tpl.failPPM, tpl.consumeMs, tpl.own, tpl.from, tpl.brokerSide
	if tpl.simple.on {
		cs.simple = newSimpleClient(tpl.simple.awaitMs, tpl.simple.invisibleMs, int(tpl.simple.maxMessages))
	}
}

// spanText words how long a condition has held: "15 s", "5 min 30 s", "0 s" (first seen now).
func spanText(ms int64) string {
	s := ms / 1000
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s%60 == 0:
		return fmt.Sprintf("%d min", s/60)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}
