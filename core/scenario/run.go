package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
)

// RunOptions tune Run.
type RunOptions struct {
	// Events keeps every event of the run in Result.Events.
	Events bool
	// Detail tells the message-level events too (each pop and ack, cluster.SetDetail), as the
	// scenario's detail field does.
	Detail bool
	// Observer, when set, is called synchronously for every event as it happens (a command
	// line streaming the story, a test checking invariants).
	Observer func(cluster.Event)
	// BeforeStep, when set, is called with each timeline step's index and the state just
	// before it is applied (everything due at that moment has happened): what a comparison
	// of the assignment before and after an action reads.
	BeforeStep func(i int, before cluster.Snapshot)
	// Progress, when set, is called with the virtual time reached after every virtual
	// second of the run (a command line drawing a progress line). Running in these pieces
	// gives the same run.
	Progress func(ms int64)
	// Pause, when set, is called between pieces of at most PauseEvents of the engine's events,
	// even within one virtual moment: a driver that must hand its thread back often (the
	// playground's comparison) decides there whether to. Running in these pieces gives the
	// same run.
	Pause func()
}

// PauseEvents is how many engine events run between two calls of RunOptions.Pause: a
// rebalance of the largest group is the costliest of them, well under a millisecond.
const PauseEvents = 16

// advance runs c to time to, telling progress every virtual second when it is set.
func advance(c *cluster.Cluster, to int64, opts RunOptions) {
	run := c.Advance
	if opts.Pause != nil {
		run = func(to int64) {
			for !c.AdvanceSome(to, PauseEvents) {
				opts.Pause()
			}
		}
	}
	if opts.Progress == nil {
		run(to)
		return
	}
	for c.Now() < to {
		next := min((c.Now()/1000+1)*1000, to)
		run(next)
		opts.Progress(next)
	}
	run(to) // what is due at to when the run is already there
}

// Result is what a run produced; its JSON form is the command line's --json output. Field
// order is fixed and map keys are sorted by encoding/json, so identical inputs give
// byte-identical output.
type Result struct {
	Seed       int64               `json:"seed"`
	Until      int64               `json:"until"`
	Actions    []Action            `json:"actions"`
	Rebalances []Rebalance         `json:"rebalances"`
	Anomalies  []cluster.Anomaly   `json:"anomalies"`
	Isolations []cluster.Isolation `json:"isolations"`
	Events     []cluster.Event     `json:"events,omitempty"`
	Final      Final               `json:"final"`
	Metrics    cluster.Metrics     `json:"metrics"`
	// Sends is what the producers sent between one timeline step and the next: a rate that
	// falls while a slow broker blocks the sending threads shows here.
	Sends []SendSpan `json:"sends"`

	// Snapshot is the state at the end, for callers that draw or tabulate it; it is not part
	// of the JSON form (Final is its summary).
	Snapshot cluster.Snapshot `json:"-"`
}

// Action is one timeline step as it was applied. Error is set when the engine refused it (a
// missing target, an impossible transition); the run went on without it.
type Action struct {
	T int64 `json:"t"`
	cluster.Command
	Error string `json:"error,omitempty"`
	// ConvergedMs is how long after the action the last queue moved, when the group then
	// settled (no overlap or orphan open) before the next action or the end of the run.
	ConvergedMs *int64 `json:"convergedMs,omitempty"`
	// Unsettled is set when a queue was still pulled by two consumers or by none when the
	// next action came (or the run ended).
	Unsettled bool `json:"unsettled,omitempty"`
}

// Rebalance is a consumer's new set of queues, from an EventRebalance: with several topics,
// its new set of one topic's.
type Rebalance struct {
	T        int64    `json:"t"`
	Consumer string   `json:"consumer"`
	Group    string   `json:"group,omitempty"` // when the run has several groups
	Topic    string   `json:"topic"`
	ClientID string   `json:"clientId"` // the member's client id then
	Queues   []string `json:"queues"`
}

// SendSpan counts the sends stored from From to To (milliseconds), in all and per broker.
type SendSpan struct {
	From      int64            `json:"from"`
	To        int64            `json:"to"`
	Stored    int64            `json:"stored"`
	PerBroker map[string]int64 `json:"perBroker"`
}

// spanAt closes the span that ends at the current metrics m, given the previous ones.
func spanAt(from, to int64, prev, m cluster.Metrics) SendSpan {
	sp := SendSpan{From: from, To: to, Stored: m.Produced - prev.Produced, PerBroker: map[string]int64{}}
	for name, n := range m.SendsPerBroker {
		sp.PerBroker[name] = n - prev.SendsPerBroker[name]
	}
	return sp
}

// Final is the state at the end of the run.
type Final struct {
	TimeMs int64 `json:"timeMs"`
	// Assignment is each consumer's process queues ("broker-a:0" forms, sorted); consumers
	// holding none have an empty list.
	Assignment map[string][]string `json:"assignment"`
	// Status is each consumer's status (alive, idle, killed, partitioned, stopped, hung).
	Status map[string]string `json:"status"`
	// Groups is, when the run has several topics or groups, the assignment per group, then
	// per topic (the group's retry topic included), then per member (Assignment and Status
	// are then the first group's).
	Groups map[string]map[string]map[string][]string `json:"groups,omitempty"`
}

