package allocate

import (
	"github.com/lbscope/lbscope/core/route"
)

// Viewpoint is what a member can know of the group when it rebalances, a strategy's fifth
// parameter: per member, the attributes the scenario gives it and the metrics it last
// published to the group's shared store, as read at this member's rebalance moment. Members
// read at different moments and so see different numbers: weights computed from them
// disagree. The model of the metrics is the simulator's (core/cluster, metrics.go).
type Viewpoint struct {
	NowMs     int64             // the member's rebalance moment
	Consumers map[string]Member // by client id: every member of cidAll
}

// Member is one member as a Viewpoint shows it.
type Member struct {
	Attributes map[string]any // the scenario's: strings and whole numbers (weight, room, region…)
	Metrics    *Metrics       // nil until it publishes
}

// Metrics is what a member publishes: a model (core/cluster/metrics.go).
type Metrics struct {
	AtMs        int64            // when it was published (the reader's own: now)
	CPU         float64          // 0…1: consumed over its consume rate
	ConsumeRate float64          // messages per second consumed
	LatencyMs   map[string]int64 // pull latency to each broker that is up
}

// Viewer is a strategy that reads a Viewpoint (a script whose allocate takes five parameters).
type Viewer interface {
	Strategy
	AllocateView(consumerGroup, currentCID string, mqAll []route.MessageQueue, cidAll []string, v Viewpoint) ([]route.MessageQueue, error)
}

// WithView is s called with v: the strategy a member runs in a round whose view is v.
func WithView(s Viewer, v Viewpoint) Strategy { return viewed{s, v} }

type viewed struct {
	s Viewer
	v Viewpoint
}

func (w viewed) Name() string { return w.s.Name() }

func (w viewed) Allocate(consumerGroup, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	return w.s.AllocateView(consumerGroup, currentCID, mqAll, cidAll, w.v)
}
