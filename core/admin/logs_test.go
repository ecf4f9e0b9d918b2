package admin

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lbscope/lbscope/core/route"
)

const logFixtures = "../../testdata/logs/"

func logInputs(t testing.TB, paths ...string) []Input {
	t.Helper()
	var in []Input
	for _, p := range paths {
		files, err := filepath.Glob(logFixtures + p)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v %v", p, files, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in = append(in, Input{Name: filepath.Base(f), Data: data})
		}
	}
	return in
}

func diagnoseLogs(t *testing.T, opts Options, paths ...string) *Report {
	t.Helper()
	rep, err := Diagnose(logInputs(t, paths...), opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.History == nil {
		t.Fatalf("%v: no history", paths)
	}
	return rep
}

func finding(rep *Report, code string) *Finding {
	for i := range rep.Findings {
		if rep.Findings[i].Code == code {
			return &rep.Findings[i]
		}
	}
	return nil
}

func q(topic, broker string, id int32) route.MessageQueue {
	return route.MessageQueue{Topic: topic, BrokerName: broker, QueueID: id}
}

// Each real excerpt of the reference (logs §5) reads as an expert reads it.
func TestLogExcerpts(t *testing.T) {
	t.Run("E1 4.3–4.7 layout: a restart, with the seconds repeated as millis", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e1-*")
		h := rep.History
		if len(rep.Read.Sections) != 1 || !strings.Contains(rep.Read.Sections[0].Layout, "4.3.0–4.7.1") {
			t.Errorf("sections %+v; want the 4.3.0–4.7.1 layout (',sss' repeats the seconds)", rep.Read.Sections)
		}
		if len(h.Members) != 1 || h.Members[0].ID != "host1@29158" || h.Members[0].IDSource != "client id in the lines" {
			t.Fatalf("members %+v", h.Members)
		}
		var kinds []string
		for _, c := range h.Membership {
			kinds = append(kinds, c.Kind+"@"+c.Ref.String())
		}
		if !slices.Equal(kinds, []string{"stop@e1-java-4.3-persistall.log:2", "start@e1-java-4.3-persistall.log:4"}) {
			t.Errorf("membership %v; want the shutdown and the start", kinds)
		}
		qh := h.Queues
		if len(qh) != 1 || qh[0].Queue != q("topic-xxx", "broker-a", 5) || len(qh[0].Held) != 2 {
			t.Fatalf("queues %+v", qh)
		}
		before, after := qh[0].Held[0], qh[0].Held[1]
		// Held before the paste (a [persistAll] snapshot), given up at the shutdown; taken again
		// by the pull request after the start, whole seconds only (14:19:24 at +08:00).
		if before.FromKnown || !before.ToKnown || before.ToRef.Line != 2 || !after.FromKnown || after.FromRef.Line != 5 || after.ToKnown {
			t.Errorf("intervals %+v", qh[0].Held)
		}
		if got := h.Stamp(after.From); got != "2021-06-08 14:19:24.000" {
			t.Errorf("restart at %s", got)
		}
		// It committed 2678704 before the restart and pulls again from 2611518: 67186 messages
		// are consumed twice.
		if r := h.Rounds; len(r) != 1 || len(r[0].Rewound) != 1 || r[0].Rewound[0] != (Rewind{Queue: q("topic-xxx", "broker-a", 5), Committed: 2678704, Resumed: 2611518, Ref: Ref{Input: "e1-java-4.3-persistall.log", Line: 1}}) {
			t.Errorf("rounds %+v; want the pull resumed below the commit", r)
		}
		// One member's log cannot show that nobody else held the queue meanwhile.
		if f := finding(rep, CodeOrphanedWindow); f != nil {
			t.Errorf("orphaned-window made from one member's log: %+v", f)
		}
	})
	t.Run("E2 4.4 start: the client id and version", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e2-*")
		m := rep.History.Members
		if len(m) != 1 || m[0].ID != "192.168.31.163@1587712890005" || m[0].Version != "V4_4_0" {
			t.Errorf("members %+v", m)
		}
		if len(rep.History.Rounds) != 0 {
			t.Errorf("rounds %+v in a start without a rebalance", rep.History.Rounds)
		}
	})
	t.Run("E3 a result line without its stamp: AVG over nine queues for one consumer", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e3-*")
		r := rep.History.Rounds
		if len(r) != 1 || r[0].MQAllSize != 9 || r[0].CidAllSize != 1 || len(r[0].Result) != 9 || r[0].Strategy != "AVG" || r[0].Member != "10.22.224.39@114452" {
			t.Fatalf("rounds %+v", r)
		}
		if r[0].Agrees == nil || !*r[0].Agrees {
			t.Errorf("the only consumer takes all nine under AVG: %+v", r[0])
		}
		if !slices.Equal(codes(rep), []string{CodeAllocationOK}) {
			t.Errorf("codes %v", codes(rep))
		}
	})
	t.Run("E4 3.x application layout: a notification, four adds and the source lists", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e4-*")
		h := rep.History
		if len(h.Members) != 1 || h.Members[0].ID != "192.168.1.31@16212" || !h.Members[0].Relative {
			t.Fatalf("members %+v; the time of day alone is off the common timeline", h.Members)
		}
		r := h.Rounds
		if len(r) != 1 || r[0].Cause != "notification" || r[0].MQAllSize != 4 || r[0].CidAllSize != 1 || route.Compact(r[0].Added) != "licp:0-3" {
			t.Errorf("rounds %+v", r)
		}
	})
	t.Run("E7 broker 5.x: a join and a group emptied", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e7-*")
		ch := rep.History.Membership
		if len(ch) != 2 || ch[0].Kind != evEmpty || ch[0].Group != "real_db_consumer_group-dsp_error" ||
			ch[1].Kind != evJoin || ch[1].Member != "${clientIP}@26917#5261547777682927" || ch[1].Source != "broker log" {
			t.Errorf("membership %+v", ch)
		}
	})
	t.Run("E8 broker 4.x, wrapped lines: a connection dropped", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e8-*")
		ch := rep.History.Membership
		want := "security.33.65@tp2-perf-mid-mqn0201:9876;tp2-perf-mid-mqn0202:9876;tp2-perf-mid-mqn0203:9876#security.33.65@30053"
		if len(ch) != 2 || ch[0].Kind != evLeave || ch[0].Member != want || ch[0].Group != "ONLINE_PRE_PROCESS_MESSAGE-GROUP" || ch[0].Ref.Line != 4 ||
			ch[1].Kind != evEmpty || ch[1].Group != "security-GROUP" {
			t.Errorf("membership %+v", ch)
		}
	})
	t.Run("E9 Go terminal: an orderly lock refused", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e9-*")
		h := rep.History
		if len(h.Members) != 1 || h.Members[0].IDSource != "file name" {
			t.Errorf("members %+v; no line names the client", h.Members)
		}
		r := h.Rounds
		if len(r) != 1 || r[0].Group != "GID_ADX01" || len(r[0].LockFailed) != 1 || r[0].LockFailed[0] != q("ADX", "broker-a", 1) || len(h.Queues) != 0 {
			t.Errorf("rounds %+v queues %+v: a queue whose lock failed is not held", r, h.Queues)
		}
	})
	t.Run("E11 Go before v2.0.0: no topic yet, then its route", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e11-*")
		h := rep.History
		if len(h.Rounds) != 1 || h.Rounds[0].Topic != "AIS-0" || !strings.Contains(h.Rounds[0].Failed, "does not exist") {
			t.Errorf("rounds %+v", h.Rounds)
		}
		if len(h.Routes) != 1 || len(h.Routes[0].Queues) != 16 || h.Routes[0].Queues[15] != q("AIS-0", "617834a79a5b", 15) {
			t.Errorf("routes %+v; want 16 readable queues on 617834a79a5b", h.Routes)
		}
	})
	t.Run("E12 Go: the start offset of a new queue could not be read", func(t *testing.T) {
		rep := diagnoseLogs(t, Options{}, "e12-*")
		r := rep.History.Rounds
		if len(r) != 1 || len(r[0].AddFailed) != 1 || r[0].AddFailed[0] != q("xxxxxx", "broker_xxxxx-1", 0) || len(rep.History.Queues) != 0 {
			t.Errorf("rounds %+v", r)
		}
	})
}

