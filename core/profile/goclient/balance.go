package goclient

import (
	"cmp"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// CompareQueues is the order doBalance sorts mqAll in (spec §9.1.4 step 4): topic, then
// broker name, by UTF-8 bytes (strings.Compare), then queue id. For ASCII it equals Java's
// order; it differs where Java's UTF-16 order puts a supplementary character before one in
// U+E000…U+FFFF.
func CompareQueues(a, b route.MessageQueue) int {
	if c := strings.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	if c := strings.Compare(a.BrokerName, b.BrokerName); c != 0 {
		return c
	}
	return cmp.Compare(a.QueueID, b.QueueID) // 64-bit subtraction in Go: never wraps
}

// SortQueues sorts in place as doBalance does (sort.SliceStable).
func SortQueues(qs []route.MessageQueue) { slices.SortStableFunc(qs, CompareQueues) }

// SortClientIDs sorts in place as doBalance does (sort.Strings: byte order).
func SortClientIDs(ids []string) { slices.Sort(ids) }

// Round is what one doBalance round did for one clustering topic of one consumer.
type Round struct {
	// Skipped: the round left the topic alone (no subscribe list, or the consumer list
	// could not be fetched — cidAll nil). Result and Panic are then unset.
	Skipped bool
	// SortedMQAll and SortedCIDAll are the arguments passed to the strategy.
	SortedMQAll  []route.MessageQueue
	SortedCIDAll []string
	// Result is what the strategy returned. nil and [] both mean: own nothing of this topic
	// (every process queue of the topic is dropped, spec §9.1.4 step 6).
	Result []route.MessageQueue
	// Panic is set when the strategy panicked. The client does not recover it: by default
	// the consumer process exits (spec §9.1.4 step 5).
	Panic *Panic
}

// DoBalance is one round of defaultConsumer.doBalance for one clustering topic (spec §9.1.4
// steps 1–5): subscribe is the topic's subscribe list in route order (nil: no entry, the
// topic is skipped), cidAll the consumer list as the client parsed the broker's answer (nil:
// transport error, skipped; a SYSTEM_ERROR answer parses as an empty list and goes on). The
// inputs are copied, never modified.
func DoBalance(s Strategy, consumerGroup, currentCID string, subscribe []route.MessageQueue, cidAll []string) Round {
	if subscribe == nil || cidAll == nil {
		return Round{Skipped: true}
	}
	r := Round{SortedMQAll: slices.Clone(subscribe), SortedCIDAll: slices.Clone(cidAll)}
	SortClientIDs(r.SortedCIDAll)
	SortQueues(r.SortedMQAll)
	res, err := s.Allocate(consumerGroup, currentCID, r.SortedMQAll, r.SortedCIDAll)
	if err != nil {
		p, ok := err.(*Panic)
		if !ok {
			p = &Panic{Value: err.Error()}
		}
		r.Panic = p
		return r
	}
	r.Result = res
	return r
}

// ParseConsumerList is what findConsumerList makes of a GET_CONSUMER_LIST_BY_GROUP answer
// (spec §9.1.4 step 3): the response code is not checked, so any answer yields a non-nil
// list — an error answer without a body an empty one. A transport error (answered false)
// gives nil.
func ParseConsumerList(answered bool, ids []string) []string {
	if !answered {
		return nil
	}
	if ids == nil {
		return []string{}
	}
	return slices.Clone(ids)
}

// SubscribeList is routeData2SubscribeInfo (spec §9.1.4 step 1): for each queue data in
// route order whose permission is readable, queue ids 0 … readQueueNums−1; no master check.
func SubscribeList(topic string, queueDatas []route.QueueData) []route.MessageQueue {
	out := []route.MessageQueue{}
	for _, qd := range queueDatas {
		if !route.IsReadable(qd.Perm) {
			continue
		}
		for id := int32(0); id < qd.ReadQueueNums; id++ {
			out = append(out, route.MessageQueue{Topic: topic, BrokerName: qd.BrokerName, QueueID: id})
		}
	}
	return out
}
