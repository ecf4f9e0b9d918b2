package lesson

import (
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// popQueue is the POP queue of broker-a a member pops (spec §8.2.2).
const popQueue = "broker-a:-1"

var popFourth = &Lesson{
	ID:    "pop-fourth-consumer",
	Title: Text{"POP: a fourth consumer on three queues works", "POP：三个队列上的第四个消费者也能干活"},
	Goal: Text{"See that a queue-level balancer leaves a fourth consumer on three queues idle, that POP (message-level balancing on the broker) gives it messages, and what happens to messages a killed POP consumer held.",
		"观察按队列负载均衡时，三个队列上的第四个消费者闲着；POP（Broker 上的消息级负载均衡）却让它拿到消息；以及被杀掉的 POP 消费者手里的消息会怎样。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: POP", "seed": 1,
		"topics": [{"name": "TopicPop", "queues": 3}], "groups": [{"name": "GID_POP"}],
		"brokers": [{"name": "broker-a"}],
		"consumers": [{"id": "c1", "clientRebalance": false, "consumeRate": 100}, {"id": "c2", "clientRebalance": false, "consumeRate": 20},
			{"id": "c3", "clientRebalance": false, "consumeRate": 100}],
		"producers": [{"id": "p1", "rate": 250}]}`),
	Steps: []Step{{
		Prompt: Text{"c1, c2 and c3 let the brokers allocate (clientRebalance false), in PULL mode. Add a fourth consumer and wait until the group settles.",
			"c1、c2、c3 把分配交给 Broker（clientRebalance false），处于 PULL 模式。添加第四个消费者，等待消费组稳定。"},
		Explain: Text{"Three queues, four members: AVG gives each queue to one member, and the fourth holds nothing. In PULL mode a queue is pulled by one member at a time, so more members than queues means idle members (spec §4.1, §8.2.2).",
			"三个队列、四个成员：AVG 把每个队列分给一个成员，第四个什么也拿不到。PULL 模式下一个队列同一时刻只由一个成员拉取，成员多于队列就会有人闲着（spec §4.1、§8.2.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			added := newConsumers(c.First, c.Now)
			if len(added) == 0 || !settled(c.Now) {
				return false
			}
			k := consumer(c.Now, added[0])
			return k != nil && len(k.Queues) == 0
		},
	}, {
		Prompt: Text{"Switch the group to POP (Set consume mode: POP), and watch the fourth consumer.",
			"把消费组切换为 POP（“设置消费模式”：POP），观察第四个消费者。"},
		Explain: Text{"At their next round the brokers answer every member broker-a:-1: a share of every queue. Each pop takes up to 32 messages from whichever queue has them and makes them invisible for 60 s until acked; the group's offset moves at pop time. All four consume, and nobody owns a queue (spec §8.2.2, §8.3.2, §8.3.3).",
			"下一轮 Broker 给每个成员的答复都是 broker-a:-1：所有队列的一份。每次 Pop 从有消息的队列取最多 32 条，并让它们在确认前 60 秒内不可见；消费位点在 Pop 时就前移。四个成员都在消费，没有谁独占队列（spec §8.2.2、§8.3.2、§8.3.3）。"},
		Acts: true,
		Check: func(c *Context) bool {
			k, was, consumed := newcomer(c)
			return consumed && was != nil && slices.Contains(k.Queues, popQueue)
		},
	}, {
		Prompt: Text{"c2 is slow: it holds messages it popped and has not consumed. Kill c2, then play on (10× helps) for about a minute.",
			"c2 很慢：它手里有已 Pop 但还没消费的消息。杀掉 c2，然后继续播放约一分钟（10 倍速更快）。"},
		Explain: Text{"Nothing is reassigned: the others keep popping newer messages. c2's messages stay invisible until 60 s after their pop; the broker's revive service then puts them on %RETRY%GID_POP_TopicPop with reconsume count 1, 2 to 3 s later, and the others pop them — out of their queue's order. A message c2 had consumed but not acked would come twice (spec §8.3.7, §8.3.10).",
			"不会重新分配：其他成员继续 Pop 更新的消息。c2 的消息在 Pop 后 60 秒内一直不可见；之后 Broker 的复活服务在 2 到 3 秒内把它们放到 %RETRY%GID_POP_TopicPop，重试次数为 1，再由其他成员 Pop 走——已不再按原队列顺序。c2 已消费但未确认的消息会被再投递一次（spec §8.3.7、§8.3.10）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return hasStatus(c.Now, "c2", cluster.StatusKilled) && count(c.Events, cluster.CauseRevive) > 0
		},
	}},
}
