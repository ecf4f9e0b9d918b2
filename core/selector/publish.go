package selector

import (
	"errors"
	"slices"

	"github.com/lbscope/lbscope/core/route"
)

// ErrDivideByZero is the plain pick on an empty publish list: Java increments the index and
// then throws ArithmeticException from `index % 0` (spec §2.2). The send path never gets
// there because it checks Ok first.
var ErrDivideByZero = errors.New("/ by zero")

// LastBroker is the lastBrokerName argument of the Java selection methods, which may be
// null. It is a value pair rather than a *string so that a pick never allocates: the zero
// value is Java's null, and Last("") is a real empty name, distinct from null.
type LastBroker struct {
	Name  string
	Valid bool // false: Java null
}

// Last is a non-null lastBrokerName.
func Last(name string) LastBroker { return LastBroker{Name: name, Valid: true} }

// String prints the name, or null as Java's string concatenation would.
func (l LastBroker) String() string {
	if !l.Valid {
		return "null"
	}
	return l.Name
}

// QueueFilter is client/impl/producer/QueueFilter: it accepts or rejects one queue. Filters
// must be free of side effects; the filtered pick evaluates all of them on every candidate.
type QueueFilter interface {
	Filter(mq route.MessageQueue) bool
}

// TopicPublishInfo is client/impl/producer/TopicPublishInfo (spec §2.2): the publish list
// of one topic and its rotating index. A route change must build a new one, with a new
// randomly started index (spec §1.3, §6.3).
type TopicPublishInfo struct {
	orderTopic       bool
	messageQueueList []route.MessageQueue
	sendWhichQueue   *ThreadLocalIndex
	route            *route.TopicRouteData // nil when built from a plain list
}

// NewTopicPublishInfo returns publish info over a copy of queues, in that order, with a
// fresh index drawing from src.
func NewTopicPublishInfo(queues []route.MessageQueue, src Source) *TopicPublishInfo {
	return &TopicPublishInfo{
		messageQueueList: slices.Clone(queues),
		sendWhichQueue:   NewThreadLocalIndex(src),
	}
}

// TopicPublishInfoFromRoute is topicRouteData2TopicPublishInfo (spec §1.3): the list built
// from rd for topic, with a fresh index drawing from src. The route is copied.
func TopicPublishInfoFromRoute(topic string, rd *route.TopicRouteData, src Source) (*TopicPublishInfo, error) {
	queues, order, err := rd.PublishQueues(topic)
	if err != nil {
		return nil, err
	}
	tp := &TopicPublishInfo{orderTopic: order, messageQueueList: queues, sendWhichQueue: NewThreadLocalIndex(src)}
	cp := *rd
	cp.QueueDatas = slices.Clone(rd.QueueDatas)
	cp.BrokerDatas = slices.Clone(rd.BrokerDatas) // the address maps are never written
	tp.route = &cp
	return tp, nil
}

// Ok is ok(): the list is non-empty.
func (tp *TopicPublishInfo) Ok() bool { return len(tp.messageQueueList) > 0 }

// OrderTopic reports whether the list came from an orderTopicConf.
func (tp *TopicPublishInfo) OrderTopic() bool { return tp.orderTopic }

// MessageQueueList returns a copy of the publish list.
func (tp *TopicPublishInfo) MessageQueueList() []route.MessageQueue {
	return slices.Clone(tp.messageQueueList)
}

// Len is the length of the publish list.
func (tp *TopicPublishInfo) Len() int { return len(tp.messageQueueList) }

// SendWhichQueue is the index the picks advance (getSendWhichQueue).
func (tp *TopicPublishInfo) SendWhichQueue() *ThreadLocalIndex { return tp.sendWhichQueue }

// ResetIndex is resetIndex(): a random restart of the index (spec §2.1).
func (tp *TopicPublishInfo) ResetIndex() { tp.sendWhichQueue.Reset() }

