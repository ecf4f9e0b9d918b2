package lesson

import (
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// popTopic is the topic of the popShareQueueNum lesson, and popRetryTopic the POP retry topic
// its revived messages go to (spec §8.3.7).
const (
	popTopic      = "TopicPop"
	popRetryTopic = "%RETRY%GID_POP_TopicPop"
)

// popAll is what a member holds of popTopic when it pops every queue: one (topic, broker, −1)
// per broker (spec §8.2.2).
var popAll = []string{"broker-a:-1", "broker-b:-1"}

// popsReal says member id pops n real queues of popTopic (no (topic, broker, −1)).
func popsReal(s cluster.Snapshot, id string, n int) bool {
	qs := held(s, id, popTopic)
	return len(qs) == n && !slices.ContainsFunc(qs, func(q string) bool { return slices.Contains(popAll, q) })
}

// everyQueuePoppedTwice says every queue of popTopic is popped by exactly two running
// members: popShareQueueNum 1 in range (spec §8.2.2).
func everyQueuePoppedTwice(s cluster.Snapshot) bool {
	n := 0
	for _, q := range s.Queues {
		if q.Topic != popTopic {
			continue
		}
		n++
		if len(q.Owners) != 2 || !running(s, q.Owners[0]) || !running(s, q.Owners[1]) {
			return false
		}
	}
	return n > 0
}

var popShare = &Lesson{
	ID:    "pop-share-queue-num",
	Title: Text{"popShareQueueNum and what a join costs", "popShareQueueNum 与一次加入的代价"},
	Goal: Text{"See that a POP group with popShareQueueNum k in range (0 < k < members − 1) gives each member real queues, its own AVG block and the next k members', so that a join moves queues and what the members had popped from the queues they lose comes back a minute later; and that with the default (−1) a join changes nothing.",
		"观察 POP 消费组在 popShareQueueNum k 处于有效范围（0 < k < 成员数 − 1）时，每个成员拿到的是真实队列——自己的 AVG 分块加上后面 k 个成员的分块；于是成员加入会让队列换手，成员从失去的队列里 Pop 到的消息要一分钟后才回来。而在默认值（−1）下，成员加入什么也不改变。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: popShareQueueNum and a join", "seed": 1,
		"topics": [{"name": "TopicPop", "queues": 4}],
		"groups": [{"name": "GID_POP", "consumeMode": "POP", "popShareQueueNum": 1}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}],
		"consumers": [{"id": "c1", "clientRebalance": false, "consumeRate": 100}, {"id": "c2", "clientRebalance": false, "consumeRate": 30},
			{"id": "c3", "clientRebalance": false, "consumeRate": 100}],
		"producers": [{"id": "p1", "rate": 200}]}`),
	Steps: []Step{{
		Prompt: Text{"The brokers serve GID_POP by POP with popShareQueueNum 1 (mqadmin setConsumeMode -m POP -q 1), and c1, c2 and c3 let them allocate (clientRebalance false). Wait for their first round: which queues does each member pop?",
			"Broker 以 POP 方式为 GID_POP 服务，popShareQueueNum 为 1（mqadmin setConsumeMode -m POP -q 1），c1、c2、c3 把分配交给 Broker（clientRebalance false）。等它们完成第一轮：每个成员 Pop 哪些队列？"},
		Explain: Text{"k = 1 is in range (1 < 3 − 1), so the broker does not hand out broker-a:-1: AVG cuts the 8 sorted queues into blocks of 3, 3 and 2, and each member gets its own block and the next member's, with real queue ids. c1 pops broker-a:0–3 and broker-b:0–1, c2 broker-a:3 and broker-b:0–3, c3 broker-a:0–2 and broker-b:2–3: every queue is popped by exactly two members (spec §8.2.2, §8.6.7).",
			"k = 1 在有效范围内（1 < 3 − 1），所以 Broker 不会下发 broker-a:-1：AVG 把排好序的 8 个队列切成 3、3、2 三块，每个成员拿到自己的一块和下一个成员的一块，都是真实的队列号。c1 Pop broker-a:0–3 和 broker-b:0–1，c2 Pop broker-a:3 和 broker-b:0–3，c3 Pop broker-a:0–2 和 broker-b:2–3：每个队列恰好由两个成员 Pop（spec §8.2.2、§8.6.7）。"},
		Check: func(c *Context) bool {
			return len(runningIDs(c.Now)) == 3 && slices.Equal(held(c.Now, "c1", popTopic), []string{"broker-a:0", "broker-a:1", "broker-a:2", "broker-a:3", "broker-b:0", "broker-b:1"}) &&
				slices.Equal(held(c.Now, "c2", popTopic), []string{"broker-a:3", "broker-b:0", "broker-b:1", "broker-b:2", "broker-b:3"}) &&
				slices.Equal(held(c.Now, "c3", popTopic), []string{"broker-a:0", "broker-a:1", "broker-a:2", "broker-b:2", "broker-b:3"}) &&
				everyQueuePoppedTwice(c.Now)
		},
	}, {
		Prompt: Text{"Add a fourth consumer and wait until every member pops its new queues.",
			"添加第四个消费者，等待每个成员都开始 Pop 新分到的队列。"},
		Explain: Text{"Four members: blocks of 2, and each member its block and the next one's, 4 queues each: c1 broker-a:0–3, c2 broker-a:2–3 and broker-b:0–1, c3 broker-b:0–3, the newcomer broker-b:2–3 and broker-a:0–1. Every old member lost queues (c1 broker-b:0–1, c2 broker-b:2–3, c3 broker-a:0–2), each at its first round after the brokers' notification; a new queue's first pop runs 500 ms after the round (spec §5.2, §8.2.2, §8.2.3, §8.6.7).",
			"四个成员：每块 2 个队列，每个成员拿自己的一块和下一个成员的一块，各 4 个队列：c1 broker-a:0–3，c2 broker-a:2–3 和 broker-b:0–1，c3 broker-b:0–3，新成员 broker-b:2–3 和 broker-a:0–1。每个老成员都失去了队列（c1 失去 broker-b:0–1，c2 失去 broker-b:2–3，c3 失去 broker-a:0–2），都发生在收到 Broker 通知后的第一轮；新队列的第一次 Pop 在这一轮之后 500 毫秒（spec §5.2、§8.2.2、§8.2.3、§8.6.7）。"},
		Acts: true,
		Check: func(c *Context) bool {
			added := newConsumers(c.First, c.Now)
			ids := runningIDs(c.Now)
			if len(added) == 0 || len(ids) != 4 || !everyQueuePoppedTwice(c.Now) {
				return false
			}
			for _, id := range ids {
				if !popsReal(c.Now, id, 4) {
					return false
				}
			}
			for _, id := range runningIDs(c.StepStart) {
				for _, q := range held(c.StepStart, id, popTopic) {
					if !slices.Contains(held(c.Now, id, popTopic), q) {
						return true // a member that stayed lost a queue
					}
				}
			}
			return false
		},
	}, {
		Prompt: Text{"Nobody was killed, yet the members dropped queues holding messages they had popped. Play on (10× helps) for about a minute and watch the narration.",
			"没有人被杀掉，但成员们丢弃了一些队列，而它们手里还有从这些队列 Pop 到的消息。继续播放约一分钟（10 倍速更快），留意事件叙述。"},
		Explain: Text{"A dropped PopProcessQueue is removed without an ack: its popped messages not yet consumed never reach the listener and stay invisible until 60 s after their pop. The revive service then puts them on %RETRY%GID_POP_TopicPop with reconsume count 1, about 62 to 64 s after their pop, and whoever pops next gets them, out of their queue's order. c2, the slow member, had the most waiting. That is the cost of a join with k in range: a minute's delay and redelivery for what was in flight (spec §8.2.3, §8.3.7, §8.3.10, §8.6.7).",
			"被丢弃的 PopProcessQueue 直接移除，不发送确认：其中已 Pop 但还没消费的消息不会交给监听器，并在 Pop 后 60 秒内一直不可见。之后复活服务把它们放到 %RETRY%GID_POP_TopicPop，重试次数为 1，大约在 Pop 后 62 到 64 秒；谁下一次 Pop 就由谁拿到，已不再按原队列顺序。消费慢的 c2 手里积压得最多。这就是 k 在有效范围内时一次加入的代价：在途的消息要延迟一分钟并被重新投递（spec §8.2.3、§8.3.7、§8.3.10、§8.6.7）。"},
		Speed: 10,
		Check: func(c *Context) bool {
			for _, e := range c.Events {
				if e.Cause == cluster.CauseRevive && e.Arg == popRetryTopic && running(c.Now, e.Consumer) {
					return true // messages of a member that is still up: it dropped their queue
				}
			}
			return false
		},
	}, {
		Prompt: Text{"Set the consume mode again: POP, with popShareQueueNum -1 (the default; 0 does the same). Wait for the members' next round.",
			"再次设置消费模式：POP，popShareQueueNum 设为 -1（默认值；0 效果相同）。等待成员们的下一轮重平衡。"},
		Explain: Text{"With k ≤ 0 (or k ≥ members − 1) the broker answers every member one (TopicPop, broker, −1) per broker: broker-a:-1 and broker-b:-1, a share of every queue. The brokers read the new setting at the members' next query, up to 20 s later. The switch itself drops every real-queue PopProcessQueue, so what was in flight comes back about a minute later once more (spec §8.1, §8.2.2, §8.2.3, §8.6.7).",
			"当 k ≤ 0（或 k ≥ 成员数 − 1）时，Broker 给每个成员的答复都是每个 Broker 一个 (TopicPop, broker, −1)：broker-a:-1 和 broker-b:-1，即所有队列的一份。Broker 在成员下一次查询时才读到新设置，最多要等 20 秒。这次切换本身会丢弃所有真实队列的 PopProcessQueue，所以在途的消息还会在大约一分钟后再回来一次（spec §8.1、§8.2.2、§8.2.3、§8.6.7）。"},
		Acts: true,
		Check: func(c *Context) bool {
			ids := runningIDs(c.Now)
			for _, id := range ids {
				if !slices.Equal(held(c.Now, id, popTopic), popAll) {
					return false
				}
			}
			return len(ids) >= 2
		},
	}, {
		Prompt: Text{"Now add a fifth consumer. Which queues do the others lose this time?",
			"现在添加第五个消费者。这一次其他成员会失去哪些队列？"},
		Explain: Text{"None: the newcomer gets broker-a:-1 and broker-b:-1 like everyone, the others' answers are the same as before, no PopProcessQueue is dropped and nothing is revived because of the join. In the default mode membership changes cost nothing; with popShareQueueNum in range each join or leave moves queues and delays what was popped from them by a minute (spec §8.2.2, §8.3.10, §8.6.7).",
			"一个也没有：新成员和大家一样拿到 broker-a:-1 和 broker-b:-1，其他成员得到的答复和之前相同，没有 PopProcessQueue 被丢弃，也没有消息因为这次加入而被复活。默认模式下成员变化没有代价；popShareQueueNum 在有效范围内时，每次加入或离开都会让队列换手，从这些队列 Pop 到的消息要延迟一分钟（spec §8.2.2、§8.3.10、§8.6.7）。"},
		Acts: true,
		Check: func(c *Context) bool {
			added := newConsumers(c.StepStart, c.Now)
			if len(added) == 0 || !slices.Equal(held(c.Now, added[0], popTopic), popAll) {
				return false
			}
			for _, id := range runningIDs(c.StepStart) {
				if !running(c.Now, id) || !slices.Equal(held(c.Now, id, popTopic), held(c.StepStart, id, popTopic)) {
					return false
				}
			}
			for _, e := range c.Events {
				if e.Kind == cluster.EventRebalance && e.Topic == popTopic && consumer(c.StepStart, e.Consumer) != nil {
					return false // a member that was there changed its queues
				}
			}
			return true
		},
	}},
}
