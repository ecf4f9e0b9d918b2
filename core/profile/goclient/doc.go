// Package goclient is the load-balancing behaviour of rocketmq-client-go
// (github.com/apache/rocketmq-client-go/v2) at tag v2.1.2, as spec §9.1 describes it: the
// allocation strategies with their nil results and panics (§9.1.3), how a rebalance round
// sorts its inputs and calls them (§9.1.4), the client id (§9.1.2), the producer's publish
// list, queue selectors and send loops (§9.1.8). The profile's timers and other facts the
// simulation reads are in package profile.
//
// A Go panic is a value here (*Panic), never a real panic: the simulation decides what it
// does to the consumer process (by default rocketmq-client-go does not recover it, so the
// process exits, §9.1.4 step 5).
//
// Like the rest of the core it reads no clock and no global random source: the random
// selector draws from an injected IntnSource.
package goclient
