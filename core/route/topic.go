package route

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Permission bits of a queue-data entry (Java PermName).
const (
	PermPriority int32 = 1 << 3
	PermRead     int32 = 1 << 2
	PermWrite    int32 = 1 << 1
	PermInherit  int32 = 1 << 0
)

// MasterID is the broker id of a master in BrokerData.BrokerAddrs (Java MixAll.MASTER_ID).
const MasterID int64 = 0

// IsReadable is PermName.isReadable.
func IsReadable(perm int32) bool { return perm&PermRead == PermRead }

// IsWriteable is PermName.isWriteable.
func IsWriteable(perm int32) bool { return perm&PermWrite == PermWrite }

// QueueData is one broker's entry in a topic route (Java QueueData).
type QueueData struct {
	BrokerName     string
	ReadQueueNums  int32
	WriteQueueNums int32
	Perm           int32
	TopicSysFlag   int32
}

// BrokerData is one broker group of a route (Java BrokerData): broker id → address, id 0 is
// the master.
type BrokerData struct {
	Cluster     string
	BrokerName  string
	BrokerAddrs map[int64]string
}

// TopicRouteData is what the name server answers for a topic, reduced to the fields the
// client's queue lists are built from (spec §1.3). Static (logical-queue) topics are not
// modelled.
type TopicRouteData struct {
	// OrderTopicConf is the "brokerA:4;brokerB:8" form of an ordered topic; "" when absent.
	OrderTopicConf string
	QueueDatas     []QueueData
	BrokerDatas    []BrokerData
}

// PublishQueues is MQClientInstance.topicRouteData2TopicPublishInfo (spec §1.3): the
// producer's publish list, in the order the Java client builds it, and whether the route
// made it an ordered topic. A malformed OrderTopicConf is an error (Java throws there).
func (r *TopicRouteData) PublishQueues(topic string) (queues []MessageQueue, orderTopic bool, err error) {
	if r.OrderTopicConf != "" {
		for _, broker := range javaSplit(r.OrderTopicConf, ';') {
			item := javaSplit(broker, ':')
			if len(item) < 2 {
				return nil, false, fmt.Errorf("orderTopicConf %q: entry %q has no queue count", r.OrderTopicConf, broker)
			}
			nums, perr := strconv.ParseInt(item[1], 10, 32)
			if perr != nil {
				return nil, false, fmt.Errorf("orderTopicConf %q: queue count %q is not an int", r.OrderTopicConf, item[1])
			}
			for i := int32(0); i < int32(nums); i++ {
				queues = append(queues, MessageQueue{Topic: topic, BrokerName: item[0], QueueID: i})
			}
		}
		return queues, true, nil
	}
	// Collections.sort(qds) is stable and compares broker names only (QueueData.compareTo).
	qds := slices.Clone(r.QueueDatas)
	slices.SortStableFunc(qds, func(a, b QueueData) int { return CompareJava(a.BrokerName, b.BrokerName) })
	for _, qd := range qds {
		if !IsWriteable(qd.Perm) {
			continue
		}
		bd, ok := r.brokerData(qd.BrokerName)
		if !ok {
			continue
		}
		if _, master := bd.BrokerAddrs[MasterID]; !master {
			continue
		}
		for i := int32(0); i < qd.WriteQueueNums; i++ {
			queues = append(queues, MessageQueue{Topic: topic, BrokerName: qd.BrokerName, QueueID: i})
		}
	}
	return queues, false, nil
}

// SubscribeQueues is MQClientInstance.topicRouteData2TopicSubscribeInfo (spec §1.3). Java
// returns a HashSet; here the set is returned sorted in MessageQueue order, duplicates
// removed, so that nothing downstream depends on hash iteration order (spec §6.12).
func (r *TopicRouteData) SubscribeQueues(topic string) []MessageQueue {
	var queues []MessageQueue
	for _, qd := range r.QueueDatas {
		if !IsReadable(qd.Perm) {
			continue
		}
		for i := int32(0); i < qd.ReadQueueNums; i++ {
			queues = append(queues, MessageQueue{Topic: topic, BrokerName: qd.BrokerName, QueueID: i})
		}
	}
	SortQueues(queues)
	return slices.Compact(queues)
}

// WriteQueueNumsByBroker is TopicPublishInfo.getWriteQueueNumsByBroker: the write queue
// count of the first queue-data entry of that broker, -1 if there is none.
func (r *TopicRouteData) WriteQueueNumsByBroker(brokerName string) int32 {
	for _, qd := range r.QueueDatas {
		if qd.BrokerName == brokerName {
			return qd.WriteQueueNums
		}
	}
	return -1
}

// brokerData returns the first broker entry with that name, as the Java loop does.
func (r *TopicRouteData) brokerData(name string) (BrokerData, bool) {
	for _, bd := range r.BrokerDatas {
		if bd.BrokerName == name {
			return bd, true
		}
	}
	return BrokerData{}, false
}

// javaSplit is String.split with a one-character, non-regex separator: trailing empty
// pieces are dropped, a leading empty piece is kept (spec §6.7).
func javaSplit(s string, sep byte) []string {
	parts := strings.Split(s, string(sep))
	for len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 1 && parts[0] == "" && s != "" {
		// s consisted only of separators: Java returns an empty array.
		return nil
	}
	return parts
}
