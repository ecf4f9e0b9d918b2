package sim

import "testing"

func TestQueueOrdersByTimeThenInsertion(t *testing.T) {
	var q Queue
	q.Push(Event{At: 20, Kind: 1})
	q.Push(Event{At: 10, Kind: 2})
	q.Push(Event{At: 20, Kind: 3})
	q.Push(Event{At: 10, Kind: 4})
	var got []int
	for q.Len() > 0 {
		got = append(got, q.Pop().Kind)
	}
	want := []int{2, 4, 1, 3}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("pop order %v; want %v", got, want)
		}
	}
}

func TestStreamsAreIndependentAndRepeatable(t *testing.T) {
	a1, a2, b := Stream(7, "consumer/c1"), Stream(7, "consumer/c1"), Stream(7, "consumer/c2")
	same, differ := true, false
	for range 10 {
		x, y, z := a1.NextInt(), a2.NextInt(), b.NextInt()
		same = same && x == y
		differ = differ || x != z
	}
	if !same || !differ {
		t.Fatalf("same name same numbers: %v; other name other numbers: %v", same, differ)
	}
}

func TestCloneIsIndependentAndOrdersAlike(t *testing.T) {
	var q Queue
	for i, at := range []int64{30, 10, 20, 10} {
		q.Push(Event{At: at, Kind: i})
	}
	c := q.Clone()
	q.Pop() // the original moves on; the clone must not see it
	q.Push(Event{At: 10, Kind: 9})
	c.Push(Event{At: 10, Kind: 9})
	if c.Len() != 5 || q.Len() != 4 {
		t.Fatalf("lengths %d (clone) and %d; want 5 and 4", c.Len(), q.Len())
	}
	var got []int
	for c.Len() > 0 {
		got = append(got, c.Pop().Kind)
	}
	// Same (At, Seq) order as the original would have given: the inserted 10 after the two
	// earlier 10s, because the clone's sequence continues the original's.
	want := []int{1, 3, 9, 2, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("clone pops %v; want %v", got, want)
		}
	}
}
