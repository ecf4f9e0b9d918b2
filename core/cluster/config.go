package cluster

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/selector"
)

// Message models.
const (
	Clustering   = "CLUSTERING"
	Broadcasting = "BROADCASTING"
)

// Config is a cluster's initial state. Zero values take RocketMQ's defaults (see Defaults).
type Config struct {
	Seed  int64  `json:"seed"`
	Topic string `json:"topic,omitempty"`
	Group string `json:"group,omitempty"`
	// Topics and Groups are the cluster's topics and consumer groups (scenario format 2). Left
	// out, the cluster has one of each: Topic on every broker with brokers[].queues, and Group
	// with Strategy, Params and MessageModel, without its retry topic, as format 1 described it.
	Topics    []TopicConfig    `json:"topics,omitempty"`
	Groups    []GroupConfig    `json:"groups,omitempty"`
	Brokers   []BrokerConfig   `json:"brokers"`
	Consumers []ConsumerConfig `json:"consumers,omitempty"`
	// Proxies are RocketMQ 5 proxies, through which gRPC consumers reach the brokers (§8.4).
	Proxies      []ProxyConfig    `json:"proxies,omitempty"`
	Producers    []ProducerConfig `json:"producers,omitempty"`
	Strategy     allocate.Choice  `json:"strategy,omitzero"`
	Params       allocate.Params  `json:"params,omitempty"`
	MessageModel string           `json:"messageModel,omitempty"`
	// ConsumeMode is format 1's group's consumeMode (GroupConfig.ConsumeMode).
	ConsumeMode  string `json:"consumeMode,omitempty"`
	LatencyFault bool   `json:"latencyFault,omitempty"`
	FaultTable   string `json:"faultTable,omitempty"` // "current" or "legacy-4x"
	Timing       Timing `json:"timing,omitempty"`
	// Metrics is how often members publish the metrics strategies' views read (metrics.go).
	Metrics *MetricsConfig `json:"metrics,omitempty"`
	// History makes the topic older than the run: messages stored before 00:00 (spec §3.6).
	History *HistoryConfig `json:"history,omitempty"`
	// Detail tells every pop and ack of POP and gRPC members (detail.go).
	Detail bool `json:"detail,omitempty"`
}

// TopicConfig is one topic: its queues on the brokers (its TopicConfig there, spec §1.3).
type TopicConfig struct {
	Name string `json:"name"`
	// Queues is its read and write queues on every broker (0: brokers[].queues), unless
	// Brokers names the brokers it lives on with their own counts.
	Queues         int `json:"queues,omitempty"`
	ReadQueueNums  int `json:"readQueueNums,omitempty"`  // on every broker, when they differ from queues
	WriteQueueNums int `json:"writeQueueNums,omitempty"` // on every broker, when they differ from queues
	// Perm is its permission on every broker: RW (the default), R (read only: no producer
	// writes it), W (write only: no consumer reads it) or none (spec §1.3).
	Perm    string              `json:"perm,omitempty"`
	Brokers []TopicBrokerConfig `json:"brokers,omitempty"`
}

// TopicBrokerConfig is a topic on one broker, when it is not the same on every broker.
type TopicBrokerConfig struct {
	Name           string `json:"name"`
	Queues         int    `json:"queues,omitempty"`
	ReadQueueNums  int    `json:"readQueueNums,omitempty"`
	WriteQueueNums int    `json:"writeQueueNums,omitempty"`
	Perm           string `json:"perm,omitempty"`
}

