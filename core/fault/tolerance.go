package fault

import (
	"slices"
	"strings"
)

// Detector timing (spec §0, §2.4).
const (
	DefaultDetectTimeout  int64 = 200  // ms a probe may take (ClientConfig.detectTimeout)
	DefaultDetectInterval int64 = 2000 // ms between two probes of one broker (detectInterval)
	DetectPeriod          int64 = 3000 // the detector task runs every 3 s, first after 3 s
)

// FaultItem is LatencyFaultToleranceImpl.FaultItem (spec §2.4), as a copy for observers.
type FaultItem struct {
	Name           string
	CurrentLatency int64 // the last reported latency, the real one even after an isolation
	// StartTimestamp is "unavailable until", not a start time: available ⇔ now >= it.
	StartTimestamp int64
	CheckStamp     int64 // the earliest time the detector may probe this broker again
	ReachableFlag  bool
}

// IsAvailable is FaultItem.isAvailable at now.
func (it FaultItem) IsAvailable(now int64) bool { return now >= it.StartTimestamp }

// Probe is what the detector asks of the producer for one broker: resolve its master
// address from the route cache (resolvable=false makes the detector drop the item) and, if
// resolvable, probe it within detectTimeout ms (ok=true if it answered).
type Probe func(brokerName string, detectTimeout int64) (resolvable, ok bool)

// Shuffler is the random source of pickOneAtLeast's Collections.shuffle. *jrand.Random
// satisfies it.
type Shuffler interface {
	NextIntn(bound int32) int32
}

// LatencyFaultTolerance is LatencyFaultToleranceImpl (spec §2.4): broker name → fault item.
// Items never expire; availability returns when now passes the deadline.
type LatencyFaultTolerance struct {
	items map[string]*FaultItem

	// DetectTimeout and DetectInterval are the detector's knobs (defaults 200 / 2000 ms).
	DetectTimeout  int64
	DetectInterval int64
	// StartDetectorEnable switches the periodic detector task on (default false);
	// MQFaultStrategy.SetStartDetectorEnable sets it too, as in Java.
	StartDetectorEnable bool
}

// NewLatencyFaultTolerance returns an empty table with the default detector knobs.
func NewLatencyFaultTolerance() *LatencyFaultTolerance {
	return &LatencyFaultTolerance{
		items:          map[string]*FaultItem{},
		DetectTimeout:  DefaultDetectTimeout,
		DetectInterval: DefaultDetectInterval,
	}
}

// UpdateFaultItem is updateFaultItem (spec §2.4, §6.4): create the item if missing, then
// set its latency, extend (never shorten) its isolation to now+notAvailableDuration when that
// is positive and later than the current deadline, and overwrite its reachable flag.
func (t *LatencyFaultTolerance) UpdateFaultItem(name string, currentLatency, notAvailableDuration int64, reachable bool, now int64) {
	it, ok := t.items[name]
	if !ok {
		it = &FaultItem{Name: name}
		t.items[name] = it
	}
	it.CurrentLatency = currentLatency
	// Extend-only since 5.1.4: a fast success (duration 0) no longer lifts an isolation.
	if notAvailableDuration > 0 && now+notAvailableDuration > it.StartTimestamp {
		it.StartTimestamp = now + notAvailableDuration
	}
	it.ReachableFlag = reachable
}

// IsAvailable is isAvailable: unknown brokers are available. Reachability is not part of
// it since 5.2.0 (spec §2.4).
func (t *LatencyFaultTolerance) IsAvailable(name string, now int64) bool {
	if it, ok := t.items[name]; ok {
		return it.IsAvailable(now)
	}
	return true
}

// IsReachable is isReachable: unknown brokers are reachable.
func (t *LatencyFaultTolerance) IsReachable(name string) bool {
	if it, ok := t.items[name]; ok {
		return it.ReachableFlag
	}
	return true
}

// Remove is remove: forget the broker (it becomes available and reachable).
func (t *LatencyFaultTolerance) Remove(name string) { delete(t.items, name) }

// Item returns a copy of one broker's item.
func (t *LatencyFaultTolerance) Item(name string) (FaultItem, bool) {
	if it, ok := t.items[name]; ok {
		return *it, true
	}
	return FaultItem{}, false
}

// Items returns a copy of every item, sorted by broker name.
func (t *LatencyFaultTolerance) Items() []FaultItem {
	out := make([]FaultItem, 0, len(t.items))
	for _, name := range t.names() {
		out = append(out, *t.items[name])
	}
	return out
}

// names returns the broker names in byte order, so that no map order decides anything.
func (t *LatencyFaultTolerance) names() []string {
	names := make([]string, 0, len(t.items))
	for name := range t.items {
		names = append(names, name)
	}
	slices.SortFunc(names, strings.Compare)
	return names
}

// PickOneAtLeast is pickOneAtLeast (spec §2.4): shuffle a copy of the items and return the
// first reachable broker's name; ok=false when none is. The current selection path does not
// use it. Java shuffles the items in hash-map order; here they start sorted by name, so the
// same random stream need not pick the same broker as a JVM would.
func (t *LatencyFaultTolerance) PickOneAtLeast(rnd Shuffler) (string, bool) {
	names := t.names()
	// Collections.shuffle: for i from size down to 2, swap(i-1, rnd.nextInt(i)).
	for i := len(names); i > 1; i-- {
		j := rnd.NextIntn(int32(i))
		names[i-1], names[j] = names[j], names[i-1]
	}
	for _, name := range names {
		if t.items[name].ReachableFlag {
			return name, true
		}
	}
	return "", false
}

// DetectByOneRound is detectByOneRound (spec §2.4): every item whose checkStamp has come
// gets checkStamp = now + DetectInterval and is probed; an unresolvable broker is removed,
// one that answers is marked reachable. It never marks anything unreachable and never
// touches an isolation deadline. Java reads the clock per item while probes run one after
// the other; here the whole round happens at now, in broker-name order.
func (t *LatencyFaultTolerance) DetectByOneRound(now int64, probe Probe) {
	if probe == nil {
		panic("fault: DetectByOneRound needs a probe")
	}
	for _, name := range t.names() {
		it := t.items[name]
		if now-it.CheckStamp < 0 {
			continue
		}
		it.CheckStamp = now + t.DetectInterval
		resolvable, ok := probe(name, t.DetectTimeout)
		if !resolvable {
			delete(t.items, name)
			continue
		}
		if ok && !it.ReachableFlag {
			it.ReachableFlag = true
		}
	}
}

// DetectTask is the body of the task startDetector schedules every DetectPeriod ms: one
// round, only while StartDetectorEnable is true.
func (t *LatencyFaultTolerance) DetectTask(now int64, probe Probe) {
	if t.StartDetectorEnable {
		t.DetectByOneRound(now, probe)
	}
}
