package cluster

import (
	"strconv"

	"github.com/lbscope/lbscope/core/allocate"
)

// Growth is what one command adds to the size of the cluster a scenario's timeline reaches, as
// a command's Grows hook tells it. Two readers count it, each by its own rule: scenario
// validation holds what every step leaves against the limits (a broker's queue count now, the
// members' ids), and the work estimate takes the most each reaches (a broker's most queues,
// every member added, the highest send rates, the strategies used).
type Growth struct {
	// SetsQueues: the command gives Broker Queues queues. AddsBroker: it adds the broker when
	// there is none of that name yet; otherwise the engine refuses an unknown broker when the
	// step runs, so it adds nothing. DefaultQueues: Queues is the command's default, not a
	// count the step gives (the work estimate counts given counts only).
	SetsQueues, AddsBroker, DefaultQueues bool
	Broker                                string
	Queues                                int
	// AddsMember: the command adds Member to the group (again, when it is listed already).
	AddsMember bool
	Member     string
	// AddsMembers: an autoscaler the command arms may start up to this many members.
	AddsMembers int
	// TopicQueues: the command creates a topic with this many queues on every broker;
	// AddsRate: and a producer sending it this many messages/s.
	TopicQueues, AddsRate int
	// SetsRate: the command sets the send rate of producer RateOf ("": of every producer) to
	// Rate messages/s.
	SetsRate bool
	RateOf   string
	Rate     int
	// SetsStrategy: the group allocates with Strategy and Params from the command on; Steps:
	// a user's strategy from its source, with this step budget per call.
	SetsStrategy bool
	Strategy     string
	Params       allocate.Params
	Steps        int
	// SelectorSteps: the keyed sends of producer SelectorOf ("": of every producer) call a
	// selector of the user's with this step budget per call from the command on.
	SelectorSteps int
	SelectorOf    string
}

// GrowthOf is what cmd adds to the cluster's size: its Grows hook's answer, nothing for a
// command without one or of no known type.
func GrowthOf(cmd Command) Growth {
	if s, ok := Lookup(cmd.Type); ok && s.Grows != nil {
		return s.Grows(cmd)
	}
	return Growth{}
}

// The settings of the initial state that a comparison's variants differ in, as the fields
// of a variant name them; Override.Setting is one of these.
const (
	SettingStrategy     = "strategy"     // the allocation strategy, with its params
	SettingFaultTable   = "faultTable"   // the producers' latency fault table
	SettingLatencyFault = "latencyFault" // the producers' latency fault tolerance, "on" or "off"
	SettingClient       = "client"       // the SDK a consumer process runs: the command's Client
)

// Override is a setting of the initial state that a command sets anew when a timeline runs
// it, as a command's Overrides hook tells it: from that step on, variants of a comparison that
// differ in the setting no longer do, and the comparison says so in a note. A client variant
// instead gives the command its own client (Command.Client), so that every process it starts
// runs the variant's.
type Override struct {
	Setting string // SettingStrategy, SettingFaultTable, SettingLatencyFault or SettingClient
	Value   string // what the command sets it to
	// Code names the comparison's note for the page's words (compare.note.<Code>) and Text is
	// its English, {value} standing for Value and {t} for the step's time, as in the page's
	// words; no Code: no note (a command that starts a process with the default client).
	Code, Text string
}

// OverrideOf is the setting cmd sets anew when a timeline runs it (false: none), from its
// Overrides hook.
func OverrideOf(cmd Command) (Override, bool) {
	if s, ok := Lookup(cmd.Type); ok && s.Overrides != nil {
		return s.Overrides(cmd)
	}
	return Override{}, false
}

// Fill sets the arguments of cmd that a driver applying it at once may leave out, from c as
// it is now, through cmd's Fill hook (nothing for a command without one).
func Fill(c *Cluster, cmd *Command) {
	if s, ok := Lookup(cmd.Type); ok && s.Fill != nil {
		s.Fill(c, cmd)
	}
}

// NextConsumerID is the first c<N> (N = 1, 2, …) no consumer uses. One of c1…c<len(cs)+1> is
// free, so only those are marked: a set of every id was a fortieth of a frame's allocations.
func NextConsumerID(cs []ConsumerView) string {
	used := make([]bool, len(cs)+2)
	for _, c := range cs {
		if n, ok := consumerNumber(c.ID); ok && n < len(used) {
			used[n] = true
		}
	}
	n := 1
	for used[n] {
		n++
	}
	return "c" + strconv.Itoa(n)
}

// consumerNumber is N when id is "c" + strconv.Itoa(N) for some N ≥ 1.
func consumerNumber(id string) (int, bool) {
	if len(id) < 2 || id[0] != 'c' || id[1] == '0' || len(id) > 10 {
		return 0, false // more than 9 digits: past any count of consumers
	}
	n := 0
	for _, d := range []byte(id[1:]) {
		if d < '0' || d > '9' {
			return 0, false
		}
		n = n*10 + int(d-'0')
	}
	return n, true
}
