// Package java49 is the producer side of the Java client 4.9.x where it differs from the
// current client (spec §9.2, read at rocketmq-all-4.9.8): the 4.x latency tables with a
// 10-minute isolation that client exceptions also request, fault items whose deadline every
// update overwrites, pickOneAtLeast's round robin over the better half, ThreadLocalIndex
// without reset, and MQFaultStrategy.selectOneMessageQueue with its fallback queue built
// from the route. Allocation, sorting and the client id are those of the current client
// (package allocate, route); the consumer's timing facts are in package profile.
//
// Time is virtual milliseconds passed in as now; the index's first value comes from an
// injected source.
package java49
