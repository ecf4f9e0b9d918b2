package session

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
)

func observedKill(t *testing.T) scenario.Scenario {
	t.Helper()
	data, err := os.ReadFile("../../testdata/scenarios/observed-kill.json")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// queueState is each queue's simulated and logged owners in the published state's JSON, as
// the page's state() has them.
func queueState(t *testing.T, s *Session) map[string][2][]string {
	t.Helper()
	data, err := json.Marshal(s.State())
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Queues []struct {
			Queue    string    `json:"queue"`
			Owners   []string  `json:"owners"`
			Observed *[]string `json:"observed"`
		} `json:"queues"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	out := map[string][2][]string{}
	for _, q := range st.Queues {
		if q.Observed == nil {
			t.Fatalf("%s has no observed at %d: %s", q.Queue, s.State().TimeMs, data)
		}
		out[q.Queue] = [2][]string{q.Owners, *q.Observed}
	}
	return out
}

// The published state carries each queue's logged owners at its moment: playing, stepping
// and seeking back and forth all show the logs' owners of the moment shown.
func TestObservedOwnersFollowTheMoment(t *testing.T) {
	s, err := New(observedKill(t))
	if err != nil {
		t.Fatal(err)
	}
	const c1, c2, c3 = "10.0.0.1@1234", "10.0.0.2@2345", "10.0.0.3@3456"
	check := func(at int64, queue string, sim, logged []string) {
		t.Helper()
		got := queueState(t, s)[queue]
		if !slices.Equal(got[0], sim) || !slices.Equal(got[1], logged) {
			t.Errorf("at %s, %s: simulated %v, logged %v; want %v, %v", scenario.Clock(at), queue, got[0], got[1], sim, logged)
		}
	}
	at := func(ms int64, how string) {
		t.Helper()
		noErrors(t, run(t, s, 0, fmt.Sprintf(`{"type":%q,"ms":%d}`, how, ms)))
		if now := s.State().TimeMs; how == "seek" && now != ms {
			t.Fatalf("seek to %d reached %d", ms, now)
		}
	}
	check(0, "broker-a:0", []string{}, []string{}) // nobody yet, on either side
	at(30000, "step")
	check(30000, "broker-a:0", []string{c1}, []string{c1})
	check(30000, "broker-b:1", []string{c2}, []string{c2})
	at(33000, "step") // to 63 s: the logs' double hold, the simulation's settled group
	check(63000, "broker-a:0", []string{c2}, []string{})
	check(63000, "broker-b:1", []string{c3}, []string{c2, c3})
	at(90000, "seek")
	check(90000, "broker-a:0", []string{c2}, []string{c2})
	check(90000, "broker-b:1", []string{c3}, []string{c3})
	at(61000, "seek") // back: before c3's round, per the logs
	check(61000, "broker-b:1", []string{c3}, []string{c2})
	check(61000, "broker-a:2", []string{c2}, []string{})
	at(20000, "seek")
	check(20000, "broker-a:2", []string{c1}, []string{c1})

	st := s.State()
	if o := st.Observed; o == nil || o.Source != "rocketmq_client.log of 3 members" || o.Zone != "+08:00" || o.Start != "2026-11-30 10:15:02.120" || o.Holdings != 13 || o.Rounds != 15 {
		t.Errorf("state's observed = %+v", st.Observed)
	}
	tl := s.Timeline()
	if len(tl.Rounds) != 15 || tl.Rounds[0].T != 1000 || !strings.Contains(tl.Rounds[len(tl.Rounds)-1].Text, c2+" (member2.log:990)") {
		t.Errorf("timeline rounds = %v", tl.Rounds)
	}
	if s.Observed() == nil || len(s.Observed().Holdings) != 13 {
		t.Error("Observed() does not give the loaded history")
	}
}

// Without a history the state, the timeline and the share link have nothing of it, and the
// run is the same as with one; loading another scenario drops the history.
func TestObservedAbsentLeavesStateAlone(t *testing.T) {
	sc := observedKill(t)
	with, err := New(sc)
	if err != nil {
		t.Fatal(err)
	}
	bare := sc
	bare.Observed = nil
	without, err := New(bare)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Session{with, without} {
		noErrors(t, run(t, s, 0, `{"type":"step","ms":70000}`))
	}
	data, _ := json.Marshal(without.State())
	tl, _ := json.Marshal(without.Timeline())
	if strings.Contains(string(data), "observed") || strings.Contains(string(tl), "rounds") {
		t.Errorf("a scenario without a history publishes one:\n%s\n%s", data, tl)
	}
	a, b := with.State().Snapshot, without.State().Snapshot
	for i := range a.Queues {
		a.Queues[i].Observed = nil
	}
	a.Sends, b.Sends = nil, nil
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Errorf("the history changed the simulation:\n%s\n%s", ja, jb)
	}
	link, err := with.Share()
	if err != nil {
		t.Fatal(err)
	}
	sh, err := scenario.DecodeShare(link)
	if err != nil || sh.Scenario.Observed == nil || len(sh.Scenario.Observed.Holdings) != 13 {
		t.Errorf("the share link does not carry the history: %v", err)
	}
	noErrors(t, run(t, with, 0, `{"type":"load","preset":"small"}`))
	if with.State().Observed != nil || with.Timeline().Rounds != nil || with.State().Queues[0].Observed != nil {
		t.Error("a loaded preset kept the history of the scenario before it")
	}
}
