package scenario

import (
	"fmt"
	"math"
	"strconv"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
)

// Work estimates. Every driver that runs the engine asks, before it starts, how much work a
// run, a replay, a seek or a step is, and compares it with what it can afford: the command
// line with --max-work, the playground with what fits in a moment of the page's time. The
// unit is what the engine spends on one message (sent, stored, pulled and consumed): about
// 50 ns natively, 0.5 µs in a browser on a slow machine.
//
// The estimate is an upper bound built from the scenario's busiest shape (the most brokers,
// queues, consumers and the highest rate its timeline reaches), its timings and its strategy,
// and it grows linearly with the virtual time covered:
//
//   - messages: the producers' summed rate, per second, and a producer's own selector's
//     whole step budget for each of its keyed sends;
//   - queues: the message flow steps over every queue (spec §3.8), QueueWork per queue every
//     50 ms of flow step, and the pulls that long polling holds and resumes;
//   - each consumer's timers: a rebalance (spec §3.3) every rebalanceWaitInterval over all
//     queues and consumers (for CONSISTENT_HASH over the ring of virtual nodes), a heartbeat
//     to every broker every heartbeatInterval, the offsets persisted every
//     persistOffsetInterval and the route polled every pollNameServerInterval;
//   - each broker's expiry scan and long-poll hold checks;
//   - a start (and every action that adds or restarts a member) makes every broker notify
//     every consumer, and then every consumer rebalances.
//
// Shortening the timings (every interval at 1 ms) multiplies the timers' share accordingly.

// QueueWork is what one queue costs every 50 ms of flow step, in work units.
const QueueWork = 10

// Work is an estimate of the engine's work; see WorkOf.
type Work struct {
	Units int64 // the whole span
	// PerSecond is the cost of one virtual second, and Start that of a run's beginning (every
	// broker notifying every consumer, and the rounds of rebalancing until the group settles);
	// Units = Start + PerSecond × seconds + a round of rebalancing per timeline action.
	PerSecond int64
	Start     int64
	// Build is what building the cluster costs (the first registrations and their
	// notifications), and Round one round of rebalancing of every consumer: the part of Start
	// that happens at once.
	Build, Round int64
	Span         int64 // virtual milliseconds covered
}

// WorkOf estimates running s over its whole run, from 00:00 to s.End().
func WorkOf(s Scenario) Work { return WorkSpan(s, 0, s.End().Ms(), true) }

// WorkSpan estimates running s from virtual time from to time to (milliseconds), counting the
// cluster's start when start is set (a run from 00:00) and every timeline action in the span.
func WorkSpan(s Scenario, from, to int64, start bool) Work {
	sh := busiest(s)
	w := Work{PerSecond: sh.perSecond(), Span: max(to-from, 0), Build: sh.build(), Round: sh.action()}
	if start {
		w.Start = sh.burst()
	}
	var actions int64
	for _, st := range s.Timeline {
		if at := st.At.Ms(); at >= from && at <= to {
			actions = sat(actions, sh.action())
		}
	}
	w.Units = sat(sat(w.Start, actions), spanUnits(w.PerSecond, w.Span))
	return w
}

// Within is the work of the part from..to of w's span, with w's shape (which WorkSpan measures
// over the whole timeline, so a part has the same one): what WorkSpan(s, from, to, start)
// would give, without measuring the shape again — a caller halving a span asks this often.
func (w Work) Within(s Scenario, from, to int64) int64 {
	var actions int64
	for _, st := range s.Timeline {
		if at := st.At.Ms(); at >= from && at <= to {
			actions = sat(actions, w.Round)
		}
	}
	return sat(sat(w.Start, actions), spanUnits(w.PerSecond, max(to-from, 0)))
}

// Fits is the longest span, in virtual milliseconds from the span's start, that fits in budget
// units (0 when not even the start does).
func (w Work) Fits(budget int64) int64 {
	left := budget - w.Start
	if left <= 0 || w.PerSecond <= 0 {
		if left > 0 {
			return w.Span
		}
		return 0
	}
	return min(w.Span, int64(float64(left)/float64(w.PerSecond)*1000))
}

// spanUnits is perSecond over ms virtual milliseconds, rounded up.
func spanUnits(perSecond, ms int64) int64 {
	return units(float64(perSecond) * float64(ms) / 1000)
}

// String is "12.3 million units" and the like.
func (w Work) String() string { return Units(w.Units) }

