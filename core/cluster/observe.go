package cluster

// Event kinds written to the log and passed to observers.
const (
	EventAction    = "action"    // a command was applied
	EventRebalance = "rebalance" // a consumer's set of queues changed
	EventChange    = "change"    // a broker's view of the group changed (register, unregister, close, expiry)
	EventIsolation = "isolation" // a producer started avoiding a broker
	EventAnomaly   = "anomaly"   // an overlap or orphan began or ended
	EventInfo      = "info"      // anything else worth telling a learner
)

// Event is one line of the simulation's story, in words a learner understands.
type Event struct {
	T        int64    `json:"t"`
	Kind     string   `json:"kind"`
	Consumer string   `json:"consumer,omitempty"`
	Broker   string   `json:"broker,omitempty"`
	Queues   []string `json:"queues,omitempty"` // "broker-a:0" forms; for rebalance, the new set
	Text     string   `json:"text"`
}

// Anomaly is an interval during which a queue was pulled by more than one consumer (overlap)
// or by none (orphan). End is 0 while it lasts.
type Anomaly struct {
	Kind   string   `json:"kind"` // "overlap" or "orphan"
	Queue  string   `json:"queue"`
	Owners []string `json:"owners,omitempty"` // the consumers involved (overlap)
	Start  int64    `json:"start"`
	End    int64    `json:"end,omitempty"`
}

// Isolation is an interval during which a producer avoided a broker (spec §2.4): from the
// update that isolated it until its deadline, extensions included.
type Isolation struct {
	Producer string `json:"producer"`
	Broker   string `json:"broker"`
	Start    int64  `json:"start"`
	Until    int64  `json:"until"`
	Cause    string `json:"cause"` // "latency 2003 ms" or "send failed"
}

// Metrics are the run's counts so far. Every message has an identity (queue, offset); counts
// are exact even though messages move in batches.
type Metrics struct {
	Produced       int64            `json:"produced"`
	Consumed       int64            `json:"consumed"`   // distinct messages consumed at least once (per consumer when broadcasting)
	Duplicates     int64            `json:"duplicates"` // further deliveries of already consumed messages
	Lost           int64            `json:"lost"`       // skipped over by a successor (spec §3.9's one exception)
	InFlight       int64            `json:"inFlight"`   // sent but not yet stored
	Backlog        int64            `json:"backlog"`    // stored but not yet consumed
	SendFailures   int64            `json:"sendFailures"`
	SendsPerBroker map[string]int64 `json:"sendsPerBroker"`
	Rebalances     int64            `json:"rebalances"` // rounds that changed a consumer's queues
	Rounds         int64            `json:"rounds"`     // all rebalance rounds
}
