package lesson

import (
	"slices"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// The lessons. Their numbers (120 s, 20 s, 5 s, the latency tiers) are the specification's
// (core/rocketmq-client-lb.md, "spec §N") and the simulation's defaults (cluster.DefaultTiming).
var lessons = []*Lesson{
	avgPaging, consumerJoins, idleConsumers, killVsPartition, shutdownVsKill, consistentHash,
	mixedClients, goSameID, goNotInCidAll, circleVsAvg, machineRoom, slowBroker, producer49, brokerDown, offsetDuplicates, broadcasting,
	retryTopic, severalTopics, retryLadder, differentTags, orderlyPoison, orderlyLocks, brokerSide, rollingDeploy, autoscaleStorm,
	roundingNobody, weightsDisagree, popFourth, popShare, grpcNoRebalance, grpcSimple, grpcFifo,
}

var twoByFour = brokers(4, "broker-a", "broker-b")

var avgPaging = &Lesson{
	ID:    "avg-paging",
	Title: Text{"Average allocation is paging", "平均分配就是分页"},
	Goal: Text{"See how AVG cuts the sorted queue list into contiguous pages, one per consumer, and why every membership change moves the page boundaries.",
		"观察 AVG 策略如何把排好序的队列列表切成连续的“页”，每个消费者一页，以及为什么成员变化会移动每一页的边界。"},
	Scenario: build("Lesson: AVG as paging", twoByFour, []string{"c1", "c2", "c3"}, 100, nil),
	Steps: []Step{{
		Prompt: Text{"Watch the first rebalance: 8 queues, 3 consumers. Wait until every queue has exactly one owner.",
			"观察第一次重平衡：8 个队列，3 个消费者。等到每个队列都恰好只有一个消费者。"},
		Explain: Text{"c1 pulls broker-a:0–2, c2 broker-a:3 and broker-b:0–1, c3 broker-b:2–3. Each consumer sorts the queues and the client ids the same way and takes page number index of size 8/3, the first 8 mod 3 = 2 consumers one queue more (spec §3.3, §4.1: this is the specification's worked example).",
			"c1 拉取 broker-a:0–2，c2 拉取 broker-a:3 和 broker-b:0–1，c3 拉取 broker-b:2–3。每个消费者都以相同方式对队列和 clientId 排序，然后取第 index 页，每页 8/3 个队列，前 8 mod 3 = 2 个消费者多分一个（spec §3.3、§4.1，正是规范中的示例）。"},
		Check: func(c *Context) bool {
			return settled(c.Now) && sameQueues(c.Now, "c1", "broker-a:0", "broker-a:1", "broker-a:2") &&
				sameQueues(c.Now, "c2", "broker-a:3", "broker-b:0", "broker-b:1") && sameQueues(c.Now, "c3", "broker-b:2", "broker-b:3")
		},
	}, {
		Prompt: Text{"Add a consumer (the Add consumer button, or the a key) and wait until the group has settled.",
			"添加一个消费者（点击“添加消费者”按钮或按 a 键），等待消费组重新稳定。"},
		Explain: Text{"8 queues over 4 consumers is 2 each: every page boundary moved, so c2 and c3 lost queues they were pulling although only the newcomer changed (spec §4.1).",
			"8 个队列分给 4 个消费者，每人 2 个：所有分页边界都移动了，虽然只是新来了一个消费者，c2 和 c3 也失去了正在拉取的队列（spec §4.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			if len(newConsumers(c.First, c.Now)) == 0 || !settled(c.Now) {
				return false
			}
			for _, id := range runningIDs(c.Now) {
				if len(consumer(c.Now, id).Queues) != 8/len(runningIDs(c.Now)) {
					return false
				}
			}
			return len(runningIDs(c.Now)) == 4
		},
	}, {
		Prompt: Text{"Now click c1 and stop it (or kill it). Watch who takes the first page.",
			"现在点击 c1 并停止它（或杀死它）。观察谁接手第一页。"},
		Explain: Text{"c2 is now first in the sorted client ids, so it takes page 0, starting at broker-a:0: every consumer after the one that left shifts one position, and most queues change hands (spec §4.1, §3.3).",
			"c2 现在排在 clientId 列表的第一位，所以它拿到第 0 页，从 broker-a:0 开始：离开者之后的每个消费者都前移一位，大部分队列都换了主人（spec §4.1、§3.3）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return !running(c.Now, "c1") && settled(c.Now) && slices.Contains(consumer(c.Now, "c2").Queues, "broker-a:0")
		},
	}},
}

var consumerJoins = &Lesson{
	ID:    "consumer-joins",
	Title: Text{"A consumer joins: brokers notify, the group rebalances at once", "消费者加入：Broker 发出通知，消费组立即重平衡"},
	Goal: Text{"See that a new consumer does not wait for the 20 s rebalance timer: its heartbeat makes every broker notify the group.",
		"观察新消费者无需等待 20 秒的重平衡定时器：它的心跳让每个 Broker 通知整个消费组。"},
	Scenario: build("Lesson: a consumer joins", twoByFour, []string{"c1", "c2"}, 100, nil),
	Steps: []Step{{
		Prompt: Text{"Wait until c1 and c2 share the 8 queues, then add a consumer (the Add consumer button).",
			"等 c1 和 c2 分好 8 个队列后，添加一个消费者（“添加消费者”按钮）。"},
		Explain: Text{"The new consumer sends a heartbeat to each broker as it starts. A broker that registers a new channel fires CHANGE and sends NOTIFY_CONSUMER_IDS_CHANGED to every consumer of the group, the newcomer included (spec §5.1, §5.2, §5.4).",
			"新消费者启动时向每个 Broker 发送心跳。Broker 注册新连接后触发 CHANGE，向消费组的每个消费者（包括新来的）发送 NOTIFY_CONSUMER_IDS_CHANGED（spec §5.1、§5.2、§5.4）。"},
		Acts: true,
		Check: func(c *Context) bool {
			for _, id := range newConsumers(c.First, c.Now) {
				if _, ok := find(c.All, id, "", cluster.CauseRegister); ok {
					return true
				}
			}
			return false
		},
	}, {
		Prompt: Text{"Watch the newcomer gain queues and the others give theirs up. Did anyone wait 20 s?",
			"观察新消费者获得队列、其他消费者让出队列。有人等了 20 秒吗？"},
		Explain: Text{"The notification wakes each consumer's rebalance service: it rebalances at once, or 1000 ms after the end of its previous round; the newcomer's first round comes 1 s after its start. So the group settles within about a second, not at the 20 s timer (spec §3.1).",
			"通知会唤醒每个消费者的重平衡服务：它立即重平衡，或在上一轮结束 1000 毫秒后重平衡；新消费者的第一轮在启动 1 秒后进行。所以消费组在大约一秒内稳定下来，而不是等 20 秒定时器（spec §3.1）。"},
		Check: func(c *Context) bool {
			for _, id := range newConsumers(c.First, c.Now) {
				join, ok := find(c.All, id, "", "addConsumer")
				g, gok := gained(c.All, id)
				if ok && gok && g-join.T <= 2000 && settled(c.Now) {
					return true
				}
			}
			return false
		},
	}},
}

