package admin

import (
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/scenario"
)

// historyTail is how long, at least, the scenario of a history runs past its last line.
const historyTail = scenario.Second

// historyScenario is the scenario of the group the members' logs show: t=0 is the logs' first
// line; the members are the consumers (with the ids the lines give, so that the logged owners
// are the simulated consumers), those running at t=0 from the start and the others joining at
// their first line; a member that stops is a graceful shutdown, one that vanishes (its leave
// read from the others' lines or from a broker's expiry) a kill. The logged holdings and
// rounds are the scenario's observed history, replayed beside the simulation.
func (g *Group) historyScenario(h *History) (s scenario.Scenario, left []Said, err error) {
	rel := func(t int64) scenario.Duration { return scenario.Duration(t - h.From) }
	ref := func(r Ref) string {
		if r.Input == "" {
			return ""
		}
		out := fileName(r.Input)
		if r.Line > 0 {
			out += ":" + strconv.Itoa(r.Line)
		}
		if len(out) > scenario.MaxObservedText {
			return ""
		}
		return out
	}
	// The main topic: the one with the most logged holdings, retry topics aside.
	held := map[string]int{}
	for _, q := range h.Queues {
		if !strings.HasPrefix(q.Queue.Topic, "%RETRY%") && !strings.HasPrefix(q.Queue.Topic, "%DLQ%") {
			held[q.Queue.Topic] += len(q.Held)
		}
	}
	topic := ""
	for t, n := range held {
		if topic == "" || n > held[topic] || n == held[topic] && t < topic {
			topic = t
		}
	}
	if topic == "" {
		return s, nil, sayErr("scenario.no-topic", FieldQueues)
	}
	simTopic, group, left := g.scenarioNames(topic)
	// The end: a little past the last line.
	last := h.To
	for _, m := range h.Members {
		last = max(last, m.Last)
	}
	until := rel(last) + historyTail
	until = (until + scenario.Second - 1) / scenario.Second * scenario.Second
	// Brokers and their read queues: the topic's route as its first route line gives it (or,
	// before that line, as the queues held name it), each later route line that changes a
	// broker's count a setQueues at its time (a broker new to the route an addBroker), logs
	// §1.2 M6, §2.2; the queues held and never in a route line are there from the start.
	initial, timeline := g.historyRoutes(h, topic, rel, until)
	brokers := slices.Sorted(maps.Keys(initial))
	cfg := cluster.Config{Seed: 1, Topic: simTopic, Group: group, MessageModel: g.MessageModel, FaultTable: fault.TableCurrent}
	for _, b := range brokers {
		cfg.Brokers = append(cfg.Brokers, cluster.BrokerConfig{Name: b, Queues: initial[b]})
	}
	var strategy string
	strategy, left = g.scenarioStrategy(left)
	cfg.Strategy = allocate.Named(strategy)
	// Members: running at t=0, or joining; stopping or vanishing, and starting again.
	members := map[string]bool{}
	var names []string
	for _, m := range h.Members {
		if m.Relative {
			left = append(left, say("left.log-relative", m.ID))
			continue
		}
		if scenario.CheckClientID(m.ID) != nil {
			left = append(left, say("left.log-member-id", m.ID))
			continue
		}
		members[m.ID] = true
		for _, in := range m.Inputs {
			names = append(names, fileName(in))
		}
		client := ""
		switch {
		case m.Client == "go":
			client = string(profile.Go212)
		case m.Client == "java" && strings.HasPrefix(m.Version, "V4_9_"):
			client = string(profile.Java49)
		case m.Client != "java":
			left = append(left, say("left.client", m.Client))
		}
		start := m.First
		for _, c := range h.Membership {
			if c.Member == m.ID && (c.Kind == "start" || c.Kind == "join") {
				start = min(start, c.At)
				break
			}
		}
		prev := rel(start)
		if start <= h.From {
			cfg.Consumers = append(cfg.Consumers, cluster.ConsumerConfig{ID: m.ID, Client: client})
		} else {
			timeline = append(timeline, scenario.Step{At: prev, Command: cluster.Command{Type: "addConsumer", ID: m.ID, Client: client}})
		}
		// Its leaves and returns: a graceful shutdown unregisters and notifies (stopConsumer); a
		// member that vanished is noticed when its channel closes or expires (killConsumer); one
		// that comes back under its id (a start or a broker's join after a leave) is the same
		// process started again (restartConsumer), not a second member.
		running := true
		for _, c := range h.Membership {
			if c.Member != m.ID || c.At < start {
				continue
			}
			typ := ""
			switch c.Kind {
			case "stop":
				typ = "stopConsumer"
			case "leave", "expire":
				typ = "killConsumer"
			case "start", "join":
				typ = "restartConsumer"
			default:
				continue
			}
			if running == (typ == "restartConsumer") {
				continue // already running, or already gone
			}
			at := max(rel(c.At), prev+1)
			if at >= until {
				break
			}
			cmd := cluster.Command{Type: typ, ID: m.ID}
			if typ == "restartConsumer" {
				cmd.Client = client
			}
			timeline = append(timeline, scenario.Step{At: at, Command: cmd})
			running, prev = typ == "restartConsumer", at
		}
	}
	// In time order, the steps of one moment as the members come (an insertion sort: few steps).
	for i := 1; i < len(timeline); i++ {
		for j := i; j > 0 && timeline[j].At < timeline[j-1].At; j-- {
			timeline[j], timeline[j-1] = timeline[j-1], timeline[j]
		}
	}
	if len(cfg.Consumers) == 0 && len(timeline) == 0 {
		return s, left, sayErr("scenario.no-members")
	}
	// The observed history: the main topic's holdings of the members kept, within until.
	obs := &scenario.Observed{Zone: h.Zone, Start: h.Stamp(h.From)}
	otherTopics := map[string]bool{}
	cut := 0
	for _, q := range h.Queues {
		if q.Queue.Topic != topic {
			otherTopics[q.Queue.Topic] = true
			continue
		}
		for _, iv := range q.Held {
			if !members[iv.Member] {
				continue
			}
			from, to := rel(iv.From), rel(iv.To)
			if from >= until {
				continue
			}
			if len(obs.Holdings) == scenario.MaxHoldings {
				cut++
				continue
			}
			hd := scenario.Holding{Broker: q.Queue.BrokerName, Queue: int(q.Queue.QueueID), Owner: iv.Member,
				From: max(from, 0), FromKnown: iv.FromKnown, ToKnown: iv.ToKnown, Ref: ref(iv.FromRef)}
			switch {
			case to <= hd.From:
				continue
			case !iv.ToKnown && iv.ToBy == "":
				// No line ends it: the log stops with the queue still held.
			case to < until:
				hd.To = &to
			}
			obs.Holdings = append(obs.Holdings, hd)
		}
	}
	if cut > 0 {
		left = append(left, say("left.log-holdings", cut, scenario.MaxHoldings))
	}
	for _, t := range slices.Sorted(maps.Keys(otherTopics)) {
		left = append(left, say("left.log-topic", t))
	}
	for _, r := range h.Rounds {
		if r.Topic != topic || !members[r.Member] || rel(r.At) > until || len(obs.Rounds) == scenario.MaxRounds {
			continue
		}
		obs.Rounds = append(obs.Rounds, scenario.Round{At: max(rel(r.At), 0), Client: r.Member, Ref: ref(r.Ref)})
	}
	obs.Source = strconv.Itoa(len(names)) + " client logs: " + strings.Join(names, ", ")
	if len(obs.Source) > scenario.MaxObservedText {
		obs.Source = obs.Source[:scenario.MaxObservedText-3]
		for !utf8.ValidString(obs.Source) {
			obs.Source = obs.Source[:len(obs.Source)-1]
		}
		obs.Source = strings.TrimRight(obs.Source, ", ") + "…"
	}
	cfg.Producers = []cluster.ProducerConfig{{ID: "p1", Rate: 100}}
	desc := fmt.Sprintf("Imported from the client logs of %d member(s) of %s: %s from %s (%s), with the logged holdings beside the simulation.",
		len(members), group, topic, obs.Start, h.Zone)
	desc += " One producer at 100 msg/s was added so that messages flow (the logs say nothing of producers)."
	if len(left) > 0 {
		desc += " Left out: " + strings.Join(english(left), "; ") + "."
	}
	s = scenario.Scenario{Version: scenario.Version, Title: "Logged group " + group, Description: desc, Config: cfg,
		Until: until, Timeline: timeline, Observed: obs}
	if err := s.Validate(); err != nil {
		return s, left, sayErr("scenario.does-not-fit", err.Error())
	}
	return s, left, nil
}

