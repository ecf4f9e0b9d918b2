// Package fault is the producer's latency fault tolerance as the Java client implements it:
// the latency → isolation tier tables (spec §0, §2.3), LatencyFaultToleranceImpl's table of
// fault items with its extend-only isolation and reachability flag (spec §2.4), and
// MQFaultStrategy, which turns send outcomes into fault items and chooses a queue with the
// available → reachable → plain fallback (spec §2.3).
//
// Time is virtual milliseconds passed in as now; the reachability detector is a method the
// simulator calls every 3 s with a probe callback; pickOneAtLeast's shuffle draws from an
// injected source. Observers get copies of the fault items, sorted by broker name. Values
// are not safe for concurrent use.
package fault
