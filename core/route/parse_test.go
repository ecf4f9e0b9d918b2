package route

import (
	"strings"
	"testing"
)

func TestParseQueueCounts(t *testing.T) {
	qs, err := ParseQueueCounts("TopicTest", "broker-a:2, broker-b:1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Compact(qs), "broker-a:0-1 broker-b:0"; got != want {
		t.Fatalf("got %q; want %q", got, want)
	}
	bad := map[string]string{
		"":                      "no queues given",
		"broker-a":              "want broker:count",
		"broker-a:x":            "not a queue count",
		"broker-a:-1":           "not a queue count",
		"broker a:1":            "has ' '",
		"broker-a:1,broker-a:2": "appears twice",
		"b:5000":                "more than 4096",
		":3":                    "broker name is empty",
	}
	for spec, want := range bad {
		_, err := ParseQueueCounts("TopicTest", spec)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseQueueCounts(%q) error = %v; want it to say %q", spec, err, want)
		}
	}
}

func TestParseQueueList(t *testing.T) {
	qs, err := ParseQueueList("T", "broker-a:3,broker-a:0,room1@b:1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Compact(qs), "broker-a:3,0 room1@b:1"; got != want {
		t.Fatalf("got %q; want %q", got, want)
	}
	if _, err := ParseQueueList("T", "broker-a:99999999999"); err == nil {
		t.Fatal("an id beyond int32 was accepted")
	}
}

func TestCompact(t *testing.T) {
	q := func(b string, id int32) MessageQueue { return MessageQueue{"T", b, id} }
	tests := []struct {
		in   []MessageQueue
		want string
	}{
		{nil, ""},
		{[]MessageQueue{q("a", 0), q("a", 1), q("a", 2), q("b", 0), q("b", 3)}, "a:0-2 b:0,3"},
		{[]MessageQueue{q("a", 0), q("b", 1), q("a", 2)}, "a:0 b:1 a:2"},
	}
	for _, tt := range tests {
		if got := Compact(tt.in); got != tt.want {
			t.Errorf("Compact(%v) = %q; want %q", tt.in, got, tt.want)
		}
	}
}