var idleConsumers = &Lesson{
	ID:    "idle-consumers",
	Title: Text{"More consumers than queues", "消费者多于队列"},
	Goal: Text{"See that a consumer beyond the number of queues gets nothing, and stands by until another one leaves.",
		"观察超出队列数量的消费者分不到任何队列，只能待命，直到有其他消费者离开。"},
	Scenario: build("Lesson: idle consumers", brokers(2, "broker-a", "broker-b"), []string{"c1", "c2", "c3", "c4"}, 100, nil),
	Steps: []Step{{
		Prompt: Text{"4 queues, 4 consumers: one queue each. Add a fifth consumer.",
			"4 个队列、4 个消费者：每人一个队列。再添加第五个消费者。"},
		Explain: Text{"With more consumers than queues, AVG gives one queue to each of the first 4 consumers in sorted order and nothing to the rest: the fifth is idle, although it heartbeats and rebalances like the others (spec §4.1).",
			"消费者多于队列时，AVG 按排序给前 4 个消费者各分一个队列，其余的什么也分不到：第五个消费者空闲，尽管它像其他消费者一样发送心跳、参与重平衡（spec §4.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			for _, id := range newConsumers(c.First, c.Now) {
				if hasStatus(c.Now, id, cluster.StatusIdle) && settled(c.Now) {
					return true
				}
			}
			return false
		},
	}, {
		Prompt: Text{"Kill one of the consumers that has a queue. Watch the idle one.",
			"杀死一个持有队列的消费者。观察那个空闲的消费者。"},
		Explain: Text{"The killed consumer's connections close, the brokers notify the group, and in the next rebalance the idle consumer is within the first 4 again: it takes a queue. Idle consumers are standbys, not extra throughput (spec §3.11, §4.1).",
			"被杀死的消费者连接关闭，Broker 通知消费组；下一次重平衡中空闲的消费者重新排进前 4 名，拿到一个队列。空闲消费者只是备用，不会增加吞吐（spec §3.11、§4.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			lost := false
			for _, id := range gone(c.StepStart, c.Now) {
				lost = lost || len(consumer(c.StepStart, id).Queues) > 0
			}
			if !lost || !settled(c.Now) {
				return false
			}
			for _, v := range c.StepStart.Consumers {
				if v.Status == cluster.StatusIdle && running(c.Now, v.ID) && len(consumer(c.Now, v.ID).Queues) > 0 {
					return true
				}
			}
			return false
		},
	}},
}

var killVsPartition = &Lesson{
	ID:    "kill-vs-partition",
	Title: Text{"Killed or cut off: the 120 s channel expiry", "被杀死还是断网：120 秒的连接过期"},
	Goal: Text{"Compare a consumer whose process dies with one whose network vanishes: the brokers learn of the first at once, of the second only when its channel expires, without notifying anyone.",
		"对比进程退出的消费者与网络消失的消费者：Broker 立即得知前者，而后者要等到连接过期才被移除，而且不通知任何人。"},
	Scenario: build("Lesson: killed vs partitioned", twoByFour, []string{"c1", "c2", "c3", "c4"}, 100, nil),
	Steps: []Step{{
		Prompt: Text{"Click c3 and kill it.", "点击 c3 并杀死它。"},
		Explain: Text{"When a process dies its operating system closes the TCP connections: each broker sees the close, removes the channel, fires CHANGE and notifies the others, who rebalance within about a second (spec §3.11, §5.1).",
			"进程退出时操作系统会关闭它的 TCP 连接：每个 Broker 都看到连接关闭，移除该连接，触发 CHANGE 并通知其他消费者，它们在大约一秒内完成重平衡（spec §3.11、§5.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return hasStatus(c.Now, "c3", cluster.StatusKilled) && len(listedBy(c.Now, "c3")) == 0 && settled(c.Now)
		},
	}, {
		Prompt: Text{"Now click c2 and cut its network (partition).", "现在点击 c2，切断它的网络（网络分区）。"},
		Explain: Text{"No FIN and no RST reach the brokers: for them c2 is just quiet. Its queues are pulled by nobody, yet every rebalance still allocates them to c2 (spec §3.11).",
			"没有 FIN 也没有 RST 到达 Broker：对它们来说 c2 只是安静了。它的队列没人拉取，但每次重平衡仍然把这些队列分给 c2（spec §3.11）。"},
		Acts:  true,
		Check: func(c *Context) bool { return hasStatus(c.Now, "c2", cluster.StatusPartitioned) },
	}, {
		Prompt: Text{"Set the speed to 20× and watch for 60 s of simulated time: do the brokers still list c2?",
			"把速度调到 20×，观察 60 秒模拟时间：Broker 是否仍然列出 c2？"},
		Explain: Text{"Yes: only heartbeats refresh a consumer's channel, and it expires 120 s (channelExpiredTimeout) after the last one. Until then the others' views are stale: they keep leaving c2's queues to c2 (spec §0, §5.1).",
			"是的：只有心跳会刷新消费者的连接，连接在最后一次心跳 120 秒（channelExpiredTimeout）后才过期。在那之前其他消费者的视图是过时的：它们仍把 c2 的队列留给 c2（spec §0、§5.1）。"},
		Speed: 20,
		Check: func(c *Context) bool {
			p, ok := c.Became("c2", cluster.StatusPartitioned)
			return ok && c.Now.TimeMs >= p+60000 && len(listedBy(c.Now, "c2")) == liveBrokers(c.Now)
		},
	}, {
		Prompt: Text{"Keep watching until no broker lists c2 any more.", "继续观察，直到没有 Broker 再列出 c2。"},
		Explain: Text{"Each broker's housekeeping scan runs every 10 s and removes a consumer more than 120 s after its last heartbeat, by design without CHANGE: nobody is notified, the others notice at their next periodic rebalance (≤ 20 s). A broker may close the channel a little earlier as idle for 120 s, and that path does notify. In all, c2's queues waited about 90–150 s (spec §5.1, §3.11).",
			"每个 Broker 的清理扫描每 10 秒运行一次，移除最后一次心跳已超过 120 秒的消费者，按设计不触发 CHANGE：没有人收到通知，其他消费者在下一次周期性重平衡（≤ 20 秒）时才发现。某个 Broker 也可能稍早以“空闲 120 秒”关闭连接，这条路径会发出通知。总的来说，c2 的队列等了大约 90–150 秒（spec §5.1、§3.11）。"},
		Speed: 20,
		Check: func(c *Context) bool {
			p, ok := c.Became("c2", cluster.StatusPartitioned)
			if !ok || len(listedBy(c.Now, "c2")) > 0 {
				return false
			}
			e, ok := find(c.All, "c2", "", cluster.CauseExpire, cluster.CauseExpireNotify, cluster.CauseIdleClosed)
			return ok && e.T >= p+90000 && e.T <= p+150000
		},
	}, {
		Prompt: Text{"Wait until c2's queues are pulled again and every queue has one owner.",
			"等到 c2 的队列重新被拉取、每个队列都只有一个消费者。"},
		Explain: Text{"The survivors re-read the consumer list at their next round and split c2's queues. Compare: c3's queues moved within a second, c2's after about two minutes (spec §3.1, §5.1). Hover c2, or click it: its view is still the list of its last round before the cut, itself included — STALE against what the brokers list now — and the queues it computed from it, which its pulls never reach (spec §3.3).",
			"存活的消费者在下一轮重新读取消费者列表，分掉 c2 的队列。对比：c3 的队列在一秒内就转移了，c2 的队列却等了大约两分钟（spec §3.1、§5.1）。把鼠标移到 c2 上（或点击它）：它的视图仍是断网前最后一轮得到的列表，其中还有它自己——与 Broker 现在的列表相比已过时——以及据此算出、而它的拉取永远到达不了的队列（spec §3.3）。"},
		Speed: 20,
		Check: func(c *Context) bool {
			return settled(c.Now) && len(listedBy(c.Now, "c2")) == 0
		},
	}},
}

