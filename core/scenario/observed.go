package scenario

import (
	"fmt"
	"slices"
	"strconv"
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

// Changes is every moment at which a logged owner of some queue changes, sorted, each once:
// between two of them OwnersAt's answer stays the same.
func (o *Observed) Changes() []int64 {
	var ts []int64
	for _, h := range o.Holdings {
		ts = append(ts, h.From.Ms())
		if h.To != nil {
			ts = append(ts, h.To.Ms())
		}
	}
	slices.Sort(ts)
	return slices.Compact(ts)
}

// validateObserved checks the logged history against the limits and against the scenario:
// the topic, the brokers (initial or added on the timeline) and the times (within until).
func validateObserved(s Scenario) error {
	o := s.Observed
	if o == nil {
		return nil
	}
	for _, f := range [...]struct{ path, v string }{{"observed.source", o.Source}, {"observed.zone", o.Zone}, {"observed.start", o.Start}} {
		if err := checkText(f.path, f.v); err != nil {
			return err
		}
	}
	if o.Zone != "" && !zoneOK(o.Zone) {
		return fmt.Errorf("observed.zone: %s; want an offset from UTC such as +08:00 or -05:30", quote(o.Zone))
	}
	if n := len(o.Holdings); n > MaxHoldings {
		return fmt.Errorf("observed.holdings: %d holdings; the limit is %d (read a shorter stretch of the logs)", n, MaxHoldings)
	}
	if n := len(o.Rounds); n > MaxRounds {
		return fmt.Errorf("observed.rounds: %d rounds; the limit is %d (read a shorter stretch of the logs)", n, MaxRounds)
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
	for i, h := range o.Holdings {
		p := "observed.holdings[" + strconv.Itoa(i) + "]"
		if h.Topic != "" && h.Topic != topic {
			return fmt.Errorf("%s.topic: %s is not the scenario's topic %s; a history holds one topic's queues", p, quote(h.Topic), quote(topic))
		}
		if err := checkName(p+".broker", h.Broker, brokerName); err != nil {
			return err
		}
		if !brokers[h.Broker] {
			return fmt.Errorf("%s.broker: %s is none of the scenario's brokers", p, quote(h.Broker))
		}
		if h.Queue < 0 || h.Queue >= MaxQueues {
			return fmt.Errorf("%s.queue: %d; want 0…%d", p, h.Queue, MaxQueues-1)
		}
		if err := checkName(p+".owner", h.Owner, clientID); err != nil {
			return err
		}
		if h.From < 0 || h.From > end {
			return fmt.Errorf("%s.from: %s; want 0s…%s (until)", p, h.From, end)
		}
		if h.To != nil && (*h.To <= h.From || *h.To > end) {
			return fmt.Errorf("%s.to: %s; want after from (%s) and at most until (%s)", p, *h.To, h.From, end)
		}
		if err := checkText(p+".ref", h.Ref); err != nil {
			return err
		}
	}
	for i, r := range o.Rounds {
		p := "observed.rounds[" + strconv.Itoa(i) + "]"
		if r.At < 0 || r.At > end {
			return fmt.Errorf("%s.at: %s; want 0s…%s (until)", p, r.At, end)
		}
		if err := checkName(p+".client", r.Client, clientID); err != nil {
			return err
		}
		if err := checkText(p+".ref", r.Ref); err != nil {
			return err
		}
	}
	return nil
}

// checkText checks a free text of the history: at most MaxObservedText bytes of UTF-8
// without control characters, since the page and the canvas show it as it is.
func checkText(path, v string) error {
	if len(v) > MaxObservedText {
		return fmt.Errorf("%s: %d bytes; the limit is %d", path, len(v), MaxObservedText)
	}
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s: %s is not valid UTF-8", path, quote(v))
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s: %s has the control character %q", path, quote(v), r)
		}
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
