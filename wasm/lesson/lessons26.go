package lesson

import (
	"slices"

	"github.com/lbscope/lbscope/core/cluster"
)

// grpcAll is what every gRPC PushConsumer of the lesson is assigned: each broker's acting queue
// (spec §8.4.3).
var grpcAll = []string{"broker-a:-1", "broker-b:-1"}

// grpcTopic is the gRPC lesson's topic.
const grpcTopic = "TopicGrpc"

var grpcNoRebalance = &Lesson{
	ID:    "grpc-no-rebalance",
	Title: Text{"gRPC consumers need no client rebalance", "gRPC 消费者不做客户端重平衡"},
	Goal: Text{"See that RocketMQ 5's gRPC PushConsumers, reaching the brokers through a proxy, are all given every broker and never rebalance: a newcomer changes nobody's assignment, and a killed consumer's messages wait for its proxy to notice it is gone.",
		"观察 RocketMQ 5 的 gRPC PushConsumer 经 Proxy 访问 Broker 时，每个消费者都被分配全部 Broker，且从不重平衡：新成员加入不会改变任何人的分配；被杀掉的消费者手里的消息要等 Proxy 发现它离开后才回来。"},
	Scenario: fromJSON(`{"version": 2, "title": "Lesson: gRPC consumers", "seed": 1,
		"topics": [{"name": "TopicGrpc", "queues": 4}], "groups": [{"name": "GID_GRPC"}],
		"brokers": [{"name": "broker-a"}, {"name": "broker-b"}], "proxies": [{"name": "proxy-1"}],
		"consumers": [{"id": "P1", "kind": "grpc-push", "consumeRate": 200}, {"id": "P2", "kind": "grpc-push", "consumeRate": 20},
			{"id": "P3", "kind": "grpc-push", "consumeRate": 200}],
		"producers": [{"id": "p1", "rate": 200}]}`),
	Steps: []Step{{
		Prompt: Text{"P1, P2 and P3 are gRPC PushConsumers behind proxy-1. Hover one: which queues does it hold?",
			"P1、P2、P3 是经 proxy-1 接入的 gRPC PushConsumer。把鼠标移到其中一个上：它持有哪些队列？"},
		Explain: Text{"Each holds broker-a:-1 and broker-b:-1, the same as the others: every 5 s it asks the proxy for its assignments, and the proxy answers every consumer of the group alike, one acting queue per readable broker, with no client list and no strategy. The brokers do not even list these consumers; the proxy pops the brokers for them (spec §8.4.1, §8.4.3, §8.4.5).",
			"每个都持有 broker-a:-1 和 broker-b:-1，与其他成员一样：它每 5 秒向 Proxy 查询一次分配，Proxy 对组内每个消费者的答复都相同——每个可读 Broker 一个代理队列，不看客户端列表，也不用分配策略。Broker 上甚至没有这些消费者；由 Proxy 替它们去 Broker 上 Pop（spec §8.4.1、§8.4.3、§8.4.5）。"},
		Check: func(c *Context) bool {
			for _, id := range []string{"P1", "P2", "P3"} {
				k := consumer(c.Now, id)
				if k == nil || k.Kind != cluster.KindGrpcPush || !slices.Equal(held(c.Now, id, grpcTopic), grpcAll) || k.Consumed == 0 {
					return false
				}
			}
			return true
		},
	}, {
		Prompt: Text{"Add a consumer, and watch the others' queues.",
			"添加一个消费者，观察其他成员的队列。"},
		Explain: Text{"The newcomer, a gRPC PushConsumer like the group's first member, gets both acting queues at its first scan and consumes at once; nobody else changes, because nothing is divided: each message goes to whichever consumer's receive reaches the broker first (spec §8.4.4, §8.6.4).",
			"新成员与组内第一个成员一样是 gRPC PushConsumer，第一次查询就拿到两个代理队列并立即开始消费；其他人都没有变化，因为没有任何东西需要划分：每条消息交给最先到达 Broker 的那个接收请求（spec §8.4.4、§8.6.4）。"},
		Acts: true,
		Check: func(c *Context) bool {
			k, _, consumed := newcomer(c)
			if !consumed || k.Kind != cluster.KindGrpcPush || !slices.Equal(held(c.Now, k.ID, grpcTopic), grpcAll) {
				return false
			}
			for _, id := range []string{"P1", "P2", "P3"} {
				if !slices.Equal(held(c.Now, id, grpcTopic), grpcAll) {
					return false
				}
			}
			return true
		},
	}, {
		Prompt: Text{"P2 is slow and holds many messages. Kill P2, then play on (10× helps) for about two and a half minutes.",
			"P2 很慢，手里有大量消息。杀掉 P2，然后继续播放约两分半钟（10 倍速更快）。"},
		Explain: Text{"Nothing is reassigned, and P2's messages do not come back after their 60 s of invisible time: the proxy keeps renewing them while P2's channel lives. Only its scan 120–130 s after P2's last heartbeat finds the channel expired; it then makes them visible in 1 s, and the brokers revive them about 3 s later on %RETRY%GID_GRPC_TopicGrpc for the others (spec §8.4.6, §8.6.4 step 5).",
			"不会重新分配，P2 的消息也不会在 60 秒不可见时间后回来：只要 P2 的通道还在，Proxy 就一直为它续期。直到 P2 最后一次心跳后 120–130 秒的扫描发现通道过期，Proxy 才让这些消息 1 秒后可见，Broker 约 3 秒后把它们复活到 %RETRY%GID_GRPC_TopicGrpc，交给其他成员（spec §8.4.6、§8.6.4 第 5 步）。"},
		Acts: true,
		Check: func(c *Context) bool {
			if !hasStatus(c.Now, "P2", cluster.StatusKilled) {
				return false
			}
			for _, e := range c.Events {
				if e.Cause == cluster.CauseProxyClear && e.Consumer == "P2" && e.N > 0 {
					return count(c.Events, cluster.CauseRevive) > 0
				}
			}
			return false
		},
	}},
}
