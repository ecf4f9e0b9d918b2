package scenario

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Observed is a history read from the group's own logs: who held each queue when, per the
// logs, and the rebalances the clients logged. A scenario that has one runs as any other —
// its membership changes are ordinary timeline steps — and the playground and the command
// line hold the logged history beside the simulation of the same changes. Times are virtual,
// relative to Start (the logs' moment that is 00:00).
type Observed struct {
	Source   string    `json:"source,omitempty"` // what was read, in words ("rocketmq_client.log of 3 members")
	Zone     string    `json:"zone,omitempty"`   // the zone the log stamps were read in, "+08:00"
	Start    string    `json:"start,omitempty"`  // the wall-clock moment that is 00:00, as written
	Holdings []Holding `json:"holdings,omitempty"`
	Rounds   []Round   `json:"rounds,omitempty"`
}

// Holding is one interval in which a client held a queue, per the logs. To absent: until the
// end. FromKnown and ToKnown say whether the logs show the moment it began and ended, or
// only that it held the queue when they begin or end. Two holdings of one queue that overlap
// are a queue held twice per the logs; a moment with none, a queue nobody held.
type Holding struct {
	Topic     string    `json:"topic,omitempty"` // the scenario's topic when absent
	Broker    string    `json:"broker"`
	Queue     int       `json:"queue"`
	Owner     string    `json:"owner"`
	From      Duration  `json:"from"`
	To        *Duration `json:"to,omitempty"`
	FromKnown bool      `json:"fromKnown,omitempty"`
	ToKnown   bool      `json:"toKnown,omitempty"`
	Ref       string    `json:"ref,omitempty"` // where the logs say it, "member1.log:1234"
}

// Round is one rebalance a client logged.
type Round struct {
	At     Duration `json:"at"`
	Client string   `json:"client"`
	Ref    string   `json:"ref,omitempty"`
}

// Limits of a logged history.
const (
	MaxHoldings     = 20000
	MaxRounds       = MaxSteps
	MaxObservedText = 200 // source, start, zone and each ref, in bytes
)

// Covers reports whether the holding holds its queue at virtual time t.
func (h Holding) Covers(t int64) bool {
	return h.From.Ms() <= t && (h.To == nil || t < h.To.Ms())
}

// QueueName is the holding's queue as snapshots name it, "broker-a:0".
func (h Holding) QueueName() string { return h.Broker + ":" + strconv.Itoa(h.Queue) }

// OwnersAt is who held each queue at virtual time t per the logs: the owners of each
// "broker:id" held by somebody, sorted, each once. A queue absent from it was held by nobody
// at t, per the logs.
func (o *Observed) OwnersAt(t int64) map[string][]string {
	m := map[string][]string{}
	for _, h := range o.Holdings {
		if !h.Covers(t) {
			continue
		}
		k := h.QueueName()
		if ids := m[k]; !slices.Contains(ids, h.Owner) {
			ids = append(ids, h.Owner)
			slices.Sort(ids)
			m[k] = ids
		}
	}
	return m
}

// Stretch is the stretch of time around t in which nobody's logged holding of any queue
// begins or ends: [from, to), from at most t, to after it (the ends of all time when none
// does). OwnersAt's answer is the same all along it.
func (o *Observed) Stretch(t int64) (from, to int64) {
	from, to = -1<<62, 1<<62
	edge := func(e int64) {
		if e <= t {
			from = max(from, e)
		} else {
			to = min(to, e)
		}
	}
	for _, h := range o.Holdings {
		edge(h.From.Ms())
		if h.To != nil {
			edge(h.To.Ms())
		}
	}
	return from, to
}

