package conform

import (
	"strings"

	"github.com/lbscope/lbscope/core/route"
)

// jsonQueue is a recorded MessageQueue. A null topic or broker name becomes the text "null",
// which is what Java's text form (the consistent-hash key) prints for it.
type jsonQueue struct {
	Topic      *string `json:"topic"`
	BrokerName *string `json:"brokerName"`
	QueueID    int32   `json:"queueId"`
}

func (q jsonQueue) queue() route.MessageQueue {
	return route.MessageQueue{Topic: orNull(q.Topic), BrokerName: orNull(q.BrokerName), QueueID: q.QueueID}
}

func orNull(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// queues converts a recorded list, keeping null as nil and [] as empty.
func queues(in []jsonQueue) []route.MessageQueue {
	if in == nil {
		return nil
	}
	out := make([]route.MessageQueue, len(in))
	for i, q := range in {
		out[i] = q.queue()
	}
	return out
}

// formatQueues prints a list compactly for failure reports; "null" for nil.
func formatQueues(qs []route.MessageQueue) string {
	if qs == nil {
		return "null"
	}
	parts := make([]string, len(qs))
	for i, q := range qs {
		parts[i] = q.Topic + "/" + q.Short()
	}
	return "[" + strings.Join(parts, " ") + "]"
}
