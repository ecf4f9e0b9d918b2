// Package jrand is java.util.Random: the same 48-bit linear congruential generator and the
// same derivations, so that a seeded stream gives the numbers the Java client would draw.
// The simulation derives one Random per component from the run's seed; nothing here reads a
// clock.
package jrand

const (
	multiplier = 0x5DEECE66D
	addend     = 0xB
	mask       = (1 << 48) - 1
)

// Random is java.util.Random. The zero value is not useful; use New.
type Random struct{ seed int64 }

// New is `new Random(seed)`.
func New(seed int64) *Random { return &Random{seed: (seed ^ multiplier) & mask} }

func (r *Random) next(bits uint) int32 {
	r.seed = (r.seed*multiplier + addend) & mask
	return int32(r.seed >> (48 - bits))
}

// NextInt is Random.nextInt(): any int32, negative values included.
func (r *Random) NextInt() int32 { return r.next(32) }

// NextIntn is Random.nextInt(bound) for bound > 0: uniform in [0, bound).
// It panics for bound <= 0, as Java throws IllegalArgumentException (a caller's bug).
func (r *Random) NextIntn(bound int32) int32 {
	if bound <= 0 {
		panic("jrand: bound must be positive")
	}
	x := r.next(31)
	m := bound - 1
	if bound&m == 0 {
		return int32((int64(bound) * int64(x)) >> 31)
	}
	for u := x; ; u = r.next(31) {
		x = u % bound
		if u-x+m >= 0 { // int32 overflow is the rejection test, as in Java
			return x
		}
	}
}

// NextLong is Random.nextLong().
func (r *Random) NextLong() int64 { return int64(r.next(32))<<32 + int64(r.next(32)) }

// NextDouble is Random.nextDouble(): uniform in [0, 1).
func (r *Random) NextDouble() float64 {
	return float64(int64(r.next(26))<<27+int64(r.next(27))) * (1.0 / (1 << 53))
}
