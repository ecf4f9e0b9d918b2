package goclient

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// Panic is a Go runtime panic a strategy or selector of rocketmq-client-go would raise. The
// client does not recover it by default, so it ends the consumer process (spec §9.1.4 step
// 5). Error returns the text the conformance vectors record: "panic: <value>".
type Panic struct {
	Value string // the recovered value, e.g. "runtime error: integer divide by zero"
}

func (p *Panic) Error() string { return "panic: " + p.Value }

var errDivideByZero = &Panic{Value: "runtime error: integer divide by zero"}

func indexOutOfRange(i, n int) *Panic {
	return &Panic{Value: fmt.Sprintf("runtime error: index out of range [%d] with length %d", i, n)}
}

// Strategy is consumer.AllocateStrategy. It satisfies allocate.Strategy: the result is nil
// for the shared guard's cases (spec §9.1.3), an empty non-nil slice for "nothing for you",
// and the error, when there is one, is always a *Panic. Inputs are used in the order given
// and never modified; the result may share memory with mqAll.
type Strategy interface {
	Name() string
	Allocate(consumerGroup, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error)
}

// guard is the check copied at the top of AVG, AVG_BY_CIRCLE, MACHINE_ROOM and
// CONSISTENT_HASH (spec §9.1.3): an empty id or list, or an id not in cidAll, gives nil
// (ok false). Otherwise index is the id's first position.
func guard(currentCID string, mqAll []route.MessageQueue, cidAll []string) (index int, ok bool) {
	if currentCID == "" || len(mqAll) == 0 || len(cidAll) == 0 {
		return -1, false
	}
	for i, id := range cidAll {
		if id == currentCID {
			return i, true
		}
	}
	return -1, false // logged as a warning by the client; Java returns []
}

// NotInCidAllLog is the warning rocketmq-client-go logs when a consumer's own id is not in
// the list the broker gave (consumer/strategy.go).
const NotInCidAllLog = "[BUG] ConsumerId not in cidAll"

// NotInCidAll reports whether calling s logs rocketmq-client-go's warning "[BUG] ConsumerId
// not in cidAll" (spec §9.1.3): the guard's inputs are there but currentCID is not among the
// ids, so the strategy returns nil and the consumer drops every queue of the topic. CONFIG
// has no guard and never logs it.
func NotInCidAll(s Strategy, currentCID string, mqAll []route.MessageQueue, cidAll []string) bool {
	if _, ok := s.(ByConfig); ok || currentCID == "" || len(mqAll) == 0 || len(cidAll) == 0 {
		return false
	}
	_, ok := guard(currentCID, mqAll, cidAll)
	return !ok
}

// Averagely is AllocateByAveragely, "AVG": the Java arithmetic of spec §4.1 behind the Go
// guard.
type Averagely struct{}

func (Averagely) Name() string { return "AVG" }

func (Averagely) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, ok := guard(currentCID, mqAll, cidAll)
	if !ok {
		return nil, nil
	}
	n, c := len(mqAll), len(cidAll)
	start, num := avgRange(n, c, index)
	result := []route.MessageQueue{}
	for i := 0; i < num; i++ { // a negative num gives [] (spec §9.1.3)
		result = append(result, mqAll[(start+i)%n])
	}
	return result, nil
}

// avgRange is the formula of spec §4.1: the start index and the (possibly negative) count.
func avgRange(n, c, index int) (start, num int) {
	mod := n % c
	size := n / c
	switch {
	case n <= c:
		size = 1
	case mod > 0 && index < mod:
		size = n/c + 1
	}
	if mod > 0 && index < mod {
		start = index * size
	} else {
		start = index*size + mod
	}
	return start, min(size, n-start)
}

// AveragelyByCircle is AllocateByAveragelyCircle, "AVG_BY_CIRCLE" (spec §9.1.3, §4.2).
type AveragelyByCircle struct{}

func (AveragelyByCircle) Name() string { return "AVG_BY_CIRCLE" }

func (AveragelyByCircle) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, ok := guard(currentCID, mqAll, cidAll)
	if !ok {
		return nil, nil
	}
	result := []route.MessageQueue{}
	for i := index; i < len(mqAll); i += len(cidAll) {
		result = append(result, mqAll[i])
	}
	return result, nil
}

// MachineNearby is AllocateByMachineNearby, "MACHINE_ROOM_NEARBY": in v2.1.2 its body is a
// TODO that returns AllocateByAveragely, so rooms are ignored entirely (spec §9.1.3).
type MachineNearby struct{}

func (MachineNearby) Name() string { return "MACHINE_ROOM_NEARBY" }

