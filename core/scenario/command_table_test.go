package scenario

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// pokeCommand is a command only this test knows, registered in the table and nowhere else. A
// poke brings the id into the group, as addConsumer does (Grows), and names the client its
// process runs (Overrides); applied, it tells clients the client each poke ran with.
func pokeCommand(clients *[]string) cluster.CommandSpec {
	zero, three := 0, 3
	return cluster.CommandSpec{Name: "testPoke", Target: cluster.TargetConsumer,
		Args: []cluster.Arg{
			{Name: "id", Type: cluster.ArgString, Charset: &cluster.ClientIDName, Example: "c1"},
			{Name: "queues", Type: cluster.ArgInt, Min: &zero, Max: &three, Optional: true, Example: "2"},
			{Name: "client", Type: cluster.ArgEnum, Enum: []string{"java", "java-4.9", "go"}, Optional: true, Example: "java"},
		},
		Apply: func(c *cluster.Cluster, cmd cluster.Command) error {
			*clients = append(*clients, cmd.Client)
			return nil
		},
		Grows: func(cmd cluster.Command) cluster.Growth { return cluster.Growth{AddsMember: true, Member: cmd.ID} },
		Overrides: func(cmd cluster.Command) (cluster.Override, bool) {
			return cluster.Override{Setting: cluster.SettingClient, Value: cmd.Client, Code: "testPokeNamesClient",
				Text: "the timeline pokes with {value} at {t}"}, true
		},
		Describe: func(cmd cluster.Command) string { return cmd.ID + " is poked" },
		Words: map[string]cluster.Words{
			"en": {Label: "Poke", Description: "Pokes a consumer."},
			"zh": {Label: "戳", Description: "戳一下消费者。"},
		},
	}
}

// A command registered in the table alone is parsed by --at, listed among the commands,
// validated in files with its limits, and runs; the timeline's limits, the work estimate and
// a comparison of variants read what it grows and overrides from its hooks.
func TestATableEntryIsEnough(t *testing.T) {
	var clients []string
	cluster.Register(pokeCommand(&clients))
	defer cluster.Unregister("testPoke")
	st, err := ParseAt("10s:testPoke:c2:3")
	if err != nil || st.Type != "testPoke" || st.ID != "c2" || *st.Queues != 3 {
		t.Fatalf("ParseAt = %+v, %v", st, err)
	}
	if _, err := ParseAt("10s:testPoke:c2:4"); err == nil || !strings.Contains(err.Error(), "queues: 4; want 0…3") {
		t.Errorf("out of its limit: %v", err)
	}
	if got := ExampleAt("testPoke"); got != "30s:testPoke:c1[:2][:java]" {
		t.Errorf("ExampleAt = %s", got)
	}
	if !strings.Contains(strings.Join(CommandNames(), " "), "testPoke") {
		t.Error("not among CommandNames")
	}
	s, err := Parse([]byte(`{"version": 1, "brokers": [{"name": "b", "queues": 2}], "consumers": [{"id": "c1"}],
		"until": "20s", "timeline": [{"at": "5s", "type": "testPoke", "id": "c1", "queues": 1}]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(s, RunOptions{Events: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text(s), "c1 is poked") {
		t.Errorf("the run's text lacks the command:\n%s", res.Text(s))
	}

	// Grows: each poked id counts against the group's limit, in files as addConsumer's do.
	var steps []string
	for i := 2; i <= MaxConsumers+1; i++ { // c1 is in the group already
		steps = append(steps, fmt.Sprintf(`{"at": "5s", "type": "testPoke", "id": "c%d"}`, i))
	}
	file := func(steps []string) []byte {
		return []byte(`{"version": 1, "brokers": [{"name": "b", "queues": 2}], "consumers": [{"id": "c1"}],
			"until": "20s", "timeline": [` + strings.Join(steps, ",") + `]}`)
	}
	if _, err := Parse(file(steps[:len(steps)-1])); err != nil {
		t.Errorf("%d consumers in all: %v", MaxConsumers, err)
	}
	want := fmt.Sprintf("timeline[%d].id: the group would have %d consumers; the limit is %d", len(steps)-1, MaxConsumers+1, MaxConsumers)
	if _, err := Parse(file(steps)); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("one poke past the limit: %v; want %q", err, want)
	}

	// Grows: the work estimate counts the poked member as it counts an added one.
	poked, err := Parse(file([]string{`{"at": "5s", "type": "testPoke", "id": "c2"}`}))
	if err != nil {
		t.Fatal(err)
	}
	added, err := Parse(file([]string{`{"at": "5s", "type": "addConsumer", "id": "c2"}`}))
	if err != nil {
		t.Fatal(err)
	}
	alone := poked
	alone.Timeline = nil
	if p, a, n := WorkOf(poked), WorkOf(added), WorkOf(alone); p != a || p.PerSecond <= n.PerSecond {
		t.Errorf("work with a poke %+v, with an added consumer %+v, with neither %+v; want the first two equal, above the third", p, a, n)
	}

	// Overrides: a client variant gives the poke its own client, and the comparison notes that
	// the timeline named one.
	poked.Timeline[0].Client = "go"
	clients = nil
	cmp, err := Compare(poked, []Variant{{Client: "java"}, {Client: "java-4.9"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(clients, []string{"java", "java-4.9"}) {
		t.Errorf("the variants' pokes ran with %q; want java, then java-4.9", clients)
	}
	note := Note{Code: "testPokeNamesClient", T: 5000, Value: "go", Text: "the timeline pokes with go at " + Clock(5000)}
	if !slices.Contains(cmp.Notes, note) {
		t.Errorf("notes %+v; want %+v", cmp.Notes, note)
	}
	// A variant of another setting leaves it alone and says nothing.
	clients = nil
	cmp, err = Compare(poked, []Variant{{Strategy: "AVG"}, {Strategy: "AVG_BY_CIRCLE"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(clients, []string{"go", "go"}) || len(cmp.Notes) != 0 {
		t.Errorf("strategy variants: pokes ran with %q, notes %+v; want go twice and no note", clients, cmp.Notes)
	}
}

// The doors of the scenario format refuse what the table's limits refuse (hostile input).
func TestScenarioDoorsEnforceTheLimits(t *testing.T) {
	for _, tt := range []struct{ at, want string }{
		{"1s:addConsumer:a<b", `has '<'`},
		{"1s:addConsumer:c9:2000000000", "consumeRate: 2000000000; want 0…1000000"},
		{"1s:addBroker:b\u202e:4", `has '\u202e'`},
		{"1s:addBroker:broker-z:4097", "queues: 4097; want 0…4096"},
	} {
		if _, err := ParseAt(tt.at); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseAt(%q) = %v; want %q", tt.at, err, tt.want)
		}
	}
	_, err := Parse([]byte(`{"version": 1, "brokers": [{"name": "b", "queues": 2}],
		"timeline": [{"at": "1s", "type": "setStrategy", "strategy": "CONSISTENT_HASH", "params": {"virtualNodeCnt": 2000000000}}]}`))
	if err == nil || !strings.Contains(err.Error(), "timeline[0].params.virtualNodeCnt: 2000000000; want 0…1000") {
		t.Errorf("virtualNodeCnt 2e9 in a file: %v", err)
	}
}
