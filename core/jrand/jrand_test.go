package jrand

import "testing"

// Values printed by OpenJDK 17 for `new Random(42)`; they pin the generator to Java's.
func TestMatchesJava(t *testing.T) {
	r := New(42)
	wantInts := []int32{-1170105035, 234785527, -1360544799, 205897768}
	for i, want := range wantInts {
		if got := r.NextInt(); got != want {
			t.Fatalf("nextInt #%d = %d; want %d", i, got, want)
		}
	}
	r = New(42)
	wantBounded := []int32{30, 63, 48, 84, 70}
	for i, want := range wantBounded {
		if got := r.NextIntn(100); got != want {
			t.Fatalf("nextInt(100) #%d = %d; want %d", i, got, want)
		}
	}
	r = New(42)
	if got := r.NextLong(); got != -5025562857975149833 {
		t.Fatalf("nextLong = %d; want -5025562857975149833", got)
	}
	if got := r.NextDouble(); got != 0.6832234717598454 {
		t.Fatalf("nextDouble = %v; want 0.6832234717598454", got)
	}
	if got := r.NextIntn(2147483647); got != 662969970 {
		t.Fatalf("nextInt(MAX_VALUE) = %d; want 662969970", got)
	}
}

func TestNextIntnRange(t *testing.T) {
	r := New(7)
	for _, bound := range []int32{1, 2, 3, 16, 1000, 1<<30 + 1, 2147483647} {
		for range 1000 {
			if v := r.NextIntn(bound); v < 0 || v >= bound {
				t.Fatalf("NextIntn(%d) = %d out of range", bound, v)
			}
		}
	}
}