// fileName is a log's name as the scenario's texts give it: its base, escaped as a terminal
// line is (Escape), its newlines too.
func fileName(p string) string {
	return strings.ReplaceAll(Escape(path.Base(p)), "\n", `\x0a`)
}

// historyRoutes gives the brokers of topic with their read queues at t=0 and the steps that
// change them at the times of the route lines (logs §1.2 M6, §2.2 "the topic route info
// changed"): the first route line's counts hold from the start unless queues held before it
// name others (its route then was another, which no line gives: those queues' brokers and
// counts hold until it); each later line that changes a broker's count is a setQueues (an
// addBroker for a broker new to the route, setQueues 0 for one gone from it). Every member
// prints the same change: only a change is a step. Queues held but in no route line's broker
// are there from the start.
func (g *Group) historyRoutes(h *History, topic string, rel func(int64) scenario.Duration, until scenario.Duration) (map[string]int, []scenario.Step) {
	countOf := func(qs []route.MessageQueue) map[string]int {
		n := map[string]int{}
		for _, q := range qs {
			if q.Topic == topic {
				n[q.BrokerName] = max(n[q.BrokerName], min(int(q.QueueID)+1, scenario.MaxQueues))
			}
		}
		return n
	}
	var routes []RouteChange
	for _, r := range h.Routes {
		if r.Topic == topic {
			routes = append(routes, r)
		}
	}
	sort.SliceStable(routes, func(i, j int) bool { return routes[i].At < routes[j].At })
	held := func(before int64) map[string]int {
		n := map[string]int{}
		for _, q := range h.Queues {
			if q.Queue.Topic != topic {
				continue
			}
			for _, iv := range q.Held {
				if iv.From < before {
					n[q.Queue.BrokerName] = max(n[q.Queue.BrokerName], min(int(q.Queue.QueueID)+1, scenario.MaxQueues))
				}
			}
		}
		return n
	}
	if len(routes) == 0 {
		return held(math.MaxInt64), nil
	}
	cur := countOf(routes[0].Queues)
	if before := held(routes[0].At); rel(routes[0].At) > 0 && len(before) > 0 {
		cur = before
	}
	initial := maps.Clone(cur)
	known := maps.Clone(cur) // brokers the scenario has, at the start or added
	var steps []scenario.Step
	for i, r := range routes {
		n := countOf(r.Queues)
		at := rel(r.At)
		if i == 0 && maps.Equal(n, cur) || at >= until {
			continue
		}
		if at <= 0 {
			// A route line at the logs' first moment: it is the start's.
			for b, c := range n {
				initial[b], known[b] = c, c
			}
			cur = maps.Clone(n)
			continue
		}
		for _, b := range slices.Sorted(maps.Keys(mergeKeys(cur, n))) {
			if n[b] == cur[b] || len(steps) >= scenario.MaxSteps/2 {
				continue
			}
			c := n[b]
			if _, ok := known[b]; !ok {
				if c == 0 {
					continue
				}
				steps = append(steps, scenario.Step{At: at, Command: cluster.Command{Type: "addBroker", Broker: b, Queues: &c}})
				known[b] = c
				continue
			}
			steps = append(steps, scenario.Step{At: at, Command: cluster.Command{Type: "setQueues", Broker: b, Queues: &c}})
		}
		cur = n
	}
	// Queues held on brokers no route line gives: there from the start.
	for b, c := range held(math.MaxInt64) {
		if _, ok := known[b]; !ok {
			initial[b] = c
		}
	}
	for b, c := range initial {
		if c == 0 {
			delete(initial, b) // a broker with none of the topic's queues at the start joins later
		}
	}
	return initial, steps
}

// mergeKeys is a map with the keys of a and b.
func mergeKeys(a, b map[string]int) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
