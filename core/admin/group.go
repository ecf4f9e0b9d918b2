package admin

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// Options fill what the pastes do not say.
type Options struct {
	Group    string // the group to diagnose when the pastes hold several
	Topic    string // the main topic's name when no paste names it
	Queues   string // "broker-a:8,broker-b:8": the main topic's read queues per broker
	Strategy string // allocation strategy when no running info names it (default AVG)
	SDK      string // language of members whose language no paste gives ("JAVA", "GO")
	LogZone  string // the zone of log stamps that carry none ("+08:00", the default)
}

// Member is one entry of the group's consumer list: one connection as the broker answers it
// (spec §5.1), so a client id may appear more than once.
type Member struct {
	ClientID string `json:"clientId"`
	Addr     string `json:"addr,omitempty"`
	Language string `json:"language,omitempty"`
	Version  string `json:"version,omitempty"`
	Ref      Ref    `json:"ref"`
}

// Topic is one topic the group consumes, with its queues as the client builds them (readable
// perm, read queue count; spec §1.3) and where they were read.
type Topic struct {
	Name string `json:"name"`
	// NameCut is the width at which the output the name was read from cuts names, when the
	// name is exactly that long (see Group.NameCut).
	NameCut int                  `json:"nameCut,omitempty"`
	Queues  []route.MessageQueue `json:"-"`
	Counts  []QueueCount         `json:"counts,omitempty"`
	Source  string               `json:"source"`
	Ref     Ref                  `json:"ref"`
	Main    bool                 `json:"main,omitempty"`
	Retry   bool                 `json:"retry,omitempty"`
}

// Owner is one observed holder of a queue.
type Owner struct {
	Client string `json:"client"`         // a client id, an IP (consumerProgress -s) or "" unnamed
	IPOnly bool   `json:"ipOnly"`         // only the part before '@' is known
	Ref    Ref    `json:"ref"`            // the line that says so
	Source string `json:"source"`         // which output
	Note   string `json:"note,omitempty"` // e.g. "running info without client id"
}

// Missing is something the diagnosis needs and no paste gave, with the command that gives it
// ("" when no command does) and, when the command prints more, the line of its output to read.
// Said is What as a sentence a reader words in its own terms.
type Missing struct {
	What    string `json:"what"`
	Command string `json:"command"`
	Read    string `json:"read,omitempty"`
	Said    Said   `json:"-"`
}

// Group is the consumer group as far as the pastes tell it.
type Group struct {
	Name    string `json:"name,omitempty"`
	NameRef *Ref   `json:"nameRef,omitempty"`
	// NameCut is the width (32 or 64) at which the only outputs that name the group cut names,
	// when the name read is exactly that long: the real name may be longer, and no command
	// is spelt with it.
	NameCut int `json:"nameCut,omitempty"`
	// Members is one entry per connection; Complete says the list came from an output that
	// lists every connection (consumerConnection, the Dashboard, a Go client's cidAll).
	Members          []Member                       `json:"members"`
	MembersSource    string                         `json:"membersSource,omitempty"`
	Complete         bool                           `json:"complete"`
	MessageModel     string                         `json:"messageModel,omitempty"`
	ConsumeType      string                         `json:"consumeType,omitempty"`
	ConsumeFromWhere string                         `json:"consumeFromWhere,omitempty"`
	Subscriptions    []Subscription                 `json:"subscriptions,omitempty"`
	ClientSubs       map[string][]Subscription      `json:"clientSubscriptions,omitempty"`
	Strategy         string                         `json:"strategy"`
	StrategySource   string                         `json:"strategySource"`
	Topics           []Topic                        `json:"topics"`
	Brokers          []BrokerAddr                   `json:"brokers,omitempty"`
	Observed         map[route.MessageQueue][]Owner `json:"-"`
	Offsets          map[route.MessageQueue]Offset  `json:"-"`
	Missing          []Missing                      `json:"missing"`
	LeftOut          []string                       `json:"leftOut,omitempty"`
	Assumed          []string                       `json:"assumed,omitempty"`
	// LeftOutSaid and AssumedSaid are LeftOut and Assumed as sentences, entry by entry.
	LeftOutSaid []Said `json:"-"`
	AssumedSaid []Said `json:"-"`
	// GRPCTopics are the topics whose retry topic has the 5.x "%RETRY%group_topic" form.
	GRPCTopics []string `json:"grpcTopics,omitempty"`
	// history is the members' logs read into a history, when there are some: the group's
	// scenario is then the logged group (history_scenario.go).
	history *History
}