func stamps(h *History, ts ...int64) []string {
	var out []string
	for _, t := range ts {
		out = append(out, h.Stamp(t))
	}
	return out
}

// Three members across a kill (testdata/logs/kill, written from the clients' timings: a Java
// 4.9.8 member alone, a 5.1.4 member joining 5 s later, a Go v2.1.2 member 5 s after that,
// killed at 10:00:58.3): the rounds are AVG's, the handovers leave short windows, and the
// killed member's queues wait for the survivors' round after the broker's notification.
func TestLogHistoryAcrossAKill(t *testing.T) {
	rep := diagnoseLogs(t, Options{}, "kill/*")
	h := rep.History
	if h.Zone != "+08:00" || h.ZoneGiven {
		t.Errorf("zone %s given %v; want +08:00 assumed", h.Zone, h.ZoneGiven)
	}
	const a, b, c = "10.0.0.1@1001#1111", "10.0.0.2@2002#2222", "10.0.0.3@3003#3333"
	var ids []string
	for _, m := range h.Members {
		ids = append(ids, m.ID+" "+m.Client+" "+m.Version)
	}
	if !slices.Equal(ids, []string{a + " java V4_9_8", b + " java V5_1_4", c + " go "}) {
		t.Errorf("members %q", ids)
	}
	var rounds []string
	for _, r := range h.Rounds {
		if r.Agrees == nil || !*r.Agrees {
			t.Errorf("round %s of %s not held against AVG or differs: %+v", h.Stamp(r.At), r.Member, r)
		}
		rounds = append(rounds, h.Stamp(r.At)[11:]+" "+r.Member[:8]+" "+route.Compact(r.Result))
	}
	want := []string{
		"10:00:00.080 10.0.0.1 broker-a:0-3 broker-b:0-3",
		"10:00:05.120 10.0.0.2 broker-b:0-3",
		"10:00:05.140 10.0.0.1 broker-a:0-3",
		"10:00:10.000 10.0.0.3 broker-b:2-3",
		"10:00:10.130 10.0.0.1 broker-a:0-2",
		"10:00:10.135 10.0.0.2 broker-a:3 broker-b:0-1",
		"10:00:58.330 10.0.0.1 broker-a:0-3",
		"10:00:58.345 10.0.0.2 broker-b:0-3",
	}
	if !slices.Equal(rounds, want) {
		t.Errorf("rounds\n%s\nwant\n%s", strings.Join(rounds, "\n"), strings.Join(want, "\n"))
	}
	// The Go member's log stops at its last offset update (10:00:55); its leave is inferred
	// from the first survivor's notification before the round that counted 2.
	var leave *MemberChange
	for i, ch := range h.Membership {
		if ch.Kind == "leave" {
			leave = &h.Membership[i]
		}
	}
	if leave == nil || leave.Member != c || !strings.HasPrefix(leave.Source, "inferred") || h.Stamp(leave.At) != "2026-12-04 10:00:58.310" {
		t.Fatalf("leave %+v", leave)
	}
	for _, qh := range h.Queues {
		if qh.Queue != q("Orders", "broker-b", 2) {
			continue
		}
		var got []string
		for _, iv := range qh.Held {
			got = append(got, iv.Member[:8]+" "+strings.Join(stamps(h, iv.From, iv.To), "→")[11:])
		}
		want := []string{
			"10.0.0.1 10:00:00.080→2026-12-04 10:00:05.140",
			"10.0.0.2 10:00:05.120→2026-12-04 10:00:10.135",
			"10.0.0.3 10:00:10.000→2026-12-04 10:00:58.310",
			"10.0.0.2 10:00:58.345→2026-12-04 10:01:09.500",
		}
		if !slices.Equal(got, want) {
			t.Errorf("broker-b:2 held %q; want %q", got, want)
		}
		if iv := qh.Held[2]; iv.ToKnown || iv.ToBy != "inferred" {
			t.Errorf("the killed member's end %+v; want unknown, inferred", iv)
		}
	}
	if !slices.Equal(codes(rep), []string{CodeDoubleOwnedWindow, CodeOrphanedWindow, CodeAllocationOK}) {
		t.Fatalf("codes %v", codes(rep))
	}
	var windows []string
	for _, e := range finding(rep, CodeOrphanedWindow).Evidence {
		windows = append(windows, e.Text)
	}
	if !slices.Equal(windows, []string{
		"broker-a:3 from 2026-12-04 10:00:10.130 for 5 ms: " + a + " → " + b,
		"broker-b:2 from 2026-12-04 10:00:58.310 for 35 ms: " + c + " → " + b,
		"broker-b:3 from 2026-12-04 10:00:58.310 for 35 ms: " + c + " → " + b,
	}) {
		t.Errorf("orphaned windows %q", windows)
	}
	if f := finding(rep, CodeDoubleOwnedWindow); f.Args[0] != 5 || f.Args[1] != "20 ms" {
		t.Errorf("double-owned windows %v: %q", f.Args, f.Evidence)
	}
	// The Go member's whole-second stamp (10:00:10) may be as late as 10:00:10.999, after the
	// 5.1 member gave broker-b:2 and :3 up at .135: no window is claimed there.
	for _, e := range finding(rep, CodeDoubleOwnedWindow).Evidence {
		if strings.Contains(e.Text, c) {
			t.Errorf("a window from the Go member's whole-second stamp: %s", e.Text)
		}
	}
}

