package cluster

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/profile"
)

// A field's type beyond the arguments' (ArgInt, ArgString, ArgEnum, ArgBool, ArgInts,
// ArgObject): a list of objects, each checked against the fields under Path + "[]".
const ArgList = "list"

// More types of fields: ArgFloat a number (limits FMin…FMax), ArgStrings a list of names (of
// Charset, at most Len), ArgShares an object of names (of Charset, at most Len) to numbers
// (FMin…FMax).
const (
	ArgFloat   = "float"
	ArgStrings = "strings"
	ArgShares  = "shares"
)

// MaxDayMs is 24 hours in milliseconds, the bound of every time a setting gives.
const MaxDayMs = 24 * 3600 * 1000

// MaxSlowEvery bounds a consumer's slowEvery.
const MaxSlowEvery = 1 << 30

// MaxHistory bounds the messages per queue a topic may hold at 00:00.
const MaxHistory = 1000000000

// FieldSpec is one entry of the field table: one setting of a cluster's initial state (Config
// and the structs under it), so that a new setting is one entry. Scenario validation (its
// limits and their errors, in the table's order), the engine's defaults, the command line's
// flags, lbscope.limits() and the scenario format's documentation all read it.
type FieldSpec struct {
	// Path is the setting as a scenario file names it: "seed", "brokers[].queues",
	// "producers[].keys.count", "timing.pullBatchSize". The part before the last '.' names
	// the struct that holds it ("brokers[]": each element of brokers); the last part is its
	// Go field's JSON name.
	Path string
	Type string // ArgInt, ArgString, ArgEnum, ArgBool, ArgInts, ArgObject or ArgList
	Unit string // of a number ("ms"), or the noun of a list's length in errors ("brokers")
	// Min and Max bound an ArgInt (an ArgInts' every entry); Len bounds the entries of an
	// ArgInts or ArgList.
	Min, Max int64
	// FMin and FMax bound an ArgFloat, and each share of an ArgShares.
	FMin, FMax float64
	MaxOf      string // an ArgInt bounded by another field of its struct instead: its JSON name
	Len        int
	Enum       []string // ArgEnum: the values
	Prefix     string   // ArgEnum: a prefix a value may be written with (CONSUME_FROM_)
	Charset    *Charset // ArgString: the characters a name takes; nil: a rule of its own checks it
	Required   bool     // ArgString: an empty value is "missing"
	// Loose: the values are checked by a rule of their own (a client's aliases, a strategy
	// the registry knows), not against Enum.
	Loose bool
	Note  string // written after the limits in an error: " (24 h)"
	// Default is the value an unset (zero) field takes, as a file would write it; "" when the
	// zero value is the default, or the default is not one value (a consumer's consumeRate is
	// the timing's).
	Default string
	// Flag is the command line's flag that sets it in a flag-built cluster (on every broker or
	// producer for a field of one), with FlagDefault when it differs from Default (the flags
	// build the default preset's shape); Doc is the flag's help.
	Flag, FlagDefault string
	Doc               string // one line, English

	index int // the Go field's in its struct
}

// Name is the field's JSON name, the last part of its path.
func (f *FieldSpec) Name() string { return f.Path[strings.LastIndexByte(f.Path, '.')+1:] }

// Scope is the path of the struct that holds the field ("" for Config).
func (f *FieldSpec) Scope() string { return f.Path[:max(strings.LastIndexByte(f.Path, '.'), 0)] }

// FlagDefaultText is the flag's default value as the command line writes it.
func (f *FieldSpec) FlagDefaultText() string {
	if f.FlagDefault != "" {
		return f.FlagDefault
	}
	return f.Default
}

var (
	sendModes    = []string{SendSync, SendAsync}
	clients      = []string{string(profile.Java), string(profile.Java49), string(profile.Go212)}
	fromWheres   = []string{FromLastOffset, FromFirstOffset, FromTimestamp}
	models       = []string{Clustering, Broadcasting}
	faultTables  = []string{fault.TableCurrent, fault.TableLegacy4x}
	fieldByPath  = map[string]*FieldSpec{}
	fieldsOfType = map[string]reflect.Type{"": reflect.TypeFor[Config]()}
)