var shutdownVsKill = &Lesson{
	ID:    "shutdown-vs-kill",
	Title: Text{"Graceful shutdown or kill: duplicates", "优雅关闭还是杀死：重复消费"},
	Goal: Text{"Compare the duplicates counter after a graceful shutdown and after a kill.",
		"对比优雅关闭和杀死进程之后的重复消费计数。"},
	Scenario: build("Lesson: shutdown vs kill", twoByFour, []string{"c1", "c2", "c3"}, 200, nil),
	Steps: []Step{{
		Prompt: Text{"Note the Duplicates counter, then click c1 and stop it gracefully.",
			"记下“重复”计数，然后点击 c1 并优雅关闭它。"},
		Explain: Text{"A graceful shutdown first uploads the offsets of all its queues, then sends UNREGISTER_CLIENT to every broker, which notifies the others: they start from where c1 stopped. Duplicates are at most the unfinished tail (spec §3.11, §3.9).",
			"优雅关闭先上传所有队列的消费位点，再向每个 Broker 发送 UNREGISTER_CLIENT，Broker 通知其他消费者：它们从 c1 停下的地方继续。重复消费最多只是未完成的尾部消息（spec §3.11、§3.9）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return hasStatus(c.Now, "c1", cluster.StatusStopped) && settled(c.Now)
		},
	}, {
		Prompt: Text{"Now kill c2 and watch the Duplicates counter.", "现在杀死 c2，观察“重复”计数。"},
		Explain: Text{"A killed process uploads nothing: its successor resumes from the last offset that reached the broker, carried by a pull or by the 5 s offset timer, so the messages consumed since are consumed again (spec §3.9 case 3, §3.11).",
			"被杀死的进程什么都不上传：接手者从最后一次到达 Broker 的位点继续，这个位点由拉取请求或每 5 秒的位点定时器带到 Broker，此后消费过的消息会被再次消费（spec §3.9 情形 3、§3.11）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return hasStatus(c.Now, "c2", cluster.StatusKilled) && settled(c.Now)
		},
	}},
}

var consistentHash = &Lesson{
	ID:    "consistent-hash",
	Title: Text{"Consistent hashing moves fewer queues", "一致性哈希移动更少的队列"},
	Goal: Text{"See that with CONSISTENT_HASH only the queues of the consumer that left move, while AVG reshuffles the others too.",
		"观察在 CONSISTENT_HASH 下只有离开者的队列会移动，而 AVG 会连带打乱其他消费者的队列。"},
	Scenario: build("Lesson: consistent hash", brokers(8, "broker-a", "broker-b"), []string{"c1", "c2", "c3", "c4"}, 100,
		func(s *scenario.Scenario) { s.Strategy = allocate.Named("CONSISTENT_HASH") }),
	Steps: []Step{{
		Prompt: Text{"The group uses CONSISTENT_HASH. Remember who pulls which queue, then kill c2.",
			"消费组使用 CONSISTENT_HASH。记住每个队列由谁拉取，然后杀死 c2。"},
		Explain: Text{"Each queue goes to the next virtual node clockwise on an MD5 ring (10 virtual nodes per consumer). Removing c2 removes only its nodes: its queues go to their next neighbours and no other queue changes owner (spec §4.3).",
			"每个队列归属于 MD5 哈希环上顺时针方向的下一个虚拟节点（每个消费者 10 个虚拟节点）。移除 c2 只移除它的节点：它的队列交给环上的下一个邻居，其他队列的归属都不变（spec §4.3）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return len(gone(c.StepStart, c.Now)) > 0 && settled(c.Now) && movedBetweenStayers(c.StepStart, c.Now) == 0
		},
	}, {
		Prompt: Text{"Switch the strategy to AVG.", "把分配策略切换为 AVG。"},
		Explain: Text{"A new strategy is used from each consumer's next rebalance round: at a notification, or at the 20 s timer (spec §3.1).",
			"新策略从每个消费者的下一轮重平衡开始生效：收到通知时，或者 20 秒定时器到期时（spec §3.1）。"},
		Acts:  true,
		Check: func(c *Context) bool { return c.Now.Strategy == "AVG" },
	}, {
		Prompt: Text{"Now add a consumer and count the queues that moved between consumers that stayed.",
			"现在添加一个消费者，数一数在留下来的消费者之间移动了多少队列。"},
		Explain: Text{"With AVG the new member shifts every page boundary: consumers that stayed also trade queues, each move a hand-over with its gap or overlap and possible duplicates (spec §4.1, §3.9).",
			"在 AVG 下新成员会移动每一页的边界：留下来的消费者之间也在交换队列，每次移动都是一次交接，伴随空档或重叠，可能产生重复消费（spec §4.1、§3.9）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return len(newConsumers(c.StepStart, c.Now)) > 0 && settled(c.Now) && movedBetweenStayers(c.StepStart, c.Now) > 0
		},
	}},
}

var mixedClients = &Lesson{
	ID:    "mixed-clients",
	Title: Text{"Java and Go consumers under CONSISTENT_HASH", "CONSISTENT_HASH 下的 Java 与 Go 消费者"},
	Goal: Text{"See a Go consumer (rocketmq-client-go v2.1.2) join a Java group under CONSISTENT_HASH: the two clients build different rings, so some queues are pulled twice and others by nobody, and it stays so.",
		"观察一个 Go 消费者（rocketmq-client-go v2.1.2）加入使用 CONSISTENT_HASH 的 Java 消费组：两种客户端构建的哈希环不同，于是有的队列被拉取两次，有的无人拉取，而且一直如此。"},
	Scenario: build("Lesson: Java and Go under consistent hash", twoByFour, []string{"c1", "c2", "c3"}, 100,
		func(s *scenario.Scenario) { s.Strategy = allocate.Named("CONSISTENT_HASH") }),
	Steps: []Step{{
		Prompt: Text{"Three Java consumers share 8 queues under CONSISTENT_HASH. Wait until every queue has exactly one owner.",
			"三个 Java 消费者在 CONSISTENT_HASH 下分享 8 个队列。等到每个队列都恰好只有一个消费者。"},
		Explain: Text{"Every Java member builds the same MD5 ring from the same sorted ids, so their results fit together: each queue has one owner (spec §4.3).",
			"每个 Java 成员都用同样排好序的 clientId 构建同一个 MD5 哈希环，所以各自的结果恰好拼在一起：每个队列只有一个消费者（spec §4.3）。"},
		Check: func(c *Context) bool { return settled(c.Now) },
	}, {
		Prompt: Text{"Choose Go 2.1.2 as the client next to Add consumer, then add a consumer.",
			"在“添加消费者”旁边把客户端选为 Go 2.1.2，然后添加一个消费者。"},
		Explain: Text{"The Go client hashes \"<k><id>\" with CRC-32 and takes the first node strictly above a queue's hash; the Java members hash \"<id>-<k>\" with MD5. Each computes its own share by its own ring, so the shares overlap and leave gaps: queues pulled by two members at once, and queues pulled by nobody (rocketmq-client-go#419, spec §9.1.3).",
			"Go 客户端用 CRC-32 计算 \"<k><id>\" 的哈希，并取严格大于队列哈希的第一个节点；Java 成员用 MD5 计算 \"<id>-<k>\"。每个成员按自己的哈希环计算自己的份额，于是份额相互重叠又留下空档：有的队列同时被两个成员拉取，有的队列无人拉取（rocketmq-client-go#419，spec §9.1.3）。"},
		Acts: true,
		Check: func(c *Context) bool {
			for _, id := range newConsumers(c.StepStart, c.Now) {
				if v := consumer(c.Now, id); v.Client == "go-2.1.2" && len(v.Queues) > 0 {
					return len(c.Now.Anomalies) > 0 && c.Now.TimeMs >= c.StepStart.TimeMs+2000
				}
			}
			return false
		},
	}, {
		Prompt: Text{"Wait through the next periodic rebalance, 25 s (speed 5× helps). Do the doubled and orphaned queues go away?",
			"等过下一次周期性重平衡，约 25 秒（调到 5× 速度会快些）。被重复拉取和无人拉取的队列会消失吗？"},
		Explain: Text{"No: each client is consistent with itself, so every round computes the same disagreement again, and it lasts as long as the membership does. The doubled queues are consumed twice (duplicates), the orphaned ones build a backlog. Run one client in a group, or a strategy both compute alike (spec §9).",
			"不会：每种客户端都与自己保持一致，所以每一轮都会再次算出同样的分歧，只要成员不变就一直存在。被重复拉取的队列被消费两次（重复消费），无人拉取的队列不断积压。一个消费组只用一种客户端，或者使用两者算法一致的策略（spec §9）。"},
		Speed: 5,
		Check: func(c *Context) bool {
			for _, a := range c.Now.Anomalies {
				if c.Now.TimeMs-a.Start >= 25000 {
					return true
				}
			}
			return false
		},
	}},
}

