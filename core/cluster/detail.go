package cluster

import (
	"fmt"
	"strings"
)

// Message-level events (spec §8.3, §8.4.5, §8.6.6): every pop (a gRPC receive through a proxy
// is one) and every ack of a POP or gRPC member, told only when a driver asks for them
// (Config.Detail, SetDetail). A busy POP group pops a few times a second and acks at every
// step, so they stay out of the bounded log and the playground's story, and a run tells at
// most MaxDetailEvents of them.

// EventDetail is the kind of the message-level events.
const EventDetail = "detail"

// Causes of the message-level events.
const (
	CausePop = "pop"
	CauseAck = "ack"
)

// MaxDetailEvents bounds the message-level events of one run (an hour of a busy POP group
// would pop and ack some hundred thousand times).
const MaxDetailEvents = 20_000

// SetDetail turns the message-level events on (each pop and ack, at most MaxDetailEvents from
// now) or off.
func (c *Cluster) SetDetail(on bool) {
	c.detailLeft = 0
	if on {
		c.detailLeft = MaxDetailEvents
	}
}

// emitDetail tells a message-level event to the observer, when they are on; it never enters
// the log.
func (c *Cluster) emitDetail(e Event) {
	if c.detailLeft <= 0 {
		return
	}
	c.detailLeft--
	if c.detailLeft == 0 {
		e.Text += fmt.Sprintf(" (the last pop or ack told: a run tells at most %d)", MaxDetailEvents)
	}
	e.Kind = EventDetail
	e.T = c.now
	if c.held != nil {
		c.held = append(c.held, e)
		return
	}
	if c.observer != nil {
		c.observer(e)
	}
}

// tellPop tells a pop of cs's queue pq on broker b that found n messages in the checkpoints
// from index first of b.cks on (Queues: the queues read; Until: the end of their invisible
// time).
func (c *Cluster) tellPop(cs *consumer, pq *popQueue, b *broker, first int, n int64) {
	if c.detailLeft <= 0 {
		return
	}
	var queues []string
	for _, ck := range b.cks[first:] {
		name := b.short(c.topics[ck.t], ck.q)
		if len(queues) == 0 || queues[len(queues)-1] != name {
			queues = append(queues, name)
		}
	}
	how := fmt.Sprintf("%s pops %s", c.who(cs), b.short(c.topics[pq.t], pq.mq.QueueID))
	if cs.grpc {
		how = fmt.Sprintf("%s receives from %s through %s (a pop of %s)", c.who(cs), b.name, c.proxies[cs.px].name, b.short(c.topics[pq.t], -1))
	}
	c.emitDetail(Event{Cause: CausePop, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, Queues: queues, N: n, Until: c.now + cs.invisibleMs(),
		Text: fmt.Sprintf("%s: %s from %s, invisible until %s", how, messages(n), strings.Join(queues, ", "), clockMs(c.now+cs.invisibleMs()))})
}

// tellParked tells an empty pop the broker holds until due (spec §8.3.4, §8.6.6).
func (c *Cluster) tellParked(cs *consumer, pq *popQueue, b *broker, due int64) {
	if c.detailLeft <= 0 {
		return
	}
	q := b.short(c.topics[pq.t], pq.mq.QueueID)
	text := fmt.Sprintf("%s pops %s: nothing to pop, the broker holds the pop until %s (POLLING_TIMEOUT)", c.who(cs), q, clockMs(due))
	if cs.grpc {
		text = fmt.Sprintf("%s receives from %s through %s: nothing to pop, the broker holds the pop until %s (MESSAGE_NOT_FOUND)", c.who(cs), b.name, c.proxies[cs.px].name, clockMs(due))
	}
	c.emitDetail(Event{Cause: CausePop, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, Queues: []string{q}, Until: due, Text: text})
}

// tellAck tells n messages of cs's queue pq acked after its listener consumed them.
func (c *Cluster) tellAck(cs *consumer, pq *popQueue, n int64) {
	if c.detailLeft <= 0 || n <= 0 {
		return
	}
	b := c.brokers[pq.b]
	q := b.short(c.topics[pq.t], pq.mq.QueueID)
	via := ""
	if cs.grpc {
		via = " through " + c.proxies[cs.px].name
	}
	c.emitDetail(Event{Cause: CauseAck, Consumer: cs.id, Group: c.groupName(cs), ClientID: cs.cid, Broker: b.name, Queues: []string{q}, N: n,
		Text: fmt.Sprintf("%s acks %s popped from %s%s", c.who(cs), messages(n), q, via)})
}