// WriteQueueNumsByBroker is getWriteQueueNumsByBroker: the write queue count of that
// broker in the route, -1 if absent or if this info was not built from a route.
func (tp *TopicPublishInfo) WriteQueueNumsByBroker(brokerName string) int32 {
	if tp.route == nil {
		return -1
	}
	return tp.route.WriteQueueNumsByBroker(brokerName)
}

// PlainPos is the plain pick's position in the publish list, i % n with i the next index
// value, for a caller that keeps its own view of the list; the list must not be empty.
func (tp *TopicPublishInfo) PlainPos() int {
	return int(tp.sendWhichQueue.IncrementAndGet() % int32(len(tp.messageQueueList)))
}

// SelectOneMessageQueue is the plain pick selectOneMessageQueue(): L[i % n] with i the next
// index value. On an empty list the index still advances, then ErrDivideByZero.
func (tp *TopicPublishInfo) SelectOneMessageQueue() (route.MessageQueue, error) {
	i := tp.sendWhichQueue.IncrementAndGet()
	n := int32(len(tp.messageQueueList))
	if n == 0 {
		return route.MessageQueue{}, ErrDivideByZero
	}
	return tp.messageQueueList[i%n], nil
}

// SelectFiltered is selectOneMessageQueue(QueueFilter...) (spec §2.2). An empty list gives
// ok=false without touching the index; no filters at all is a plain pick. Otherwise up to n
// candidates are drawn from the index and the first that every filter accepts is returned;
// a pass that finds none advances the index by exactly n and returns ok=false (spec §6.2).
// Because the masked counter restarts at 0 after 2147483647, a pass across the wrap need not
// visit every position (n=3 visits 0,1,0).
//
// Pass a slice the caller keeps (filters...) to keep a pick free of allocations.
func (tp *TopicPublishInfo) SelectFiltered(filters ...QueueFilter) (route.MessageQueue, bool) {
	n := int32(len(tp.messageQueueList))
	if n == 0 {
		return route.MessageQueue{}, false
	}
	if len(filters) == 0 {
		i := tp.sendWhichQueue.IncrementAndGet()
		return tp.messageQueueList[i%n], true
	}
	for range n {
		// Java takes Math.abs(i % n); i is masked non-negative, so the abs is a no-op.
		mq := tp.messageQueueList[tp.sendWhichQueue.IncrementAndGet()%n]
		accept := true
		for _, f := range filters {
			// `filterResult &= f.filter(mq)`: every filter runs, no short-circuit.
			if !f.Filter(mq) {
				accept = false
			}
		}
		if accept {
			return mq, true
		}
	}
	return route.MessageQueue{}, false
}

// SelectAvoiding is the legacy selectOneMessageQueue(String lastBrokerName) (spec §2.2),
// used by the broker's escape bridge and by the 4.x send path with latency mode off. A null
// name is a plain pick; otherwise up to n plain picks look for another broker, and if all
// were on the last broker one more plain pick is returned (n+1 increments). An empty list
// with a non-null name ends in the plain pick's ErrDivideByZero.
func (tp *TopicPublishInfo) SelectAvoiding(lastBrokerName LastBroker) (route.MessageQueue, error) {
	if !lastBrokerName.Valid {
		return tp.SelectOneMessageQueue()
	}
	n := int32(len(tp.messageQueueList))
	for range n {
		mq := tp.messageQueueList[tp.sendWhichQueue.IncrementAndGet()%n]
		if mq.BrokerName != lastBrokerName.Name {
			return mq, nil
		}
	}
	return tp.SelectOneMessageQueue()
}

// Clone returns an independent copy whose index draws from src (the copy's own stream) and
// holds the same stored value, if any. The route, a private copy never written, is shared.
func (tp *TopicPublishInfo) Clone(src Source) *TopicPublishInfo {
	n := *tp
	n.messageQueueList = slices.Clone(tp.messageQueueList)
	idx := *tp.sendWhichQueue
	idx.src = src
	n.sendWhichQueue = &idx
	return &n
}
