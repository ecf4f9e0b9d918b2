package scenario

import (
	"encoding/json"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/route"
)

// owners allocates the topic's queues to the group exactly as every consumer would (spec §3.3:
// sorted queues, sorted client ids) and returns queue → owner.
func ownersByStrategy(t *testing.T, name string, s Scenario, cids []string) map[string]string {
	t.Helper()
	st, err := allocate.New(name, allocate.Params{})
	if err != nil {
		t.Fatal(err)
	}
	var mqs []route.MessageQueue
	for _, b := range s.Brokers {
		for i := range b.Queues {
			mqs = append(mqs, route.MessageQueue{Topic: s.Topic, BrokerName: b.Name, QueueID: int32(i)})
		}
	}
	route.SortQueues(mqs)
	cids = slices.Clone(cids)
	route.SortClientIDs(cids)
	out := map[string]string{}
	for _, c := range cids {
		got, err := st.Allocate(s.Group, c, mqs, cids)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range got {
			out[q.Short()] = c
		}
	}
	return out
}

func killScenario(t *testing.T) Scenario {
	t.Helper()
	s, err := FromFlags(Flags{Seed: 3, Until: Duration(4 * 60000), At: []string{"60s:killConsumer:c1"}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Killing one of four consumers on 4×8 queues: under AVG the contiguous blocks of the three
// survivors shift, so queues of living consumers move too; under CONSISTENT_HASH only the
// dead consumer's queues move (its ring points vanish, every other queue keeps its nearest
// node). Both counts are derived from the strategies themselves.
func TestCompareKillMovesFewerQueuesUnderConsistentHash(t *testing.T) {
	s := killScenario(t)
	cmp, err := Compare(s, []Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH"}})
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"c1", "c2", "c3", "c4"}
	for i, name := range []string{"AVG", "CONSISTENT_HASH"} {
		before := ownersByStrategy(t, name, s, all)
		after := ownersByStrategy(t, name, s, all[1:])
		want := 0
		for q, o := range before {
			if after[q] != o {
				want++
			}
		}
		row := cmp.Rows[i]
		if len(row.Moved) != 1 {
			t.Fatalf("%s: %d moved entries; want 1 (one action)", name, len(row.Moved))
		}
		if got := row.Moved[0].Queues; got != want {
			t.Errorf("%s: killing c1 moved %d queues; want %d", name, got, want)
		}
		if row.MovedTotal != want || row.MovedMean != float64(want) {
			t.Errorf("%s: total %d, mean %g; want %d", name, row.MovedTotal, row.MovedMean, want)
		}
		if row.Moved[0].Type != "killConsumer" || row.Moved[0].Target != "c1" || row.Moved[0].T != 60000 {
			t.Errorf("%s: moved entry %+v; want killConsumer c1 at 60000", name, row.Moved[0])
		}
		if row.Unsettled != 0 || row.Converged != 1 {
			t.Errorf("%s: unsettled %d, converged %d; want the kill to settle", name, row.Unsettled, row.Converged)
		}
		// The end assignment is the strategy's allocation of the survivors.
		for q, o := range after {
			if got := row.Assignment[q]; !slices.Equal(got, []string{o}) {
				t.Errorf("%s: %s owned by %v at the end; want [%s]", name, q, got, o)
			}
		}
	}
	if a, c := cmp.Rows[0].MovedTotal, cmp.Rows[1].MovedTotal; c >= a {
		t.Errorf("CONSISTENT_HASH moved %d queues, AVG %d; want fewer under CONSISTENT_HASH", c, a)
	}
	// 32 queues on 3 consumers under AVG: 11, 11, 10.
	if got := cmp.Rows[0].SpreadEnd; got != 1 {
		t.Errorf("AVG spread at the end %d; want 1 (11, 11, 10)", got)
	}
	m := metric(t, cmp, "movedTotal")
	if !slices.Equal(m.Best, []int{1}) || m.Better != "lower" {
		t.Errorf("movedTotal best %v (%s); want [1] lower", m.Best, m.Better)
	}
}

func metric(t *testing.T, c *Comparison, key string) Metric {
	t.Helper()
	for _, m := range c.Table {
		if m.Key == key {
			return m
		}
	}
	t.Fatalf("no metric %q", key)
	return Metric{}
}

func TestCompareIdenticalVariantsGiveIdenticalRows(t *testing.T) {
	s := killScenario(t)
	s.Timeline = append(s.Timeline, Step{At: Duration(120000)}, Step{At: Duration(150000)})
	s.Timeline[1].Type, s.Timeline[1].ID = "addConsumer", "c9"
	s.Timeline[2].Type, s.Timeline[2].ID = "partitionConsumer", "c2"
	cmp, err := Compare(s, []Variant{{Strategy: "AVG_BY_CIRCLE"}, {Strategy: "AVG_BY_CIRCLE"}})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(cmp.Rows[0])
	b, _ := json.Marshal(cmp.Rows[1])
	if string(a) != string(b) {
		t.Errorf("identical variants differ:\n%s\n%s", a, b)
	}
	for _, m := range cmp.Table {
		if len(m.Best) != 0 {
			t.Errorf("%s: best %v among equal values", m.Key, m.Best)
		}
	}
	if len(cmp.Rows[0].Moved) != 3 {
		t.Errorf("%d moved entries; want 3", len(cmp.Rows[0].Moved))
	}
	// c9 joins a settled group: someone's queues move to it.
	if cmp.Rows[0].Moved[1].Queues == 0 {
		t.Error("adding c9 moved no queue")
	}
}

func TestCompareIsDeterministic(t *testing.T) {
	s := killScenario(t)
	s.LatencyFault = true
	s.Timeline = append(s.Timeline, Step{At: Duration(90000)})
	s.Timeline[1].Type, s.Timeline[1].Broker, s.Timeline[1].LatencyMs = "slowBroker", "broker-b", ptr(2000)
	vs := []Variant{{FaultTable: "current"}, {FaultTable: "legacy-4x"}}
	first, err := Compare(s, vs)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Compare(s, vs)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Error("the same comparison twice gave different JSON")
	}
	// In pieces, paused every few events and told every second, it is the same comparison.
	pauses, seconds := 0, 0
	paused, err := ComparePaused(s, vs, func(int, int64) { seconds++ }, func() { pauses++ })
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := json.Marshal(paused); string(p) != string(a) {
		t.Error("the comparison in pieces gave different JSON")
	}
	if pauses < seconds {
		t.Errorf("%d pauses over %d virtual seconds", pauses, seconds)
	}
	if !first.Fault {
		t.Error("fault-table variants: Fault not set")
	}
	if first.Rows[0].Isolations == 0 {
		t.Error("a broker slowed by 2 s under latency fault tolerance was never isolated")
	}
	// Shares are of all sends, so they add up to one.
	for _, r := range first.Rows {
		var sum float64
		for _, v := range r.SendShare {
			sum += v
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("%s: shares add up to %g", r.Label, sum)
		}
	}
	n := 0
	for _, m := range first.Table {
		if m.Key == "sendShare" {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d sendShare lines; want one per broker (4)", n)
	}
}

func TestCompareNotes(t *testing.T) {
	s := killScenario(t)
	s.Timeline = append(s.Timeline, Step{At: Duration(120000)}, Step{At: Duration(130000)})
	s.Timeline[1].Type, s.Timeline[1].Strategy = "setStrategy", "AVG"
	s.Timeline[2].Type, s.Timeline[2].ID = "killConsumer", "c1" // c1 is dead already
	cmp, err := Compare(s, []Variant{{Strategy: "AVG"}, {Strategy: "CONSISTENT_HASH"}})
	if err != nil {
		t.Fatal(err)
	}
	codes := []string{}
	for _, n := range cmp.Notes {
		codes = append(codes, n.Code)
	}
	if !slices.Equal(codes, []string{"timelineSetsStrategy", "refused"}) {
		t.Errorf("notes %v; want timelineSetsStrategy, refused", codes)
	}
	if len(cmp.Rows[0].Moved) != 2 {
		t.Errorf("%d moved entries; the refused kill is left out", len(cmp.Rows[0].Moved))
	}
	// After the timeline's setStrategy to AVG, the CONSISTENT_HASH run converges to AVG's split.
	if !strings.Contains(cmp.Notes[0].Text, "02:00") {
		t.Errorf("note %q does not say when", cmp.Notes[0].Text)
	}

	off, err := Compare(killScenario(t), []Variant{{FaultTable: "current"}, {FaultTable: "legacy-4x"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(off.Notes) != 1 || off.Notes[0].Code != "faultOff" {
		t.Errorf("fault tables with latency fault off: notes %+v; want faultOff", off.Notes)
	}
}

func TestCompareValidation(t *testing.T) {
	s := killScenario(t)
	on := true
	tests := []struct {
		vs   []Variant
		want string
	}{
		{[]Variant{{Strategy: "AVG"}}, "variants: 1 given; want 2 to 4"},
		{slices.Repeat([]Variant{{Strategy: "AVG"}}, 5), "variants: 5 given; want 2 to 4"},
		{[]Variant{{Strategy: "AVG"}, {Strategy: "AVGG"}}, "variants[1].strategy: unknown strategy"},
		{[]Variant{{Strategy: "AVG"}, {}}, "variants[1]: empty"},
		{[]Variant{{Strategy: "AVG"}, {Strategy: "AVG", LatencyFault: &on}}, "variants[1]: a variant changes the strategy or the fault settings, not both"},
		{[]Variant{{FaultTable: "newest"}, {FaultTable: "current"}}, "variants[0].faultTable"},
		{[]Variant{{Strategy: "CONSISTENT_HASH", Params: &allocate.Params{VirtualNodeCnt: ptr(5000)}}, {Strategy: "AVG"}}, "variants[0].params.virtualNodeCnt"},
		{[]Variant{{Params: &allocate.Params{}}, {Strategy: "AVG"}}, "variants[0].params: given without strategy"},
		{[]Variant{{Client: "java"}, {Client: "go-3"}}, `variants[1].client: unknown client profile "go-3"`},
		{[]Variant{{Client: "java"}, {Client: "go", Strategy: "AVG"}}, "variants[1]: a variant changes the client, the strategy or the fault settings, one of them"},
		{[]Variant{{Client: strings.Repeat("g", MaxNameLen+1)}, {Client: "go"}}, "variants[0].client: 65 characters long"},
	}
	for _, tc := range tests {
		_, err := Compare(s, tc.vs)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Compare(%+v) = %v; want an error starting %q", tc.vs, err, tc.want)
		}
	}
}

func TestParseVariants(t *testing.T) {
	vs, err := ParseVariants("AVG, CONSISTENT_HASH/20", "strategy")
	if err != nil {
		t.Fatal(err)
	}
	if vs[1].Strategy != "CONSISTENT_HASH" || *vs[1].Params.VirtualNodeCnt != 20 || vs[1].Name() != "CONSISTENT_HASH virtualNodeCnt=20" {
		t.Errorf("got %+v", vs[1])
	}
	vs, err = ParseVariants("java,go,java-4.9", "client")
	if err != nil || vs[1].Client != "go" || vs[1].Name() != "go-2.1.2" || vs[2].Name() != "java-4.9" {
		t.Errorf("client: %+v, %v", vs, err)
	}
	vs, err = ParseVariants("current,legacy-4x", "faultTable")
	if err != nil || vs[1].FaultTable != "legacy-4x" {
		t.Errorf("faultTable: %+v, %v", vs, err)
	}
	for _, tc := range []struct{ list, by, want string }{
		{"AVG,AVGG", "strategy", `--variants item 2 (AVGG): strategy: unknown strategy "AVGG"`},
		{"AVG", "strategy", "--variants: 1 given; want 2 to 4"},
		{"AVG,,CONFIG", "strategy", "--variants"},
		{"current,new", "faultTable", "--variants item 2 (new): faultTable"},
		{"on,maybe", "latencyFault", `--variants "maybe": want on or off`},
		{"AVG,CONFIG", "colour", `--by "colour"`},
		{"java,go-3", "client", `--variants item 2 (go-3): client: unknown client profile "go-3" (want java, java-4.9, go-2.1.2`},
	} {
		_, err := ParseVariants(tc.list, tc.by)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseVariants(%q, %q) = %v; want %q…", tc.list, tc.by, err, tc.want)
		}
	}
}

// By client, every member of the run — the scenario's and those the timeline adds — runs the
// variant's client, so a mixed group's lasting conflicts (rocketmq-client-go#419) are gone in
// every column, and Go's ring gives other owners than the Java ones (spec §4.3, §9.1.3).
func TestCompareByClient(t *testing.T) {
	s := Scenario{Version: Version, Config: cluster.Config{
		Seed: 1, Topic: DefaultTopic, Group: DefaultGroup, Brokers: brokerConfigs(2, 8),
		Consumers: []cluster.ConsumerConfig{{ID: "10.0.0.1@4012", Client: "java"}, {ID: "10.0.0.2@4013", Client: "go"},
			{ID: "10.0.0.3@4011", Client: "java"}},
		Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 100}},
		Strategy:  allocate.Named("CONSISTENT_HASH"), MessageModel: cluster.Clustering, FaultTable: "current",
	}, Until: Duration(120000), Timeline: []Step{{At: Duration(60000), Command: cluster.Command{Type: "addConsumer", ID: "10.0.0.4@4015", Client: "go"}}}}

	// As written, the mixed group keeps queues doubled or orphaned to the end.
	mixed, err := Run(s, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conflicts := 0
	for _, q := range mixed.Snapshot.Queues {
		if len(q.Owners) != 1 {
			conflicts++
		}
	}
	if conflicts == 0 {
		t.Fatalf("the mixed scenario has no doubled or orphaned queue at the end; the test needs one")
	}

	cmp, err := Compare(s, []Variant{{Client: "java"}, {Client: "go"}, {Client: "java-4.9"}})
	if err != nil {
		t.Fatal(err)
	}
	labels := []string{}
	for _, r := range cmp.Rows {
		labels = append(labels, r.Label)
	}
	if !slices.Equal(labels, []string{"java", "go-2.1.2", "java-4.9"}) {
		t.Errorf("labels %v", labels)
	}
	for _, r := range cmp.Rows {
		if len(r.Result.Snapshot.Consumers) != 4 {
			t.Fatalf("%s: %d consumers; the timeline adds a fourth", r.Label, len(r.Result.Snapshot.Consumers))
		}
		for _, k := range r.Result.Snapshot.Consumers {
			if k.Client != r.Label {
				t.Errorf("%s: consumer %s runs %s", r.Label, k.ID, k.Client)
			}
		}
		for q, owners := range r.Assignment {
			if len(owners) != 1 {
				t.Errorf("%s: %s owned by %v at the end; one client agrees with itself", r.Label, q, owners)
			}
		}
	}
	if !maps.EqualFunc(cmp.Rows[0].Assignment, cmp.Rows[2].Assignment, slices.Equal) {
		t.Errorf("java and java-4.9 build the same MD5 ring; assignments differ:\n%v\n%v", cmp.Rows[0].Assignment, cmp.Rows[2].Assignment)
	}
	if maps.EqualFunc(cmp.Rows[0].Assignment, cmp.Rows[1].Assignment, slices.Equal) {
		t.Errorf("the Go ring (CRC-32) gives the same owners as the Java one: %v", cmp.Rows[1].Assignment)
	}
	if len(cmp.Notes) != 1 || cmp.Notes[0].Code != "timelineNamesClient" || cmp.Notes[0].T != 60000 {
		t.Errorf("notes %+v; want one timelineNamesClient at 60 s", cmp.Notes)
	}
	if cmp.Fault {
		t.Error("client variants put the producers' fault lines in the table")
	}
}

// A variant may be the user's own strategy, {"strategy": {"name", "source"}}: it runs as the
// scenario's strategy would, and the row names it. The port of AVG compares equal to AVG.
func TestCompareOwnStrategyVariant(t *testing.T) {
	src, err := os.ReadFile("../../testdata/strategies/avg_port.star")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal([]map[string]any{{"strategy": "AVG"}, {"strategy": map[string]any{"name": "AVG_PORT", "source": string(src)}}})
	var vs []Variant
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	if vs[1].Strategy != "AVG_PORT" || vs[1].Source != string(src) {
		t.Fatalf("variant read as %+v", vs[1])
	}
	s := Presets()["small"]
	s.Until = Duration(90000)
	s.Timeline = []Step{{At: Duration(30000), Command: cluster.Command{Type: "killConsumer", ID: "c1"}}}
	cmp, err := Compare(s, vs)
	if err != nil {
		t.Fatal(err)
	}
	if cmp.Rows[1].Label != "AVG_PORT" {
		t.Errorf("row label %q; want the strategy's name", cmp.Rows[1].Label)
	}
	a, p := cmp.Rows[0], cmp.Rows[1]
	if a.MovedTotal != p.MovedTotal || a.SpreadEnd != p.SpreadEnd || a.Duplicates != p.Duplicates {
		t.Errorf("AVG moved %d, spread %d, %d duplicates; its port %d, %d, %d", a.MovedTotal, a.SpreadEnd, a.Duplicates, p.MovedTotal, p.SpreadEnd, p.Duplicates)
	}
	out, _ := json.Marshal(p.Variant)
	if !strings.Contains(string(out), `"strategy":{"name":"AVG_PORT","source":`) {
		t.Errorf("the row's variant in JSON: %.80s", out)
	}
	vs[1].Source = "def allocate(g, c, q, cs):\n    return [\n"
	if _, err := Compare(s, vs); err == nil || !strings.Contains(err.Error(), "variants[1].strategy") || !strings.Contains(err.Error(), "syntax error") {
		t.Errorf("a syntax error in a variant: %v", err)
	}
}

// PULL against POP (spec §8.1, §8.2.2): four members on three queues, every member asking the
// brokers. By PULL one of them holds nothing; by POP each pops broker-a:-1 and none is idle,
// the table gaining the POP lines. The scenario's own members compute their queues: the
// variant makes them ask the brokers, and a member its timeline adds copies them.
func TestCompareByConsumeMode(t *testing.T) {
	s := Scenario{Version: Version, Config: cluster.Config{
		Seed: 1, Topic: DefaultTopic, Group: DefaultGroup, Brokers: brokerConfigs(1, 3),
		Consumers: []cluster.ConsumerConfig{{ID: "c1"}, {ID: "c2"}, {ID: "c3"}},
		Producers: []cluster.ProducerConfig{{ID: "p1", Rate: 300}},
	}, Until: Duration(90000), Timeline: []Step{{At: Duration(30000), Command: cluster.Command{Type: "addConsumer", ID: "c4"}}}}
	vs, err := ParseVariants("PULL,pop", "consumeMode")
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Compare(s, vs)
	if err != nil {
		t.Fatal(err)
	}
	pull, pop := cmp.Rows[0], cmp.Rows[1]
	if pull.Label != "PULL" || pop.Label != "POP" {
		t.Errorf("labels %q, %q", pull.Label, pop.Label)
	}
	if pull.IdleEnd != 1 || pop.IdleEnd != 0 || pull.Popped != 0 || pop.Popped == 0 {
		t.Errorf("PULL idle %d popped %d, POP idle %d popped %d; want 1 idle by PULL, none by POP", pull.IdleEnd, pull.Popped, pop.IdleEnd, pop.Popped)
	}
	for q, owners := range pop.Assignment {
		if len(owners) != 4 {
			t.Errorf("POP: %s popped by %v; want all four", q, owners)
		}
	}
	keys := []string{}
	for _, m := range cmp.Table {
		keys = append(keys, m.Key)
	}
	if !slices.Contains(keys, "consumed") || !slices.Contains(keys, "revived") {
		t.Errorf("table %v lacks the POP lines", keys)
	}
	for _, bad := range []string{"PUSH,POP", "POP"} {
		if _, err := ParseVariants(bad, "consumeMode"); err == nil {
			t.Errorf("ParseVariants(%q) accepted", bad)
		}
	}
	if _, err := Compare(s, []Variant{{ConsumeMode: "POP", Strategy: "AVG"}, {ConsumeMode: "PULL"}}); err == nil || !strings.Contains(err.Error(), "one of them") {
		t.Errorf("a variant changing the mode and the strategy: %v", err)
	}
}
