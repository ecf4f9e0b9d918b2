package cluster

import (
	"fmt"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
)

// Broker-side allocation (spec §8.1 item 2, §8.2): a concurrent CLUSTERING push consumer of
// the current Java client with clientRebalance false computes nothing itself. For each topic
// it subscribes, its retry topic included, it sends QUERY_ASSIGNMENT to a broker of the
// topic's route drawn at random, and the broker allocates with its own list of the group's
// members and its own copy of the route, in PULL mode (the broker's default) or, for a group
// set to POP, with allocate4Pop (pop.go). The broker runs only AVG and AVG_BY_CIRCLE: for any other strategy it
// answers null, and the consumer never gets a queue, its rounds unbalanced, one a second.
// The broker's copy of the route (refreshed every 30 s) is taken as the name server's.

// brokerAllocates reports whether cs's queues are the brokers' to compute (spec §8.1:
// orderly and broadcasting push consumers always allocate locally).
func (cs *consumer) brokerAllocates() bool {
	return cs.brokerSide && !cs.g.orderly && cs.g.model == Clustering && cs.prof.Name == profile.Default
}

// brokerStrategies are the strategies QueryAssignmentProcessor registers (spec §8.2.2).
var brokerStrategies = map[string]allocate.Strategy{"AVG": allocate.Averagely{}, "AVG_BY_CIRCLE": allocate.AveragelyByCircle{}}

// queryAssignment is getRebalanceResultFromBroker for one topic (spec §8.2.1): the queues the
// broker assigns, and whether there is an answer at all (no route, an unreachable broker, a
// broker without the group or with a strategy it does not run: none, the topic unbalanced,
// nothing changed). cost is the round's time so far, which the call adds to.
func (c *Cluster) queryAssignment(cs *consumer, sub *subscription, cost *int64) ([]route.MessageQueue, bool) {
	if cs.viaProxy != 0 {
		// The proxy's remoting server has no processor for QUERY_ASSIGNMENT and no default
		// one: REQUEST_CODE_NOT_SUPPORTED at once, which the client takes as a failure, so
		// the topic is unbalanced, every topic, its retry topic too (spec §8.1, §8.2.1).
		*cost += c.t.NetworkRTT
		if px := c.proxies[cs.viaProxy-1]; !cs.warnedAssign {
			cs.warnedAssign = true
			c.emit(Event{Kind: EventInfo, Cause: CauseAssignmentRefused, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Arg: px.name,
				Text: fmt.Sprintf("%s asks %s for its queues through its remoting port, which serves no QUERY_ASSIGNMENT: REQUEST_CODE_NOT_SUPPORTED, every topic, every round; it takes no queue, its rounds unbalanced (about one a second)", c.who(cs), px.name)})
		}
		return nil, false
	}
	if len(sub.brokers) == 0 {
		// No cached route: the client asks the name server first, within the round; still
		// none (a POP retry topic no revive has created yet): no QUERY_ASSIGNMENT is sent.
		if l := c.routeLists(sub.t); len(l.brokers) > 0 {
			sub.mqSet, sub.brokers, sub.routeOK = l.subscribe, l.brokers, true
		} else {
			return nil, false
		}
	}
	asked := sub.brokers[cs.rnd.NextIntn(int32(len(sub.brokers)))]
	b := c.brokerBy[asked]
	ok, d := c.rpc(cs, b, c.t.RPCTimeout)
	*cost += d
	if !ok {
		return nil, false
	}
	c.channelFor(b, cs).traffic(c.now)
	g := cs.g
	if cs.own != nil {
		g = cs.own
	}
	name := g.strategy.Name()
	s, ok := brokerStrategies[name]
	if !ok {
		if !cs.warnedAssign {
			cs.warnedAssign = true
			c.emit(Event{Kind: EventInfo, Cause: CauseAssignmentNull, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: asked, Arg: name,
				Text: fmt.Sprintf("%s asks %s for its queues, but brokers allocate only with AVG or AVG_BY_CIRCLE: %s answers nothing for %s, and it takes no queue, its rounds unbalanced", c.who(cs), asked, asked, name)})
		}
		return nil, false
	}
	lv := c.registeredView(b.groupOf(cs))
	if len(lv.ids) == 0 {
		return nil, false // the broker does not know the group
	}
	mqAll := c.routeLists(sub.t).subscribe
	pop := c.pops(cs, sub.t)
	if len(mqAll) == 0 {
		if pop && (g.popShare <= 0 || g.popShare >= len(lv.ids)-1) {
			return []route.MessageQueue{}, true // allocate4Pop answers an empty list without a check (§8.2.2)
		}
		return nil, false // allocate throws on an empty mqAll: a null answer
	}
	java, _ := profile.Lookup(string(profile.Default))
	mqAll, cidAll := java.SortInputs(mqAll, lv.sortedBy(java)) // the broker sorts as the client does (§8.2.2 step 4)
	if pop {
		out, err := allocate4Pop(s, g.name, cs.cid, mqAll, cidAll, cs.g.popShare)
		if err != nil {
			return nil, false
		}
		return out, true
	}
	out, err := s.Allocate(g.name, cs.cid, mqAll, cidAll)
	if err != nil {
		return nil, false
	}
	return out, true
}
