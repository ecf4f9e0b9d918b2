package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// registerDealt registers a strategy from outside RocketMQ, as a script registers one:
// consumer i of c takes the queues j with (j / step) mod c = i.
func registerDealt(t *testing.T) {
	t.Helper()
	one, eight := 1, 8
	allocate.Register(allocate.StrategySpec{Name: "DEALT",
		Params: []allocate.ParamSpec{{Name: "step", Type: allocate.ParamInt, Min: &one, Max: &eight, Default: 1,
			Words: map[string]allocate.Words{"en": {Label: "Step"}, "zh": {Label: "步长"}}}},
		New: func(p allocate.Params) (allocate.Strategy, error) { return dealt{step: p.Int("step", 1)}, nil },
		Words: map[string]allocate.Words{"en": {Hint: "Runs of step queues, dealt round."},
			"zh": {Hint: "每 step 个队列一段，轮流分配。"}}})
	t.Cleanup(func() { allocate.Unregister("DEALT") })
}

type dealt struct{ step int }

func (dealt) Name() string { return "DEALT" }

func (s dealt) Allocate(_, cid string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	out := []route.MessageQueue{}
	for j, mq := range mqAll {
		if cidAll[j/s.step%len(cidAll)] == cid {
			out = append(out, mq)
		}
	}
	return out, nil
}

// A registered strategy is one --strategy names and the help lists; --variants' /N gives it
// its parameter, within the parameter's limits.
func TestRegisteredStrategyOnTheCommandLine(t *testing.T) {
	registerDealt(t)
	out, errOut, _ := lbscope(t, "", "sim", "--help")
	assert.Contains(t, out+errOut, "MACHINE_ROOM_NEARBY, DEALT", "the help lists the strategies")

	// The flag-built cluster: 8 queues on each of 4 brokers, 4 consumers.
	out, errOut, status := lbscope(t, "", "sim", "--until", "5s", "--strategy", "dealt")
	assert.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "4 consumers · DEALT · CLUSTERING")
	// Step 1 and four consumers: c1 takes every fourth queue from the first.
	assert.Contains(t, out, "c1 rebalances: broker-a:0,4 broker-b:0,4 broker-c:0,4 broker-d:0,4")

	// --at sets it on the timeline too: from AVG's blocks to step 1's round.
	out, errOut, status = lbscope(t, "", "sim", "--until", "30s", "--at", "5s:setStrategy:DEALT")
	assert.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "strategy set to DEALT")
	assert.Contains(t, out, "c1 rebalances: broker-a:0,4 broker-b:0,4 broker-c:0,4 broker-d:0,4")

	out, errOut, status = lbscope(t, "", "compare", "--preset", "small", "--until", "10s", "--variants", "DEALT/2,AVG")
	assert.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "DEALT step=2")
	_, errOut, status = lbscope(t, "", "compare", "--preset", "small", "--until", "10s", "--variants", "DEALT/9,AVG")
	assert.NotEqual(t, 0, status)
	assert.True(t, strings.Contains(errOut, "step: 9; want 1…8"), errOut)
}
