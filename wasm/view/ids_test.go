package view

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// Each id keeps the part that tells it apart: the PID or the last octet of an imported
// group's client ids, not the host's start they all share.
func TestDistinctParts(t *testing.T) {
	for _, tc := range []struct {
		ids, want []string
	}{
		{[]string{"127.0.0.1@4012", "127.0.0.1@4013", "127.0.0.1@977"}, []string{"~@4012", "~@4013", "~@977"}},
		// The same PID on two hosts: the last octet and a short PID, or the octet alone.
		{[]string{"10.1.2.3@123", "10.1.2.4@123"}, []string{"~.3@123", "~.4@123"}},
		{[]string{"10.1.2.3@12345", "10.1.2.4@12345"}, []string{"~.3~", "~.4~"}},
		// Only a restart's #nanoTime differs: that is the suffix.
		{[]string{"10.1.2.3@12345#123456789", "10.1.2.3@12345#987654321"}, []string{"~#123456789", "~#987654321"}},
		// The PID and the #nanoTime differ: the PID, shorter.
		{[]string{"127.0.0.1@4012#123456789", "127.0.0.1@4013#123457789"}, []string{"~@4012~", "~@4013~"}},
		// Past maxPart, the shortest part: the last octet.
		{[]string{"10.1.2.3@12345#123456789", "10.1.2.4@12345#123456789"}, []string{"~.3~", "~.4~"}},
		// Hosts that differ at the start.
		{[]string{"alpha.svc@1", "beta.svc@1"}, []string{"alpha~", "beta~"}},
		// Short ids stay whole; so does an id whose every part another contains.
		{[]string{"c1", "c2"}, []string{"c1", "c2"}},
		{[]string{"10.0.0.1@12", "10.0.0.1@12#1"}, []string{"10.0.0.1@12", "~#1"}},
		{[]string{"host-a@1", "host-b@1"}, []string{"host-a@1", "host-b@1"}},
		{[]string{"10.1.2.3@12345"}, []string{"10.1.2.3@12345"}},
	} {
		got := DistinctParts(tc.ids)
		if !slices.Equal(got, tc.want) {
			t.Errorf("DistinctParts(%q) = %q; want %q", tc.ids, got, tc.want)
		}
		// What a part says, without its cut marks, is in its id and in no other.
		for i, p := range got {
			bare := strings.Trim(p, "~")
			for j, id := range tc.ids {
				if in := strings.Contains(id, bare); in != (i == j) && !(i != j && p == tc.ids[i]) {
					t.Errorf("part %q of %s: in %s is %v", p, tc.ids[i], id, in)
				}
			}
		}
	}
}

// importedGroup is a group like the ones mqadmin's output is read into: n consumers on one
// host, their client ids ip@pid, and a restarted one's ip@pid#nanoTime.
func importedGroup(t *testing.T, n int) cluster.Snapshot {
	t.Helper()
	cfg := scenario.Presets()["small"].Config
	cfg.Consumers = nil
	for i := range n {
		id := fmt.Sprintf("127.0.0.1@%d", 4012+i*7)
		if i == n-1 {
			id = fmt.Sprintf("10.1.2.3@12345#%d", 123456789+i)
		}
		cfg.Consumers = append(cfg.Consumers, cluster.ConsumerConfig{ID: id})
	}
	return snapshot(t, cfg, 5000)
}

// An imported group's consumers are told apart on their boxes: the labels differ, each
// carries its PID (or what else differs) and the mark its cells carry, and none is cut to
// the host they share. Consumers that share a colour (past eight) differ in label and shape.
func TestImportedConsumersToldApart(t *testing.T) {
	s := importedGroup(t, 12)
	for _, size := range []Rect{{0, 0, 1280, 720}, {0, 0, 375, 640}} {
		l := Compute(&s, size)
		seen := map[string]string{}
		for _, b := range l.Consumers {
			m := l.Marks[b.ID]
			label := ConsumerLabel(b.ID, m)
			if other, dup := seen[label]; dup {
				t.Errorf("%s and %s both read %q", b.ID, other, label)
			}
			seen[label] = b.ID
			want := strings.Trim(m.Part, "~") // a part of its id (TestDistinctParts), its PID on the shared host
			if strings.HasPrefix(b.ID, "127.0.0.1@") {
				want = b.ID[len("127.0.0.1"):]
			}
			if !strings.Contains(label, want) || !strings.Contains(b.ID, want) || !strings.HasPrefix(label, m.Label+" ") {
				t.Errorf("%s's box reads %q; want its mark %q and %q", b.ID, label, m.Label, want)
			}
			if l.ConsumerMode != ConsumerTiny && TextWidth(label) > b.W-2 {
				t.Errorf("%gx%g: %q does not fit its %g-unit box", size.W, size.H, label, b.W)
			}
		}
	}
	// Its card gives its number and its whole id.
	l := Compute(&s, Rect{0, 0, 1280, 720})
	for _, cv := range s.Consumers {
		m := l.Marks[cv.ID]
		if got := TooltipLines(Frame{Snap: &s, Layout: l}, HitConsumer, cv.ID)[0]; !strings.HasPrefix(got, m.Label+" · "+cv.ID+" ") {
			t.Errorf("%s's card begins %q", cv.ID, got)
		}
	}
	marks := Marks(s.Consumers)
	for a, ma := range marks {
		for b, mb := range marks {
			if a < b && ma.Color == mb.Color && (ma.Label == mb.Label || ma.Shape == mb.Shape) {
				t.Errorf("%s and %s share a colour and a label or shape: %+v %+v", a, b, ma, mb)
			}
		}
	}
}
