package scenario

import (
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// registerEveryNth registers a strategy from outside RocketMQ, as a script registers one:
// consumer i of c takes the queues j with (j / step) mod c = i.
func registerEveryNth(t *testing.T) {
	t.Helper()
	one, eight := 1, 8
	allocate.Register(allocate.StrategySpec{Name: "EVERY_NTH",
		Params: []allocate.ParamSpec{{Name: "step", Type: allocate.ParamInt, Min: &one, Max: &eight, Default: 1,
			Words: map[string]allocate.Words{"en": {Label: "Step"}, "zh": {Label: "步长"}}}},
		New:  func(p allocate.Params) (allocate.Strategy, error) { return everyNth{step: p.Int("step", 1)}, nil },
		Cost: func(p allocate.Params) int { return 100 * p.Int("step", 1) },
		Words: map[string]allocate.Words{"en": {Hint: "Runs of step queues, dealt round."},
			"zh": {Hint: "每 step 个队列一段，轮流分配。"}}})
	t.Cleanup(func() { allocate.Unregister("EVERY_NTH") })
}

type everyNth struct{ step int }

func (everyNth) Name() string { return "EVERY_NTH" }

func (s everyNth) Allocate(_, cid string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	out := []route.MessageQueue{}
	for j, mq := range mqAll {
		if cidAll[j/s.step%len(cidAll)] == cid {
			out = append(out, mq)
		}
	}
	return out, nil
}

// A strategy registered at run time is one a scenario file names, with its own parameter
// checked against its limits, in the initial settings and in setStrategy.
func TestRegisteredStrategyRunsFromAScenarioFile(t *testing.T) {
	registerEveryNth(t)
	const head = `{"version": 1, "brokers": [{"name": "broker-a", "queues": 8}], "consumers": [{"id": "c1"}, {"id": "c2"}], "until": "30s", `
	s, err := Parse([]byte(head + `"strategy": "EVERY_NTH", "params": {"step": 2}}`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1 broker-a:4 broker-a:5", "c2": "broker-a:2 broker-a:3 broker-a:6 broker-a:7"})
	out, err := s.Marshal()
	if err != nil || !strings.Contains(string(out), `"step": 2`) {
		t.Errorf("the file written back lost the parameter: %v\n%s", err, out)
	}

	// The work estimate reads the strategy's cost: a bigger step costs more.
	small, _ := Parse([]byte(head + `"strategy": "EVERY_NTH", "params": {"step": 1}}`))
	if WorkOf(small).Units >= WorkOf(s).Units {
		t.Errorf("work with step 1 (%d) is not below step 2's (%d)", WorkOf(small).Units, WorkOf(s).Units)
	}

	for _, c := range []struct{ tail, want string }{
		{`"strategy": "EVERY_NTH", "params": {"step": 9}}`, "params.step: 9; want 1…8"},
		{`"strategy": "EVERY_NTH", "params": {"step": 1.5}}`, "params.step: 1.5; want a whole number"},
		{`"strategy": "EVERY_NTH", "params": {"stepp": 2}}`, `params: unknown field "stepp"`},
		{`"timeline": [{"at": "5s", "type": "setStrategy", "strategy": "every_nth", "params": {"step": 0}}]}`, "timeline[0].params.step: 0; want 1…8"},
	} {
		_, err := Parse([]byte(head + c.tail))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.tail, err, c.want)
		}
	}

	s, err = Parse([]byte(head + `"timeline": [{"at": "5s", "type": "setStrategy", "strategy": "every_nth", "params": {"step": 4}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if r, err = Run(s, RunOptions{}); err != nil {
		t.Fatal(err)
	}
	assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1 broker-a:2 broker-a:3", "c2": "broker-a:4 broker-a:5 broker-a:6 broker-a:7"})

	// --variants' /N sets its whole-number parameter.
	vs, err := ParseVariants("EVERY_NTH/3,AVG", "strategy")
	if err != nil {
		t.Fatal(err)
	}
	if got := vs[0].Params.Int("step", 0); got != 3 {
		t.Errorf("EVERY_NTH/3 gives step %d; want 3", got)
	}
}
