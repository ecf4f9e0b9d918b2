package scenario

import (
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func largest(t *testing.T, until Duration) Scenario {
	t.Helper()
	s, err := FromFlags(Flags{Brokers: MaxBrokers, QueuesPerBroker: 64, Consumers: MaxConsumers, Producers: MaxProducers, Rate: MaxRate, Until: until})
	require.NoError(t, err)
	return s
}

func everyIntervalAt1ms(s Scenario) Scenario {
	tm := &s.Timing
	for _, p := range []*int64{&tm.RebalanceWaitInterval, &tm.RebalanceMinInterval, &tm.PollNameServerInterval, &tm.HeartbeatInterval,
		&tm.PersistOffsetInterval, &tm.ScanInterval, &tm.LongPollHold, &tm.HoldCheckInterval, &tm.FlowStepMs, &tm.PullFirstDelay, &tm.PullDelayOnException} {
		*p = 1
	}
	return s
}

// The estimate grows with everything that makes a run cost more.
func TestWorkGrowsWithWhatCosts(t *testing.T) {
	def := Presets()["default"]
	day := def
	day.Until = 24 * Hour
	assert.Greater(t, WorkOf(day).Units, 200*WorkOf(def).Units, "24 h against 5 min")
	assert.Greater(t, WorkOf(largest(t, 5*Minute)).Units, 1000*WorkOf(def).Units, "the largest shape")
	assert.Greater(t, WorkOf(everyIntervalAt1ms(def)).Units, 100*WorkOf(def).Units, "every interval at 1 ms")

	ch := def
	n := 1000
	ch.Strategy, ch.Params = allocate.Named("CONSISTENT_HASH"), allocate.Params{VirtualNodeCnt: &n}
	assert.Greater(t, WorkOf(ch).Units, WorkOf(def).Units, "a ring of 1000 virtual nodes per consumer")
	assert.Equal(t, WorkOf(ch).Units, CompareWork(def, []Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH", Params: &allocate.Params{VirtualNodeCnt: &n}}}).Units)

	// A strategy from its source counts its whole step budget per rebalance of each member,
	// from the start or from the setStrategy that brings it.
	src := allocate.Choice{Name: "MINE", Source: "def allocate(group, current, queues, consumers):\n    return []\n"}
	own := def
	own.Strategy = src
	perRound := int64(allocate.DefaultScriptSteps / StepsPerUnit * len(def.Consumers))
	assert.Greater(t, WorkOf(own).Units-WorkOf(def).Units, perRound, "a script's step budget, every member's round")
	later := def
	later.Timeline = []Step{{At: Duration(Minute), Command: cluster.Command{Type: "setStrategy", Strategy: src.Name, Source: src.Source}}}
	assert.Greater(t, WorkOf(later).Units-WorkOf(def).Units, perRound, "the same through setStrategy")

	// With groups (format 2), each group's strategy counts the same way, and an autoscaler
	// armed by the timeline counts every member it may start.
	groups := Presets()["groups"]
	hashed := groups
	hashed.Groups = append([]cluster.GroupConfig(nil), groups.Groups...)
	hashed.Groups[0].Strategy, hashed.Groups[0].Params = allocate.Named("CONSISTENT_HASH"), allocate.Params{VirtualNodeCnt: &n}
	assert.Greater(t, WorkOf(hashed).Units, WorkOf(groups).Units, "a group's ring of 1000 virtual nodes per consumer")
	scaled := groups
	scaled.Timeline = []Step{{At: Duration(Minute), Command: cluster.Command{Type: "setAutoscale", OutAbove: ptr(100), MaxMembers: ptr(200)}}}
	assert.Greater(t, WorkOf(scaled).Units, WorkOf(groups).Units, "up to 200 members the autoscaler may start")

	// The timeline's busiest moment counts: a rate raised tenfold, a broker added.
	busy := def
	busy.Timeline = []Step{{At: Duration(Minute)}}
	busy.Timeline[0].Type, busy.Timeline[0].Rate = "setProducerRate", ptr(def.Producers[0].Rate*10)
	assert.Greater(t, WorkOf(busy).Units, WorkOf(def).Units)
	wide := def
	wide.Timeline = []Step{{At: Duration(Minute)}}
	wide.Timeline[0].Type, wide.Timeline[0].Broker, wide.Timeline[0].Queues = "addBroker", "broker-z", ptr(1000)
	assert.Greater(t, WorkOf(wide).Units, WorkOf(def).Units)
}

// Fits is the inverse of the estimate: the span it returns fits the budget, a second more
// does not.
func TestWorkFits(t *testing.T) {
	s := Presets()["large"]
	s.Until = 24 * Hour
	w := WorkOf(s)
	for _, budget := range []int64{w.Start + 2*w.PerSecond, 1_000_000, 20_000_000, w.Units - 1} {
		fits := w.Fits(budget)
		require.Positive(t, fits, budget)
		assert.LessOrEqual(t, WorkSpan(s, 0, fits, true).Units, budget, budget)
		assert.Greater(t, WorkSpan(s, 0, fits+1000, true).Units, budget, budget)
	}
	assert.Equal(t, w.Span, w.Fits(w.Units))
	assert.Zero(t, w.Fits(w.Start))
	// Without the start (a seek from a checkpoint), only the span counts.
	assert.Less(t, WorkSpan(s, Hour.Ms(), 2*Hour.Ms(), false).Units, WorkSpan(s, 0, Hour.Ms(), true).Units)
}

func TestWorkSaturates(t *testing.T) {
	s := everyIntervalAt1ms(largest(t, MaxDuration))
	n := 1000
	s.Strategy, s.Params = allocate.Named("CONSISTENT_HASH"), allocate.Params{VirtualNodeCnt: &n}
	w := WorkOf(s)
	assert.Positive(t, w.Units, "no overflow")
	assert.GreaterOrEqual(t, w.Units, w.PerSecond)
}

func TestParseUnits(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "500m": 500_000_000, "2g": 2_000_000_000, "1.5k": 1500, "20G": 20_000_000_000} {
		got, err := ParseUnits(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "0", "-5", "m", "1x", "NaN", "2e15", "1e13g"} {
		_, err := ParseUnits(in)
		assert.Error(t, err, in)
	}
	assert.Equal(t, "850 thousand units", Units(850_000))
	assert.Equal(t, "12.3 million units", Units(12_300_000))
	assert.Equal(t, "2.0 billion units", Units(2_000_000_000))
}

// Within gives what WorkSpan gives for any part of a span, actions included.
func TestWorkWithinEqualsWorkSpan(t *testing.T) {
	s := Presets()["default"]
	for i := 0; i < 50; i++ {
		s.Timeline = append(s.Timeline, Step{At: Duration(int64(i) * 7001), Command: cluster.Command{Type: "killConsumer", ID: "c1"}})
	}
	w := WorkSpan(s, 0, 3600000, false)
	for _, span := range [][2]int64{{0, 1}, {0, 7001}, {5000, 90000}, {0, 3600000}, {100000, 100000}, {200000, 150000}} {
		if got, want := w.Within(s, span[0], span[1]), WorkSpan(s, span[0], span[1], false).Units; got != want {
			t.Errorf("Within(%d, %d) = %d; WorkSpan gives %d", span[0], span[1], got, want)
		}
	}
}

// A producer's own selector runs once a keyed send: the estimate counts its step budget for
// each, from the scenario's producers[].selector or from a setSelector step.
func TestWorkCountsSelectors(t *testing.T) {
	s := Presets()["small"]
	s.Producers[0].Keys = &cluster.KeysConfig{Count: 10}
	base := WorkOf(s).PerSecond
	withFile := s
	withFile.Producers = append([]cluster.ProducerConfig(nil), s.Producers...)
	withFile.Producers[0].Selector = &selector.Choice{Name: "S", Source: "def select(queues, message, arg):\n    return queues[0]\n", Steps: 5000}
	rate := int64(s.Producers[0].Rate)
	assert.GreaterOrEqual(t, WorkOf(withFile).PerSecond-base, rate*5000/StepsPerUnit)
	steps := 5000
	withStep := s
	withStep.Timeline = append(append([]Step(nil), s.Timeline...), Step{At: Duration(1000), Command: cluster.Command{Type: "setSelector",
		Selector: "S", Source: "def select(queues, message, arg):\n    return queues[0]\n", Steps: &steps}})
	assert.Equal(t, WorkOf(withFile).PerSecond, WorkOf(withStep).PerSecond)
}