// GroupConfig is one consumer group as its members run it.
type GroupConfig struct {
	Name         string          `json:"name"`
	Strategy     allocate.Choice `json:"strategy,omitzero"`
	Params       allocate.Params `json:"params,omitempty"`
	MessageModel string          `json:"messageModel,omitempty"`
	// ConsumeFromWhere is its members' default (each member may set its own).
	ConsumeFromWhere string `json:"consumeFromWhere,omitempty"`
	// NoRetryTopic leaves out the retry subscription every CLUSTERING push consumer adds at
	// start (%RETRY%<group>, spec §3.14): the group as format 1 showed it.
	NoRetryTopic bool `json:"noRetryTopic,omitempty"`
	// MaxReconsumeTimes is the client's maxReconsumeTimes: a message failed that many times
	// more goes to %DLQ%<group> (spec §3.15, §5.8); 0: 16.
	MaxReconsumeTimes int `json:"maxReconsumeTimes,omitempty"`
	// Orderly makes its members consume orderly (MessageListenerOrderly): one thread a queue,
	// a failed message suspends its queue and comes again (spec §3.15); its locks are not
	// modelled.
	Orderly bool `json:"orderly,omitempty"`
	// Autoscale scales its members on its backlog (nil: nothing does).
	Autoscale *AutoscaleConfig `json:"autoscale,omitempty"`
	// ConsumeMode is the brokers' message request mode for its topics, PULL (default) or POP
	// (mqadmin setConsumeMode), and PopShareQueueNum POP's popShareQueueNum (nil: the
	// broker default −1), spec §8.1 item 2, §8.2.2. Only members with clientRebalance false
	// ask the brokers.
	ConsumeMode      string `json:"consumeMode,omitempty"`
	PopShareQueueNum *int   `json:"popShareQueueNum,omitempty"`
}

// MembershipConfig is a consumer process's membership of one group: what it subscribes there
// and how its listener answers. Memberships of one process share its client id, hence one
// client instance (spec §1.2, §3.14).
type MembershipConfig struct {
	Group         string               `json:"group"`
	Subscriptions []SubscriptionConfig `json:"subscriptions,omitempty"` // none: the first topic
	// FailRate is the share of deliveries its listener answers RECONSUME_LATER, 0…1: each
	// goes back through the send-back, the delay ladder and, after maxReconsumeTimes, the DLQ
	// (spec §3.15).
	FailRate float64 `json:"failRate,omitempty"`
	// ConsumeMs is the time its listener takes per message (0: the consumer's consumeRate
	// decides): its 20 threads then consume 20 000 / consumeMs messages a second at most.
	ConsumeMs int64 `json:"consumeMs,omitempty"`
}

// HistoryConfig is what every queue of the initial brokers holds at 00:00.
type HistoryConfig struct {
	Messages int64 `json:"messages"`          // per queue, produced evenly over SpanMs before 00:00
	Deleted  int64 `json:"deleted,omitempty"` // per queue, the oldest ones whose files are deleted: the min offset
	SpanMs   int64 `json:"spanMs,omitempty"`  // 0: one hour
}

// BrokerConfig is one broker (a master; replicas are not modelled).
type BrokerConfig struct {
	Name      string `json:"name"`
	Queues    int    `json:"queues"`              // read and write queues of the topic
	LatencyMs int    `json:"latencyMs,omitempty"` // extra send latency ("slow broker")
	// ReadQueueNums and WriteQueueNums are the topic's read and write queue counts on this
	// broker when they differ (mqadmin updateTopic -r N -w M); 0 takes Queues. Producers
	// publish to queue ids 0…writeQueueNums−1, consumers rebalance over 0…readQueueNums−1
	// (spec §1.3): a read queue beyond the write count is pulled and never written, a write
	// queue beyond the read count is written and read by nobody.
	ReadQueueNums  int `json:"readQueueNums,omitempty"`
	WriteQueueNums int `json:"writeQueueNums,omitempty"`
	// MemoryMessages is how many of the newest messages of the broker's commit log are in
	// memory (the page cache); 0: all of them. A group without an offset starts at 0 only while
	// message 0 of the queue is in memory (spec §5.5).
	MemoryMessages int64 `json:"memoryMessages,omitempty"`
}

