package lesson

import (
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// Lessons of clusters as users run them: several topics, retry topics, consume failures, tags,
// rolling changes, orderly consumers and autoscalers (spec §3.14–§3.15, §5.7–§5.8).

// fromJSON is a lesson's scenario written as a scenario file (format 2); it must parse.
func fromJSON(doc string) func() scenario.Scenario {
	if _, err := scenario.Parse([]byte(doc)); err != nil {
		panic("lesson: a scenario does not parse: " + err.Error())
	}
	return func() scenario.Scenario {
		s, _ := scenario.Parse([]byte(doc)) // a fresh copy each time: nothing is shared between runs
		return s
	}
}

// held is the queues member id holds of topic (its names without the topic).
func held(s cluster.Snapshot, id, topic string) []string {
	c := consumer(s, id)
	if c == nil {
		return nil
	}
	var out []string
	for _, q := range c.Queues {
		t, short, ok := strings.Cut(q, "/")
		if !ok {
			t, short = s.Topic, q
		}
		if t == topic {
			out = append(out, short)
		}
	}
	return out
}

// count is how many events of cause there are.
func count(events []cluster.Event, cause string) int {
	n := 0
	for _, e := range events {
		if e.Cause == cause {
			n++
		}
	}
	return n
}

var retryTopic = &Lesson{
	ID:    "retry-topic",
	Title: Text{"Every member also subscribes its retry topic", "每个成员还订阅了重试 Topic"},
	Goal: Text{"See that a CLUSTERING push consumer subscribes %RETRY%<group> by itself, with one queue on each broker, and that the group balances it like any topic.",
		"观察集群模式的 Push 消费者会自动订阅 %RETRY%<消费组>：每个 Broker 上一个队列，消费组像对待普通 Topic 一样对它做负载均衡。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: the retry topic", "seed": 1,
		"topics": [{"name": "TopicOrder", "queues": 4}], "groups": [{"name": "GID_ORDER"}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}, {"name": "broker-c"}],
		"consumers": [{"id": "c1"}, {"id": "c2"}, {"id": "c3"}, {"id": "c4"}, {"id": "c5"}, {"id": "c6"}],
		"producers": [{"id": "p1", "rate": 300, "threads": 3}]}`),
	Steps: []Step{{
		Prompt: Text{"Six members, three brokers. Wait until the group has settled and look at %RETRY%GID_ORDER: who pulls its queues?",
			"六个成员、三个 Broker。等消费组稳定后看看 %RETRY%GID_ORDER：谁在拉取它的队列？"},
		Explain: Text{"Each broker the group heartbeats created %RETRY%GID_ORDER with one queue, so it has three. The members sort them and their ids as for TopicOrder and AVG gives the first three one each: c4, c5 and c6 hold none (spec §3.14). A message that fails on c6 still comes back — to c1, c2 or c3.",
			"消费组心跳到达的每个 Broker 都创建了只有一个队列的 %RETRY%GID_ORDER，所以它共有三个队列。成员们像对 TopicOrder 一样排序队列和 clientId，AVG 给前三个成员各一个：c4、c5、c6 一个也没有（spec §3.14）。在 c6 上消费失败的消息仍会回来——由 c1、c2 或 c3 消费。"},
		Check: func(c *Context) bool {
			if !settled(c.Now) {
				return false
			}
			with := 0
			for _, id := range []string{"c1", "c2", "c3", "c4", "c5", "c6"} {
				if len(held(c.Now, id, "%RETRY%GID_ORDER")) > 0 {
					with++
				}
			}
			return with == 3 && len(held(c.Now, "c6", "%RETRY%GID_ORDER")) == 0
		},
	}, {
		Prompt: Text{"Kill c1 and wait until the group has settled again.",
			"杀死 c1，等消费组再次稳定。"},
		Explain: Text{"Five members: the retry topic's three queues go to the new first three, c2, c3 and c4. The retry topic moves with every membership change, like every other topic of the group (spec §3.14, §4.1).",
			"剩下五个成员：重试 Topic 的三个队列给了新的前三名 c2、c3、c4。和消费组的其他 Topic 一样，每次成员变化重试 Topic 也会随之移动（spec §3.14、§4.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return !running(c.Now, "c1") && settled(c.Now) && len(held(c.Now, "c4", "%RETRY%GID_ORDER")) == 1
		},
	}},
}

var severalTopics = &Lesson{
	ID:    "several-topics",
	Title: Text{"One group, three topics: the same members get more every time", "一个消费组三个 Topic：总是同样的成员分得更多"},
	Goal: Text{"See that a group subscribing several topics rebalances each on its own over the same sorted members, so AVG's remainder goes to the same first members on every topic.",
		"观察订阅多个 Topic 的消费组对每个 Topic 分别做负载均衡，用的是同一份排好序的成员列表，所以 AVG 的余数每次都落在同样的前几个成员身上。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: several topics", "seed": 1,
		"topics": [{"name": "TopicA", "queues": 3}, {"name": "TopicB", "queues": 3}, {"name": "TopicC", "queues": 3}],
		"groups": [{"name": "GID_APP", "noRetryTopic": true}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}],
		"consumers": [
			{"id": "c1", "groups": [{"group": "GID_APP", "subscriptions": [{"topic": "TopicA"}, {"topic": "TopicB"}, {"topic": "TopicC"}]}]},
			{"id": "c2", "groups": [{"group": "GID_APP", "subscriptions": [{"topic": "TopicA"}, {"topic": "TopicB"}, {"topic": "TopicC"}]}]},
			{"id": "c3", "groups": [{"group": "GID_APP", "subscriptions": [{"topic": "TopicA"}, {"topic": "TopicB"}, {"topic": "TopicC"}]}]},
			{"id": "c4", "groups": [{"group": "GID_APP", "subscriptions": [{"topic": "TopicA"}, {"topic": "TopicB"}, {"topic": "TopicC"}]}]}],
		"producers": [{"id": "pa", "rate": 100, "topic": "TopicA"}, {"id": "pb", "rate": 100, "topic": "TopicB"}, {"id": "pc", "rate": 100, "topic": "TopicC"}]}`),
	Steps: []Step{{
		Prompt: Text{"Four members, six queues a topic. Wait until the group has settled and count each member's queues.",
			"四个成员，每个 Topic 六个队列。等消费组稳定后数一数每个成员的队列。"},
		Explain: Text{"6 queues over 4 members is 1 each and 2 left over, which AVG gives to the first two in sorted order — on TopicA, TopicB and TopicC alike. c1 and c2 pull 6 queues, c3 and c4 only 3: the skew adds up over the topics (apache/rocketmq#1945, spec §3.14, §4.1).",
			"6 个队列分给 4 个成员，每人 1 个还余 2 个，AVG 把余数给排序后的前两个成员——TopicA、TopicB、TopicC 都一样。c1 和 c2 拉 6 个队列，c3 和 c4 只拉 3 个：倾斜在多个 Topic 上叠加（apache/rocketmq#1945，spec §3.14、§4.1）。"},
		Check: func(c *Context) bool {
			if !settled(c.Now) {
				return false
			}
			for _, t := range []string{"TopicA", "TopicB", "TopicC"} {
				if len(held(c.Now, "c1", t)) != 2 || len(held(c.Now, "c4", t)) != 1 {
					return false
				}
			}
			return true
		},
	}, {
		Prompt: Text{"Add a consumer. Does the skew go away?",
			"添加一个消费者。倾斜消失了吗？"},
		Explain: Text{"With five members the remainder is 1, still given to c1 on every topic: c1 pulls 6 queues, everyone else 3. Only a count of queues divisible by the members, or a strategy that spreads the remainder over topics, evens it out (spec §4.1, §4.2).",
			"五个成员时余数为 1，每个 Topic 仍然给 c1：c1 拉 6 个队列，其他人各 3 个。只有队列数能被成员数整除，或者换一种把余数分散到不同 Topic 的策略，才能消除倾斜（spec §4.1、§4.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return len(runningIDs(c.Now)) == 5 && settled(c.Now) && len(held(c.Now, "c1", "TopicB")) == 2 && len(held(c.Now, "c2", "TopicB")) == 1
		},
	}},
}

