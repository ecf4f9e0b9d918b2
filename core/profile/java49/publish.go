package java49

import (
	"github.com/lbscope/lbscope/core/route"
)

// ErrDivideByZero is Java's ArithmeticException of a pick on an empty list.
type ErrDivideByZero struct{}

func (ErrDivideByZero) Error() string { return "ArithmeticException: / by zero" }

// TopicPublishInfo is the 4.9.8 TopicPublishInfo: the publish list (built as the current
// client builds it, spec §1.3), the route it came from (nil: never set) and its index.
type TopicPublishInfo struct {
	Queues         []route.MessageQueue
	Route          *route.TopicRouteData
	SendWhichQueue *ThreadLocalIndex
}

// SelectOneMessageQueue is the plain pick: pos = Math.abs(incrementAndGet()) % n, a negative
// pos taken as 0.
func (tp *TopicPublishInfo) SelectOneMessageQueue() (route.MessageQueue, error) {
	index := tp.SendWhichQueue.IncrementAndGet()
	if len(tp.Queues) == 0 {
		return route.MessageQueue{}, ErrDivideByZero{}
	}
	pos := abs32(index) % int32(len(tp.Queues))
	if pos < 0 {
		pos = 0
	}
	return tp.Queues[pos], nil
}

// SelectAvoiding is selectOneMessageQueue(lastBrokerName): nil is the plain pick; otherwise
// up to n picks for a queue of another broker, then a plain pick.
func (tp *TopicPublishInfo) SelectAvoiding(lastBrokerName *string) (route.MessageQueue, error) {
	if lastBrokerName != nil {
		for range tp.Queues {
			mq, _ := tp.SelectOneMessageQueue()
			if mq.BrokerName != *lastBrokerName {
				return mq, nil
			}
		}
	}
	return tp.SelectOneMessageQueue()
}

// WriteQueueNumsByBroker is getQueueIdByBroker of 4.9.8: the write queue count of the first
// writable queue data of that broker, −1 when none (4.9.7 did not check writability).
func (tp *TopicPublishInfo) WriteQueueNumsByBroker(brokerName string) int32 {
	for _, qd := range tp.Route.QueueDatas {
		if route.IsWriteable(qd.Perm) && qd.BrokerName == brokerName {
			return qd.WriteQueueNums
		}
	}
	return -1
}
