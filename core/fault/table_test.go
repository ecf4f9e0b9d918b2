package fault

import (
	"slices"
	"testing"
)

func TestComputeNotAvailableDurationCurrent(t *testing.T) {
	tests := []struct{ latency, want int64 }{
		{-1, 0}, {0, 0}, {49, 0}, {50, 0}, {100, 0}, {549, 0},
		{550, 2000}, {1799, 2000},
		{1800, 5000}, {2999, 5000},
		{3000, 6000}, {4999, 6000},
		{5000, 10000}, {14999, 10000},
		{15000, 30000}, {2147483647, 30000}, {2147483648, 30000},
	}
	table := DefaultTable()
	for _, tt := range tests {
		if got := table.ComputeNotAvailableDuration(tt.latency); got != tt.want {
			t.Errorf("latency %d: got %d; want %d", tt.latency, got, tt.want)
		}
	}
	if got := table.IsolationDuration(); got != 10000 {
		t.Errorf("isolation duration %d; want 10000", got)
	}
}

func TestComputeNotAvailableDurationLegacy(t *testing.T) {
	tests := []struct{ latency, want int64 }{
		{-1, 0}, {549, 0},
		{550, 30000}, {999, 30000},
		{1000, 60000}, {1999, 60000},
		{2000, 120000}, {2999, 120000},
		{3000, 180000}, {14999, 180000},
		{15000, 600000}, {30000, 600000},
	}
	table, err := TableByName(TableLegacy4x)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		if got := table.ComputeNotAvailableDuration(tt.latency); got != tt.want {
			t.Errorf("latency %d: got %d; want %d", tt.latency, got, tt.want)
		}
	}
	if got := table.IsolationDuration(); got != 600000 {
		t.Errorf("isolation duration %d; want 600000 (10 minutes)", got)
	}
}

func TestTableByName(t *testing.T) {
	for _, name := range TableNames() {
		table, err := TableByName(name)
		if err != nil || table.Name() != name {
			t.Errorf("TableByName(%q) = %q, %v", name, table.Name(), err)
		}
	}
	if _, err := TableByName("5.0"); err == nil {
		t.Errorf("TableByName(5.0): no error")
	}
	cur := DefaultTable()
	if got := cur.LatencyMax(); !slices.Equal(got, []int64{50, 100, 550, 1800, 3000, 5000, 15000}) {
		t.Errorf("latencyMax %v", got)
	}
	if got := cur.NotAvailableDuration(); !slices.Equal(got, []int64{0, 0, 2000, 5000, 6000, 10000, 30000}) {
		t.Errorf("notAvailableDuration %v", got)
	}
	// Accessors return copies.
	cur.LatencyMax()[0] = 1
	if cur.ComputeNotAvailableDuration(10) != 0 {
		t.Errorf("table changed through an accessor's slice")
	}
}

func TestNewTable(t *testing.T) {
	table, err := NewTable("scaled", []int64{50, 100, 550, 1800, 3000, 5000, 15000}, []int64{0, 0, 200, 500, 600, 1000, 3000}, 10000)
	if err != nil {
		t.Fatal(err)
	}
	if got := table.IsolationDuration(); got != 1000 {
		t.Errorf("scaled isolation %d; want 1000", got)
	}
	if _, err := NewTable("short", []int64{1, 2, 3}, []int64{0, 0}, 0); err == nil {
		t.Errorf("fewer durations than tiers: no error")
	}
	empty, err := NewTable("empty", nil, nil, 0)
	if err != nil || empty.ComputeNotAvailableDuration(1<<40) != 0 {
		t.Errorf("a table without tiers must never isolate")
	}
}

// Spec §2.12: custom tables are not validated; the top-down scan takes the highest index at or
// under the latency, and a missing notAvailableDuration entry is Java's exception.
func TestCustomTableLookup(t *testing.T) {
	tb := NewCustomTable("custom", []int64{100, 50, 1000}, []int64{7, 3}, 10000)
	for _, c := range []struct {
		latency, want int64
		ok            bool
	}{
		{10, 0, true},    // under every tier
		{60, 3, true},    // index 1 (50): the scan meets it before index 0
		{200, 3, true},   // index 1 again, not the larger threshold 100 at index 0
		{1000, 0, false}, // index 2 has no duration: ArrayIndexOutOfBoundsException
	} {
		got, ok := tb.Lookup(c.latency)
		if got != c.want || ok != c.ok {
			t.Errorf("Lookup(%d) = %d, %v; want %d, %v", c.latency, got, ok, c.want, c.ok)
		}
	}
	s := NewMQFaultStrategy(tb)
	if !s.UpdateFaultItemOK("b", 1000, false, true, 0) {
		t.Error("latency mode off: updateFaultItem returns before the lookup; want no exception")
	}
	s.SetSendLatencyFaultEnable(true)
	if s.UpdateFaultItemOK("b", 1000, false, true, 0) {
		t.Error("latency mode on, tier 2 without a duration: want the exception")
	}
	if _, ok := s.FaultItem("b"); ok {
		t.Error("the throwing update left a fault item; want none")
	}
}