// ConsumerConfig is one member of the group, started at time 0.
type ConsumerConfig struct {
	ID          string `json:"id"`                    // client id, any real format
	ConsumeRate int    `json:"consumeRate,omitempty"` // messages per second it can consume; 0: Timing.ConsumeRate
	// FixedInstanceName says the process sets its instanceName: a restart keeps the client id.
	// Otherwise a restarted ip@pid[#nanoTime] gets a new pid and nanoTime, and a plain id
	// like c1 becomes c1#2 (spec §1.2); ids whose instance part is not a pid keep theirs.
	FixedInstanceName bool `json:"fixedInstanceName,omitempty"`
	// ClientRebalance false leaves its allocation to the brokers (setClientRebalance(false),
	// spec §8.1, §8.2): a concurrent CLUSTERING member of the current Java client then asks a
	// broker for each topic's queues. nil or true: it computes them itself (§3).
	ClientRebalance *bool `json:"clientRebalance,omitempty"`
	// Kind is the client: push (the classic remoting push consumer, the default) or
	// grpc-push (the gRPC PushConsumer, through Proxy, the proxy it connects to: by
	// default the first of proxies), spec §8.4.
	Kind  string `json:"kind,omitempty"`
	Proxy string `json:"proxy,omitempty"`
	// AwaitDurationMs, InvisibleDurationMs and MaxMessageNum are a grpc-simple consumer's
	// receive(maxMessageNum, invisibleDuration) and its builder's awaitDuration (0: 30 s,
	// 15 s and 16, the client's example's), spec §8.4.5, §8.4.7.
	AwaitDurationMs     int64 `json:"awaitDurationMs,omitempty"`
	InvisibleDurationMs int64 `json:"invisibleDurationMs,omitempty"`
	MaxMessageNum       int   `json:"maxMessageNum,omitempty"`
	// ConsumeFromWhere is where a queue without a stored offset starts: LAST_OFFSET (the
	// default), FIRST_OFFSET or TIMESTAMP (spec §3.6); the CONSUME_FROM_ prefix may be written.
	ConsumeFromWhere string `json:"consumeFromWhere,omitempty"`
	// ConsumeTimestampMs is TIMESTAMP's time, virtual milliseconds (negative: before 00:00);
	// unset, half an hour before the consumer starts, as in RocketMQ.
	ConsumeTimestampMs *int64 `json:"consumeTimestampMs,omitempty"`
	// SlowEvery makes about one message in this many slow, taking SlowMs in its listener
	// call instead of the consumeRate's share (0: none). A slow message holds its queue's
	// offset back while later ones finish around it (spec §3.8, §3.16).
	SlowEvery int64 `json:"slowEvery,omitempty"`
	SlowMs    int64 `json:"slowMs,omitempty"`
	// Client is the SDK the process runs (spec §9): java (the current Java client, the
	// default), java-4.9 or go-2.1.2 ("go").
	Client string `json:"client,omitempty"`
	// Subscription is what this member subscribes when it is not the group's topic (empty:
	// the topic). A member subscribing another topic is still a member of the group: the
	// others' rebalance counts it, and it rebalances only its own topic (spec §5.7, marked
	// *inferred* there). That topic is taken to live on the same brokers, so the member
	// heartbeats each of them (*inferred*: the member's route is its own topic's).
	Subscription *SubscriptionConfig `json:"subscription,omitempty"`
	// Groups are its memberships (scenario format 2); none: the first group, subscribing the
	// first topic (or Subscription's).
	Groups []MembershipConfig `json:"groups,omitempty"`
	// Attributes are what a strategy's view shows of this member besides its metrics: a
	// weight, a room, labels such as a region; strings and whole numbers, at most
	// MaxAttributes. Only a strategy that reads the view sees them.
	Attributes map[string]any `json:"attributes,omitempty"`
}

// SubscriptionConfig is one subscription: a topic and its tag expression.
type SubscriptionConfig struct {
	Topic string `json:"topic"`
	// Tags is the expression's tags ("TagA || TagB" as a list); none: "*", every message.
	Tags []string `json:"tags,omitempty"`
}