// goClients makes every consumer of a lesson's scenario a rocketmq-client-go v2.1.2 one.
func goClients(s *scenario.Scenario) {
	for i := range s.Consumers {
		s.Consumers[i].Client = "go-2.1.2"
	}
}

var goSameID = &Lesson{
	ID:    "go-same-id",
	Title: Text{"Go consumers in containers: the same IP and PID", "容器中的 Go 消费者：相同的 IP 和 PID"},
	Goal: Text{"See why a Go consumer restarted in a container comes back with the very same client id, and what a group does while the brokers list one id twice: a block of queues that nobody pulls.",
		"观察为什么在容器中重启的 Go 消费者会带着完全相同的客户端 ID 回来，以及当 Broker 把同一个 ID 列出两次时消费组会怎样：有一段队列无人拉取。"},
	Scenario: build("Lesson: Go consumers with the same IP@PID", twoByFour, []string{"10.0.1.1@1", "10.0.1.2@1", "10.0.1.3@1"}, 100, goClients),
	Steps: []Step{{
		Prompt: Text{"Three Go consumers run in containers with host networking; each process is PID 1, so each id is IP@1. Wait until every queue has exactly one owner.",
			"三个 Go 消费者运行在使用主机网络的容器里；每个进程都是 PID 1，所以每个 ID 都是 IP@1。等到每个队列都恰好只有一个消费者。"},
		Explain: Text{"A Go consumer's client id is ClientIP@PID: no #nanoTime as in the Java 5 client, and no option to choose the IP. In a container the process is PID 1 every time (spec §9.1.2).",
			"Go 消费者的客户端 ID 是 ClientIP@PID：没有 Java 5 客户端那样的 #nanoTime，也不能指定 IP。在容器里进程每次都是 PID 1（spec §9.1.2）。"},
		Check: func(c *Context) bool { return settled(c.Now) },
	}, {
		Prompt: Text{"The host of 10.0.1.1@1 loses its network: cut 10.0.1.1@1 off. Right after, the orchestrator starts a replacement container on the same host: restart 10.0.1.1@1.",
			"10.0.1.1@1 所在主机断网：切断 10.0.1.1@1 的网络。紧接着编排系统在同一台主机上启动一个替代容器：重启 10.0.1.1@1。"},
		Explain: Text{"The replacement has the same IP and is PID 1 again: the same id 10.0.1.1@1, with nothing configured. The brokers still hold the old connection, so they list the id twice. rocketmq-client-go's strategy takes the first position of its id, so the new process computes the first block and nobody computes the second copy's block: those queues are pulled by nobody (rocketmq-client-go#536, apache/rocketmq#2760, spec §9.1.3, §5.1).",
			"替代容器的 IP 相同，进程又是 PID 1：ID 仍然是 10.0.1.1@1，无需任何配置。Broker 还保留着旧连接，所以把这个 ID 列出两次。rocketmq-client-go 的分配策略取该 ID 第一次出现的位置，于是新进程算出第一段队列，而第二个副本那一段没有人去算：这些队列无人拉取（rocketmq-client-go#536、apache/rocketmq#2760，spec §9.1.3、§5.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return listedTwice(c.Now, "10.0.1.1@1") && hasStatus(c.Now, "10.0.1.1@1", cluster.StatusAlive, cluster.StatusIdle) &&
				orphaned(c.Now) && c.Now.TimeMs >= c.StepStart.TimeMs+2000
		},
	}, {
		Prompt: Text{"Wait until the brokers expire the old connection, 120 s after its last heartbeat (speed 5× helps). Who pulls the orphaned queues then?",
			"等到 Broker 使旧连接过期，即最后一次心跳后 120 秒（调到 5× 速度会快些）。之后谁来拉取无人拉取的队列？"},
		Explain: Text{"The expiry notifies nobody, so the Go consumers notice at their next 20 s tick, and the block is taken again. Two containers that really share one id at the same time never get here: the second block stays unconsumed for as long as both run. Give each container its own InstanceName, the Go client's only way to a unique id (spec §5.1, §9.1.2, §9.1.5).",
			"过期不通知任何人，所以 Go 消费者要到下一次 20 秒的定时重平衡才发现，那一段队列才重新有人拉取。真正同时共用一个 ID 的两个容器永远到不了这一步：只要两者都在运行，第二段队列就一直无人消费。给每个容器设置各自的 InstanceName，这是 Go 客户端得到唯一 ID 的唯一办法（spec §5.1、§9.1.2、§9.1.5）。"},
		Speed: 5,
		Check: func(c *Context) bool { return !listedTwice(c.Now, "10.0.1.1@1") && settled(c.Now) },
	}},
}

