package cluster

import "github.com/lbscope/lbscope/core/allocate"

// Consumer statuses as a renderer shows them. Their names in English and Chinese are the
// dictionary's "status.<status>" (assets/words.json), which every reader uses.
const (
	StatusAlive       = "alive"
	StatusIdle        = "idle"        // alive, allocated no queue
	StatusKilled      = "killed"      // process died; brokers dropped it at once
	StatusPartitioned = "partitioned" // host vanished; brokers still list it until its channel goes
	StatusStopped     = "stopped"     // shut down gracefully
	StatusHung        = "hung"        // alive and heart-beating, not consuming
)

// Snapshot is a copy of everything a renderer or report needs at one instant. It shares no
// memory with the live simulation.
type Snapshot struct {
	TimeMs       int64          `json:"timeMs"`
	Seed         int64          `json:"seed"`
	Topic        string         `json:"topic"`
	Group        string         `json:"group"`
	Strategy     string         `json:"strategy"`
	MessageModel string         `json:"messageModel"`
	LatencyFault bool           `json:"latencyFault"`
	FaultTable   string         `json:"faultTable"`
	Brokers      []BrokerView   `json:"brokers"`
	Queues       []QueueView    `json:"queues"`
	Consumers    []ConsumerView `json:"consumers"`
	// Groups are the run's consumer groups, in the scenario's order, when it has several
	// topics or groups (Plural); nil otherwise (Strategy and MessageModel are then the one
	// group's).
	Groups    []GroupView    `json:"groups,omitempty"`
	Producers []ProducerView `json:"producers"`
	// Proxies are the RocketMQ 5 proxies (none: the run has none), in the scenario's order.
	Proxies   []ProxyView  `json:"proxies,omitempty"`
	Sends     []SendSample `json:"sends"` // a bounded sample of messages on their way
	Anomalies []Anomaly    `json:"anomalies"`
	Metrics   Metrics      `json:"metrics"`
	// The metrics store as last published (never written again: each publication makes a
	// new map) and the brokers' base latency, for Viewpoint.
	published   map[string]allocate.Metrics
	baseLatency int64
}

// BrokerView is one broker.
type BrokerView struct {
	Name   string `json:"name"`
	Queues int    `json:"queues"`
	// ReadQueues and WriteQueues are set when the broker's read and write counts differ.
	ReadQueues  int  `json:"readQueues,omitempty"`
	WriteQueues int  `json:"writeQueues,omitempty"`
	LatencyMs   int  `json:"latencyMs"` // configured extra latency
	Down        bool `json:"down"`
	// Perm is its brokerPermission (PermRW, PermR, PermW, PermNone: setPerm), Removed that it
	// left the name server (removeBroker): clients see either at their next route refresh.
	Perm            string   `json:"perm"`
	Removed         bool     `json:"removed,omitempty"`
	IsolatedUntilMs int64    `json:"isolatedUntilMs"` // producers avoid it until then (0: never isolated)
	IsolatedForMs   int64    `json:"isolatedForMs"`   // the duration of the tier that caused the isolation
	LastLatencyMs   int64    `json:"lastLatencyMs"`   // the latency the fault table recorded last
	Sends           int64    `json:"sends"`
	Failures        int64    `json:"failures"`
	Consumers       []string `json:"consumers"` // client ids its consumer manager lists for the group
	// SendLatencyMs is the response time of the latest send to it: its latency and the round
	// trip, in ms (0: none yet).
	SendLatencyMs int64      `json:"sendLatencyMs"`
	Window        SendWindow `json:"window"` // its share of the last SendWindowSeconds' sends
}

// QueueView is one queue of the topic.
type QueueView struct {
	Queue  string `json:"queue"` // "broker-a:0"; a queue of a topic other than the first "Topic/broker-a:0"
	Topic  string `json:"topic"`
	Broker string `json:"broker"`
	ID     int    `json:"id"`
	// Group is the group whose offsets and owners the entry shows, when the run has several
	// (a queue that several groups subscribe has an entry for each; "" with one group, and for
	// a topic no group subscribes).
	Group     string   `json:"group,omitempty"`
	MaxOffset int64    `json:"maxOffset"`
	Committed int64    `json:"committed"` // the offset the broker stores for the group (-1: none, or no group)
	Backlog   int64    `json:"backlog"`
	Owners    []string `json:"owners"` // consumers holding a live process queue for it
	// Access is "" for a read and write queue, AccessReadOnly for a read queue beyond the
	// broker's write count (pulled, never written), AccessWriteOnly for a write queue beyond
	// its read count (written, read by nobody), spec §1.3.
	Access string `json:"access,omitempty"`
	// Observed is who held the queue at this moment per a history read from logs, which the
	// engine never fills: its reader does (the playground, from a scenario's observed
	// section). nil without a history; empty when the logs show nobody holding it.
	Observed []string `json:"observed,omitzero"`
	// LockedBy is the member whose lock on the queue its broker holds for an orderly group,
	// and LockUntil when that lock expires unless renewed (spec §8.5.1); "" and 0 when none.
	// A dead member's lock outlives it: the queue is paused until then.
	LockedBy  string `json:"lockedBy,omitempty"`
	LockUntil int64  `json:"lockUntil,omitempty"`
	// Popped is set when its owners pop it (POP, spec §8.2.2): shared by design, never an
	// overlap. Invisible is how many of its messages a pop returned and nobody acked yet,
	// and InvisibleUntil the earliest end of their invisible time (0: none), spec §8.3.3.
	Popped         bool  `json:"popped,omitempty"`
	Invisible      int64 `json:"invisible,omitempty"`
	InvisibleUntil int64 `json:"invisibleUntil,omitempty"`
}

