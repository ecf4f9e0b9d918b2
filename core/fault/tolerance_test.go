package fault

import (
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/jrand"
)

func TestUpdateFaultItemExtendsOnly(t *testing.T) {
	ft := NewLatencyFaultTolerance()
	ft.UpdateFaultItem("broker-a", 3000, 6000, true, 1000) // until 7000
	ft.UpdateFaultItem("broker-a", 10, 0, true, 2000)      // a fast success does not lift it
	ft.UpdateFaultItem("broker-a", 600, 2000, true, 3000)  // 5000 < 7000: not shortened
	it, _ := ft.Item("broker-a")
	if it.StartTimestamp != 7000 || it.CurrentLatency != 600 {
		t.Fatalf("got deadline %d latency %d; want 7000, 600", it.StartTimestamp, it.CurrentLatency)
	}
	ft.UpdateFaultItem("broker-a", 600, 2000, true, 6000) // 8000 > 7000: extended
	if it, _ := ft.Item("broker-a"); it.StartTimestamp != 8000 {
		t.Fatalf("got deadline %d; want 8000", it.StartTimestamp)
	}
	tests := []struct {
		now  int64
		want bool
	}{{7999, false}, {8000, true}, {9000, true}}
	for _, tt := range tests {
		if got := ft.IsAvailable("broker-a", tt.now); got != tt.want {
			t.Errorf("available at %d = %v; want %v", tt.now, got, tt.want)
		}
	}
}

func TestReachableOverwrittenAndIndependent(t *testing.T) {
	ft := NewLatencyFaultTolerance()
	if !ft.IsAvailable("unknown", 0) || !ft.IsReachable("unknown") {
		t.Fatalf("an unknown broker must be available and reachable")
	}
	ft.UpdateFaultItem("broker-b", 20, 0, false, 0)
	if !ft.IsAvailable("broker-b", 0) || ft.IsReachable("broker-b") {
		t.Errorf("unreachable update: got available %v reachable %v; want true, false",
			ft.IsAvailable("broker-b", 0), ft.IsReachable("broker-b"))
	}
	ft.UpdateFaultItem("broker-b", 20, 10000, true, 0)
	if ft.IsAvailable("broker-b", 0) || !ft.IsReachable("broker-b") {
		t.Errorf("isolating reachable update: got available %v reachable %v; want false, true",
			ft.IsAvailable("broker-b", 0), ft.IsReachable("broker-b"))
	}
	ft.UpdateFaultItem("broker-b", 20, 0, false, 0)
	if ft.IsReachable("broker-b") {
		t.Errorf("reachable flag not overwritten by the last update")
	}
}

// The shapes of the repository's LatencyFaultToleanceImplTest (spec §2.4).
func TestLatencyFaultToleranceJavaTests(t *testing.T) {
	ft := NewLatencyFaultTolerance()
	ft.UpdateFaultItem("BrokerName", 3000, 3000, true, 0)
	if ft.IsAvailable("BrokerName", 0) || !ft.IsAvailable("AnotherBrokerName", 0) {
		t.Errorf("isolated broker available or another broker unavailable")
	}
	ft.UpdateFaultItem("Other", 50, 50, true, 0)
	if ft.IsAvailable("Other", 0) || !ft.IsAvailable("Other", 500) {
		t.Errorf("a 50 ms isolation must be visible at once and gone within 500 ms")
	}
	ft.Remove("BrokerName")
	if !ft.IsAvailable("BrokerName", 0) {
		t.Errorf("removed broker still unavailable")
	}
	ft.Remove("Other")
	ft.UpdateFaultItem("BrokerName", 3000, 3000, true, 0)
	if name, ok := ft.PickOneAtLeast(jrand.New(1)); !ok || name != "BrokerName" {
		t.Errorf("PickOneAtLeast = %q, %v; want the single reachable item", name, ok)
	}
	ft.UpdateFaultItem("BrokerName", 3000, 3000, false, 0)
	if ft.IsReachable("BrokerName") {
		t.Errorf("IsReachable must follow the last update")
	}
	if _, ok := ft.PickOneAtLeast(jrand.New(1)); ok {
		t.Errorf("PickOneAtLeast found a reachable item among unreachable ones")
	}
}

