package fault

import (
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
)

// MQFaultStrategy is client/latency/MQFaultStrategy (spec §2.3): the tier table, the fault
// table, and the two switches sendLatencyFaultEnable (default false) and
// startDetectorEnable (default false), both flippable at run time.
//
// It holds its filters itself, like Java's fields and per-thread brokerFilter, so a
// selection allocates nothing; that also makes it a model of one sending thread. Use it
// through the pointer NewMQFaultStrategy returns; do not copy it.
type MQFaultStrategy struct {
	table                  Table
	tolerance              *LatencyFaultTolerance
	sendLatencyFaultEnable bool
	startDetectorEnable    bool

	available availableFilter
	reachable reachableFilter
	broker    brokerFilter
	// The filter lists of the three filtered passes, built once.
	availablePass [2]selector.QueueFilter
	reachablePass [2]selector.QueueFilter
	brokerPass    [1]selector.QueueFilter
}

// NewMQFaultStrategy returns a strategy with both switches off, an empty fault table and
// the given tier table (DefaultTable() for the current client).
func NewMQFaultStrategy(table Table) *MQFaultStrategy {
	s := &MQFaultStrategy{table: table, tolerance: NewLatencyFaultTolerance()}
	s.available.tolerance = s.tolerance
	s.reachable.tolerance = s.tolerance
	s.availablePass = [2]selector.QueueFilter{&s.available, &s.broker}
	s.reachablePass = [2]selector.QueueFilter{&s.reachable, &s.broker}
	s.brokerPass = [1]selector.QueueFilter{&s.broker}
	return s
}

// Table returns the tier table in use.
func (s *MQFaultStrategy) Table() Table { return s.table }

// SetTable replaces the tier table (Java's setLatencyMax / setNotAvailableDuration).
func (s *MQFaultStrategy) SetTable(t Table) { s.table = t }

// SendLatencyFaultEnable reports whether latency fault tolerance is on.
func (s *MQFaultStrategy) SendLatencyFaultEnable() bool { return s.sendLatencyFaultEnable }

// SetSendLatencyFaultEnable switches latency fault tolerance (ClientConfig.sendLatencyEnable).
func (s *MQFaultStrategy) SetSendLatencyFaultEnable(on bool) { s.sendLatencyFaultEnable = on }

// StartDetectorEnable reports whether the reachability detector works.
func (s *MQFaultStrategy) StartDetectorEnable() bool { return s.startDetectorEnable }

// SetStartDetectorEnable switches the detector, on the strategy and on its fault table, as
// Java's setter does.
func (s *MQFaultStrategy) SetStartDetectorEnable(on bool) {
	s.startDetectorEnable = on
	s.tolerance.StartDetectorEnable = on
}

// IsAvailable asks the fault table (unknown brokers are available).
func (s *MQFaultStrategy) IsAvailable(brokerName string, now int64) bool {
	return s.tolerance.IsAvailable(brokerName, now)
}

// IsReachable asks the fault table (unknown brokers are reachable).
func (s *MQFaultStrategy) IsReachable(brokerName string) bool {
	return s.tolerance.IsReachable(brokerName)
}

// FaultItems returns a copy of the fault items, sorted by broker name.
func (s *MQFaultStrategy) FaultItems() []FaultItem { return s.tolerance.Items() }

// FaultItem returns a copy of one broker's fault item.
func (s *MQFaultStrategy) FaultItem(brokerName string) (FaultItem, bool) {
	return s.tolerance.Item(brokerName)
}

// RemoveFaultItem forgets a broker (LatencyFaultTolerance.remove).
func (s *MQFaultStrategy) RemoveFaultItem(brokerName string) { s.tolerance.Remove(brokerName) }

// PickOneAtLeast is the fault table's pickOneAtLeast (unused by the selection path).
func (s *MQFaultStrategy) PickOneAtLeast(rnd Shuffler) (string, bool) {
	return s.tolerance.PickOneAtLeast(rnd)
}

// DetectTask is the detector task the producer's startDetector schedules every
// DetectPeriod ms: one round while startDetectorEnable is on, nothing otherwise.
func (s *MQFaultStrategy) DetectTask(now int64, probe Probe) { s.tolerance.DetectTask(now, probe) }