// fields is the table, in the order validation checks them (a struct's fields before the
// next struct's, so the first error found is the first in the file's order).
var fields = []FieldSpec{
	{Path: "seed", Type: ArgInt, Min: -1 << 63, Max: 1<<63 - 1, Flag: "seed", FlagDefault: "1", Doc: "the run's seed; every random stream derives from it"},
	{Path: "topic", Type: ArgString, Charset: &TopicName, Default: "TopicTest", Doc: "the topic's name"},
	{Path: "group", Type: ArgString, Charset: &GroupName, Default: "GroupTest", Doc: "the consumer group's name"},
	{Path: "topics", Type: ArgList, Unit: "topics", Len: MaxTopics, Doc: "the topics (format 2); none: topic on every broker with brokers[].queues"},
	{Path: "topics[].name", Type: ArgString, Charset: &TopicName, Required: true, Doc: "the topic's name, unique"},
	{Path: "topics[].queues", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "its queues on every broker; 0: brokers[].queues"},
	{Path: "topics[].readQueueNums", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "its read queues on every broker, when they differ from queues"},
	{Path: "topics[].writeQueueNums", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "its write queues on every broker, when they differ from queues"},
	{Path: "topics[].perm", Type: ArgEnum, Enum: Perms, Default: PermRW, Doc: "its permission: RW, R (no producer writes it), W (no consumer reads it) or none"},
	{Path: "topics[].brokers", Type: ArgList, Unit: "brokers", Len: MaxBrokers, Doc: "the brokers it lives on, with their own counts; none: every broker"},
	{Path: "topics[].brokers[].name", Type: ArgString, Charset: &BrokerName, Required: true, Doc: "a broker of brokers"},
	{Path: "topics[].brokers[].queues", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "its queues on that broker; 0: the topic's"},
	{Path: "topics[].brokers[].readQueueNums", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "read queues there, when they differ"},
	{Path: "topics[].brokers[].writeQueueNums", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "write queues there, when they differ"},
	{Path: "topics[].brokers[].perm", Type: ArgEnum, Enum: Perms, Doc: "its permission there; unset: the topic's"},
	{Path: "groups", Type: ArgList, Unit: "groups", Len: MaxGroups, Doc: "the consumer groups (format 2); none: group with strategy, params and messageModel"},
	{Path: "groups[].name", Type: ArgString, Charset: &GroupName, Required: true, Doc: "the group's name, unique"},
	{Path: "groups[].strategy", Type: ArgEnum, Loose: true, Default: "AVG", Doc: "its allocation strategy"},
	{Path: "groups[].params", Type: ArgObject, Doc: "the strategy's parameters"},
	{Path: "groups[].messageModel", Type: ArgEnum, Enum: models, Default: Clustering, Doc: "CLUSTERING or BROADCASTING"},
	{Path: "groups[].consumeFromWhere", Type: ArgEnum, Enum: fromWheres, Prefix: "CONSUME_FROM_", Note: " (CONSUME_FROM_ may precede them)", Default: FromLastOffset, Doc: "where its members' queues without an offset start"},
	{Path: "groups[].noRetryTopic", Type: ArgBool, Doc: "leave out the retry subscription %RETRY%<group>"},
	{Path: "groups[].maxReconsumeTimes", Type: ArgInt, Unit: "times", Max: MaxReconsumeTimes, Default: "16", Doc: "failures before a message goes to %DLQ%<group>"},
	{Path: "groups[].orderly", Type: ArgBool, Doc: "its members consume orderly: one thread a queue, a failed message suspends its queue; its gRPC PushConsumers receive FIFO through the proxy (spec §8.3.9, §8.4.4)"},
	{Path: "groups[].consumeMode", Type: ArgEnum, Enum: []string{ModePull, ModePop}, Default: ModePull, Doc: "the brokers' message request mode for its topics (mqadmin setConsumeMode): POP serves members with clientRebalance false messages from shared queues, spec §8.3"},
	{Path: "groups[].popShareQueueNum", Type: ArgInt, Unit: "members", Min: -1, Max: MaxConsumers, Default: "-1", Doc: "POP: each member pops its own block and the next k members'; out of range (the default): every queue"},
	{Path: "groups[].autoscale", Type: ArgObject, Doc: "an autoscaler on the group's backlog"},
	{Path: "groups[].autoscale.outAbove", Type: ArgInt, Unit: "messages", Max: MaxBacklogRule, Doc: "backlog above which it scales out"},
	{Path: "groups[].autoscale.outForMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Doc: "how long the backlog stays above outAbove before a step out"},
	{Path: "groups[].autoscale.inBelow", Type: ArgInt, Unit: "messages", Max: MaxBacklogRule, Doc: "backlog below which it scales in"},
	{Path: "groups[].autoscale.inForMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Doc: "how long the backlog stays below inBelow before a step in"},
	{Path: "groups[].autoscale.step", Type: ArgInt, Unit: "members", Max: MaxConsumers, Default: "1", Doc: "members a step starts or stops"},
	{Path: "groups[].autoscale.min", Type: ArgInt, Unit: "members", Max: MaxConsumers, Doc: "members it keeps at least"},
	{Path: "groups[].autoscale.max", Type: ArgInt, Unit: "members", Max: MaxConsumers, Doc: "members it starts at most"},
	{Path: "groups[].autoscale.coolDownMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Doc: "least time between two steps"},
	{Path: "groups[].autoscale.periodMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "15000", Doc: "how often it reads the backlog"},
	{Path: "groups[].autoscale.prefix", Type: ArgString, Charset: &PlainName, Default: "auto-", Doc: "the ids of the members it starts: prefix1, prefix2, …"},
	{Path: "brokers", Type: ArgList, Unit: "brokers", Len: MaxBrokers, Flag: "brokers", FlagDefault: "4", Doc: "number of brokers, named broker-a, broker-b, …"},
	{Path: "brokers[].name", Type: ArgString, Charset: &BrokerName, Required: true, Doc: "the broker's name, unique"},
	{Path: "brokers[].queues", Type: ArgInt, Unit: "queues", Max: MaxQueues, Flag: "queues", FlagDefault: "8", Doc: "queues of the topic on each broker"},
	{Path: "brokers[].readQueueNums", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "read queues when they differ from queues"},
	{Path: "brokers[].writeQueueNums", Type: ArgInt, Unit: "queues", Max: MaxQueues, Doc: "write queues when they differ from queues"},
	{Path: "brokers[].latencyMs", Type: ArgInt, Unit: "ms", Max: MaxLatencyMs, Doc: "extra send latency"},
	{Path: "brokers[].memoryMessages", Type: ArgInt, Unit: "messages", Max: MaxHistory * MaxQueues, Doc: "newest messages of the commit log in memory; 0: all"},
	{Path: "consumers", Type: ArgList, Unit: "consumers", Len: MaxConsumers, Flag: "consumers", FlagDefault: "4", Doc: "number of consumers, named c1…cN"},
	{Path: "consumers[].id", Type: ArgString, Charset: &ClientIDName, Required: true, Doc: "the client id, unique"},
	{Path: "consumers[].consumeRate", Type: ArgInt, Unit: "messages/s", Max: MaxConsumeRate, Doc: "messages per second it consumes; 0: timing.consumeRate"},
	{Path: "consumers[].fixedInstanceName", Type: ArgBool, Doc: "a restart keeps the client id"},
	{Path: "consumers[].clientRebalance", Type: ArgBool, Default: "true", Doc: "false: the brokers allocate its queues (QUERY_ASSIGNMENT, AVG and AVG_BY_CIRCLE only), spec §8.2"},
	{Path: "consumers[].kind", Type: ArgEnum, Enum: ConsumerKinds, Default: KindPush, Doc: "push: the classic remoting client; grpc-push: a gRPC PushConsumer through a proxy, given every broker's acting queue and popping through the proxy; grpc-simple: a gRPC SimpleConsumer, whose application receives from one broker after another, spec §8.4"},
	{Path: "consumers[].proxy", Type: ArgString, Charset: &BrokerName, Doc: "grpc-push, grpc-simple: the proxy it connects to; unset: the first of proxies. push with clientRebalance false: a cluster-mode proxy whose remoting port it reaches the cluster through, which refuses its assignment queries, so it never gets a queue (spec §8.1)"},
	{Path: "consumers[].awaitDurationMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "30000", Note: " (0 means 30000)", Doc: "grpc-simple: how long a receive may wait for messages; the proxy holds an empty one 5 s … 20 s and refuses every call below about 2 s (ILLEGAL_POLLING_TIME), spec §8.4.5"},
	{Path: "consumers[].invisibleDurationMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "15000", Note: " (0 means 15000)", Doc: "grpc-simple: how long received messages stay invisible; never renewed; the proxy refuses values outside 10 s … 12 h (ILLEGAL_INVISIBLE_TIME)"},
	{Path: "consumers[].maxMessageNum", Type: ArgInt, Unit: "messages", Max: 1024, Default: "16", Note: " (0 means 16)", Doc: "grpc-simple: messages a receive asks for; the proxy pops 32 at most"},
	{Path: "consumers[].consumeFromWhere", Type: ArgEnum, Enum: fromWheres, Prefix: "CONSUME_FROM_", Note: " (CONSUME_FROM_ may precede them)", Default: FromLastOffset, Doc: "where a queue without an offset starts"},
	{Path: "consumers[].slowEvery", Type: ArgInt, Unit: "messages", Max: MaxSlowEvery, Doc: "about one message in this many is slow; 0: none"},
	{Path: "consumers[].slowMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Note: " (24 h)", Doc: "a slow message's time in the listener"},
	{Path: "consumers[].consumeTimestampMs", Type: ArgInt, Unit: "ms", Min: -MaxDayMs, Max: MaxDayMs, Note: " (24 h either side of 00:00)", Doc: "TIMESTAMP's time; unset: 30 min before the start"},
	{Path: "consumers[].subscription", Type: ArgObject, Doc: "another topic the member subscribes"},
	{Path: "consumers[].subscription.topic", Type: ArgString, Charset: &TopicName, Required: true, Doc: "the topic it subscribes"},
	{Path: "consumers[].subscription.tags", Type: ArgStrings, Charset: &TagName, Len: MaxTags, Doc: "the tags it subscribes; none: every message"},
	{Path: "consumers[].client", Type: ArgEnum, Enum: clients, Loose: true, Default: string(profile.Default), Doc: "the SDK the process runs"},
	{Path: "consumers[].groups", Type: ArgList, Unit: "memberships", Len: MaxMemberships, Doc: "its memberships (format 2); none: the first group"},
	{Path: "consumers[].groups[].group", Type: ArgString, Charset: &GroupName, Required: true, Doc: "a group of groups"},
	{Path: "consumers[].groups[].subscriptions", Type: ArgList, Unit: "subscriptions", Len: MaxSubscriptions, Doc: "what it subscribes there; none: the first topic"},
	{Path: "consumers[].groups[].subscriptions[].topic", Type: ArgString, Charset: &TopicName, Required: true, Doc: "a topic of topics"},
	{Path: "consumers[].groups[].subscriptions[].tags", Type: ArgStrings, Charset: &TagName, Len: MaxTags, Doc: "the tags it subscribes; none: every message"},
	{Path: "consumers[].groups[].failRate", Type: ArgFloat, FMin: 0, FMax: 1, Doc: "share of deliveries its listener answers RECONSUME_LATER"},
	{Path: "consumers[].groups[].consumeMs", Type: ArgInt, Unit: "ms", Max: MaxConsumeMs, Doc: "its listener's time per message; 0: consumeRate decides"},
	{Path: "proxies", Type: ArgList, Unit: "proxies", Len: MaxProxies, Doc: "RocketMQ 5 proxies (format 2), through which gRPC consumers reach the brokers"},
	{Path: "proxies[].name", Type: ArgString, Charset: &BrokerName, Required: true, Doc: "the proxy's name, unique"},
	{Path: "proxies[].mode", Type: ArgEnum, Enum: []string{ProxyCluster, ProxyLocal}, Default: ProxyCluster, Doc: "cluster: a proxy process of its own, registering its gRPC clients itself, which killProxy and restoreProxy kill and start again; local: a proxy inside each broker, registering its clients in that broker's ConsumerManager beside the classic members, stopped and started with its broker, picking a random queue of its broker per send (spec §8.4.1, §8.4.5, §8.4.8)"},
	{Path: "producers", Type: ArgList, Unit: "producers", Len: MaxProducers, Flag: "producers", FlagDefault: "1", Doc: "number of producers"},
	{Path: "producers[].id", Type: ArgString, Charset: &PlainName, Required: true, Doc: "the producer's id, unique"},
	{Path: "producers[].rate", Type: ArgInt, Unit: "messages/s", Max: MaxRate, Flag: "rate", FlagDefault: "200", Doc: "messages per second of each producer"},
	{Path: "producers[].mode", Type: ArgEnum, Enum: sendModes, Default: SendSync, Flag: "producer-mode", Doc: "how the producers send: sync (each thread blocks for its send) or async (a callback, nothing blocks)"},
	{Path: "producers[].threads", Type: ArgInt, Unit: "threads", Max: MaxSendThreads, Flag: "producer-threads", FlagDefault: "0", Doc: "threads calling the synchronous send in each producer, 1…256 (default: one per 125 msg/s of --rate)"},
	{Path: "producers[].latencyMax", Type: ArgInts, Unit: "ms", Min: -MaxTierMs, Max: MaxTierMs, Len: MaxTiers, Note: " (24 h either way)", Flag: "latency-max", Doc: "the producers' own latencyMax tiers in ms, comma-separated, e.g. 50,100,550,1800,3000,5000,15000 (setLatencyMax)"},
	{Path: "producers[].notAvailableDuration", Type: ArgInts, Unit: "ms", Min: -MaxTierMs, Max: MaxTierMs, Len: MaxTiers, Note: " (24 h either way)", Flag: "not-available-duration", Doc: "the producers' own notAvailableDuration tiers in ms, e.g. 0,0,2000,5000,6000,10000,30000 (setNotAvailableDuration)"},
	{Path: "producers[].keys", Type: ArgObject, Doc: "keys for SelectMessageQueueByHash sends"},
	{Path: "producers[].keys.count", Type: ArgInt, Unit: "keys", Min: 1, Max: MaxKeys, Doc: "distinct keys"},
	{Path: "producers[].keys.hotShare", Type: ArgInt, Unit: "%", Max: 100, Doc: "share of the sends that carry key 0"},
	{Path: "producers[].keys.prefix", Type: ArgString, Default: "key-", Doc: "the keys' prefix"},
	{Path: "producers[].selector", Type: ArgObject, Doc: "your own MessageQueueSelector for the keyed sends, {\"name\", \"source\"}: Starlark that defines select(queues, message, arg)"},
	{Path: "producers[].client", Type: ArgEnum, Enum: clients, Loose: true, Default: string(profile.Default), Flag: "producer-client", Doc: "the SDK the producers run: java, java-4.9 or go-2.1.2 (go); it decides their queue selection, retries and latency fault tolerance"},
	{Path: "producers[].topic", Type: ArgString, Charset: &TopicName, Doc: "the topic it sends to; unset: the first"},
	{Path: "producers[].kind", Type: ArgEnum, Enum: ProducerKinds, Default: "remoting", Doc: "remoting: the client SDK of producers[].client; grpc: RocketMQ 5's producer through a proxy, which chooses the queue itself (round robin, or the message group's consistent hash), spec §8.4.8"},
	{Path: "producers[].proxy", Type: ArgString, Charset: &BrokerName, Doc: "grpc: the proxy it sends through; unset: the first of proxies"},
	{Path: "producers[].tags", Type: ArgShares, Charset: &TagName, Len: MaxTags, FMin: 0, FMax: 1, Doc: "the mix of tags its messages carry, each tag's share"},
	{Path: "consumers[].attributes", Type: ArgObject, Len: MaxAttributes, Doc: "what a strategy's view shows of the member: a weight, a room, labels"},
	{Path: "metrics", Type: ArgObject, Doc: "the shared store of metrics that strategies' views read"},
	{Path: "metrics.intervalMs", Type: ArgInt, Unit: "ms", Min: 100, Max: MaxDayMs, Default: "10000", Note: " (0 means 10000)", Doc: "how often every member publishes its metrics"},
	{Path: "history", Type: ArgObject, Doc: "what every initial queue holds at 00:00"},
	{Path: "history.messages", Type: ArgInt, Unit: "messages", Max: MaxHistory, Note: " per queue", Doc: "messages per queue, produced before 00:00"},
	{Path: "history.deleted", Type: ArgInt, Unit: "messages", MaxOf: "messages", Doc: "the oldest of them deleted, up to history.messages"},
	{Path: "history.spanMs", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Note: " (24 h; 0 means one hour)", Doc: "the time they were produced over; 0: one hour"},
	{Path: "strategy", Type: ArgEnum, Loose: true, Default: "AVG", Flag: "strategy", Doc: "the allocation strategy: a name, or your own as {\"name\", \"source\"} (Starlark)"},
	{Path: "params", Type: ArgObject, Doc: "the strategy's parameters"},
	{Path: "messageModel", Type: ArgEnum, Enum: models, Default: Clustering, Flag: "model", Doc: "message model: CLUSTERING or BROADCASTING"},
	{Path: "consumeMode", Type: ArgEnum, Enum: []string{ModePull, ModePop}, Default: ModePull, Doc: "the brokers' message request mode for the group's topic (format 1's groups[].consumeMode)"},
	{Path: "detail", Type: ArgBool, Doc: "tell every pop (a gRPC receive), empty long poll and ack of POP and gRPC members, at most 20000 a run"},
	{Path: "latencyFault", Type: ArgBool, Flag: "latency-fault", Doc: "turn the producers' latency fault tolerance on (sendLatencyFaultEnable)"},
	{Path: "faultTable", Type: ArgEnum, Enum: faultTables, Default: fault.TableCurrent, Flag: "fault-table", Doc: "the producers' latency fault table"},
	{Path: "timing", Type: ArgObject, Doc: "RocketMQ's timing constants; 0: the default"},
	{Path: "timing.rebalanceWaitInterval", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "20000", Doc: "rebalance period while the group is balanced"},
	{Path: "timing.rebalanceMinInterval", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "1000", Doc: "least spacing of rebalance retries while unbalanced"},
	{Path: "timing.pollNameServerInterval", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "30000", Doc: "route refresh period"},
	{Path: "timing.heartbeatInterval", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "30000", Doc: "heartbeat period; the first after 1000 ms"},
	{Path: "timing.persistOffsetInterval", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "5000", Doc: "offset persist period; the first after 10000 ms"},
	{Path: "timing.channelExpiredTimeout", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "120000", Doc: "a broker expires a channel this long after its last heartbeat"},
	{Path: "timing.scanInterval", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "10000", Doc: "period of the broker's channel expiry scan"},
	{Path: "timing.idleTimeout", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "120000", Doc: "Netty closes a connection idle this long"},
	{Path: "timing.pullFirstDelay", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "500", Doc: "delay of a new queue's first pull"},
	{Path: "timing.longPollHold", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "15000", Doc: "how long a broker holds an empty pull"},
	{Path: "timing.holdCheckInterval", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "5000", Doc: "period of the broker's hold checker"},
	{Path: "timing.pullBatchSize", Type: ArgInt, Unit: "messages", Max: 1024, Default: "32", Doc: "messages per pull"},
	{Path: "timing.pullThresholdForQueue", Type: ArgInt, Unit: "messages", Max: 1000000, Default: "1000", Doc: "cached messages of a queue above which pulls wait"},
	{Path: "timing.pullDelayOnException", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "1000", Doc: "delay of a pull after an error"},
	{Path: "timing.pullTimeout", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "30000", Doc: "client timeout of a held pull"},
	{Path: "timing.rpcTimeout", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "3000", Doc: "timeout of a consumer-list or heartbeat call"},
	{Path: "timing.pullMaxIdleTime", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "120000", Doc: "a process queue not pulled this long expires"},
	{Path: "timing.consumeThreads", Type: ArgInt, Unit: "threads", Max: 1000, Default: "20", Doc: "consume threads of a consumer"},
	{Path: "timing.consumeRate", Type: ArgInt, Unit: "messages/s", Max: MaxConsumeRate, Default: "2000", Doc: "messages per second a consumer consumes"},
	{Path: "timing.sendMsgTimeout", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "3000", Doc: "a send's timeout"},
	{Path: "timing.retryTimesWhenSendFailed", Type: ArgInt, Unit: "retries", Max: 16, Default: "2", Doc: "retries of a failed synchronous send"},
	{Path: "timing.brokerBaseLatency", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "2", Doc: "a healthy broker's send latency"},
	{Path: "timing.brokerJitter", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "3", Doc: "the most seeded jitter added to it"},
	{Path: "timing.networkRtt", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "1", Doc: "one client-broker round trip"},
	{Path: "timing.flowStepMs", Type: ArgInt, Unit: "ms", Max: 1000, Default: "50", Doc: "step of the simulated message flow"},
	{Path: "timing.consumeTimeout", Type: ArgInt, Unit: "ms", Max: MaxDayMs, Default: "900000", Doc: "a message this long in its listener is sent back by the clean-up, which runs this often"},
	{Path: "timing.expiryNotifies", Type: ArgBool, Doc: "the expiry scan notifies CHANGE (the race of spec §5.1)"},
}

func init() {
	for i := range fields {
		f := &fields[i]
		parent, ok := fieldsOfType[f.Scope()]
		sf, found := reflect.StructField{}, false
		for j := 0; ok && j < parent.NumField() && !found; j++ {
			sf = parent.Field(j)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			f.index, found = j, name == f.Name()
		}
		if !found {
			panic("cluster: field " + f.Path + " is no field of its struct, or comes before it")
		}
		switch t := sf.Type; f.Type {
		case ArgList:
			fieldsOfType[f.Path+"[]"] = t.Elem()
		case ArgObject:
			if t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			fieldsOfType[f.Path] = t
		}
		fieldByPath[f.Path] = f
	}
}

// Fields is the field table, in its order.
func Fields() []*FieldSpec {
	out := make([]*FieldSpec, len(fields))
	for i := range fields {
		out[i] = &fields[i]
	}
	return out
}

// Field finds an entry of the field table by its path.
func Field(path string) (*FieldSpec, bool) {
	f, ok := fieldByPath[path]
	return f, ok
}

// FieldRules are the checks of their own that fields have, after the table's limits: a rule
// across fields (slowEvery with slowMs), or across a list's elements (unique ids). field is
// the entry's path ("consumers[].id"), p the path of the struct holding it ("consumers[3]",
// "producers[0].keys"; "" for Config) and i the index of the list element it is in (3, 0),
// -1 outside the lists.
type FieldRules func(field, p string, i int) error

// CheckFields checks a Config against the field table, field by field in the table's order:
// each number within its limits, each enumeration one of its values, each name of its
// characters, each list within its length and each of its elements in turn; rules[path] then
// checks what the table cannot say (nil: nothing more). It returns the first problem, its path naming the field
// ("brokers[2].queues: 9000; want 0…4096").
func CheckFields(cfg Config, rules FieldRules) error {
	return checkStruct("", "", -1, reflect.ValueOf(cfg), rules)
}

func checkStruct(p, scope string, elem int, v reflect.Value, rules FieldRules) error {
	for i := range fields {
		f := &fields[i]
		if f.Scope() != scope {
			continue
		}
		if err := f.check(join(p, f.Name()), v.Field(f.index), v, elem, rules); err != nil {
			return err
		}
		if rules != nil {
			if err := rules(f.Path, p, elem); err != nil {
				return err
			}
		}
	}
	return nil
}

// check checks x, the field's value in v, against the entry's limits.
func (f *FieldSpec) check(path string, x, v reflect.Value, elem int, rules FieldRules) error {
	if x.Kind() == reflect.Pointer {
		if x.IsNil() {
			return nil
		}
		x = x.Elem()
	}
	switch f.Type {
	case ArgInt:
		if f.MaxOf != "" {
			of := fieldByPath[join(f.Scope(), f.MaxOf)]
			return checkInt(path, x.Int(), 0, v.Field(of.index).Int(), " ("+of.Path+")")
		}
		if f.Min < f.Max {
			return checkInt(path, x.Int(), f.Min, f.Max, f.Note)
		}
	case ArgEnum:
		s := strings.TrimPrefix(x.String(), f.Prefix)
		if s == "" || f.Loose || slices.Contains(f.Enum, s) {
			return nil
		}
		return errors.New(path + ": " + Quote(x.String()) + "; want " + orList(f.Enum) + f.Note)
	case ArgString:
		if s := x.String(); f.Charset != nil && (s != "" || f.Required) {
			return CheckName(path, s, *f.Charset)
		}
	case ArgInts, ArgList:
		noun := " " + f.Unit
		if f.Type == ArgInts {
			noun = " entries"
		}
		if n := x.Len(); n > f.Len {
			return errors.New(path + ": " + strconv.Itoa(n) + noun + "; the limit is " + strconv.Itoa(f.Len))
		}
		for i := range x.Len() {
			at := path + "[" + strconv.Itoa(i) + "]"
			var err error
			if f.Type == ArgInts {
				err = checkInt(at, x.Index(i).Int(), f.Min, f.Max, f.Note)
			} else {
				err = checkStruct(at, f.Path+"[]", i, x.Index(i), rules)
			}
			if err != nil {
				return err
			}
		}
	case ArgObject:
		if x.Kind() == reflect.Struct {
			return checkStruct(path, f.Path, elem, x, rules)
		}
	case ArgFloat:
		return checkFloat(path, x.Float(), f.FMin, f.FMax)
	case ArgStrings:
		if n := x.Len(); n > f.Len {
			return errors.New(path + ": " + strconv.Itoa(n) + " entries; the limit is " + strconv.Itoa(f.Len))
		}
		for i := range x.Len() {
			if err := CheckName(path+"["+strconv.Itoa(i)+"]", x.Index(i).String(), *f.Charset); err != nil {
				return err
			}
		}
	case ArgShares:
		if n := x.Len(); n > f.Len {
			return errors.New(path + ": " + strconv.Itoa(n) + " entries; the limit is " + strconv.Itoa(f.Len))
		}
		keys := make([]string, 0, x.Len())
		for _, k := range x.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := CheckName(path+" key", k, *f.Charset); err != nil {
				return err
			}
			if err := checkFloat(path+"."+k, x.MapIndex(reflect.ValueOf(k)).Float(), f.FMin, f.FMax); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkFloat checks that n is within lo…hi (NaN never is).
func checkFloat(path string, n, lo, hi float64) error {
	if !(n >= lo && n <= hi) {
		return errors.New(path + ": " + strconv.FormatFloat(n, 'g', -1, 64) + "; want " + strconv.FormatFloat(lo, 'g', -1, 64) + "…" + strconv.FormatFloat(hi, 'g', -1, 64))
	}
	return nil
}

// checkInt checks that n is within lo…hi; note follows the limits in the error.
func checkInt(path string, n, lo, hi int64, note string) error {
	if n < lo || n > hi {
		return errors.New(path + ": " + strconv.FormatInt(n, 10) + "; want " + strconv.FormatInt(lo, 10) + "…" + strconv.FormatInt(hi, 10) + note)
	}
	return nil
}

// orList is "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// withFieldDefaults sets each zero field of the struct v (of the scope's type) that has a
// number for its default to that default.
func withFieldDefaults(scope string, v reflect.Value) {
	for i := range fields {
		f := &fields[i]
		if f.Scope() != scope || f.Type != ArgInt || f.Default == "" {
			continue
		}
		if x := v.Field(f.index); x.IsZero() {
			n, _ := strconv.ParseInt(f.Default, 10, 64)
			x.SetInt(n)
		}
	}
}

// DefaultOf is the default of the field at path, as a file would write it.
func DefaultOf(path string) string { return fieldByPath[path].Default }

// Check checks one value of the field against the entry's limits; path names it in the error.
func (f *FieldSpec) Check(path string, v any) error {
	return f.check(path, reflect.ValueOf(v), reflect.Value{}, -1, nil)
}

// FieldByFlag finds the entry of the field table that the command line's flag sets.
func FieldByFlag(flag string) (*FieldSpec, bool) {
	for i := range fields {
		if fields[i].Flag == flag {
			return &fields[i], true
		}
	}
	return nil, false
}
