package admin

import (
	"fmt"
	"maps"
	"slices"
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

// Escape makes text from a paste safe to print on a terminal: control characters (other than
// newline) and invalid UTF-8 become \xNN, so a paste cannot move the cursor or recolour the
// screen.
func Escape(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r < 0x20 && r != '\n', r == 0x7f, r >= 0x80 && r < 0xa0, r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			for j := 0; j < size; j++ {
				fmt.Fprintf(&b, `\x%02x`, s[i+j])
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Scenario builds a playground scenario of the group: the simulation has one topic and one
// group, so it takes the main topic and lists in left what it had to leave out. Duplicate
// client ids are reproduced as the broker sees them: the consumer loses its network at 1 s
// and a new process with the same id starts at 2 s, so both connections are listed until the
// old one expires (spec §5.6).
func (g *Group) Scenario() (s scenario.Scenario, left []string, err error) {
	s, said, err := g.ScenarioSaid()
	if said != nil {
		left = english(said)
	}
	return s, left, err
}

// ScenarioSaid is Scenario with what it leaves out as sentences.
func (g *Group) ScenarioSaid() (s scenario.Scenario, left []Said, err error) {
	if h := g.history; h != nil && len(h.Members) > 0 && len(h.Queues) > 0 {
		return g.historyScenario(h)
	}
	main := g.MainTopic()
	if main == nil || len(main.Queues) == 0 {
		return s, nil, sayErr("scenario.no-topic", FieldQueues)
	}
	topic, group, left := g.scenarioNames(main.Name)
	cfg := cluster.Config{Seed: 1, Topic: topic, Group: group, MessageModel: g.MessageModel, FaultTable: fault.TableCurrent}
	// The route's read and write counts where the paste gives them: producers publish to the
	// write queues, consumers rebalance over the read queues (spec §1.3).
	layout, l := topicLayout(main)
	left = append(left, l...)
	for _, tb := range layout.Brokers {
		cfg.Brokers = append(cfg.Brokers, cluster.BrokerConfig{Name: tb.Name, Queues: tb.Queues, ReadQueueNums: tb.ReadQueueNums, WriteQueueNums: tb.WriteQueueNums})
	}
	var strategy string
	strategy, left = g.scenarioStrategy(left)
	cfg.Strategy = allocate.Named(strategy)
	seen := map[string]int{}
	var timeline []scenario.Step
	for _, m := range g.Members {
		id := m.ClientID
		seen[id]++
		if seen[id] > 1 {
			if seen[id] == 2 {
				timeline = append(timeline,
					scenario.Step{At: scenario.Duration(1000), Command: cluster.Command{Type: "partitionConsumer", ID: id}},
					scenario.Step{At: scenario.Duration(2000), Command: cluster.Command{Type: "restartConsumer", ID: id}})
			} else {
				left = append(left, say("left.copies", id))
			}
			continue
		}
		cfg.Consumers = append(cfg.Consumers, cluster.ConsumerConfig{ID: id, Client: memberClient(m)})
	}
	// Processes that share one client id build it from a fixed instance name (or, for Go, an
	// id that never changes): the copy restarted above must come back with the same id, not
	// with the new #nanoTime suffix a default Java restart takes (spec §1.2, §9.1).
	for i, c := range cfg.Consumers {
		if seen[c.ID] > 1 {
			cfg.Consumers[i].FixedInstanceName = true
		}
	}
	ids := make([]string, len(cfg.Consumers)) // as read, before any is renamed
	for i, c := range cfg.Consumers {
		ids[i] = c.ID
	}
	for i, c := range cfg.Consumers {
		if err := scenario.CheckClientID(c.ID); err != nil {
			nid := "c" + strconv.Itoa(i+1)
			left = append(left, say("left.client-id", c.ID, nid))
			for j := range timeline {
				if timeline[j].ID == c.ID {
					timeline[j].ID = nid
				}
			}
			cfg.Consumers[i].ID = nid
		}
	}
	langs := map[string]bool{}
	for _, m := range g.Members {
		if m.Language != "" && !strings.EqualFold(m.Language, "JAVA") && !strings.EqualFold(m.Language, "GO") {
			langs[m.Language] = true
		}
	}
	for _, l := range slices.Sorted(maps.Keys(langs)) {
		left = append(left, say("left.client", l))
	}
	var notes []string
	if g.wantsPlural(main) {
		l, n := g.pluralize(&cfg, main, ids)
		left, notes = append(left, l...), n
	} else {
		for _, t := range g.Topics {
			if !t.Main {
				left = append(left, say("left.topic", t.Name))
			}
		}
		left = append(left, g.memberSubscriptions(&cfg, main.Name)...)
		cfg.Producers = []cluster.ProducerConfig{{ID: "p1", Rate: 100}}
	}
	desc := fmt.Sprintf("Imported from %s: %d member(s), %d queues of %s, %s.", g.MembersSource, len(g.Members), len(main.Queues), main.Name, g.Strategy)
	if len(cfg.Topics) > 1 {
		names := make([]string, len(cfg.Topics))
		for i, t := range cfg.Topics {
			names[i] = t.Name
		}
		desc += fmt.Sprintf(" The group subscribes %s, and each member what its running info shows; the simulation adds the retry topic as the client does.", strings.Join(names, ", "))
	}
	if len(cfg.Producers) == 1 {
		desc += " One producer at 100 msg/s was added so that messages flow (the paste says nothing of producers)."
	} else {
		desc += " A producer at 100 msg/s was added to each topic so that messages flow (the paste says nothing of producers)."
	}
	if len(notes) > 0 {
		desc += " " + strings.Join(notes, " ")
	}
	if len(left) > 0 {
		desc += " Left out: " + strings.Join(english(left), "; ") + "."
	}
	version := scenario.Version
	if scenario.NeedsVersion2(cfg) != "" {
		version = scenario.Version2
	}
	s = scenario.Scenario{Version: version, Title: "Imported group " + group, Description: desc, Config: cfg, Until: scenario.DefaultUntil, Timeline: timeline}
	if err := s.Validate(); err != nil {
		return s, left, sayErr("scenario.does-not-fit", err.Error())
	}
	return s, left, nil
}

// memberSubscriptions gives each member whose running info shows it does not subscribe the
// main topic its own topic, so that the scenario shows its share pulled by nobody (spec §5.7);
// it returns what the scenario cannot carry.
func (g *Group) memberSubscriptions(cfg *cluster.Config, mainTopic string) (left []Said) {
	if len(g.ClientSubs) == 0 {
		return nil
	}
	index := map[string]int{}
	for i, c := range cfg.Consumers {
		index[c.ID] = i
	}
	exprs := map[string]bool{}
	for _, id := range slices.Sorted(maps.Keys(g.ClientSubs)) {
		other, subscribesMain := "", false
		for _, s := range g.ClientSubs[id] {
			switch {
			case strings.HasPrefix(s.Topic, "%RETRY%"):
			case s.Topic == mainTopic:
				subscribesMain = true
				exprs[s.Expr] = true
			case other == "":
				other = s.Topic
			}
		}
		i, known := index[id]
		switch {
		case subscribesMain || other == "":
		case !known:
			left = append(left, say("left.subscription", id, other))
		case checkPlain(other) != nil:
			left = append(left, say("left.subscription-name", id, other))
		default:
			cfg.Consumers[i].Subscription = &cluster.SubscriptionConfig{Topic: other}
		}
	}
	if len(exprs) > 1 {
		left = append(left, say("left.tags", mainTopic))
	}
	return left
}

func checkPlain(name string) error {
	if name == "" || len(name) > scenario.MaxNameLen {
		return fmt.Errorf("bad name")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("%|_-", r)) {
			return fmt.Errorf("bad name")
		}
	}
	return nil
}

// memberClient is the client profile a member's connection names (spec §9): a Go client
// reports language GO (and V4_5_2 whatever its release) and runs go-2.1.2; a Java client that
// reports a 4.9 release runs java-4.9; every other member the current Java client, the default.
func memberClient(m Member) string {
	switch {
	case strings.EqualFold(m.Language, "GO"):
		return string(profile.Go212)
	case (m.Language == "" || strings.EqualFold(m.Language, "JAVA")) && strings.HasPrefix(m.Version, "V4_9_"):
		return string(profile.Java49)
	}
	return ""
}

func english(said []Said) []string {
	out := make([]string, len(said))
	for i, s := range said {
		out[i] = s.String()
	}
	return out
}

// scenarioNames are the topic's and the group's names as a scenario takes them: the defaults
// for a name the format refuses (or one no paste gives), with a sentence saying so.
func (g *Group) scenarioNames(topic string) (simTopic, group string, left []Said) {
	simTopic, group = topic, g.Name
	if topic == unknownTopic || checkPlain(topic) != nil {
		left = append(left, say("left.topic-name", topic, scenario.DefaultTopic))
		simTopic = scenario.DefaultTopic
	}
	if group == "" || checkPlain(group) != nil {
		if group != "" {
			left = append(left, say("left.group-name", group, scenario.DefaultGroup))
		}
		group = scenario.DefaultGroup
	}
	return simTopic, group, left
}

// scenarioStrategy is the strategy the scenario runs: the group's when the simulation has it,
// else AVG with a sentence added to left.
func (g *Group) scenarioStrategy(left []Said) (string, []Said) {
	switch g.Strategy {
	case "AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH":
		return g.Strategy, left
	}
	return "AVG", append(left, say("left.strategy", g.Strategy))
}

// queueCounts are a topic's read queues per broker as far as the queues seen show them (the
// highest id plus one), with the brokers in the order first seen.
type queueCounts struct {
	brokers []string
	n       map[string]int
}

func (c *queueCounts) add(q route.MessageQueue) {
	if c.n == nil {
		c.n = map[string]int{}
	}
	if _, ok := c.n[q.BrokerName]; !ok {
		c.brokers = append(c.brokers, q.BrokerName)
	}
	c.n[q.BrokerName] = max(c.n[q.BrokerName], int(q.QueueID)+1)
}