// QueueCounts is a broker's read and write queue counts as the config gives them.
func (b BrokerConfig) QueueCounts() (read, write int) {
	read, write = b.Queues, b.Queues
	if b.ReadQueueNums > 0 {
		read = b.ReadQueueNums
	}
	if b.WriteQueueNums > 0 {
		write = b.WriteQueueNums
	}
	return read, write
}

// Where consumption starts (ConsumeFromWhere without its CONSUME_FROM_ prefix).
const (
	FromLastOffset  = "LAST_OFFSET"
	FromFirstOffset = "FIRST_OFFSET"
	FromTimestamp   = "TIMESTAMP"
)

// ParseConsumeFromWhere accepts LAST_OFFSET, FIRST_OFFSET and TIMESTAMP, with or without
// RocketMQ's CONSUME_FROM_ prefix; "" is LAST_OFFSET.
func ParseConsumeFromWhere(s string) (string, error) {
	v := strings.TrimPrefix(s, "CONSUME_FROM_")
	switch v {
	case "":
		return FromLastOffset, nil
	case FromLastOffset, FromFirstOffset, FromTimestamp:
		return v, nil
	}
	return "", fmt.Errorf("consumeFromWhere %q: want %s, %s or %s", s, FromLastOffset, FromFirstOffset, FromTimestamp)
}

// ProducerConfig is one producer sending at a steady rate.
type ProducerConfig struct {
	ID   string `json:"id"`
	Rate int    `json:"rate"` // messages per second, the producer's threads together
	// Threads is how many threads call the synchronous send (0: 1). Each blocks for its whole
	// send, so a slow broker slows the producer down (spec §2.7).
	Threads int `json:"threads,omitempty"`
	// Mode is "sync" (the default) or "async": send with a callback, nothing blocks (spec §2.9).
	Mode string `json:"mode,omitempty"`
	// Keys makes every send a selector send, send(msg, SelectMessageQueueByHash, key): the
	// queue is the key's Java hash over the publish list, with no fault tolerance and, when
	// synchronous, no retry (spec §2.11).
	Keys *KeysConfig `json:"keys,omitempty"`
	// Selector is the producer's own MessageQueueSelector for its keyed sends, in place of
	// SelectMessageQueueByHash: send(msg, selector, key) calls its select(queues, message,
	// arg) with the publish list, the message's key and tags, and the key as arg; a selector
	// that throws fails the send (spec §2.11). It needs Keys.
	Selector *selector.Choice `json:"selector,omitempty"`
	// LatencyMax and NotAvailableDuration are the producer's own latency tiers
	// (setLatencyMax / setNotAvailableDuration); either alone keeps the other's default.
	// Like Java, nothing checks them: a notAvailableDuration shorter than latencyMax makes a
	// send whose tier has no entry throw in latency mode, after the broker stored it (spec
	// §2.12).
	LatencyMax           []int64 `json:"latencyMax,omitempty"`
	NotAvailableDuration []int64 `json:"notAvailableDuration,omitempty"`
	// Client is the SDK the producer process runs (spec §9): java (the default), java-4.9 or
	// go-2.1.2 ("go"). It decides the publish list, the selection, the retries and the
	// latency fault tolerance (none in Go).
	Client string `json:"client,omitempty"`
	// Topic is the topic it sends to ("": the first).
	Topic string `json:"topic,omitempty"`
	// Tags is the mix of tags its messages carry, each tag's share ({"TagA": 0.7, "TagB":
	// 0.3}); none: no tag.
	Tags map[string]float64 `json:"tags,omitempty"`
	// Kind is remoting (the default: Client's SDK) or grpc, RocketMQ 5's producer through
	// Proxy (the first of proxies by default), which chooses the queue (spec §8.4.8).
	Kind  string `json:"kind,omitempty"`
	Proxy string `json:"proxy,omitempty"`
}

// KeysConfig is the keys a producer's messages carry: Prefix + 0 … Count−1, drawn uniformly,
// except that HotShare percent of the sends carry key 0 (one busy streamer, one big customer).
type KeysConfig struct {
	Count    int    `json:"count"`
	HotShare int    `json:"hotShare,omitempty"`
	Prefix   string `json:"prefix,omitempty"` // "": "key-"
}