var retryLadder = &Lesson{
	ID:    "retry-ladder",
	Title: Text{"A failing message climbs the delay ladder to the DLQ", "消费失败的消息沿延迟阶梯走向死信队列"},
	Goal: Text{"Follow one message whose listener always fails: sent back, held by the broker at a growing delay level, consumed again from the retry topic, then put on the DLQ.",
		"跟随一条每次都消费失败的消息：被发回 Broker，按逐级增长的延迟级别保存，再从重试 Topic 被消费，最后进入死信队列。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: the delay ladder", "seed": 1,
		"topics": [{"name": "TopicPay", "queues": 1}], "groups": [{"name": "GID_PAY", "maxReconsumeTimes": 3}],
		"brokers": [{"name": "broker-a"}],
		"consumers": [{"id": "c1", "groups": [{"group": "GID_PAY", "failRate": 1}]}],
		"producers": [{"id": "p1", "rate": 1}],
		"timeline": [{"at": "500ms", "type": "setProducerRate", "id": "p1", "rate": 0}]}`),
	Steps: []Step{{
		Prompt: Text{"p1 sends one message; c1's listener answers RECONSUME_LATER to every delivery. Watch its first failure.",
			"p1 只发送一条消息；c1 的监听器对每次投递都返回 RECONSUME_LATER。观察它第一次失败。"},
		Explain: Text{"The client sends the message back to the broker it came from (CONSUMER_SEND_MSG_BACK). The broker stores it at delay level 3 + its reconsume count: 10 s for a first failure. When the level's task finds it due (it looks every 100 ms), it is put on %RETRY%GID_PAY, which c1 subscribes (spec §3.15, §5.8).",
			"客户端把消息发回它来自的 Broker（CONSUMER_SEND_MSG_BACK）。Broker 以延迟级别 3 + 重试次数保存它：第一次失败是 10 秒。该级别的任务（每 100 毫秒查看一次）发现它到期后，把它放到 c1 订阅的 %RETRY%GID_PAY 上（spec §3.15、§5.8）。"},
		Check: func(c *Context) bool { return count(c.All, cluster.CauseSendBack) >= 1 },
	}, {
		Prompt: Text{"While the message waits on the ladder, kill c1.",
			"趁消息在阶梯上等待时，杀死 c1。"},
		Explain: Text{"Nothing of the message is lost with c1: it waits on the broker's delay ladder (SCHEDULE_TOPIC_XXXX), not in the client, and comes back on %RETRY%GID_PAY whoever then pulls it (spec §5.8).",
			"消息不会随 c1 一起丢失：它在 Broker 的延迟阶梯（SCHEDULE_TOPIC_XXXX）上等待，而不在客户端里；之后无论谁拉取 %RETRY%GID_PAY，它都会回来（spec §5.8）。"},
		Acts:  true,
		Check: func(c *Context) bool { return !running(c.Now, "c1") },
	}, {
		Prompt: Text{"Restart c1 and wait: the message comes back, fails again, and again.",
			"重启 c1 并等待：消息回来，再次失败，一次又一次。"},
		Speed: 10,
		Acts:  true,
		Explain: Text{"Each failure raises the level: 10 s, 30 s, 1 m, … up to 2 h. This group's maxReconsumeTimes is 3, so the 4th failure sends it to %DLQ%GID_PAY. With the default 16 the message is seen 17 times and reaches the DLQ 17 140 s (4 h 45 min 40 s) after its first delivery: retries are a main source of \"duplicates\" (spec §3.15).",
			"每次失败都提高级别：10 秒、30 秒、1 分钟……直到 2 小时。这个消费组的 maxReconsumeTimes 为 3，所以第 4 次失败把它送进 %DLQ%GID_PAY。默认值 16 时，消息会被看到 17 次，在第一次投递 17140 秒（4 小时 45 分 40 秒）后进入死信队列：重试是“重复消费”的主要来源之一（spec §3.15）。"},
		Check: func(c *Context) bool { return count(c.All, cluster.CauseDeadLetter) >= 1 },
	}},
}

var differentTags = &Lesson{
	ID:    "different-tags",
	Title: Text{"Members with different tags lose messages", "成员订阅的 Tag 不同会丢消息"},
	Goal: Text{"See that a broker keeps one subscription of a topic for the whole group, filters every member's pulls by it, and that messages the filters drop are consumed by no one.",
		"观察 Broker 为整个消费组只保存一份某个 Topic 的订阅，并用它过滤每个成员的拉取请求；被过滤掉的消息没有任何人消费。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: different tags", "seed": 1,
		"topics": [{"name": "TopicMall", "queues": 4}], "groups": [{"name": "GID_MALL", "noRetryTopic": true}],
		"brokers": [{"name": "broker-a"}],
		"consumers": [
			{"id": "c1", "groups": [{"group": "GID_MALL", "subscriptions": [{"topic": "TopicMall", "tags": ["TagA"]}]}]},
			{"id": "c2", "groups": [{"group": "GID_MALL", "subscriptions": [{"topic": "TopicMall", "tags": ["TagB"]}]}]}],
		"producers": [{"id": "p1", "rate": 100, "tags": {"TagA": 0.7, "TagB": 0.3}}]}`),
	Steps: []Step{{
		Prompt: Text{"c1 subscribes TagA, c2 TagB; 70 % of the messages are TagA. Watch the filtered count.",
			"c1 订阅 TagA，c2 订阅 TagB；70% 的消息是 TagA。观察被过滤的消息数。"},
		Explain: Text{"The broker stores the group's subscription with the highest subVersion — here c1's TagA — and filters c2's pulls by it too; c2 then drops what is not TagB: it consumes nothing. Every TagB message, and the TagA messages of c2's queues, are consumed by no one (spec §5.7, inferred there; alibaba/rocketmq#254).",
			"Broker 保存 subVersion 最高的那份订阅——这里是 c1 的 TagA——也用它过滤 c2 的拉取；c2 再丢掉不是 TagB 的消息：它什么也消费不到。所有 TagB 消息，以及 c2 队列里的 TagA 消息，都没有人消费（spec §5.7，推断；alibaba/rocketmq#254）。"},
		Check: func(c *Context) bool { return c.Now.Metrics.Filtered > 200 },
	}, {
		Prompt: Text{"Give c2 the same subscription as c1: TopicMall:TagA (Set subscription, for c2).",
			"给 c2 和 c1 相同的订阅：TopicMall:TagA（“设置订阅”，对 c2）。"},
		Explain: Text{"c2's heartbeat now carries TagA with a newer subVersion; the broker's filter and each member's own agree, and c2 consumes the TagA messages of its queues. The TagB messages are still filtered: nobody subscribes them now. Every member of a group must subscribe the same topics with the same tags — what the group needs, all of them subscribe (spec §5.7).",
			"c2 的心跳现在带着 subVersion 更新的 TagA；Broker 的过滤与每个成员自己的过滤一致，c2 消费它队列中的 TagA 消息。TagB 消息仍被过滤：现在没人订阅它们。同一消费组的每个成员都必须订阅相同的 Topic 和相同的 Tag——消费组需要什么，所有成员就都订阅什么（spec §5.7）。"},
		Acts: true,
		Check: func(c *Context) bool {
			now, before := consumer(c.Now, "c2"), consumer(c.StepStart, "c2")
			return now != nil && before != nil && now.Consumed > before.Consumed+50
		},
	}},
}

