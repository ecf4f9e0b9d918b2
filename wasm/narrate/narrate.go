// Package narrate turns the playground's events into short sentences a screen reader can
// speak, in English or Chinese: one frame's events grouped into what happened at once ("c3
// left; broker-a:4–7 → c1, broker-b:0–1 → c2"), and one event's text for the event log.
//
// It says what a listener needs to follow the story and leaves out the rest: the brokers'
// register and unregister lines that follow every join and leave, and the notice after a
// partition that its own sentence already gives.
package narrate

import (
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/wasm/words"
)

// Languages.
const (
	EN = words.EN
	ZH = words.ZH
)

// say is the dictionary's "narrate." text key (assets/words.json) in lang, formatted with args.
func say(lang, key string, args ...any) string {
	return words.Format(lang, key, args...)
}

// Bounds of one frame's narration: a seek or a burst of commands can bring hundreds of
// events, and a live region that talks for a minute is worse than a summary.
const (
	maxActions    = 4 // action clauses, then "and N more"
	maxRebalances = 6 // consumers named in a rebalance clause, then "N more"
	maxOthers     = 3 // expiries, isolations, overlaps, errors: each
)

// Frame narrates one frame's events in lang ("en" or "zh"; anything else is English):
// a sentence for the actions with the rebalances they set off, then one for each expiry,
// isolation, overlap, strategy failure, Go consumer missing from its broker's list and refused
// command. No events, no sentences.
func Frame(events []cluster.Event, lang string) []string {
	if lang != ZH {
		lang = EN
	}
	var (
		actions  []string
		rebOrder []string
		reb      = map[string][]string{}
		expOrder []string
		exp      = map[string]*expiry{}
		isoOrder []string
		iso      = map[string]fact{}
		ovOrder  []string
		ov       = map[string]*overlap{}
		threw    []string
		missing  []string
		errs     []string
	)
	for _, e := range events {
		f := read(e)
		switch {
		case f.kind >= factCommand && f.kind <= factContinued:
			actions = append(actions, actionText(f, lang))
		case f.kind == factRebalance:
			if _, ok := reb[f.consumer]; !ok {
				rebOrder = append(rebOrder, f.consumer)
			}
			reb[f.consumer] = f.queues // the last set of the frame is the one that holds
		case f.kind == factExpire || f.kind == factDropIdle:
			key := strconv.Itoa(f.kind) + "/" + f.consumer
			x := exp[key]
			if x == nil {
				x = &expiry{f: f}
				exp[key] = x
				expOrder = append(expOrder, key)
			}
			x.brokers = append(x.brokers, f.broker)
			x.notify = x.notify || f.notify
		case f.kind == factIsolation:
			if _, ok := iso[f.broker]; !ok {
				isoOrder = append(isoOrder, f.broker)
				iso[f.broker] = f
			}
		case f.kind == factOverlap:
			key := strings.Join(f.owners, ",")
			o := ov[key]
			if o == nil {
				o = &overlap{owners: f.owners}
				ov[key] = o
				ovOrder = append(ovOrder, key)
			}
			o.queues = append(o.queues, f.queues...)
		case f.kind == factThrew:
			threw = append(threw, threwText(f, lang))
		case f.kind == factSelectorThrew:
			threw = append(threw, say(lang, "narrate.selectorThrew", f.producer, f.err))
		case f.kind == factNotInCidAll:
			missing = append(missing, say(lang, "narrate.notInCidAll", f.consumer, goclient.NotInCidAllLog, f.broker))
		case f.kind == factError:
			errs = append(errs, errorText(f, lang))
		}
	}

	var out []string
	first := capped(actions, maxActions, lang, "narrate.more.actions")
	if len(rebOrder) > 0 {
		clause := rebalanceClause(rebOrder, reb, lang)
		if len(first) == 0 {
			clause = say(lang, "narrate.rebalanced", clause)
		}
		first = append(first, clause)
	}
	if len(first) > 0 {
		out = append(out, strings.Join(first, say(lang, "narrate.sep.clause")))
	}
	var rest []string
	for _, k := range expOrder {
		rest = append(rest, exp[k].text(lang))
	}
	out = append(out, capped(rest, maxOthers, lang, "narrate.more.expiries")...)
	rest = rest[:0]
	for _, b := range isoOrder {
		rest = append(rest, isolationText(iso[b], lang))
	}
	out = append(out, capped(rest, maxOthers, lang, "narrate.more.avoided")...)
	rest = rest[:0]
	for _, k := range ovOrder {
		rest = append(rest, ov[k].text(lang))
	}
	out = append(out, capped(rest, maxOthers, lang, "narrate.more.overlaps")...)
	out = append(out, capped(threw, maxOthers, lang, "narrate.more.threw")...)
	out = append(out, capped(missing, maxOthers, lang, "narrate.more.notInCidAll")...)
	out = append(out, capped(errs, maxOthers, lang, "narrate.more.refused")...)
	return out
}

