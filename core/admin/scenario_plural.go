package admin

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
)

// The scenario of a group that subscribes several topics, or whose members subscribe a topic
// with different tag expressions, is written in scenario format 2, which keeps every topic and
// subscription the paste shows instead of leaving them out: each topic with the queues read
// for it on each broker, each member subscribing what its running info (or, lacking one, the
// group's subscription table) says with its tags, and the retry topic added by the simulation
// as the client adds it (spec §3.14). Otherwise the scenario stays in format 1, as before.

// pluralTopic is a topic the format-2 scenario carries.
type pluralTopic struct {
	name    string
	cfg     cluster.TopicConfig
	assumed bool // its queues are not in the paste: laid out as the main topic's
}

// wantsPlural reports whether the group needs format 2: two or more topics with queues, a
// member subscribing two or more topics, or one topic's tag expressions differing between
// members.
func (g *Group) wantsPlural(main *Topic) bool {
	n := 0
	for _, t := range g.Topics {
		if plainTopic(t.Name) && len(t.Queues) > 0 {
			n++
		}
	}
	if n > 1 {
		return true
	}
	exprs := map[string]map[string]bool{}
	for _, subs := range g.ClientSubs {
		topics := 0
		for _, s := range subs {
			if !plainTopic(s.Topic) {
				continue
			}
			topics++
			if exprs[s.Topic] == nil {
				exprs[s.Topic] = map[string]bool{}
			}
			exprs[s.Topic][normalExpr(s.Expr)] = true
		}
		if topics > 1 {
			return true
		}
	}
	return len(exprs[main.Name]) > 1
}

// plainTopic is a topic a member subscribes by name: not a retry or dead-letter topic, which
// the simulation makes itself.
func plainTopic(name string) bool {
	return name != "" && name != unknownTopic && !strings.HasPrefix(name, "%RETRY%") && !strings.HasPrefix(name, "%DLQ%")
}

// normalExpr is a subscription expression with its spaces taken out and "" read as "*".
func normalExpr(expr string) string {
	expr = strings.ReplaceAll(strings.TrimSpace(expr), " ", "")
	if expr == "" {
		return "*"
	}
	return expr
}

// topicLayout is a topic's queues on each broker as the paste shows them: read queues from
// the highest id seen, and the route's read and write counts where it gives them (spec §1.3).
func topicLayout(t *Topic) (cluster.TopicConfig, []Said) {
	var counts queueCounts
	for _, q := range t.Queues {
		counts.add(q)
	}
	rw := map[string]QueueCount{}
	for _, q := range t.Counts {
		if _, ok := rw[q.Broker]; !ok {
			rw[q.Broker] = q
		}
	}
	var left []Said
	tc := cluster.TopicConfig{Name: t.Name}
	for _, b := range counts.brokers {
		tb := cluster.TopicBrokerConfig{Name: b, Queues: counts.n[b]}
		if q, ok := rw[b]; ok && q.Read > 0 && q.Write > 0 && q.Read != q.Write {
			if q.Perm&int(route.PermWrite) == 0 {
				left = append(left, say("left.perm", t.Name, b, q.Perm))
			}
			tb.Queues, tb.ReadQueueNums, tb.WriteQueueNums = max(q.Read, q.Write), q.Read, q.Write
		}
		tc.Brokers = append(tc.Brokers, tb)
	}
	return tc, left
}

