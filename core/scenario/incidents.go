package scenario

import (
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
)

// Words is a text in English and Chinese.
type Words struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// Cite is a public report: an issue or pull request of a GitHub repository.
type Cite struct {
	Repo   string `json:"repo"`   // "apache/rocketmq"
	Number int    `json:"number"` // its issue or pull request number
}

// Label is the report as people write it: apache/rocketmq#2760.
func (c Cite) Label() string { return c.Repo + "#" + strconv.Itoa(c.Number) }

// URL is the report's page (GitHub sends /issues/N on to /pull/N for a pull request).
func (c Cite) URL() string {
	return "https://github.com/" + c.Repo + "/issues/" + strconv.Itoa(c.Number)
}

// Incident is a one-click reproduction of a problem RocketMQ users reported: a preset named
// "incident-…" with its title and text in both languages and the reports it cites. The page's
// gallery, the CLI's --preset list and the presets all read Registry, so an entry added
// there appears everywhere with no other edit.
type Incident struct {
	Name  string
	Title Words
	Text  Words // what to watch, without the citations (they are Cites)
	Cites []Cite
	build func() Scenario
}

// Scenario is the incident's scenario: its English title, and its text followed by the
// reports it cites as its description.
func (i Incident) Scenario() Scenario {
	s := i.build()
	s.Title = i.Title.En
	s.Description = i.Text.En + " (" + CiteText(i.Cites) + ")"
	return s
}

// CiteText lists reports compactly, as issue threads do: apache/rocketmq#2760, #1547.
func CiteText(cites []Cite) string {
	var b strings.Builder
	repo := ""
	for k, c := range cites {
		if k > 0 {
			b.WriteString(", ")
		}
		if c.Repo == repo {
			b.WriteString("#" + strconv.Itoa(c.Number))
		} else {
			b.WriteString(c.Label())
		}
		repo = c.Repo
	}
	return b.String()
}

// Incidents returns the incidents' scenarios by name (Presets holds them too).
func Incidents() map[string]Scenario {
	m := map[string]Scenario{}
	for _, i := range Registry() {
		m[i.Name] = i.Scenario()
	}
	return m
}

// IncidentNames lists the incidents' names in the registry's order.
func IncidentNames() []string {
	var names []string
	for _, i := range Registry() {
		names = append(names, i.Name)
	}
	return names
}

