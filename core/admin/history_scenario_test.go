package admin

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
)

// The kill logs' scenario is the logged group: the Java 4.9.8 member from t=0 (its first line),
// the 5.1.4 and Go members joining at their first lines, the Go member killed when the others'
// lines show it gone; the holdings and rounds are the logs', relative to the first line.
func TestHistoryScenarioOfAKill(t *testing.T) {
	rep := diagnoseLogs(t, Options{}, "kill/*")
	s, left, err := rep.Group.ScenarioSaid()
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("left out %v; want nothing", english(left))
	}
	const a, b, c = "10.0.0.1@1001#1111", "10.0.0.2@2002#2222", "10.0.0.3@3003#3333"
	if s.Topic != "Orders" || s.Group != "OrderGroup" || s.Strategy.Name != "AVG" {
		t.Errorf("topic %s group %s strategy %s", s.Topic, s.Group, s.Strategy.Name)
	}
	var brokers []string
	for _, br := range s.Brokers {
		brokers = append(brokers, br.Name+":"+strings.Repeat("q", br.Queues))
	}
	if !slices.Equal(brokers, []string{"broker-a:qqqq", "broker-b:qqqq"}) {
		t.Errorf("brokers %v; want broker-a and broker-b with 4 queues each", brokers)
	}
	if len(s.Consumers) != 1 || s.Consumers[0].ID != a || s.Consumers[0].Client != "java-4.9" {
		t.Errorf("consumers at t=0 %+v; want %s on java-4.9 alone", s.Consumers, a)
	}
	var steps []string
	for _, st := range s.Timeline {
		steps = append(steps, st.At.String()+" "+st.Type+" "+st.ID+" "+st.Client)
	}
	want := []string{"5s addConsumer " + b + " ", "10s addConsumer " + c + " go-2.1.2", "58.31s killConsumer " + c + " "}
	if !slices.Equal(steps, want) {
		t.Errorf("timeline\n%q\nwant\n%q", steps, want)
	}
	o := s.Observed
	if o == nil {
		t.Fatal("no observed history")
	}
	if o.Zone != "+08:00" || o.Start != "2026-12-04 10:00:00.000" || !strings.HasPrefix(o.Source, "3 client logs: a-java-4.9.8.log, ") {
		t.Errorf("zone %s start %s source %s", o.Zone, o.Start, o.Source)
	}
	// Every interval of the history is one holding, at the same moments less the first line's.
	n := 0
	for _, qh := range rep.History.Queues {
		n += len(qh.Held)
	}
	if len(o.Holdings) != n || len(o.Rounds) != len(rep.History.Rounds) {
		t.Errorf("%d holdings and %d rounds; want %d and %d", len(o.Holdings), len(o.Rounds), n, len(rep.History.Rounds))
	}
	// The Go member held broker-b:2-3 from its first round (10 s) until the kill; just after
	// it, per the logs, nobody holds them until the survivor's round after the notification.
	at := func(ms int64) map[string][]string { return o.OwnersAt(ms) }
	if got := at(30000)["broker-b:2"]; !slices.Equal(got, []string{c}) {
		t.Errorf("broker-b:2 at 30 s held by %v; want %s", got, c)
	}
	if got, ok := at(58320)["broker-b:2"]; ok {
		t.Errorf("broker-b:2 at 58.32 s held by %v; want nobody (the kill's orphaned window)", got)
	}
	if got := at(58400)["broker-b:2"]; !slices.Equal(got, []string{b}) {
		t.Errorf("broker-b:2 at 58.4 s held by %v; want %s", got, b)
	}
	// The logs stop with the queues held: those holdings run to the end, which is a little
	// past the last line (10:01:09.900).
	if s.Until != 71*scenario.Second {
		t.Errorf("until %s; want 1m11s", s.Until)
	}
	for _, h := range o.Holdings {
		if h.To == nil && h.Owner == c {
			t.Errorf("the killed member's holding %+v runs to the end", h)
		}
		if h.Ref == "" || strings.Contains(h.Ref, "/") {
			t.Errorf("holding ref %q; want the file's name and line", h.Ref)
		}
	}
}

