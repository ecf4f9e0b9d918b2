package admin

import (
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// History is the group's rebalance history rebuilt from the members' logs (logs §6): each
// member's rounds, and per queue the intervals in which each member held it, with the lines
// that prove it. Times are ms since the epoch (UTC); a stamp without a zone is read in Zone.
// It is the form a replay takes: per queue, who held it from when to when.
type History struct {
	Zone       string         `json:"zone"`       // "+08:00"
	ZoneGiven  bool           `json:"zoneGiven"`  // false: assumed, RocketMQ's default pattern is GMT+8
	Members    []LogMember    `json:"members"`    // one per client id (or file, when no line names one)
	Rounds     []HistoryRound `json:"rounds"`     // every member's rounds, in time order
	Queues     []QueueHistory `json:"queues"`     // per queue, who held it when
	Membership []MemberChange `json:"membership"` // joins and leaves, read or inferred
	Routes     []RouteChange  `json:"routes"`     // a topic\'s queues changed, as a member saw it
	From       int64          `json:"from"`       // the first and last wall time of the logs
	To         int64          `json:"to"`
	zone       int            // seconds
	events     []LogEvent     // with At and member set
	byMember   map[string]*LogMember
	index      map[string]int // into Members
	// absent holds, per member, the spans in which it was gone (membership), in time order.
	absent map[string][]absence
	// leftMembers are the members beyond MaxLogMembers, whose lines are left out.
	leftMembers map[string]bool
	byRef       map[Ref]int      // rounds by their line
	routes      map[string][]int // events with a topic's queues, by topic
	sources     map[string][]int // events with a member list, by member
}

// MaxLogMembers bounds the members of one history: a group rarely has more.
const MaxLogMembers = 512

// LogMember is one member whose log was read: its client id as the lines give it (or the
// file's name, as a last resort: IDSource says which).
type LogMember struct {
	ID       string   `json:"id"`
	IDSource string   `json:"idSource"` // "client id in the lines", "file name and process id", "file name"
	Inputs   []string `json:"inputs"`
	Client   string   `json:"client"` // java, go, grpc-java, grpc-go
	Version  string   `json:"version,omitempty"`
	Group    string   `json:"group,omitempty"`
	First    int64    `json:"first"` // its first and last line's time
	Last     int64    `json:"last"`
	Relative bool     `json:"relative,omitempty"` // its stamps have no date or count from its start: not on the common timeline
	Rounds   int      `json:"rounds"`
}

// HistoryRound is one rebalance of one member for one topic, as its lines show it.
type HistoryRound struct {
	Member      string               `json:"member"`
	At          int64                `json:"at"`
	Stamp       string               `json:"stamp"`
	Ref         Ref                  `json:"ref"`
	Group       string               `json:"group,omitempty"`
	Topic       string               `json:"topic"`
	Strategy    string               `json:"strategy,omitempty"`
	MQAllSize   int                  `json:"mqAllSize"`  // -1 when the lines do not say
	CidAllSize  int                  `json:"cidAllSize"` // -1 when the lines do not say
	Result      []route.MessageQueue `json:"result"`     // the full result set, when HasResult
	HasResult   bool                 `json:"hasResult"`
	Added       []route.MessageQueue `json:"added"`
	Removed     []route.MessageQueue `json:"removed"`
	Dropped     []route.MessageQueue `json:"dropped,omitempty"`     // re-created process queues (not an ownership change)
	LockFailed  []route.MessageQueue `json:"lockFailed,omitempty"`  // not taken: the broker's lock is held by another
	AddFailed   []route.MessageQueue `json:"addFailed,omitempty"`   // not taken: its start offset could not be read
	Rewound     []Rewind             `json:"rewound,omitempty"`     // queues taken at an offset below the member\'s own last commit
	Failed      string               `json:"failed,omitempty"`      // no allocation this round: the line
	Cause       string               `json:"cause,omitempty"`       // "notification" when the broker's notification came just before
	NotInCidAll []string             `json:"notInCidAll,omitempty"` // the member list of a "[BUG] … not in cidAll" line
	Refs        []Ref                `json:"refs"`                  // every line of the round
	// Expected is what the strategy gives the member from the lists known at that moment
	// (ExpectedFrom says which), Agrees whether the result set is it; nil when not computed.
	Expected     []route.MessageQueue `json:"expected,omitempty"`
	ExpectedFrom string               `json:"expectedFrom,omitempty"`
	Agrees       *bool                `json:"agrees,omitempty"`
	implicit     bool
	strategy     string // the strategy Expected was computed with
	prec         int64  // 999 when its stamps have whole seconds only
}

// Rewind is a queue a member took at an offset below what it had committed for it itself: the
// messages between are consumed again (a reset, or an offset the broker did not keep).
type Rewind struct {
	Queue     route.MessageQueue `json:"queue"`
	Committed int64              `json:"committed"`
	Resumed   int64              `json:"resumed"`
	Ref       Ref                `json:"ref"` // the commit's line
}

// QueueHistory is one queue and the intervals in which members held it.
type QueueHistory struct {
	Queue route.MessageQueue `json:"queue"`
	Group string             `json:"group,omitempty"`
	Held  []Interval         `json:"held"`
}

// Interval is one member holding one queue from From to To. FromKnown is false when the
// first line proving it is a snapshot (held since before); ToKnown false when no line ends
// it (the log stops: To is the last line that shows it held, or the member's leave that
// ToBy names; ToRef is then that line, or the last line that shows it held).
type Interval struct {
	Member    string `json:"member"`
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	FromKnown bool   `json:"fromKnown"`
	ToKnown   bool   `json:"toKnown"`
	FromRef   Ref    `json:"fromRef"`
	ToRef     Ref    `json:"toRef"`
	ToBy      string `json:"toBy,omitempty"` // what ends an unknown end: "broker line", "inferred"
	last      int64  // the last line that shows it held
	lastRef   Ref
	fromPrec  int64 // how much later than From it may have started: 999 for whole-second stamps
	q         route.MessageQueue
}

// MemberChange is a member joining or leaving: a broker's line (B1–B5), the member's own
// start or shutdown, or inferred from the others' lines (Source says which).
type MemberChange struct {
	At     int64  `json:"at"`
	Member string `json:"member"`
	Kind   string `json:"kind"` // join, leave, start, stop, expire, empty
	Source string `json:"source"`
	Ref    Ref    `json:"ref"`
	Group  string `json:"group,omitempty"`
}

// RouteChange is a member's line that a topic's route changed, with the readable queues of the
// new route (mqAll).
type RouteChange struct {
	At     int64                `json:"at"`
	Member string               `json:"member"`
	Topic  string               `json:"topic"`
	Queues []route.MessageQueue `json:"queues"`
	Ref    Ref                  `json:"ref"`
}

// absence is a span in which a member was gone: from its leave (by "broker line", "shutdown"
// or "inferred", at the line ref) until it came back (to; 0 while it never did).
type absence struct {
	from, to int64
	by       string
	ref      Ref
}

// goneAt says whether member was gone at t.
func (h *History) goneAt(member string, t int64) bool {
	for _, a := range h.absent[member] {
		if a.from <= t && (a.to == 0 || t < a.to) {
			return true
		}
	}
	return false
}

// leftBefore says whether member was gone at t by a leave (a broker line, or inferred) from
// before t: what its lines show it holding then, its leave already ended.
func (h *History) leftBefore(member string, t int64) bool {
	for _, a := range h.absent[member] {
		if a.by != "shutdown" && a.from < t && (a.to == 0 || t < a.to) {
			return true
		}
	}
	return false
}

// leftSince says whether member left at or after t.
func (h *History) leftSince(member string, t int64) bool {
	for _, a := range h.absent[member] {
		if a.from >= t {
			return true
		}
	}
	return false
}

// gone is whether member is gone at the end of the logs, and since when.
func (h *History) gone(member string) (absence, bool) {
	as := h.absent[member]
	if len(as) == 0 || as[len(as)-1].to != 0 {
		return absence{}, false
	}
	return as[len(as)-1], true
}

// Tolerances of the history, from the clients' timings (spec §3, logs §1.1, §6).
const (
	// roundSpan: the lines of one round (R4, R5, P2, R1 of one thread) share a stamp; a
	// notification precedes its round by milliseconds. One second also covers the whole-second
	// stamps of Java 4.0–4.7 and Go.
	roundSpan = 1000
	// sameMoment: the broker notifies every member at once and each rebalances within
	// milliseconds, so rounds of two members that answer one change lie within the coarsest
	// stamp precision (whole seconds) of each other.
	sameMoment = 1000
	// quietRounds: a member's rebalance service runs every 20 s, so at most 3 rounds a minute
	// can change a member's queues without a membership or route change; more come from
	// notifications storming or 5.2+'s 1 s retries while unbalanced.
	quietRounds = 3
	flapChanges = 4 // taken, given up, taken, given up: back and forth twice
)

// DefaultLogZone is the zone assumed for stamps without one: RocketMQ's default patterns
// print GMT+8 (logs §1.1).
const DefaultLogZone = 8 * 3600

func zoneText(off int) string {
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	return sign + two(off/3600) + ":" + two(off%3600/60)
}

func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// Stamp writes t in the history's zone, as the logs print it: "2026-12-04 10:00:05.105".
func (h *History) Stamp(t int64) string {
	t += int64(h.zone) * 1000
	day, ms := t/86400000, t%86400000
	if ms < 0 {
		day, ms = day-1, ms+86400000
	}
	y, m, d := civilFromDays(day)
	b := make([]byte, 0, 23)
	b = strconv.AppendInt(b, int64(y), 10)
	for _, v := range []struct {
		sep  byte
		n, w int64
	}{{'-', int64(m), 2}, {'-', int64(d), 2}, {' ', ms / 3600000, 2}, {':', ms / 60000 % 60, 2}, {':', ms / 1000 % 60, 2}, {'.', ms % 1000, 3}} {
		b = append(b, v.sep)
		if v.w == 3 && v.n < 100 {
			b = append(b, '0')
		}
		if v.n < 10 {
			b = append(b, '0')
		}
		b = strconv.AppendInt(b, v.n, 10)
	}
	return string(b)
}

// BuildHistory rebuilds the history from the log lines read, or returns nil when there are
// none.
func BuildHistory(rd *Read, opts Options) (*History, error) {
	zone, given := DefaultLogZone, false
	if opts.LogZone != "" {
		z, err := ParseZone(opts.LogZone)
		if err != nil {
			return nil, err
		}
		zone, given = z, true
	}
	if len(rd.Logs) == 0 {
		return nil, nil
	}
	h := &History{zone: zone, Zone: zoneText(zone), ZoneGiven: given, Members: []LogMember{}, Rounds: []HistoryRound{},
		Queues: []QueueHistory{}, Membership: []MemberChange{}, Routes: []RouteChange{}, byMember: map[string]*LogMember{}, absent: map[string][]absence{}, leftMembers: map[string]bool{}}
	h.assign(rd)
	h.rounds()
	h.membership()
	h.intervals()
	h.expect()
	return h, nil
}

// at is an event's time: ms since the epoch for a wall stamp (its own zone, or the history's).
func (h *History) at(e *LogEvent) int64 {
	off := h.zone
	if e.Zone != nil {
		off = *e.Zone
	}
	if e.NoDate || e.SinceStart {
		return e.Local
	}
	return e.Local - int64(off)*1000
}

// assign gives each client line its member: the client id it names, else the one the input's
// lines name before it (or after, for lines before the first), else the input's name.
func (h *History) assign(rd *Read) {
	goByRef := map[Ref]GoNotInCidAll{}
	for _, g := range rd.GoLogs {
		goByRef[g.Ref] = g
	}
	byInput := map[string][]int{}
	var inputs []string
	for i := range rd.Logs {
		in := rd.Logs[i].Ref.Input
		if _, ok := byInput[in]; !ok {
			inputs = append(inputs, in)
		}
		byInput[in] = append(byInput[in], i)
	}
	logs := slices.Clone(rd.Logs)
	for i := range logs {
		if g, ok := goByRef[logs[i].Ref]; ok && logs[i].Kind == evNotIn && g.ConsumerID != "" {
			// The Go client's warning as selfRow read it: its own id and the list it was given.
			logs[i].ID, logs[i].CidList, logs[i].Group = g.ConsumerID, g.CidAll, g.Group
		}
	}
	for _, in := range inputs {
		idx := byInput[in]
		first := ""
		for _, i := range idx {
			if e := logs[i]; e.Client != "broker" && e.ID != "" {
				first = e.ID
				break
			}
		}
		cur, source := first, "client id in the lines"
		if first == "" {
			cur, source = in, "file name"
			for _, i := range idx {
				if pid := logs[i].pid; pid != "" {
					cur, source = in+" (process "+pid+")", "file name and process id"
					break
				}
			}
		}
		for _, i := range idx {
			e := logs[i]
			if e.until > 0 {
				u := e
				u.Local = e.until
				e.until = h.at(&u)
			}
			e.Local = h.at(&e)
			if e.Client == "broker" {
				h.events = append(h.events, e)
				continue
			}
			if e.ID != "" && source != "file name" {
				cur = e.ID
			}
			m := h.byMember[cur]
			if m == nil && len(h.byMember) >= MaxLogMembers {
				h.leftMembers[cur] = true
				continue
			}
			if m == nil {
				m = &LogMember{ID: cur, IDSource: source, Client: e.Client, First: e.Local, Last: e.Local}
				h.byMember[cur] = m
				h.Members = append(h.Members, LogMember{})
			}
			if !slices.Contains(m.Inputs, in) {
				m.Inputs = append(m.Inputs, in)
			}
			m.First, m.Last = min(m.First, e.Local), max(m.Last, e.Local, e.until)
			m.Relative = m.Relative || e.NoDate || e.SinceStart
			if e.Version != "" {
				m.Version = e.Version
			}
			if m.Group == "" {
				m.Group = e.Group
			}
			e.ID = cur
			h.events = append(h.events, e)
		}
	}
	h.Members = h.Members[:0]
	h.index = map[string]int{}
	for ei := range h.events {
		e := &h.events[ei]
		if m := h.byMember[e.ID]; m != nil && e.Client != "broker" {
			if _, ok := h.index[m.ID]; !ok {
				h.index[m.ID] = len(h.Members)
				h.Members = append(h.Members, *m)
			}
		}
	}
	sort.SliceStable(h.events, func(i, j int) bool { return h.events[i].Local < h.events[j].Local })
	first := true
	for ei := range h.events {
		e := &h.events[ei]
		if e.NoDate || e.SinceStart {
			continue
		}
		if first || e.Local < h.From {
			h.From = e.Local
		}
		if first || e.Local > h.To {
			h.To = e.Local
		}
		first = false
	}
}

func (h *History) member(id string) *LogMember {
	if i, ok := h.index[id]; ok {
		return &h.Members[i]
	}
	return nil
}

// rounds groups each member's lines into rounds: a result line and the deltas of the same
// topic within roundSpan of it.
func (h *History) rounds() {
	type key struct{ member, topic string }
	open := map[key]int{}      // index into h.Rounds
	lastOf := map[string]int{} // a member's latest round
	type mq struct {
		member string
		q      route.MessageQueue
	}
	committed := map[mq]*LogEvent{} // the member's last commit of the queue
	notified := map[string]int64{}
	for ei := range h.events {
		e := &h.events[ei]
		if e.Client == "broker" {
			continue
		}
		switch e.Kind {
		case evNotify:
			notified[e.ID] = e.Local
			continue
		case evHeld, evCommit:
			if e.HasOffset && len(e.Queues) == 1 {
				committed[mq{e.ID, e.Queues[0]}] = e
			}
			continue
		case evRound, evSource, evFailed, evAdd, evRemove, evFix, evDropped, evLock, evAddFailed, evNotIn:
		case evRoute:
			h.Routes = append(h.Routes, RouteChange{At: e.Local, Member: e.ID, Topic: e.Topic, Queues: sorted(e.Queues), Ref: e.Ref})
			continue
		default:
			continue
		}
		topic := e.Topic
		if topic == "" && len(e.Queues) > 0 {
			topic = e.Queues[0].Topic
		}
		k := key{e.ID, topic}
		i, ok := open[k]
		if e.Kind == evNotIn {
			// The member list it was given: the round of any topic it opens next.
			if j, had := lastOf[e.ID]; had && e.Local-h.Rounds[j].At <= roundSpan {
				h.Rounds[j].NotInCidAll = e.CidList
				h.Rounds[j].Refs = append(h.Rounds[j].Refs, e.Ref)
				ok = true
			}
			if !ok {
				h.Rounds = append(h.Rounds, HistoryRound{Member: e.ID, At: e.Local, Stamp: e.Stamp, Ref: e.Ref, Group: e.Group,
					MQAllSize: -1, CidAllSize: -1, NotInCidAll: e.CidList, Refs: []Ref{e.Ref}, implicit: true})
			}
			continue
		}
		if ok {
			r := &h.Rounds[i]
			if e.Local-r.At > roundSpan || e.Kind == evRound && !r.implicit {
				ok = false
			}
		}
		if !ok {
			h.Rounds = append(h.Rounds, HistoryRound{Member: e.ID, At: e.Local, Stamp: e.Stamp, Ref: e.Ref, Group: e.Group, Topic: topic,
				MQAllSize: -1, CidAllSize: -1, Result: []route.MessageQueue{}, Added: []route.MessageQueue{}, Removed: []route.MessageQueue{}, implicit: true})
			i = len(h.Rounds) - 1
			open[k] = i
			if t, ok := notified[e.ID]; ok && e.Local-t <= roundSpan && e.Local >= t {
				h.Rounds[i].Cause = "notification"
			}
		}
		r := &h.Rounds[i]
		r.Refs = append(r.Refs, e.Ref)
		r.prec = max(r.prec, precOf(e))
		lastOf[e.ID] = i
		if r.Group == "" {
			r.Group = e.Group
		}
		switch e.Kind {
		case evRound:
			r.implicit = false
			r.At, r.Stamp, r.Ref = e.Local, e.Stamp, e.Ref
			r.Strategy = cmpOr(e.Strategy, r.Strategy)
			if e.MQAll >= 0 || e.CidAll >= 0 {
				r.MQAllSize, r.CidAllSize = e.MQAll, e.CidAll
			}
			if e.HasSet {
				r.Result, r.HasResult = sorted(e.Result), true
			}
		case evSource:
			r.Refs = append(r.Refs, e.Ref)
			if r.MQAllSize < 0 {
				r.MQAllSize, r.CidAllSize = e.MQAll, e.CidAll
			}
			if r.Strategy == "" {
				r.Strategy = e.Strategy
			}
		case evFailed:
			r.Failed = e.Text
		case evAddFailed:
			r.AddFailed = addNew(r.AddFailed, e.Queues)
		case evAdd:
			r.Added = addNew(r.Added, e.Queues)
			if c := committed[mq{e.ID, firstQueue(e)}]; e.HasOffset && c != nil && c.Offset > e.Offset {
				r.Rewound = append(r.Rewound, Rewind{Queue: c.Queues[0], Committed: c.Offset, Resumed: e.Offset, Ref: c.Ref})
			}
		case evRemove:
			r.Removed = addNew(r.Removed, e.Queues)
		case evFix, evDropped:
			r.Dropped = addNew(r.Dropped, e.Queues)
		case evLock:
			r.LockFailed = addNew(r.LockFailed, e.Queues)
		}
	}
	sort.SliceStable(h.Rounds, func(i, j int) bool { return h.Rounds[i].At < h.Rounds[j].At })
	for i := range h.Rounds {
		if m := h.member(h.Rounds[i].Member); m != nil {
			m.Rounds++
		}
		r := &h.Rounds[i]
		r.Added, r.Removed, r.Dropped, r.LockFailed, r.AddFailed = sorted(r.Added), sorted(r.Removed), sorted(r.Dropped), sorted(r.LockFailed), sorted(r.AddFailed)
	}
	h.byRef = map[Ref]int{}
	for i := range h.Rounds {
		h.byRef[h.Rounds[i].Ref] = i
	}
}

func sorted(qs []route.MessageQueue) []route.MessageQueue {
	out := append([]route.MessageQueue{}, qs...)
	route.SortQueues(out)
	return slices.Compact(out)
}

func addNew(to, qs []route.MessageQueue) []route.MessageQueue { return append(to, qs...) }

// membership lists the broker's lines, the members' starts and shutdowns, and the leaves that
// the others' lines imply: a member whose log stops without a shutdown left when another
// member of its group next saw fewer consumers (at that member's notification, if it had one).
func (h *History) membership() {
	addr := map[string]string{} // a member by its address, from the broker's join and leave lines
	open := map[string]bool{}   // gone and not back yet
	// active is a member's latest line about the queues of a group so far: a process may start a
	// consumer of another group after its first one's rounds, which is no restart.
	type mg struct{ member, group string }
	active := map[mg]int64{}
	leave := func(id string, at int64, by string, ref Ref) {
		if !open[id] {
			open[id] = true
			h.absent[id] = append(h.absent[id], absence{from: at, by: by, ref: ref})
		}
	}
	back := func(id string, at int64) {
		if open[id] {
			open[id] = false
			a := &h.absent[id][len(h.absent[id])-1]
			a.to = max(at, a.from+1)
		}
	}
	for ei := range h.events {
		e := &h.events[ei]
		if e.Client == "broker" {
			switch e.Kind {
			case evJoin, evLeave, evExpire, evEmpty:
				id := e.ID
				if id != "" && e.Addr != "" {
					addr[e.Addr] = id
				}
				if e.Kind == evExpire && id == "" {
					// B4 names the channel's address only: the member whose join or leave gave it.
					id = addr[e.Addr]
				}
				h.Membership = append(h.Membership, MemberChange{At: e.Local, Member: id, Kind: e.Kind, Source: "broker log", Ref: e.Ref, Group: e.Group})
				if h.byMember[id] == nil {
					continue
				}
				switch e.Kind {
				case evJoin:
					back(id, e.Local)
				case evLeave, evExpire:
					leave(id, e.Local, "broker line", e.Ref)
				}
			}
			continue
		}
		if h.byMember[e.ID] == nil {
			continue
		}
		switch e.Kind {
		case evStart:
			if t, ok := active[mg{e.ID, e.Group}]; ok && !open[e.ID] {
				// It starts again with no line saying it went (killed and restarted under the
				// same id): gone when another member next counted fewer consumers, else since
				// its last line about its queues.
				at, ref, source := t, e.Ref, "inferred: it started again with no line saying it went"
				if seen, ok := h.sawFewer(*h.byMember[e.ID], t, e.Local); ok {
					at, ref, source = seen.at, seen.ref, seen.by
				}
				h.Membership = append(h.Membership, MemberChange{At: at, Member: e.ID, Kind: "leave", Source: source, Ref: ref, Group: e.Group})
				leave(e.ID, at, "inferred", ref)
			}
			h.Membership = append(h.Membership, MemberChange{At: e.Local, Member: e.ID, Kind: e.Kind, Source: "its own log", Ref: e.Ref, Group: e.Group})
			back(e.ID, e.Local)
			for k := range active {
				if k.member == e.ID {
					delete(active, k)
				}
			}
		case evStop:
			h.Membership = append(h.Membership, MemberChange{At: e.Local, Member: e.ID, Kind: e.Kind, Source: "its own log", Ref: e.Ref, Group: e.Group})
			leave(e.ID, e.Local, "shutdown", e.Ref)
		case evRound, evSource, evAdd, evRemove, evHeld, evCommit, evFix, evDropped:
			active[mg{e.ID, e.Group}] = e.Local
		}
	}
	for _, m := range h.Members {
		if open[m.ID] || m.Relative {
			continue
		}
		if seen, ok := h.sawFewer(m, m.Last, math.MaxInt64); ok {
			leave(m.ID, seen.at, "inferred", seen.ref)
			h.Membership = append(h.Membership, MemberChange{At: seen.at, Member: m.ID, Kind: "leave", Source: seen.by, Ref: seen.ref, Group: seen.group})
		}
	}
	sort.SliceStable(h.Membership, func(i, j int) bool { return h.Membership[i].At < h.Membership[j].At })
}

// sawFewer finds when another member of m's group first counted fewer consumers after m's line
// at after and before before: the moment of its notification before that round, if it had one
// (not before after); by says who saw what.
func (h *History) sawFewer(m LogMember, after, before int64) (seen struct {
	at    int64
	ref   Ref
	by    string
	group string
}, ok bool) {
	prev := map[string]int{} // another member's last cidAllSize, by member
	for ri := range h.Rounds {
		r := &h.Rounds[ri]
		if r.Member == m.ID || r.CidAllSize < 0 || (m.Group != "" && r.Group != "" && r.Group != m.Group) {
			continue
		}
		p, had := prev[r.Member]
		prev[r.Member] = r.CidAllSize
		if r.At <= after || !had || r.CidAllSize >= p {
			continue
		}
		if r.At >= before {
			break
		}
		at := r.At
		if r.Cause == "notification" {
			for ei := range h.events {
				e := &h.events[ei]
				if e.Kind == evNotify && e.ID == r.Member && e.Local <= r.At && r.At-e.Local <= roundSpan {
					at = e.Local
					break
				}
			}
		}
		seen.at, seen.ref, seen.group = max(at, after), r.Ref, r.Group
		seen.by = "inferred: " + r.Member + " saw cidAllSize " + strconv.Itoa(p) + " → " + strconv.Itoa(r.CidAllSize)
		return seen, true
	}
	return seen, false
}

// intervals rebuilds who held each queue from the lines that prove ownership: a round's result
// set, its added and removed queues, a held snapshot ([persistAll], Go's offset updates), a
// shutdown.
func (h *History) intervals() {
	type mk struct {
		member string
		q      route.MessageQueue
	}
	type mt struct{ member, topic string }
	openIv := map[mk]*Interval{}
	openBy := map[mt]map[route.MessageQueue]bool{} // the open intervals of a member and topic
	group := map[route.MessageQueue]string{}
	var done []Interval
	var order []mk
	known := map[string]bool{} // the member's state before is known (it started, or a full set was seen)
	start := func(m string, q route.MessageQueue, t int64, ref Ref, fromKnown bool, g string, prec int64) {
		k := mk{m, q}
		if iv := openIv[k]; iv != nil {
			if t >= iv.last {
				iv.last, iv.lastRef = t, ref
			}
			return
		}
		openIv[k] = &Interval{Member: m, From: t, FromKnown: fromKnown, FromRef: ref, last: t, fromPrec: prec, q: q, lastRef: ref}
		if openBy[mt{m, q.Topic}] == nil {
			openBy[mt{m, q.Topic}] = map[route.MessageQueue]bool{}
		}
		openBy[mt{m, q.Topic}][q] = true
		order = append(order, k)
		if group[q] == "" {
			group[q] = g
		}
	}
	stop := func(m string, q route.MessageQueue, t int64, ref Ref) {
		k := mk{m, q}
		if iv := openIv[k]; iv != nil {
			iv.To, iv.ToKnown, iv.ToRef = t, true, ref
			done = append(done, *iv)
			delete(openIv, k)
			delete(openBy[mt{m, q.Topic}], q)
		}
	}
	rounds := map[Ref]*HistoryRound{}
	for ref, i := range h.byRef {
		rounds[ref] = &h.Rounds[i]
	}
	// A member's leave (a broker line, or inferred) ends what it held then; its shutdown line
	// does so itself. In time order, members by id at one moment.
	type leaving struct {
		member string
		absence
	}
	var leaves []leaving
	for _, m := range h.Members {
		for _, a := range h.absent[m.ID] {
			if a.by != "shutdown" {
				leaves = append(leaves, leaving{m.ID, a})
			}
		}
	}
	sort.SliceStable(leaves, func(i, j int) bool {
		if leaves[i].from != leaves[j].from {
			return leaves[i].from < leaves[j].from
		}
		return leaves[i].member < leaves[j].member
	})
	left := func(upTo int64) {
		for len(leaves) > 0 && leaves[0].from <= upTo {
			l := leaves[0]
			leaves = leaves[1:]
			var qs []route.MessageQueue
			for k, set := range openBy {
				if k.member == l.member {
					for q := range set {
						qs = append(qs, q)
					}
				}
			}
			route.SortQueues(qs)
			for _, q := range qs {
				k := mk{l.member, q}
				iv := openIv[k]
				iv.To, iv.ToBy, iv.ToRef = l.from, l.by, l.ref
				done = append(done, *iv)
				delete(openIv, k)
				delete(openBy[mt{l.member, q.Topic}], q)
			}
		}
	}
	for ei := range h.events {
		e := &h.events[ei]
		left(e.Local)
		if e.Client == "broker" {
			continue
		}
		if m := h.member(e.ID); m == nil || m.Relative {
			continue
		}
		switch e.Kind {
		case evStart:
			known[e.ID] = true
		case evHeld:
			if h.leftBefore(e.ID, e.Local) {
				continue // a snapshot of what its leave already ended
			}
			for _, q := range e.Queues {
				start(e.ID, q, e.Local, e.Ref, false, e.Group, precOf(e))
				if iv := openIv[mk{e.ID, q}]; iv != nil && e.until > iv.last {
					iv.last, iv.lastRef = e.until, e.untilRef
				}
			}
		case evStop:
			var qs []route.MessageQueue
			for k, set := range openBy {
				if k.member == e.ID {
					for q := range set {
						qs = append(qs, q)
					}
				}
			}
			for _, q := range qs {
				stop(e.ID, q, e.Local, e.Ref)
			}
		}
		r := rounds[e.Ref]
		if r == nil || r.Member != e.ID {
			continue
		}
		// A round: apply it once, at its result line (or its first line).
		failed, added := set(r.LockFailed), set(r.Added)
		if r.HasResult {
			in := map[route.MessageQueue]bool{}
			for _, q := range r.Result {
				if !failed[q] {
					in[q] = true
				}
			}
			var gone []route.MessageQueue
			for q := range openBy[mt{r.Member, r.Topic}] {
				if !in[q] {
					gone = append(gone, q)
				}
			}
			for _, q := range gone {
				stop(r.Member, q, r.At, r.Ref)
			}
			for _, q := range r.Result {
				if in[q] {
					start(r.Member, q, r.At, r.Ref, known[r.Member] || added[q], r.Group, r.prec)
				}
			}
			known[r.Member] = true
		} else {
			for _, q := range r.Removed {
				stop(r.Member, q, r.At, r.Ref)
			}
			for _, q := range r.Added {
				if !failed[q] {
					start(r.Member, q, r.At, r.Ref, true, r.Group, r.prec)
				}
			}
		}
	}
	left(math.MaxInt64)
	for _, k := range order {
		iv := openIv[k]
		if iv == nil {
			continue
		}
		delete(openIv, k)
		iv.To, iv.ToRef = iv.last, iv.lastRef
		if m := h.member(k.member); m != nil {
			iv.To = max(iv.To, m.Last)
		}
		done = append(done, *iv)
	}
	byQueue := map[route.MessageQueue][]Interval{}
	var queues []route.MessageQueue
	for _, iv := range done {
		if _, ok := byQueue[iv.q]; !ok {
			queues = append(queues, iv.q)
		}
		byQueue[iv.q] = append(byQueue[iv.q], iv)
	}
	route.SortQueues(queues)
	for _, q := range queues {
		ivs := byQueue[q]
		sort.SliceStable(ivs, func(i, j int) bool {
			if ivs[i].From != ivs[j].From {
				return ivs[i].From < ivs[j].From
			}
			return ivs[i].Member < ivs[j].Member
		})
		h.Queues = append(h.Queues, QueueHistory{Queue: q, Group: group[q], Held: ivs})
	}
}

// expect holds each round with a result set against the strategy, where the lists it was
// computed from are known at that moment: mqAll from a route line (or the 3.x source line, or
// every queue of the topic the lines name when they are as many as mqAllSize), cidAll from a
// line that lists it, or the members whose logs cover the moment when they are as many as
// cidAllSize.
func (h *History) expect() {
	seen := map[string][]route.MessageQueue{}
	had := map[route.MessageQueue]bool{}
	h.routes, h.sources = map[string][]int{}, map[string][]int{}
	for i, e := range h.events {
		for _, l := range [][]route.MessageQueue{e.Result, e.Queues} {
			for _, q := range l {
				if !had[q] {
					had[q] = true
					seen[q.Topic] = append(seen[q.Topic], q)
				}
			}
		}
		if (e.Kind == evRoute || e.Kind == evSource) && len(e.Queues) > 0 {
			h.routes[e.Topic] = append(h.routes[e.Topic], i)
		}
		if e.Kind == evSource && len(e.CidList) > 0 {
			h.sources[e.ID] = append(h.sources[e.ID], i)
		}
	}
	strategyOf := map[string]string{}
	for ri := range h.Rounds {
		r := &h.Rounds[ri]
		if r.Strategy != "" && strategyOf[r.Group] == "" {
			strategyOf[r.Group] = r.Strategy
		}
	}
	for i := range h.Rounds {
		r := &h.Rounds[i]
		m := h.member(r.Member)
		if !r.HasResult || m == nil || r.Topic == "" {
			continue
		}
		mqAll, mqFrom := h.mqAllAt(r, seen[r.Topic])
		cidAll, cidFrom := h.cidAllAt(r)
		if mqAll == nil || cidAll == nil {
			continue
		}
		strategy := r.Strategy
		if strategy == "" {
			strategy = strategyOf[r.Group]
		}
		assumed := ""
		if strategy == "" {
			strategy, assumed = "AVG", " (AVG assumed: the lines name none)"
		}
		s, err := allocate.New(strategy, allocate.Params{})
		if err != nil {
			continue
		}
		route.SortQueues(mqAll)
		route.SortClientIDs(cidAll)
		got, err := s.Allocate(r.Group, r.Member, mqAll, cidAll)
		if err != nil {
			continue
		}
		r.Expected, r.strategy = sorted(got), strategy
		r.ExpectedFrom = strategy + assumed + "; mqAll " + mqFrom + "; cidAll " + cidFrom
		ok := slices.Equal(r.Expected, r.Result)
		r.Agrees = &ok
	}
}

func (h *History) mqAllAt(r *HistoryRound, seen []route.MessageQueue) ([]route.MessageQueue, string) {
	var best []route.MessageQueue
	from := ""
	// The latest route line of the topic up to the round (events are in time order).
	idx := h.routes[r.Topic]
	if n := sort.Search(len(idx), func(i int) bool { return h.events[idx[i]].Local > r.At+roundSpan }); n > 0 {
		e := h.events[idx[n-1]]
		best, from = slices.Clone(e.Queues), "from the route line at "+e.Ref.String()
	}
	if best != nil && (r.MQAllSize < 0 || len(best) == r.MQAllSize) {
		return best, from
	}
	if r.MQAllSize > 0 && len(seen) == r.MQAllSize {
		return slices.Clone(seen), "the " + strconv.Itoa(len(seen)) + " queues the lines name (as many as mqAllSize)"
	}
	return nil, ""
}

func (h *History) cidAllAt(r *HistoryRound) ([]string, string) {
	if len(r.NotInCidAll) > 0 {
		return slices.Clone(r.NotInCidAll), "as the [BUG] line lists it"
	}
	idx := h.sources[r.Member]
	if n := sort.Search(len(idx), func(i int) bool { return h.events[idx[i]].Local >= r.At-roundSpan }); n < len(idx) {
		if e := h.events[idx[n]]; abs(e.Local-r.At) <= roundSpan {
			return slices.Clone(e.CidList), "as the source line lists it"
		}
	}
	if r.CidAllSize == 1 {
		return []string{r.Member}, "the member alone (cidAllSize 1)"
	}
	if r.CidAllSize < 0 || h.relative(r.Member) {
		return nil, ""
	}
	var ids []string
	for _, m := range h.Members {
		if m.Relative || m.Group != "" && r.Group != "" && m.Group != r.Group {
			continue
		}
		switch {
		case m.First > r.At+roundSpan:
			continue // not yet in its log
		case h.goneAt(m.ID, r.At):
			continue // left (and not back)
		case m.Last < r.At-roundSpan && !h.leftSince(m.ID, m.Last):
			return nil, "" // its log stops before: whether it is still there is not known
		}
		ids = append(ids, m.ID)
	}
	if len(ids) != r.CidAllSize {
		return nil, ""
	}
	return ids, "the " + strconv.Itoa(len(ids)) + " members whose logs cover the moment (as many as cidAllSize)"
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// history rebuilds the rebalance history from the log lines read and adds its findings.
func (rep *Report) history(opts Options) error {
	h, err := BuildHistory(rep.Read, opts)
	if h == nil || err != nil {
		return err
	}
	rep.History = h
	rep.Group.history = h
	if rep.Group.Name == "" {
		// The group no admin output named: the one the members' logs name, if one.
		groups := map[string]bool{}
		for _, m := range h.Members {
			if m.Group != "" {
				groups[m.Group] = true
			}
		}
		for name := range groups {
			if len(groups) == 1 {
				rep.Group.Name = name
			}
		}
	}
	if !h.ZoneGiven {
		rep.Group.assume("assumed.log-zone", h.Zone, FieldLogZone)
	}
	if n := len(h.leftMembers); n > 0 {
		rep.Group.leaveOut("left.log-members", n, MaxLogMembers)
	}
	rep.Findings = append(rep.Findings, h.findings()...)
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// precOf is how much later than its stamp a line may have been written.
func precOf(e *LogEvent) int64 {
	if e.Secs {
		return 999
	}
	return 0
}

func set(qs []route.MessageQueue) map[route.MessageQueue]bool {
	out := make(map[route.MessageQueue]bool, len(qs))
	for _, q := range qs {
		out[q] = true
	}
	return out
}

func firstQueue(e *LogEvent) route.MessageQueue {
	if len(e.Queues) == 0 {
		return route.MessageQueue{}
	}
	return e.Queues[0]
}