// Each finding of the history once where it holds (the stale, mixed and storm logs) and once
// where it does not (the kill and the excerpts).
func TestLogHistoryFindings(t *testing.T) {
	kill := codes(diagnoseLogs(t, Options{}, "kill/*"))
	stale := diagnoseLogs(t, Options{}, "stale/*")
	mixed := diagnoseLogs(t, Options{}, "mixed/*")
	storm := diagnoseLogs(t, Options{}, "storm/*")
	e1 := codes(diagnoseLogs(t, Options{}, "e1-*"))
	cases := []struct {
		code     string
		positive *Report
		args     []any
		negative []string
	}{
		{CodeRebalanceFlapping, stale, []any{"10.0.1.2@22#2", "broker-a:0-2", 5, "40 s"}, kill},
		{CodeViewsDisagree, stale, []any{"10.0.1.1@11#1", 2, "10.0.1.2@22#2", 1, "2026-12-04 11:00:30.020"}, kill},
		{CodeAllocationDiffers, mixed, []any{1, "AVG"}, kill},
		{CodeRebalanceStorm, storm, []any{[]string{"10.0.3.1@41#1"}, 8, 3}, codes(stale)},
		{CodeDoubleOwnedWindow, mixed, nil, codes(storm)},
		{CodeOrphanedWindow, diagnoseLogs(t, Options{}, "kill/*"), nil, e1},
		{CodeAllocationOK, diagnoseLogs(t, Options{}, "kill/*"), nil, codes(stale)},
	}
	for _, c := range cases {
		f := finding(c.positive, c.code)
		if f == nil {
			t.Errorf("%s: not found (codes %v)", c.code, codes(c.positive))
			continue
		}
		if c.args != nil && fmt.Sprint(f.Args) != fmt.Sprint(c.args) {
			t.Errorf("%s: args %v; want %v", c.code, f.Args, c.args)
		}
		if slices.Contains(c.negative, c.code) {
			t.Errorf("%s found where it does not hold: %v", c.code, c.negative)
		}
	}
	if slices.Contains(codes(storm), CodeAllocationOK) || slices.Contains(codes(mixed), CodeAllocationOK) {
		t.Errorf("allocation-ok beside problems: %v %v", codes(storm), codes(mixed))
	}
}