var orderlyPoison = &Lesson{
	ID:    "orderly-poison",
	Title: Text{"An orderly consumer's failing message blocks its queue", "顺序消费中失败的消息会阻塞队列"},
	Goal: Text{"See that an orderly listener's failure suspends the queue and delivers the same message again, forever with the default limit.",
		"观察顺序消费的监听器失败后会暂停队列并再次投递同一条消息，在默认限制下永无止境。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: an orderly poison message", "seed": 1,
		"topics": [{"name": "TopicLedger", "queues": 2}], "groups": [{"name": "GID_LEDGER", "orderly": true, "noRetryTopic": true}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}],
		"consumers": [{"id": "c1", "groups": [{"group": "GID_LEDGER", "failRate": 1}]}, {"id": "c2", "groups": [{"group": "GID_LEDGER"}]}],
		"producers": [{"id": "p1", "rate": 100, "threads": 2}]}`),
	Steps: []Step{{
		Prompt: Text{"c1's listener fails every message. Watch its queues.",
			"c1 的监听器每条消息都失败。观察它的队列。"},
		Explain: Text{"An orderly consumer takes one message at a time in offset order. On SUSPEND_CURRENT_QUEUE_A_MOMENT the queue waits 1 s and the same message comes again; with maxReconsumeTimes −1 (Integer.MAX_VALUE for orderly) it never stops. Everything behind it waits: c1's backlog only grows (spec §3.15).",
			"顺序消费者按 offset 顺序一次处理一条消息。返回 SUSPEND_CURRENT_QUEUE_A_MOMENT 后队列暂停 1 秒，同一条消息再次投递；maxReconsumeTimes 为 −1（顺序消费时即 Integer.MAX_VALUE）时永不停止。它后面的消息都在等待：c1 的积压只会增长（spec §3.15）。"},
		Check: func(c *Context) bool { return count(c.All, cluster.CauseSuspend) >= 6 },
	}, {
		Prompt: Text{"Kill c1. What happens to the message that blocked its queues?",
			"杀死 c1。阻塞它队列的那条消息会怎样？"},
		Explain: Text{"c2 is given c1's queues at once, but the brokers still hold c1's queue locks, which nobody releases: c2 takes the queues only once they expire, up to 60 s after c1's last renewal (spec §8.5.3). Then it starts from their committed offsets, which stayed at the blocked message, and its listener does not fail: the queues flow again and c2 works through the backlog, the blocked message first (spec §3.6, §3.15).",
			"c2 立即分到 c1 的队列，但 Broker 仍为 c1 保留着队列锁，没有人释放它们：c2 要等锁过期才能接手，最多在 c1 最后一次续期后 60 秒（spec §8.5.3）。然后它从已提交的 offset 开始，这些 offset 停在被阻塞的消息处；c2 的监听器不会失败：队列重新流动，c2 从被阻塞的那条消息开始消化积压（spec §3.6、§3.15）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return !running(c.Now, "c1") && settled(c.Now) && c.Now.Metrics.Backlog < c.StepStart.Metrics.Backlog
		},
	}},
}

var orderlyLocks = &Lesson{
	ID:    "orderly-locks",
	Title: Text{"An orderly queue pauses between owners", "顺序消费的队列在换主时会暂停"},
	Goal: Text{"See that an orderly group's queues are locked on their brokers: a killed member's queues wait until its locks expire, a stopped member's move at once.",
		"观察顺序消费组的队列在 Broker 上加了锁：被杀死的成员的队列要等它的锁过期，正常关闭的成员的队列则立即转移。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: orderly queue locks", "seed": 1,
		"topics": [{"name": "TopicLedger", "queues": 2}], "groups": [{"name": "GID_LEDGER", "orderly": true}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}],
		"consumers": [{"id": "c1"}, {"id": "c2"}, {"id": "c3"}],
		"producers": [{"id": "p1", "rate": 200, "threads": 2}]}`),
	Steps: []Step{{
		Prompt: Text{"Kill c2, and watch its queues: who pulls them, and when?",
			"杀死 c2，观察它的队列：谁来拉取，什么时候？"},
		Explain: Text{"Each member of an orderly group locks a queue on its broker before it takes it, and renews its locks every 20 s. A killed member releases nothing: its new owner is refused every round until the broker's lock expires, 60 s after c2's last renewal. The queues are paused 40–60 s while every other queue goes on (spec §8.5).",
			"顺序消费组的每个成员在接手队列前先在 Broker 上锁定它，并每 20 秒续期。被杀死的成员什么也不会释放：新的主人每轮都被拒绝，直到 Broker 上的锁在 c2 最后一次续期后 60 秒过期。这些队列暂停 40–60 秒，其他队列照常消费（spec §8.5）。"},
		Acts:  true,
		Check: func(c *Context) bool { return !running(c.Now, "c2") && settled(c.Now) },
	}, {
		Prompt: Text{"Now stop c3 gracefully (Stop), and compare.",
			"现在正常关闭 c3（“正常关闭”），比较一下。"},
		Explain: Text{"A graceful shutdown uploads its offsets and unlocks its queues before it leaves: the brokers notify the others, and c1 locks c3's queues at its next round, within a second or two — no lock refused. An orderly consumer should always be stopped, never killed (spec §3.11, §8.5.2).",
			"正常关闭会先上传 offset 并解锁它的队列再离开：Broker 通知其他成员，c1 在下一轮重平衡时就锁定 c3 的队列，一两秒内完成——没有锁被拒绝。顺序消费者应当正常关闭，而不是被杀死（spec §3.11、§8.5.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return !running(c.Now, "c3") && settled(c.Now) && count(c.Events, cluster.CauseLockRefused) == 0
		},
	}},
}

