// Package cluster is the simulated RocketMQ world: a name server, brokers with their consumer
// managers and offset stores, producers using the core's selector and fault strategy, and one
// consumer group whose members each run their own rebalance loop (spec §3, §5).
//
// It is a deterministic state machine. Commands go in through Apply, virtual time through
// Advance; observers read Snapshot copies and the event log. Control traffic (heartbeats,
// notifications, rebalance rounds, expiry scans) is event-driven to the millisecond; the
// message flow (sends, pulls, consumption) moves in fixed steps of Timing.FlowStepMs, in
// batches whose counts stay exact.
//
// The topic's and the group's state is kept apart from the brokers' and the clients': the
// Cluster's topicState and groupState hold the topic's name and route and the group's
// strategy and message model, and each broker holds its part of them (brokerTopic: the topic's
// queues there; brokerGroup: the group's consumer table and offsets there).
package cluster
