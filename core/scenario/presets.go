package scenario

import (
	"maps"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
)

// Presets returns the built-in starting points by name: "small", "default", "large", "groups"
// (two topics, two groups), "autoscale" (an autoscaled group) and the incidents
// (incidents.go). Each call builds fresh values, so callers may change them.
func Presets() map[string]Scenario {
	m := map[string]Scenario{
		"small": preset("Small cluster",
			"Two brokers with four queues each, three consumers and one producer at 100 msg/s: "+
				"small enough to follow every queue by eye.",
			2, 4, 3, 100),
		"default": preset("Default cluster",
			"Four brokers with eight queues each, four consumers and one producer at 200 msg/s from two sending threads.",
			4, 8, 4, 200),
		"large": preset("Large cluster",
			"Sixteen brokers with sixteen queues each (256 queues), 64 consumers and one producer "+
				"at 2000 msg/s from 16 sending threads: rebalancing at scale.",
			16, 16, 64, 2000),
		"groups":    groupsPreset(),
		"autoscale": autoscalePreset(),
	}
	maps.Copy(m, Incidents())
	return m
}

// PresetNames lists the presets' names, sorted.
func PresetNames() []string {
	return slices.Sorted(maps.Keys(Presets()))
}

func preset(title, description string, brokers, queues, consumers, rate int) Scenario {
	return Scenario{
		Version:     Version,
		Title:       title,
		Description: description,
		Config: cluster.Config{
			Seed:         1,
			Topic:        DefaultTopic,
			Group:        DefaultGroup,
			Brokers:      brokerConfigs(brokers, queues),
			Consumers:    consumerConfigs(consumerIDs(consumers)),
			Producers:    []cluster.ProducerConfig{{ID: "p1", Rate: rate, Threads: presetThreads(rate)}},
			Strategy:     allocate.Named(cluster.DefaultOf("strategy")),
			MessageModel: cluster.DefaultOf("messageModel"),
			FaultTable:   cluster.DefaultOf("faultTable"),
		},
		Until: DefaultUntil,
	}
}

// groupsPreset is two topics and two groups sharing one of them, a process a member of both:
// which member pulls which queue of which topic, for which group (spec §3.14).
func groupsPreset() Scenario {
	both := []cluster.SubscriptionConfig{{Topic: "TopicOrder"}, {Topic: "TopicPay"}}
	pay := []cluster.SubscriptionConfig{{Topic: "TopicPay"}}
	member := func(id string, ms ...cluster.MembershipConfig) cluster.ConsumerConfig {
		return cluster.ConsumerConfig{ID: id, Groups: ms}
	}
	return Scenario{
		Version: Version2,
		Title:   "Two topics, two groups",
		Description: "GID_ORDER (c1, c2, c3) subscribes TopicOrder and TopicPay; GID_AUDIT (c3, c4) subscribes TopicPay alone. " +
			"Each group balances TopicPay on its own, over its own members, and keeps its own offsets: every message of TopicPay " +
			"is consumed once by each group. c3 is one process in both groups. Each group also subscribes its retry topic, one " +
			"queue per broker; c2's listener fails 2% of its messages, which come back through %RETRY%GID_ORDER. The tabs " +
			"over the canvas show one group at a time.",
		Config: cluster.Config{
			Seed:    1,
			Topics:  []cluster.TopicConfig{{Name: "TopicOrder", Queues: 4}, {Name: "TopicPay", Queues: 2}},
			Groups:  []cluster.GroupConfig{{Name: "GID_ORDER", Strategy: allocate.Choice{Name: "AVG"}}, {Name: "GID_AUDIT", Strategy: allocate.Choice{Name: "AVG"}}},
			Brokers: brokerConfigs(2, 4),
			Consumers: []cluster.ConsumerConfig{
				member("c1", cluster.MembershipConfig{Group: "GID_ORDER", Subscriptions: both}),
				member("c2", cluster.MembershipConfig{Group: "GID_ORDER", Subscriptions: both, FailRate: 0.02}),
				member("c3", cluster.MembershipConfig{Group: "GID_ORDER", Subscriptions: both}, cluster.MembershipConfig{Group: "GID_AUDIT", Subscriptions: pay}),
				member("c4", cluster.MembershipConfig{Group: "GID_AUDIT", Subscriptions: pay}),
			},
			Producers: []cluster.ProducerConfig{
				{ID: "p1", Rate: 400, Threads: presetThreads(400), Topic: "TopicOrder"},
				{ID: "p2", Rate: 200, Threads: presetThreads(200), Topic: "TopicPay"},
			},
			FaultTable: cluster.DefaultOf("faultTable"),
		},
		Until: DefaultUntil,
	}
}