// Event is one event's text in lang, for the event log: the engine's own words in English,
// their translation in Chinese (an event it does not know keeps its English text). The
// dictionary's English "narrate.log." texts are the engine's formats (a test holds them to
// the engine's text).
func Event(e cluster.Event, lang string) string {
	if lang != ZH {
		return e.Text
	}
	return logText(read(e), lang)
}

// logText is the event log's line of a fact the engine worded as f.text.
func logText(f fact, lang string) string {
	c, b := f.consumer, f.broker
	switch f.kind {
	case factUnknown:
		return f.text
	case factCommand:
		return tableText(f, lang, true)
	case factRebalance:
		if f.arg != "" { // a gRPC consumer's assignments, from its proxy
			return say(lang, "narrate.log.assigned", c, f.arg, strings.Join(Ranges(f.queues), " "))
		}
		if len(f.queues) == 0 {
			return say(lang, "narrate.log.rebalanceNone", c)
		}
		return say(lang, "narrate.log.rebalance", c, strings.Join(Ranges(f.queues), " "))
	case factRegister:
		if !f.notify {
			return say(lang, "narrate.log.registerQuiet", b, c)
		}
		return say(lang, "narrate.log.register", b, c)
	case factSubscribe:
		if !f.notify {
			return say(lang, "narrate.log.subscriptionQuiet", b, c, f.arg)
		}
		return say(lang, "narrate.log.subscription", b, c, f.arg)
	case factUnregister:
		return say(lang, "narrate.log.unregister", b, c)
	case factDropClosed:
		return say(lang, "narrate.log.dropClosed", b, c)
	case factDropIdle:
		return say(lang, "narrate.log.dropIdle", b, c, f.n)
	case factExpire:
		if f.notify {
			return say(lang, "narrate.log.expireNotify", b, c, f.n)
		}
		return say(lang, "narrate.log.expire", b, c, f.n)
	case factIsolation:
		why := say(lang, "narrate.log.sendSlow", f.latency)
		if f.latency == 0 {
			why = say(lang, "narrate.log.sendFailed")
		}
		return say(lang, "narrate.log.isolation", f.producer, b, f.clock, why, f.n)
	case factOverlap:
		return say(lang, "narrate.log.overlap", f.queues[0], strings.Join(f.owners, say(lang, "narrate.list.sep")))
	case factExpiryAhead:
		return say(lang, "narrate.log.expiryAhead", f.clock, c)
	case factThrew:
		return threwText(f, lang)
	case factSelectorThrew:
		return say(lang, "narrate.log.selectorThrew", f.producer, f.err)
	case factNotInCidAll:
		return say(lang, "narrate.log.notInCidAll", c, goclient.NotInCidAllLog, b, f.n)
	case factSendBack:
		key := "narrate.log.sendBack"
		if f.arg == "expired" {
			key = "narrate.log.sendBackExpired"
		}
		return say(lang, key, c, f.n, b, f.clock)
	case factDeadLetter:
		return say(lang, "narrate.log.deadLetter", c, f.n, b, f.arg)
	case factSuspend:
		return say(lang, "narrate.log.suspend", c, f.queues[0], f.n)
	case factFiltered:
		if f.arg == "" {
			return say(lang, "narrate.log.filteredAll", c, f.queues[0], b)
		}
		return say(lang, "narrate.log.filtered", c, f.queues[0], b, f.arg)
	case factLockRefused:
		return say(lang, "narrate.log.lockRefused", c, f.queues[0], f.owners[0], b)
	case factLock:
		return say(lang, "narrate.log.lock", c, f.queues[0], b, f.n)
	case factAssignNull:
		return say(lang, "narrate.log.assignmentNull", c, b, f.arg)
	case factAssignRefused:
		return say(lang, "narrate.log.assignmentRefused", c, f.arg)
	case factChangeInvis:
		if f.arg == "drop" {
			return say(lang, "narrate.log.popDrop", c, f.n)
		}
		return say(lang, "narrate.log.changeInvisible", c, f.n, b, f.clock)
	case factRevive:
		return say(lang, "narrate.log.revive", b, f.n, c, f.arg)
	case factProxyClear:
		if f.n == 0 {
			return say(lang, "narrate.log.proxyClearNone", f.arg, c)
		}
		return say(lang, "narrate.log.proxyClear", f.arg, c, f.n, f.clock)
	case factProxyFailed:
		return say(lang, "narrate.log.proxySendFailed", f.producer, f.queues[0], b, f.clock)
	case factProxyReload:
		if len(f.queues) == 0 {
			return say(lang, "narrate.log.proxyReloadNone", f.arg)
		}
		return say(lang, "narrate.log.proxyReload", f.arg, strings.Join(Ranges(f.queues), " "))
	case factGhost:
		return say(lang, "narrate.log.ghostReceive", c, b, f.n, f.clock)
	case factRefused:
		return say(lang, "narrate.log.receiveRefused", c, f.arg)
	case factProxyDown:
		if f.n == 0 {
			return say(lang, "narrate.log.proxyDownNone", f.arg)
		}
		return say(lang, "narrate.log.proxyDown", f.arg, f.n, f.clock)
	case factProxyRegister:
		return say(lang, "narrate.log.proxyRegister", c, f.arg)
	case factAckHeld:
		return say(lang, "narrate.log.ackHeld", c, f.n, f.arg)
	case factPop:
		if f.n == 0 {
			return say(lang, "narrate.log.popEmpty", c, strings.Join(f.queues, " "), f.clock)
		}
		return say(lang, "narrate.log.pop", c, f.n, strings.Join(Ranges(f.queues), " "), f.clock)
	case factAck:
		return say(lang, "narrate.log.ack", c, f.n, strings.Join(f.queues, " "))
	case factAutoscale:
		if f.arg == "stop" {
			return say(lang, "narrate.log.autoscaleStop", c, f.n)
		}
		return say(lang, "narrate.log.autoscaleStart", c, f.n)
	case factError:
		return errorText(f, lang)
	}
	return actionText(f, lang)
}