// UpdateFaultItem is updateFaultItem (spec §2.3): nothing unless sendLatencyFaultEnable;
// otherwise the duration is looked up for the table's isolation latency when isolation is
// asked for, else for currentLatency, and the item keeps the real currentLatency.
func (s *MQFaultStrategy) UpdateFaultItem(brokerName string, currentLatency int64, isolation, reachable bool, now int64) {
	if !s.sendLatencyFaultEnable {
		return
	}
	lookup := currentLatency
	if isolation {
		lookup = s.table.isolationLatency
	}
	duration := s.table.ComputeNotAvailableDuration(lookup)
	s.tolerance.UpdateFaultItem(brokerName, currentLatency, duration, reachable, now)
}

// UpdateFaultItemOK is UpdateFaultItem for a custom table that may be shorter than its tiers:
// false where Java's lookup throws ArrayIndexOutOfBoundsException, leaving the item as it was
// (only in latency mode: otherwise updateFaultItem returns first, spec §2.12).
func (s *MQFaultStrategy) UpdateFaultItemOK(brokerName string, currentLatency int64, isolation, reachable bool, now int64) bool {
	if !s.sendLatencyFaultEnable {
		return true
	}
	lookup := currentLatency
	if isolation {
		lookup = s.table.isolationLatency
	}
	duration, ok := s.table.Lookup(lookup)
	if !ok {
		return false
	}
	s.tolerance.UpdateFaultItem(brokerName, currentLatency, duration, reachable, now)
	return true
}

// SelectOneMessageQueue is selectOneMessageQueue(tpInfo, lastBrokerName, resetIndex)
// (spec §2.3). With latency mode on: reset the index first if asked, then a pass over
// available brokers other than the last one, then over reachable ones other than the last
// one, then a plain pick — up to 2n+1 increments (spec §6.2). With it off: a pass avoiding
// the last broker, then a plain pick; resetIndex is ignored. The only error is the plain
// pick's selector.ErrDivideByZero on an empty list.
func (s *MQFaultStrategy) SelectOneMessageQueue(tp *selector.TopicPublishInfo, lastBrokerName selector.LastBroker, resetIndex bool, now int64) (route.MessageQueue, error) {
	if !s.sendLatencyFaultEnable && !lastBrokerName.Valid {
		// A null last broker passes every queue: the filtered pass takes its first candidate,
		// one increment, exactly the plain pick (which also gives an empty list's error).
		return tp.SelectOneMessageQueue()
	}
	s.broker.last = lastBrokerName
	if s.sendLatencyFaultEnable {
		if resetIndex {
			tp.ResetIndex()
		}
		s.available.now = now
		if mq, ok := tp.SelectFiltered(s.availablePass[:]...); ok {
			return mq, nil
		}
		if mq, ok := tp.SelectFiltered(s.reachablePass[:]...); ok {
			return mq, nil
		}
		return tp.SelectOneMessageQueue()
	}
	if mq, ok := tp.SelectFiltered(s.brokerPass[:]...); ok {
		return mq, nil
	}
	return tp.SelectOneMessageQueue()
}

// availableFilter accepts queues of brokers the fault table calls available at now.
type availableFilter struct {
	tolerance *LatencyFaultTolerance
	now       int64
}

func (f *availableFilter) Filter(mq route.MessageQueue) bool {
	return f.tolerance.IsAvailable(mq.BrokerName, f.now)
}

// reachableFilter accepts queues of brokers the fault table calls reachable.
type reachableFilter struct{ tolerance *LatencyFaultTolerance }

func (f *reachableFilter) Filter(mq route.MessageQueue) bool {
	return f.tolerance.IsReachable(mq.BrokerName)
}

// brokerFilter is MQFaultStrategy.BrokerFilter: with a non-null last broker it rejects that
// broker's queues (exact, case-sensitive name equality); with null it accepts everything.
type brokerFilter struct{ last selector.LastBroker }

func (f *brokerFilter) Filter(mq route.MessageQueue) bool {
	return !f.last.Valid || mq.BrokerName != f.last.Name
}

// Clone returns an independent copy: the same table, switches and fault items (a simulation
// checkpoint of a producer). The filters' transient state (the last broker, the pick's
// moment) is set by every pick before it is read, so the copy starts it empty.
func (s *MQFaultStrategy) Clone() *MQFaultStrategy {
	n := NewMQFaultStrategy(s.table)
	n.sendLatencyFaultEnable = s.sendLatencyFaultEnable
	n.startDetectorEnable = s.startDetectorEnable
	t := *s.tolerance
	t.items = make(map[string]*FaultItem, len(s.tolerance.items))
	for name, it := range s.tolerance.items {
		cp := *it
		t.items[name] = &cp
	}
	*n.tolerance = t
	return n
}
