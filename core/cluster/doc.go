// Package cluster is the simulated RocketMQ world: a name server, brokers with their consumer
// managers and offset stores, producers using the core's selector and fault strategy, and one
// consumer group whose members each run their own rebalance loop (spec §3, §5).
//
// It is a deterministic state machine. Commands go in through Apply, virtual time through
// Advance; observers read Snapshot copies and the event log. Control traffic (heartbeats,
// notifications, rebalance rounds, expiry scans) is event-driven to the millisecond; the
// message flow (sends, pulls, consumption) moves in fixed steps of Timing.FlowStepMs, in
// batches whose counts stay exact.
package cluster