var goNotInCidAll = &Lesson{
	ID:    "go-not-in-cidall",
	Title: Text{"A Go consumer missing from the broker's list takes nothing", "不在 Broker 列表中的 Go 消费者分不到队列"},
	Goal: Text{"See when a Go consumer logs \"[BUG] ConsumerId not in cidAll\": it asks a broker for the group's members, its own id is not among them, and it drops every queue it held.",
		"观察 Go 消费者何时打印 \"[BUG] ConsumerId not in cidAll\"：它向 Broker 查询消费组成员，自己的 ID 不在其中，于是丢掉手中所有队列。"},
	Scenario: build("Lesson: a Go consumer not in cidAll", twoByFour, []string{"10.0.0.1@4012", "10.0.0.2@4013", "10.0.0.3@4014"}, 100, goClients),
	Steps: []Step{{
		Prompt: Text{"Three Go consumers share 8 queues. Wait until every queue has exactly one owner.",
			"三个 Go 消费者分享 8 个队列。等到每个队列都恰好只有一个消费者。"},
		Explain: Text{"In every round a Go consumer asks one broker, drawn at random, for the group's client ids (cidAll), sorts them and finds its own position in the list (spec §9.1.4).",
			"每一轮重平衡，Go 消费者都随机选一个 Broker 查询消费组的客户端 ID 列表（cidAll），排序后找出自己在列表中的位置（spec §9.1.4）。"},
		Check: func(c *Context) bool { return settled(c.Now) },
	}, {
		Prompt: Text{"Cut 10.0.0.3@4014 off and wait until both brokers have expired it, about 2 minutes (speed 5× helps).",
			"切断 10.0.0.3@4014 的网络，等到两个 Broker 都使它过期，大约 2 分钟（调到 5× 速度会快些）。"},
		Explain: Text{"With no heartbeat for 120 s each broker drops it without notifying anyone; the other two take its queues at their next 20 s tick. The cut-off process still runs and still believes in its old queues (spec §3.11, §5.1, §9.1.5).",
			"120 秒没有心跳后，每个 Broker 都移除了它，且不通知任何人；另外两个消费者在下一次 20 秒的定时重平衡时接过它的队列。被切断的进程仍在运行，仍以为自己持有原来的队列（spec §3.11、§5.1、§9.1.5）。"},
		Speed: 5,
		Acts:  true,
		Check: func(c *Context) bool {
			return hasStatus(c.Now, "10.0.0.3@4014", cluster.StatusPartitioned) && len(listedBy(c.Now, "10.0.0.3@4014")) == 0 && settled(c.Now)
		},
	}, {
		Prompt: Text{"Heal 10.0.0.3@4014 and watch the event log until it pulls queues again.",
			"恢复 10.0.0.3@4014 的网络，观察事件日志，直到它重新拉取队列。"},
		Explain: Text{"A Go client sends no heartbeat on a new connection (the Java client does since 5.2.0), so the brokers learn of it only at its next periodic heartbeat, up to 30 s later. A round of its own before that, most often its 20 s tick, asks a broker whose list lacks it: the strategy finds no position for its id, logs \"[BUG] ConsumerId not in cidAll\" and returns nil, and the consumer drops every queue it held and takes nothing. Its heartbeat then registers it, the brokers notify the group and everyone rebalances with it again (spec §3.13, §9.1.3, §9.1.4).",
			"Go 客户端在新连接上不发送心跳（Java 客户端从 5.2.0 起会发送），所以 Broker 要到它下一次定期心跳才知道它，最多 30 秒之后。在此之前它自己的一轮重平衡（多半是 20 秒的定时重平衡）会问到一个列表里没有它的 Broker：分配策略找不到它的 ID，打印 \"[BUG] ConsumerId not in cidAll\" 并返回 nil，于是这个消费者丢掉手中所有队列，什么也分不到。随后它的心跳让 Broker 重新注册它，Broker 通知消费组，所有成员带上它重新平衡（spec §3.13、§9.1.3、§9.1.4）。"},
		Acts: true,
		Check: func(c *Context) bool {
			v := consumer(c.Now, "10.0.0.3@4014")
			return running(c.Now, "10.0.0.3@4014") && len(listedBy(c.Now, "10.0.0.3@4014")) == liveBrokers(c.Now) && len(v.Queues) > 0 && settled(c.Now)
		},
	}},
}

var circleVsAvg = &Lesson{
	ID:    "circle-vs-avg",
	Title: Text{"AVG_BY_CIRCLE versus AVG", "AVG_BY_CIRCLE 与 AVG 对比"},
	Goal: Text{"See that AVG gives each consumer a contiguous block, often one broker's queues, while AVG_BY_CIRCLE deals queues round robin across brokers.",
		"观察 AVG 给每个消费者连续的一段（往往是某一个 Broker 的全部队列），而 AVG_BY_CIRCLE 像发牌一样跨 Broker 轮流分配。"},
	Scenario: build("Lesson: circle vs average", brokers(3, "broker-a", "broker-b"), []string{"c1", "c2"}, 100, nil),
	Steps: []Step{{
		Prompt: Text{"Wait for the first rebalance: which brokers does c1 pull from?", "等待第一次重平衡：c1 从哪些 Broker 拉取？"},
		Explain: Text{"With AVG, c1 takes the first block of 3, all of broker-a, and c2 all of broker-b: if broker-a is slow or busy, only c1 feels it (spec §4.1).",
			"在 AVG 下，c1 拿到前 3 个，即 broker-a 的全部队列，c2 拿到 broker-b 的全部队列：如果 broker-a 慢或忙，只有 c1 受影响（spec §4.1）。"},
		Check: func(c *Context) bool {
			v := consumer(c.Now, "c1")
			return settled(c.Now) && v != nil && slices.Equal(brokersOf(v), []string{"broker-a"})
		},
	}, {
		Prompt: Text{"Switch the strategy to AVG_BY_CIRCLE and wait for the next rebalance (speed 5× helps).",
			"把策略切换为 AVG_BY_CIRCLE，等待下一次重平衡（调到 5× 速度会快些）。"},
		Explain: Text{"Queue number i goes to consumer i mod 2: c1 gets broker-a:0, broker-a:2, broker-b:1, so each consumer pulls from both brokers. The switch took effect at each consumer's next periodic round, up to 20 s later (spec §4.2, §3.1).",
			"第 i 个队列分给第 i mod 2 个消费者：c1 拿到 broker-a:0、broker-a:2、broker-b:1，每个消费者都从两个 Broker 拉取。切换在每个消费者的下一次周期性重平衡时生效，最多 20 秒后（spec §4.2、§3.1）。"},
		Speed: 5,
		Acts:  true,
		Check: func(c *Context) bool {
			v := consumer(c.Now, "c1")
			return c.Now.Strategy == "AVG_BY_CIRCLE" && settled(c.Now) && v != nil && len(brokersOf(v)) == 2
		},
	}, {
		Prompt: Text{"Add a consumer: how are the 6 queues dealt now?", "添加一个消费者：6 个队列现在怎么分？"},
		Explain: Text{"Dealt round robin over 3 consumers, each gets one queue of each broker: c1 broker-a:0 and broker-b:0, c2 broker-a:1 and broker-b:1, the newcomer broker-a:2 and broker-b:2 (spec §4.2).",
			"按 3 个消费者轮流发牌，每人从每个 Broker 各得一个队列：c1 得 broker-a:0 和 broker-b:0，c2 得 broker-a:1 和 broker-b:1，新消费者得 broker-a:2 和 broker-b:2（spec §4.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			if len(newConsumers(c.StepStart, c.Now)) == 0 || !settled(c.Now) || len(runningIDs(c.Now)) != 3 {
				return false
			}
			for _, id := range runningIDs(c.Now) {
				if len(brokersOf(consumer(c.Now, id))) != 2 || len(consumer(c.Now, id).Queues) != 2 {
					return false
				}
			}
			return true
		},
	}},
}

