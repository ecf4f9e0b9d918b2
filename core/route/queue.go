package route

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// MessageQueue is one queue of a topic on one broker. Equality uses all three fields, as
// Java's MessageQueue.equals does (spec §1.1).
type MessageQueue struct {
	Topic      string `json:"topic"`
	BrokerName string `json:"brokerName"`
	QueueID    int32  `json:"queueId"`
}

// String returns Java's MessageQueue.toString byte for byte. It is the consistent-hash key
// (spec §1.1, §4.3), so not a byte may change.
func (q MessageQueue) String() string {
	b := make([]byte, 0, 48+len(q.Topic)+len(q.BrokerName))
	return string(q.AppendText(b))
}

// AppendText appends the Java text form to b without other allocations.
func (q MessageQueue) AppendText(b []byte) []byte {
	b = append(b, "MessageQueue [topic="...)
	b = append(b, q.Topic...)
	b = append(b, ", brokerName="...)
	b = append(b, q.BrokerName...)
	b = append(b, ", queueId="...)
	b = strconv.AppendInt(b, int64(q.QueueID), 10)
	return append(b, ']')
}

// Short is the compact form used in tables and snapshots: "broker-a:3".
func (q MessageQueue) Short() string {
	return q.BrokerName + ":" + strconv.Itoa(int(q.QueueID))
}

// Compare orders queues as MessageQueue.compareTo does (spec §1.1): topic, then broker name,
// both in Java string order, then queue id. The id comparison is Java's int subtraction
// `this.queueId - o.queueId`, which wraps for ids far apart; it is reproduced, wrap included.
func Compare(a, b MessageQueue) int {
	if c := CompareJava(a.Topic, b.Topic); c != 0 {
		return c
	}
	if c := CompareJava(a.BrokerName, b.BrokerName); c != 0 {
		return c
	}
	d := a.QueueID - b.QueueID // int32 arithmetic wraps like Java's int
	switch {
	case d < 0:
		return -1
	case d > 0:
		return 1
	}
	return 0
}

// SortQueues sorts in place as Collections.sort does in RebalanceImpl (spec §3.3 step 5):
// a stable sort in MessageQueue order.
func SortQueues(qs []MessageQueue) { slices.SortStableFunc(qs, Compare) }

// SortClientIDs sorts in place in Java String order (spec §3.3 step 5, §6.5).
func SortClientIDs(ids []string) { slices.SortStableFunc(ids, CompareJava) }

// CompareJava compares two strings as Java's String.compareTo does: by UTF-16 code units,
// a proper prefix first (spec conventions, §6.5). UTF-8 byte order agrees with it except when
// a character in U+E000..U+FFFF meets one above U+FFFF: Java sees the latter's high surrogate
// (0xD800..0xDBFF) and sorts it first, while UTF-8 bytes sort it last.
func CompareJava(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	if i == n {
		// One is a byte prefix of the other, so also a UTF-16 prefix.
		return cmpInt(len(a), len(b))
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if ra == rb {
		// Both invalid UTF-8 at this point; fall back to bytes.
		return cmpInt(int(a[i]), int(b[i]))
	}
	if ua, ub := firstUnit(ra), firstUnit(rb); ua != ub {
		return cmpInt(int(ua), int(ub))
	}
	// Same high surrogate: the low surrogates order like the code points.
	return cmpInt(int(ra), int(rb))
}

// firstUnit is the first UTF-16 code unit of r.
func firstUnit(r rune) rune {
	if r < 0x10000 {
		return r
	}
	return 0xD800 + (r-0x10000)>>10
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
