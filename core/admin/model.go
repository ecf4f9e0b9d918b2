package admin

import (
	"strconv"

	"github.com/lbscope/lbscope/core/route"
)

// Ref is a place in the input: the input's name and a 1-based line.
type Ref struct {
	Input string `json:"input"`
	Line  int    `json:"line"`
	// Field is the option the value came from, when it came from none of the pastes.
	Field Field `json:"field,omitempty"`
}

func (r Ref) String() string {
	if r.Line == 0 {
		return r.Input
	}
	if r.Input == "" {
		return "line " + strconv.Itoa(r.Line)
	}
	return r.Input + ":" + strconv.Itoa(r.Line)
}

// Note is something the reader skipped or could use only in part, with where it was.
type Note struct {
	Ref  Ref    `json:"ref"`
	Text string `json:"text"`
	Said Said   `json:"-"` // Text as a sentence
}

// Section is one recognised output: what it is, the layout (version range) it was read as,
// and its lines. Cut says that the paste ends inside it.
type Section struct {
	Kind   string `json:"kind"`
	Layout string `json:"layout,omitempty"`
	Input  string `json:"input"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Cut    bool   `json:"cut,omitempty"`
}

// Section kinds.
const (
	KindCommand          = "command line"
	KindConnection       = "consumerConnection"
	KindProgress         = "consumerProgress"
	KindProgressGroups   = "consumerProgress (all groups)"
	KindStatusGroup      = "consumerStatus (group)"
	KindRunningInfo      = "consumerStatus -i (running info)"
	KindTopicStatus      = "topicStatus"
	KindClusterList      = "clusterList"
	KindRouteJSON        = "topicRoute"
	KindRouteList        = "topicRoute -l"
	KindWireRunningInfo  = "running info (wire JSON)"
	KindWireConsumeStats = "consume stats (wire JSON)"
	KindWireClusterInfo  = "cluster info (wire JSON)"
	KindDashConnection   = "Dashboard consumerConnection"
	KindDashProgress     = "Dashboard queryTopicByConsumer"
	KindDashRunningInfo  = "Dashboard consumerRunningInfo"
	KindDashRoute        = "Dashboard topic route"
	KindGoLog            = "Go client log"
	KindClientLog        = "client log"
	KindConsoleCell      = "console client id"
)

// Command is an mqadmin invocation found in a prompt line.
type Command struct {
	Ref  Ref               `json:"ref"`
	Name string            `json:"name"`
	Args map[string]string `json:"args,omitempty"` // flag letter → value: g, t, i, s, b, n
}

// Connection is one row of consumerConnection: one TCP connection of the group on the broker
// asked (formats §2). Duplicate client ids are separate rows.
type Connection struct {
	Ref      Ref    `json:"ref"`
	Group    string `json:"group,omitempty"`
	ClientID string `json:"clientId"`
	Addr     string `json:"addr,omitempty"`
	Language string `json:"language,omitempty"`
	Version  string `json:"version,omitempty"`
}

// Subscription is one topic and expression, of the group (consumerConnection) or of one
// client (running info).
type Subscription struct {
	Ref   Ref    `json:"ref"`
	Group string `json:"group,omitempty"`
	Topic string `json:"topic"`
	Expr  string `json:"expr"`
}

// Setting is a group-level value (ConsumeType, MessageModel, ConsumeFromWhere) with its line.
type Setting struct {
	Ref   Ref    `json:"ref"`
	Group string `json:"group,omitempty"`
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Offset is one queue row of consumerProgress, consume stats or the Dashboard.
type Offset struct {
	Ref            Ref                `json:"ref"`
	Group          string             `json:"group,omitempty"`
	Queue          route.MessageQueue `json:"queue"`
	BrokerOffset   int64              `json:"brokerOffset"`
	ConsumerOffset int64              `json:"consumerOffset"`
	Inflight       *int64             `json:"inflight,omitempty"`
	// Client is the #Client IP column (the part of the id before '@', formats §3) or the
	// Dashboard's full clientInfo; "" when the output has no such column or no owner.
	Client     string `json:"client,omitempty"`
	FullClient bool   `json:"fullClient,omitempty"` // Client is a whole client id (Dashboard)
	HasClient  bool   `json:"hasClient,omitempty"`  // the output has an owner column at all
	LastTime   string `json:"lastTime,omitempty"`
	// Truncated: the topic or broker name is exactly as long as the column cuts (32 or 64).
	Truncated bool `json:"truncated,omitempty"`
	// Dashboard: the owner column is the Dashboard's consumerClient, which is empty also for
	// queues whose owner could not be asked (tables §5), so an empty cell alone proves nothing.
	Dashboard bool `json:"dashboard,omitempty"`
}

// GroupSummary is one row of consumerProgress without -g.
type GroupSummary struct {
	Ref       Ref    `json:"ref"`
	Group     string `json:"group"`
	Count     int    `json:"count"`
	Version   string `json:"version,omitempty"`
	Type      string `json:"type,omitempty"`
	Model     string `json:"model,omitempty"`
	DiffTotal int64  `json:"diffTotal"`
	Truncated bool   `json:"truncated,omitempty"`
	// Dashboard: a row of the Dashboard's consumer list, whose Quantity counts connections
	// (tables §3); HasDelay: its Delay cell held a count (-1 when consumeStats failed does not).
	Dashboard bool `json:"-"`
	HasDelay  bool `json:"-"`
}

// StatusClient is one row of consumerStatus in group mode (formats §4).
type StatusClient struct {
	Ref      Ref    `json:"ref"`
	Group    string `json:"group,omitempty"`
	ClientID string `json:"clientId"`
	Version  string `json:"version,omitempty"`
}

// StatusLine is one of consumerStatus's verdict or analysis lines.
type StatusLine struct {
	Ref      Ref                 `json:"ref"`
	Group    string              `json:"group,omitempty"`
	Kind     string              `json:"kind"` // same-subscription, different-subscription, rebalance-ok, rebalance-failed, blocked, lock, unlock
	ClientID string              `json:"clientId,omitempty"`
	Queue    *route.MessageQueue `json:"queue,omitempty"`
	Text     string              `json:"text"`
}

// RunningInfo is one client's ConsumerRunningInfo: text (-i), wire JSON or Dashboard JSON.
type RunningInfo struct {
	Ref      Ref    `json:"ref"`
	Group    string `json:"group,omitempty"`
	ClientID string `json:"clientId,omitempty"` // from the -i of the command line; "" when unknown
	Kind     string `json:"kind"`
	// Properties as printed, with the line of each.
	Properties map[string]string `json:"properties,omitempty"`
	PropRefs   map[string]Ref    `json:"-"`
	Subs       []Subscription    `json:"subscriptions,omitempty"`
	// Held are the queues of mqTable (#Consumer MQ Detail#): what the client holds now.
	Held    []HeldQueue `json:"held,omitempty"`
	HasHeld bool        `json:"hasHeld"` // the mqTable (or MQ detail section) was in the paste
	Cut     bool        `json:"cut,omitempty"`
}

// HeldQueue is one queue of a running info's mqTable.
type HeldQueue struct {
	Ref          Ref                `json:"ref"`
	Queue        route.MessageQueue `json:"queue"`
	CommitOffset *int64             `json:"commitOffset,omitempty"`
	CachedCount  *int64             `json:"cachedMsgCount,omitempty"`
	Dropped      bool               `json:"dropped,omitempty"`
}

// QueueCount is one broker's read and write queue counts of a topic (topicRoute).
type QueueCount struct {
	Ref    Ref    `json:"ref"`
	Topic  string `json:"topic,omitempty"`
	Broker string `json:"broker"`
	Read   int    `json:"read"`
	Write  int    `json:"write"`
	Perm   int    `json:"perm"`
}

// BrokerAddr is one broker address: from clusterList, a route's brokerDatas or cluster info.
type BrokerAddr struct {
	Ref     Ref    `json:"ref"`
	Cluster string `json:"cluster,omitempty"`
	Broker  string `json:"broker"`
	ID      int64  `json:"id"`
	Addr    string `json:"addr"`
	Version string `json:"version,omitempty"`
}

// TopicQueue is one row of topicStatus.
type TopicQueue struct {
	Ref         Ref                `json:"ref"`
	Queue       route.MessageQueue `json:"queue"` // Topic from the command line, "" when unknown
	MinOffset   int64              `json:"minOffset"`
	MaxOffset   int64              `json:"maxOffset"`
	LastUpdated string             `json:"lastUpdated,omitempty"`
}

// GoNotInCidAll is a Go client's "[BUG] ConsumerId not in cidAll" warning: the consumer list
// the broker answered, and the consumer that was not in it (spec §9.1.3).
type GoNotInCidAll struct {
	Ref        Ref      `json:"ref"`
	Group      string   `json:"group,omitempty"`
	ConsumerID string   `json:"consumerId"`
	CidAll     []string `json:"cidAll"`
}

// Read is everything recognised in the inputs, each item with its line.
type Read struct {
	Inputs        []InputInfo     `json:"inputs"`
	Sections      []Section       `json:"sections"`
	Notes         []Note          `json:"notes"`
	Commands      []Command       `json:"commands,omitempty"`
	Connections   []Connection    `json:"connections,omitempty"`
	GroupSubs     []Subscription  `json:"groupSubscriptions,omitempty"`
	Settings      []Setting       `json:"settings,omitempty"`
	Offsets       []Offset        `json:"offsets,omitempty"`
	Summaries     []GroupSummary  `json:"groupSummaries,omitempty"`
	StatusClients []StatusClient  `json:"statusClients,omitempty"`
	StatusLines   []StatusLine    `json:"statusLines,omitempty"`
	RunningInfos  []RunningInfo   `json:"runningInfos,omitempty"`
	QueueCounts   []QueueCount    `json:"queueCounts,omitempty"`
	Brokers       []BrokerAddr    `json:"brokers,omitempty"`
	TopicQueues   []TopicQueue    `json:"topicQueues,omitempty"`
	GoLogs        []GoNotInCidAll `json:"goLogs,omitempty"`
	ConsoleIDs    []Connection    `json:"consoleIds,omitempty"`
	// BrokerValues are the rows of a broker's STATUS or CONFIG table on the Dashboard.
	BrokerValues []Setting  `json:"brokerValues,omitempty"`
	Logs         []LogEvent `json:"logs,omitempty"` // client and broker log lines (logs.go)
}

// InputInfo is one input's size and what was recognised in it.
type InputInfo struct {
	Name       string `json:"name"`
	Bytes      int    `json:"bytes"`
	Lines      int    `json:"lines"`
	Recognised int    `json:"recognised"` // sections
	Error      string `json:"error,omitempty"`
	ErrorSaid  Said   `json:"-"` // Error as a sentence
}

// Recognised reports whether anything at all was read.
func (r *Read) Recognised() bool {
	for _, s := range r.Sections {
		if s.Kind != KindCommand {
			return true
		}
	}
	return false
}
