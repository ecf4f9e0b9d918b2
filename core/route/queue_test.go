package route

import (
	"slices"
	"testing"
	"unicode/utf16"
)

func TestCompareJava(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"broker-a", "broker-a", 0},
		{"broker-A", "broker-a", -1},   // upper case first
		{"broker-a", "broker-a-1", -1}, // a proper prefix first
		{"broker-a-1", "broker-b", -1},
		{"broker-10", "broker-9", -1},                 // not numeric
		{"192.168.0.100@100", "192.168.0.10@100", -1}, // '0' 0x30 < '@' 0x40 (spec §6.5)
		{"10.0.0.10@1", "10.0.0.9@1", -1},
		{"%RETRY%cg", "TopicTest", -1},
		{"z", "\u00e9", -1},
		// U+FF21 against U+1F600: UTF-8 bytes put the emoji last, Java's UTF-16 puts it first
		// (high surrogate 0xD83D < 0xFF21).
		{"\uff21-broker", "\U0001F600-broker", 1},
		{"\U0001F600", "\U0001F601", -1}, // same high surrogate, low surrogates decide
		{"\U0001F600", "\ue000", -1},
		{"", "a", -1},
	}
	for _, tt := range tests {
		if got := CompareJava(tt.a, tt.b); got != tt.want {
			t.Errorf("CompareJava(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
		if got := CompareJava(tt.b, tt.a); got != -tt.want {
			t.Errorf("CompareJava(%q, %q) = %d; want %d", tt.b, tt.a, got, -tt.want)
		}
	}
}

// javaCompare is String.compareTo written the slow, obvious way: UTF-16 code units.
func javaCompare(a, b string) int {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := range min(len(ua), len(ub)) {
		if ua[i] != ub[i] {
			if ua[i] < ub[i] {
				return -1
			}
			return 1
		}
	}
	return cmpInt(len(ua), len(ub))
}

func FuzzCompareJava(f *testing.F) {
	for _, s := range []string{"", "a", "broker-a", "\uff21", "\U0001F600", "\u00e9x", "\ue000\U00010000"} {
		f.Add(s, "broker-a\U0001F600")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		if !validUTF8(a) || !validUTF8(b) {
			t.Skip("Java strings decoded from JSON are valid UTF-16")
		}
		if got, want := CompareJava(a, b), javaCompare(a, b); got != want {
			t.Fatalf("CompareJava(%q, %q) = %d; want %d", a, b, got, want)
		}
	})
}

func validUTF8(s string) bool {
	for _, r := range s {
		if r == 0xFFFD {
			return false
		}
	}
	return true
}

func TestStringIsJavaTextForm(t *testing.T) {
	q := MessageQueue{Topic: "TopicTest", BrokerName: "broker-a", QueueID: 0}
	if got, want := q.String(), "MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=0]"; got != want {
		t.Fatalf("String() = %q; want %q", got, want)
	}
	q = MessageQueue{Topic: "%RETRY%cg", BrokerName: "b", QueueID: -12}
	if got, want := q.String(), "MessageQueue [topic=%RETRY%cg, brokerName=b, queueId=-12]"; got != want {
		t.Fatalf("String() = %q; want %q", got, want)
	}
	if got, want := q.Short(), "b:-12"; got != want {
		t.Fatalf("Short() = %q; want %q", got, want)
	}
}

func TestSortQueues(t *testing.T) {
	mq := func(topic, broker string, id int32) MessageQueue { return MessageQueue{topic, broker, id} }
	got := []MessageQueue{
		mq("TopicTest", "broker-b", 0), mq("TopicTest", "broker-a", 10), mq("TopicTest", "broker-a", 9),
		mq("TopicTest", "broker-A", 3), mq("%RETRY%cg", "broker-z", 0), mq("TopicTest", "broker-a-1", 0),
	}
	want := []MessageQueue{
		mq("%RETRY%cg", "broker-z", 0), mq("TopicTest", "broker-A", 3), mq("TopicTest", "broker-a", 9),
		mq("TopicTest", "broker-a", 10), mq("TopicTest", "broker-a-1", 0), mq("TopicTest", "broker-b", 0),
	}
	SortQueues(got)
	if !slices.Equal(got, want) {
		t.Fatalf("SortQueues = %v; want %v", got, want)
	}
}

// Java compares queue ids by int subtraction, which wraps: MIN_VALUE sorts after 1.
func TestCompareQueueIDWrapsLikeJava(t *testing.T) {
	a := MessageQueue{"t", "b", -2147483648}
	b := MessageQueue{"t", "b", 1}
	if got := Compare(a, b); got != 1 {
		t.Fatalf("Compare(id MIN_VALUE, id 1) = %d; want 1 (int32 subtraction wraps)", got)
	}
	if got := Compare(MessageQueue{"t", "b", 9}, MessageQueue{"t", "b", 10}); got != -1 {
		t.Fatalf("Compare(id 9, id 10) = %d; want -1", got)
	}
}

func TestSortClientIDs(t *testing.T) {
	got := []string{"192.168.0.9@100", "192.168.0.10@100", "192.168.0.100@100", "c2", "c10", "c1"}
	want := []string{"192.168.0.100@100", "192.168.0.10@100", "192.168.0.9@100", "c1", "c10", "c2"}
	SortClientIDs(got)
	if !slices.Equal(got, want) {
		t.Fatalf("SortClientIDs = %v; want %v", got, want)
	}
}
