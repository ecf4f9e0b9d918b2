package scenario

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// pokeCommand is a command only this test knows, registered in the table and nowhere else.
func pokeCommand() cluster.CommandSpec {
	zero, three := 0, 3
	return cluster.CommandSpec{Name: "testPoke", Target: cluster.TargetConsumer,
		Args: []cluster.Arg{
			{Name: "id", Type: cluster.ArgString, Charset: &cluster.ClientIDName, Example: "c1"},
			{Name: "queues", Type: cluster.ArgInt, Min: &zero, Max: &three, Optional: true, Example: "2"},
		},
		Apply:    func(c *cluster.Cluster, cmd cluster.Command) error { return nil },
		Describe: func(cmd cluster.Command) string { return cmd.ID + " is poked" },
		Words: map[string]cluster.Words{
			"en": {Label: "Poke", Description: "Pokes a consumer."},
			"zh": {Label: "戳", Description: "戳一下消费者。"},
		},
	}
}

// A command registered in the table alone is parsed by --at, listed among the commands,
// validated in files with its limits, and runs.
func TestATableEntryIsEnough(t *testing.T) {
	cluster.Register(pokeCommand())
	defer cluster.Unregister("testPoke")
	st, err := ParseAt("10s:testPoke:c2:3")
	if err != nil || st.Type != "testPoke" || st.ID != "c2" || *st.Queues != 3 {
		t.Fatalf("ParseAt = %+v, %v", st, err)
	}
	if _, err := ParseAt("10s:testPoke:c2:4"); err == nil || !strings.Contains(err.Error(), "queues: 4; want 0…3") {
		t.Errorf("out of its limit: %v", err)
	}
	if got := ExampleAt("testPoke"); got != "30s:testPoke:c1[:2]" {
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
