package api

import (
	"encoding/json"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/wasm/session"
)

type strategyOut struct {
	Name   string                    `json:"name"`
	Suffix string                    `json:"suffix"`
	Words  map[string]allocate.Words `json:"words"`
	Params []struct {
		Name  string                    `json:"name"`
		Type  string                    `json:"type"`
		Min   *int                      `json:"min"`
		Max   *int                      `json:"max"`
		Enum  []string                  `json:"enum"`
		When  *allocate.When            `json:"when"`
		Words map[string]allocate.Words `json:"words"`
	} `json:"params"`
}

func strategiesOf(t *testing.T) []strategyOut {
	t.Helper()
	out, err := New(session.NewDefault()).Call("strategies", nil)
	if err != nil {
		t.Fatal(err)
	}
	var list []strategyOut
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatal(err)
	}
	return list
}

// strategies() gives the page what its forms need: each strategy's parameters with their
// type, limits, condition and words in both languages; a registered strategy among them.
func TestStrategiesGiveTheParameterSchema(t *testing.T) {
	one, eight := 1, 8
	allocate.Register(allocate.StrategySpec{Name: "TEST_STEP",
		Params: []allocate.ParamSpec{{Name: "step", Type: allocate.ParamInt, Min: &one, Max: &eight, Default: 1,
			Words: map[string]allocate.Words{"en": {Label: "Step"}, "zh": {Label: "步长"}}}},
		New:   func(allocate.Params) (allocate.Strategy, error) { return allocate.Averagely{}, nil },
		Words: map[string]allocate.Words{"en": {Hint: "A test."}, "zh": {Hint: "测试。"}}})
	defer allocate.Unregister("TEST_STEP")
	list := strategiesOf(t)
	by := map[string]strategyOut{}
	var names []string
	for _, s := range list {
		by[s.Name] = s
		names = append(names, s.Name)
	}
	if len(list) != 7 || names[0] != "AVG" || names[6] != "TEST_STEP" {
		t.Fatalf("strategies %v; want RocketMQ's six, then TEST_STEP", names)
	}
	if p := by["TEST_STEP"].Params; len(p) != 1 || p[0].Name != "step" || *p[0].Min != 1 || *p[0].Max != 8 || p[0].Words["zh"].Label != "步长" {
		t.Errorf("TEST_STEP's params %+v", p)
	}
	ch := by["CONSISTENT_HASH"].Params
	if len(ch) != 1 || ch[0].Name != "virtualNodeCnt" || ch[0].Type != "int" || *ch[0].Max != allocate.MaxVirtualNodeCnt {
		t.Errorf("CONSISTENT_HASH's params %+v", ch)
	}
	nearby := by["MACHINE_ROOM_NEARBY"]
	if nearby.Suffix != "inner" || len(nearby.Params) != 2 || len(nearby.Params[0].Enum) != 3 ||
		nearby.Params[1].When == nil || nearby.Params[1].When.Is != "CONSISTENT_HASH" {
		t.Errorf("MACHINE_ROOM_NEARBY %+v", nearby)
	}
	for _, s := range list {
		if s.Words["en"].Hint == "" || s.Words["zh"].Hint == "" {
			t.Errorf("%s has no hint in both languages", s.Name)
		}
		if s.Params == nil {
			t.Errorf("%s: params is null; the page wants a list", s.Name)
		}
	}
}