var brokerSide = &Lesson{
	ID:    "broker-side",
	Title: Text{"Broker-side allocation runs only AVG and AVG_BY_CIRCLE", "Broker 端分配只支持 AVG 和 AVG_BY_CIRCLE"},
	Goal: Text{"See that a member deployed with setClientRebalance(false) asks the brokers for its queues, and that they answer only for AVG and AVG_BY_CIRCLE.",
		"观察以 setClientRebalance(false) 发布的成员向 Broker 查询自己的队列，而 Broker 只为 AVG 和 AVG_BY_CIRCLE 作答。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: broker-side allocation", "seed": 1,
		"topics": [{"name": "TopicOrder", "queues": 4}], "groups": [{"name": "GID_ORDER", "strategy": "CONSISTENT_HASH"}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}],
		"consumers": [{"id": "c1", "clientRebalance": false}, {"id": "c2", "clientRebalance": false}, {"id": "c3"}],
		"producers": [{"id": "p1", "rate": 100}]}`),
	Steps: []Step{{
		Prompt: Text{"c1 and c2 leave their allocation to the brokers; the group uses CONSISTENT_HASH. Watch their queues.",
			"c1 和 c2 把分配交给 Broker；消费组使用 CONSISTENT_HASH。观察它们的队列。"},
		Explain: Text{"Each round, c1 and c2 send QUERY_ASSIGNMENT to a random broker of the topic's route. The broker allocates only with AVG or AVG_BY_CIRCLE: for CONSISTENT_HASH it answers nothing, so they never get a queue and retry every second. c3 still computes its own CONSISTENT_HASH share, counting them as members: their shares are pulled by nobody (spec §8.1, §8.2).",
			"每一轮，c1 和 c2 都向该 Topic 路由中随机的一个 Broker 发送 QUERY_ASSIGNMENT。Broker 只用 AVG 或 AVG_BY_CIRCLE 分配：对 CONSISTENT_HASH 它什么也不返回，于是它们永远拿不到队列，每秒重试一次。c3 仍自己计算 CONSISTENT_HASH 的份额，并把它们算作成员：它们那份队列无人拉取（spec §8.1、§8.2）。"},
		Check: func(c *Context) bool {
			c1 := consumer(c.Now, "c1")
			return count(c.All, cluster.CauseAssignmentNull) >= 2 && c1 != nil && len(c1.Queues) == 0 && c.Now.TimeMs > 5000
		},
	}, {
		Prompt: Text{"Set the group's strategy to AVG.",
			"把消费组的分配策略设为 AVG。"},
		Explain: Text{"Now the brokers run the strategy: at their next round c1 and c2 get the queues AVG gives them, computed by the broker with its own list of the group's members and its own copy of the route — the same queues they would have computed themselves (spec §8.2.2).",
			"现在 Broker 可以运行这个策略了：下一轮 c1 和 c2 拿到 AVG 分给它们的队列，由 Broker 用它自己的成员列表和路由副本计算——与它们自己计算的结果相同（spec §8.2.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			c1 := consumer(c.Now, "c1")
			return c1 != nil && len(c1.Queues) > 0 && settled(c.Now)
		},
	}},
}

var rollingDeploy = &Lesson{
	ID:    "rolling-deploy",
	Title: Text{"A rolling deploy of a new strategy", "滚动发布新的分配策略"},
	Goal: Text{"See that while members run different strategies, they compute queues that do not fit together: doubled and orphaned queues, until every member has the new one.",
		"观察成员运行不同策略期间，它们算出的队列无法拼合：出现重复拉取和无人拉取的队列，直到每个成员都换上新策略。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: a rolling deploy", "seed": 1,
		"topics": [{"name": "TopicShop", "queues": 8}], "groups": [{"name": "GID_SHOP", "noRetryTopic": true}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}],
		"consumers": [{"id": "c1"}, {"id": "c2"}, {"id": "c3"}, {"id": "c4"}],
		"producers": [{"id": "p1", "rate": 200, "threads": 2}]}`),
	Steps: []Step{{
		Prompt: Text{"Redeploy c1 alone with AVG_BY_CIRCLE (Set strategy with c1's id), and watch its next rebalance.",
			"只把 c1 重新发布为 AVG_BY_CIRCLE（“设置分配策略”并填 c1 的 id），观察它的下一次重平衡。"},
		Explain: Text{"c1 now deals queues round-robin, the others still take contiguous pages: c1 pulls queues c2, c3 and c4 also pull, and some queues nobody pulls. Every member computes only its own share and trusts the others to compute theirs the same way (spec §3.3, §4.1, §4.2).",
			"c1 现在轮流发牌式地分配，其他成员仍取连续的“页”：c1 拉的队列 c2、c3、c4 也在拉，还有一些队列没人拉。每个成员只计算自己那一份，并相信别人用同样的方法计算（spec §3.3、§4.1、§4.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			for _, a := range c.Now.Anomalies {
				if a.Kind == "overlap" {
					return true
				}
			}
			return false
		},
	}, {
		Prompt: Text{"Finish the deploy: set AVG_BY_CIRCLE for the whole group, and wait until it settles.",
			"完成发布：为整个消费组设置 AVG_BY_CIRCLE，等待稳定。"},
		Explain: Text{"Once every member runs the same strategy their shares fit together again. A deploy that changes the strategy, the subscriptions or the client version leaves the group inconsistent for as long as it takes; roll it quickly, or stop the group first (spec §3.3, §5.7).",
			"所有成员运行同一策略后，各自的份额又能拼合起来。改变策略、订阅或客户端版本的发布，在发布期间都会让消费组不一致；要么尽快完成，要么先停掉消费组（spec §3.3、§5.7）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return settled(c.Now) && len(c.Now.Anomalies) == 0 && c.Now.TimeMs-c.StepStart.TimeMs > 1000
		},
	}},
}