// What the scenario cannot carry is said: a retry topic's holdings, a member whose stamps
// have no date; an empty history gives no scenario of its own.
func TestHistoryScenarioLeavesOut(t *testing.T) {
	rep := diagnoseLogs(t, Options{}, "kill/*")
	h := rep.History
	retry := QueueHistory{Queue: q("%RETRY%OrderGroup", "broker-a", 0), Held: []Interval{{Member: h.Members[0].ID, From: h.From + 100, To: h.From + 2000, FromKnown: true, ToKnown: true}}}
	h.Queues = append(h.Queues, retry)
	h.Members[2].Relative = true
	s, left, err := rep.Group.ScenarioSaid()
	if err != nil {
		t.Fatal(err)
	}
	said := strings.Join(english(left), "; ")
	for _, w := range []string{"the logged holdings of %RETRY%OrderGroup", "the member 10.0.0.3@3003#3333, whose log stamps have no date"} {
		if !strings.Contains(said, w) {
			t.Errorf("left out %q; want it to say %q", said, w)
		}
	}
	if !strings.Contains(s.Description, "%RETRY%OrderGroup") {
		t.Errorf("description %q does not say what was left out", s.Description)
	}
	for _, hd := range s.Observed.Holdings {
		if hd.Owner == "10.0.0.3@3003#3333" {
			t.Errorf("holding of the left-out member %+v", hd)
		}
	}
	for _, st := range s.Timeline {
		if st.ID == "10.0.0.3@3003#3333" {
			t.Errorf("step of the left-out member %+v", st)
		}
	}
	for i := range h.Members {
		h.Members[i].Relative = true
	}
	if _, _, err := rep.Group.ScenarioSaid(); err == nil || !strings.Contains(err.Error(), "no member of the logs") {
		t.Errorf("error %v; want no member", err)
	}
}

// A history with more intervals than a scenario holds keeps the first MaxHoldings and says
// how many it left out.
func TestHistoryScenarioBounds(t *testing.T) {
	rep := diagnoseLogs(t, Options{}, "kill/*")
	h := rep.History
	n := 0
	for _, qh := range h.Queues {
		n += len(qh.Held)
	}
	many := QueueHistory{Queue: q("Orders", "broker-a", 1)}
	for i := range scenario.MaxHoldings {
		from := h.From + 1000 + int64(i)
		many.Held = append(many.Held, Interval{Member: h.Members[0].ID, From: from, To: from + 1, FromKnown: true, ToKnown: true})
	}
	h.Queues = append(h.Queues, many)
	s, left, err := rep.Group.ScenarioSaid()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Observed.Holdings) != scenario.MaxHoldings {
		t.Errorf("%d holdings; want %d", len(s.Observed.Holdings), scenario.MaxHoldings)
	}
	if said := strings.Join(english(left), "; "); !strings.Contains(said, strconv.Itoa(n)+" logged holdings beyond the first 20000") {
		t.Errorf("left out %q; want the %d holdings beyond the limit", said, n)
	}
}

// The logs' file names, however long or odd, give a source and references the scenario
// accepts: control characters escaped, the source cut to its limit.
func TestHistoryScenarioOddFileNames(t *testing.T) {
	rep := diagnoseLogs(t, Options{}, "kill/*")
	h := rep.History
	for i := range h.Members {
		h.Members[i].Inputs = []string{strings.Repeat("日志", 30) + "\n\x1b[31m.log"}
	}
	for i := range h.Queues {
		for j := range h.Queues[i].Held {
			h.Queues[i].Held[j].FromRef.Input = "dir/a\x07.log"
		}
	}
	s, _, err := rep.Group.ScenarioSaid()
	if err != nil {
		t.Fatal(err)
	}
	if src := s.Observed.Source; len(src) > scenario.MaxObservedText || !strings.HasPrefix(src, "3 client logs: 日志") || !strings.HasSuffix(src, "…") {
		t.Errorf("source %q (%d bytes); want the names cut to %d bytes", src, len(src), scenario.MaxObservedText)
	}
	if ref := s.Observed.Holdings[0].Ref; ref != `a\x07.log:22` {
		t.Errorf("ref %q; want the escaped name", ref)
	}
}