func (MachineNearby) Allocate(group, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	return Averagely{}.Allocate(group, currentCID, mqAll, cidAll)
}

// ByConfig is AllocateByConfig(list), "CONFIG": the list itself (nil if nil) for every call,
// with no check at all.
type ByConfig struct {
	List []route.MessageQueue
}

func (ByConfig) Name() string { return "CONFIG" }

func (s ByConfig) Allocate(_, _ string, _ []route.MessageQueue, _ []string) ([]route.MessageQueue, error) {
	return s.List, nil
}

// ByMachineRoom is AllocateByMachineRoom(consumeridcs), "MACHINE_ROOM", with the index bug
// v2.1.2 still has (spec §9.1.3): the block is read from mqAll instead of the room's queues.
// The rooms are a slice: a room listed k times puts each of its queues k times into the
// room list, which can make the block run past mqAll — a panic.
type ByMachineRoom struct {
	ConsumerIDCs []string
}

func (ByMachineRoom) Name() string { return "MACHINE_ROOM" }

func (s ByMachineRoom) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, ok := guard(currentCID, mqAll, cidAll)
	if !ok {
		return nil, nil
	}
	pre := s.pre(mqAll)
	c := len(cidAll)
	m, rem := len(pre)/c, len(pre)%c
	start := m * index
	result := []route.MessageQueue{}
	for i := start; i < start+m; i++ {
		if i >= len(mqAll) {
			return nil, indexOutOfRange(i, len(mqAll))
		}
		result = append(result, mqAll[i]) // the bug: mqAll, not pre
	}
	if rem > index {
		result = append(result, pre[index+m*c])
	}
	return result, nil
}

// pre is the room list: each queue whose broker name splits at '@' into exactly two pieces
// (Go's strings.Split keeps empty ones: "room1@" is room "room1"), once per matching entry
// of the rooms.
func (s ByMachineRoom) pre(mqAll []route.MessageQueue) []route.MessageQueue {
	var pre []route.MessageQueue
	for _, mq := range mqAll {
		room, rest, found := strings.Cut(mq.BrokerName, "@")
		if !found || strings.Contains(rest, "@") {
			continue
		}
		for _, idc := range s.ConsumerIDCs {
			if idc == room {
				pre = append(pre, mq)
			}
		}
	}
	return pre
}

// Names lists the strategy names New accepts.
var Names = []string{"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH", "CONFIG", "MACHINE_ROOM", "MACHINE_ROOM_NEARBY"}

// Params are the constructor arguments of the Go strategies.
type Params struct {
	VirtualNodeCnt int                  // AllocateByConsistentHash(virtualNodeCnt); 0 panics, < 0 is an empty ring
	ConsumerIDCs   []string             // AllocateByMachineRoom(consumeridcs); nil allowed
	List           []route.MessageQueue // AllocateByConfig(list); nil allowed
}

// New builds a strategy from its RocketMQ name (case-insensitive). "MACHINE_ROOM_NEARBY-AVG"
// is accepted as the Java name of the Go nearby strategy, which has no inner strategy.
func New(name string, p Params) (Strategy, error) {
	switch upper := strings.ToUpper(strings.TrimSpace(name)); upper {
	case "AVG":
		return Averagely{}, nil
	case "AVG_BY_CIRCLE":
		return AveragelyByCircle{}, nil
	case "CONSISTENT_HASH":
		return ConsistentHash{VirtualNodeCnt: p.VirtualNodeCnt}, nil
	case "CONFIG":
		return ByConfig{List: p.List}, nil
	case "MACHINE_ROOM":
		return ByMachineRoom{ConsumerIDCs: p.ConsumerIDCs}, nil
	case "MACHINE_ROOM_NEARBY", "MACHINE_ROOM_NEARBY-AVG":
		return MachineNearby{}, nil
	}
	return nil, fmt.Errorf("unknown strategy %q for rocketmq-client-go (want one of %s)", name, strings.Join(Names, ", "))
}

// GoFunc is how the application constructs the strategy in Go, for display.
func GoFunc(s Strategy) string {
	switch s := s.(type) {
	case Averagely:
		return "consumer.AllocateByAveragely"
	case AveragelyByCircle:
		return "consumer.AllocateByAveragelyCircle"
	case MachineNearby:
		return "consumer.AllocateByMachineNearby"
	case ConsistentHash:
		return "consumer.AllocateByConsistentHash(" + strconv.Itoa(s.VirtualNodeCnt) + ")"
	case ByMachineRoom:
		return "consumer.AllocateByMachineRoom(…)"
	case ByConfig:
		return "consumer.AllocateByConfig(…)"
	}
	return s.Name()
}