var autoscaleStorm = &Lesson{
	ID:    "autoscale-storm",
	Title: Text{"An autoscaler on backlog can be a rebalance storm", "按积压自动扩缩容可能引发重平衡风暴"},
	Goal: Text{"See that every step of an autoscaler is a join or a leave, and that a rule without hold times and cool-down steps all the time.",
		"观察自动扩缩容的每一步都是一次加入或离开，而没有持续时间和冷却时间的规则会不停地扩缩。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: an autoscaler storm", "seed": 1,
		"topics": [{"name": "TopicFeed", "queues": 4}],
		"groups": [{"name": "GID_FEED", "noRetryTopic": true, "autoscale": {"outAbove": 2000, "inBelow": 1000, "min": 2, "max": 6}}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}],
		"consumers": [{"id": "c1", "consumeRate": 1000}, {"id": "c2", "consumeRate": 1000}],
		"producers": [{"id": "p1", "rate": 3000, "threads": 24}]}`),
	Steps: []Step{{
		Prompt: Text{"3000 messages/s, 1000/s per member. The autoscaler starts a member when the backlog is above 2000 and stops one below 1000, checking every 15 s. Watch its steps.",
			"每秒 3000 条消息，每个成员每秒消费 1000 条。积压超过 2000 时自动扩缩容启动一个成员，低于 1000 时停掉一个，每 15 秒检查一次。观察它的每一步。"},
		Speed: 4,
		Explain: Text{"Two members fall behind, four catch up at once, three only hold level: the rule starts and stops members every few periods, and each step is a join or a leave — a rebalance of the whole group, with the messages consumed twice that a move costs (spec §3.9, §3.11).",
			"两个成员跟不上，四个成员很快追上，三个成员只能持平：规则每隔几个周期就启动或停止成员，每一步都是一次加入或离开——整个消费组的一次重平衡，还要付出队列移动带来的重复消费（spec §3.9、§3.11）。"},
		Check: func(c *Context) bool { return count(c.All, cluster.CauseAutoscale) >= 6 },
	}, {
		Prompt: Text{"Lower p1's rate to 1500 messages/s (Set send rate) and watch the autoscaler.",
			"把 p1 的发送速率降到每秒 1500 条（“设置发送速率”），观察自动扩缩容。"},
		Speed: 4,
		Explain: Text{"Two members now keep ahead of the load: the backlog stays below 1000, the autoscaler stops its members down to its min of 2 and the group is quiet. With the load of before it never settles: the backlog swings across both thresholds. An HPA-style rule — above the threshold for 5 minutes, below for 10, 5 minutes between steps — takes four steps in half an hour (testdata/scenarios/autoscale-calm.json): hold times and a cool-down longer than a rebalance's cost keep a group calm (spec §3.9).",
			"现在两个成员就能跟上负载：积压保持在 1000 以下，自动扩缩容把成员停到最少的 2 个，消费组安静下来。在之前的负载下它永远不会稳定：积压在两个阈值之间来回摆动。HPA 风格的规则——超过阈值持续 5 分钟、低于阈值持续 10 分钟、两步之间间隔 5 分钟——半小时只走四步（testdata/scenarios/autoscale-calm.json）：比重平衡代价更长的持续时间和冷却时间才能让消费组保持平稳（spec §3.9）。"},
		Acts: true,
		Check: func(c *Context) bool {
			last := int64(-1)
			for _, e := range c.All {
				if e.Cause == cluster.CauseAutoscale {
					last = e.T
				}
			}
			return len(runningIDs(c.Now)) == 2 && last >= 0 && c.Now.TimeMs-last > 60000
		},
	}},
}
