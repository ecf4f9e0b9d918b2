package scenario

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

func TestPresetsValidate(t *testing.T) {
	want := slices.Sorted(slices.Values(append([]string{"small", "default", "large", "groups", "autoscale"}, IncidentNames()...)))
	if got := PresetNames(); !slices.Equal(got, want) {
		t.Errorf("PresetNames() = %v; want %v", got, want)
	}
	for name, s := range Presets() {
		if err := s.Validate(); err != nil {
			t.Errorf("preset %s: %v", name, err)
		}
		// An incident runs the strategy of its report (CONSISTENT_HASH for rocketmq-client-go#419);
		// a preset of several groups names each group's.
		strategy := s.Strategy.Name
		for _, g := range s.Groups {
			if strategy = g.Strategy.Name; strategy != "AVG" {
				break
			}
		}
		if s.Title == "" || s.Description == "" || s.Seed != 1 || strategy != "AVG" && !strings.HasPrefix(name, "incident-") || s.Until != 5*Minute {
			t.Errorf("preset %s: title %q, description %q, seed %d, strategy %s, until %s; want both texts, seed 1, AVG, 5m",
				name, s.Title, s.Description, s.Seed, strategy, s.Until)
		}
		// A preset written out is a scenario file.
		b, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(b)
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Errorf("preset %s does not survive Marshal → Parse: %v", name, err)
		}
	}
}

func TestPresetShapes(t *testing.T) {
	for _, tc := range []struct {
		name                                  string
		brokers, queues, consumers            int
		rate                                  int
		firstBroker, lastBroker, lastConsumer string
	}{
		{"small", 2, 4, 3, 100, "broker-a", "broker-b", "c3"},
		{"default", 4, 8, 4, 200, "broker-a", "broker-d", "c4"},
		{"large", 16, 16, 64, 2000, "broker-a", "broker-p", "c64"},
	} {
		s := Presets()[tc.name]
		if len(s.Brokers) != tc.brokers || len(s.Consumers) != tc.consumers || len(s.Producers) != 1 {
			t.Errorf("%s: %d brokers, %d consumers, %d producers; want %d, %d, 1",
				tc.name, len(s.Brokers), len(s.Consumers), len(s.Producers), tc.brokers, tc.consumers)
			continue
		}
		for _, b := range s.Brokers {
			if b.Queues != tc.queues {
				t.Errorf("%s: %s has %d queues; want %d", tc.name, b.Name, b.Queues, tc.queues)
			}
		}
		if got := s.Brokers[0].Name + " " + s.Brokers[len(s.Brokers)-1].Name; got != tc.firstBroker+" "+tc.lastBroker {
			t.Errorf("%s: brokers %s; want %s %s", tc.name, got, tc.firstBroker, tc.lastBroker)
		}
		if got := s.Consumers[len(s.Consumers)-1].ID; got != tc.lastConsumer {
			t.Errorf("%s: last consumer %s; want %s", tc.name, got, tc.lastConsumer)
		}
		if p := s.Producers[0]; p.ID != "p1" || p.Rate != tc.rate {
			t.Errorf("%s: producer %s at %d msg/s; want p1 at %d", tc.name, p.ID, p.Rate, tc.rate)
		}
	}
}

// The playground's presets of several topics and groups: two topics and two groups sharing
// one, a process in both (the canvas's group tabs); a group scaled by a tight rule.
func TestGroupPresets(t *testing.T) {
	g := Presets()["groups"]
	if len(g.Topics) != 2 || len(g.Groups) != 2 || len(g.Producers) != 2 || g.Producers[0].Topic == g.Producers[1].Topic {
		t.Errorf("groups: %d topics, %d groups, producers %+v; want 2 topics, 2 groups, a producer on each topic", len(g.Topics), len(g.Groups), g.Producers)
	}
	inBoth := 0
	for _, c := range g.Consumers {
		if len(c.Groups) == 2 {
			inBoth++
		}
	}
	if inBoth != 1 {
		t.Errorf("groups: %d members in both groups; want 1", inBoth)
	}
	a := Presets()["autoscale"]
	if len(a.Groups) != 1 || a.Groups[0].Autoscale == nil {
		t.Fatalf("autoscale: groups %+v; want one with an autoscaler", a.Groups)
	}
	// Its rule is a storm: it steps both ways within the preset's five minutes.
	res, err := Run(a, RunOptions{Events: true})
	if err != nil {
		t.Fatal(err)
	}
	out, in := 0, 0
	for _, e := range res.Events {
		if e.Cause == "autoscale" {
			if strings.Contains(e.Text, "starts") {
				out++
			} else {
				in++
			}
		}
	}
	if out < 3 || in < 3 {
		t.Errorf("autoscale: %d steps out, %d in; want at least 3 of each", out, in)
	}
}

// Presets returns fresh values: a caller changing one does not change the next call's.
func TestPresetsAreFresh(t *testing.T) {
	a := Presets()["small"]
	a.Brokers[0].Name = "changed"
	if b := Presets()["small"]; b.Brokers[0].Name != "broker-a" {
		t.Errorf("second Presets() call sees %q; want broker-a", b.Brokers[0].Name)
	}
}

func TestBrokerNamesSortInCreationOrder(t *testing.T) {
	for _, tc := range []struct {
		n           int
		first, last string
	}{{1, "broker-a", "broker-a"}, {26, "broker-a", "broker-z"}, {27, "broker-01", "broker-27"}, {64, "broker-01", "broker-64"}} {
		names := BrokerNames(tc.n)
		if len(names) != tc.n || names[0] != tc.first || names[tc.n-1] != tc.last {
			t.Errorf("BrokerNames(%d) = %v; want %s … %s", tc.n, names, tc.first, tc.last)
		}
		sorted := slices.Clone(names)
		slices.SortFunc(sorted, route.CompareJava)
		if !slices.Equal(sorted, names) {
			t.Errorf("BrokerNames(%d) in Java order = %v; want creation order %v", tc.n, sorted, names)
		}
		for i, name := range names {
			if err := checkName("broker", name, brokerName); err != nil {
				t.Errorf("BrokerNames(%d)[%d]: %v", tc.n, i, err)
			}
		}
	}
}
