package admin

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
)

// Finding codes (stable: scripts match on them).
const (
	CodeDuplicateClientID  = "duplicate-client-id"
	CodeUnownedQueues      = "unowned-queues"
	CodeDoubleOwnedQueues  = "double-owned-queues"
	CodeIdleConsumers      = "idle-consumers"
	CodeReadWriteMismatch  = "read-write-mismatch"
	CodeUnwrittenQueues    = "unwritten-queues"
	CodeSubscriptionMismat = "subscription-mismatch"
	CodeMixedSDK           = "mixed-sdk"
	CodeLoopbackClientIP   = "loopback-client-ip"
	CodeLagOnOwnedQueue    = "lag-on-owned-queue"
	CodeGRPCConsumers      = "grpc-consumers"
	CodeAllocationOK       = "allocation-ok"
)

// Codes lists every finding code, in the order findings are made.
var Codes = []string{CodeDuplicateClientID, CodeLoopbackClientIP, CodeMixedSDK, CodeIdleConsumers, CodeUnownedQueues,
	CodeDoubleOwnedQueues, CodeReadWriteMismatch, CodeUnwrittenQueues, CodeSubscriptionMismat, CodeLagOnOwnedQueue,
	CodeGRPCConsumers, CodeAllocationOK}

// Evidence is one line behind a finding.
type Evidence struct {
	Ref  Ref    `json:"ref"`
	Text string `json:"text"`
	Said Said   `json:"-"` // Text as a sentence
}

func evidence(ref Ref, key string, args ...any) Evidence {
	s := say(key, args...)
	return Evidence{Ref: ref, Text: s.String(), Said: s}
}

// computes is the evidence of what a member's client computes: its queues, or none.
func computes(ref Ref, id, language, queues string) Evidence {
	if queues == "" {
		return evidence(ref, "evidence.computes-none", id, language)
	}
	return evidence(ref, "evidence.computes", id, language, queues)
}

// Finding is one diagnosis: what is wrong (or that the allocation is sound), the lines that
// show it, what the user sees and the fix.
type Finding struct {
	Code     string     `json:"code"`
	Severity string     `json:"severity"` // "problem", "warning" or "ok"
	Title    string     `json:"title"`
	Evidence []Evidence `json:"evidence"`
	Sees     string     `json:"sees"`
	Fix      string     `json:"fix"`
	// Words is the finding's variant in FindingWords and Args the values its title and fix
	// take, so that a reader can word them in another language; SeesSaid is Sees as the
	// sentences it is made of, in order.
	Words    string `json:"-"`
	Args     []any  `json:"-"`
	SeesSaid []Said `json:"-"`
}

// seeing gives f what the user sees: the sentences, run together.
func seeing(f Finding, parts ...Said) Finding {
	f.Sees, f.SeesSaid = "", parts
	for _, p := range parts {
		f.Sees += p.String()
	}
	return f
}

// Allocation is the expected allocation of one topic: every member's own call, sorted as
// RebalanceImpl sorts (spec §3.3 step 5), cidAll one entry per connection.
type Allocation struct {
	Topic  string               `json:"topic"`
	MQAll  []route.MessageQueue `json:"-"`
	CidAll []string             `json:"cidAll"`
	View   allocate.View        `json:"-"`
	// Orphans and Shared as allocate.View.Coverage gives them.
	Orphans  []route.MessageQueue `json:"-"`
	Shared   []route.MessageQueue `json:"-"`
	Note     string               `json:"note,omitempty"`
	NoteSaid Said                 `json:"-"` // Note as a sentence
	// Clients says how the members' own clients were applied, when they differ: each member
	// computed with its own profile (a Go member as rocketmq-client-go v2.1.2, spec §9.1).
	Clients string `json:"clients,omitempty"`
}

// QueueView is one queue: who should hold it and who is seen holding it.
type QueueView struct {
	Queue    route.MessageQueue `json:"queue"`
	Expected []string           `json:"expected"`
	Observed []Owner            `json:"observed,omitempty"`
	Agrees   *bool              `json:"agrees,omitempty"` // nil when nothing is observed
	Lag      *int64             `json:"lag,omitempty"`
}