// actionText is a command's or a page action's clause.
func actionText(f fact, lang string) string {
	switch f.kind {
	case factPaused:
		return say(lang, "narrate.paused")
	case factPlaying:
		return say(lang, "narrate.playing", f.arg)
	case factSpeed:
		return say(lang, "narrate.speed", f.arg)
	case factReset:
		return say(lang, "narrate.reset", f.arg)
	case factLoaded:
		return say(lang, "narrate.loaded", f.arg)
	case factOpenedLink:
		return say(lang, "narrate.openedLink", f.arg, f.clock)
	case factMoved:
		return say(lang, "narrate.moved", f.clock)
	case factCommand:
		return tableText(f, lang, false)
	case factContinued:
		key := "narrate.continued"
		if f.n == 1 {
			key = "narrate.continued.one"
		}
		s := say(lang, key, f.clock, f.n)
		if f.arg != "" {
			s = say(lang, "narrate.behindEnd", commandIn(lang, f.arg), s)
		}
		return s
	}
	return f.text
}

// commandIn is a session's short action text ("killConsumer c3": the type, then its target)
// in lang: as it is in English, the type named as the command table names it in Chinese; an
// unknown type stays as it is.
func commandIn(lang, s string) string {
	if lang == EN {
		return s
	}
	typ, rest, _ := strings.Cut(s, " ")
	if words.Has("command." + typ) {
		return strings.TrimSpace(words.Word(lang, "command."+typ) + " " + rest)
	}
	return s
}

