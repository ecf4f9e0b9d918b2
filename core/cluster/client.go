package cluster

import (
	"fmt"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile"
)

// A consumer process runs one client SDK, its profile (spec §9): the profile decides how the
// process allocates and fails, its rebalance timer and triggers, its client id on restart,
// its pull delays, what dropping a queue does to its other offsets and what leaving sends.
// Members of different profiles in one group each compute their own queues with their own
// rules, so their results need not fit together (rocketmq-client-go#419).

// lookupClient returns the profile a consumer names ("" is the default, the current Java
// client).
func lookupClient(name string) (*profile.Profile, error) {
	p, err := profile.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	return p, nil
}

// strategyFor is group g's strategy as the profile's client builds it: every Java profile
// runs the core's strategies, a Go one rocketmq-client-go's (spec §9.1.3).
func (c *Cluster) strategyFor(g *groupState, p *profile.Profile) (allocate.Strategy, error) {
	return strategyOf(g, p)
}

// strategyOf is strategyFor without the cluster: g may be a member's own (cs.own).
func strategyOf(g *groupState, p *profile.Profile) (allocate.Strategy, error) {
	if !p.IsGo() {
		return g.strategy, nil
	}
	if g.goStrategy == nil {
		if err := checkClientStrategy(p, g.choice, g.params); err != nil {
			return nil, err
		}
		s, err := p.Strategy(g.strategy.Name(), g.params)
		if err != nil {
			return nil, fmt.Errorf("%s cannot run %s: %w", p.Name, g.strategy.Name(), err)
		}
		g.goStrategy = s
	}
	return g.goStrategy, nil
}

// checkClientStrategy reports whether a client of profile p can run strategy c with params.
func checkClientStrategy(p *profile.Profile, c allocate.Choice, params allocate.Params) error {
	if !p.IsGo() {
		return nil
	}
	if c.Scripted() {
		return fmt.Errorf("%s cannot run %s: a strategy given with its source runs in the Java clients' rebalance here", p.Name, c.Name)
	}
	if _, err := p.Strategy(c.Name, params); err != nil {
		return fmt.Errorf("%s cannot run %s: %w", p.Name, strings.ToUpper(c.Name), err)
	}
	return nil
}

// rebalanceSpacing is the least time between two rounds of the process (spec §3.1): the
// configured one for the current Java client, none for 4.9 and Go (spec §9.1.5, §9.2).
func (c *Cluster) rebalanceSpacing(cs *consumer) int64 {
	if cs.prof.Name == profile.Java {
		return c.t.RebalanceMinInterval
	}
	return cs.prof.Timing.MinSpacing
}

// firstPullDelay is the wait before a newly assigned queue's first pull (Java 500 ms, Go
// none: its pull goroutine starts at once, spec §9.1.7).
func (c *Cluster) firstPullDelay(cs *consumer) int64 {
	if cs.prof.Name == profile.Java {
		return c.t.PullFirstDelay
	}
	return cs.prof.Timing.FirstPullDelay
}

// pullDelayOnError is the retry delay after a failed pull (Java 1 s, Go 3 s).
func (c *Cluster) pullDelayOnError(cs *consumer) int64 {
	if cs.prof.Name == profile.Java {
		return c.t.PullDelayOnException
	}
	return cs.prof.Timing.PullDelayOnError
}

// longPollHold is how long the broker holds an empty pull of this process: the suspend time
// the client asks for (Java 15 s, Go 20 s).
func (c *Cluster) longPollHold(cs *consumer) int64 {
	if cs.prof.Name == profile.Java {
		return c.t.LongPollHold
	}
	return cs.prof.Timing.LongPollSuspend
}

// advanceTicks moves a fixed-ticker client's ticker up to t: a tick that fired while the
// process was busy waits, at most one (Go's time.Ticker drops the rest, spec §9.1.5).
func (c *Cluster) advanceTicks(cs *consumer, t int64) {
	for cs.nextTick <= t {
		cs.tickDue = true
		cs.nextTick += c.t.RebalanceWaitInterval
	}
}

// crash ends a process whose strategy panicked (a Go client does not recover it, spec
// §9.1.4 step 5): as a kill, its connections close and nothing is uploaded.
func (c *Cluster) crash(cs *consumer, err error) {
	c.emit(Event{Kind: EventInfo, Cause: CauseConsumerCrashed, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Arg: string(cs.prof.Name),
		Text: fmt.Sprintf("%s crashes: its %s strategy raised %v, which nothing recovers; the process exits and its connections close", c.who(cs), cs.prof.SDK, err)})
	for _, m := range cs.lead.peers {
		if !m.dead {
			c.kill(m) // the process exits: every group of its instance goes with it
		}
	}
	c.noteOwnership()
}
