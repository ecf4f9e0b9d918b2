package allocate

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

// recordedScenario is what group tests need of testdata/conformance/allocate.json.
type recordedScenario struct {
	Scenario string `json:"scenario"`
	Strategy string `json:"strategy"`
	Params   struct {
		VirtualNodeCnt      *int                 `json:"virtualNodeCnt"`
		ConsumerIDCs        []string             `json:"consumeridcs"`
		Inner               string               `json:"inner"`
		InnerVirtualNodeCnt *int                 `json:"innerVirtualNodeCnt"`
		MessageQueueList    []route.MessageQueue `json:"messageQueueList"`
	} `json:"params"`
	CIDAll []string             `json:"cidAll"`
	MQAll  []route.MessageQueue `json:"mqAll"`
}

func recordedScenarios(t *testing.T) []recordedScenario {
	t.Helper()
	data, err := os.ReadFile("../../testdata/conformance/allocate.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []recordedScenario }
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	var out []recordedScenario
	seen := map[string]bool{}
	for _, c := range f.Cases {
		if !seen[c.Scenario] {
			seen[c.Scenario] = true
			out = append(out, c)
		}
	}
	return out
}

func (r recordedScenario) strategy(t *testing.T) Strategy {
	p := r.Params
	return mustNew(t, r.Strategy, Params{VirtualNodeCnt: p.VirtualNodeCnt, ConsumerIDCs: p.ConsumerIDCs,
		Inner: p.Inner, InnerVirtualNodeCnt: p.InnerVirtualNodeCnt, MessageQueueList: p.MessageQueueList})
}

// assertGroupMatchesCalls checks that Group gives every consumer exactly what its own call gives.
func assertGroupMatchesCalls(t *testing.T, label string, s Strategy, mqAll []route.MessageQueue, cidAll []string) {
	t.Helper()
	v := Group(s, "cg", mqAll, cidAll)
	var distinct []string
	for _, id := range cidAll {
		if !slices.Contains(distinct, id) {
			distinct = append(distinct, id)
		}
	}
	if len(v.Assignments) != len(distinct) {
		t.Fatalf("%s: %d assignments; want one per distinct id (%d)", label, len(v.Assignments), len(distinct))
	}
	for i, a := range v.Assignments {
		if a.ClientID != distinct[i] {
			t.Fatalf("%s: assignment %d is %q; want %q", label, i, a.ClientID, distinct[i])
		}
		want, wantErr := s.Allocate("cg", a.ClientID, mqAll, cidAll)
		if fmt.Sprint(wantErr) != fmt.Sprint(a.Err) {
			t.Fatalf("%s %q: group error %v; call error %v", label, a.ClientID, a.Err, wantErr)
		}
		if wantErr == nil && (short(a.Queues) != short(want)) {
			t.Fatalf("%s %q: group gives %s; call gives %s", label, a.ClientID, short(a.Queues), short(want))
		}
	}
}

func TestGroupMatchesEachCallOnRecordedScenarios(t *testing.T) {
	for _, sc := range recordedScenarios(t) {
		if sc.CIDAll == nil {
			continue
		}
		assertGroupMatchesCalls(t, sc.Scenario, sc.strategy(t), sc.MQAll, sc.CIDAll)
	}
}

// Spec §4.7: with sorted, distinct inputs the results partition mqAll (MACHINE_ROOM: its pre
// list; CONFIG: everyone the same list).
func TestGroupPartitionsRecordedScenarios(t *testing.T) {
	for _, sc := range recordedScenarios(t) {
		if len(sc.CIDAll) == 0 || len(sc.MQAll) == 0 || sc.Strategy == "CONFIG" || (sc.Params.VirtualNodeCnt != nil && *sc.Params.VirtualNodeCnt == 0) {
			continue
		}
		if slices.Contains(sc.CIDAll, "") || len(distinctIDs(sc.CIDAll)) != len(sc.CIDAll) {
			continue
		}
		v := Group(sc.strategy(t), "cg", sc.MQAll, sc.CIDAll)
		if v.Assignments[0].Err != nil {
			continue // scenarios recorded for their errors
		}
		want := sc.MQAll
		if sc.Strategy == "MACHINE_ROOM" {
			want = nil
			for _, q := range sc.MQAll {
				if room, ok := twoPieceRoom(q.BrokerName); ok && slices.Contains(sc.Params.ConsumerIDCs, room) {
					want = append(want, q)
				}
			}
		}
		var got []route.MessageQueue
		for _, a := range v.Assignments {
			got = append(got, a.Queues...)
		}
		route.SortQueues(got)
		want = slices.Clone(want)
		route.SortQueues(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: union of assignments %s; want %s", sc.Scenario, short(got), short(want))
		}
	}
}

func distinctIDs(ids []string) []string {
	var out []string
	for _, id := range ids {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out
}

// randomInput draws a group like the ones RocketMQ users run into: uneven brokers, more
// consumers than queues, duplicated ids, rooms, unsorted input.
func randomInput(r *rand.Rand) ([]route.MessageQueue, []string) {
	rooms := []string{"hz", "sh", "bj"}
	var mqAll []route.MessageQueue
	for b := range r.IntN(5) {
		broker := fmt.Sprintf("%s-broker-%c", rooms[r.IntN(3)], 'a'+b)
		if r.IntN(3) == 0 {
			broker = fmt.Sprintf("%s@broker-%c", rooms[r.IntN(3)], 'a'+b)
		}
		for q := range r.IntN(9) {
			mqAll = append(mqAll, route.MessageQueue{Topic: "TopicTest", BrokerName: broker, QueueID: int32(q)})
		}
	}
	var cidAll []string
	for range r.IntN(12) {
		if len(cidAll) > 0 && r.IntN(8) == 0 {
			cidAll = append(cidAll, cidAll[r.IntN(len(cidAll))]) // a duplicated id (spec §5.1)
			continue
		}
		cidAll = append(cidAll, fmt.Sprintf("%s-10.0.0.%d@%d", rooms[r.IntN(3)], r.IntN(200), r.IntN(9)))
	}
	if r.IntN(2) == 0 {
		route.SortQueues(mqAll)
		route.SortClientIDs(cidAll)
	}
	return mqAll, cidAll
}

func TestGroupMatchesEachCallOnRandomGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	strategies := []Strategy{
		Averagely{}, AveragelyByCircle{}, mustNew(t, "CONSISTENT_HASH", Params{}),
		mustNew(t, "CONSISTENT_HASH", Params{VirtualNodeCnt: intp(1)}),
		NewByMachineRoom([]string{"hz", "bj"}), NewByMachineRoom(nil),
		mustNew(t, "MACHINE_ROOM_NEARBY-AVG", Params{}), mustNew(t, "MACHINE_ROOM_NEARBY-AVG_BY_CIRCLE", Params{}),
		mustNew(t, "MACHINE_ROOM_NEARBY-CONSISTENT_HASH", Params{}),
		ByConfig{MessageQueueList: []route.MessageQueue{{Topic: "T", BrokerName: "b"}}},
	}
	for i := range 3000 {
		mqAll, cidAll := randomInput(r)
		for _, s := range strategies {
			assertGroupMatchesCalls(t, fmt.Sprintf("draw %d %s", i, s.Name()), s, mqAll, cidAll)
		}
	}
}

func TestGroupSummary(t *testing.T) {
	mqAll := queuesOn("T", map[string]int{"broker-a": 4}, "broker-a")
	v := Group(Averagely{}, "cg", mqAll, []string{"c1", "c2", "c3", "c4", "c5", "c6"})
	if v.Max != 1 || v.Min != 0 || v.Spread != 1 || !slices.Equal(v.Idle, []string{"c5", "c6"}) {
		t.Fatalf("AVG 4 queues / 6 consumers: max %d min %d spread %d idle %v; want 1 0 1 [c5 c6]", v.Max, v.Min, v.Spread, v.Idle)
	}
	ch := mustNew(t, "CONSISTENT_HASH", Params{VirtualNodeCnt: intp(0)})
	orphans, shared := Group(ch, "cg", mqAll, []string{"c1"}).Coverage(mqAll)
	if len(orphans) != 4 || len(shared) != 0 {
		t.Fatalf("zero virtual nodes: orphans %v shared %v; want all 4 orphaned", orphans, shared)
	}
	_, shared = Group(Averagely{}, "cg", mqAll, []string{"c1", "c1", "c2"}).Coverage(mqAll)
	if len(shared) != 0 {
		t.Fatalf("duplicated id: shared %v; want none (duplicates get the same queues, others are lost)", shared)
	}
	v = Group(Averagely{}, "cg", nil, []string{"c1", ""})
	if !errors.Is(v.Assignments[0].Err, errMQAllEmpty) || !errors.Is(v.Assignments[1].Err, errCurrentCIDEmpty) {
		t.Fatalf("errors = %v, %v; want mqAll empty for c1 and currentCID empty for \"\"", v.Assignments[0].Err, v.Assignments[1].Err)
	}
}

// benchGroup is the operator-sized group of the benchmarks: 1024 queues on 64 brokers and 128
// consumers, sorted once as RebalanceImpl sorts them.
func benchGroup() ([]route.MessageQueue, []string) {
	var mqAll []route.MessageQueue
	for b := range 64 {
		for q := range 16 {
			room := []string{"hz", "sh"}[b%2]
			mqAll = append(mqAll, route.MessageQueue{Topic: "TopicTest", BrokerName: fmt.Sprintf("%s-broker-%02d", room, b), QueueID: int32(q)})
		}
	}
	var cidAll []string
	for c := range 128 {
		room := []string{"hz", "sh"}[c%2]
		cidAll = append(cidAll, fmt.Sprintf("%s-10.0.%d.%d@%d", room, c/16, c%16, 4000+c))
	}
	route.SortQueues(mqAll)
	route.SortClientIDs(cidAll)
	return mqAll, cidAll
}

func BenchmarkGroup(b *testing.B) {
	mqAll, cidAll := benchGroup()
	var rooms []route.MessageQueue
	for _, q := range mqAll {
		q.BrokerName = q.BrokerName[:2] + "@" + q.BrokerName[3:]
		rooms = append(rooms, q)
	}
	cases := []struct {
		name   string
		params Params
		mqAll  []route.MessageQueue
	}{
		{"AVG", Params{}, mqAll},
		{"AVG_BY_CIRCLE", Params{}, mqAll},
		{"CONSISTENT_HASH", Params{}, mqAll},
		{"CONFIG", Params{MessageQueueList: mqAll[:8]}, mqAll},
		{"MACHINE_ROOM", Params{ConsumerIDCs: []string{"hz", "sh"}}, rooms},
		{"MACHINE_ROOM_NEARBY", Params{}, mqAll},
	}
	for _, c := range cases {
		s := mustNew(b, c.name, c.params)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Group(s, "cg", c.mqAll, cidAll)
			}
		})
	}
}
