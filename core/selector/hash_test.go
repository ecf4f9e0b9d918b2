package selector

import (
	"math"
	"testing"
)

// The verified examples of spec §2.11.
func TestStringHashCodeAndIndex(t *testing.T) {
	for _, c := range []struct {
		key         string
		hash        int32
		n4, n8, n16 int
	}{
		{"order-1001", 708180863, 3, 7, 15},
		{"order-1002", 708180864, 0, 0, 0},
		{"user42", -836031607, 3, 7, 7},
		{"", 0, 0, 0, 0},
	} {
		if h := StringHashCode(c.key); h != c.hash {
			t.Errorf("%q.hashCode() = %d; want %d", c.key, h, c.hash)
		}
		for _, k := range []struct{ n, want int }{{4, c.n4}, {8, c.n8}, {16, c.n16}} {
			if got := HashIndex(c.hash, k.n); got != k.want {
				t.Errorf("%q over %d queues: %d; want %d", c.key, k.n, got, k.want)
			}
		}
	}
	if h := StringHashCode("polygenelubricants"); h != math.MinInt32 {
		t.Errorf(`"polygenelubricants".hashCode() = %d; want Integer.MIN_VALUE`, h)
	}
	// |h rem n|: MIN_VALUE over 3 gives 2, where abs(h) % n would be negative; -7 over 4 gives
	// 3, where floor-mod gives 1.
	if got := HashIndex(math.MinInt32, 3); got != 2 {
		t.Errorf("MIN_VALUE over 3: %d; want 2", got)
	}
	if got := HashIndex(-7, 4); got != 3 {
		t.Errorf("-7 over 4: %d; want 3", got)
	}
	// UTF-16: U+1F600 is the pair D83D DE00.
	if got, want := StringHashCode("\U0001F600"), int32(0xD83D*31+0xDE00); got != want {
		t.Errorf("hashCode of U+1F600 = %d; want %d (its surrogate pair)", got, want)
	}
}
