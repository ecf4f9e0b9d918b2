package allocate

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

// everyNth is a strategy from outside RocketMQ, as a script registers one: consumer i takes
// the queues j with (j / step) mod c = i.
func registerEveryNth(t *testing.T) {
	t.Helper()
	Register(StrategySpec{Name: "EVERY_NTH",
		Params: []ParamSpec{{Name: "step", Type: ParamInt, Min: ptr(1), Max: ptr(8), Default: 1,
			Words: map[string]Words{"en": {Label: "Step"}, "zh": {Label: "步长"}}}},
		New:   func(p Params) (Strategy, error) { return everyNth{step: p.Int("step", 1)}, nil },
		Cost:  func(p Params) int { return p.Int("step", 1) },
		Words: map[string]Words{"en": {Hint: "Runs of step queues, dealt round."}, "zh": {Hint: "每 step 个队列一段，轮流分配。"}}})
	t.Cleanup(func() { Unregister("EVERY_NTH") })
}

type everyNth struct{ step int }

func (everyNth) Name() string { return "EVERY_NTH" }

func (s everyNth) Allocate(_, cid string, mqAll []route.MessageQueue, cidAll []string) ([]route.MessageQueue, error) {
	i, err := check(cid, mqAll, cidAll)
	out := []route.MessageQueue{}
	for j, mq := range mqAll {
		if i >= 0 && j/s.step%len(cidAll) == i {
			out = append(out, mq)
		}
	}
	return out, err
}

func TestRegisteredStrategyIsListedBuiltAndCosted(t *testing.T) {
	registerEveryNth(t)
	if got := Names(); !slices.Equal(got, []string{"AVG", "AVG_BY_CIRCLE", "CONSISTENT_HASH", "CONFIG", "MACHINE_ROOM", "MACHINE_ROOM_NEARBY", "EVERY_NTH"}) {
		t.Fatalf("Names() = %v; want RocketMQ's six, then EVERY_NTH", got)
	}
	if !Declared("step") || Declared("virtualNodeCnt") || Declared("nope") {
		t.Error("Declared: step is the new strategy's own parameter; virtualNodeCnt a field; nope nothing")
	}
	var p Params
	if err := json.Unmarshal([]byte(`{"step": 2}`), &p); err != nil {
		t.Fatal(err)
	}
	s, err := New("every_nth", p)
	if err != nil {
		t.Fatal(err)
	}
	mqs := make([]route.MessageQueue, 8)
	for i := range mqs {
		mqs[i] = route.MessageQueue{Topic: "T", BrokerName: "b", QueueID: int32(i)}
	}
	got, err := s.Allocate("G", "c2", mqs, []string{"c1", "c2"})
	if err != nil {
		t.Fatal(err)
	}
	if ids := queueIDs(got); !slices.Equal(ids, []int32{2, 3, 6, 7}) {
		t.Errorf("c2 of two with step 2 got %v; want 2 3 6 7", ids)
	}
	if n := Cost("EVERY_NTH", p); n != 2 {
		t.Errorf("Cost = %d; want the step, 2", n)
	}
	b, err := json.Marshal(p)
	if err != nil || string(b) != `{"step":2}` {
		t.Errorf("Marshal = %s, %v; want {\"step\":2}", b, err)
	}
	if err := json.Unmarshal([]byte(`{"stepp": 2}`), &p); err == nil || !strings.Contains(err.Error(), `unknown field "stepp"`) {
		t.Errorf("a key no strategy declares: %v; want an unknown field error", err)
	}
	ps, ok := NumberParam("EVERY_NTH")
	if !ok || ps.Name != "step" {
		t.Errorf("NumberParam = %v, %v; want step", ps.Name, ok)
	}
}

func queueIDs(qs []route.MessageQueue) []int32 {
	var out []int32
	for _, q := range qs {
		out = append(out, q.QueueID)
	}
	return out
}

func TestTableKeepsRocketMQsRules(t *testing.T) {
	if _, err := New("MACHINE_ROOM_NEARBY-AVG", Params{Inner: "CONSISTENT_HASH"}); err == nil ||
		err.Error() != "strategy MACHINE_ROOM_NEARBY-AVG names inner strategy AVG but the inner parameter says CONSISTENT_HASH" {
		t.Errorf("suffix against parameter: %v", err)
	}
	if _, err := New("MACHINE_ROOM_NEARBY", Params{Inner: "CONFIG"}); err == nil ||
		err.Error() != `unknown inner strategy "CONFIG" for MACHINE_ROOM_NEARBY (want AVG, AVG_BY_CIRCLE or CONSISTENT_HASH)` {
		t.Errorf("unknown inner: %v", err)
	}
	for _, c := range []struct {
		name string
		p    Params
		want int
	}{
		{"AVG", Params{}, 0},
		{"CONSISTENT_HASH", Params{}, DefaultVirtualNodeCnt},
		{"consistent_hash", Params{VirtualNodeCnt: ptr(40)}, 40},
		{"MACHINE_ROOM_NEARBY", Params{}, 0},
		{"MACHINE_ROOM_NEARBY-CONSISTENT_HASH", Params{}, DefaultVirtualNodeCnt},
		{"MACHINE_ROOM_NEARBY", Params{Inner: "CONSISTENT_HASH", InnerVirtualNodeCnt: ptr(7)}, 7},
	} {
		if got := Cost(c.name, c.p); got != c.want {
			t.Errorf("Cost(%s, %+v) = %d; want %d", c.name, c.p, got, c.want)
		}
	}
	if ps, ok := NumberParam("MACHINE_ROOM_NEARBY-CONSISTENT_HASH"); !ok || ps.Name != "innerVirtualNodeCnt" {
		t.Errorf("NEARBY-CONSISTENT_HASH/N sets %q, %v; want innerVirtualNodeCnt", ps.Name, ok)
	}
	if _, ok := NumberParam("MACHINE_ROOM_NEARBY"); ok {
		t.Error("NEARBY with its default inner AVG takes no /N")
	}
}

func TestRegisterRefusesIncompleteEntries(t *testing.T) {
	for _, s := range []StrategySpec{
		{Name: "AVG", New: func(Params) (Strategy, error) { return Averagely{}, nil }, Words: hint("a", "b")},
		{Name: "lower", New: func(Params) (Strategy, error) { return Averagely{}, nil }, Words: hint("a", "b")},
		{Name: "NO_WORDS", New: func(Params) (Strategy, error) { return Averagely{}, nil }},
		{Name: "NO_LIMITS", New: func(Params) (Strategy, error) { return Averagely{}, nil }, Words: hint("a", "b"),
			Params: []ParamSpec{{Name: "n", Type: ParamInt, Words: label("N", "N")}}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Register(%s) did not panic", s.Name)
					if s.Name != "AVG" {
						Unregister(s.Name)
					}
				}
			}()
			Register(s)
		}()
	}
}
