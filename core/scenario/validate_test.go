package scenario

import (
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
)

// valid is a scenario that passes every rule; each case below breaks one.
func valid() Scenario {
	return Scenario{
		Version: 1,
		Config: cluster.Config{
			Seed: 1, Topic: "TopicTest", Group: "GroupTest",
			Brokers:   []cluster.BrokerConfig{{Name: "broker-a", Queues: 4}, {Name: "broker-b", Queues: 4}},
			Consumers: []cluster.ConsumerConfig{{ID: "c1"}, {ID: "c2"}, {ID: "10.0.0.1@4012"}},
			Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 100}},
			Strategy:  allocate.Named("AVG"),
		},
		Until: 5 * Minute,
		Timeline: []Step{
			{At: 10 * Second, Command: cluster.Command{Type: "killConsumer", ID: "c1"}},
			{At: 20 * Second, Command: cluster.Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: intp(2000)}},
		},
	}
}

func boolp(b bool) *bool { return &b }

func step(at Duration, c cluster.Command) Step { return Step{At: at, Command: c} }

func TestValidScenariosPass(t *testing.T) {
	for name, s := range map[string]Scenario{
		"base":                         valid(),
		"zero until takes the default": func() Scenario { s := valid(); s.Until = 0; return s }(),
		"empty topic and group take the defaults": func() Scenario {
			s := valid()
			s.Topic, s.Group = "", ""
			return s
		}(),
		"real client id formats": func() Scenario {
			s := valid()
			s.Consumers = []cluster.ConsumerConfig{{ID: "192.168.0.3@12345#86234716500123"}, {ID: "10.0.0.1@DEFAULT@unitA"}, {ID: "fe80:0:0:0:0:0:0:1@DEFAULT"}}
			return s
		}(),
		"machine room broker names": func() Scenario {
			s := valid()
			s.Brokers = []cluster.BrokerConfig{{Name: "hz@broker-a", Queues: 4}, {Name: "sh@broker.b", Queues: 0}}
			s.Strategy, s.Params = allocate.Named("MACHINE_ROOM"), allocate.Params{ConsumerIDCs: []string{"hz"}}
			return s
		}(),
		"limits reached exactly": func() Scenario {
			s := valid()
			s.Brokers = brokerConfigs(64, 64)
			s.Consumers = consumerConfigs(consumerIDs(512))
			s.Producers = make([]cluster.ProducerConfig, 64)
			for i := range s.Producers {
				s.Producers[i] = cluster.ProducerConfig{ID: "p" + strconv.Itoa(i), Rate: MaxRate}
			}
			s.Until = MaxDuration
			s.Timeline = make([]Step, MaxSteps)
			for i := range s.Timeline {
				s.Timeline[i] = step(MaxDuration, cluster.Command{Type: "setLatencyFault", On: boolp(i%2 == 0)})
			}
			return s
		}(),
		"every command": func() Scenario {
			s := valid()
			s.Timeline = []Step{
				step(0, cluster.Command{Type: "addConsumer", ID: "c9", ConsumeRate: intp(500)}),
				step(0, cluster.Command{Type: "addConsumer", ID: "c10"}),
				step(1, cluster.Command{Type: "partitionConsumer", ID: "c1"}),
				step(1, cluster.Command{Type: "healConsumer", ID: "c1"}),
				step(1, cluster.Command{Type: "stopConsumer", ID: "c1"}),
				step(1, cluster.Command{Type: "restartConsumer", ID: "c1"}),
				step(1, cluster.Command{Type: "hangConsumer", ID: "c2"}),
				step(1, cluster.Command{Type: "resumeConsumer", ID: "c2"}),
				step(1, cluster.Command{Type: "killConsumer", ID: "c2"}),
				step(2, cluster.Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: intp(0)}),
				step(2, cluster.Command{Type: "killBroker", Broker: "broker-a"}),
				step(2, cluster.Command{Type: "restoreBroker", Broker: "broker-a"}),
				step(2, cluster.Command{Type: "addBroker", Broker: "broker-c", Queues: intp(8)}),
				step(2, cluster.Command{Type: "setQueues", Broker: "broker-c", Queues: intp(0)}),
				step(2, cluster.Command{Type: "addBroker", Broker: "broker-d"}), // the default queue count
				step(3, cluster.Command{Type: "setStrategy", Strategy: "CONSISTENT_HASH", Params: &allocate.Params{VirtualNodeCnt: intp(5)}}),
				step(3, cluster.Command{Type: "setStrategy", Strategy: "AVG_BY_CIRCLE"}),
				step(3, cluster.Command{Type: "setProducerRate", Rate: intp(0)}),
				step(3, cluster.Command{Type: "setProducerRate", Rate: intp(50), ID: "p1"}),
				step(3, cluster.Command{Type: "setLatencyFault", On: boolp(false)}),
				step(3, cluster.Command{Type: "setFaultTable", Table: "legacy-4x"}),
				step(3, cluster.Command{Type: "setLatencyTiers", LatencyMax: []int64{50, 1800}, NotAvailableDuration: []int64{0}, ID: "p1"}),
				step(3, cluster.Command{Type: "setProducerThreads", Threads: intp(8)}),
				step(3, cluster.Command{Type: "setSendMode", Mode: "async"}),
				step(3, cluster.Command{Type: "setSendMode", Mode: "sync", Threads: intp(2)}),
				step(3, cluster.Command{Type: "setMessageModel", Model: "BROADCASTING"}),
			}
			return s
		}(),
	} {
		if err := s.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v; want nil", name, err)
		}
	}
}