// tableText is a command's clause (or, with log, its event-log line): the command table's
// Done words (When's variant when its condition holds) with the event's values, or its label
// and target when the table gives none.
func tableText(f fact, lang string, log bool) string {
	spec, _ := cluster.Lookup(f.cause)
	w := spec.WordsIn(lang)
	n, lat := strconv.Itoa(f.n), strconv.Itoa(f.latency)
	tmpl := w.Done
	if log && w.Log != "" {
		tmpl = w.Log
	}
	for cond, alt := range w.When {
		field, want, _ := strings.Cut(cond, "=")
		if v := map[string]string{"n": n, "latencyMs": lat, "arg": f.arg}[field]; v == want {
			tmpl = alt
		}
	}
	if tmpl == "" {
		return strings.TrimSpace(w.Label + " " + f.consumer + f.broker)
	}
	return strings.NewReplacer("{id}", f.consumer, "{broker}", f.broker, "{n}", n,
		"{arg}", f.arg, "{latencyMs}", lat).Replace(tmpl)
}

// rebalanceClause says which queues each consumer pulls now: "broker-a:4–7 → c1, …".
func rebalanceClause(order []string, sets map[string][]string, lang string) string {
	parts := make([]string, 0, min(len(order), maxRebalances)+1)
	for i, c := range order {
		if i == maxRebalances {
			parts = append(parts, say(lang, "narrate.more.consumers", len(order)-i))
			break
		}
		qs := sets[c]
		if len(qs) == 0 {
			parts = append(parts, say(lang, "narrate.pullsNothing", c))
			continue
		}
		parts = append(parts, say(lang, "narrate.pulls", strings.Join(Ranges(qs), say(lang, "narrate.sep.ranges")), c))
	}
	return strings.Join(parts, say(lang, "narrate.sep.part"))
}

type expiry struct {
	f       fact
	brokers []string
	notify  bool
}

func (x *expiry) text(lang string) string {
	who := say(lang, "narrate.brokers")
	if len(x.brokers) == 1 {
		who = x.brokers[0]
	}
	c := x.f.consumer
	switch {
	case x.f.kind == factDropIdle:
		return say(lang, "narrate.droppedIdle", who, c, x.f.n)
	case x.notify:
		return say(lang, "narrate.droppedExpired", who, c)
	}
	return say(lang, "narrate.droppedSilently", who, c)
}

func isolationText(f fact, lang string) string {
	if f.latency == 0 {
		return say(lang, "narrate.avoidedFailed", f.broker, f.n)
	}
	return say(lang, "narrate.avoidedSlow", f.broker, f.n, f.latency)
}

type overlap struct {
	owners []string
	queues []string
}

func (o *overlap) text(lang string) string {
	qs := strings.Join(Ranges(o.queues), say(lang, "narrate.sep.ranges"))
	return say(lang, "narrate.overlap", qs, list(o.owners, lang))
}

// list joins items as a sentence does: "c1 and c2", "c1, c2 and c3".
func list(items []string, lang string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return say(lang, "narrate.list.and", strings.Join(items[:len(items)-1], say(lang, "narrate.list.sep")), items[len(items)-1])
}

func threwText(f fact, lang string) string {
	return say(lang, "narrate.threw", f.consumer, f.arg)
}

// errorText keeps the refusal's own words, which name what was wrong (an id, a value).
func errorText(f fact, lang string) string {
	return say(lang, "narrate.refused", f.text)
}

// capped keeps the first n-1 items and says, in the dictionary's more key, how many more
// there were.
func capped(items []string, n int, lang, more string) []string {
	if len(items) <= n {
		return items
	}
	out := append([]string(nil), items[:n-1]...)
	return append(out, say(lang, more, len(items)-n+1))
}