// Stamps without a zone are read in UTC+8 unless the user says otherwise; Go's RFC 3339 stamps
// keep their own zone. A zone that is not one is refused by name.
func TestLogZone(t *testing.T) {
	def := diagnoseLogs(t, Options{}, "kill/*")
	utc := diagnoseLogs(t, Options{LogZone: "+00:00"}, "kill/*")
	if !utc.History.ZoneGiven || utc.History.Zone != "+00:00" {
		t.Errorf("zone %s given %v", utc.History.Zone, utc.History.ZoneGiven)
	}
	if !slices.ContainsFunc(def.Group.Assumed, func(s string) bool { return strings.Contains(s, "UTC+08:00") && strings.Contains(s, "--log-zone") }) ||
		slices.ContainsFunc(utc.Group.Assumed, func(s string) bool { return strings.Contains(s, "zone") }) {
		t.Errorf("assumed %q / %q", def.Group.Assumed, utc.Group.Assumed)
	}
	for _, m := range def.History.Members {
		for _, n := range utc.History.Members {
			if m.ID != n.ID {
				continue
			}
			shift := n.First - m.First
			if m.Client == "go" && shift != 0 || m.Client == "java" && shift != 8*3600*1000 {
				t.Errorf("%s (%s) moved %d ms", m.ID, m.Client, shift)
			}
		}
	}
	for _, z := range []string{"+8", "-05:30", "UTC", "+0800"} {
		if _, err := ParseZone(z); err != nil {
			t.Errorf("%s: %v", z, err)
		}
	}
	for _, z := range []string{"8", "+25:00", "Asia/Shanghai", "+08:0x"} {
		_, err := Diagnose(logInputs(t, "e3-*"), Options{LogZone: z})
		if err == nil || !strings.Contains(err.Error(), "--log-zone") || !strings.Contains(err.Error(), z) {
			t.Errorf("%s: %v; want an error naming --log-zone and the value", z, err)
		}
	}
}

