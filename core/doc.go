// Package core is LBScope's deterministic model of RocketMQ client load balancing. Its
// packages import only the standard library, read no clock and draw no global randomness:
// time is virtual milliseconds passed in, and randomness comes from seeded java.util.Random
// streams (package jrand). The browser, the command and the tests are thin drivers around it.
//
//	route     MessageQueue, Java sort orders and text form
//	allocate  the six allocation strategies and the group view
//	fault     latency fault table and MQFaultStrategy
//	selector  per-thread send index, queue picks, the send-retry loop
//	conform   checks against vectors recorded from the Java classes
//	jrand     java.util.Random
package core
