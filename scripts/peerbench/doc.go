// Package peerbench benchmarks LBScope's group allocation side by side with
// github.com/apache/rocketmq-client-go/v2 on the same input, checks where the two agree, and
// holds the differential tests of the go-2.1.2 client profile: the Go client's own strategies
// and selectors against the profile's on thousands of seeded random inputs each (same list in
// the same order, nil where it returns nil, the same panic where it panics).
//
// It is a module of its own so that the main module never depends on the Go client: run it
// with scripts/bench-peer.sh, or `go test -bench BenchmarkGroup` in this directory. It holds
// no code outside its tests.
package peerbench
