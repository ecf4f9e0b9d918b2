// Package selector is the producer side of the Java client's queue choice: the per-thread
// rotating index (ThreadLocalIndex, spec §2.1), the publish list and its picks
// (TopicPublishInfo, spec §1.3, §2.2) and the SYNC send-retry loop of
// DefaultMQProducerImpl.sendDefaultImpl (spec §2.5).
//
// The latency fault strategy that chooses between the picks lives in package fault
// (fault.MQFaultStrategy, spec §2.3); the send loop reaches it through the small
// FaultStrategy interface defined here, so fault imports selector and not the other way.
//
// Nothing here reads a clock or a global random source: time is virtual milliseconds passed
// in as now, and the index draws from an injected Source (a *jrand.Random in the simulator,
// a fixed value in conformance tests). Values are not safe for concurrent use; the simulator
// drives them from one goroutine.
package selector