// Report is the whole diagnosis.
type Report struct {
	Read        *Read        `json:"-"`
	Group       *Group       `json:"group"`
	Allocations []Allocation `json:"-"`
	Queues      []QueueView  `json:"queues"`
	Findings    []Finding    `json:"findings"`
	History     *History     `json:"history,omitempty"` // from client logs (history.go)
}

// Diagnose reads, rebuilds and diagnoses in one call.
func Diagnose(inputs []Input, opts Options) (*Report, error) {
	rd := ReadAll(inputs)
	g, err := Reconstruct(rd, opts)
	if err != nil {
		return nil, err
	}
	rep := &Report{Read: rd, Group: g, Queues: []QueueView{}, Findings: []Finding{}}
	rep.allocate()
	rep.compare()
	rep.findings()
	rep.dashboardCaveats()
	if err := rep.history(opts); err != nil {
		return nil, err
	}
	// Pastes and logs read together give one report: what is wrong first, whichever part of
	// the input shows it, then what is sound.
	sort.SliceStable(rep.Findings, func(i, j int) bool {
		return rep.Findings[i].Severity != "ok" && rep.Findings[j].Severity == "ok"
	})
	return rep, nil
}

func (rep *Report) allocate() {
	g := rep.Group
	if len(g.Members) == 0 || g.MessageModel == "BROADCASTING" {
		return
	}
	var s allocate.Strategy
	var err error
	var notComputed Said
	switch g.Strategy {
	case "CONFIG", "MACHINE_ROOM", "CUSTOM":
		notComputed = say("alloc.needs-config", g.Strategy)
	case "MACHINE_ROOM_NEARBY":
		notComputed = say("alloc.needs-resolver")
	default:
		if s, err = allocate.New(g.Strategy, allocate.Params{}); err != nil {
			notComputed = say("alloc.failed", err.Error())
		}
	}
	note := func(a *Allocation, n Said) {
		a.Note, a.NoteSaid = n.String(), n
		rep.Allocations = append(rep.Allocations, *a)
	}
	cidAll := make([]string, len(g.Members))
	for i, m := range g.Members {
		cidAll[i] = m.ClientID
	}
	route.SortClientIDs(cidAll) // spec §3.3 step 5: Collections.sort(cidAll)
	for _, t := range g.Topics {
		if len(t.Queues) == 0 {
			continue
		}
		a := Allocation{Topic: t.Name, MQAll: t.Queues, CidAll: cidAll}
		if t.Name == unknownTopic && notComputed.Key == "" && g.Strategy != "AVG" && g.Strategy != "AVG_BY_CIRCLE" {
			// AVG and AVG_BY_CIRCLE split positions; the others hash or read names.
			note(&a, say("alloc.needs-topic", g.Strategy, FieldTopic))
			continue
		}
		if notComputed.Key != "" {
			note(&a, notComputed)
			continue
		}
		mqAll := slices.Clone(t.Queues)
		route.SortQueues(mqAll) // Collections.sort(mqAll)
		a.MQAll = mqAll
		if members, ok := rep.mixedMembers(); ok {
			// Members of other clients: each sorts and allocates under its own rules, so
			// their results need not fit together (rocketmq-client-go#419).
			mv, merr := profile.MixedGroup(g.Strategy, allocate.Params{}, g.Name, mqAll, members, true)
			if merr != nil {
				note(&a, say("alloc.failed", merr.Error()))
				continue
			}
			a.View = mixedView(mv, cidAll)
			a.Orphans = mv.Orphans
			for _, sq := range mv.Shared {
				a.Shared = append(a.Shared, sq.Queue)
			}
			a.Clients = "each member computed as its own client does: Java members as RebalanceImpl, Go members as rocketmq-client-go v2.1.2 (spec §9.1; every Go v2 client reports V4_5_2, so the Go version is assumed)"
			rep.Allocations = append(rep.Allocations, a)
			continue
		}
		a.View = allocate.Group(s, g.Name, mqAll, cidAll)
		a.Orphans, a.Shared = a.View.Coverage(mqAll)
		rep.Allocations = append(rep.Allocations, a)
	}
}

