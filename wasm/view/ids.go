package view

import "strings"

// idSeparators start a new part of a client id: RocketMQ's ip@pid (or ip@instance), the
// Java 4.9 client's ip@pid#nanoTime after a restart, ports, hyphens and paths.
const idSeparators = ".@#:-_/"

// maxPart is the longest distinguishing part a consumer's box carries before it is cut to
// its end.
const maxPart = 12

// suffixSlack is how much longer than the shortest part a suffix may be and still be
// preferred: the end of an id reads as its end, a part from its middle needs two cuts.
const suffixSlack = 4

// shortID is the longest id a consumer's box shows whole.
const shortID = 8

// DistinctParts returns, for each of ids, the shortest part of it that tells it apart from
// the others, cut at the separators of idSeparators: the shortest suffix no other id
// contains (10.1.2.3@4012 and 10.1.2.3@4013 become "~@4012" and "~@4013") when it is at
// most maxPart long and at most suffixSlack longer than the shortest such part anywhere;
// else that part, the rightmost of equal length ("~@4012~" for 127.0.0.1@4012#123456789
// beside 127.0.0.1@4013#123457789, "alpha~" for alpha.svc@1 beside beta.svc@1). "~" stands where the id goes on, as Fit
// writes a cut. An id of at most shortID bytes, or one whose every part another id contains (a
// duplicate, or a part of a longer id), comes back whole.
//
// web/poster.mjs's distinctParts is the same, for the embed's poster.
func DistinctParts(ids []string) []string {
	out := make([]string, len(ids))
	for i := range ids {
		out[i] = distinctPart(ids, i)
	}
	return out
}

func distinctPart(ids []string, i int) string {
	id := ids[i]
	if len(ids) < 2 || len(id) <= shortID {
		return id
	}
	// Where the parts begin: the id's start, each separator, its end.
	bounds := []int{0}
	for k := 1; k < len(id); k++ {
		if strings.IndexByte(idSeparators, id[k]) >= 0 {
			bounds = append(bounds, k)
		}
	}
	bounds = append(bounds, len(id))
	unique := func(w string) bool {
		for j, other := range ids {
			if j != i && strings.Contains(other, w) {
				return false
			}
		}
		return true
	}
	written := func(a, b int) string {
		s := id[bounds[a]:bounds[b]]
		if a > 0 {
			s = "~" + s
		}
		if b < len(bounds)-1 {
			s += "~"
		}
		return s
	}
	last := len(bounds) - 1
	// The shortest unique suffix.
	suffix := -1
	for a := last - 1; a > 0; a-- {
		if unique(id[bounds[a]:]) {
			suffix = a
			break
		}
	}
	// The shortest unique part, the rightmost of equal length.
	bestA, bestB := -1, -1
	for a := 0; a < last; a++ {
		for b := a + 1; b <= last; b++ {
			n := bounds[b] - bounds[a]
			if bestA >= 0 && n > bounds[bestB]-bounds[bestA] {
				break
			}
			if unique(id[bounds[a]:bounds[b]]) {
				if bestA < 0 || n <= bounds[bestB]-bounds[bestA] {
					bestA, bestB = a, b
				}
				break
			}
		}
	}
	if suffix > 0 {
		n := len(id) - bounds[suffix]
		if n <= maxPart && (bestA < 0 || n <= bounds[bestB]-bounds[bestA]+suffixSlack) {
			return written(suffix, last)
		}
	}
	if bestA < 0 || (bestA == 0 && bestB == last) {
		return id
	}
	return written(bestA, bestB)
}
