package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// RunOptions tune Run.
type RunOptions struct {
	// Events keeps every event of the run in Result.Events.
	Events bool
	// Observer, when set, is called synchronously for every event as it happens (a command
	// line streaming the story, a test checking invariants).
	Observer func(cluster.Event)
}

// Result is what a run produced; its JSON form is the command line's --json output. Field
// order is fixed and map keys are sorted by encoding/json, so identical inputs give
// byte-identical output.
type Result struct {
	Seed       int64             `json:"seed"`
	Until      int64             `json:"until"`
	Actions    []Action          `json:"actions"`
	Rebalances []Rebalance       `json:"rebalances"`
	Anomalies  []cluster.Anomaly `json:"anomalies"`
	Events     []cluster.Event   `json:"events,omitempty"`
	Final      Final             `json:"final"`
	Metrics    cluster.Metrics   `json:"metrics"`

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
}

// Rebalance is a consumer's new set of queues, from an EventRebalance.
type Rebalance struct {
	T        int64    `json:"t"`
	Consumer string   `json:"consumer"`
	Queues   []string `json:"queues"`
}

// Final is the state at the end of the run.
type Final struct {
	TimeMs int64 `json:"timeMs"`
	// Assignment is each consumer's process queues ("broker-a:0" forms, sorted); consumers
	// holding none have an empty list.
	Assignment map[string][]string `json:"assignment"`
	// Status is each consumer's status (alive, idle, killed, partitioned, stopped, hung).
	Status map[string]string `json:"status"`
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
				T: e.T, Consumer: e.Consumer, Queues: append([]string{}, e.Queues...),
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
	for _, st := range s.Timeline {
		c.Advance(st.At.Ms())
		a := Action{T: c.Now(), Command: st.Command}
		if err := c.Apply(st.Command); err != nil {
			a.Error = err.Error()
		}
		r.Actions = append(r.Actions, a)
	}
	c.Advance(end)
	c.SetObserver(nil)

	r.Anomalies = append([]cluster.Anomaly{}, c.Anomalies()...)
	r.Metrics = c.Metrics()
	r.Snapshot = c.Snapshot()
	r.Final = Final{
		TimeMs:     r.Snapshot.TimeMs,
		Assignment: map[string][]string{},
		Status:     map[string]string{},
	}
	for _, k := range r.Snapshot.Consumers {
		r.Final.Assignment[k.ID] = append([]string{}, k.Queues...)
		r.Final.Status[k.ID] = k.Status
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
