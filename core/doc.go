// Package core is LBScope's deterministic model of RocketMQ client load balancing. Its
// packages import only the standard library, read no clock and draw no global randomness:
// time is virtual milliseconds passed in, and randomness comes from seeded java.util.Random
// streams (package jrand). The browser, the command and the tests are thin drivers around it.
//
// "spec §N" in comments refers to rocketmq-client-lb.md in this folder: the behaviour of the
// Java client at RocketMQ commit 8fc57f1 (after 5.3.3), which the core reproduces.
//
//	route     MessageQueue, Java sort orders and text form
//	allocate  the six allocation strategies and the group view
//	fault     latency fault table and MQFaultStrategy
//	selector  per-thread send index, queue picks, the send-retry loop
//	conform   checks against vectors recorded from the Java classes
//	jrand     java.util.Random
//	sim       virtual clock, event queue ordered by (time, sequence), seeded streams
//	cluster   the simulated brokers, name server, producers and consumer group
//	scenario  scenario files, validation, presets, and runs of a timeline
package core