// mixedMembers returns the members with their client profiles when some run the Go client.
func (rep *Report) mixedMembers() ([]profile.Member, bool) {
	goMembers := false
	out := make([]profile.Member, len(rep.Group.Members))
	for i, m := range rep.Group.Members {
		p := profile.Java
		if strings.EqualFold(m.Language, "GO") {
			p, goMembers = profile.Go212, true
		}
		out[i] = profile.Member{ClientID: m.ClientID, Profile: p}
	}
	return out, goMembers
}

// mixedView turns a mixed group's results into a view: one assignment per distinct id in
// cidAll's (Java-sorted) order, with the summary numbers of allocate.View.
func mixedView(mv profile.MixedView, cidAll []string) allocate.View {
	v := allocate.View{Strategy: mv.Strategy}
	byID := map[string]profile.MemberResult{}
	for _, m := range mv.Members {
		if _, ok := byID[m.ClientID]; !ok {
			byID[m.ClientID] = m
		}
	}
	seen := map[string]bool{}
	first := true
	for _, id := range cidAll {
		if seen[id] {
			continue
		}
		seen[id] = true
		m := byID[id]
		queues := m.Queues
		if queues == nil && m.Err == nil {
			queues = []route.MessageQueue{} // Go's nil owns nothing, like an empty list
		}
		v.Assignments = append(v.Assignments, allocate.Assignment{ClientID: id, Queues: queues, Err: m.Err})
		if m.Err != nil {
			continue
		}
		n := len(queues)
		if first || n > v.Max {
			v.Max = n
		}
		if first || n < v.Min {
			v.Min = n
		}
		first = false
		if n == 0 {
			v.Idle = append(v.Idle, id)
		}
	}
	v.Spread = v.Max - v.Min
	return v
}

