package cluster

import (
	"slices"

	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
)

// What each consumer believes, and what the producers' sends did lately: the records behind
// ConsumerView.View and BrokerView.Window.

// rebalanceView is what one decided clustering round of a consumer used and computed: the
// broker that answered its GET_CONSUMER_LIST_BY_GROUP (one drawn at random from its cached
// route each round, spec §3.3 step 2), when, the client ids as the client sorted them (Java
// string order, spec §3.3 step 5; Go byte order, §9.1.4), and the queues its strategy gave it.
// It is built once and never written afterwards.
type rebalanceView struct {
	broker   string
	at       int64
	cids     []string
	computed []string // short names, sorted by queue
}

// askRecord is a round's consumer-list query, whatever came of it.
type askRecord struct {
	broker string
	at     int64
	answer string
}

// Answers of a consumer-list query, as RebalanceView.LastAnswer words them.
const (
	AnswerOK      = "ok"      // the broker listed the group's client ids
	AnswerEmpty   = "empty"   // the broker lists no consumer of the group: SYSTEM_ERROR (spec §3.3, §9.1.4)
	AnswerFailed  = "failed"  // no answer: a timeout (the consumer is cut off) or a refused connection
	AnswerNoRoute = "noRoute" // the consumer knows no broker of the topic: nothing was asked
)

func answerWord(a profile.Answer, asked string) string {
	switch {
	case asked == "":
		return AnswerNoRoute
	case a == profile.AnswerOK:
		return AnswerOK
	case a == profile.AnswerError:
		return AnswerEmpty
	}
	return AnswerFailed
}

func newRebalanceView(p *profile.Profile, t *topicState, broker string, at int64, cids []string, target []route.MessageQueue) *rebalanceView {
	_, sorted := p.SortInputs(nil, cids)
	computed := slices.Clone(target)
	route.SortQueues(computed)
	computed = slices.Compact(computed)
	names := make([]string, len(computed))
	for i, mq := range computed {
		names[i] = queueName(mq, t.idx == 0)
	}
	return &rebalanceView{broker: broker, at: at, cids: orEmpty(sorted), computed: names}
}

// RebalanceView is a consumer's view of its group as of its last decided rebalance round (a
// clustering consumer's; broadcasting asks no broker), next to what the brokers hold now, so a
// stale view shows: a consumer cut off from the network keeps computing nothing new, and keeps
// the queues it computed before, while the brokers drop it and the others take them.
type RebalanceView struct {
	Broker string `json:"broker"` // the broker whose answer the round used (spec §3.3 step 2)
	AtMs   int64  `json:"at"`     // when that round ran
	// Cids are the client ids it answered, in the order the client sorted them (duplicates
	// kept: a broker lists a reconnected client twice until its old channel goes, spec §5.1).
	// Shared with the cluster and every other snapshot of the round: do not write it.
	Cids []string `json:"cids"`
	// NowBroker and Now are the list a broker holds now, sorted the same way: the answering
	// broker's while it is up, else the first live broker's ("" and []: none is up). The
	// views of one snapshot that name the same broker share one Now: do not write it.
	NowBroker string   `json:"nowBroker"`
	Now       []string `json:"now"`
	Stale     bool     `json:"stale"`    // Cids differs from Now
	Computed  []string `json:"computed"` // the queues the strategy gave it, sorted (shared, as Cids)
	// Pulled are the queues whose pulls reach their broker now: its process queues, none
	// while it is cut off (its requests go nowhere), none on a broker that is down.
	Pulled []string `json:"pulled"`
	// The latest round's query, which may have got no answer: then the view above is older.
	LastAskMs     int64  `json:"lastAskMs"`
	LastAskBroker string `json:"lastAskBroker"`
	LastAnswer    string `json:"lastAnswer"` // AnswerOK, AnswerEmpty, AnswerFailed or AnswerNoRoute
}

// IsZero reports that there is no view: before a consumer's first decided round.
func (v RebalanceView) IsZero() bool { return v.Cids == nil }