// autoscalePreset is a group scaled on its lag by a rule too tight for it: every step is a
// rebalance, and the steps come every few periods (a rebalance storm).
func autoscalePreset() Scenario {
	return Scenario{
		Version: Version2,
		Title:   "An autoscaled group",
		Description: "p1 sends 3000 messages/s to 8 queues; each member consumes 1000/s. GID_FEED's autoscaler reads the " +
			"group's lag every 15 s and steps at once, with no cool-down: above 2000 it starts a member (a1, a2, …), below 1000 " +
			"it stops one, keeping 2 to 6. The rule is too tight: it starts and stops members every few periods, and each " +
			"step is a join or a leave, a rebalance of the whole group — a rebalance storm. The timeline marks each step.",
		Config: cluster.Config{
			Seed:   1,
			Topics: []cluster.TopicConfig{{Name: "TopicFeed", Queues: 4}},
			Groups: []cluster.GroupConfig{{Name: "GID_FEED", Strategy: allocate.Choice{Name: "AVG"},
				Autoscale: &cluster.AutoscaleConfig{OutAbove: 2000, InBelow: 1000, Min: 2, Max: 6, Prefix: "a"}}},
			Brokers:    brokerConfigs(2, 4),
			Consumers:  []cluster.ConsumerConfig{{ID: "c1", ConsumeRate: 1000}, {ID: "c2", ConsumeRate: 1000}},
			Producers:  []cluster.ProducerConfig{{ID: "p1", Rate: 3000, Threads: presetThreads(3000)}},
			FaultTable: cluster.DefaultOf("faultTable"),
		},
		Until: DefaultUntil,
	}
}

// presetThreads is enough sending threads for a preset's rate: each thread sends at most
// 125 messages/s, one every 8 ms, which a healthy broker's 3–6 ms sends keep up with (each
// send blocks its thread, spec §2.7), up to the limit of threads.
func presetThreads(rate int) int {
	return min(max(1, (rate+124)/125), cluster.MaxSendThreads)
}

// Names used when a scenario is built from a count rather than written out: the field
// table's defaults of topic and group.
const (
	DefaultTopic = "TopicTest" // RocketMQ's quick-start names
	DefaultGroup = "GroupTest"
)

// BrokerNames returns n broker names whose Java string order is their creation order, so
// that the topic's queues sort as the brokers were listed: broker-a … broker-z for up to 26
// brokers, broker-01 … broker-64 beyond (broker-27 would sort before broker-a).
func BrokerNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		if n <= 26 {
			names[i] = "broker-" + string(rune('a'+i))
			continue
		}
		names[i] = "broker-" + pad2(i+1)
	}
	return names
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

func brokerConfigs(n, queues int) []cluster.BrokerConfig {
	out := make([]cluster.BrokerConfig, n)
	for i, name := range BrokerNames(n) {
		out[i] = cluster.BrokerConfig{Name: name, Queues: queues}
	}
	return out
}

// consumerIDs is c1 … cN, as the allocate command names a counted group.
func consumerIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = "c" + strconv.Itoa(i+1)
	}
	return ids
}

func consumerConfigs(ids []string) []cluster.ConsumerConfig {
	out := make([]cluster.ConsumerConfig, len(ids))
	for i, id := range ids {
		out[i] = cluster.ConsumerConfig{ID: id}
	}
	return out
}
