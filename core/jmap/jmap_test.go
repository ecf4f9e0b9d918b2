package jmap

import (
	"fmt"
	"slices"
	"testing"
)

// The examples of spec §3.14, verified there against JDK 17.
func TestSpecExamples(t *testing.T) {
	for _, c := range []struct {
		keys, want []string
	}{
		{[]string{"TopicTest", "%RETRY%GID_A"}, []string{"%RETRY%GID_A", "TopicTest"}},
		{[]string{"%RETRY%GID_A", "TopicTest"}, []string{"%RETRY%GID_A", "TopicTest"}},
		{[]string{"GID_A", "GID_B", "GID_C"}, []string{"GID_C", "GID_A", "GID_B"}},
		{[]string{"TopicA", "TopicB", "TopicC", "%RETRY%cg"}, []string{"%RETRY%cg", "TopicC", "TopicB", "TopicA"}},
	} {
		if got := Of(0, c.keys...); !slices.Equal(got, c.want) {
			t.Errorf("Of(%q) = %q; want %q", c.keys, got, c.want)
		}
	}
}

// A resize keeps every key, each in the bucket its hash names in the larger table, and the
// map's length.
func TestResizeKeepsEveryKeyInItsBucket(t *testing.T) {
	m := New(0)
	var keys []string
	for i := range 200 {
		k := fmt.Sprintf("Topic-%d", i*7919%1000)
		keys = append(keys, k)
		m.Put(k)
		m.Put(k) // present: nothing changes
		if m.Len() != len(keys) {
			t.Fatalf("after %d puts Len() = %d", len(keys), m.Len())
		}
	}
	got := m.Keys()
	if len(got) != len(keys) {
		t.Fatalf("%d keys; want %d", len(got), len(keys))
	}
	for i, bin := range m.bins {
		for _, k := range bin {
			if int(spread(k))&(len(m.bins)-1) != i {
				t.Fatalf("%q in bucket %d", k, i)
			}
		}
	}
	if len(m.bins) != 512 { // 200 keys: 16 → 32 → … → 512 (resize at 3/4)
		t.Errorf("%d buckets; want 512", len(m.bins))
	}
}

// A split reverses the nodes before the tail run: a hand-made bucket of four keys whose hashes
// go low, high, low, low in the doubled table keeps the tail run (the last two) last, in order,
// and prepends the first low one before it; the high one goes alone.
func TestSplitOrder(t *testing.T) {
	m := &Order{cap: 16, bins: make([][]string, 16)}
	// Find keys of bucket 3 of 16 going to 3 (low) and 19 (high) in 32.
	var low, high []string
	for i := 0; len(low) < 4 || len(high) < 2; i++ {
		k := fmt.Sprintf("k%d", i)
		switch int(spread(k)) & 31 {
		case 3:
			low = append(low, k)
		case 19:
			high = append(high, k)
		}
	}
	m.bins[3] = []string{low[0], high[0], low[1], low[2]}
	m.size = 4
	m.resize()
	if want := []string{low[0], low[1], low[2]}; !slices.Equal(m.bins[3], want) {
		t.Errorf("low half %q; want %q", m.bins[3], want)
	}
	m = &Order{cap: 16, bins: make([][]string, 16), size: 4}
	m.bins[3] = []string{low[0], low[1], high[0], low[2]}
	m.resize()
	// tail run = [low2]; prefix low0, low1 prepended one by one: low1, low0, low2.
	if want := []string{low[1], low[0], low[2]}; !slices.Equal(m.bins[3], want) {
		t.Errorf("low half %q; want %q", m.bins[3], want)
	}
}

func TestRemoveThenPutGoesLast(t *testing.T) {
	m := New(0)
	// Two keys of one bucket.
	var same []string
	for i := 0; len(same) < 2; i++ {
		k := fmt.Sprintf("g%d", i)
		if int(spread(k))&15 == 5 {
			same = append(same, k)
		}
	}
	m.Put(same[0])
	m.Put(same[1])
	m.Remove(same[0])
	m.Put(same[0])
	if got := m.Keys(); !slices.Equal(got, []string{same[1], same[0]}) {
		t.Errorf("keys %q; want %q", got, []string{same[1], same[0]})
	}
}

func TestInitialCapacity(t *testing.T) {
	if n := New(64).cap; n != 128 {
		t.Errorf("New(64) has %d buckets; want 128 (spec §3.14: processQueueTable)", n)
	}
}