// rebalanceViewOf is cs's RebalanceView now; the zero view before its first decided round.
// The list the brokers hold now is the broker's registeredView, sorted as cs's client sorts
// it. queues are cs's process queues' short names, in pqList order, never nil; the view's
// Pulled may be queues itself. It fills out, which is zero (the snapshot's own element: no
// view is built and copied into it).
func (c *Cluster) rebalanceViewOf(out *RebalanceView, cs *consumer, queues []string) {
	v := cs.view
	if v == nil || cs.dead || cs.g.model == Broadcasting {
		return
	}
	// The round's lists are never written after it (a later round makes a new view), so every
	// snapshot shares them, as its views share Now.
	out.Broker, out.AtMs, out.Cids, out.Computed = v.broker, v.at, v.cids, v.computed
	out.Now, out.Pulled = []string{}, []string{}
	out.LastAskMs, out.LastAskBroker, out.LastAnswer = cs.lastAsk.at, cs.lastAsk.broker, cs.lastAsk.answer
	b := c.brokerBy[v.broker]
	if b == nil || b.down {
		b = nil
		for _, x := range c.brokers {
			if !x.down {
				b = x
				break
			}
		}
	}
	if b != nil {
		out.NowBroker = b.name
		// One slice per broker and sort until its channels change, shared by views and
		// snapshots: read-only.
		out.Now = c.registeredView(b.groupOf(cs)).sortedBy(cs.prof)
	}
	out.Stale = !cs.stale.equal(out.Cids, out.Now)
	if !cs.partitioned {
		down := false
		for _, pq := range cs.pqList {
			down = down || pq.b.down
		}
		if !down {
			out.Pulled = queues // every queue: the snapshot's list, read-only, shared
		} else {
			for i, pq := range cs.pqList {
				if !pq.b.down {
					out.Pulled = append(out.Pulled, queues[i])
				}
			}
		}
	}
}

// equalMemo remembers whether two lists that are never written again are equal: as long as a
// consumer's view and the brokers' list stay the same slices, each snapshot's Stale is known
// without comparing every id again.
type equalMemo struct {
	a, b []string
	made bool // a and b were compared
	eq   bool
}

func (m *equalMemo) equal(a, b []string) bool {
	if !m.made || !sameSlice(a, m.a) || !sameSlice(b, m.b) {
		*m = equalMemo{a: a, b: b, made: true, eq: slices.Equal(a, b)}
	}
	return m.eq
}

// sameSlice reports that x and y are the same elements of the same array (or both empty).
func sameSlice(x, y []string) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// SendWindowSeconds is the span of a broker's send window: the current virtual second and
// the ones before it, SendWindowSeconds in all.
const SendWindowSeconds = 5

// sendWindow counts a broker's recent send outcomes per virtual second, in a ring.
type sendWindow [SendWindowSeconds]sendSecond

type sendSecond struct {
	sec                    int64 // the virtual second (ms/1000) the counts belong to; -1: empty
	stored, failed, resent int64
}

// at is the ring's bucket for the second of t, emptied when it held an older second.
func (w *sendWindow) at(t int64) *sendSecond {
	sec := t / 1000
	b := &w[sec%SendWindowSeconds]
	if b.sec != sec {
		*b = sendSecond{sec: sec}
	}
	return b
}

// sum adds up the buckets of the window that ends in the second of now.
func (w *sendWindow) sum(now int64) (stored, failed, resent int64) {
	sec := now / 1000
	for _, b := range w {
		if b.sec > sec-SendWindowSeconds && b.sec <= sec && (b.stored|b.failed|b.resent) != 0 {
			stored, failed, resent = stored+b.stored, failed+b.failed, resent+b.resent
		}
	}
	return
}

// SendWindow is a broker's share of the last seconds' sends: from FromMs (the start of the
// oldest second of the window) to now.
type SendWindow struct {
	FromMs int64 `json:"fromMs"`
	Stored int64 `json:"stored"` // messages it stored
	// Share is Stored over the messages all brokers stored in the window (0 when none did).
	Share  float64 `json:"share"`
	Failed int64   `json:"failed"` // send attempts to it that failed (refused, timed out, rejected)
	Resent int64   `json:"resent"` // of those, the ones the producer sent again to a broker
}

// noteStored, noteFailed and noteResent count send outcomes at t in b's window.
func (b *broker) noteStored(t, n int64) { b.win.at(t).stored += n }
func (b *broker) noteFailed(t, n int64) { b.win.at(t).failed += n }
func (b *broker) noteResent(t, n int64) { b.win.at(t).resent += n }

// sendWindows fills each broker view's Window at now.
func (c *Cluster) sendWindows(views []BrokerView) {
	var total int64
	for i, b := range c.brokers {
		s, f, r := b.win.sum(c.now)
		views[i].Window = SendWindow{FromMs: max(0, (c.now/1000-SendWindowSeconds+1)*1000), Stored: s, Failed: f, Resent: r}
		total += s
	}
	if total > 0 {
		for i := range views {
			views[i].Window.Share = float64(views[i].Window.Stored) / float64(total)
		}
	}
}
