package fault

import (
	"fmt"
	"slices"
)

// Names of the built-in tier tables.
const (
	TableCurrent  = "current"   // 5.1.4 and later (RIP-63)
	TableLegacy4x = "legacy-4x" // 4.0 … 5.1.3, the one most blog posts quote
)

// Table is MQFaultStrategy's pair of tier arrays plus the latency an isolating error is
// replaced with before the lookup (spec §0 "Historic producer tables", §2.3). A Table is
// immutable; the accessors return copies.
type Table struct {
	name                 string
	latencyMax           []int64
	notAvailableDuration []int64
	isolationLatency     int64
}

// DefaultTable is the current table: latencyMax {50,100,550,1800,3000,5000,15000},
// notAvailableDuration {0,0,2000,5000,6000,10000,30000}, isolation latency 10000 → 10 s.
func DefaultTable() Table {
	return Table{
		name:                 TableCurrent,
		latencyMax:           []int64{50, 100, 550, 1800, 3000, 5000, 15000},
		notAvailableDuration: []int64{0, 0, 2000, 5000, 6000, 10000, 30000},
		isolationLatency:     10000,
	}
}

// LegacyTable is the 4.x table: latencyMax {50,100,550,1000,2000,3000,15000},
// notAvailableDuration {0,0,30000,60000,120000,180000,600000}, isolation latency 30000 →
// 10 minutes (spec §0, §7).
func LegacyTable() Table {
	return Table{
		name:                 TableLegacy4x,
		latencyMax:           []int64{50, 100, 550, 1000, 2000, 3000, 15000},
		notAvailableDuration: []int64{0, 0, 30000, 60000, 120000, 180000, 600000},
		isolationLatency:     30000,
	}
}

// TableNames lists the names TableByName accepts.
func TableNames() []string { return []string{TableCurrent, TableLegacy4x} }

// TableByName returns a built-in table by name ("current", "legacy-4x").
func TableByName(name string) (Table, error) {
	switch name {
	case TableCurrent:
		return DefaultTable(), nil
	case TableLegacy4x:
		return LegacyTable(), nil
	}
	return Table{}, fmt.Errorf("unknown fault table %q (want %q or %q)", name, TableCurrent, TableLegacy4x)
}

// NewTable builds a custom table, as the setters setLatencyMax / setNotAvailableDuration
// allow. notAvailableDuration needs at least as many entries as latencyMax (Java would throw
// ArrayIndexOutOfBoundsException on the lookup); the arrays are copied.
func NewTable(name string, latencyMax, notAvailableDuration []int64, isolationLatency int64) (Table, error) {
	if len(notAvailableDuration) < len(latencyMax) {
		return Table{}, fmt.Errorf("fault table %q: %d notAvailableDuration entries for %d latencyMax tiers",
			name, len(notAvailableDuration), len(latencyMax))
	}
	return Table{
		name:                 name,
		latencyMax:           slices.Clone(latencyMax),
		notAvailableDuration: slices.Clone(notAvailableDuration),
		isolationLatency:     isolationLatency,
	}, nil
}

// NewCustomTable is a table as the setters take it: any lengths, order and signs, since Java
// validates nothing (spec §2.12). With fewer notAvailableDuration entries than latencyMax
// tiers, a lookup that lands on a missing entry throws in Java; Lookup reports it.
func NewCustomTable(name string, latencyMax, notAvailableDuration []int64, isolationLatency int64) Table {
	return Table{
		name:                 name,
		latencyMax:           slices.Clone(latencyMax),
		notAvailableDuration: slices.Clone(notAvailableDuration),
		isolationLatency:     isolationLatency,
	}
}

// Lookup is computeNotAvailableDuration with its one failure: ok is false where Java throws
// ArrayIndexOutOfBoundsException (the matching tier i has no notAvailableDuration[i]). The
// scan returns the highest index whose threshold is ≤ latency, not the largest threshold, so
// an unsorted table behaves as Java's does (spec §2.12).
func (t Table) Lookup(latency int64) (duration int64, ok bool) {
	for i := len(t.latencyMax) - 1; i >= 0; i-- {
		if latency >= t.latencyMax[i] {
			if i >= len(t.notAvailableDuration) {
				return 0, false
			}
			return t.notAvailableDuration[i], true
		}
	}
	return 0, true
}

// Name is the table's name.
func (t Table) Name() string { return t.name }

// LatencyMax returns a copy of the latency tiers.
func (t Table) LatencyMax() []int64 { return slices.Clone(t.latencyMax) }

// NotAvailableDuration returns a copy of the isolation durations per tier.
func (t Table) NotAvailableDuration() []int64 { return slices.Clone(t.notAvailableDuration) }

// IsolationLatency is the latency substituted for the lookup when an update asks for
// isolation (10000 now, 30000 in 4.x).
func (t Table) IsolationLatency() int64 { return t.isolationLatency }

// IsolationDuration is how long an isolating error takes a broker out:
// ComputeNotAvailableDuration(IsolationLatency()).
func (t Table) IsolationDuration() int64 { return t.ComputeNotAvailableDuration(t.isolationLatency) }

// ComputeNotAvailableDuration is computeNotAvailableDuration (spec §2.3): scanning from the
// highest tier down, the first tier with latency >= latencyMax[i] gives
// notAvailableDuration[i]; below every tier (under 50 ms, negatives included) it is 0.
func (t Table) ComputeNotAvailableDuration(latency int64) int64 {
	for i := len(t.latencyMax) - 1; i >= 0; i-- {
		if latency >= t.latencyMax[i] {
			return t.notAvailableDuration[i]
		}
	}
	return 0
}