// Timing holds every constant of spec §0 the simulation uses, in milliseconds unless named
// otherwise. Zero fields take the defaults of DefaultTiming.
type Timing struct {
	RebalanceWaitInterval  int64 `json:"rebalanceWaitInterval,omitempty"`    // 20000: period while balanced
	RebalanceMinInterval   int64 `json:"rebalanceMinInterval,omitempty"`     // 1000: retry while unbalanced, min spacing
	PollNameServerInterval int64 `json:"pollNameServerInterval,omitempty"`   // 30000: route refresh
	HeartbeatInterval      int64 `json:"heartbeatInterval,omitempty"`        // 30000 (first after 1000)
	PersistOffsetInterval  int64 `json:"persistOffsetInterval,omitempty"`    // 5000 (first after 10000)
	ChannelExpiredTimeout  int64 `json:"channelExpiredTimeout,omitempty"`    // 120000, from the last heartbeat
	ScanInterval           int64 `json:"scanInterval,omitempty"`             // 10000: broker expiry scan
	IdleTimeout            int64 `json:"idleTimeout,omitempty"`              // 120000: Netty all-idle close
	PullFirstDelay         int64 `json:"pullFirstDelay,omitempty"`           // 500: first pull of a new queue
	LongPollHold           int64 `json:"longPollHold,omitempty"`             // 15000: broker holds an empty pull
	HoldCheckInterval      int64 `json:"holdCheckInterval,omitempty"`        // 5000: hold checker period
	PullBatchSize          int   `json:"pullBatchSize,omitempty"`            // 32
	PullThresholdForQueue  int   `json:"pullThresholdForQueue,omitempty"`    // 1000 cached messages
	PullDelayOnException   int64 `json:"pullDelayOnException,omitempty"`     // 1000
	PullTimeout            int64 `json:"pullTimeout,omitempty"`              // 30000: client timeout of a held pull
	RPCTimeout             int64 `json:"rpcTimeout,omitempty"`               // 3000: consumer list, heartbeat
	PullMaxIdleTime        int64 `json:"pullMaxIdleTime,omitempty"`          // 120000: process queue pull expiry
	ConsumeThreads         int   `json:"consumeThreads,omitempty"`           // 20
	ConsumeRate            int   `json:"consumeRate,omitempty"`              // 2000 messages/s per consumer
	SendMsgTimeout         int64 `json:"sendMsgTimeout,omitempty"`           // 3000
	RetryTimesWhenSendFail int   `json:"retryTimesWhenSendFailed,omitempty"` // 2
	BrokerBaseLatency      int64 `json:"brokerBaseLatency,omitempty"`        // 2: a healthy broker's send latency
	BrokerJitter           int64 `json:"brokerJitter,omitempty"`             // 3: seeded jitter added to it, 0..n
	NetworkRTT             int64 `json:"networkRtt,omitempty"`               // 1: one client-broker round trip
	FlowStepMs             int64 `json:"flowStepMs,omitempty"`               // 50: message-flow step
	ConsumeTimeout         int64 `json:"consumeTimeout,omitempty"`           // 900000: a message this long in its listener is sent back
	// ExpiryNotifies makes the expiry scan fire CHANGE, the race outcome of spec §5.1 (by
	// design it does not).
	ExpiryNotifies bool `json:"expiryNotifies,omitempty"`
}

// DefaultTiming is RocketMQ's defaults (spec §0) and the simulation's own step sizes: the
// field table's defaults of timing.
func DefaultTiming() Timing { return Timing{}.WithDefaults() }

// WithDefaults is t with its zero fields taken from the field table's defaults
// (DefaultTiming), as the engine runs it.
func (t Timing) WithDefaults() Timing {
	withFieldDefaults("timing", reflect.ValueOf(&t).Elem())
	return t
}