// MainTopic returns the main topic, or nil.
func (g *Group) MainTopic() *Topic {
	for i := range g.Topics {
		if g.Topics[i].Main {
			return &g.Topics[i]
		}
	}
	return nil
}

// strategyClasses maps allocateMessageQueueStrategy class names to strategy names.
var strategyClasses = []struct{ class, name string }{
	{"AllocateMessageQueueAveragelyByCircle", "AVG_BY_CIRCLE"},
	{"AllocateMessageQueueAveragely", "AVG"},
	{"AllocateMessageQueueConsistentHash", "CONSISTENT_HASH"},
	{"AllocateMessageQueueByConfig", "CONFIG"},
	{"AllocateMessageQueueByMachineRoom", "MACHINE_ROOM"},
	{"AllocateMachineRoomNearby", "MACHINE_ROOM_NEARBY"},
}

func sameGroup(a, b string) bool {
	if a == b {
		return true
	}
	// consumerProgress cuts group names at 32 or 64 characters (formats §3).
	for _, n := range []int{32, 64} {
		if len(a) == n && strings.HasPrefix(b, a) || len(b) == n && strings.HasPrefix(a, b) {
			return true
		}
	}
	return false
}

// Reconstruct rebuilds the group from what was read, filling gaps from opts.
func Reconstruct(rd *Read, opts Options) (*Group, error) {
	g := &Group{Observed: map[route.MessageQueue][]Owner{}, Offsets: map[route.MessageQueue]Offset{}, Missing: []Missing{}, Members: []Member{}, Topics: []Topic{}}
	g.pickName(rd, opts)
	in := func(group string) bool { return group == "" || g.Name == "" || sameGroup(group, g.Name) }
	left := map[string]bool{}
	out := func(group string) {
		if group != "" && !left[group] {
			left[group] = true
			g.leaveOut("left.group", group, FieldGroup)
		}
	}

	// Members: the outputs that list every connection first.
	for _, c := range rd.Connections {
		if !in(c.Group) {
			out(c.Group)
			continue
		}
		g.Members = append(g.Members, Member{ClientID: c.ClientID, Addr: c.Addr, Language: c.Language, Version: c.Version, Ref: c.Ref})
	}
	if len(g.Members) > 0 {
		g.MembersSource, g.Complete = "consumerConnection", true
	}
	if len(g.Members) == 0 {
		for _, l := range rd.GoLogs {
			if in(l.Group) && len(l.CidAll) > 0 {
				for _, id := range l.CidAll {
					g.Members = append(g.Members, Member{ClientID: id, Ref: l.Ref})
				}
				g.MembersSource, g.Complete = "a Go client's cidAll", true
				break
			}
		}
	}
	if len(g.Members) == 0 {
		seen := map[string]bool{}
		for _, s := range rd.StatusClients {
			if !in(s.Group) {
				out(s.Group)
				continue
			}
			if !seen[s.ClientID] {
				seen[s.ClientID] = true
				g.Members = append(g.Members, Member{ClientID: s.ClientID, Version: s.Version, Ref: s.Ref})
			}
		}
		if len(g.Members) > 0 {
			g.MembersSource = "consumerStatus"
			g.miss(g.cmd("consumerConnection -g %s"), "missing.connections")
		}
	}
	if len(g.Members) == 0 {
		for _, ri := range rd.RunningInfos {
			if ri.ClientID != "" && in(ri.Group) {
				g.Members = append(g.Members, Member{ClientID: ri.ClientID, Version: ri.Properties["PROP_CLIENT_VERSION"], Ref: ri.Ref})
			}
		}
		if len(g.Members) > 0 {
			g.MembersSource = "running info"
		}
	}
	if len(g.Members) == 0 {
		g.miss(g.cmd("consumerConnection -g %s"), "missing.members")
	}
	if sdk := strings.ToUpper(strings.TrimSpace(opts.SDK)); sdk != "" {
		for i := range g.Members {
			if g.Members[i].Language == "" {
				g.Members[i].Language = sdk
			}
		}
	}

	// Group-level settings (the last heartbeat wins, formats §2).
	for _, s := range rd.Settings {
		if !in(s.Group) {
			continue
		}
		switch s.Name {
		case "MessageModel":
			g.MessageModel = s.Value
		case "ConsumeType":
			g.ConsumeType = s.Value
		case "ConsumeFromWhere":
			g.ConsumeFromWhere = s.Value
		}
	}
	for _, s := range rd.Summaries {
		if in(s.Group) && g.MessageModel == "" && s.Model != "" {
			g.MessageModel = s.Model
		}
	}

	// Subscriptions: the group's table, then each client's.
	for _, s := range rd.GroupSubs {
		if in(s.Group) {
			g.Subscriptions = append(g.Subscriptions, s)
		}
	}
	g.ClientSubs = map[string][]Subscription{}
	strategyRef := ""
	for k, ri := range rd.RunningInfos {
		if !in(ri.Group) {
			out(ri.Group)
			continue
		}
		key := ri.ClientID
		if key == "" {
			key = fmt.Sprintf("running info #%d (%s)", k+1, ri.Ref)
		}
		if len(ri.Subs) > 0 {
			g.ClientSubs[key] = ri.Subs
		}
		if v := ri.Properties["messageModel"]; v != "" && g.MessageModel == "" {
			g.MessageModel = v
		}
		if v := ri.Properties["consumeFromWhere"]; v != "" && g.ConsumeFromWhere == "" {
			g.ConsumeFromWhere = v
		}
		if v := ri.Properties["allocateMessageQueueStrategy"]; v != "" && g.Strategy == "" {
			for _, sc := range strategyClasses {
				if strings.Contains(v, sc.class) {
					g.Strategy = sc.name
					strategyRef = ri.PropRefs["allocateMessageQueueStrategy"].String()
					break
				}
			}
			if g.Strategy == "" {
				g.leaveOut("left.custom-strategy", v)
				g.Strategy = "CUSTOM"
				strategyRef = ri.PropRefs["allocateMessageQueueStrategy"].String()
			}
		}
		for _, h := range ri.Held {
			o := Owner{Client: ri.ClientID, Ref: h.Ref, Source: "running info (mqTable)"}
			if ri.ClientID == "" {
				o.Note = "running info without client id"
			}
			g.Observed[h.Queue] = append(g.Observed[h.Queue], o)
		}
	}
	if len(g.ClientSubs) == 0 {
		g.ClientSubs = nil
	}
	switch {
	case g.Strategy != "":
		g.StrategySource = "read at " + strategyRef
		if opts.Strategy != "" && !strings.EqualFold(opts.Strategy, g.Strategy) {
			g.assume("assumed.strategy", FieldName(FieldStrategy), opts.Strategy, strategyRef, g.Strategy)
		}
	case opts.Strategy != "":
		g.Strategy, g.StrategySource = strings.ToUpper(opts.Strategy), "--strategy"
	default:
		g.Strategy, g.StrategySource = "AVG", "default: no running info names it"
		g.miss(g.cmd("consumerStatus -g %s -i <clientId>"), "missing.strategy")
		g.Missing[len(g.Missing)-1].Read = "allocateMessageQueueStrategy"
	}
	if g.Strategy == "CONSISTENT_HASH" {
		g.assume("assumed.virtual-nodes")
	}
	if g.MessageModel == "" {
		g.MessageModel = "CLUSTERING"
		g.assume("assumed.clustering")
	}

	// Offsets and observed owners from consumerProgress and the Dashboard.
	for _, o := range rd.Offsets {
		if !in(o.Group) {
			out(o.Group)
			continue
		}
		g.Offsets[o.Queue] = o
		if o.HasClient && o.Client != "" {
			g.Observed[o.Queue] = append(g.Observed[o.Queue], Owner{Client: o.Client, IPOnly: !o.FullClient, Ref: o.Ref, Source: sourceOf(o)})
		}
	}
	if len(g.Offsets) == 0 && len(g.Members) > 0 {
		g.miss(g.cmd("consumerProgress -g %s -s true"), "missing.offsets")
	}
	g.Brokers = rd.Brokers
	if err := g.buildTopics(rd, opts); err != nil {
		return nil, err
	}
	g.dashboardQueues(rd)
	return g, nil
}