// Registry is every incident, in the order the gallery shows them.
func Registry() []Incident {
	return []Incident{
		{
			Name:  "incident-same-client-id",
			Title: Words{"Two containers, one client id", "两个容器，同一个客户端 ID"},
			Text: Words{
				"Containers with the same IP and PID build the same client id. " +
					"At 30 s the consumer 172.17.0.2@1 loses its network and a new process with the same id " +
					"starts at 31 s: the broker lists the id twice until the old connection expires (120 s after " +
					"its last heartbeat). Meanwhile both copies take the first block of queues and the next block " +
					"is pulled by nobody. (Containers that really share an id stay like this for ever; the " +
					"simulation keeps consumer ids unique, so it shows the duplicate for as long as the broker " +
					"lists it.)",
				"IP 和 PID 相同的容器会生成相同的客户端 ID。30 秒时消费者 172.17.0.2@1 断网，31 秒时一个同 ID 的新进程启动：" +
					"在旧连接过期之前（最后一次心跳后 120 秒），Broker 把这个 ID 列出两次。其间两个副本都拿走第一批队列，" +
					"下一批队列无人拉取。（真正共用一个 ID 的容器会一直如此；模拟中消费者 ID 保持唯一，" +
					"所以只在 Broker 列出重复 ID 的期间展示它。）",
			},
			Cites: []Cite{{"apache/rocketmq", 2760}, {"apache/rocketmq", 1547}},
			build: func() Scenario {
				s := incident(2, 4, []string{"172.17.0.2@1", "172.17.0.3@1", "172.17.0.4@1"},
					[]Step{
						{At: 30 * Second, Command: cluster.Command{Type: "partitionConsumer", ID: "172.17.0.2@1"}},
						{At: 31 * Second, Command: cluster.Command{Type: "restartConsumer", ID: "172.17.0.2@1"}},
					})
				// A container's process is PID 1 every time, and a client before 4.9.0 adds no
				// nanoTime (spec §1.2, §7.1): the restarted process builds the very same id, as
				// a fixed name does.
				for i := range s.Consumers {
					s.Consumers[i].FixedInstanceName = true
				}
				return s
			},
		},
		{
			Name:  "incident-java-and-go-consistent-hash",
			Title: Words{"Java and Go consumers under CONSISTENT_HASH", "CONSISTENT_HASH 下的 Java 与 Go 消费者"},
			Text: Words{
				"Java and Go consumers in one group under CONSISTENT_HASH double some queues and leave others to " +
					"nobody. Two Java consumers and two Go consumers (rocketmq-client-go v2.1.2) share 16 queues; " +
					"each client builds its own ring from the same ids, Java with MD5 of \"<id>-<k>\", Go with CRC-32 " +
					"of \"<k><id>\", so their shares overlap and leave gaps, and every round computes the same " +
					"disagreement again. At 60 s a Go consumer stops: the doubled and orphaned queues move, but do " +
					"not go away.",
				"同一消费组中的 Java 与 Go 消费者在 CONSISTENT_HASH 下，有的队列被拉取两次，有的无人拉取。两个 Java 消费者和" +
					"两个 Go 消费者（rocketmq-client-go v2.1.2）分享 16 个队列；每种客户端都用同样的 ID 构建自己的哈希环，Java 用 " +
					"MD5 计算 \"<id>-<k>\"，Go 用 CRC-32 计算 \"<k><id>\"，于是各自的份额相互重叠又留下空档，而且每一轮都会" +
					"再次算出同样的分歧。60 秒时一个 Go 消费者停止：被重复拉取和无人拉取的队列换了位置，但不会消失。",
			},
			Cites: []Cite{{"apache/rocketmq-client-go", 419}},
			build: func() Scenario {
				// Java and Go members each compute their share by their own client's ring
				// (spec §4.3, §9.1.3); at 60 s a Go member stops.
				s := incident(2, 8, []string{"10.0.0.1@4012#81902731", "10.0.0.2@4013", "10.0.0.3@4011#77312055", "10.0.0.4@4015"},
					[]Step{{At: 60 * Second, Command: cluster.Command{Type: "stopConsumer", ID: "10.0.0.4@4015"}}})
				s.Strategy = allocate.Named("CONSISTENT_HASH")
				for i, client := range []string{"java", "go-2.1.2", "java", "go-2.1.2"} {
					s.Consumers[i].Client = client
				}
				return s
			},
		},
		{
			Name:  "incident-go-containers-same-ip-pid",
			Title: Words{"Go consumers in containers: one IP@PID twice", "容器中的 Go 消费者：同一个 IP@PID 出现两次"},
			Text: Words{
				"\"Load balancing is all routed to the first consumer\": a Go consumer's id is IP@PID, and a " +
					"container's process is PID 1. Three Go consumers run in containers with host networking. At 30 s " +
					"the host of 10.0.1.1@1 loses its network and a replacement container starts on it at 31 s: same " +
					"IP, PID 1 again, so the same id, with nothing configured. The brokers list 10.0.1.1@1 twice until " +
					"the old connection expires, 120 s after its last heartbeat; rocketmq-client-go's strategy takes " +
					"the first position of its id, so the new process computes the first block and the block of the " +
					"second copy is pulled by nobody. (Containers that really share an id stay like this for ever; " +
					"the simulation keeps consumer ids unique, so it shows the duplicate for as long as the brokers " +
					"list it.)",
				"“负载均衡全部落到第一个消费者上”：Go 消费者的 ID 是 IP@PID，而容器里的进程是 PID 1。三个 Go 消费者运行在使用主机" +
					"网络的容器里。30 秒时 10.0.1.1@1 所在主机断网，31 秒时在这台主机上启动一个替代容器：IP 相同，又是 PID 1，于是 ID " +
					"也相同，无需任何配置。在旧连接过期之前（最后一次心跳后 120 秒），Broker 把 10.0.1.1@1 列出两次；" +
					"rocketmq-client-go 的分配策略取该 ID 第一次出现的位置，于是新进程算出第一段队列，第二个副本那一段无人拉取。" +
					"（真正共用一个 ID 的容器会一直如此；模拟中消费者 ID 保持唯一，所以只在 Broker 列出重复 ID 的期间展示它。）",
			},
			Cites: []Cite{{"apache/rocketmq-client-go", 536}, {"apache/rocketmq", 2760}},
			build: func() Scenario {
				// rocketmq-client-go's id is IP@PID with no setting that changes it (spec
				// §9.1.2): a replacement container on the same host's network is the same id
				// without a fixed name.
				s := incident(2, 4, []string{"10.0.1.1@1", "10.0.1.2@1", "10.0.1.3@1"},
					[]Step{
						{At: 30 * Second, Command: cluster.Command{Type: "partitionConsumer", ID: "10.0.1.1@1"}},
						{At: 31 * Second, Command: cluster.Command{Type: "restartConsumer", ID: "10.0.1.1@1"}},
					})
				for i := range s.Consumers {
					s.Consumers[i].Client = "go-2.1.2"
				}
				return s
			},
		},
		{
			Name:  "incident-more-consumers-than-queues",
			Title: Words{"More consumers than queues", "消费者多于队列"},
			Text: Words{
				"The most common question about AVG: six consumers share a topic with four queues, so two " +
					"consumers pull nothing and only stand by. Kill one of the busy ones and watch a standby take its queue.",
				"关于 AVG 最常见的问题：六个消费者共享一个只有四个队列的主题，于是两个消费者什么也拉不到，只是待命。" +
					"杀掉一个忙碌的消费者，看待命的消费者接过它的队列。",
			},
			Cites: []Cite{{"apache/rocketmq", 1812}},
			build: func() Scenario {
				return incident(1, 4, []string{"c1", "c2", "c3", "c4", "c5", "c6"}, nil)
			},
		},
		{
			Name:  "incident-broker-restart",
			Title: Words{"A broker restarts", "Broker 重启"},
			Text: Words{
				"After a broker restart some queues had no consumer. broker-b goes down at 60 s and comes back " +
					"at 150 s: watch its queues leave the allocation and return, and how long each consumer takes " +
					"to notice (route polling every 30 s, rebalancing every 20 s).",
				"Broker 重启后，部分队列没有消费者。broker-b 在 60 秒时宕机、150 秒时恢复：看它的队列离开分配又回来，" +
					"以及每个消费者要多久才发现（每 30 秒拉取一次路由，每 20 秒重新平衡一次）。",
			},
			Cites: []Cite{{"apache/rocketmq", 9830}},
			build: func() Scenario {
				return incident(2, 4, []string{"c1", "c2", "c3"}, []Step{
					{At: 60 * Second, Command: cluster.Command{Type: "killBroker", Broker: "broker-b"}},
					{At: 150 * Second, Command: cluster.Command{Type: "restoreBroker", Broker: "broker-b"}},
				})
			},
		},
		{
			Name:  "incident-read-more-than-write",
			Title: Words{"More read queues than write queues", "读队列多于写队列"},
			Text: Words{
				"Each broker has 4 read queues and 2 write queues (updateTopic -r 4 -w 2, the first step of " +
					"shrinking a topic). Producers publish to write queues only, consumers rebalance over read " +
					"queues: queues 2 and 3 of each broker are allocated and pulled but never receive a message, " +
					"so their owners idle while the others work.",
				"每个 Broker 有 4 个读队列、2 个写队列（updateTopic -r 4 -w 2，缩容主题的第一步）。生产者只向写队列发送，" +
					"消费者按读队列重新平衡：每个 Broker 的 2 号和 3 号队列被分配、被拉取，却永远收不到消息，" +
					"它们的持有者空闲，其他消费者在忙。",
			},
			Cites: []Cite{{"alibaba/rocketmq", 295}, {"apache/rocketmq", 1296}},
			build: func() Scenario {
				s := incident(2, 4, []string{"c1", "c2", "c3", "c4"}, nil)
				for i := range s.Brokers {
					s.Brokers[i].WriteQueueNums = 2
				}
				return s
			},
		},
		{
			Name:  "incident-write-more-than-read",
			Title: Words{"More write queues than read queues", "写队列多于读队列"},
			Text: Words{
				"Each broker has 4 write queues and 2 read queues (updateTopic -r 2 -w 4). Producers spread " +
					"messages over all 8 write queues, but consumers rebalance over the 4 read queues only: " +
					"queues 2 and 3 of each broker fill up and nobody reads them. The run counts those messages " +
					"as unread.",
				"每个 Broker 有 4 个写队列、2 个读队列（updateTopic -r 2 -w 4）。生产者把消息分散到全部 8 个写队列，" +
					"消费者却只按 4 个读队列重新平衡：每个 Broker 的 2 号和 3 号队列不断堆积，无人读取。" +
					"运行结果把这些消息计为未读。",
			},
			Cites: []Cite{{"apache/rocketmq", 1465}, {"alibaba/rocketmq", 204}},
			build: func() Scenario {
				s := incident(2, 4, []string{"c1", "c2"}, nil)
				for i := range s.Brokers {
					s.Brokers[i].ReadQueueNums = 2
				}
				return s
			},
		},
		{
			Name:  "incident-different-subscriptions",
			Title: Words{"One group, different subscriptions", "同一消费组，订阅不同"},
			Text: Words{
				"Four members share one group, but c3 subscribes OrderTopic instead of TopicTest. The others " +
					"still count c3 when they divide TopicTest's queues, and c3 does not take its share, so " +
					"broker-b:0 and broker-b:1 are pulled by nobody. Each heartbeat of c3 replaces the group's " +
					"subscription on the brokers and the next heartbeat of another member puts it back: every " +
					"flip notifies the group, and pulls between them are refused.",
				"四个成员属于同一个消费组，但 c3 订阅的是 OrderTopic 而不是 TopicTest。其他成员在划分 TopicTest 的队列时" +
					"仍然把 c3 算在内，而 c3 不会取走自己那一份，所以 broker-b:0 和 broker-b:1 无人拉取。c3 的每次心跳都会" +
					"替换 Broker 上该消费组的订阅，其他成员的下一次心跳又把它换回来：每次翻转都会通知消费组，" +
					"两次翻转之间的拉取会被拒绝。",
			},
			Cites: []Cite{{"apache/rocketmq", 92}},
			build: func() Scenario {
				s := incident(2, 4, []string{"c1", "c2", "c3", "c4"}, nil)
				s.Consumers[2].Subscription = &cluster.SubscriptionConfig{Topic: "OrderTopic"}
				return s
			},
		},
	}
}

// IncidentByName returns the incident of that name.
func IncidentByName(name string) (Incident, bool) {
	reg := Registry()
	k := slices.IndexFunc(reg, func(i Incident) bool { return i.Name == name })
	if k < 0 {
		return Incident{}, false
	}
	return reg[k], true
}

func incident(brokers, queues int, consumers []string, timeline []Step) Scenario {
	return Scenario{
		Version: Version,
		Config: cluster.Config{
			Seed:         1,
			Topic:        DefaultTopic,
			Group:        DefaultGroup,
			Brokers:      brokerConfigs(brokers, queues),
			Consumers:    consumerConfigs(consumers),
			Producers:    []cluster.ProducerConfig{{ID: "p1", Rate: 100}},
			Strategy:     allocate.Named("AVG"),
			MessageModel: cluster.Clustering,
			FaultTable:   fault.TableCurrent,
		},
		Until:    DefaultUntil,
		Timeline: timeline,
	}
}
