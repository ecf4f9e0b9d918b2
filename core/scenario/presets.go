package scenario

import (
	"maps"
	"slices"
	"strconv"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
)

// Presets returns the built-in starting points by name: "small", "default", "large" and the
// incidents (incidents.go). Each call builds fresh values, so callers may change them.
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