// validateObserved checks the logged history against the limits and against the scenario:
// the topic, the brokers (initial or added on the timeline) and the times (within until).
// Lean on purpose — strings, not formats, and one check for what holdings and rounds share —
// since the page's wasm carries it.
func validateObserved(s Scenario) error {
	o := s.Observed
	if o == nil {
		return nil
	}
	bad := func(path, what string) error { return errors.New(path + ": " + what) }
	if o.Zone != "" && !zoneOK(o.Zone) {
		return bad("observed.zone", quote(o.Zone)+"; want an offset from UTC such as +08:00 or -05:30")
	}
	for i, v := range [...]string{o.Source, o.Start, o.Zone} {
		if err := checkText("observed."+[...]string{"source", "start", "zone"}[i], v); err != nil {
			return err
		}
	}
	over := func(what string, n, limit int) error {
		if n <= limit {
			return nil
		}
		return bad("observed."+what, strconv.Itoa(n)+" "+what+"; the limit is "+strconv.Itoa(limit)+" (read a shorter stretch of the logs)")
	}
	if err := over("holdings", len(o.Holdings), MaxHoldings); err != nil {
		return err
	}
	if err := over("rounds", len(o.Rounds), MaxRounds); err != nil {
		return err
	}
	topic := s.Topic
	if topic == "" {
		topic = "TopicTest"
	}
	brokers := map[string]bool{}
	for _, b := range s.Brokers {
		brokers[b.Name] = true
	}
	for _, st := range s.Timeline {
		if st.Type == "addBroker" {
			brokers[st.Broker] = true
		}
	}
	end := s.End()
	// What a holding and a round share: a time within the run, a client id, a reference.
	entry := func(p, atName string, at Duration, whoName, who, ref string) error {
		if at < 0 || at > end {
			return bad(p+"."+atName, at.String()+"; want 0s…"+end.String()+" (until)")
		}
		if err := checkName(p+"."+whoName, who, clientID); err != nil {
			return err
		}
		return checkText(p+".ref", ref)
	}
	for i, h := range o.Holdings {
		p := "observed.holdings[" + strconv.Itoa(i) + "]"
		field, what := "", ""
		switch {
		case h.Topic != "" && h.Topic != topic:
			field, what = ".topic", quote(h.Topic)+" is not the scenario's topic "+quote(topic)+"; a history holds one topic's queues"
		case !brokers[h.Broker]:
			field, what = ".broker", quote(h.Broker)+" is none of the scenario's brokers"
		case h.Queue < 0 || h.Queue >= MaxQueues:
			field, what = ".queue", strconv.Itoa(h.Queue)+"; want 0…"+strconv.Itoa(MaxQueues-1)
		case h.To != nil && (*h.To <= h.From || *h.To > end):
			field, what = ".to", h.To.String()+"; want after from ("+h.From.String()+") and at most until ("+end.String()+")"
		}
		if what != "" {
			return bad(p+field, what)
		}
		if err := entry(p, "from", h.From, "owner", h.Owner, h.Ref); err != nil {
			return err
		}
	}
	for i, r := range o.Rounds {
		if err := entry("observed.rounds["+strconv.Itoa(i)+"]", "at", r.At, "client", r.Client, r.Ref); err != nil {
			return err
		}
	}
	return nil
}

// checkText checks a free text of the history: at most MaxObservedText bytes of UTF-8
// without control characters, since the page and the canvas show it as it is.
func checkText(path, v string) error {
	if len(v) > MaxObservedText {
		return errors.New(path + ": " + strconv.Itoa(len(v)) + " bytes; the limit is " + strconv.Itoa(MaxObservedText))
	}
	if !utf8.ValidString(v) || strings.ContainsFunc(v, unicode.IsControl) {
		return errors.New(path + ": " + quote(v) + " is not UTF-8 text without control characters")
	}
	return nil
}

// zoneOK reports whether z is an offset from UTC, ±HH:MM, within ±14:00.
func zoneOK(z string) bool {
	if len(z) != 6 || (z[0] != '+' && z[0] != '-') || z[3] != ':' {
		return false
	}
	for _, i := range [...]int{1, 2, 4, 5} {
		if z[i] < '0' || z[i] > '9' {
			return false
		}
	}
	h, m := int(z[1]-'0')*10+int(z[2]-'0'), int(z[4]-'0')*10+int(z[5]-'0')
	return m < 60 && (h < 14 || h == 14 && m == 0)
}