var machineRoom = &Lesson{
	ID:    "machine-room",
	Title: Text{"Machine rooms: consume nearby", "机房：就近消费"},
	Goal: Text{"See MACHINE_ROOM_NEARBY keep each room's queues with that room's consumers, and share a room's queues with everyone when it has no consumer left.",
		"观察 MACHINE_ROOM_NEARBY 把每个机房的队列留给本机房的消费者，而当某机房没有消费者时，它的队列由所有消费者分担。"},
	Scenario: build("Lesson: machine rooms", brokers(4, "hz-broker-a", "sh-broker-b"), []string{"hz-c1", "hz-c2", "sh-c1"}, 100,
		func(s *scenario.Scenario) { s.Strategy = allocate.Named("MACHINE_ROOM_NEARBY-AVG") }),
	Steps: []Step{{
		Prompt: Text{"Brokers and consumers are named room-name: hz or sh. Wait for the first rebalance and look at who pulls what.",
			"Broker 和消费者都以“机房-名字”命名：hz 或 sh。等待第一次重平衡，看看谁拉取哪些队列。"},
		Explain: Text{"The nearby strategy groups queues and consumers by room (here the text before the first '-') and runs the inner strategy, AVG, inside each room: hz-c1 and hz-c2 split hz-broker-a, sh-c1 takes all of sh-broker-b (spec §4.5).",
			"就近策略按机房（这里是第一个“-”之前的文字）把队列和消费者分组，在每个机房内运行内部策略 AVG：hz-c1 和 hz-c2 分 hz-broker-a，sh-c1 独占 sh-broker-b（spec §4.5）。"},
		Check: func(c *Context) bool {
			if !settled(c.Now) {
				return false
			}
			for _, id := range runningIDs(c.Now) {
				for _, b := range brokersOf(consumer(c.Now, id)) {
					if room(b) != room(id) {
						return false
					}
				}
			}
			return true
		},
	}, {
		Prompt: Text{"Kill sh-c1, the only consumer in room sh.", "杀死 sh-c1，它是 sh 机房唯一的消费者。"},
		Explain: Text{"A room without consumers is not abandoned: its queues are allocated over all consumers of the group with the inner strategy, so hz-c1 and hz-c2 now also pull sh-broker-b across rooms (spec §4.5 step 5). Plain MACHINE_ROOM would instead only ever consume the rooms listed in consumeridcs (spec §4.4).",
			"没有消费者的机房不会被放弃：它的队列用内部策略分给消费组的所有消费者，所以 hz-c1 和 hz-c2 现在也跨机房拉取 sh-broker-b（spec §4.5 第 5 步）。而普通的 MACHINE_ROOM 只会消费 consumeridcs 中列出的机房（spec §4.4）。"},
		Acts: true,
		Check: func(c *Context) bool {
			if running(c.Now, "sh-c1") || !settled(c.Now) {
				return false
			}
			for _, id := range runningIDs(c.Now) {
				if !slices.Contains(brokersOf(consumer(c.Now, id)), "sh-broker-b") {
					return false
				}
			}
			return true
		},
	}, {
		Prompt: Text{"Restart sh-c1.", "重启 sh-c1。"},
		Explain: Text{"As soon as room sh has a consumer again, its queues stay in the room: sh-c1 takes all of sh-broker-b back, and the hz consumers keep only hz-broker-a (spec §4.5 steps 4–6).",
			"sh 机房一旦重新有了消费者，它的队列就留在本机房：sh-c1 收回 sh-broker-b 的全部队列，hz 的消费者只保留 hz-broker-a（spec §4.5 第 4–6 步）。"},
		Acts: true,
		Check: func(c *Context) bool {
			v := consumer(c.Now, "sh-c1")
			return running(c.Now, "sh-c1") && settled(c.Now) && len(v.Queues) == 4 && slices.Equal(brokersOf(v), []string{"sh-broker-b"})
		},
	}},
}

var threeBrokers = brokers(4, "broker-a", "broker-b", "broker-c")

func latencyFaultOn(s *scenario.Scenario) { s.LatencyFault = true }

var slowBroker = &Lesson{
	ID:    "slow-broker",
	Title: Text{"A slow broker: avoided by latency tier, then back", "慢 Broker：按延迟档位规避，之后恢复"},
	Goal: Text{"See the producer's latency fault tolerance isolate a slow broker for the duration of its latency tier, and send to it again once it is fast.",
		"观察生产者的延迟容错如何按延迟档位对慢 Broker 隔离一段时间，并在它变快后重新向它发送。"},
	Scenario: build("Lesson: a slow broker", threeBrokers, []string{"c1", "c2"}, 100, latencyFaultOn),
	Steps: []Step{{
		Prompt: Text{"Latency fault tolerance is on. Click broker-b and slow it by 2000 ms.",
			"延迟容错已开启。点击 broker-b，让它慢 2000 毫秒。"},
		Explain: Text{"A send that took about 2000 ms falls in the 1800–2999 ms tier of latencyMax, whose notAvailableDuration is 5000 ms: the producer avoids broker-b for 5 s (550 ms → 2 s, 3000 ms → 6 s, 5000 ms → 10 s, 15000 ms → 30 s) (spec §0, §2.3).",
			"一次耗时约 2000 毫秒的发送落在 latencyMax 的 1800–2999 毫秒档，对应 notAvailableDuration 5000 毫秒：生产者在 5 秒内避开 broker-b（550 毫秒 → 2 秒，3000 毫秒 → 6 秒，5000 毫秒 → 10 秒，15000 毫秒 → 30 秒）（spec §0、§2.3）。"},
		Acts: true,
		Check: func(c *Context) bool {
			b := broker(c.Now, "broker-b")
			_, ok := find(c.Events, "", "broker-b", cluster.CauseIsolateSlow)
			return ok && b != nil && b.LatencyMs >= 550
		},
	}, {
		Prompt: Text{"Now make broker-b fast again (slow it by 100 ms, or 0) and watch its sends come back.",
			"现在让 broker-b 恢复（设为慢 100 毫秒或 0），观察发往它的消息恢复。"},
		Explain: Text{"An isolation is never shortened: broker-b becomes available again only when the time passes the deadline, and a send that then takes under 550 ms isolates it for 0 ms, so round robin includes it again (spec §2.4).",
			"隔离期只会延长、从不缩短：只有时间越过截止时刻，broker-b 才重新可用；之后一次耗时不到 550 毫秒的发送对应 0 毫秒的隔离，轮询重新包含它（spec §2.4）。"},
		Acts: true,
		Check: func(c *Context) bool {
			b, b0 := broker(c.Now, "broker-b"), broker(c.StepStart, "broker-b")
			return b != nil && b0 != nil && b.LatencyMs < 550 && c.Now.TimeMs > b.IsolatedUntilMs && b.Sends-b0.Sends >= 50
		},
	}},
}

// twoProducers gives a lesson's scenario two producers at rate each, p-java on the current
// client and p-java49 on the Java 4.9 one, with latency fault tolerance on.
func twoProducers(rate int) func(*scenario.Scenario) {
	return func(s *scenario.Scenario) {
		s.LatencyFault = true
		s.Producers = []cluster.ProducerConfig{{ID: "p-java", Rate: rate}, {ID: "p-java49", Rate: rate, Client: "java-4.9"}}
	}
}