// Queue access when read and write queue counts differ.
const (
	AccessReadOnly  = "read-only"
	AccessWriteOnly = "write-only"
)

// ConsumerView is one member of the group.
type ConsumerView struct {
	ID string `json:"id"`
	// Group is the group it is a member of, and Topics what it subscribes there (its
	// group's retry topic included), when the run has several topics or groups: a process
	// that is a member of several groups has an entry in each.
	Group  string   `json:"group,omitempty"`
	Topics []string `json:"topics,omitempty"`
	// Strategy is its own strategy when a rolling deploy gave it one its group does not run.
	Strategy        string   `json:"strategy,omitempty"`
	ClientID        string   `json:"clientId"` // the current process's client id: a restart may change it (spec §1.2)
	Status          string   `json:"status"`
	Queues          []string `json:"queues"` // its process queues, sorted
	NextRebalanceMs int64    `json:"nextRebalanceMs"`
	Consumed        int64    `json:"consumed"`
	Cached          int      `json:"cached"`
	ConsumeRate     int      `json:"consumeRate"`
	// ClientRebalance is false for a member whose queues the brokers compute (spec §8.2).
	ClientRebalance bool `json:"clientRebalance"`
	// Kind is grpc-push for a gRPC PushConsumer, with the Proxy it connects to (empty: the
	// classic push consumer), spec §8.4.
	Kind       string `json:"kind,omitempty"`
	Proxy      string `json:"proxy,omitempty"`
	Client     string `json:"client"`     // the SDK profile it runs: java, java-4.9, go-2.1.2 (spec §9)
	ClientMark string `json:"clientMark"` // its short label on the canvas: J, J4, Go
	// View is the client list its last decided rebalance used, what it computed and what it
	// pulls (absent: no decided round yet, broadcasting, or the process is gone).
	View RebalanceView `json:"view,omitzero"`
	// Attributes are the scenario's for the member (what a strategy's view shows of it).
	Attributes map[string]any `json:"attributes,omitempty"`
	// What it consumed, and when, at its last publication (metrics.go), for Viewpoint.
	pubConsumed, pubAt int64
	// Subscription is the topic it subscribes when not the group's (spec §5.7).
	Subscription string `json:"subscription,omitempty"`
	// Tags are, for each topic it filters by tag, its expression ("TagA||TagB"); a topic it
	// takes every message of ("*") is absent (spec §5.7). Shared by snapshots: read-only.
	Tags map[string]string `json:"tags,omitempty"`
}

// GroupView is one consumer group of a run with several topics or groups.
type GroupView struct {
	Name         string `json:"name"`
	Strategy     string `json:"strategy"`
	MessageModel string `json:"messageModel"`
	// Topics are the topics its members subscribe, its retry topic included, in the order
	// first subscribed.
	Topics []string `json:"topics"`
	// Backlog is what its members have still to consume of the topics they subscribe, retry
	// topics aside: its lag, the number its autoscaler reads.
	Backlog int64 `json:"backlog"`
	// Listed is, for each broker of Snapshot.Brokers in its order, the client ids its
	// consumer manager lists for the group (BrokerView.Consumers is the first group's).
	// Shared by snapshots: read-only.
	Listed [][]string `json:"listed"`
	// Autoscale is its autoscaler's rule (nil: none). Shared by snapshots: read-only.
	Autoscale *AutoscaleConfig `json:"autoscale,omitempty"`
}

// ProxyView is one proxy (spec §8.4): its mode, whether it is down (killProxy), and the
// gRPC clients registered on it now, in registration order.
type ProxyView struct {
	Name    string   `json:"name"`
	Mode    string   `json:"mode"`
	Down    bool     `json:"down,omitempty"`
	Clients []string `json:"clients"`
}

// ProducerView is one producer.
type ProducerView struct {
	ID string `json:"id"`
	// Kind and Proxy are a gRPC producer's (kind grpc, spec §8.4.8); empty for a remoting one.
	Kind       string `json:"kind,omitempty"`
	Proxy      string `json:"proxy,omitempty"`
	Rate       int    `json:"rate"`
	Sent       int64  `json:"sent"`
	Client     string `json:"client"`     // the SDK profile it runs: java, java-4.9, go-2.1.2 (spec §9)
	ClientMark string `json:"clientMark"` // its short label: J, J4, Go
	Mode       string `json:"mode"`       // sync or async
	Threads    int    `json:"threads"`    // sending threads (sync; 0 for async)
	// Selector is the name of its own selector of its keyed sends ("": the hash, or no keys).
	Selector string `json:"selector,omitempty"`
	// LatencyMax and NotAvailableDuration are the latency tiers it uses (absent for Go,
	// which has none).
	LatencyMax           []int64 `json:"latencyMax,omitempty"`
	NotAvailableDuration []int64 `json:"notAvailableDuration,omitempty"`
}

// SendSample is a batch of messages travelling from a producer to a queue.
type SendSample struct {
	Producer string `json:"producer"`
	Queue    string `json:"queue"`
	Count    int    `json:"count"`
	SentAt   int64  `json:"sentAt"`
	ArriveAt int64  `json:"arriveAt"`
	Resend   bool   `json:"resend,omitempty"` // the send failed on an earlier attempt and was sent again
	Late     bool   `json:"late,omitempty"`   // the producer already saw it fail (a timeout); the broker stores it anyway
}
