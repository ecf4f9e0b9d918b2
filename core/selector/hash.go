package selector

import "github.com/lbscope/lbscope/core/route"

// StringHashCode is Java's String.hashCode: s[0]·31^(n−1) + … + s[n−1] over UTF-16 code units,
// with int32 wrap-around (spec §2.11).
func StringHashCode(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			// A supplementary character is two UTF-16 code units, the surrogate pair.
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// HashIndex is SelectMessageQueueByHash's position for a key's hash over n queues:
// |h rem n| with Java's truncated remainder, which is neither floor-mod nor abs(h) % n
// (spec §2.11, §6.22). n must be positive.
func HashIndex(h int32, n int) int {
	v := int64(h) % int64(n) // int64: MinInt32 rem n cannot overflow
	if v < 0 {
		v = -v
	}
	return int(v)
}

// SelectByHash is SelectMessageQueueByHash.select(mqs, msg, key) over the publish list, for a
// String key. ok is false for an empty list (Java would divide by zero).
func SelectByHash(mqs []route.MessageQueue, key string) (route.MessageQueue, bool) {
	if len(mqs) == 0 {
		return route.MessageQueue{}, false
	}
	return mqs[HashIndex(StringHashCode(key), len(mqs))], true
}