var producer49 = &Lesson{
	ID:    "producer-49-isolation",
	Title: Text{"The 4.9 producer avoids a broker for ten minutes", "4.9 生产者避开 Broker 十分钟"},
	Goal: Text{"See one timed-out send make a Java 4.9 producer avoid a broker for ten minutes, long after it is fast again, where the current client comes back after ten seconds.",
		"观察一次超时的发送如何让 Java 4.9 生产者避开一个 Broker 十分钟，即使它早已恢复；而当前客户端十秒后就回来了。"},
	Scenario: build("Lesson: the 4.9 producer's ten minutes", threeBrokers, []string{"c1", "c2"}, 100, twoProducers(100)),
	Steps: []Step{{
		Prompt: Text{"Two producers send to three brokers with latency fault tolerance on: p-java runs the current Java client, p-java49 the 4.9 one. Click broker-b and slow it by 6000 ms.",
			"两个生产者向三个 Broker 发送，延迟容错已开启：p-java 运行当前的 Java 客户端，p-java49 运行 4.9 客户端。点击 broker-b，让它慢 6000 毫秒。"},
		Explain: Text{"Both producers' sends to broker-b time out after the 3000 ms sendMsgTimeout, a remoting exception that asks for isolation. The current client looks the tier up for 10000 ms and avoids broker-b for 10 s. The 4.9 client looks it up for 30000 ms in its own table (latencyMax 50, 100, 550, 1000, 2000, 3000, 15000; notAvailableDuration 0, 0, 30000, 60000, 120000, 180000, 600000): 600000 ms, ten minutes. The event log names each producer's deadline (spec §2.3, §2.5, §9.2).",
			"两个生产者发往 broker-b 的消息都在 3000 毫秒的 sendMsgTimeout 后超时，这是一个要求隔离的网络异常。当前客户端按 10000 毫秒查档位，避开 broker-b 10 秒。4.9 客户端按 30000 毫秒查它自己的表（latencyMax 50、100、550、1000、2000、3000、15000；notAvailableDuration 0、0、30000、60000、120000、180000、600000）：600000 毫秒，十分钟。事件日志写出了每个生产者的截止时刻（spec §2.3、§2.5、§9.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			b := broker(c.Now, "broker-b")
			_, cur := isolationBy(c.Events, "p-java", "broker-b")
			_, old := isolationBy(c.Events, "p-java49", "broker-b")
			return cur && old && b != nil && b.LatencyMs >= 3000
		},
	}, {
		Prompt: Text{"Make broker-b fast again (slow it by 0 ms) and watch which producer sends to it.",
			"让 broker-b 恢复（设为慢 0 毫秒），观察哪个生产者向它发送。"},
		Explain: Text{"p-java's isolation ended within 10 s; its next send to broker-b took under 550 ms, a tier of 0 ms, and broker-b is back in its round robin. p-java49 still avoids it: its selection walks the list to the first available broker and never tries broker-b, so it cannot learn that broker-b is fast. Only when no broker is available does the 4.9 client pick one anyway, round robin over the better half of its fault items (pickOneAtLeast) (spec §2.4, §9.2).",
			"p-java 的隔离在 10 秒内结束；它下一次发往 broker-b 的消息耗时不到 550 毫秒，对应 0 毫秒的档位，broker-b 重新回到它的轮询中。p-java49 仍然避开它：它的选择沿列表找到第一个可用的 Broker，从不尝试 broker-b，所以无从得知 broker-b 已经变快。只有当没有任何 Broker 可用时，4.9 客户端才会在故障项中较好的一半里轮流选一个（pickOneAtLeast）（spec §2.4、§9.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			b, b0 := broker(c.Now, "broker-b"), broker(c.StepStart, "broker-b")
			cur, _ := isolationBy(c.All, "p-java", "broker-b")
			old, ok := isolationBy(c.All, "p-java49", "broker-b")
			return ok && b != nil && b0 != nil && b.LatencyMs < 550 && c.Now.TimeMs > cur.Until && c.Now.TimeMs < old.Until &&
				b.Sends-b0.Sends >= 50
		},
	}, {
		Prompt: Text{"Set the speed to 20× and watch five minutes of simulated time: broker-b is fast, does p-java49 send to it?",
			"把速度调到 20×，观察 5 分钟模拟时间：broker-b 已经很快，p-java49 向它发送吗？"},
		Explain: Text{"No: every message of p-java49 goes to broker-a and broker-c, so broker-b stores about a sixth of all messages instead of a third. In 4.9 client exceptions and broker errors isolate too, each for the same ten minutes: one short stall can empty a healthy broker of a whole fleet of 4.9 producers (spec §9.2).",
			"不会：p-java49 的每条消息都发往 broker-a 和 broker-c，所以 broker-b 只存储了全部消息的大约六分之一，而不是三分之一。在 4.9 中，客户端异常和 Broker 返回的错误也会触发隔离，同样是十分钟：一次短暂的卡顿就可能让一整批 4.9 生产者都不再向一个健康的 Broker 发送（spec §9.2）。"},
		Speed: 20,
		Check: func(c *Context) bool {
			old, ok := isolationBy(c.All, "p-java49", "broker-b")
			return ok && c.Now.TimeMs >= old.T+5*60*1000
		},
	}, {
		Prompt: Text{"Keep watching until p-java49 sends to broker-b again.",
			"继续观察，直到 p-java49 重新向 broker-b 发送。"},
		Explain: Text{"Ten minutes after the timeout broker-b is available to p-java49 again and its round robin includes it: broker-b stores a third of the messages again. Had broker-b still been slow, the first send would have timed out and isolated it for ten more minutes, as testdata/scenarios/producer-client-java49.json shows. The current client isolates a failure for 10 s, and since 5.1.4 extends an isolation without ever shortening it (spec §2.4, §2.6, §9.2).",
			"超时十分钟后，broker-b 对 p-java49 重新可用，轮询又包含了它：broker-b 重新存储三分之一的消息。如果 broker-b 仍然很慢，第一次发送就会再次超时，再隔离十分钟，正如 testdata/scenarios/producer-client-java49.json 所示。当前客户端对失败只隔离 10 秒，并且从 5.1.4 起隔离只会延长、从不缩短（spec §2.4、§2.6、§9.2）。"},
		Speed: 20,
		Check: func(c *Context) bool {
			b := broker(c.Now, "broker-b")
			old, ok := isolationBy(c.All, "p-java49", "broker-b")
			return ok && b != nil && b.LatencyMs < 550 && c.Now.TimeMs >= old.Until+cluster.SendWindowSeconds*1000 && b.Window.Share >= 0.3
		},
	}},
}