func TestPickOneAtLeastShufflesAsJava(t *testing.T) {
	ft := NewLatencyFaultTolerance()
	for _, name := range []string{"b", "c", "a", "d"} {
		ft.UpdateFaultItem(name, 0, 0, name != "c", 0)
	}
	// Collections.shuffle over [a b c d] with new Random(7): nextInt(4), nextInt(3), nextInt(2).
	r := jrand.New(7)
	names := []string{"a", "b", "c", "d"}
	for i := len(names); i > 1; i-- {
		j := r.NextIntn(int32(i))
		names[i-1], names[j] = names[j], names[i-1]
	}
	want := names[0]
	if want == "c" {
		want = names[1]
	}
	if got, _ := ft.PickOneAtLeast(jrand.New(7)); got != want {
		t.Errorf("PickOneAtLeast = %q; want %q (shuffled %v)", got, want, names)
	}
}

func TestItemsAreSortedCopies(t *testing.T) {
	ft := NewLatencyFaultTolerance()
	ft.UpdateFaultItem("broker-c", 1, 0, true, 0)
	ft.UpdateFaultItem("broker-a", 2, 2000, false, 0)
	ft.UpdateFaultItem("broker-b", 3, 0, true, 0)
	items := ft.Items()
	var names []string
	for _, it := range items {
		names = append(names, it.Name)
	}
	if !slices.Equal(names, []string{"broker-a", "broker-b", "broker-c"}) {
		t.Errorf("items in order %v; want sorted by name", names)
	}
	items[0].StartTimestamp = 0
	if ft.IsAvailable("broker-a", 0) {
		t.Errorf("live state changed through a copy")
	}
}

func TestDetectByOneRound(t *testing.T) {
	ft := NewLatencyFaultTolerance()
	ft.UpdateFaultItem("up", 10, 10000, false, 0)
	ft.UpdateFaultItem("down", 10, 10000, false, 0)
	ft.UpdateFaultItem("gone", 10, 0, true, 0)
	var probed []string
	probe := func(name string, timeout int64) (bool, bool) {
		if timeout != DefaultDetectTimeout {
			t.Errorf("probe timeout %d; want %d", timeout, DefaultDetectTimeout)
		}
		probed = append(probed, name)
		return name != "gone", name == "up"
	}
	ft.DetectTask(3000, probe)
	if len(probed) != 0 {
		t.Fatalf("the task probed %v with the detector disabled", probed)
	}
	ft.StartDetectorEnable = true
	ft.DetectTask(3000, probe)
	if !slices.Equal(probed, []string{"down", "gone", "up"}) {
		t.Errorf("probed %v; want every item, in name order", probed)
	}
	if _, ok := ft.Item("gone"); ok {
		t.Errorf("an unresolvable broker was kept")
	}
	if !ft.IsReachable("up") || ft.IsReachable("down") {
		t.Errorf("after the round: up reachable %v, down reachable %v; want true, false", ft.IsReachable("up"), ft.IsReachable("down"))
	}
	if ft.IsAvailable("up", 3000) {
		t.Errorf("the detector lifted an isolation")
	}
	// checkStamp = 3000 + 2000: nothing is probed again before 5000.
	probed = nil
	ft.DetectByOneRound(4999, probe)
	ft.DetectByOneRound(5000, probe)
	if !slices.Equal(probed, []string{"down", "up"}) {
		t.Errorf("probed %v; want only the round at 5000", probed)
	}
	// A success never marks anything unreachable.
	ft.DetectByOneRound(7000, func(string, int64) (bool, bool) { return true, false })
	if !ft.IsReachable("up") {
		t.Errorf("a failed probe made a reachable broker unreachable")
	}
}
