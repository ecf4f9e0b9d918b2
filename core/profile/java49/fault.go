package java49

import (
	"slices"

	"github.com/lbscope/lbscope/core/route"
)

// IsolationLatency is the latency updateFaultItem(…, isolation=true) looks up instead of the
// real one: 30000 → 600000 ms with the default table (spec §9.2).
const IsolationLatency = 30000

// Table is MQFaultStrategy's latencyMax / notAvailableDuration pair; the setters accept
// arrays of different lengths, and a lookup past the end of notAvailableDuration throws.
type Table struct {
	LatencyMax           []int64
	NotAvailableDuration []int64
}

// DefaultTable is 4.9's: latencyMax {50,100,550,1000,2000,3000,15000}, notAvailableDuration
// {0,0,30000,60000,120000,180000,600000}.
func DefaultTable() Table {
	return Table{
		LatencyMax:           []int64{50, 100, 550, 1000, 2000, 3000, 15000},
		NotAvailableDuration: []int64{0, 0, 30000, 60000, 120000, 180000, 600000},
	}
}

// ErrArrayIndex is Java's ArrayIndexOutOfBoundsException from a table whose
// notAvailableDuration is shorter than its latencyMax.
type ErrArrayIndex struct{ Index int }

func (ErrArrayIndex) Error() string { return "ArrayIndexOutOfBoundsException" }

// ComputeNotAvailableDuration is computeNotAvailableDuration: the duration of the highest
// tier whose latencyMax the latency reaches, 0 below every tier.
func (t Table) ComputeNotAvailableDuration(latency int64) (int64, error) {
	for i := len(t.LatencyMax) - 1; i >= 0; i-- {
		if latency >= t.LatencyMax[i] {
			if i >= len(t.NotAvailableDuration) {
				return 0, ErrArrayIndex{Index: i}
			}
			return t.NotAvailableDuration[i], nil
		}
	}
	return 0, nil
}

// FaultItem is LatencyFaultToleranceImpl.FaultItem of 4.9: no reachable flag.
type FaultItem struct {
	Name           string
	CurrentLatency int64
	StartTimestamp int64 // available again at this virtual time
}

// IsAvailable is now − startTimestamp ≥ 0: available again exactly at the deadline.
func (it FaultItem) IsAvailable(now int64) bool { return now-it.StartTimestamp >= 0 }

// compare is FaultItem.compareTo at now: available first, then lower latency, then earlier
// deadline.
func (it FaultItem) compare(o FaultItem, now int64) int {
	if a, b := it.IsAvailable(now), o.IsAvailable(now); a != b {
		if a {
			return -1
		}
		return 1
	}
	switch {
	case it.CurrentLatency < o.CurrentLatency:
		return -1
	case it.CurrentLatency > o.CurrentLatency:
		return 1
	case it.StartTimestamp < o.StartTimestamp:
		return -1
	case it.StartTimestamp > o.StartTimestamp:
		return 1
	}
	return 0
}

// Tolerance is LatencyFaultToleranceImpl 4.9.8 (spec §9.2): items by broker name and the
// whichItemWorst index of pickOneAtLeast.
type Tolerance struct {
	items          map[string]FaultItem
	order          []string // insertion order, so that iteration never depends on map order
	WhichItemWorst *ThreadLocalIndex
}

// NewTolerance returns an empty table whose whichItemWorst index draws from src.
func NewTolerance(src Source) *Tolerance {
	return &Tolerance{items: map[string]FaultItem{}, WhichItemWorst: NewThreadLocalIndex(src)}
}

// UpdateFaultItem records latency and overwrites the deadline with now + duration — a fast
// success lifts an isolation at once (current clients only extend).
func (t *Tolerance) UpdateFaultItem(name string, currentLatency, notAvailableDuration, now int64) {
	if _, ok := t.items[name]; !ok {
		t.order = append(t.order, name)
	}
	t.items[name] = FaultItem{Name: name, CurrentLatency: currentLatency, StartTimestamp: now + notAvailableDuration}
}

// IsAvailable: a broker without an item is available.
func (t *Tolerance) IsAvailable(name string, now int64) bool {
	it, ok := t.items[name]
	return !ok || it.IsAvailable(now)
}

// Remove forgets a broker's item.
func (t *Tolerance) Remove(name string) {
	if _, ok := t.items[name]; !ok {
		return
	}
	delete(t.items, name)
	t.order = slices.DeleteFunc(t.order, func(n string) bool { return n == name })
}

// Item returns a broker's item.
func (t *Tolerance) Item(name string) (FaultItem, bool) {
	it, ok := t.items[name]
	return it, ok
}

// PickOneAtLeast sorts every item (FaultItem order at now); with fewer than two items it
// returns the first, else item whichItemWorst.incrementAndGet() % (size/2): a round robin
// over the better half. ok is false for an empty table (Java null). Java breaks exact ties
// by hash-map order; here the order items were first added decides.
func (t *Tolerance) PickOneAtLeast(now int64) (string, bool) {
	if len(t.items) == 0 {
		return "", false
	}
	list := make([]FaultItem, 0, len(t.items))
	for _, name := range t.order {
		list = append(list, t.items[name])
	}
	slices.SortStableFunc(list, func(a, b FaultItem) int { return a.compare(b, now) })
	half := len(list) / 2
	if half <= 0 {
		return list[0].Name, true
	}
	return list[int(t.WhichItemWorst.IncrementAndGet())%half].Name, true
}