func (rep *Report) compare() {
	g := rep.Group
	for _, a := range rep.Allocations {
		owners := map[route.MessageQueue][]string{}
		copies := make(map[string]int, len(a.CidAll)) // counted once: a group may have 10⁵ members
		for _, id := range a.CidAll {
			copies[id]++
		}
		for _, as := range a.View.Assignments {
			n := copies[as.ClientID]
			for _, q := range as.Queues {
				for range n { // every copy of a duplicated id pulls the same block
					owners[q] = append(owners[q], as.ClientID)
				}
			}
		}
		for _, q := range a.MQAll {
			qv := QueueView{Queue: q, Expected: orEmpty(owners[q]), Observed: g.Observed[q]}
			if o, ok := g.Offsets[q]; ok {
				lag := o.BrokerOffset - o.ConsumerOffset
				qv.Lag = &lag
			}
			if len(qv.Observed) > 0 && a.Note == "" {
				ok := agrees(qv.Expected, qv.Observed)
				qv.Agrees = &ok
			}
			rep.Queues = append(rep.Queues, qv)
		}
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// agrees compares expected ids with observed owners, an IP-only owner matching an id that
// starts with it.
func agrees(expected []string, observed []Owner) bool {
	exp := map[string]bool{}
	for _, e := range expected {
		exp[e] = true
	}
	for _, o := range observed {
		if o.Client == "" {
			continue // unnamed running info: cannot be compared
		}
		match := false
		for e := range exp {
			if e == o.Client || o.IPOnly && ipOf(e) == o.Client {
				match = true
			}
		}
		if !match {
			return false
		}
	}
	named := 0
	for _, o := range observed {
		if o.Client != "" {
			named++
		}
	}
	return named == 0 || len(exp) > 0
}

func ipOf(id string) string {
	ip, _, _ := strings.Cut(id, "@")
	return ip
}

func (rep *Report) add(f Finding) { rep.Findings = append(rep.Findings, f) }

func (rep *Report) findings() {
	g := rep.Group
	rep.duplicates()
	rep.loopback()
	rep.mixedSDK()
	rep.idle()
	rep.unowned()
	rep.doubleOwned()
	rep.readWrite()
	rep.readWriteRows()
	rep.unwritten()
	rep.subscriptions()
	rep.lag()
	rep.grpc()
	// allocation-ok: an allocation was computed for the main topic and nothing is wrong with it.
	problems := false
	for _, f := range rep.Findings {
		switch f.Code {
		case CodeDuplicateClientID, CodeUnownedQueues, CodeDoubleOwnedQueues, CodeIdleConsumers,
			CodeSubscriptionMismat, CodeGRPCConsumers:
			problems = true
		case CodeMixedSDK:
			if f.Severity == "problem" {
				problems = true
			}
		}
	}
	main := g.MainTopic()
	var alloc *Allocation
	for i := range rep.Allocations {
		if main != nil && rep.Allocations[i].Topic == main.Name && rep.Allocations[i].Note == "" {
			alloc = &rep.Allocations[i]
		}
	}
	if !problems && alloc != nil {
		ev := []Evidence{evidence(main.Ref, "evidence.topic", main.Name, len(main.Queues), sourceSaid(main.Source))}
		if len(g.Members) > 0 {
			ev = append(ev, evidence(g.Members[0].Ref, "evidence.members", len(g.Members), sourceSaid(g.MembersSource)))
		}
		observed := 0
		for _, q := range rep.Queues {
			if q.Agrees != nil {
				observed++
			}
		}
		sees := []Said{say("sees.ok", main.Name, g.Strategy, alloc.View.Spread)}
		if observed > 0 {
			sees = append(sees, say("sees.ok.observed", observed))
		}
		f := seeing(Finding{Code: CodeAllocationOK, Severity: "ok", Evidence: ev}, sees...)
		if g.Complete {
			f = worded(f, "allocation-ok")
		} else {
			f = worded(f, "allocation-ok.incomplete", sourceSaid(g.MembersSource), g.cmd("consumerConnection -g %s"))
		}
		rep.add(f)
	}
}

func (rep *Report) duplicates() {
	g := rep.Group
	if !g.Complete {
		return
	}
	rows := map[string][]Ref{}
	var order []string
	for _, m := range g.Members {
		if len(rows[m.ClientID]) == 0 {
			order = append(order, m.ClientID)
		}
		rows[m.ClientID] = append(rows[m.ClientID], m.Ref)
	}
	for _, id := range order {
		if len(rows[id]) < 2 {
			continue
		}
		var ev []Evidence
		for _, r := range rows[id] {
			ev = append(ev, evidence(r, "evidence.connection", id))
		}
		sees := []Said{say("sees.duplicate", len(rows[id]), id)}
		for _, a := range rep.Allocations {
			if len(a.Orphans) > 0 && a.Note == "" {
				sees = append(sees, say("sees.duplicate.orphans", a.Topic, route.Compact(a.Orphans)))
			}
		}
		rep.add(worded(seeing(Finding{Code: CodeDuplicateClientID, Severity: "problem", Evidence: ev}, sees...), "duplicate-client-id", id))
	}
}

func (rep *Report) loopback() {
	g := rep.Group
	var ev []Evidence
	hosts := map[string]bool{}
	for _, m := range g.Members {
		if strings.HasPrefix(m.ClientID, "127.") || strings.HasPrefix(m.ClientID, "0:0:0:0:0:0:0:1@") {
			ev = append(ev, evidence(m.Ref, "evidence.from", m.ClientID, m.Addr))
			if h, _, ok := strings.Cut(m.Addr, ":"); ok {
				hosts[h] = true
			}
		}
	}
	if len(ev) < 2 {
		return
	}
	f := seeing(Finding{Code: CodeLoopbackClientIP, Severity: "warning", Evidence: ev}, say("sees.loopback"))
	if len(hosts) > 1 {
		f = worded(f, "loopback-client-ip.hosts", len(ev), len(hosts))
	} else {
		f = worded(f, "loopback-client-ip", len(ev))
	}
	rep.add(f)
}

func (rep *Report) mixedSDK() {
	g := rep.Group
	langs := map[string][]Member{}
	for _, m := range g.Members {
		if m.Language != "" {
			langs[m.Language] = append(langs[m.Language], m)
		}
	}
	if len(langs) < 2 {
		return
	}
	names := make([]string, 0, len(langs))
	for l := range langs {
		names = append(names, l)
	}
	sort.Strings(names)
	var ev []Evidence
	for _, l := range names {
		ev = append(ev, evidence(langs[l][0].Ref, "evidence.language", len(langs[l]), l, langs[l][0].ClientID, langs[l][0].Version))
	}
	sev, sees := "warning", []Said{}
	computed, disagree := false, false
	for _, a := range rep.Allocations {
		if a.Clients == "" || a.Note != "" {
			continue
		}
		computed = true
		switch {
		case len(a.Shared) > 0 && len(a.Orphans) > 0:
			sees = append(sees, say("sees.mixed.both", a.Topic, route.Compact(a.Shared), route.Compact(a.Orphans)))
		case len(a.Shared) > 0:
			sees = append(sees, say("sees.mixed.twice", a.Topic, route.Compact(a.Shared)))
		case len(a.Orphans) > 0:
			sees = append(sees, say("sees.mixed.nobody", a.Topic, route.Compact(a.Orphans)))
		default:
			sees = append(sees, say("sees.mixed.agree", a.Topic))
			continue
		}
		disagree = true
	}
	if disagree {
		sev = "problem"
	}
	switch g.Strategy {
	case "AVG", "AVG_BY_CIRCLE":
		sees = append(sees, say("sees.mixed.avg", g.Strategy))
	case "CONSISTENT_HASH":
		if !computed {
			sev = "problem"
		}
		sees = append(sees, say("sees.mixed.hash"))
	case "MACHINE_ROOM_NEARBY":
		if !computed {
			sev = "problem"
		}
		sees = append(sees, say("sees.mixed.nearby"))
	default:
		sees = append(sees, say("sees.mixed.other", g.Strategy))
	}
	rep.add(worded(seeing(Finding{Code: CodeMixedSDK, Severity: sev, Evidence: ev}, sees...), "mixed-sdk", names))
}

func dash(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func (rep *Report) idle() {
	g := rep.Group
	main := g.MainTopic()
	for _, a := range rep.Allocations {
		if a.Note != "" || main == nil || a.Topic != main.Name || len(a.View.Idle) == 0 {
			continue
		}
		var ev []Evidence
		first := make(map[string]Ref, len(g.Members)) // each id's first member, found in one pass
		for _, m := range g.Members {
			if _, ok := first[m.ClientID]; !ok {
				first[m.ClientID] = m.Ref
			}
		}
		for _, id := range a.View.Idle {
			if ref, ok := first[id]; ok {
				ev = append(ev, evidence(ref, "evidence.no-queue", id, a.Topic))
			}
		}
		ev = append(ev, evidence(main.Ref, "evidence.readable", a.Topic, len(a.MQAll), sourceSaid(main.Source)))
		rep.add(worded(seeing(Finding{Code: CodeIdleConsumers, Severity: "problem", Evidence: ev},
			say("sees.idle", len(a.CidAll), len(a.MQAll))),
			"idle-consumers", len(a.View.Idle), len(a.CidAll), a.Topic))
	}
	for _, l := range rep.Read.GoLogs {
		if g.Name != "" && l.Group != "" && !sameGroup(l.Group, g.Name) {
			continue
		}
		rep.add(worded(seeing(Finding{Code: CodeIdleConsumers, Severity: "problem",
			Evidence: []Evidence{evidence(l.Ref, "evidence.cid-all", fmt.Sprint(l.CidAll), l.ConsumerID)}},
			say("sees.idle.not-in-list")),
			"idle-consumers.not-in-list", l.ConsumerID))
	}
}

func (rep *Report) unowned() {
	g := rep.Group
	// Expected: a strategy's own output leaves queues unowned (duplicate ids).
	for _, a := range rep.Allocations {
		if a.Note != "" || len(a.Orphans) == 0 {
			continue
		}
		var ev []Evidence
		for _, m := range g.Members {
			ev = append(ev, evidence(m.Ref, "evidence.member", m.ClientID))
			if len(ev) == 6 {
				break
			}
		}
		variant := "unowned-queues"
		if a.Clients != "" {
			variant = "unowned-queues.clients"
		}
		rep.add(worded(seeing(Finding{Code: CodeUnownedQueues, Severity: "problem", Evidence: ev}, say("sees.unowned")),
			variant, a.Topic, route.Compact(a.Orphans)))
	}
	// Observed: outputs that say a queue has no owner.
	byTopic := map[string][]Evidence{}
	var topics []string
	caveat := map[string]bool{}
	proves := rep.dashboardEmptyProves()
	unproven := map[string]int{}
	for _, a := range rep.Allocations {
		for _, q := range a.MQAll {
			o, ok := g.Offsets[q]
			if !ok || !o.HasClient || o.Client != "" {
				continue
			}
			if o.Dashboard && !proves {
				unproven[q.Topic]++
				continue
			}
			if len(byTopic[q.Topic]) == 0 {
				topics = append(topics, q.Topic)
			}
			byTopic[q.Topic] = append(byTopic[q.Topic], evidence(o.Ref, "evidence.no-owner", q.Short()))
			if !o.FullClient {
				caveat[q.Topic] = true
			}
		}
	}
	rep.unprovenOwners(unproven)
	// Running infos of every member: a queue none of them holds.
	named := map[string]bool{}
	for _, ri := range rep.Read.RunningInfos {
		if ri.ClientID != "" && ri.HasHeld && !ri.Cut {
			named[ri.ClientID] = true
		}
	}
	all := len(g.Members) > 0
	for _, m := range g.Members {
		all = all && named[m.ClientID]
	}
	if all {
		for _, a := range rep.Allocations {
			if t := g.topic(a.Topic); t == nil || strings.HasPrefix(t.Source, "assumed") {
				continue // queues that no paste lists cannot be observed missing
			}
			for _, q := range a.MQAll {
				if len(g.Observed[q]) == 0 {
					if len(byTopic[q.Topic]) == 0 {
						topics = append(topics, q.Topic)
					}
					byTopic[q.Topic] = append(byTopic[q.Topic], evidence(g.Members[0].Ref, "evidence.not-held", q.Short()))
				}
			}
		}
	}
	for _, t := range topics {
		ev := byTopic[t]
		sees := []Said{say("sees.unowned.observed", len(ev), t)}
		if caveat[t] {
			sees = append(sees, say("sees.unowned.caveat"))
		}
		rep.add(worded(seeing(Finding{Code: CodeUnownedQueues, Severity: "problem", Evidence: ev}, sees...), "unowned-queues.observed", t, len(ev)))
	}
}

func (g *Group) topic(name string) *Topic {
	for i := range g.Topics {
		if g.Topics[i].Name == name {
			return &g.Topics[i]
		}
	}
	return nil
}

func (rep *Report) doubleOwned() {
	g := rep.Group
	// Expected: members whose own computations overlap (different clients).
	for _, a := range rep.Allocations {
		if a.Note != "" || len(a.Shared) == 0 {
			continue
		}
		var ev []Evidence
		for _, as := range a.View.Assignments {
			for _, m := range g.Members {
				if m.ClientID == as.ClientID {
					ev = append(ev, computes(m.Ref, m.ClientID, dash(m.Language), route.Compact(as.Queues)))
					break
				}
			}
		}
		rep.add(worded(seeing(Finding{Code: CodeDoubleOwnedQueues, Severity: "problem", Evidence: ev}, say("sees.double")),
			"double-owned-queues", a.Topic, route.Compact(a.Shared)))
	}
	var qs []route.MessageQueue
	for q := range g.Observed {
		qs = append(qs, q)
	}
	route.SortQueues(qs)
	var ev []Evidence
	n := 0
	for _, q := range qs {
		ids := map[string]Ref{}
		for _, o := range g.Observed[q] {
			if o.Client != "" && !o.IPOnly && o.Source == "running info (mqTable)" {
				ids[o.Client] = o.Ref
			}
		}
		if len(ids) < 2 {
			continue
		}
		n++
		keys := make([]string, 0, len(ids))
		for k := range ids {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ev = append(ev, evidence(ids[k], "evidence.held-by", q.Short(), k))
		}
	}
	if n > 0 {
		rep.add(worded(seeing(Finding{Code: CodeDoubleOwnedQueues, Severity: "problem", Evidence: ev}, say("sees.double.observed")),
			"double-owned-queues.observed", n))
	}
}

func (rep *Report) readWrite() {
	for _, q := range rep.Read.QueueCounts {
		if q.Read == q.Write {
			continue
		}
		var t any = q.Topic
		if q.Topic == "" {
			t = say("sees.the-topic")
		}
		var sees Said
		if q.Read > q.Write {
			sees = say("sees.rw.more-read", t, q.Broker, q.Read, q.Write, q.Write, q.Read-1)
		} else {
			sees = say("sees.rw.more-write", t, q.Broker, q.Write, q.Read, q.Read, q.Write-1)
		}
		f := seeing(Finding{Code: CodeReadWriteMismatch, Severity: "problem",
			Evidence: []Evidence{evidence(q.Ref, "evidence.counts", q.Read, q.Write)}}, sees)
		if q.Topic == "" {
			f = worded(f, "read-write-mismatch.no-topic", q.Broker, q.Read, q.Write)
		} else {
			f = worded(f, "read-write-mismatch", q.Topic, q.Broker, q.Read, q.Write)
		}
		rep.add(f)
	}
}

// readWriteRows compares row counts: topicStatus lists a broker's queues up to its write
// count (up to 5.2), consumerProgress up to its read count (formats §6), so differing counts
// for one topic and broker show read ≠ write even without a route.
func (rep *Report) readWriteRows() {
	if len(rep.Read.QueueCounts) > 0 {
		return // the route says it directly
	}
	type key struct{ topic, broker string }
	written, read := map[key]int{}, map[key]int{}
	wref, rref := map[key]Ref{}, map[key]Ref{}
	var order []key
	for _, q := range rep.Read.TopicQueues {
		k := key{q.Queue.Topic, q.Queue.BrokerName}
		if k.topic == "" {
			continue
		}
		if _, ok := written[k]; !ok {
			order = append(order, k)
			wref[k] = q.Ref
		}
		written[k] = max(written[k], int(q.Queue.QueueID)+1)
	}
	for _, o := range rep.Read.Offsets {
		k := key{o.Queue.Topic, o.Queue.BrokerName}
		if _, ok := read[k]; !ok {
			rref[k] = o.Ref
		}
		read[k] = max(read[k], int(o.Queue.QueueID)+1)
	}
	for _, k := range order {
		r, ok := read[k]
		if !ok || r == written[k] {
			continue
		}
		rep.add(worded(seeing(Finding{Code: CodeReadWriteMismatch, Severity: "problem",
			Evidence: []Evidence{evidence(rref[k], "evidence.progress-rows", r), evidence(wref[k], "evidence.status-rows", written[k])}},
			say("sees.rw.rows")),
			"read-write-mismatch.rows", k.topic, k.broker, r, written[k]))
	}
}

// unwrittenMin is how many messages every other queue of a topic must have before a queue
// still at offset 0 counts as unwritten rather than unlucky.
const unwrittenMin = 100

func (rep *Report) unwritten() {
	type row struct {
		q   route.MessageQueue
		off int64
		ref Ref
	}
	byTopic := map[string][]row{}
	var topics []string
	addRow := func(r row) {
		if strings.HasPrefix(r.q.Topic, "%") || r.q.Topic == "" {
			return
		}
		if len(byTopic[r.q.Topic]) == 0 {
			topics = append(topics, r.q.Topic)
		}
		byTopic[r.q.Topic] = append(byTopic[r.q.Topic], r)
	}
	for _, o := range rep.Read.Offsets {
		addRow(row{o.Queue, o.BrokerOffset, o.Ref})
	}
	if len(topics) == 0 {
		for _, q := range rep.Read.TopicQueues {
			addRow(row{q.Queue, q.MaxOffset, q.Ref})
		}
	}
	for _, t := range topics {
		rows := byTopic[t]
		var zero []row
		minOther := int64(-1)
		for _, r := range rows {
			if r.off == 0 {
				zero = append(zero, r)
			} else if minOther < 0 || r.off < minOther {
				minOther = r.off
			}
		}
		if len(zero) == 0 || minOther < unwrittenMin {
			continue
		}
		var ev []Evidence
		for _, r := range zero {
			ev = append(ev, evidence(r.ref, "evidence.unwritten", r.q.Short()))
		}
		rep.add(worded(seeing(Finding{Code: CodeUnwrittenQueues, Severity: "warning", Evidence: ev}, say("sees.unwritten", t, minOther)),
			"unwritten-queues", t, len(zero)))
	}
}

func (rep *Report) subscriptions() {
	g := rep.Group
	for _, l := range rep.Read.StatusLines {
		if l.Kind == "different-subscription" {
			rep.add(worded(seeing(Finding{Code: CodeSubscriptionMismat, Severity: "problem", Evidence: []Evidence{evidence(l.Ref, "evidence.line", l.Text)}},
				say("sees.subscription")),
				"subscription-mismatch"))
			return
		}
	}
	if len(g.ClientSubs) < 2 {
		return
	}
	sig := map[string][]string{}
	refs := map[string]Ref{}
	for id, subs := range g.ClientSubs {
		var parts []string
		for _, s := range subs {
			parts = append(parts, s.Topic+" "+s.Expr)
		}
		sort.Strings(parts)
		k := strings.Join(parts, "; ")
		sig[k] = append(sig[k], id)
		refs[id] = subs[0].Ref
	}
	if len(sig) < 2 {
		return
	}
	var ev []Evidence
	keys := make([]string, 0, len(sig))
	for k := range sig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ids := sig[k]
		sort.Strings(ids)
		ev = append(ev, evidence(refs[ids[0]], "evidence.subscribes", strings.Join(ids, ", "), k))
	}
	rep.add(worded(seeing(Finding{Code: CodeSubscriptionMismat, Severity: "problem", Evidence: ev}, say("sees.subscription")),
		"subscription-mismatch"))
}

// lagMin is the lag a queue must have, and ten times its owner's other queues', to count as a
// stall inside the consumer.
const lagMin = 100

func (rep *Report) lag() {
	g := rep.Group
	for _, l := range rep.Read.StatusLines {
		if l.Kind == "blocked" || l.Kind == "lock" || l.Kind == "unlock" {
			rep.add(worded(seeing(Finding{Code: CodeLagOnOwnedQueue, Severity: "problem",
				Evidence: []Evidence{evidence(l.Ref, "evidence.line", l.Text)}},
				say("sees.blocked")),
				"lag-on-owned-queue.blocked", l.ClientID))
		}
	}
	// Owner known per queue, lag per queue: one queue far behind while the others keep up.
	byOwner := map[string][]QueueView{}
	var owners []string
	for _, q := range rep.Queues {
		if q.Lag == nil || len(q.Observed) != 1 || q.Observed[0].Client == "" {
			continue
		}
		k := q.Observed[0].Client
		if len(byOwner[k]) == 0 {
			owners = append(owners, k)
		}
		byOwner[k] = append(byOwner[k], q)
	}
	for _, k := range owners {
		qs := byOwner[k]
		for _, q := range qs {
			if *q.Lag < lagMin || len(qs) < 2 {
				continue
			}
			others := true
			for _, o := range qs {
				if o.Queue != q.Queue && *o.Lag*10 > *q.Lag {
					others = false
				}
			}
			if !others {
				continue
			}
			off := g.Offsets[q.Queue]
			rep.add(worded(seeing(Finding{Code: CodeLagOnOwnedQueue, Severity: "problem",
				Evidence: []Evidence{evidence(off.Ref, "evidence.offsets", q.Queue.Short(), off.BrokerOffset, off.ConsumerOffset), evidence(q.Observed[0].Ref, "evidence.owner", k)}},
				say("sees.lag")),
				"lag-on-owned-queue", q.Queue.Short(), *q.Lag, k))
		}
	}
}

func (rep *Report) grpc() {
	g := rep.Group
	if len(g.GRPCTopics) == 0 {
		return
	}
	var ev []Evidence
	for _, t := range g.Topics {
		if strings.HasPrefix(t.Name, "%RETRY%"+g.Name+"_") {
			ev = append(ev, evidence(t.Ref, "evidence.retry-topic", t.Name))
		}
	}
	rep.add(worded(seeing(Finding{Code: CodeGRPCConsumers, Severity: "warning", Evidence: ev}, say("sees.grpc")),
		"grpc-consumers"))
}
