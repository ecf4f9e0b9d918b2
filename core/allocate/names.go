package allocate

import (
	"fmt"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// Names lists the strategy names New accepts, in RocketMQ's spelling.
var Names = []string{"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH", "CONFIG", "MACHINE_ROOM", "MACHINE_ROOM_NEARBY"}

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
}

// New builds a strategy from its RocketMQ name (case-insensitive; "MACHINE_ROOM_NEARBY-AVG"
// names the inner strategy too) and its parameters.
func New(name string, p Params) (Strategy, error) {
	upper := strings.ToUpper(strings.TrimSpace(name))
	if inner, ok := strings.CutPrefix(upper, "MACHINE_ROOM_NEARBY-"); ok {
		if p.Inner != "" && !strings.EqualFold(p.Inner, inner) {
			return nil, fmt.Errorf("strategy %s names inner strategy %s but the inner parameter says %s", name, inner, p.Inner)
		}
		p.Inner = inner
		upper = "MACHINE_ROOM_NEARBY"
	}
	switch upper {
	case "AVG":
		return Averagely{}, nil
	case "AVG_BY_CIRCLE":
		return AveragelyByCircle{}, nil
	case "CONSISTENT_HASH":
		return newConsistentHash(p.VirtualNodeCnt)
	case "CONFIG":
		return ByConfig{MessageQueueList: p.MessageQueueList}, nil
	case "MACHINE_ROOM":
		return NewByMachineRoom(p.ConsumerIDCs), nil
	case "MACHINE_ROOM_NEARBY":
		innerName := strings.ToUpper(p.Inner)
		var inner Strategy
		switch innerName {
		case "", "AVG":
			inner = Averagely{}
		case "AVG_BY_CIRCLE":
			inner = AveragelyByCircle{}
		case "CONSISTENT_HASH":
			ch, err := newConsistentHash(p.InnerVirtualNodeCnt)
			if err != nil {
				return nil, err
			}
			inner = ch
		default:
			return nil, fmt.Errorf("unknown inner strategy %q for MACHINE_ROOM_NEARBY (want AVG, AVG_BY_CIRCLE or CONSISTENT_HASH)", p.Inner)
		}
		return NewMachineRoomNearby(inner, PrefixBeforeFirstDash{})
	}
	return nil, fmt.Errorf("unknown strategy %q (want one of %s)", name, strings.Join(Names, ", "))
}

func newConsistentHash(n *int) (Strategy, error) {
	if n == nil {
		return NewConsistentHash(DefaultVirtualNodeCnt)
	}
	return NewConsistentHash(*n)
}