// A member that vanishes and comes back, and a route that grows (testdata/logs/rejoin: a Java
// 4.9.8 member alone on 4 queues; a Go member joining at 10 s; the topic grown to 6 queues at
// 30 s, as both members' route lines say; the Go member's channel removed by the broker at 40 s
// and the same id connected and started again at 50 s). The history ends the Go member's
// queues at the broker's line and gives it new ones from its round after the restart; its
// "pull was expired" line re-creates a process queue and moves nothing. The scenario grows the
// topic at 30 s (setQueues), kills the Go member at 40 s and restarts it at 50 s: one member,
// not two.
func TestHistoryScenarioRejoinAndRouteChange(t *testing.T) {
	rep := diagnoseLogs(t, Options{}, "rejoin/*")
	h := rep.History
	const a, b = "10.0.0.1@1001#1111", "10.0.0.2@pay-b"
	if len(h.Members) != 2 {
		t.Fatalf("members %+v; want the two, the restarted one once", h.Members)
	}
	var held []string
	for _, qh := range h.Queues {
		if qh.Queue.QueueID != 4 {
			continue
		}
		for _, iv := range qh.Held {
			held = append(held, iv.Member+" "+h.Stamp(iv.From)[17:]+"→"+h.Stamp(iv.To)[17:]+" "+iv.ToBy)
		}
	}
	want := []string{b + " 30.000→40.000 broker line", a + " 40.050→50.050 ", b + " 50.000→55.000 "}
	if !slices.Equal(held, want) {
		t.Errorf("broker-a:4 held\n%q\nwant\n%q", held, want)
	}
	for _, r := range h.Rounds {
		if r.Member == b && len(r.Dropped) > 0 && (len(r.Added) > 0 || len(r.Removed) > 0) {
			t.Errorf("the expired pull moved queues: %+v", r)
		}
	}
	if f := finding(rep, CodeDoubleOwnedWindow); f != nil {
		t.Errorf("double-owned-window after the rejoin: %+v", f)
	}
	s, left, err := rep.Group.ScenarioSaid()
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("left out %v", english(left))
	}
	if len(s.Brokers) != 1 || s.Brokers[0].Name != "broker-a" || s.Brokers[0].Queues != 4 {
		t.Errorf("brokers %+v; want broker-a with the 4 queues of the first route line", s.Brokers)
	}
	var steps []string
	for _, st := range s.Timeline {
		n := ""
		if st.Queues != nil {
			n = strconv.Itoa(*st.Queues)
		}
		steps = append(steps, st.At.String()+" "+st.Type+" "+st.ID+st.Broker+" "+n)
	}
	wantSteps := []string{"10s addConsumer " + b + " ", "30s setQueues broker-a 6", "40s killConsumer " + b + " ", "50s restartConsumer " + b + " "}
	if !slices.Equal(steps, wantSteps) {
		t.Errorf("timeline\n%q\nwant\n%q", steps, wantSteps)
	}
	if _, err := scenario.Disagreements(s); err != nil {
		t.Errorf("the scenario does not run: %v", err)
	}
}

// The broker's expiry line names the channel's address only (logs §1.3 B4): the member is the
// one whose join line gave that address, and its queues end there as at a removed channel.
func TestHistoryExpiryNamesTheMemberByAddress(t *testing.T) {
	in := logInputs(t, "rejoin/*")
	for i := range in {
		if strings.HasSuffix(in[i].Name, "broker.log") {
			lines := strings.Split(string(in[i].Data), "\n")
			lines[1] = "2026-12-04 10:00:40 WARN ClientHousekeepingScheduledThread - SCAN: remove expired channel from ConsumerManager consumerTable. channel=10.0.0.2:56222, consumerGroup=PayGroup"
			in[i].Data = []byte(strings.Join(lines, "\n"))
		}
	}
	rep, err := Diagnose(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	const b = "10.0.0.2@pay-b"
	var expiry *MemberChange
	for i, c := range rep.History.Membership {
		if c.Kind == "expire" {
			expiry = &rep.History.Membership[i]
		}
	}
	if expiry == nil || expiry.Member != b {
		t.Fatalf("expiry %+v; want it to name %s", expiry, b)
	}
	s, _, err := rep.Group.ScenarioSaid()
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, st := range s.Timeline {
		if st.ID == b {
			steps = append(steps, st.At.String()+" "+st.Type)
		}
	}
	if want := []string{"10s addConsumer", "40s killConsumer", "50s restartConsumer"}; !slices.Equal(steps, want) {
		t.Errorf("steps of %s %q; want %q", b, steps, want)
	}
}

// One process that starts a consumer of a second group after its first group's rounds has not
// restarted: no leave is inferred.
func TestHistorySecondGroupIsNoRestart(t *testing.T) {
	const id = "10.0.0.9@9#9"
	log := "2026-12-04 10:00:00,000 INFO RocketmqClient - the consumer [G1] start OK.\n" +
		"2026-12-04 10:00:00,080 INFO RocketmqClient - rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=G1, topic=T, clientId=" + id + ", mqAllSize=1, cidAllSize=1, rebalanceResultSize=1, rebalanceResultSet=[MessageQueue [topic=T, brokerName=b, queueId=0]]\n" +
		"2026-12-04 10:00:30,000 INFO RocketmqClient - the consumer [G2] start OK.\n" +
		"2026-12-04 10:00:30,080 INFO RocketmqClient - rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=G2, topic=U, clientId=" + id + ", mqAllSize=1, cidAllSize=1, rebalanceResultSize=1, rebalanceResultSet=[MessageQueue [topic=U, brokerName=b, queueId=0]]\n"
	rep, err := Diagnose([]Input{{Name: "app.log", Data: []byte(log)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.History.Membership {
		if c.Kind == "leave" {
			t.Errorf("a leave inferred from the second group's start: %+v", c)
		}
	}
}
