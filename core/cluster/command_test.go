package cluster

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
)

// Every entry of the table is complete: words (label and description) in English and
// Chinese, an example for every argument, limits for every number, a character set for every
// name, an apply function and an event text.
func TestEveryCommandIsComplete(t *testing.T) {
	if len(AllCommands()) < len(Commands()) || len(Commands()) < 18 {
		t.Fatalf("%d commands in the table", len(Commands()))
	}
	for _, s := range AllCommands() {
		if m := s.Missing(); m != "" {
			t.Errorf("%s: %s", s.Name, m)
		}
	}
}

// An entry that lacks a piece cannot be registered.
func TestRegisterRefusesAnIncompleteEntry(t *testing.T) {
	full := testCommand()
	for name, spoil := range map[string]func(*CommandSpec){
		"no Chinese":              func(s *CommandSpec) { delete(s.Words, "zh") },
		"no English label":        func(s *CommandSpec) { s.Words["en"] = Words{Description: "x"} },
		"no description":          func(s *CommandSpec) { s.Words["zh"] = Words{Label: "x"} },
		"no example":              func(s *CommandSpec) { s.Args[0].Example = "" },
		"no limits":               func(s *CommandSpec) { s.Args[1].Max = nil },
		"no apply function":       func(s *CommandSpec) { s.Apply = nil },
		"no target":               func(s *CommandSpec) { s.Target = "" },
		"a name registered twice": func(s *CommandSpec) { s.Name = "killConsumer" },
	} {
		s := testCommand()
		spoil(&s)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: registered", name)
				}
			}()
			Register(s)
		}()
		Unregister("testPoke") // never the name of a real command
	}
	if m := full.Missing(); m != "" {
		t.Fatalf("the test's own entry lacks %s", m)
	}
}

// testCommand is a command only tests know: it reaches Apply, validation and the event log
// through the table alone.
func testCommand() CommandSpec {
	return CommandSpec{Name: "testPoke", Target: TargetConsumer, From: []string{StatusAlive}, Menu: true,
		Args: []Arg{consumerArg, optional(intArg("queues", "times", 0, 3, "2"), 1)},
		Apply: func(c *Cluster, cmd Command) error {
			if c.current[memberKey{cmd.ID, 0}] == nil {
				return errorString("no consumer " + cmd.ID)
			}
			return nil
		},
		Describe: func(cmd Command) string { return cmd.ID + " is poked" },
		Words: map[string]Words{
			"en": {Label: "Poke", Description: "Pokes a consumer.", Done: "{id} poked"},
			"zh": {Label: "戳", Description: "戳一下消费者。", Done: "{id} 被戳"},
		},
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

func TestATestCommandReachesApply(t *testing.T) {
	Register(testCommand())
	defer Unregister("testPoke")
	c := mustNew(t, smallConfig(10))
	mustApply(t, c, Command{Type: "testPoke", ID: "c1"})
	log := c.Log()
	if e := log[len(log)-1]; e.Cause != "testPoke" || e.Kind != EventAction || e.Text != "c1 is poked" {
		t.Errorf("event %+v", e)
	}
	if err := c.Apply(Command{Type: "testPoke", ID: "c1", Queues: ptr(4)}); err == nil || !strings.Contains(err.Error(), "queues: 4; want 0…3") {
		t.Errorf("out of its limits: %v", err)
	}
	if k, ok := CauseKind("testPoke"); !ok || k != EventAction {
		t.Errorf("CauseKind = %s %v", k, ok)
	}
}

// The limits hold for commands applied directly, as a page's dispatch applies them: nothing
// the scenario format refuses gets into the cluster (issue: hostile input through the page).
func TestApplyEnforcesTheLimits(t *testing.T) {
	c := mustNew(t, smallConfig(10))
	for _, tt := range []struct {
		cmd  Command
		want string
	}{
		{Command{Type: "addConsumer", ID: "a<b"}, `id: "a<b" has '<'`},
		{Command{Type: "addConsumer", ID: "a\x00b"}, `has '\x00'`},
		{Command{Type: "addConsumer", ID: "a\nb"}, `has '\n'`},
		{Command{Type: "addConsumer", ID: "c\u202e9"}, `has '\u202e'`},
		{Command{Type: "addConsumer", ID: strings.Repeat("c", 1000000)}, "bytes long; the limit is 64 characters"},
		{Command{Type: "addConsumer", ID: "c9", ConsumeRate: ptr(2000000000)}, "consumeRate: 2000000000; want 0…1000000"},
		{Command{Type: "addBroker", Broker: "b<script>"}, `broker: "b<script>" has '<'`},
		{Command{Type: "addBroker", Broker: "broker-z", Queues: ptr(4097)}, "queues: 4097; want 0…4096"},
		{Command{Type: "setStrategy", Strategy: "CONSISTENT_HASH", Params: &allocateParams2e9}, "params.virtualNodeCnt: 2000000000; want 0…1000"},
		{Command{Type: "setProducerRate", Rate: ptr(2000000000)}, "rate: 2000000000; want 0…100000"},
		{Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: ptr(-1)}, "latencyMs: -1; want 0…600000"},
		{Command{Type: "killConsumer", ID: "c1", Broker: "broker-a"}, "killConsumer takes no broker"},
	} {
		err := c.Apply(tt.cmd)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Apply(%.60q) = %v; want an error containing %q", tt.cmd.Type+" "+tt.cmd.ID+tt.cmd.Broker, err, tt.want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("error of %d bytes: %.80s…", len(err.Error()), err)
		}
	}
}

// Counts: at most MaxConsumers client ids, MaxBrokers brokers, MaxQueues queues in all, however
// many commands ask for more.
func TestApplyEnforcesTheCounts(t *testing.T) {
	c := mustNew(t, smallConfig(0))
	var err error
	n := len(c.current)
	for i := 0; err == nil && i < 600; i++ {
		err = c.Apply(Command{Type: "addConsumer", ID: "x" + itoa(i)})
		if err == nil {
			n++
		}
	}
	if err == nil || !strings.Contains(err.Error(), "the limit is 512") || n != MaxConsumers {
		t.Errorf("after %d consumers: %v", n, err)
	}
	err = nil
	added := 0
	for i := 0; err == nil && i < 60; i++ {
		err = c.Apply(Command{Type: "addBroker", Broker: "big-" + itoa(i), Queues: ptr(4096)})
		if err == nil {
			added++
		}
	}
	if err == nil || !strings.Contains(err.Error(), "queues in all; the limit is 4096") || c.totalQueues() > MaxQueues {
		t.Errorf("after %d brokers of 4096 queues (%d queues): %v", added, c.totalQueues(), err)
	}
	if err := c.Apply(Command{Type: "setQueues", Broker: "broker-a", Queues: ptr(4096)}); err == nil {
		t.Error("setQueues took the topic past 4096 queues")
	}
	for i := 0; len(c.brokers) < MaxBrokers; i++ {
		mustApply(t, c, Command{Type: "addBroker", Broker: "e-" + itoa(i), Queues: ptr(0)})
	}
	if err := c.Apply(Command{Type: "addBroker", Broker: "one-more", Queues: ptr(0)}); err == nil || !strings.Contains(err.Error(), "64 brokers at most") {
		t.Errorf("65th broker: %v", err)
	}
}

func itoa(i int) string {
	return string(rune('a'+i/26/26%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i%26))
}

var allocateParams2e9 = func() allocate.Params {
	n := 2000000000
	return allocate.Params{VirtualNodeCnt: &n}
}()
