package allocate

import (
	"slices"

	"github.com/lbscope/lbscope/core/route"
)

// Strategy is AllocateMessageQueueStrategy: which of mqAll the consumer currentCID pulls.
// A nil slice stands for Java's null (only CONFIG returns it); an empty allocation is an
// empty, non-nil slice. Inputs are used in the order given and never modified.
type Strategy interface {
	Name() string
	Allocate(consumerGroup, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error)
}

// check is AbstractAllocateMessageQueueStrategy.check (spec §4 steps 1–4), in its order of
// precedence. It returns the index of the first occurrence of currentCID in cidAll, or -1
// when it is absent (an empty result, not an error).
func check(currentCID string, mqAll []route.MessageQueue, cidAll []string) (int, error) {
	switch {
	case currentCID == "":
		return -1, errCurrentCIDEmpty
	case len(mqAll) == 0:
		return -1, errMQAllEmpty
	case len(cidAll) == 0:
		return -1, errCIDAllEmpty
	}
	return slices.Index(cidAll, currentCID), nil // first occurrence (spec §6.9)
}

// Averagely is AllocateMessageQueueAveragely, "AVG" (spec §4.1): contiguous blocks, the first
// n mod c consumers one queue more.
type Averagely struct{}

func (Averagely) Name() string { return "AVG" }

func (Averagely) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, err := check(currentCID, mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	if index < 0 {
		return []route.MessageQueue{}, nil
	}
	start, count := avgRange(len(mqAll), len(cidAll), index)
	return slices.Clone(mqAll[start : start+count]), nil
}

// avgRange is the arithmetic of spec §4.1. Java's count may be negative when there are more
// consumers than queues (spec §6.8); it is clamped to an empty range here.
func avgRange(n, c, index int) (start, count int) {
	mod := n % c
	var size int
	switch {
	case n <= c:
		size = 1
	case mod > 0 && index < mod:
		size = n/c + 1
	default:
		size = n / c
	}
	if mod > 0 && index < mod {
		start = index * size
	} else {
		start = index*size + mod
	}
	count = min(size, n-start)
	if count <= 0 {
		return 0, 0
	}
	return start, count
}

// AveragelyByCircle is AllocateMessageQueueAveragelyByCircle, "AVG_BY_CIRCLE" (spec §4.2):
// the queue at position i goes to consumer i mod c.
type AveragelyByCircle struct{}

func (AveragelyByCircle) Name() string { return "AVG_BY_CIRCLE" }

func (AveragelyByCircle) Allocate(_, currentCID string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	index, err := check(currentCID, mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	result := []route.MessageQueue{}
	if index < 0 {
		return result, nil
	}
	for i := index; i < len(mqAll); i += len(cidAll) {
		result = append(result, mqAll[i])
	}
	return result, nil
}

// ByConfig is AllocateMessageQueueByConfig, "CONFIG" (spec §4.6): the configured list for
// every consumer, with no check at all. A nil list is Java's never-set null.
type ByConfig struct {
	MessageQueueList []route.MessageQueue
}

func (ByConfig) Name() string { return "CONFIG" }

func (s ByConfig) Allocate(_, _ string, _ []route.MessageQueue, _ []string) ([]route.MessageQueue, error) {
	return slices.Clone(s.MessageQueueList), nil // Clone keeps nil as nil
}
