// Package jmap reproduces the iteration order of Java's java.util.concurrent.ConcurrentHashMap
// with String keys, as the classic client's maps of groups, topics and process queues have it
// (spec §3.14): the order in which a client instance rebalances its groups, and a group its
// topics. Neither Go's map order nor a sorted order is that order.
package jmap

import "github.com/lbscope/lbscope/core/selector"

// Order is the key order of one ConcurrentHashMap filled and emptied from one thread. The zero
// value is not usable: use New.
type Order struct {
	bins [][]string
	size int
	cap  int // the table's size once created (the constructor's, before the first insert)
}

// New is an empty map as `new ConcurrentHashMap<>()` (initial 0: 16 buckets at the first
// insert) or `new ConcurrentHashMap<>(initialCapacity)` makes it: the table is
// tableSizeFor(initialCapacity + initialCapacity/2 + 1) buckets.
func New(initialCapacity int) *Order {
	n := 16
	if initialCapacity > 0 {
		n = tableSizeFor(initialCapacity + initialCapacity>>1 + 1)
	}
	return &Order{cap: n}
}

func tableSizeFor(c int) int {
	n := 1
	for n < c && n < 1<<30 {
		n <<= 1
	}
	return n
}

// spread is ConcurrentHashMap.spread(String.hashCode()).
func spread(key string) uint32 {
	h := uint32(selector.StringHashCode(key))
	return (h ^ h>>16) & 0x7FFFFFFF
}

// Put inserts key at the end of its bucket if it is absent; a present key keeps its place.
// After an insert that makes the size reach three quarters of the table, the table doubles
// (Java's transfer: each bucket splits in two; in each half the longest tail run going there
// keeps its order and comes last, the nodes before it are prepended one by one, so their
// order is reversed). A bucket of 8 nodes in a small table resizes in Java instead of turning
// into a tree; that case is not modelled.
func (m *Order) Put(key string) {
	if m.bins == nil {
		m.bins = make([][]string, m.cap)
	}
	i := int(spread(key)) & (len(m.bins) - 1)
	for _, k := range m.bins[i] {
		if k == key {
			return
		}
	}
	m.bins[i] = append(m.bins[i], key)
	m.size++
	if n := len(m.bins); m.size >= n-n>>2 && n < 1<<30 {
		m.resize()
	}
}

func (m *Order) resize() {
	n := len(m.bins)
	next := make([][]string, 2*n)
	for i, bin := range m.bins {
		if len(bin) == 0 {
			continue
		}
		high := func(k string) bool { return int(spread(k))&n != 0 }
		// lastRun: the longest tail of nodes all going to the same half.
		run := len(bin) - 1
		for run > 0 && high(bin[run-1]) == high(bin[len(bin)-1]) {
			run--
		}
		var lo, hi []string
		if high(bin[len(bin)-1]) {
			hi = append(hi, bin[run:]...)
		} else {
			lo = append(lo, bin[run:]...)
		}
		for _, k := range bin[:run] {
			if high(k) {
				hi = append([]string{k}, hi...)
			} else {
				lo = append([]string{k}, lo...)
			}
		}
		next[i], next[i+n] = lo, hi
	}
	m.bins = next
}

// Remove deletes key; a later Put of it goes to the end of its bucket.
func (m *Order) Remove(key string) {
	if m.bins == nil {
		return
	}
	i := int(spread(key)) & (len(m.bins) - 1)
	for j, k := range m.bins[i] {
		if k == key {
			m.bins[i] = append(m.bins[i][:j:j], m.bins[i][j+1:]...)
			m.size--
			return
		}
	}
}

// Keys is the iteration order: buckets ascending, list order within a bucket.
func (m *Order) Keys() []string {
	out := make([]string, 0, m.size)
	for _, bin := range m.bins {
		out = append(out, bin...)
	}
	return out
}

// Len is the number of keys.
func (m *Order) Len() int { return m.size }

// Of is the iteration order of a map made by New(initialCapacity) and filled with keys in
// that order.
func Of(initialCapacity int, keys ...string) []string {
	m := New(initialCapacity)
	for _, k := range keys {
		m.Put(k)
	}
	return m.Keys()
}
