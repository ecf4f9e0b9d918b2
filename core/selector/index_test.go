package selector_test

import (
	"math"
	"testing"

	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/selector"
)

// fixedSource returns first from NextInt and reset from NextIntn, and records the bound.
type fixedSource struct {
	first, reset int32
	bounds       []int32
}

func (s *fixedSource) NextInt() int32 { return s.first }
func (s *fixedSource) NextIntn(bound int32) int32 {
	s.bounds = append(s.bounds, bound)
	return s.reset
}

func TestIncrementAndGetWrapsAndMasks(t *testing.T) {
	// Spec §2.1 examples and the wrap of §6.1.
	tests := []struct {
		stored     int32
		want       int32
		wantStored int32
	}{
		{-5, 2147483644, -4},
		{math.MaxInt32, 0, math.MinInt32},
		{math.MaxInt32 - 1, math.MaxInt32, math.MaxInt32},
		{math.MinInt32, 1, math.MinInt32 + 1},
		{-1, 0, 0},
		{-2, math.MaxInt32, -1},
		{0, 1, 1},
	}
	for _, tt := range tests {
		x := selector.NewThreadLocalIndex(&fixedSource{})
		x.SetStored(tt.stored)
		got := x.IncrementAndGet()
		stored, ok := x.Stored()
		if got != tt.want || stored != tt.wantStored || !ok {
			t.Errorf("slot %d: got %d (stored %d, set %v); want %d (stored %d)", tt.stored, got, stored, ok, tt.want, tt.wantStored)
		}
	}
}

func TestUnsetSlotStartsAtNextInt(t *testing.T) {
	for _, first := range []int32{0, -7, math.MaxInt32, math.MinInt32} {
		x := selector.NewThreadLocalIndex(&fixedSource{first: first})
		if _, ok := x.Stored(); ok {
			t.Fatalf("new index: slot set; want unset")
		}
		got := x.IncrementAndGet()
		want := (first + 1) & 0x7FFFFFFF
		if stored, _ := x.Stored(); got != want || stored != first+1 {
			t.Errorf("first %d: got %d (stored %d); want %d (stored %d)", first, got, stored, want, first+1)
		}
	}
}

func TestResetStoresNextIntMaxValue(t *testing.T) {
	src := &fixedSource{reset: 845173199}
	x := selector.NewThreadLocalIndex(src)
	x.SetStored(2147483646)
	x.Reset()
	if stored, _ := x.Stored(); stored != 845173199 {
		t.Errorf("stored after reset = %d; want 845173199", stored)
	}
	if len(src.bounds) != 1 || src.bounds[0] != math.MaxInt32 {
		t.Errorf("reset drew nextInt(%v); want nextInt(2147483647) once", src.bounds)
	}
	if got := x.IncrementAndGet(); got != 845173200 {
		t.Errorf("after reset got %d; want 845173200", got)
	}
}

// The properties the repository's ThreadLocalIndexTest checks (spec §2.1).
func TestThreadLocalIndexJavaProperties(t *testing.T) {
	for seed := int64(0); seed < 200; seed++ {
		x := selector.NewThreadLocalIndex(jrand.New(seed))
		a := x.IncrementAndGet()
		b := x.IncrementAndGet()
		if a < 0 || b < 0 {
			t.Fatalf("seed %d: negative result %d, %d", seed, a, b)
		}
		if b-a != 1 && !(a == math.MaxInt32 && b == 0) {
			t.Fatalf("seed %d: consecutive results %d, %d; want a difference of 1", seed, a, b)
		}
		x.SetStored(math.MaxInt32)
		if got := x.IncrementAndGet(); got != 0 {
			t.Fatalf("seed %d: after MAX_VALUE got %d; want 0", seed, got)
		}
		x.Reset()
		if got := x.IncrementAndGet(); got <= 0 {
			t.Fatalf("seed %d: after reset got %d; want > 0", seed, got)
		}
	}
}
