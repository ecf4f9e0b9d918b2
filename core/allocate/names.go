package allocate

import (
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// Params are the strategies' settings. Fields a strategy does not use are ignored.
type Params struct {
	// VirtualNodeCnt for CONSISTENT_HASH; nil means the default constructor (10).
	VirtualNodeCnt *int `json:"virtualNodeCnt,omitempty"`
	// ConsumerIDCs for MACHINE_ROOM; nil means setConsumeridcs was never called.
	ConsumerIDCs []string `json:"consumeridcs,omitempty"`
	// Inner strategy of MACHINE_ROOM_NEARBY (AVG, AVG_BY_CIRCLE or CONSISTENT_HASH); "" is AVG.
	Inner string `json:"inner,omitempty"`
	// InnerVirtualNodeCnt when Inner is CONSISTENT_HASH; nil means 10.
	InnerVirtualNodeCnt *int `json:"innerVirtualNodeCnt,omitempty"`
	// MessageQueueList for CONFIG; nil means never set (every consumer then gets null).
	MessageQueueList []route.MessageQueue `json:"messageQueueList,omitempty"`
	// Values are the parameters of strategies registered beyond RocketMQ's own, by name, as
	// JSON decodes them (a whole number is a float64).
	Values map[string]any `json:"-"`
}

// MaxRooms bounds MACHINE_ROOM's consumeridcs.
const MaxRooms = 64

// RocketMQ's six strategies, the table's first entries.
func init() {
	vnodes := func(name string, w map[string]Words) ParamSpec {
		return ParamSpec{Name: name, Type: ParamInt, Min: ptr(0), Max: ptr(MaxVirtualNodeCnt), Default: DefaultVirtualNodeCnt, Words: w}
	}
	Register(StrategySpec{Name: "AVG",
		New: func(Params) (Strategy, error) { return Averagely{}, nil },
		Words: hint("Contiguous blocks: each consumer takes the next run of queues.",
			"平均分配：每个消费者依次取连续的一段队列。")})
	Register(StrategySpec{Name: "AVG_BY_CIRCLE",
		New: func(Params) (Strategy, error) { return AveragelyByCircle{}, nil },
		Words: hint("Round robin: queue i goes to consumer i mod n.",
			"环形平均分配：第 i 个队列分给第 i mod n 个消费者。")})
	Register(StrategySpec{Name: "CONSISTENT_HASH",
		Params: []ParamSpec{vnodes("virtualNodeCnt", label("Virtual nodes", "虚拟节点数"))},
		New:    func(p Params) (Strategy, error) { return newConsistentHash(p.VirtualNodeCnt) },
		Cost:   func(p Params) int { return p.Int("virtualNodeCnt", DefaultVirtualNodeCnt) },
		Words: hint("A hash ring with virtual nodes per consumer.",
			"一致性哈希环，每个消费者有若干虚拟节点。")})
	Register(StrategySpec{Name: "CONFIG",
		Params: []ParamSpec{{Name: "messageQueueList", Type: ParamQueues, Unit: "queues", Words: label("Queues (messageQueueList)", "队列（messageQueueList）")}},
		New:    func(p Params) (Strategy, error) { return ByConfig{MessageQueueList: p.MessageQueueList}, nil },
		Words: hint("A fixed list of queues for every consumer (none set here: consumers get none).",
			"为每个消费者指定固定的队列列表（这里未设置：消费者分不到队列）。")})
	Register(StrategySpec{Name: "MACHINE_ROOM",
		Params: []ParamSpec{{Name: "consumeridcs", Type: ParamNames, Unit: "rooms", Max: ptr(MaxRooms),
			Words: map[string]Words{
				"en": {Label: "Rooms (consumeridcs)", Hint: "Comma-separated machine rooms this group consumes from."},
				"zh": {Label: "机房（consumeridcs）", Hint: "本消费组所消费的机房，用逗号分隔。"},
			}}},
		New: func(p Params) (Strategy, error) { return NewByMachineRoom(p.ConsumerIDCs), nil },
		Words: hint("Only brokers named room@broker in the listed rooms, averaged.",
			"只在所列机房的 Broker（名称形如“机房@Broker”）之间平均分配。")})
	Register(StrategySpec{Name: "MACHINE_ROOM_NEARBY",
		Params: []ParamSpec{
			{Name: "inner", Type: ParamEnum, Enum: []string{"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH"}, Default: "AVG",
				Words: label("Inner strategy", "内层策略")},
			{Name: "innerVirtualNodeCnt", Type: ParamInt, Min: ptr(0), Max: ptr(MaxVirtualNodeCnt), Default: DefaultVirtualNodeCnt,
				When: &When{Param: "inner", Is: "CONSISTENT_HASH"}, Words: label("Inner virtual nodes", "内层虚拟节点数")},
		},
		Suffix: "inner",
		New: func(p Params) (Strategy, error) {
			var inner Strategy = Averagely{}
			switch strings.ToUpper(p.Inner) {
			case "AVG_BY_CIRCLE":
				inner = AveragelyByCircle{}
			case "CONSISTENT_HASH":
				ch, err := newConsistentHash(p.InnerVirtualNodeCnt)
				if err != nil {
					return nil, err
				}
				inner = ch
			}
			return NewMachineRoomNearby(inner, PrefixBeforeFirstDash{})
		},
		Cost: func(p Params) int {
			if strings.EqualFold(p.Inner, "CONSISTENT_HASH") || p.InnerVirtualNodeCnt != nil {
				return p.Int("innerVirtualNodeCnt", DefaultVirtualNodeCnt)
			}
			return 0
		},
		Words: hint("Rooms from the part before the first dash; an inner strategy inside each room.",
			"以第一个短横线之前的部分作为机房；每个机房内使用内层策略。")})
}

func hint(en, zh string) map[string]Words {
	return map[string]Words{"en": {Hint: en}, "zh": {Hint: zh}}
}

func label(en, zh string) map[string]Words {
	return map[string]Words{"en": {Label: en}, "zh": {Label: zh}}
}

func ptr[T any](v T) *T { return &v }

func newConsistentHash(n *int) (Strategy, error) {
	if n == nil {
		return NewConsistentHash(DefaultVirtualNodeCnt)
	}
	return NewConsistentHash(*n)
}