// Units writes a count of work units for people: "850 thousand units", "12.3 million units".
func Units(n int64) string {
	switch {
	case n >= 1e9:
		return strconv.FormatFloat(float64(n)/1e9, 'f', 1, 64) + " billion units"
	case n >= 1e6:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + " million units"
	case n >= 1e4:
		return strconv.FormatInt(n/1000, 10) + " thousand units"
	}
	return strconv.FormatInt(n, 10) + " units"
}

// ParseUnits reads a work budget as --max-work takes it: a count of units, optionally with
// the suffix k, m or g (thousand, million, billion), e.g. "500m".
func ParseUnits(v string) (int64, error) {
	mult := int64(1)
	num := v
	if n := len(v); n > 0 {
		switch v[n-1] {
		case 'k', 'K':
			mult, num = 1e3, v[:n-1]
		case 'm', 'M':
			mult, num = 1e6, v[:n-1]
		case 'g', 'G':
			mult, num = 1e9, v[:n-1]
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(f) || f < 1 || f*float64(mult) > 1e15 {
		return 0, fmt.Errorf("want a number of work units from 1 to 1e15, optionally with k, m or g (e.g. 500m)")
	}
	return int64(f * float64(mult)), nil
}

// shape is the most of everything a run reaches.
type shape struct {
	brokers, queues, consumers, producers, rate int64
	vnodes                                      int64 // CONSISTENT_HASH virtual nodes per consumer, at most
	steps                                       int64 // a script's step budget per call, at most
	selectorSteps                               int64 // the producers' selectors' step budgets a second: rate × steps, summed
	t                                           cluster.Timing
}

func busiest(s Scenario) shape {
	sh := shape{
		brokers: int64(len(s.Brokers)), consumers: int64(len(s.Consumers)),
		producers: int64(len(s.Producers)), t: s.Timing.WithDefaults(),
	}
	// The top level's strategy (format 1); with groups, each group's counts too.
	sh.vnodes = vnodes(s.Strategy.Name, s.Params)
	sh.steps = scriptSteps(s.Strategy)
	queues := map[string]int64{}
	for _, b := range s.Brokers {
		queues[b.Name] = int64(b.Queues)
	}
	if len(s.Topics) > 0 || len(s.Groups) > 0 {
		// Several topics and groups: every queue of every topic (a retry topic's one a broker),
		// each member counted once a group it is in, and every member an autoscaler may start.
		_, n := topicQueues(s.Config)
		for range s.Groups {
			n += len(s.Brokers)
		}
		clear(queues)
		queues[""] = int64(n)
		sh.consumers = 0
		for _, k := range s.Consumers {
			sh.consumers += int64(max(len(k.Groups), 1))
		}
		for _, g := range s.Groups {
			if a := g.Autoscale; a != nil {
				sh.consumers += int64(a.Max)
			}
			sh.vnodes = max(sh.vnodes, vnodes(g.Strategy.Name, g.Params))
			sh.steps = max(sh.steps, scriptSteps(g.Strategy))
		}
	}
	rates := map[string]int64{}
	for _, p := range s.Producers {
		rates[p.ID] = int64(p.Rate)
		sh.rate += int64(p.Rate)
	}
	total := func(m map[string]int64) (n int64) {
		for _, v := range m {
			n += v
		}
		return n
	}
	sh.queues = total(queues)
	for i, st := range s.Timeline {
		// Each count at its most: every member added (an id added again counts again), each
		// broker's largest queue count given, each producer's highest rate.
		g := cluster.GrowthOf(st.Command)
		if g.AddsMember {
			sh.consumers++
		}
		sh.consumers += int64(g.AddsMembers) // every member an autoscaler it arms may start
		if g.TopicQueues > 0 || g.AddsRate > 0 {
			// A topic created on every broker, and its producer (keyed by the step).
			key := fmt.Sprintf("step %d", i)
			queues[key] = int64(g.TopicQueues) * sh.brokers
			rates[key] = int64(g.AddsRate)
		}
		if g.SetsQueues && !g.DefaultQueues {
			if _, ok := queues[g.Broker]; !ok && g.AddsBroker {
				sh.brokers++
			}
			queues[g.Broker] = max(queues[g.Broker], int64(g.Queues))
		}
		if g.SetsRate {
			if g.RateOf == "" {
				for id := range rates {
					rates[id] = max(rates[id], int64(g.Rate))
				}
			} else {
				rates[g.RateOf] = max(rates[g.RateOf], int64(g.Rate))
			}
		}
		if g.SetsStrategy {
			sh.vnodes = max(sh.vnodes, vnodes(g.Strategy, g.Params))
			sh.steps = max(sh.steps, scriptSteps(allocate.Choice{Name: g.Strategy}), int64(g.Steps))
		}
		sh.queues = max(sh.queues, total(queues))
		sh.rate = max(sh.rate, total(rates))
	}
	for _, p := range s.Producers {
		// A selector of the user's runs once a keyed send, its whole budget counted: the
		// largest a producer's file or timeline gives it, at its highest rate.
		if p.Keys == nil {
			continue
		}
		steps := 0
		if p.Selector != nil {
			steps = p.Selector.StepBudget()
		}
		for _, st := range s.Timeline {
			if g := cluster.GrowthOf(st.Command); g.SelectorOf == "" || g.SelectorOf == p.ID {
				steps = max(steps, g.SelectorSteps)
			}
		}
		sh.selectorSteps = sat(sh.selectorSteps, mul(rates[p.ID], int64(steps)))
	}
	return sh
}

// vnodes is the virtual nodes per consumer the strategy hashes (its entry's Cost).
func vnodes(strategy string, p allocate.Params) int64 {
	return int64(allocate.Cost(strategy, p))
}

// StepsPerUnit are the steps of a strategy script that cost a work unit: a step of the
// interpreter takes about 25 ns natively.
const StepsPerUnit = 2

// scriptSteps is the step budget of one call of a strategy that runs a script, 0 for one
// that does not: a user's strategy given with its source, or a table entry with Steps.
func scriptSteps(c allocate.Choice) int64 {
	if c.Scripted() {
		return int64(c.StepBudget())
	}
	if s, _, ok := allocate.Lookup(c.Name); ok {
		return int64(s.Steps)
	}
	return 0
}

// rebalance is what one consumer's rebalance costs: the allocation over every queue and
// consumer (for CONSISTENT_HASH the ring of virtual nodes, an MD5 each; for a script its
// whole step budget) and the ownership bookkeeping over every queue that follows it.
func (sh shape) rebalance() float64 {
	return 6*float64(sh.queues) + 4*float64(sh.consumers) + 12*float64(sh.consumers*sh.vnodes) + float64(sh.steps)/StepsPerUnit
}

// per is how many times per virtual second a timer of interval ms fires.
func per(ms int64) float64 { return 1000 / float64(max(ms, 1)) }

func (sh shape) perSecond() int64 {
	t := sh.t
	b, q, c, p := float64(sh.brokers), float64(sh.queues), float64(sh.consumers), float64(sh.producers)
	n := 2*float64(sh.rate) + float64(sh.selectorSteps)/StepsPerUnit
	n += QueueWork * q * per(t.FlowStepMs) / 20
	n += q * per(min(t.LongPollHold, t.HoldCheckInterval, t.PullDelayOnException))
	n += c * sh.rebalance() * per(min(t.RebalanceWaitInterval, t.PullMaxIdleTime))
	n += c * b * per(t.HeartbeatInterval)
	n += q * per(t.PersistOffsetInterval)
	n += (c + p) * q * per(t.PollNameServerInterval)
	n += b * c * per(t.ScanInterval)
	return units(n)
}

// burst is a start, or an action that makes every broker notify every consumer: the
// notifications, and the rounds of rebalancing of every consumer that follow until the
// group settles.
func (sh shape) burst() int64 {
	c := float64(sh.consumers)
	return sat(sh.build(), units(4*c*sh.rebalance()))
}

// build is the cluster's first moment: every consumer registering on every broker, each
// registration notifying the consumers registered so far.
func (sh shape) build() int64 {
	c := float64(sh.consumers)
	return units(float64(sh.brokers) * c * c)
}

// action is one timeline step: at most a round of rebalancing and the notifications.
func (sh shape) action() int64 {
	c := float64(sh.consumers)
	return units(float64(sh.brokers)*c + c*sh.rebalance())
}

func units(f float64) int64 {
	if f >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return int64(math.Ceil(f))
}

// mul and sat multiply and add, saturating at the largest int64.
func mul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/b {
		return math.MaxInt64
	}
	return a * b
}

func sat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// CompareWork estimates one run of a comparison: the costliest of s under each variant (a
// CONSISTENT_HASH variant's ring costs more than AVG). Compare runs that once per variant.
func CompareWork(s Scenario, variants []Variant) Work {
	w := WorkOf(s)
	for _, v := range variants {
		if vw := WorkOf(v.apply(s)); vw.Units > w.Units {
			w = vw
		}
	}
	return w
}
