package admin

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
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
	main := g.MainTopic()
	if main == nil || len(main.Queues) == 0 {
		return s, nil, fmt.Errorf("no topic with known queues: the scenario needs one (paste topicRoute, or pass --queues)")
	}
	topic := main.Name
	if topic == unknownTopic || checkPlain(topic) != nil {
		left = append(left, fmt.Sprintf("the topic's name %q (the scenario calls it %s)", topic, scenario.DefaultTopic))
		topic = scenario.DefaultTopic
	}
	group := g.Name
	if group == "" || checkPlain(group) != nil {
		if group != "" {
			left = append(left, fmt.Sprintf("the group's name %q (not a valid scenario name; called %s)", group, scenario.DefaultGroup))
		}
		group = scenario.DefaultGroup
	}
	counts := map[string]int{}
	var brokers []string
	for _, q := range main.Queues {
		if _, ok := counts[q.BrokerName]; !ok {
			brokers = append(brokers, q.BrokerName)
		}
		if n := int(q.QueueID) + 1; n > counts[q.BrokerName] {
			counts[q.BrokerName] = n
		}
	}
	cfg := cluster.Config{Seed: 1, Topic: topic, Group: group, MessageModel: g.MessageModel, FaultTable: fault.TableCurrent}
	for _, b := range brokers {
		cfg.Brokers = append(cfg.Brokers, cluster.BrokerConfig{Name: b, Queues: counts[b]})
	}
	for _, q := range main.Counts {
		if q.Read != q.Write {
			left = append(left, fmt.Sprintf("%s has %d read and %d write queues on %s: the simulation has one count per broker and uses the read count", q.Topic, q.Read, q.Write, q.Broker))
		}
	}
	switch g.Strategy {
	case "AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH":
		cfg.Strategy = g.Strategy
	default:
		cfg.Strategy = "AVG"
		left = append(left, "the strategy "+g.Strategy+" (its configuration is not in the paste; the scenario uses AVG)")
	}
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
				left = append(left, fmt.Sprintf("the copies of %s beyond the second", id))
			}
			continue
		}
		cfg.Consumers = append(cfg.Consumers, cluster.ConsumerConfig{ID: id})
	}
	for i, c := range cfg.Consumers {
		if err := scenario.CheckClientID(c.ID); err != nil {
			nid := "c" + strconv.Itoa(i+1)
			left = append(left, fmt.Sprintf("the client id %q (not a valid scenario id; called %s)", c.ID, nid))
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
		if m.Language != "" && m.Language != "JAVA" {
			langs[m.Language] = true
		}
	}
	for l := range langs {
		left = append(left, "the "+l+" members run as Java clients (client profiles are not simulated yet)")
	}
	for _, t := range g.Topics {
		if !t.Main {
			left = append(left, "the topic "+t.Name)
		}
	}
	if len(g.ClientSubs) > 1 {
		left = append(left, "members' own subscriptions (the simulation has one subscription per group)")
	}
	cfg.Producers = []cluster.ProducerConfig{{ID: "p1", Rate: 100}}
	desc := fmt.Sprintf("Imported from %s: %d member(s), %d queues of %s, %s.", g.MembersSource, len(g.Members), len(main.Queues), main.Name, g.Strategy)
	desc += " One producer at 100 msg/s was added so that messages flow (the paste says nothing of producers)."
	if len(left) > 0 {
		desc += " Left out: " + strings.Join(left, "; ") + "."
	}
	s = scenario.Scenario{Version: scenario.Version, Title: "Imported group " + group, Description: desc, Config: cfg, Until: scenario.DefaultUntil, Timeline: timeline}
	if err := s.Validate(); err != nil {
		return s, left, fmt.Errorf("the group does not fit a scenario: %w", err)
	}
	return s, left, nil
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
