// Package allocate holds RocketMQ's six queue-allocation strategies under their RocketMQ names
// (AVG, AVG_BY_CIRCLE, CONSISTENT_HASH, CONFIG, MACHINE_ROOM, MACHINE_ROOM_NEARBY-<inner>),
// reproducing the Java classes' results, result order and errors for every input (spec §4).
//
// Strategies do not sort their inputs; RebalanceImpl sorts before calling them (spec §3.3).
// Group runs a whole consumer group's calls at once, sharing the work that every consumer of
// the group repeats in the real client (the consistent-hash ring, the machine-room grouping).
package allocate