// pluralize turns the format-1 scenario cfg built for the main topic into format 2, with
// every topic and member subscription the paste shows. ids are the members' client ids as
// read, index by index with cfg.Consumers (whose ids a scenario may have renamed). It returns
// what it still leaves out and the sentences the description adds.
func (g *Group) pluralize(cfg *cluster.Config, main *Topic, ids []string) (left []Said, notes []string) {
	var topics []pluralTopic
	byName := map[string]int{}
	add := func(t pluralTopic) {
		byName[t.name] = len(topics)
		topics = append(topics, t)
	}
	mainCfg, _ := topicLayout(main) // what it leaves out is said already, for the format-1 scenario
	mainCfg.Name = cfg.Topic
	add(pluralTopic{name: main.Name, cfg: mainCfg})
	for i := range g.Topics {
		t := &g.Topics[i]
		if t.Main || !plainTopic(t.Name) || len(t.Queues) == 0 {
			continue
		}
		if checkPlain(t.Name) != nil {
			left = append(left, say("left.topic", t.Name))
			continue
		}
		tc, l := topicLayout(t)
		left = append(left, l...)
		add(pluralTopic{name: t.Name, cfg: tc})
	}

	// Each member's subscriptions: its running info's, else the group's table, else every
	// topic read (the outputs that list a group's queues list only topics it subscribes).
	groupSubs := g.Subscriptions
	if len(groupSubs) == 0 {
		for _, t := range topics {
			groupSubs = append(groupSubs, Subscription{Topic: t.name, Expr: "*"})
		}
	}
	tags := map[string]map[string]bool{} // topic → the tags some member subscribes
	for i := range cfg.Consumers {
		subs := g.ClientSubs[ids[i]]
		if len(subs) == 0 {
			subs = groupSubs
		}
		var ms cluster.MembershipConfig
		ms.Group = cfg.Group
		for _, s := range subs {
			if !plainTopic(s.Topic) || slices.ContainsFunc(ms.Subscriptions, func(c cluster.SubscriptionConfig) bool { return c.Topic == s.Topic }) {
				continue
			}
			if checkPlain(s.Topic) != nil {
				left = append(left, say("left.subscription-name", ids[i], s.Topic))
				continue
			}
			if _, ok := byName[s.Topic]; !ok {
				// A topic only the running info names: its queues are not in the paste, so it
				// is laid out as the main topic's, and the description says so (inferred).
				tc := mainCfg
				tc.Name = s.Topic
				add(pluralTopic{name: s.Topic, cfg: tc, assumed: true})
			}
			sc := cluster.SubscriptionConfig{Topic: topics[byName[s.Topic]].cfg.Name}
			if e := normalExpr(s.Expr); e != "*" {
				parsed, err := cluster.ParseSubscriptions(sc.Topic + ":" + e)
				if err != nil {
					// An SQL92 expression or tags the scenario cannot name: every message.
					left = append(left, say("left.expr", ids[i], s.Topic, s.Expr))
				} else {
					sc.Tags = parsed[0].Tags
				}
			}
			for _, tag := range sc.Tags {
				if tags[sc.Topic] == nil {
					tags[sc.Topic] = map[string]bool{}
				}
				tags[sc.Topic][tag] = true
			}
			ms.Subscriptions = append(ms.Subscriptions, sc)
		}
		if len(ms.Subscriptions) == 0 {
			// Nothing it subscribes is known: it stays a member subscribing the main topic.
			ms.Subscriptions = []cluster.SubscriptionConfig{{Topic: mainCfg.Name}}
		}
		cfg.Consumers[i].Subscription = nil
		cfg.Consumers[i].Groups = []cluster.MembershipConfig{ms}
	}

	// The brokers every topic lives on, in the order first seen.
	known := map[string]bool{}
	for _, b := range cfg.Brokers {
		known[b.Name] = true
	}
	for _, t := range topics {
		for _, b := range t.cfg.Brokers {
			if !known[b.Name] {
				known[b.Name] = true
				cfg.Brokers = append(cfg.Brokers, cluster.BrokerConfig{Name: b.Name})
			}
		}
	}
	for i := range cfg.Brokers {
		cfg.Brokers[i] = cluster.BrokerConfig{Name: cfg.Brokers[i].Name}
	}

	// One producer per topic read (none for a topic assumed), its messages carrying the tags
	// the members subscribe in equal shares: the paste says nothing of producers.
	cfg.Producers = nil
	for _, t := range topics {
		cfg.Topics = append(cfg.Topics, t.cfg)
		if t.assumed {
			notes = append(notes, fmt.Sprintf("The paste shows no queues of %s: it is laid out as %s.", t.name, main.Name))
			continue
		}
		p := cluster.ProducerConfig{ID: fmt.Sprintf("p%d", len(cfg.Producers)+1), Rate: 100, Topic: t.cfg.Name}
		if ts := slices.Sorted(maps.Keys(tags[t.cfg.Name])); len(ts) > 0 {
			p.Tags = map[string]float64{}
			for _, tag := range ts {
				p.Tags[tag] = 1 / float64(len(ts))
			}
			notes = append(notes, fmt.Sprintf("%s's messages carry %s in equal shares.", p.ID, strings.Join(ts, ", ")))
		}
		cfg.Producers = append(cfg.Producers, p)
	}
	cfg.Groups = []cluster.GroupConfig{{Name: cfg.Group, Strategy: cfg.Strategy, MessageModel: cfg.MessageModel}}
	cfg.Topic, cfg.Group, cfg.MessageModel, cfg.Strategy = "", "", "", allocate.Choice{}
	return left, notes
}
