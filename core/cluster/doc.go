// Package cluster is the simulated RocketMQ world: a name server, brokers with their consumer
// managers and offset stores, producers using the core's selector and fault strategy, and
// consumer groups whose members each run their own rebalance loop (spec §3, §5).
//
// It is a deterministic state machine. Commands go in through Apply, virtual time through
// Advance; observers read Snapshot copies and the event log. Control traffic (heartbeats,
// notifications, rebalance rounds, expiry scans) is event-driven to the millisecond; the
// message flow (sends, pulls, consumption) moves in fixed steps of Timing.FlowStepMs, in
// batches whose counts stay exact.
//
// Topics' and groups' state is kept apart from the brokers' and the clients': the Cluster's
// topicState and groupState hold a topic's name and route and a group's strategy and message
// model, and each broker holds its part of each at the same index (brokerTopic: the topic's
// queues there; brokerGroup: the group's consumer table and its offsets of every topic
// there). A consumer is a member of one group and subscribes one or more topics, each
// rebalanced in its turn (spec §3.14); a producer sends to one topic. A queue of the first
// topic is named "broker-a:0" in outputs, one of any other "Topic/broker-a:0".
package cluster