func sourceOf(o Offset) string {
	if o.FullClient {
		return "Dashboard (clientInfo)"
	}
	return "consumerProgress (#Client IP)"
}

// cmd spells an mqadmin command for this group; a name that may be cut is not spelt as if it
// were whole.
func (g *Group) cmd(format string) string {
	name := g.Name
	switch {
	case name == "":
		name = "<group>"
	case g.NameCut > 0:
		name = "<full group name>"
	}
	return "mqadmin " + fmt.Sprintf(format, name)
}

// miss records what no paste gives and the command that prints it.
func (g *Group) miss(command, key string, args ...any) {
	s := say(key, args...)
	g.Missing = append(g.Missing, Missing{What: s.String(), Command: command, Said: s})
}

func (g *Group) assume(key string, args ...any) {
	s := say(key, args...)
	g.Assumed, g.AssumedSaid = append(g.Assumed, s.String()), append(g.AssumedSaid, s)
}

func (g *Group) leaveOut(key string, args ...any) {
	s := say(key, args...)
	g.LeftOut, g.LeftOutSaid = append(g.LeftOut, s.String()), append(g.LeftOutSaid, s)
}

func (g *Group) pickName(rd *Read, opts Options) {
	if opts.Group != "" {
		g.Name = opts.Group
		return
	}
	count := map[string]int{}
	refs := map[string]Ref{}
	// whole: some output that does not cut names gave it; cutBy: the width of the output that
	// may have cut it.
	whole := map[string]bool{}
	cutBy := map[string]int{}
	add := func(name string, ref Ref, width int) {
		if name == "" {
			return
		}
		if width == 0 || len(name) != width {
			whole[name] = true
		} else {
			cutBy[name] = width
		}
		for k := range count {
			if sameGroup(k, name) {
				if len(name) > len(k) { // prefer the uncut name
					count[name] = count[k]
					refs[name] = refs[k]
					delete(count, k)
					k = name
				}
				count[k]++
				return
			}
		}
		count[name]++
		refs[name] = ref
	}
	for _, c := range rd.Commands {
		add(c.Args["g"], c.Ref, 0)
	}
	for _, c := range rd.Connections {
		add(c.Group, c.Ref, 0)
	}
	for _, ri := range rd.RunningInfos {
		add(ri.Group, ri.Ref, 0)
	}
	for _, s := range rd.Summaries {
		// consumerProgress without -g cuts group names at its column (formats §3).
		w := 0
		if s.Truncated {
			w = len(s.Group)
		}
		add(s.Group, s.Ref, w)
	}
	for _, l := range rd.GoLogs {
		add(l.Group, l.Ref, 0)
	}
	for _, s := range rd.GroupSubs {
		if rest, ok := strings.CutPrefix(s.Topic, "%RETRY%"); ok {
			add(rest, s.Ref, 0)
		}
	}
	best := ""
	for k, n := range count {
		if best == "" || n > count[best] || n == count[best] && k < best {
			best = k
		}
	}
	if best != "" && !whole[best] {
		g.NameCut = cutBy[best]
	}
	if best == "" {
		// 5.x gRPC retry topics "%RETRY%group_topic", or a classic "%RETRY%group".
		topics := map[string]bool{}
		for _, o := range rd.Offsets {
			topics[o.Queue.Topic] = true
		}
		for _, o := range rd.Offsets {
			if rest, ok := strings.CutPrefix(o.Queue.Topic, "%RETRY%"); ok {
				for t := range topics {
					if grp, ok := strings.CutSuffix(rest, "_"+t); ok && !strings.HasPrefix(t, "%") {
						best = grp
					}
				}
				if best == "" {
					best = rest
					if o.Truncated && isCutWidth(len(o.Queue.Topic)) {
						g.NameCut = len(o.Queue.Topic) // the retry topic, and the group in it, was cut
					}
				}
				refs[best] = o.Ref
				break
			}
		}
	}
	if best != "" {
		g.Name = best
		r := refs[best]
		g.NameRef = &r
	}
	if g.NameCut > 0 {
		g.miss("", "missing.full-group", g.Name, g.NameCut, "consumerProgress", FieldGroup)
	}
}

