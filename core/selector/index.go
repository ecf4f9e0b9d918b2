package selector

import "math"

// Source is the random source of a ThreadLocalIndex, the two java.util.Random calls it
// makes. *jrand.Random satisfies it.
type Source interface {
	NextInt() int32             // Random.nextInt(): the first value of an unset slot
	NextIntn(bound int32) int32 // Random.nextInt(bound): reset()
}

// positiveMask clears the sign bit; the Java client masks instead of using Math.abs, whose
// result for MinInt32 is negative (spec §2.1, §6.1).
const positiveMask = 0x7FFFFFFF

// ThreadLocalIndex is client/common/ThreadLocalIndex (spec §2.1) for one sending thread:
// one int32 slot, initially unset, and the Random it draws from. Java keeps one slot per
// thread; the simulator models one sending thread per index, so one slot is enough.
type ThreadLocalIndex struct {
	src    Source
	stored int32
	set    bool
}

// NewThreadLocalIndex returns an index with an unset slot drawing from src.
func NewThreadLocalIndex(src Source) *ThreadLocalIndex {
	if src == nil {
		panic("selector: ThreadLocalIndex needs a random source")
	}
	return &ThreadLocalIndex{src: src}
}

// IncrementAndGet is incrementAndGet(): an unset slot starts at random.nextInt() (negative
// values included); the slot is incremented with int32 wrap-around (MaxInt32+1 = MinInt32)
// and the stored value masked with 0x7FFFFFFF is returned (spec §2.1).
func (x *ThreadLocalIndex) IncrementAndGet() int32 {
	if !x.set {
		x.stored, x.set = x.src.NextInt(), true
	}
	x.stored++ // int32 arithmetic wraps like Java's int
	return x.stored & positiveMask
}

// Reset is reset(): store abs(random.nextInt(Integer.MAX_VALUE)), a value in
// [0, 2147483646]; the abs is kept for fidelity although it never changes the value.
func (x *ThreadLocalIndex) Reset() {
	v := x.src.NextIntn(math.MaxInt32)
	if v < 0 {
		v = -v
	}
	x.stored, x.set = v, true
}

// Stored returns the raw slot value before masking; ok is false while the slot is unset.
func (x *ThreadLocalIndex) Stored() (v int32, ok bool) { return x.stored, x.set }

// SetStored writes the raw slot, as the repository's ThreadLocalIndexTest (and the
// conformance generator) do through reflection.
func (x *ThreadLocalIndex) SetStored(v int32) { x.stored, x.set = v, true }
