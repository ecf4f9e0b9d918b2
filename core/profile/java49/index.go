package java49

import "math"

// Source is the random source of a ThreadLocalIndex: Random.nextInt(), drawn once for an
// unset slot.
type Source interface {
	NextInt() int32
}

// ThreadLocalIndex is client/common/ThreadLocalIndex of 4.9.8 (spec §9.2): an unset slot
// starts at Math.abs(random.nextInt()) (MinInt32 stays MinInt32); each call stores ++index
// (int32 wrap) and returns Math.abs(index & 0x7FFFFFFF). There is no reset().
type ThreadLocalIndex struct {
	src    Source
	stored int32
	set    bool
}

// NewThreadLocalIndex returns an index with an unset slot drawing from src.
func NewThreadLocalIndex(src Source) *ThreadLocalIndex { return &ThreadLocalIndex{src: src} }

// IncrementAndGet is incrementAndGet().
func (x *ThreadLocalIndex) IncrementAndGet() int32 {
	if !x.set {
		v := x.src.NextInt()
		if v < 0 && v != math.MinInt32 {
			v = -v
		}
		x.stored, x.set = v, true
	}
	x.stored++
	return x.stored & math.MaxInt32
}

// Stored returns the raw slot; ok is false while unset.
func (x *ThreadLocalIndex) Stored() (int32, bool) { return x.stored, x.set }

// SetStored writes the raw slot.
func (x *ThreadLocalIndex) SetStored(v int32) { x.stored, x.set = v, true }

// Clone returns a copy of the index in the same state, drawing from src while it is unset.
func (x *ThreadLocalIndex) Clone(src Source) *ThreadLocalIndex {
	return &ThreadLocalIndex{src: src, stored: x.stored, set: x.set}
}
