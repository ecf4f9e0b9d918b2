package profile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile/goclient"
	"github.com/lbscope/lbscope/core/route"
)

// Name is a profile's name as scenario files and the command line spell it.
type Name string

const (
	Java   Name = "java"     // the current Java client, the default
	Java49 Name = "java-4.9" // Java client 4.9.x (read at 4.9.8)
	Go212  Name = "go-2.1.2" // rocketmq-client-go v2.1.2
)

// Default is the profile of a consumer or producer that names none.
const Default = Java

// Profile is everything one SDK changes.
type Profile struct {
	Name Name
	// SDK says which client and version this is, for people.
	SDK string
	// VectorClients are the values of a conformance file's "client" field recorded from this
	// client ("" for the Java files of the current client, which have no such field).
	VectorClients []string
	// Mark is the short label drawn next to a consumer of this profile.
	Mark string
	// Timing is what the consumer's timers and triggers do.
	Timing Timing
	// Producer is what the producer's send path does.
	Producer Producer
}

// aliases are the other spellings Lookup accepts.
var aliases = map[string]Name{
	"java": Java, "java-5": Java, "current": Java,
	"java-4.9": Java49, "java49": Java49, "java-4.9.8": Java49, "4.9": Java49,
	"go": Go212, "go-2.1.2": Go212, "go212": Go212, "rocketmq-client-go": Go212,
}

// Names lists the profiles, the default first.
func Names() []Name { return []Name{Java, Java49, Go212} }

// Lookup returns the profile of a name or alias (case-insensitive; "go" is go-2.1.2, "" the
// default).
func Lookup(name string) (*Profile, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if key == "" {
		key = string(Default)
	}
	n, ok := aliases[key]
	if !ok {
		return nil, fmt.Errorf("unknown client profile %q (want %s; \"go\" is go-2.1.2)", name, joinNames())
	}
	p := profiles[n]
	return &p, nil
}

// ByVectorClient returns the profile whose vectors carry this "client" field.
func ByVectorClient(client string) (*Profile, bool) {
	for _, n := range Names() {
		p := profiles[n]
		if slices.Contains(p.VectorClients, client) {
			return &p, true
		}
	}
	return nil, false
}

func joinNames() string {
	var s []string
	for _, n := range Names() {
		s = append(s, string(n))
	}
	return strings.Join(s, ", ")
}

// IsGo reports whether the profile is a rocketmq-client-go one.
func (p *Profile) IsGo() bool { return p.Name == Go212 }

// Strategy builds the allocation strategy this client would run for a RocketMQ strategy
// name and parameters. For Go, a nil VirtualNodeCnt is 10 (the Go constructor has no
// default; 10 is what the Java default and LBScope's flags pass), MACHINE_ROOM_NEARBY has no
// inner strategy (v2.1.2's is plain AVG) and an inner other than AVG is an error.
func (p *Profile) Strategy(name string, params allocate.Params) (allocate.Strategy, error) {
	if !p.IsGo() {
		return allocate.New(name, params)
	}
	vn := allocate.DefaultVirtualNodeCnt
	if params.VirtualNodeCnt != nil {
		vn = *params.VirtualNodeCnt
	}
	upper := strings.ToUpper(strings.TrimSpace(name))
	if strings.HasPrefix(upper, "MACHINE_ROOM_NEARBY") {
		inner := strings.TrimPrefix(strings.TrimPrefix(upper, "MACHINE_ROOM_NEARBY"), "-")
		if inner == "" {
			inner = strings.ToUpper(params.Inner)
		}
		if inner != "" && inner != "AVG" {
			return nil, fmt.Errorf("rocketmq-client-go v2.1.2's MACHINE_ROOM_NEARBY has no inner strategy (it is plain AVG); %s cannot be set", inner)
		}
		upper = "MACHINE_ROOM_NEARBY"
	}
	return goclient.New(upper, goclient.Params{VirtualNodeCnt: vn, ConsumerIDCs: params.ConsumerIDCs, List: params.MessageQueueList})
}

// SortInputs sorts copies of the rebalance's inputs as this client does before calling the
// strategy: Java's RebalanceImpl in MessageQueue and Java String (UTF-16) order, Go's
// doBalance in UTF-8 byte order (spec §3.3, §9.1.4).
func (p *Profile) SortInputs(mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, []string) {
	if p.IsGo() {
		mq, ids := slices.Clone(mqAll), slices.Clone(cidAll)
		goclient.SortQueues(mq)
		goclient.SortClientIDs(ids)
		return mq, ids
	}
	// A list already in order is used as it is (a stable sort would leave it so; the inputs
	// are never written): a route's queue list and a broker's cached sorted ids usually are.
	mq, ids := mqAll, cidAll
	if !slices.IsSortedFunc(mq, route.Compare) {
		mq = slices.Clone(mqAll)
		route.SortQueues(mq)
	}
	if !slices.IsSortedFunc(ids, route.CompareJava) {
		ids = slices.Clone(cidAll)
		route.SortClientIDs(ids)
	}
	return mq, ids
}

// Group is the whole group's allocation under this client's strategy s on inputs used as
// given: allocate.Group for Java, goclient.GroupView for Go (a panic is an assignment's
// error, a guarded call a nil list).
func (p *Profile) Group(s allocate.Strategy, consumerGroup string, mqAll []route.MessageQueue, cidAll []string) allocate.View {
	if gs, ok := s.(goclient.Strategy); ok && p.IsGo() {
		return goclient.GroupView(gs, consumerGroup, mqAll, cidAll)
	}
	return allocate.Group(s, consumerGroup, mqAll, cidAll)
}

// ClientHost is what a client id is made of.
type ClientHost struct {
	IP           string
	InstanceName string // "" or "DEFAULT": not set
	UnitName     string
	PID          int
	NanoTime     int64 // the JVM's System.nanoTime() at start (Java 4.9.0+ and 5 only)
}

// ClientID is the id this client registers with (spec §1.2, §9.1.2): Java
// "<ip>@<pid>#<nanoTime>" with the default instance name (4.9.0 and later), Go
// "<ip>@<pid>"; an explicit instance name replaces that part, a unit name is appended. A
// restarted Java process has a new id; a restarted Go process with the same pid (PID 1 in a
// container) has the same one.
func (p *Profile) ClientID(h ClientHost) string {
	if p.IsGo() {
		return goclient.ClientID(h.IP, h.InstanceName, h.UnitName, h.PID)
	}
	inst := h.InstanceName
	if inst == "" || inst == goclient.DefaultInstanceName {
		inst = fmt.Sprintf("%d#%d", h.PID, h.NanoTime)
	}
	id := h.IP + "@" + inst
	if h.UnitName != "" {
		id += "@" + h.UnitName
	}
	return id
}

// RestartKeepsID reports whether a restarted process with the default instance name and the
// same pid registers with the same id.
func (p *Profile) RestartKeepsID() bool { return p.IsGo() }
