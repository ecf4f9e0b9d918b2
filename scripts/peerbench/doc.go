// Package peerbench benchmarks LBScope's group allocation side by side with
// github.com/apache/rocketmq-client-go/v2 on the same input, and checks where the two agree.
//
// It is a module of its own so that the main module never depends on the Go client: run it
// with scripts/bench-peer.sh, or `go test -bench BenchmarkGroup` in this directory. It holds
// no code outside its tests.
package peerbench
