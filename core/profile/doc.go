// Package profile describes each client SDK a simulated consumer or producer can run — its
// "client profile" (spec §9): how it allocates queues and fails, how it sorts and calls the
// strategy, its client id, its producer's publish list, selectors, retries and latency fault
// tolerance, and the timing facts of its consumer (rebalance timer and triggers, heartbeats,
// route refresh, offsets, leaving).
//
// Profiles:
//
//   - java: the current Java client (spec §0–§7), the default.
//   - java-4.9: the Java client 4.9.x (spec §9.2): same allocation, sorting and id; the 4.x
//     latency table with a 10-minute isolation, pickOneAtLeast, no index reset; a fixed 20 s
//     rebalance wait with coalesced wake-ups.
//   - go-2.1.2: rocketmq-client-go v2.1.2 (spec §9.1): its own strategies (nil results and
//     panics), byte-order sorting, IP@PID ids, a fixed 20 s ticker and one full round per
//     notification, no fault tolerance.
//
// A later version gets its own name (e.g. go-2.1.3) and its own Profile value; what it
// shares with an older one is shared by the packages the profiles delegate to (allocate,
// selector and fault for Java, goclient for Go, java49 for 4.9).
//
// The timing facts are data (Timing) the simulation reads; the package itself runs nothing.
//
// What a simulated group needs from a profile, per consumer process: its client id
// (ClientID, RestartKeepsID), its strategy (Strategy, built per process from the group's
// strategy name and parameters), each round's decision (ConsumerList for the broker's answer,
// then Rebalance: keep the table, replace it, retry in 1 s, or crash the process), its timers
// (Timing: fixed ticker or wait-after-round, spacing, coalescing, heartbeat after a change,
// first-pull delay, pull and long-poll delays), what dropping a queue does to the other
// offsets, and what leaving sends. Per producer: its publish list order (goclient.PublishList
// or the Java one), its selector and send loop (goclient.RoundRobin with goclient.Send,
// java49.Strategy with java49.Send, or the current selector and fault packages).
package profile
