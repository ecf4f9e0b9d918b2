package lesson

import (
	"github.com/lbscope/lbscope/core/cluster"
)

var grpcSimple = &Lesson{
	ID:    "grpc-simple-consumer",
	Title: Text{"A SimpleConsumer waits on an empty broker", "SimpleConsumer 在空 Broker 上空等"},
	Goal: Text{"See that RocketMQ 5's gRPC SimpleConsumer is given no queue: each receive goes to the next broker of the route, and one that finds nothing is held up to 20 s, so a broker without messages slows the whole loop; and that nothing renews what it received.",
		"观察 RocketMQ 5 的 gRPC SimpleConsumer 不被分配任何队列：每次接收轮到路由中的下一个 Broker，没有消息的那次会被挂起最多 20 秒，所以一个没有消息的 Broker 会拖慢整个接收循环；并且它收到的消息没有人续期。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: a SimpleConsumer", "seed": 1,
		"topics": [{"name": "TopicSimple", "queues": 4}], "groups": [{"name": "GID_SIMPLE"}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}], "proxies": [{"name": "proxy-1"}],
		"consumers": [{"id": "S1", "kind": "grpc-simple", "consumeRate": 2}, {"id": "S2", "kind": "grpc-simple", "consumeRate": 400}],
		"producers": [{"id": "p1", "rate": 200}]}`),
	Steps: []Step{{
		Prompt: Text{"S1 and S2 are SimpleConsumers behind proxy-1, each receiving 16 messages at a time. Make broker-b read-only (its permission R): producers stop writing there. Then watch the backlog.",
			"S1 和 S2 是经 proxy-1 接入的 SimpleConsumer，每次接收 16 条消息。把 broker-b 设为只读（权限 R）：生产者不再往它写入。然后观察积压。"},
		Explain: Text{"Each receive goes to the next broker of the route, and read-only broker-b is still in it. broker-b has nothing to pop, so the proxy holds that receive for 20 s (an awaitDuration of 30 s is cut to 20 s), and only then does the loop go back to broker-a for 16 more messages. S2 could take 400 messages a second; it takes fewer than one (spec §8.4.5 step 1, §8.4.7).",
			"每次接收都轮到路由中的下一个 Broker，只读的 broker-b 仍在路由里。broker-b 没有消息可弹出，Proxy 就把这次接收挂起 20 秒（30 秒的 awaitDuration 被截为 20 秒），之后循环才回到 broker-a 再取 16 条。S2 每秒本可消费 400 条，实际不到 1 条（spec §8.4.5 第 1 步、§8.4.7）。"},
		Acts: true,
		Check: func(c *Context) bool {
			b := broker(c.Now, "broker-b")
			return b != nil && b.Perm == cluster.PermR && c.Now.Metrics.Backlog > 2000 && consumer(c.Now, "S2").Consumed > 0
		},
	}, {
		Prompt: Text{"Give broker-b its writes back (permission RW), and watch the backlog.",
			"恢复 broker-b 的写权限（权限 RW），观察积压。"},
		Explain: Text{"At their next route refresh the producers write to broker-b again; receives there find messages and return at once, so the loop no longer waits and drains the backlog. A SimpleConsumer is only as fast as the emptiest broker it cycles through lets it be, unless its awaitDuration is short (5 s at the least: the proxy holds an empty receive no shorter, spec §8.4.5 step 1).",
			"生产者在下一次刷新路由时重新往 broker-b 写入；那里的接收能取到消息并立即返回，循环不再空等，积压随之下降。SimpleConsumer 的速度取决于它轮到的最空的那个 Broker，除非 awaitDuration 很短（至少 5 秒：Proxy 挂起空接收不会更短，spec §8.4.5 第 1 步）。"},
		Acts: true,
		Check: func(c *Context) bool {
			b := broker(c.Now, "broker-b")
			return b != nil && b.Perm == cluster.PermRW && c.Now.Metrics.Backlog < c.StepStart.Metrics.Backlog/2
		},
	}, {
		Prompt: Text{"S1 is slow and holds the messages of its last receive. Kill S1 and watch when they come back.",
			"S1 很慢，手里还有上一次接收的消息。杀掉 S1，看这些消息何时回来。"},
		Explain: Text{"No proxy renews a SimpleConsumer's messages: they come back at the end of their invisible time, 15 s after the receive, plus the revive service's 2–3 s, on %RETRY%GID_SIMPLE_TopicSimple, alive or dead. A PushConsumer's would wait for its channel to expire, two minutes (spec §8.4.6).",
			"Proxy 不会为 SimpleConsumer 的消息续期：无论它是否存活，这些消息都会在不可见时间结束时（接收后 15 秒）再加上复活服务的 2–3 秒，回到 %RETRY%GID_SIMPLE_TopicSimple。PushConsumer 的消息则要等它的通道过期，约两分钟（spec §8.4.6）。"},
		Acts: true,
		Check: func(c *Context) bool {
			if !hasStatus(c.Now, "S1", cluster.StatusKilled) {
				return false
			}
			for _, e := range c.Events {
				if e.Cause == cluster.CauseRevive && e.Consumer == "S1" && e.T-c.StepStart.TimeMs <= 20_000 {
					return true
				}
			}
			return false
		},
	}},
}
