package lesson

import (
	"github.com/lbscope/lbscope/assets"
	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// Lessons of strategies users write themselves, in Starlark (the Strategy tab's gallery):
// their scenarios carry the source, so the page loads the interpreter before it starts them.

// ownStrategy is the gallery's example id as a scenario's strategy.
func ownStrategy(id, name string) allocate.Choice {
	b, err := assets.Strategies.ReadFile("strategies/" + id + ".star")
	if err != nil {
		panic("lesson: " + err.Error())
	}
	return allocate.Choice{Name: name, Source: string(b)}
}

// orphans are the queues open as pulled by nobody.
func orphans(s cluster.Snapshot) []string {
	var out []string
	for _, a := range s.Anomalies {
		if a.Kind == "orphan" && a.End == 0 {
			out = append(out, a.Queue)
		}
	}
	return out
}

var roundingNobody = &Lesson{
	ID:    "rounding-nobody",
	Title: Text{"Rounding leaves queues to nobody", "取整让队列无人拉取"},
	Goal: Text{"See a weighted strategy written in Starlark floor each member's share, floor(total · weight / Σweight): the floors add up to less than the total, and the last queues are pulled by nobody.",
		"观察一个用 Starlark 编写的加权策略：每个成员的份额向下取整 floor(total · weight / Σweight)，取整后的总和小于队列总数，最后几个队列无人拉取。"},
	Scenario: func() scenario.Scenario {
		return scenario.Scenario{Version: 1, Title: "Lesson: rounding leaves queues to nobody", Until: 10 * scenario.Minute,
			Config: cluster.Config{Seed: 1, Brokers: twoByEight(),
				Consumers: []cluster.ConsumerConfig{{ID: "c1"}, {ID: "c2"}, {ID: "c3"}},
				Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 100}},
				Strategy:  ownStrategy("rounding", "ROUNDING")}}
	},
	Steps: []Step{{
		Prompt: Text{"Three members weigh themselves 1, 2 and 3, and each takes floor(16 · weight / 6) queues. Wait for their first rebalance: does every queue have a member?",
			"三个成员的权重分别是 1、2、3，每个成员拿 floor(16 · 权重 / 6) 个队列。等它们第一次重平衡：每个队列都有人拉取吗？"},
		Explain: Text{"2 + 5 + 8 = 15 of 16 queues: broker-b:7 is nobody's and its messages pile up. Each floor drops a fraction and the fractions add up to whole queues; AVG hands the remainder out one by one instead (spec §4.1).",
			"2 + 5 + 8 = 15，共 16 个队列：broker-b:7 无人拉取，消息不断积压。每次取整都丢掉一点小数，这些小数加起来就是整个队列；AVG 则把余数逐个分出去（spec §4.1）。"},
		Check: func(c *Context) bool {
			o := orphans(c.Now)
			return c.Now.TimeMs > 2000 && len(o) == 1 && o[0] == "broker-b:7"
		},
	}, {
		Prompt: Text{"Add a consumer. Does a fourth member take the queue nobody pulls?",
			"添加一个消费者。第四个成员会接手那个无人拉取的队列吗？"},
		Explain: Text{"Weights 1 to 4 floor to 1 + 3 + 4 + 6 = 14: now two queues are nobody's. More members, more fractions lost. Press Check in the Strategy tab before deploying a strategy like this: it names the queues left over (spec §4.1).",
			"权重 1 到 4 取整后是 1 + 3 + 4 + 6 = 14：现在有两个队列无人拉取。成员越多，丢掉的小数越多。部署这样的策略之前，先在“自定义策略”页按“检查”：它会列出被遗漏的队列（spec §4.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return len(runningIDs(c.Now)) == 4 && len(orphans(c.Now)) == 2
		},
	}},
}

var weightsDisagree = &Lesson{
	ID:    "weights-disagree",
	Title: Text{"Weights every member computes differently", "每个成员算出的权重都不一样"},
	Goal: Text{"See a load-weighted strategy in which each member computes every weight from its own view: its own CPU and rate as of now, the others' as they last published them. The members disagree, and queues are left to nobody.",
		"观察一个按负载加权的策略：每个成员用自己看到的数据计算所有权重——自己的 CPU 和消费速率用当前值，别人的用他们上次发布的值。成员之间意见不一，有队列无人拉取。"},
	Scenario: func() scenario.Scenario {
		return scenario.Scenario{Version: 1, Title: "Lesson: weights every member computes differently", Until: 10 * scenario.Minute,
			Config: cluster.Config{Seed: 1,
				Brokers: []cluster.BrokerConfig{{Name: "broker-a", Queues: 4}, {Name: "broker-b", Queues: 4}, {Name: "broker-c", Queues: 4}, {Name: "broker-d", Queues: 4}},
				Consumers: []cluster.ConsumerConfig{{ID: "c1", ConsumeRate: 300}, {ID: "c2", ConsumeRate: 100},
					{ID: "c3", ConsumeRate: 200}, {ID: "c4", ConsumeRate: 100}},
				Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 400}},
				Strategy:  ownStrategy("weighted", "WEIGHTED")}}
	},
	Steps: []Step{{
		Prompt: Text{"Each member weighs itself by its numbers of now and the others by what they published at the last 10-second mark. Wait until they have published and rebalanced (about 21 s): is every queue pulled?",
			"每个成员用自己当前的数据给自己加权，用别人在上一个 10 秒整点发布的数据给别人加权。等它们发布并重新平衡之后（大约 21 秒）：每个队列都有人拉取吗？"},
		Explain: Text{"No: the members' blocks do not line up. c4 thinks the others' shares end earlier than they do, and the last queues of broker-d are pulled by nobody; no member sees the gap, since each is right by its own numbers. Give every member the same inputs (the sorted lists RebalanceImpl passes), or check with Check, which runs each member with its own view (spec §3.3).",
			"没有：成员们算出的区段对不上。c4 以为别人的份额比实际结束得早，broker-d 的最后几个队列无人拉取；没有成员发现这个缺口，因为按各自的数据每个人都是对的。要么让每个成员用相同的输入（RebalanceImpl 传入的排好序的列表），要么用“检查”——它会用每个成员各自看到的数据来运行策略（spec §3.3）。"},
		Speed: 4,
		Check: func(c *Context) bool {
			return c.Now.TimeMs > 21500 && len(orphans(c.Now)) > 0
		},
	}, {
		Prompt: Text{"Set the strategy to AVG, which every member computes from the same sorted lists.",
			"把分配策略改为 AVG：每个成员都用同样排好序的列表来计算。"},
		Explain: Text{"At their next rebalance every member computes the same blocks, and every queue has exactly one member again. A strategy is safe to run in a group when it is a function of what RebalanceImpl passes alone (spec §3.3, §4.1).",
			"在下一次重平衡时，每个成员算出的区段完全相同，每个队列重新恰好有一个成员拉取。只有当策略只依赖 RebalanceImpl 传入的参数时，它才能安全地在消费组里运行（spec §3.3、§4.1）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return c.Now.Strategy == "AVG" && settled(c.Now) && len(orphans(c.Now)) == 0
		},
	}},
}

// twoByEight is two brokers of eight queues.
func twoByEight() []cluster.BrokerConfig {
	return []cluster.BrokerConfig{{Name: "broker-a", Queues: 8}, {Name: "broker-b", Queues: 8}}
}
