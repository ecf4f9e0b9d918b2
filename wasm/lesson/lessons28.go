package lesson

import (
	"github.com/lbscope/lbscope/core/cluster"
)

var grpcFifo = &Lesson{
	ID:    "grpc-fifo",
	Title: Text{"A FIFO queue waits for its batch", "FIFO 队列等待它的那一批消息"},
	Goal: Text{"See how RocketMQ 5 serves an orderly group's gRPC consumers: each receive takes a batch from a queue, and that queue gives nobody anything more until every message of the batch is acked; and where a dead consumer's batches go.",
		"观察 RocketMQ 5 如何服务顺序消费组的 gRPC 消费者：每次接收从一个队列取走一批消息，在这批消息全部确认之前，该队列不再给任何人消息；以及死掉的消费者手里的批次去了哪里。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: a FIFO gRPC group", "seed": 1,
		"topics": [{"name": "TopicFifo", "queues": 4}], "groups": [{"name": "GID_FIFO", "orderly": true}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}], "proxies": [{"name": "proxy-1"}],
		"consumers": [{"id": "P1", "kind": "grpc-push", "consumeRate": 200}, {"id": "P2", "kind": "grpc-push", "consumeRate": 200}],
		"producers": [{"id": "orders", "rate": 100, "kind": "grpc", "keys": {"count": 16, "prefix": "order-"}}]}`),
	Steps: []Step{{
		Prompt: Text{"P1 and P2 receive FIFO through proxy-1: one receive per queue, 8 each. Hang P1 (its listener stops returning) and watch the backlog.",
			"P1 和 P2 经 proxy-1 按 FIFO 接收：每个队列一个接收，各 8 个。让 P1 卡住（它的监听器不再返回），观察积压。"},
		Explain: Text{"P1 still receives and the proxy renews what it holds, but it acks nothing: each queue it took a batch from is blocked for everyone until that batch is acked, and as the queues free up one by one its receives take them too. P2 is idle beside a growing backlog: a FIFO queue's next messages wait behind its batch, in order (spec §8.3.9, §8.4.6).",
			"P1 仍在接收，Proxy 也在为它续期，但它什么都不确认：它取过一批消息的队列对所有人都被阻塞，直到那批消息被确认；队列一个个空出来时，它的接收又把它们拿走。P2 在不断增长的积压旁空闲：FIFO 队列后面的消息按顺序排在这批消息之后（spec §8.3.9、§8.4.6）。"},
		Acts: true,
		Check: func(c *Context) bool {
			return hasStatus(c.Now, "P1", cluster.StatusHung) && c.Now.Metrics.Backlog > 3000
		},
	}, {
		Prompt: Text{"Kill P1, and watch when its queues move again.",
			"杀掉 P1，观察它的队列何时重新流动。"},
		Explain: Text{"Nothing happens for about two minutes: the proxy renews P1's batches until its channel expires, 120–130 s after its last heartbeat. Then each batch is visible again where it is, and P2 reads it from the same offset, in order, its reconsume count one more: no retry topic, and the order of each message group is kept (spec §8.3.9, §8.4.6).",
			"大约两分钟内什么都不会发生：Proxy 一直为 P1 的批次续期，直到它的通道过期，即最后一次心跳后 120–130 秒。然后每一批消息在原地重新可见，P2 从同一位点按顺序读取，重试次数加一：不经过重试主题，每个消息组的顺序得以保持（spec §8.3.9、§8.4.6）。"},
		Acts: true,
		Check: func(c *Context) bool {
			killed, ok := c.Became("P1", cluster.StatusKilled)
			if !ok {
				return false
			}
			// The batches it held before the kill, back when its channel expired (those its
			// parked receives popped after the kill come back within seconds).
			for _, e := range c.Events {
				if e.Cause == cluster.CauseRevive && e.Consumer == "P1" && e.T-killed >= 100_000 {
					return consumer(c.Now, "P2").Consumed > consumer(c.StepStart, "P2").Consumed
				}
			}
			return false
		},
	}},
}