// Strategy is MQFaultStrategy 4.9.8.
type Strategy struct {
	Table                  Table
	SendLatencyFaultEnable bool // off by default
	Tolerance              *Tolerance
}

// NewStrategy returns a strategy with the default table, latency mode off, and a tolerance
// whose whichItemWorst index draws from src.
func NewStrategy(src Source) *Strategy {
	return &Strategy{Table: DefaultTable(), Tolerance: NewTolerance(src)}
}

// UpdateFaultItem is updateFaultItem(broker, latency, isolation) (no reachable flag): with
// latency mode on, the duration of the real latency, or of 30000 when isolation is asked
// for, recorded with the real latency. A no-op when latency mode is off.
func (s *Strategy) UpdateFaultItem(brokerName string, currentLatency int64, isolation bool, now int64) error {
	if !s.SendLatencyFaultEnable {
		return nil
	}
	lookup := currentLatency
	if isolation {
		lookup = IsolationLatency
	}
	d, err := s.Table.ComputeNotAvailableDuration(lookup)
	if err != nil {
		return err
	}
	s.Tolerance.UpdateFaultItem(brokerName, currentLatency, d, now)
	return nil
}

// Selection is what one selectOneMessageQueue call did, beyond its result.
type Selection struct {
	Picked      bool   // the fallback ran pickOneAtLeast
	PickedName  string // its result ("" with PickedOK false: null)
	PickedOK    bool
	Removed     bool   // the fallback removed the picked broker (no writable queue data)
	RemovedName string // "" with RemovedOK false: remove(null)
	Caught      string // the exception the strategy caught and logged, e.g. NullPointerException
}

// SelectOneMessageQueue is MQFaultStrategy.selectOneMessageQueue(tpInfo, lastBrokerName) of
// 4.9.8 (spec §9.2). Latency mode on: walk the list from one increment of the index for the
// first queue whose broker is available (the last broker is ignored); none → pickOneAtLeast,
// and if that broker has a writable queue data with w > 0 queues, a new queue of that broker
// with id incrementAndGet() % w after one plain pick; otherwise remove it. Exceptions inside
// are caught, then a plain pick. Latency mode off: the avoid-broker pick. The error is
// Java's ArithmeticException of a plain pick on an empty list.
func (s *Strategy) SelectOneMessageQueue(tp *TopicPublishInfo, lastBrokerName *string, now int64) (route.MessageQueue, Selection, error) {
	var sel Selection
	if !s.SendLatencyFaultEnable {
		mq, err := tp.SelectAvoiding(lastBrokerName)
		return mq, sel, err
	}
	if mq, ok, caught := s.latencyPick(tp, now, &sel); ok {
		return mq, sel, nil
	} else if caught != "" {
		sel.Caught = caught
	}
	mq, err := tp.SelectOneMessageQueue()
	return mq, sel, err
}

func (s *Strategy) latencyPick(tp *TopicPublishInfo, now int64, sel *Selection) (route.MessageQueue, bool, string) {
	list := tp.Queues
	index := tp.SendWhichQueue.IncrementAndGet()
	for range list {
		pos := abs32(index) % int32(len(list))
		index++
		if pos < 0 {
			pos = 0
		}
		if mq := list[pos]; s.Tolerance.IsAvailable(mq.BrokerName, now) {
			return mq, true, ""
		}
	}
	notBest, ok := s.Tolerance.PickOneAtLeast(now)
	sel.Picked, sel.PickedName, sel.PickedOK = true, notBest, ok
	if tp.Route == nil {
		return route.MessageQueue{}, false, "NullPointerException"
	}
	w := int32(-1)
	if ok {
		w = tp.WriteQueueNumsByBroker(notBest)
	}
	if w > 0 {
		mq, err := tp.SelectOneMessageQueue()
		if err != nil {
			return route.MessageQueue{}, false, err.Error()
		}
		return route.MessageQueue{Topic: mq.Topic, BrokerName: notBest, QueueID: tp.SendWhichQueue.IncrementAndGet() % w}, true, ""
	}
	sel.Removed, sel.RemovedName = true, notBest
	if !ok {
		return route.MessageQueue{}, false, "NullPointerException" // ConcurrentHashMap.remove(null)
	}
	s.Tolerance.Remove(notBest)
	return route.MessageQueue{}, false, ""
}

// abs32 is Math.abs(int): MinInt32 stays negative.
func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// Clone returns an independent copy of the fault table whose whichItemWorst index draws from
// src (a simulation checkpoint of a producer).
func (t *Tolerance) Clone(src Source) *Tolerance {
	n := &Tolerance{items: make(map[string]FaultItem, len(t.items)), order: slices.Clone(t.order), WhichItemWorst: t.WhichItemWorst.Clone(src)}
	for k, v := range t.items {
		n.items[k] = v
	}
	return n
}

// Clone returns an independent copy of the strategy whose indexes draw from src.
func (s *Strategy) Clone(src Source) *Strategy {
	return &Strategy{Table: Table{LatencyMax: slices.Clone(s.Table.LatencyMax), NotAvailableDuration: slices.Clone(s.Table.NotAvailableDuration)},
		SendLatencyFaultEnable: s.SendLatencyFaultEnable, Tolerance: s.Tolerance.Clone(src)}
}