// Run validates s, builds the cluster, applies each timeline step at its time and runs to
// s.End(). A step the engine refuses is recorded in Result.Actions with its error and the run
// continues; only an invalid scenario or a configuration the engine rejects is an error.
func Run(s Scenario, opts RunOptions) (*Result, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c, err := cluster.New(s.Config)
	if err != nil {
		return nil, err
	}
	if opts.Detail {
		c.SetDetail(true)
	}
	end := s.End().Ms()
	r := &Result{
		Seed:       s.Seed,
		Until:      end,
		Actions:    []Action{},
		Rebalances: []Rebalance{},
	}
	c.SetObserver(func(e cluster.Event) {
		if e.Kind == cluster.EventRebalance {
			r.Rebalances = append(r.Rebalances, Rebalance{
				T: e.T, Consumer: e.Consumer, Group: e.Group, Topic: e.Topic, ClientID: e.ClientID, Queues: append([]string{}, e.Queues...),
			})
		}
		if opts.Events {
			e.Queues = slices.Clone(e.Queues)
			r.Events = append(r.Events, e)
		}
		if opts.Observer != nil {
			opts.Observer(e)
		}
	})
	r.Sends = []SendSpan{}
	spanFrom, prev := int64(0), c.Metrics()
	for i, st := range s.Timeline {
		advance(c, st.At.Ms(), opts)
		if c.Now() > spanFrom {
			m := c.Metrics()
			r.Sends = append(r.Sends, spanAt(spanFrom, c.Now(), prev, m))
			spanFrom, prev = c.Now(), m
		}
		if opts.BeforeStep != nil {
			opts.BeforeStep(i, c.Snapshot())
		}
		a := Action{T: c.Now(), Command: st.Command}
		if err := c.Apply(st.Command); err != nil {
			a.Error = err.Error()
		}
		r.Actions = append(r.Actions, a)
	}
	advance(c, end, opts)
	c.SetObserver(nil)
	if end > spanFrom {
		r.Sends = append(r.Sends, spanAt(spanFrom, end, prev, c.Metrics()))
	}

	r.Anomalies = append([]cluster.Anomaly{}, c.Anomalies()...)
	r.Isolations = append([]cluster.Isolation{}, c.Isolations()...)
	r.convergence(end)
	r.Metrics = c.Metrics()
	r.Snapshot = c.Snapshot()
	r.Final = Final{
		TimeMs:     r.Snapshot.TimeMs,
		Assignment: map[string][]string{},
		Status:     map[string]string{},
	}
	first := ""
	if len(r.Snapshot.Consumers) > 0 {
		first = r.Snapshot.Consumers[0].Group
	}
	for _, k := range r.Snapshot.Consumers {
		if k.Group == first || first == "" {
			r.Final.Assignment[k.ID] = append([]string{}, k.Queues...)
			r.Final.Status[k.ID] = k.Status
		}
		if k.Group == "" {
			continue
		}
		if r.Final.Groups == nil {
			r.Final.Groups = map[string]map[string]map[string][]string{}
		}
		g := r.Final.Groups[k.Group]
		if g == nil {
			g = map[string]map[string][]string{}
			r.Final.Groups[k.Group] = g
		}
		held := byTopic(k.Queues, r.Snapshot.Topic)
		for _, t := range k.Topics {
			if g[t] == nil {
				g[t] = map[string][]string{}
			}
			g[t][k.ID] = append([]string{}, held[t]...)
		}
	}
	return r, nil
}

// JSON is the result's --json form, indented, ending in a newline.
func (r *Result) JSON() []byte {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		// Every field is a plain value: a failure is a bug, not bad input.
		panic(fmt.Sprintf("scenario: marshalling a result: %v", err))
	}
	return append(b, '\n')
}

// Digest is the hex SHA-256 of the result's JSON form: equal digests mean byte-identical
// results, which is what a determinism test compares.
func (r *Result) Digest() string {
	sum := sha256.Sum256(r.JSON())
	return hex.EncodeToString(sum[:])
}

// convergence fills each action's time to converge: the last rebalance before the next action
// (or the end), provided no anomaly is open at that point.
func (r *Result) convergence(end int64) {
	for i := range r.Actions {
		a := &r.Actions[i]
		if a.Error != "" {
			continue
		}
		windowEnd := end
		if i+1 < len(r.Actions) {
			windowEnd = r.Actions[i+1].T
		}
		last := int64(-1)
		for _, rb := range r.Rebalances {
			if rb.T >= a.T && rb.T < windowEnd {
				last = rb.T
			}
		}
		for _, an := range r.Anomalies {
			if an.Start < windowEnd && (an.End == 0 || an.End > windowEnd) {
				a.Unsettled = true
			}
		}
		if last >= 0 && !a.Unsettled {
			d := last - a.T
			a.ConvergedMs = &d
		}
	}
}

// byTopic splits queue names by topic: "Topic/broker-a:0" is Topic's, a name without a topic
// the first topic's (a topic name never holds a slash). Each topic's names keep their order.
func byTopic(names []string, first string) map[string][]string {
	out := map[string][]string{}
	for _, q := range names {
		t, short, ok := strings.Cut(q, "/")
		if !ok {
			t, short = first, q
		}
		out[t] = append(out[t], short)
	}
	return out
}