// isCutWidth says whether n is a width at which consumerProgress cuts names (formats §3).
func isCutWidth(n int) bool { return n == 32 || n == 64 }

// buildTopics finds the topics the group consumes and their queues.
func (g *Group) buildTopics(rd *Read, opts Options) error {
	names := []string{}
	seen := map[string]bool{}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			names = append(names, t)
		}
	}
	for _, s := range g.Subscriptions {
		add(s.Topic)
	}
	for _, subs := range sortedClientSubs(g.ClientSubs) {
		for _, s := range subs {
			add(s.Topic)
		}
	}
	fromOffsets := len(names) == 0
	for _, o := range rd.Offsets {
		if _, ok := g.Offsets[o.Queue]; ok && fromOffsets {
			add(o.Queue.Topic)
		}
	}
	hasMain := func() bool {
		for _, n := range names {
			if !strings.HasPrefix(n, "%RETRY%") && !strings.HasPrefix(n, "%DLQ%") {
				return true
			}
		}
		return false
	}
	routeTopic := ""
	for _, q := range rd.QueueCounts {
		if q.Topic != "" {
			routeTopic = q.Topic
			break
		}
	}
	if !hasMain() && routeTopic != "" {
		add(routeTopic)
		g.assume("assumed.route-topic", routeTopic)
	}
	if opts.Topic != "" {
		add(opts.Topic)
	}
	if !hasMain() && opts.Queues != "" {
		add(unknownTopic)
		g.assume("assumed.unknown-topic", unknownTopic, FieldTopic)
	}
	// The retry topic of a clustering group is subscribed too (spec §3.14).
	if g.Name != "" && g.MessageModel == "CLUSTERING" && len(g.Members) > 0 && len(names) > 0 {
		add("%RETRY%" + g.Name)
	}
	// gRPC retry topics.
	for _, t := range names {
		if rest, ok := strings.CutPrefix(t, "%RETRY%"); ok && g.Name != "" && strings.HasPrefix(rest, g.Name+"_") {
			g.GRPCTopics = append(g.GRPCTopics, strings.TrimPrefix(rest, g.Name+"_"))
		}
	}

	// Plain topics first: a classic retry topic's assumed queues follow the brokers of the
	// others.
	sort.SliceStable(names, func(i, j int) bool {
		return !strings.HasPrefix(names[i], "%") && strings.HasPrefix(names[j], "%")
	})
	mainSet := false
	for _, name := range names {
		t := Topic{Name: name, Retry: strings.HasPrefix(name, "%RETRY%")}
		// 1. The route: readable queue data, read queue counts (spec §1.3).
		for _, q := range rd.QueueCounts {
			if q.Topic == name || (q.Topic == "" && !t.Retry && len(names) <= 2) {
				t.Counts = append(t.Counts, q)
				if q.Perm&int(route.PermRead) != 0 {
					for i := 0; i < q.Read && i < route.MaxQueues; i++ {
						t.Queues = append(t.Queues, route.MessageQueue{Topic: name, BrokerName: q.Broker, QueueID: int32(i)})
					}
				}
				if t.Source == "" {
					t.Source, t.Ref = "topicRoute", q.Ref
				}
			}
		}
		// 2. consumerProgress rows: one per read queue.
		if t.Source == "" {
			for _, o := range rd.Offsets {
				if o.Queue.Topic == name {
					if _, ok := g.Offsets[o.Queue]; ok {
						t.Queues = append(t.Queues, o.Queue)
						if t.Source == "" {
							t.Source, t.Ref = "offset rows (one per read queue)", o.Ref
						}
					}
				}
			}
		}
		// 3. topicStatus rows: one per write queue up to 5.2 (formats §6).
		if t.Source == "" {
			for _, q := range rd.TopicQueues {
				if q.Queue.Topic == name || (q.Queue.Topic == "" && !t.Retry) {
					qq := q.Queue
					qq.Topic = name
					t.Queues = append(t.Queues, qq)
					if t.Source == "" {
						t.Source, t.Ref = "topicStatus rows (write queues; read queues assumed equal)", q.Ref
					}
				}
			}
		}
		// 4. --queues for the main topic.
		if t.Source == "" && !t.Retry && opts.Queues != "" && !mainSet {
			qs, err := route.ParseQueueCounts(queueTopicName(name), opts.Queues)
			if err != nil {
				return sayErr("field.bad", FieldName(FieldQueues), err.Error())
			}
			for i := range qs {
				qs[i].Topic = name
			}
			t.Queues, t.Source, t.Ref = qs, "--queues", Ref{Input: "--queues " + opts.Queues, Field: FieldQueues}
		}
		// 5. A classic retry topic: one queue per broker (the default retryQueueNums).
		if t.Source == "" && t.Retry && !strings.HasPrefix(strings.TrimPrefix(name, "%RETRY%"), g.Name+"_") {
			brokers := g.brokerNames(rd, opts)
			for _, b := range brokers {
				t.Queues = append(t.Queues, route.MessageQueue{Topic: name, BrokerName: b, QueueID: 0})
			}
			if len(brokers) > 0 {
				t.Source = "assumed: one queue per broker (retryQueueNums defaults to 1)"
				t.Ref = Ref{Input: "assumed"}
			}
		}
		route.SortQueues(t.Queues)
		t.Queues = slices.Compact(t.Queues)
		if isCutWidth(len(name)) && !t.Retry {
			// A name only consumerProgress rows give, as long as its column: it may be cut.
			whole := false
			for _, sub := range g.Subscriptions {
				whole = whole || sub.Topic == name
			}
			for _, subs := range g.ClientSubs {
				for _, sub := range subs {
					whole = whole || sub.Topic == name
				}
			}
			for _, q := range rd.QueueCounts {
				whole = whole || q.Topic == name
			}
			whole = whole || opts.Topic == name
			for _, o := range rd.Offsets {
				if o.Queue.Topic == name && o.Truncated && !whole {
					t.NameCut = len(name)
					g.miss("", "missing.full-topic", name, len(name), "consumerProgress")
					break
				}
			}
		}
		if t.Source == "" {
			g.miss("mqadmin topicRoute -t "+name, "missing.queues", name)
		}
		if !t.Retry && !mainSet && len(t.Queues) > 0 {
			t.Main, mainSet = true, true
		}
		g.Topics = append(g.Topics, t)
	}
	if !mainSet {
		for i := range g.Topics {
			if !g.Topics[i].Retry {
				g.Topics[i].Main = true
				break
			}
		}
	}
	return nil
}

// unknownTopic stands for a topic whose name no paste gives.
const unknownTopic = "UNKNOWN_TOPIC"

func queueTopicName(name string) string {
	if route.CheckName("topic", name) != nil {
		return "T"
	}
	return name
}

func (g *Group) brokerNames(rd *Read, opts Options) []string {
	set := map[string]bool{}
	for _, b := range rd.Brokers {
		if b.ID == 0 {
			set[b.Broker] = true
		}
	}
	for _, q := range rd.QueueCounts {
		set[q.Broker] = true
	}
	for _, t := range g.Topics {
		for _, q := range t.Queues {
			set[q.BrokerName] = true
		}
	}
	if len(set) == 0 && opts.Queues != "" {
		if qs, err := route.ParseQueueCounts("T", opts.Queues); err == nil {
			for _, q := range qs {
				set[q.BrokerName] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for b := range set {
		out = append(out, b)
	}
	sort.Strings(out)
	return out
}

func sortedClientSubs(m map[string][]Subscription) [][]Subscription {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([][]Subscription, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}