func TestValidateErrors(t *testing.T) {
	long := strings.Repeat("x", 65)
	for _, tc := range []struct {
		name   string
		change func(s *Scenario)
		want   string
	}{
		// version
		{"version zero", func(s *Scenario) { s.Version = 0 }, `version: 0 is not a version`},
		{"version newer", func(s *Scenario) { s.Version = 3 }, "scenario version 3 is newer than this LBScope understands (2)"},
		{"version negative", func(s *Scenario) { s.Version = -3 }, "version: -3; want 1 or 2"},

		// format 2: several topics and groups
		{"format 2 setting in a version 1 file", func(s *Scenario) { s.Topics = []cluster.TopicConfig{{Name: "T"}} }, `topics: a setting of scenario format 2; this file says "version": 1`},
		{"topic twice", func(s *Scenario) {
			s.Version, s.Topic = 2, ""
			s.Topics = []cluster.TopicConfig{{Name: "T"}, {Name: "T"}}
		}, `topics[1].name: "T" is also topics[0].name; names must be unique`},
		{"topic with topics", func(s *Scenario) { s.Version, s.Topics = 2, []cluster.TopicConfig{{Name: "T"}} }, "topic and topics: with topics, name every topic there"},
		{"strategy with groups", func(s *Scenario) {
			s.Version, s.Group, s.Strategy = 2, "", allocate.Named("AVG")
			s.Groups = []cluster.GroupConfig{{Name: "G"}}
		}, "groups: strategy, params and messageModel are each group's with groups"},
		{"membership of an unknown group", func(s *Scenario) {
			s.Version, s.Group, s.Strategy = 2, "", allocate.Choice{}
			s.Groups = []cluster.GroupConfig{{Name: "G"}}
			s.Consumers[0].Groups = []cluster.MembershipConfig{{Group: "H"}}
		}, `consumers[0].groups[0].group: "H" is no group of groups (G)`},
		{"subscription of an unknown topic", func(s *Scenario) {
			s.Version = 2
			s.Consumers[0].Groups = []cluster.MembershipConfig{{Group: "GroupTest", Subscriptions: []cluster.SubscriptionConfig{{Topic: "Nope"}}}}
		}, `consumers[0].groups[0].subscriptions[0].topic: "Nope" is no topic of the cluster (TopicTest)`},
		{"subscription of a retry topic", func(s *Scenario) {
			s.Version = 2
			s.Consumers[0].Groups = []cluster.MembershipConfig{{Group: "GroupTest", Subscriptions: []cluster.SubscriptionConfig{{Topic: "%RETRY%GroupTest"}}}}
		}, `is a group's own topic`},
		{"fail rate above 1", func(s *Scenario) {
			s.Version = 2
			s.Consumers[0].Groups = []cluster.MembershipConfig{{Group: "GroupTest", FailRate: 1.5}}
		}, "consumers[0].groups[0].failRate: 1.5; want 0…1"},
		{"producer of an unknown topic", func(s *Scenario) { s.Version, s.Producers[0].Topic = 2, "Nope" }, `producers[0].topic: "Nope" is no topic of the cluster (TopicTest)`},
		{"tag share above 1", func(s *Scenario) { s.Version, s.Producers[0].Tags = 2, map[string]float64{"A": 2} }, "producers[0].tags.A: 2; want 0…1"},
		{"autoscale min above max", func(s *Scenario) {
			s.Version, s.Group, s.Strategy = 2, "", allocate.Choice{}
			s.Groups = []cluster.GroupConfig{{Name: "G", Autoscale: &cluster.AutoscaleConfig{OutAbove: 10, Min: 5, Max: 2}}}
		}, "groups[0].autoscale: min 5, max 2, inBelow 0, outAbove 10; want min ≤ max and inBelow ≤ outAbove"},
		{"autoscale max above the limit", func(s *Scenario) {
			s.Version, s.Group, s.Strategy = 2, "", allocate.Choice{}
			s.Groups = []cluster.GroupConfig{{Name: "G", Autoscale: &cluster.AutoscaleConfig{OutAbove: 10, Max: 513}}}
		}, "groups[0].autoscale.max: 513; want 0…512"},

		// names
		{"topic charset", func(s *Scenario) { s.Topic = "Topic Test" }, `topic: "Topic Test" has ' '; allowed are letters, digits and % | _ -`},
		{"topic with a dot", func(s *Scenario) { s.Topic = "a.b" }, `topic: "a.b" has '.'`},
		// RocketMQ's client (Validators) allows topics of 127 characters and groups of 255.
		{"topic too long", func(s *Scenario) { s.Topic = strings.Repeat("x", 128) }, `topic: "xxxxxxxxxxxxxxxxxxxxxxxx"… is 128 characters long; the limit is 127`},
		{"group charset", func(s *Scenario) { s.Group = "grüppe" }, `group: "grüppe" has 'ü'`},
		{"very long name is shortened", func(s *Scenario) { s.Group = strings.Repeat("g", 256) }, `group: "gggggggggggggggggggggggg"… is 256 characters long; the limit is 255`},
		{"a million characters in a client id", func(s *Scenario) { s.Consumers[0].ID = strings.Repeat("c", 1000000) }, `consumers[0].id: "cccccccccccccccccccccccc"… is 1000000 bytes long; the limit is 64 characters`},

		// brokers
		{"no brokers", func(s *Scenario) { s.Brokers = nil }, "brokers: none; a topic needs at least 1 broker"},
		{"too many brokers", func(s *Scenario) { s.Brokers = brokerConfigs(65, 1) }, "brokers: 65 brokers; the limit is 64"},
		{"broker without name", func(s *Scenario) { s.Brokers[1].Name = "" }, "brokers[1].name: missing"},
		{"broker name charset", func(s *Scenario) { s.Brokers[1].Name = "broker#b" }, `brokers[1].name: "broker#b" has '#'; allowed are letters, digits and % | _ - @ .`},
		{"broker name too long", func(s *Scenario) { s.Brokers[0].Name = long }, "brokers[0].name: " + `"xxxxxxxxxxxxxxxxxxxxxxxx"… is 65 characters long; the limit is 64`},
		{"duplicate broker", func(s *Scenario) { s.Brokers[1].Name = "broker-a" }, `brokers[1].name: "broker-a" is also brokers[0].name; names must be unique`},
		{"negative queues", func(s *Scenario) { s.Brokers[0].Queues = -1 }, "brokers[0].queues: -1; want 0…4096"},
		{"too many queues on a broker", func(s *Scenario) { s.Brokers[1].Queues = 4097 }, "brokers[1].queues: 4097; want 0…4096"},
		{"too many queues in all", func(s *Scenario) { s.Brokers[0].Queues, s.Brokers[1].Queues = 4096, 1 }, "brokers: 4097 queues in all; the limit is 4096"},
		{"broker latency", func(s *Scenario) { s.Brokers[0].LatencyMs = 600001 }, "brokers[0].latencyMs: 600001; want 0…600000"},
		{"negative read queues", func(s *Scenario) { s.Brokers[0].ReadQueueNums = -2 }, "brokers[0].readQueueNums: -2; want 0…4096"},
		{"too many write queues", func(s *Scenario) { s.Brokers[1].WriteQueueNums = 5000 }, "brokers[1].writeQueueNums: 5000; want 0…4096"},
		{"write queues count in the total", func(s *Scenario) { s.Brokers[0].Queues, s.Brokers[1].WriteQueueNums = 4000, 97 }, "brokers: 4097 queues in all; the limit is 4096"},

		// consumers
		{"too many consumers", func(s *Scenario) { s.Consumers = consumerConfigs(consumerIDs(513)) }, "consumers: 513 consumers; the limit is 512"},
		{"consumer without id", func(s *Scenario) { s.Consumers[2].ID = "" }, "consumers[2].id: missing"},
		{"subscription without topic", func(s *Scenario) { s.Consumers[1].Subscription = &cluster.SubscriptionConfig{} }, "consumers[1].subscription.topic: missing"},
		{"subscription topic charset", func(s *Scenario) { s.Consumers[1].Subscription = &cluster.SubscriptionConfig{Topic: "a b"} }, `consumers[1].subscription.topic: "a b" has ' '; allowed are letters, digits and % | _ -`},
		{"consumer id charset", func(s *Scenario) { s.Consumers[2].ID = "a b" }, `consumers[2].id: "a b" has ' '; allowed are letters, digits and . @ # : _ % | -`},
		{"consumer id slash", func(s *Scenario) { s.Consumers[0].ID = "10.0.0.1/4012" }, `consumers[0].id: "10.0.0.1/4012" has '/'`},
		{"consumer id too long", func(s *Scenario) { s.Consumers[0].ID = long }, `consumers[0].id: "xxxxxxxxxxxxxxxxxxxxxxxx"… is 65 characters long; the limit is 64`},
		{"duplicate consumer", func(s *Scenario) { s.Consumers[2].ID = "c1" }, `consumers[2].id: "c1" is also consumers[0].id; ids must be unique`},
		{"consume rate", func(s *Scenario) { s.Consumers[1].ConsumeRate = 1000001 }, "consumers[1].consumeRate: 1000001; want 0…1000000"},

		// producers
		{"too many producers", func(s *Scenario) { s.Producers = make([]cluster.ProducerConfig, 65) }, "producers: 65 producers; the limit is 64"},
		{"producer without id", func(s *Scenario) { s.Producers[0].ID = "" }, "producers[0].id: missing"},
		{"producer id charset", func(s *Scenario) { s.Producers[0].ID = "p@1" }, `producers[0].id: "p@1" has '@'; allowed are letters, digits and % | _ -`},
		{"duplicate producer", func(s *Scenario) {
			s.Producers = append(s.Producers, cluster.ProducerConfig{ID: "p1", Rate: 5})
		}, `producers[1].id: "p1" is also producers[0].id; ids must be unique`},
		{"producer rate", func(s *Scenario) { s.Producers[0].Rate = 100001 }, "producers[0].rate: 100001; want 0…100000"},
		{"negative producer rate", func(s *Scenario) { s.Producers[0].Rate = -1 }, "producers[0].rate: -1; want 0…100000"},

		// strategy and its parameters
		{"unknown strategy", func(s *Scenario) { s.Strategy = allocate.Named("ROUND_ROBIN") }, `strategy: unknown strategy "ROUND_ROBIN" (want one of AVG, AVG_BY_CIRCLE`},
		{"unknown inner strategy", func(s *Scenario) { s.Strategy, s.Params.Inner = allocate.Named("MACHINE_ROOM_NEARBY"), "RANDOM" }, `strategy: unknown inner strategy "RANDOM"`},
		{"source syntax", func(s *Scenario) {
			s.Strategy = allocate.Choice{Name: "MINE", Source: "def allocate(g, c, qs, cs):\n    return [q for q in qs if]\n"}
		}, "strategy.source: mine.star:2:29: syntax error: "},
		{"source runtime error at load", func(s *Scenario) {
			s.Strategy = allocate.Choice{Name: "MINE", Source: "x = 1 // 0\ndef allocate(g, c, qs, cs):\n    return []\n"}
		}, "strategy.source: mine.star:1:7: floored division by zero"},
		{"source without allocate", func(s *Scenario) {
			s.Strategy = allocate.Choice{Name: "MINE", Source: "def select(qs, m, a):\n    return qs[0]\n"}
		}, "strategy.source: mine.star: the source defines no allocate"},
		{"source too large", func(s *Scenario) {
			s.Strategy = allocate.Choice{Name: "MINE", Source: "#" + strings.Repeat("x", 64<<10)}
		}, "strategy.source: 65537 bytes; the limit is 65536 (64 KiB)"},
		{"source's name", func(s *Scenario) { s.Strategy = allocate.Choice{Name: "my-avg", Source: "x = 1"} },
			`strategy.name: "my-avg": want upper case letters, digits and underscores`},
		{"source named as a built-in", func(s *Scenario) { s.Strategy = allocate.Choice{Name: "AVG", Source: "x = 1"} },
			"strategy.name: AVG is the name of a strategy LBScope has; give yours its own (e.g. AVG_PORT)"},
		{"source and a Go client", func(s *Scenario) {
			s.Strategy = allocate.Choice{Name: "MINE", Source: "def allocate(g, c, qs, cs):\n    return []\n"}
			s.Consumers[0].Client = "go"
		}, "consumers[0].client: go-2.1.2 cannot run strategy MINE: a strategy given with its source runs in the Java clients' rebalance here"},
		{"source in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setStrategy", Strategy: "MINE", Source: "def allocate(g, c, qs, cs):\n    return [\n"})
		}, "timeline[1].source: mine.star:3:1: syntax error: "},
		{"virtual nodes", func(s *Scenario) { s.Params.VirtualNodeCnt = intp(-1) }, "params.virtualNodeCnt: -1; want 0…1000"},
		{"inner virtual nodes", func(s *Scenario) { s.Params.InnerVirtualNodeCnt = intp(1001) }, "params.innerVirtualNodeCnt: 1001; want 0…1000"},
		{"too many rooms", func(s *Scenario) { s.Params.ConsumerIDCs = make([]string, 65) }, "params.consumeridcs: 65 rooms; the limit is 64"},
		{"bad room", func(s *Scenario) { s.Params.ConsumerIDCs = []string{"hz", "s h"} }, `params.consumeridcs[1]: "s h" has ' '`},
		{"config queue id", func(s *Scenario) {
			s.Params.MessageQueueList = []route.MessageQueue{{Topic: "TopicTest", BrokerName: "broker-a", QueueID: -1}}
		}, "params.messageQueueList[0].queueId: -1; want 0…4095"},
		{"config queue broker", func(s *Scenario) {
			s.Params.MessageQueueList = []route.MessageQueue{{Topic: "TopicTest"}}
		}, "params.messageQueueList[0].brokerName: missing"},

		{"producer client", func(s *Scenario) { s.Producers[0].Client = "go-1.0" }, `producers[0].client: unknown client profile "go-1.0"`},
		{"go producer tiers", func(s *Scenario) {
			s.Producers[0].Client, s.Producers[0].LatencyMax = "go", []int64{50}
		}, "producers[0]: latencyMax/notAvailableDuration: a go-2.1.2 producer has no latency fault tolerance"},

		// model, table, timing, until
		{"message model", func(s *Scenario) { s.MessageModel = "clustering" }, `messageModel: "clustering"; want CLUSTERING or BROADCASTING`},
		{"fault table", func(s *Scenario) { s.FaultTable = "legacy" }, `faultTable: "legacy"; want current or legacy-4x`},
		{"negative timing", func(s *Scenario) { s.Timing.RebalanceWaitInterval = -1 }, "timing.rebalanceWaitInterval: -1; want 0…86400000"},
		{"timing beyond a day", func(s *Scenario) { s.Timing.HeartbeatInterval = 86400001 }, "timing.heartbeatInterval: 86400001; want 0…86400000"},
		{"timing count", func(s *Scenario) { s.Timing.PullBatchSize = 1025 }, "timing.pullBatchSize: 1025; want 0…1024"},
		{"flow step", func(s *Scenario) { s.Timing.FlowStepMs = 1001 }, "timing.flowStepMs: 1001; want 0…1000"},
		{"until beyond a day", func(s *Scenario) { s.Until = MaxDuration + 1 }, "until: 24h0.001s; want 0s…24h"},
		{"negative until", func(s *Scenario) { s.Until = -1 }, "until: -1ms; want 0s…24h"},

		// timeline
		{"too many steps", func(s *Scenario) { s.Timeline = make([]Step, MaxSteps+1) }, "timeline: 2001 steps; the limit is 2000"},
		{"steps out of order", func(s *Scenario) { s.Timeline[1].At = 5 * Second }, "timeline[1].at: 5s is before timeline[0].at (10s); steps must be in time order"},
		{"step after until", func(s *Scenario) { s.Timeline[1].At = 6 * Minute }, "timeline[1].at: 6m is after until (5m); the step would never run"},
		{"step after the default until", func(s *Scenario) { s.Until = 0; s.Timeline[1].At = 6 * Minute }, "timeline[1].at: 6m is after until (5m)"},
		{"negative at", func(s *Scenario) { s.Timeline[0].At = -1 }, "timeline[0].at: -1ms; want 0s…24h"},
		{"step without type", func(s *Scenario) { s.Timeline[0].Type = "" }, "timeline[0].type: missing; want one of addBroker, addConsumer,"},
		{"unknown type near one", func(s *Scenario) { s.Timeline[0].Type = "killconsumer" }, `timeline[0].type: "killconsumer" is not a command; did you mean killConsumer?`},
		{"unknown type", func(s *Scenario) { s.Timeline[0].Type = "explode" }, `timeline[0].type: "explode" is not a command; want one of addBroker`},
		{"missing id", func(s *Scenario) { s.Timeline[0].ID = "" }, "timeline[0].id: missing; killConsumer needs id"},
		{"missing latency", func(s *Scenario) { s.Timeline[1].LatencyMs = nil }, "timeline[1].latencyMs: missing; slowBroker needs broker and latencyMs"},
		{"missing broker", func(s *Scenario) { s.Timeline[1].Broker = "" }, "timeline[1].broker: missing; slowBroker needs broker and latencyMs"},
		{"argument the type does not take", func(s *Scenario) { s.Timeline[0].Broker = "broker-a" }, "timeline[0].broker: killConsumer takes no broker (killConsumer needs id)"},
		{"params only with setStrategy", func(s *Scenario) { s.Timeline[0].Params = &allocate.Params{} }, "timeline[0].params: killConsumer takes no params"},
		{"latency range", func(s *Scenario) { s.Timeline[1].LatencyMs = intp(700000) }, "timeline[1].latencyMs: 700000; want 0…600000"},
		{"step consumer id charset", func(s *Scenario) { s.Timeline[0].ID = "c 1" }, `timeline[0].id: "c 1" has ' '; allowed are letters, digits and . @ # : _ % | -`},
		{"step broker charset", func(s *Scenario) { s.Timeline[1].Broker = "b/a" }, `timeline[1].broker: "b/a" has '/'`},
		{"producer id in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setProducerRate", Rate: intp(5), ID: "p:1"})
		}, `timeline[1].id: "p:1" has ':'; allowed are letters, digits and % | _ -`},
		{"producer rate in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setProducerRate", Rate: intp(100001)})
		}, "timeline[1].rate: 100001; want 0…100000"},
		{"consume rate in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "addConsumer", ID: "c9", ConsumeRate: intp(-1)})
		}, "timeline[1].consumeRate: -1; want 0…1000000"},
		{"queues in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setQueues", Broker: "broker-a", Queues: intp(4097)})
		}, "timeline[1].queues: 4097; want 0…4096"},
		{"latency fault without on", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setLatencyFault"})
		}, "timeline[1].on: missing; setLatencyFault needs on"},
		{"strategy in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setStrategy", Strategy: "FASTEST"})
		}, `timeline[1].strategy: unknown strategy "FASTEST"`},
		{"params in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setStrategy", Strategy: "CONSISTENT_HASH", Params: &allocate.Params{VirtualNodeCnt: intp(-5)}})
		}, "timeline[1].params.virtualNodeCnt: -5; want 0…1000"},
		{"table in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setFaultTable", Table: "4x"})
		}, `timeline[1].table: "4x"; want current or legacy-4x`},
		{"model in a step", func(s *Scenario) {
			s.Timeline[1] = step(20*Second, cluster.Command{Type: "setMessageModel", Model: "broadcast"})
		}, `timeline[1].model: "broadcast"; want CLUSTERING or BROADCASTING`},
		{"timeline adds too many brokers", func(s *Scenario) {
			s.Brokers = brokerConfigs(63, 1)
			s.Timeline = []Step{
				step(1, cluster.Command{Type: "addBroker", Broker: "x1", Queues: intp(1)}),
				step(2, cluster.Command{Type: "addBroker", Broker: "x2", Queues: intp(1)}),
			}
		}, "timeline[1].broker: the topic would have 65 brokers; the limit is 64"},
		{"timeline adds too many queues", func(s *Scenario) {
			s.Timeline = []Step{
				step(1, cluster.Command{Type: "addBroker", Broker: "broker-c", Queues: intp(4000)}),
				step(2, cluster.Command{Type: "setQueues", Broker: "broker-a", Queues: intp(100)}),
			}
		}, "timeline[1].queues: the topic would have 4104 queues in all; the limit is 4096"},
		{"timeline adds too many consumers", func(s *Scenario) {
			s.Consumers = consumerConfigs(consumerIDs(512))
			s.Timeline = []Step{
				step(1, cluster.Command{Type: "addConsumer", ID: "c1"}), // already counted
				step(2, cluster.Command{Type: "addConsumer", ID: "c513"}),
			}
		}, "timeline[1].id: the group would have 513 consumers; the limit is 512"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := valid()
			tc.change(&s)
			err := s.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Validate() = %v; want an error containing %q", err, tc.want)
			}
		})
	}
}

// The rules hold for every command the engine lists: each type has a readable "needs" text
// and a valid example of its command-line form.
func TestEveryCommandTypeIsKnown(t *testing.T) {
	for _, typ := range CommandNames() {
		spec, _ := cluster.Lookup(typ)
		for _, a := range spec.Args {
			if _, ok := cluster.CommandField(cluster.Command{}, a.Name); !ok {
				t.Errorf("%s takes %q, which is no JSON field of cluster.Command", typ, a.Name)
			}
		}
		if _, err := ParseAt(ExampleAt(typ)); err != nil && !strings.Contains(ExampleAt(typ), "[") {
			t.Errorf("%s: its example %s does not parse: %v", typ, ExampleAt(typ), err)
		}
	}
}
