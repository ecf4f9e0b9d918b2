package route

import (
	"slices"
	"testing"
)

// People read c2 before c10; Java does not (CompareJava), and the canvas follows people.
func TestNaturalCompare(t *testing.T) {
	in := []string{"c10", "c2", "b", "c02", "a1b2", "a1b10", "c1", "", "c"}
	slices.SortFunc(in, NaturalCompare)
	want := []string{"", "a1b2", "a1b10", "b", "c", "c1", "c02", "c2", "c10"}
	if !slices.Equal(in, want) {
		t.Errorf("got %v; want %v", in, want)
	}
}

func TestNaturalCompareNamesOfBrokersAndConsumers(t *testing.T) {
	ids := []string{"c10", "c2", "broker-b", "c1", "broker-10", "broker-9", "c01x"}
	slices.SortFunc(ids, NaturalCompare)
	want := []string{"broker-9", "broker-10", "broker-b", "c1", "c01x", "c2", "c10"}
	if !slices.Equal(ids, want) {
		t.Errorf("sorted %v; want %v", ids, want)
	}
}