// The layouts the excerpts lack, in the exact shapes of logs §2.1, §2.3 and §3: logrus JSON,
// the Go client's "[BUG]" line with its time, the gRPC clients' assignments.
func TestLogLayouts(t *testing.T) {
	in := []Input{
		{Name: "go.json", Data: []byte(`{"cidAllSize":2,"clientID":"192.168.0.2@1234#1690000000000000000","consumerGroup":"testGroup","level":"info","msg":"MessageQueue do balance done","mqAllSize":4,"rebalanceResultSet":[{"topic":"TopicTest","brokerName":"broker-a","queueId":0},{"topic":"TopicTest","brokerName":"broker-a","queueId":1}],"rebalanceResultSize":2,"time":"2026-12-04T03:32:59Z","topic":"TopicTest"}
{"MessageQueue":"MessageQueue [topic=TopicTest, brokerName=broker-a, queueId=3]","consumerGroup":"testGroup","level":"info","msg":"remove unnecessary mq when updateProcessQueueTable","time":"2026-12-04T03:32:59Z"}
{"cidAll":["192.168.0.1@1","192.168.0.3@3"],"consumerGroup":"testGroup","consumerId":"192.168.0.2@1234#1690000000000000000","level":"warning","msg":"[BUG] ConsumerId not in cidAll","time":"2026-12-04T03:34:00Z"}
`)},
		{Name: "go.txt", Data: []byte(`time="2026-12-04T03:33:19Z" level=warning msg="[BUG] ConsumerId not in cidAll" cidAll="[192.168.0.1@1 192.168.0.2@2]" consumerGroup=testGroup consumerId=192.168.0.3@99
`)},
		{Name: "grpc-java.log", Data: []byte(`2026-12-04 11:33:00.100 INFO  [777] [RocketmqClientScheduler-1] [o.a.r.c.j.i.c.PushConsumerImpl#?:?] - Assignments of topic=TopicA has changed, null => Assignments{assignmentList=[Assignment{messageQueue=broker-a.TopicA.0}, Assignment{messageQueue=broker-b.TopicA.1}]}, clientId=host@777@0@1a2b3c
2026-12-04 11:33:00.105 INFO  [777] [RocketmqClientScheduler-1] [o.a.r.c.j.i.c.PushConsumerImpl#?:?] - Start to fetch message from remote, mq=broker-a.TopicA.0, clientId=host@777@0@1a2b3c
`)},
		{Name: "java-4.0-logback.log", Data: []byte("2018-01-02 10:11:12 INFO RebalanceService - doRebalance, G0, remove unnecessary mq, MessageQueue [topic=T0, brokerName=b, queueId=1]\n")},
		{Name: "java-4.0-log4j.log", Data: []byte("2018-01-02 10:11:13,250 INFO RocketmqClient(320) - doRebalance, G0, add a new mq, MessageQueue [topic=T0, brokerName=b, queueId=2]\n")},
		{Name: "java-5.1.0.log", Data: []byte("2023-03-01 10:11:14.500 INFO  [46212] [RebalanceService] [o.a.r.c.i.c.RebalanceImpl#updateProcessQueueTableInRebalance:692] - doRebalance, G0, add a new mq, MessageQueue [topic=T0, brokerName=b, queueId=3]\n")},
		{Name: "grpc-go.log", Data: []byte("2026-12-04T11:33:01.000+0800\tINFO\tgolang/push_consumer.go:300\tDrop message queue according to the latest assignmentList, mq=topic:{name:\"TopicA\"}  id:1  permission:READ_WRITE  broker:{name:\"broker-b\"  id:0}, clientId=host@9@0@zz\t{\"client_id\": \"host@9@0@zz\"}\n")},
	}
	rep, err := Diagnose(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := rep.History
	var got []string
	for _, r := range h.Rounds {
		got = append(got, r.Member+" "+h.Stamp(r.At)[11:]+" "+r.Topic+" set="+route.Compact(r.Result)+" -"+route.Compact(r.Removed)+" +"+route.Compact(r.Added)+" "+strings.Join(r.NotInCidAll, ","))
	}
	want := []string{
		"java-4.0-logback.log 10:11:12.000 T0 set= -b:1 + ",
		"java-4.0-log4j.log 10:11:13.250 T0 set= - +b:2 ",
		"java-5.1.0.log (process 46212) 10:11:14.500 T0 set= - +b:3 ",
		"192.168.0.2@1234#1690000000000000000 11:32:59.000 TopicTest set=broker-a:0-1 -broker-a:3 + ",
		"host@777@0@1a2b3c 11:33:00.100 TopicA set=broker-a:0 broker-b:1 - +broker-a:0 ",
		"host@9@0@zz 11:33:01.000 TopicA set= -broker-b:1 + ",
		"192.168.0.3@99 11:33:19.000  set= - + 192.168.0.1@1,192.168.0.2@2",
		"192.168.0.2@1234#1690000000000000000 11:34:00.000  set= - + 192.168.0.1@1,192.168.0.3@3",
	}
	if !slices.Equal(got, want) {
		t.Errorf("rounds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(rep.Read.GoLogs) != 1 || rep.Read.GoLogs[0].ConsumerID != "192.168.0.3@99" {
		t.Errorf("the Go [BUG] line is still read as before: %+v", rep.Read.GoLogs)
	}
	layouts := map[string]bool{}
	for _, s := range rep.Read.Sections {
		layouts[s.Layout] = true
	}
	for _, l := range []string{"Go client v2 (logrus JSON)", "gRPC Java client (rocketmq-client-java)", "gRPC Go client (zap)",
		"whole seconds: broker, or Java client 4.0–4.2 (logback)", "Java client 4.0–4.2 (log4j)", "Java client 5.1+ (logback)"} {
		if !layouts[l] {
			t.Errorf("layout %q not among %v", l, layouts)
		}
	}
}

// A log may be larger than a paste, up to MaxLogBytes; its other lines are counted, not
// noted one by one; an input above the limit is refused with the limit named.
func TestLogBounds(t *testing.T) {
	var b strings.Builder
	line := "2026-12-04 10:00:00,123 INFO RocketmqClient - PullMessageService service started\n"
	for b.Len() < MaxInputBytes+(1<<20) {
		b.WriteString(line)
	}
	b.WriteString("2026-12-04 10:00:01,000 INFO RocketmqClient - rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=G, topic=T, clientId=1.1.1.1@1, mqAllSize=1, cidAllSize=1, rebalanceResultSize=1, rebalanceResultSet=[MessageQueue [topic=T, brokerName=b, queueId=0]]\n")
	n := strings.Count(b.String(), "\n")
	rep, err := Diagnose([]Input{{Name: "big.log", Data: []byte(b.String())}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Read.Inputs[0].Error != "" || rep.History == nil || len(rep.History.Rounds) != 1 {
		t.Fatalf("a %d-byte log: %+v", b.Len(), rep.Read.Inputs[0])
	}
	if len(rep.Read.Notes) != 1 || rep.Read.Notes[0].Said.Key != "log.read" || rep.Read.Notes[0].Said.Args[0] != n || rep.Read.Notes[0].Said.Args[2] != n-1 {
		t.Errorf("notes %+v; want one note counting %d lines, %d skipped", rep.Read.Notes, n, n-1)
	}
	big := make([]byte, MaxLogBytes+1)
	copy(big, line)
	for i := len(line); i < len(big); i++ {
		big[i] = 'x'
	}
	rep, err = Diagnose([]Input{{Name: "huge.log", Data: big}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := rep.Read.Inputs[0].Error; !strings.Contains(e, "huge.log") || !strings.Contains(e, "32 MiB per log") {
		t.Errorf("error %q", e)
	}
	notLog := []byte(strings.Repeat("a b c\n", MaxInputBytes/6+1))
	rep, _ = Diagnose([]Input{{Name: "big.txt", Data: notLog}}, Options{})
	if e := rep.Read.Inputs[0].Error; !strings.Contains(e, "4 MiB per input") {
		t.Errorf("a large paste that is no log: %q", e)
	}
}

// FuzzLogs: any bytes read as logs give a history whose intervals run forward and whose
// sections are sound, without a panic.
func FuzzLogs(f *testing.F) {
	// The excerpts whole, the groups' logs by their first lines: small seeds keep the
	// fuzzer's minimising short.
	for _, in := range logInputs(f, "*.log", "*/*.log") {
		f.Add(in.Data[:min(len(in.Data), 3000)])
	}
	f.Add([]byte("2026-12-04 10:00:00,000 INFO RocketmqClient - doRebalance, G, add a new mq, MessageQueue [topic=T, brokerName=b, queueId=1]\n\tat x\n["))
	f.Add([]byte(`{"level":"info","msg":"MessageQueue do balance done","time":"2026-12-04T03:32:59+08:00","rebalanceResultSet":[{"queueId":1e99,"brokerName":"b"}]}`))
	f.Add([]byte(`time="2026-12-04T03:32:59Z" level=info msg="the topic route info changed" topic=T changeTo="{\"queueDatas\":[{\"brokerName\":\"b\",\"readQueueNums\":99999999,\"perm\":6}]}"`))
	f.Add([]byte("2026-12-04 10:00:10 INFO H - new consumer connected, group: G X Y channel: ClientChannelInfo [channel=[id: 0x1, L:/a:1 - R:/10.0.0.2:5], clientId=c@1, language=GO]\n" +
		"2026-12-04 10:00:11 WARN S - SCAN: remove expired channel from ConsumerManager consumerTable. channel=/10.0.0.2:5, consumerGroup=G\n" +
		"2026-12-04 10:00:12,000 INFO RocketmqClient - the topic[T] route info changed, old[] ,new[QueueData [brokerName=b, readQueueNums=0, perm=6]]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Diagnose([]Input{{Name: "a.log", Data: data}, {Name: "b.log", Data: data}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Read.Sections {
			if s.From < 1 || s.To < s.From {
				t.Fatalf("section %+v", s)
			}
		}
		if h := rep.History; h != nil {
			for _, qh := range h.Queues {
				for _, iv := range qh.Held {
					if iv.To < iv.From {
						t.Fatalf("interval %+v of %v runs backwards", iv, qh.Queue)
					}
				}
			}
			// The logged group as a scenario (its route changes, leaves and returns as steps):
			// one that is made is valid; one that is not says why.
			if s, _, err := rep.Group.ScenarioSaid(); err == nil {
				if err := s.Validate(); err != nil {
					t.Fatalf("an invalid scenario of the logs: %v", err)
				}
			} else if _, ok := Sentence(err); !ok {
				t.Fatalf("the scenario's error is not a sentence: %v", err)
			}
		}
	})
}

// The history writes stamps as time.Format would, without the time package in the page's wasm.
func TestHistoryStamp(t *testing.T) {
	for _, zone := range []int{8 * 3600, 0, -(5*3600 + 1800)} {
		h := &History{zone: zone}
		for _, ms := range []int64{0, -1, 951782400000, 1796349658345, 4102444799999, -2208988800001, 1709164800123} {
			want := time.UnixMilli(ms).In(time.FixedZone("", zone)).Format("2006-01-02 15:04:05.000")
			if got := h.Stamp(ms); got != want {
				t.Errorf("Stamp(%d) at %d: %s; want %s", ms, zone, got, want)
			}
			y, m, d := civilFromDays(daysFromCivil(2000, 2, 29))
			if y != 2000 || m != 2 || d != 29 {
				t.Errorf("2000-02-29 → %d-%d-%d", y, m, d)
			}
		}
	}
}

// FuzzTablesAndLogs: Dashboard tables and client logs read together, any bytes in either,
// give one report (its caveat notes, the history, the logged scenario) without a panic.
func FuzzTablesAndLogs(f *testing.F) {
	kill := logInputs(f, "kill/*.log")
	for _, name := range []string{"kill-list-angular-en-github.txt", "kill-client-angular-en-tabs.txt", "kill-detail-angular-en-tabs.txt", "go-member-client-detail-en-tabs.txt"} {
		table, err := os.ReadFile(filepath.Join(tables, name))
		if err != nil {
			f.Fatal(err)
		}
		for _, in := range kill {
			f.Add(table, in.Data[:min(len(in.Data), 3000)])
		}
	}
	f.Fuzz(func(t *testing.T, table, log []byte) {
		rep, err := Diagnose([]Input{{Name: "table.txt", Data: table}, {Name: "a.log", Data: log}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range rep.Read.Notes {
			if n.Said.Key == "" || n.Text == "" {
				t.Fatalf("a note without words: %+v", n)
			}
		}
		if s, _, err := rep.Group.ScenarioSaid(); err == nil {
			if err := s.Validate(); err != nil {
				t.Fatalf("an invalid scenario: %v", err)
			}
		}
	})
}