var brokerDown = &Lesson{
	ID:    "broker-down",
	Title: Text{"A broker goes down: isolation and retries elsewhere", "Broker 宕机：隔离并在别处重试"},
	Goal: Text{"See the producer isolate a dead broker and retry its sends on another, and the consumers drop its queues at their next route refresh.",
		"观察生产者隔离宕机的 Broker 并在另一个 Broker 上重试发送，以及消费者在下一次路由刷新时丢弃它的队列。"},
	Scenario: build("Lesson: a broker down", threeBrokers, []string{"c1", "c2"}, 100, latencyFaultOn),
	Steps: []Step{{
		Prompt: Text{"Click broker-b and kill it.", "点击 broker-b 并让它宕机。"},
		Explain: Text{"The producer's route still lists broker-b until its next refresh: a send there fails, the failure isolates broker-b for 10000 ms, and the retry (up to 2 more attempts) avoids the broker of the previous attempt, so the message goes elsewhere (spec §2.3, §2.5).",
			"生产者的路由在下一次刷新前仍然包含 broker-b：发往它的消息失败，失败会把 broker-b 隔离 10000 毫秒，重试（最多再 2 次）会避开上一次尝试的 Broker，于是消息发到了别处（spec §2.3、§2.5）。"},
		Acts: true,
		Check: func(c *Context) bool {
			b := broker(c.Now, "broker-b")
			_, ok := find(c.Events, "", "broker-b", cluster.CauseIsolateFailed)
			return ok && b != nil && b.Down
		},
	}, {
		Prompt: Text{"Set the speed to 10× and wait until no consumer holds a queue of broker-b.",
			"把速度调到 10×，等到没有消费者再持有 broker-b 的队列。"},
		Explain: Text{"Consumers learn the topic's queues from the name server every 30 s (pollNameServerInterval); at their next rebalance after that refresh broker-b's queues are gone and the others are split anew (spec §0, §1.3, §3.3).",
			"消费者每 30 秒（pollNameServerInterval）从 NameServer 获取主题的队列；刷新之后的下一次重平衡中，broker-b 的队列消失，其余队列重新分配（spec §0、§1.3、§3.3）。"},
		Speed: 10,
		Check: func(c *Context) bool {
			b := broker(c.Now, "broker-b")
			return b != nil && b.Down && settled(c.Now)
		},
	}, {
		Prompt: Text{"Restore broker-b and wait until it receives messages and has consumers again.",
			"恢复 broker-b，等到它重新收到消息并再次有消费者。"},
		Explain: Text{"Clients find broker-b again at their next route refresh (≤ 30 s); the consumers' heartbeats register them there, the broker notifies the group and its queues are allocated again (spec §3.10, §5.1).",
			"客户端在下一次路由刷新（≤ 30 秒）时重新发现 broker-b；消费者的心跳在它上面注册，Broker 通知消费组，它的队列被重新分配（spec §3.10、§5.1）。"},
		Speed: 10,
		Acts:  true,
		Check: func(c *Context) bool {
			b, b0 := broker(c.Now, "broker-b"), broker(c.StepStart, "broker-b")
			if b == nil || b0 == nil || b.Down || b.Sends <= b0.Sends || !settled(c.Now) {
				return false
			}
			for _, q := range c.Now.Queues {
				if q.Broker == "broker-b" && len(q.Owners) == 1 {
					return true
				}
			}
			return false
		},
	}},
}

var offsetDuplicates = &Lesson{
	ID:    "offset-duplicates",
	Title: Text{"Duplicates in a rebalance: offsets every 5 s", "重平衡中的重复消费：每 5 秒提交位点"},
	Goal: Text{"See where at-least-once delivery comes from: the broker's committed offset trails the consumer's progress.",
		"观察“至少一次”投递从何而来：Broker 上提交的位点落后于消费者的实际进度。"},
	Scenario: build("Lesson: offsets and duplicates", twoByFour, []string{"c1", "c2"}, 200, nil),
	Steps: []Step{{
		Prompt: Text{"Let it run a few seconds, then kill c1 and watch the Duplicates counter.",
			"让它运行几秒，然后杀死 c1，观察“重复”计数。"},
		Explain: Text{"A consumer sends its in-memory offsets to the broker with each pull and every 5000 ms (persistConsumerOffsetInterval). c1 died between two uploads: c2 resumes from the last value the broker holds and consumes again what c1 had already consumed after it (spec §0, §3.9 case 3).",
			"消费者通过每次拉取请求以及每 5000 毫秒（persistConsumerOffsetInterval）把内存中的位点发给 Broker。c1 死在两次上传之间：c2 从 Broker 保存的最后位点继续，把 c1 在那之后已经消费过的消息再消费一遍（spec §0、§3.9 情形 3）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return hasStatus(c.Now, "c1", cluster.StatusKilled) && settled(c.Now) && c.Now.Metrics.Duplicates > c.StepStart.Metrics.Duplicates
		},
	}, {
		Prompt: Text{"Restart c1: c2 hands half of its queues back.", "重启 c1：c2 把一半队列交还给它。"},
		Explain: Text{"A queue given up in a rebalance has its offset uploaded at once, before the new owner reads it, so a planned hand-over repeats at most the unfinished tail, plus whatever both consume while their views overlap (spec §3.5, §3.9 cases 1–2).",
			"重平衡中放弃的队列会立即上传位点，新主人读取之前位点已经到达，所以有计划的交接最多重复未完成的尾部，以及双方视图重叠期间共同消费的消息（spec §3.5、§3.9 情形 1–2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			v := consumer(c.Now, "c1")
			return running(c.Now, "c1") && v != nil && len(v.Queues) > 0 && settled(c.Now)
		},
	}},
}

var broadcasting = &Lesson{
	ID:    "broadcasting",
	Title: Text{"Broadcasting: every consumer pulls every queue", "广播模式：每个消费者拉取所有队列"},
	Goal: Text{"See that in BROADCASTING nothing is divided: every consumer takes the whole topic, and a consumer leaving changes nobody else.",
		"观察在广播（BROADCASTING）模式下队列不做划分：每个消费者获取整个主题，有消费者离开也不影响其他人。"},
	Scenario: build("Lesson: broadcasting", twoByFour, []string{"c1", "c2", "c3"}, 100,
		func(s *scenario.Scenario) { s.MessageModel = cluster.Broadcasting }),
	Steps: []Step{{
		Prompt: Text{"Wait for the first rebalance: how many queues does each consumer pull?", "等待第一次重平衡：每个消费者拉取多少个队列？"},
		Explain: Text{"In broadcasting the rebalance does not allocate: each consumer's set is the topic's whole subscribe set, and every message is consumed by every consumer, each keeping its own offsets (spec §3.3).",
			"广播模式下重平衡不做分配：每个消费者的队列集合就是主题的全部队列，每条消息被每个消费者消费，各自维护自己的位点（spec §3.3）。"},
		Check: func(c *Context) bool { return everyoneHasAll(c.Now) },
	}, {
		Prompt: Text{"Kill c2. Do c1 and c3 change anything?", "杀死 c2。c1 和 c3 有变化吗？"},
		Explain: Text{"No: brokers do not notify broadcasting groups of membership changes, and nobody needs to take over c2's share, since there was none (spec §5.1, §5.2).",
			"没有：Broker 不会把成员变化通知广播消费组，也没有人需要接手 c2 的份额，因为它本来就没有“份额”（spec §5.1、§5.2）。"},
		Acts: true,
		Check: func(c *Context) bool {
			if !hasStatus(c.Now, "c2", cluster.StatusKilled) || !everyoneHasAll(c.Now) {
				return false
			}
			for _, e := range c.Events {
				if e.Kind == cluster.EventRebalance && e.Consumer != "c2" {
					return false
				}
			}
			return true
		},
	}, {
		Prompt: Text{"Switch the message model to CLUSTERING.", "把消息模式切换为集群（CLUSTERING）。"},
		Explain: Text{"In clustering the consumers divide the queues again, each queue pulled by exactly one consumer of the group (spec §3.3, §4.7).",
			"在集群模式下消费者重新划分队列，每个队列只被消费组中的一个消费者拉取（spec §3.3、§4.7）。"},
		Speed: 5,
		Acts:  true,
		Check: func(c *Context) bool { return c.Now.MessageModel == cluster.Clustering && settled(c.Now) },
	}},
}

// sameQueues says consumer id pulls exactly qs.
func sameQueues(s cluster.Snapshot, id string, qs ...string) bool {
	c := consumer(s, id)
	return c != nil && slices.Equal(c.Queues, qs)
}

// everyoneHasAll says every running consumer pulls every queue (broadcasting, settled).
func everyoneHasAll(s cluster.Snapshot) bool {
	ids := runningIDs(s)
	if len(ids) == 0 {
		return false
	}
	for _, id := range ids {
		if len(consumer(s, id).Queues) != len(s.Queues) {
			return false
		}
	}
	return true
}
