package route

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxNameLen is the longest topic, broker or client name accepted from users.
const MaxNameLen = 64

// MaxQueues bounds the queues a user may describe at once.
const MaxQueues = 4096

// CheckName validates a user-typed topic or broker name: 1..64 characters of RocketMQ's
// allowed set (letters, digits, '%', '|', '-', '_') plus '@' and '.', which broker names of
// the MACHINE_ROOM convention ("room1@broker-a") and host-like names use.
func CheckName(what, name string) error {
	if name == "" {
		return fmt.Errorf("%s name is empty", what)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("%s name %.20q… is %d characters long; the limit is %d", what, name, len(name), MaxNameLen)
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune("%|-_@.", r):
		default:
			return fmt.Errorf("%s name %q has %q; allowed are letters, digits and %% | - _ @ .", what, name, r)
		}
	}
	return nil
}

// ParseQueueCounts reads "broker-a:8,broker-b:4" — each broker with its number of queues —
// into the queues of topic, ids 0..n-1 per broker, in the order written.
func ParseQueueCounts(topic, spec string) ([]MessageQueue, error) {
	if err := CheckName("topic", topic); err != nil {
		return nil, err
	}
	if strings.TrimSpace(spec) == "" {
		return nil, fmt.Errorf("no queues given: write them as broker-a:8,broker-b:4")
	}
	var qs []MessageQueue
	seen := map[string]bool{}
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		broker, count, ok := strings.Cut(item, ":")
		if !ok {
			return nil, fmt.Errorf("queue spec %q: want broker:count, e.g. broker-a:8", item)
		}
		if err := CheckName("broker", broker); err != nil {
			return nil, fmt.Errorf("queue spec %q: %w", item, err)
		}
		if seen[broker] {
			return nil, fmt.Errorf("queue spec: broker %q appears twice", broker)
		}
		seen[broker] = true
		n, err := strconv.Atoi(count)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("queue spec %q: %q is not a queue count (a whole number ≥ 0)", item, count)
		}
		if len(qs)+n > MaxQueues {
			return nil, fmt.Errorf("queue spec: more than %d queues in all", MaxQueues)
		}
		for id := range n {
			qs = append(qs, MessageQueue{Topic: topic, BrokerName: broker, QueueID: int32(id)})
		}
	}
	return qs, nil
}

// ParseQueueList reads "broker-a:0,broker-a:3,broker-b:1" — individual queues — in the order
// written, duplicates kept (CONFIG returns its list as configured).
func ParseQueueList(topic, spec string) ([]MessageQueue, error) {
	if err := CheckName("topic", topic); err != nil {
		return nil, err
	}
	qs := []MessageQueue{}
	if strings.TrimSpace(spec) == "" {
		return qs, nil
	}
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		broker, id, ok := strings.Cut(item, ":")
		if !ok {
			return nil, fmt.Errorf("queue %q: want broker:queueId, e.g. broker-a:3", item)
		}
		if err := CheckName("broker", broker); err != nil {
			return nil, fmt.Errorf("queue %q: %w", item, err)
		}
		n, err := strconv.ParseInt(id, 10, 32)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("queue %q: %q is not a queue id (a whole number ≥ 0)", item, id)
		}
		if len(qs) == MaxQueues {
			return nil, fmt.Errorf("more than %d queues listed", MaxQueues)
		}
		qs = append(qs, MessageQueue{Topic: topic, BrokerName: broker, QueueID: int32(n)})
	}
	return qs, nil
}

// Compact writes queues as short ranges in their order: runs on the same broker are joined and
// consecutive ids folded, e.g. "broker-a:0-2 broker-b:0,3".
func Compact(qs []MessageQueue) string { return CompactNamed(qs, "") }

// CompactNamed is Compact with each run of a topic other than first prefixed by its topic and a
// slash, "broker-a:0-2 %RETRY%g/broker-a:0"; first "" names none.
func CompactNamed(qs []MessageQueue, first string) string {
	var b strings.Builder
	for i := 0; i < len(qs); {
		j := i
		for j < len(qs) && qs[j].BrokerName == qs[i].BrokerName && qs[j].Topic == qs[i].Topic {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if first != "" && qs[i].Topic != first {
			b.WriteString(qs[i].Topic)
			b.WriteByte('/')
		}
		b.WriteString(qs[i].BrokerName)
		b.WriteByte(':')
		for k := i; k < j; {
			end := k
			for end+1 < j && qs[end+1].QueueID == qs[end].QueueID+1 {
				end++
			}
			if k > i {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(qs[k].QueueID)))
			if end > k {
				b.WriteByte('-')
				b.WriteString(strconv.Itoa(int(qs[end].QueueID)))
			}
			k = end + 1
		}
		i = j
	}
	return b.String()
}
