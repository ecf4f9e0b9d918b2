package admin

import (
	"fmt"
	"github.com/lbscope/lbscope/core/cluster"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

const fixtures = "../../testdata/admin/"

func readFixtures(t testing.TB, prefixes ...string) []Input {
	t.Helper()
	var in []Input
	for _, p := range prefixes {
		files, err := filepath.Glob(fixtures + p + "-*.txt")
		if err != nil || len(files) != 1 {
			t.Fatalf("fixture %s: %v %v", p, files, err)
		}
		data, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		in = append(in, Input{Name: filepath.Base(files[0]), Data: data})
	}
	return in
}

func codes(rep *Report) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Code)
	}
	return out
}

func TestEveryFixtureIsRead(t *testing.T) {
	files, err := filepath.Glob(fixtures + "*.txt")
	if err != nil || len(files) < 15 {
		t.Fatalf("fixtures: %d files, %v", len(files), err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rd := ReadAll([]Input{{Name: filepath.Base(f), Data: data}})
		if !rd.Recognised() {
			t.Errorf("%s: nothing recognised; notes %v", f, rd.Notes)
		}
		for _, n := range rd.Notes {
			if strings.HasPrefix(n.Text, "not recognised") {
				t.Errorf("%s: %s: %s", f, n.Ref, n.Text)
			}
		}
	}
}

func TestFixtureDetails(t *testing.T) {
	rd := ReadAll(readFixtures(t, "01"))
	if len(rd.Connections) != 6 || rd.Connections[0].ClientID != "172.17.32.214@cd21e6f5-648f-4f5a-9af2-cab2c5c194db" || rd.Connections[0].Ref.Line != 4 {
		t.Errorf("01: connections %+v", rd.Connections)
	}
	if !rd.Sections[len(rd.Sections)-1].Cut || rd.Sections[len(rd.Sections)-1].Layout != "3.x" {
		t.Errorf("01: want a cut 3.x section, got %+v", rd.Sections)
	}
	rd = ReadAll(readFixtures(t, "23"))
	if len(rd.Connections) != 9 || len(rd.GroupSubs) != 2 || rd.GroupSubs[1].Expr != "1||2||3||4 || 5 || -5||7 || 45" {
		t.Errorf("23: %d connections, subs %+v", len(rd.Connections), rd.GroupSubs)
	}
	if s := rd.Sections[len(rd.Sections)-1]; s.Layout != "4.0–4.9.2" {
		t.Errorf("23: layout %q", s.Layout)
	}
	rd = ReadAll(readFixtures(t, "16"))
	if len(rd.QueueCounts) != 1 || rd.QueueCounts[0] != (QueueCount{Ref: Ref{Input: "16-topicRoute.txt", Line: 13}, Topic: "TopicTest", Broker: "broker-a", Read: 4, Write: 4, Perm: 6}) {
		t.Errorf("16: %+v", rd.QueueCounts)
	}
	if len(rd.Brokers) != 2 || rd.Brokers[1].ID != 1 || rd.Brokers[1].Addr != "localhost:10912" {
		t.Errorf("16: brokers %+v", rd.Brokers)
	}
	rd = ReadAll(readFixtures(t, "09", "10"))
	if len(rd.RunningInfos) != 2 || len(rd.RunningInfos[0].Held) != 2 || len(rd.RunningInfos[1].Held) != 1 ||
		rd.RunningInfos[1].Held[0].Queue != (route.MessageQueue{Topic: "TP-FTEST-Normal", BrokerName: "POC-Broker-b", QueueID: 3}) {
		t.Errorf("09/10: %+v", rd.RunningInfos)
	}
	rd = ReadAll(readFixtures(t, "24"))
	if len(rd.Offsets) != 8 || len(rd.Brokers) != 1 {
		t.Errorf("24: %d offsets, brokers %+v", len(rd.Offsets), rd.Brokers)
	}
	rd = ReadAll(readFixtures(t, "21"))
	if len(rd.Offsets) != 18 || rd.Offsets[6].BrokerOffset != 1 || rd.Offsets[6].Inflight == nil || rd.Offsets[6].LastTime != "2026-06-07 02:44:59" {
		t.Errorf("21: %+v", rd.Offsets)
	}
}

// Group A of the fixtures' README: six unique ids, AVG, clustering, 24 queues on three
// brokers (from the thread): a healthy allocation.
func TestGroupA(t *testing.T) {
	rep, err := Diagnose(readFixtures(t, "01", "02"), Options{Queues: "broker-a:8,broker-b:8,broker-c:8"})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(rep); !slices.Equal(got, []string{CodeAllocationOK}) {
		t.Fatalf("codes %v; findings %+v", got, rep.Findings)
	}
	g := rep.Group
	if g.Name != "oms_thirdpush_consumer_ios" || len(g.Members) != 6 || g.Strategy != "AVG" || !strings.Contains(g.StrategySource, "02-consumerStatus-clientId.txt:9") || g.MessageModel != "CLUSTERING" {
		t.Errorf("group %+v", g)
	}
	owners := map[route.MessageQueue]int{}
	for _, as := range rep.Allocations[0].View.Assignments {
		if len(as.Queues) != 4 {
			t.Errorf("%s gets %d queues; want 4", as.ClientID, len(as.Queues))
		}
		for _, q := range as.Queues {
			owners[q]++
		}
	}
	if len(owners) != 24 {
		t.Errorf("%d queues owned; want 24", len(owners))
	}
	// No lag finding can be made without consumerProgress: it is listed as missing.
	found := false
	for _, m := range g.Missing {
		found = found || strings.Contains(m.Command, "consumerProgress -g oms_thirdpush_consumer_ios")
	}
	if !found {
		t.Errorf("missing %+v; want consumerProgress", g.Missing)
	}
	// Without --queues nothing can be allocated, and nothing is claimed.
	rep, _ = Diagnose(readFixtures(t, "01", "02"), Options{})
	if len(rep.Findings) != 0 {
		t.Errorf("without queues: findings %v", codes(rep))
	}
}

// Group B: one client on broker-a with 4 read and 4 write queues: healthy; it holds
// broker-a:0–3 and the retry queue.
func TestGroupB(t *testing.T) {
	rep, err := Diagnose(readFixtures(t, "16", "17", "18", "19", "20"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(rep); !slices.Equal(got, []string{CodeAllocationOK}) {
		t.Fatalf("codes %v; findings %+v", got, rep.Findings)
	}
	if rep.Group.Name != "please_rename_unique_group_name_4" {
		t.Errorf("group %q", rep.Group.Name)
	}
	var held []string
	for _, a := range rep.Allocations {
		for _, as := range a.View.Assignments {
			if as.ClientID != "192.168.1.104@14365" {
				t.Errorf("member %s", as.ClientID)
			}
			held = append(held, a.Topic+" "+route.Compact(as.Queues))
		}
	}
	want := []string{"TopicTest broker-a:0-3", "%RETRY%please_rename_unique_group_name_4 broker-a:0"}
	if !slices.Equal(held, want) {
		t.Errorf("held %q; want %q", held, want)
	}
}

func TestLoopbackFixture(t *testing.T) {
	rep, _ := Diagnose(readFixtures(t, "23"), Options{})
	var f *Finding
	for i := range rep.Findings {
		if rep.Findings[i].Code == CodeLoopbackClientIP {
			f = &rep.Findings[i]
		}
	}
	if f == nil || len(f.Evidence) != 9 || !strings.Contains(f.Title, "3 hosts") {
		t.Fatalf("findings %+v", rep.Findings)
	}
	if slices.Contains(codes(rep), CodeAllocationOK) {
		t.Error("allocation-ok without any queue count")
	}
}

func TestGRPCFixture(t *testing.T) {
	rep, _ := Diagnose(readFixtures(t, "21", "22"), Options{})
	if !slices.Contains(codes(rep), CodeGRPCConsumers) || rep.Group.Name != "BadConsumerGroup" {
		t.Fatalf("codes %v, group %q", codes(rep), rep.Group.Name)
	}
	for _, c := range codes(rep) {
		if c == CodeUnwrittenQueues || c == CodeAllocationOK {
			t.Errorf("finding %s from one message in eight queues", c)
		}
	}
}

func TestStallFixture(t *testing.T) {
	rep, _ := Diagnose(readFixtures(t, "03"), Options{})
	if !slices.Contains(codes(rep), CodeLagOnOwnedQueue) {
		t.Fatalf("codes %v", codes(rep))
	}
}

func conn(lines ...string) Input {
	return Input{Name: "conn.txt", Data: []byte("$ sh mqadmin consumerConnection -g G -n ns:9876\n" + strings.Join(lines, "\n") + "\n")}
}

// Two containers with the same IP and PID (apache/rocketmq#2760): the broker lists the id
// twice; each copy takes index 0's block and index 1's block is pulled by nobody (formats §8).
func TestDuplicateClientID(t *testing.T) {
	in := conn(
		"001  10.0.0.1@1                       10.0.0.1:50001         JAVA     V4_9_4",
		"002  10.0.0.1@1                       10.0.0.2:50002         JAVA     V4_9_4",
		"003  10.0.0.3@1                       10.0.0.3:50003         JAVA     V4_9_4",
		"", "Below is subscription:001  Topic: T                                        SubExpression: *",
		"ConsumeType: CONSUME_PASSIVELY", "MessageModel: CLUSTERING", "ConsumeFromWhere: CONSUME_FROM_LAST_OFFSET")
	rep, err := Diagnose([]Input{in}, Options{Queues: "broker-a:6"})
	if err != nil {
		t.Fatal(err)
	}
	got := codes(rep)
	if !slices.Contains(got, CodeDuplicateClientID) || !slices.Contains(got, CodeUnownedQueues) || slices.Contains(got, CodeAllocationOK) {
		t.Fatalf("codes %v", got)
	}
	a := rep.Allocations[0]
	if a.Topic != "T" || route.Compact(a.Orphans) != "broker-a:2-3" {
		t.Errorf("topic %s orphans %s; want T broker-a:2-3", a.Topic, route.Compact(a.Orphans))
	}
}

func TestMoreConsumersThanQueues(t *testing.T) {
	in := conn(
		"#ClientId                            #ClientAddr            #Language  #Version",
		"10.0.0.1@1                           10.0.0.1:1             JAVA       V5_3_2",
		"10.0.0.2@1                           10.0.0.2:1             JAVA       V5_3_2",
		"10.0.0.3@1                           10.0.0.3:1             JAVA       V5_3_2",
		"", "Below is subscription:", "#Topic               #SubExpression", "T                    *")
	rep, _ := Diagnose([]Input{in}, Options{Queues: "broker-a:2"})
	if !slices.Contains(codes(rep), CodeIdleConsumers) {
		t.Fatalf("codes %v", codes(rep))
	}
}

func TestMixedSDKUnderConsistentHash(t *testing.T) {
	in := conn(
		"001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4",
		"002  10.0.0.2@1  10.0.0.2:1  GO    V4_5_2",
		"", "Below is subscription:001  Topic: T SubExpression: *")
	rep, _ := Diagnose([]Input{in}, Options{Queues: "broker-a:8", Strategy: "CONSISTENT_HASH"})
	var sev string
	for _, f := range rep.Findings {
		if f.Code == CodeMixedSDK {
			sev = f.Severity
		}
	}
	if sev != "problem" || slices.Contains(codes(rep), CodeAllocationOK) {
		t.Fatalf("codes %v, mixed-sdk severity %q", codes(rep), sev)
	}
	// Each member computed with its own client (rocketmq-client-go#419): queues pulled twice
	// and one by nobody, as the Go ring and Java's disagree.
	var mixed *Allocation
	for i := range rep.Allocations {
		if rep.Allocations[i].Topic == "T" {
			mixed = &rep.Allocations[i]
		}
	}
	if mixed == nil || mixed.Clients == "" || len(mixed.Shared) == 0 || !slices.Contains(codes(rep), CodeDoubleOwnedQueues) {
		t.Fatalf("CONSISTENT_HASH: allocation %+v, codes %v", mixed, codes(rep))
	}
	rep, _ = Diagnose([]Input{in}, Options{Queues: "broker-a:8"})
	if !slices.Contains(codes(rep), CodeAllocationOK) || !slices.Contains(codes(rep), CodeMixedSDK) || slices.Contains(codes(rep), CodeDoubleOwnedQueues) {
		t.Fatalf("AVG: codes %v", codes(rep))
	}
}

func TestReadWriteMismatch(t *testing.T) {
	route := "$ mqadmin topicRoute -t T\n{\n\t\"brokerDatas\":[{\"brokerAddrs\":{0:\"a:1\"},\"brokerName\":\"broker-a\",\"cluster\":\"c\"}],\n" +
		"\t\"queueDatas\":[{\"brokerName\":\"broker-a\",\"perm\":6,\"readQueueNums\":8,\"topicSysFlag\":0,\"writeQueueNums\":4}]\n}\n"
	rep, _ := Diagnose([]Input{{Name: "route", Data: []byte(route)}}, Options{})
	if !slices.Contains(codes(rep), CodeReadWriteMismatch) {
		t.Fatalf("codes %v", codes(rep))
	}
}

// Without a route, topicStatus (write queues) and consumerProgress (read queues) listing
// different counts for one broker show the mismatch (formats §6).
func TestReadWriteMismatchFromRowCounts(t *testing.T) {
	var b strings.Builder
	b.WriteString("$ mqadmin topicStatus -t T\n#Broker Name                      #QID  #Min Offset           #Max Offset             #Last Updated\n")
	for i := range 4 {
		b.WriteString(fmt.Sprintf("%-32s  %-4d  %-20d  %-20d    %s\n", "broker-a", i, 0, 100, ""))
	}
	b.WriteString("$ mqadmin consumerProgress -g G\n#Topic                            #Broker Name                      #QID  #Broker Offset        #Consumer Offset      #Diff                #LastTime\n")
	for i := range 8 {
		b.WriteString(fmt.Sprintf("%-32s  %-32s  %-4d  %-20d  %-20d  %-20d  %s\n", "T", "broker-a", i, 100, 100, 0, "N/A"))
	}
	rep, _ := Diagnose([]Input{{Name: "paste", Data: []byte(b.String())}}, Options{})
	if !slices.Contains(codes(rep), CodeReadWriteMismatch) {
		t.Fatalf("codes %v", codes(rep))
	}
}

// The Dashboard's clientInfo is null also for the queues of a client it could not ask
// (dashboard-tables §5): a null proves a queue unowned only when every member is named on
// some queue.
func TestObservedUnownedFromDashboard(t *testing.T) {
	dash := `{"status":0,"data":[{"topic":"T","diffTotal":0,"queueStatInfoList":[` +
		`{"brokerName":"b","queueId":0,"brokerOffset":10,"consumerOffset":10,"clientInfo":"10.0.0.1@1","lastTimestamp":0},` +
		`{"brokerName":"b","queueId":1,"brokerOffset":10,"consumerOffset":10,"clientInfo":null,"lastTimestamp":0},` +
		`{"brokerName":"b","queueId":2,"brokerOffset":10,"consumerOffset":10,"clientInfo":%s,"lastTimestamp":0},` +
		`{"brokerName":"b","queueId":3,"brokerOffset":10,"consumerOffset":10,"clientInfo":%[1]s,"lastTimestamp":0}]}],"errMsg":null}`
	members := conn("001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4", "002  10.0.0.2@1  10.0.0.2:1  JAVA  V4_9_4")
	rep, _ := Diagnose([]Input{{Name: "dash.json", Data: []byte(fmt.Sprintf(dash, `"10.0.0.2@1"`))}, members}, Options{Topic: "T"})
	if !slices.Contains(codes(rep), CodeUnownedQueues) {
		t.Fatalf("every member named: codes %v", codes(rep))
	}
	rep, _ = Diagnose([]Input{{Name: "dash.json", Data: []byte(fmt.Sprintf(dash, `null`))}, members}, Options{Topic: "T"})
	if slices.Contains(codes(rep), CodeUnownedQueues) {
		t.Fatalf("10.0.0.2@1 named nowhere: codes %v", codes(rep))
	}
	if m := rep.Group.Missing[len(rep.Group.Missing)-1]; m.Said.Key != "missing.dashboard-owner" || m.Said.Args[0] != 3 {
		t.Errorf("missing %+v", rep.Group.Missing)
	}
}

// Two members whose running info both hold broker-a:1: the queue is consumed twice.
func TestObservedDoubleOwner(t *testing.T) {
	ri := func(id string, qids ...int) string {
		var b strings.Builder
		b.WriteString("$ mqadmin consumerStatus -g G -i " + id + "\n#Consumer Properties#\nconsumerGroup                           : G\n\n\n#Consumer MQ Detail#\n")
		for _, q := range qids {
			b.WriteString(fmt.Sprintf("%-64s  %-32s  %-4d  ProcessQueueInfo [commitOffset=5, cachedMsgCount=0, droped=false]\n", "T", "broker-a", q))
		}
		return b.String()
	}
	paste := conn("001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4", "002  10.0.0.2@1  10.0.0.2:1  JAVA  V4_9_4", "", "Below is subscription:001  Topic: T SubExpression: *")
	paste.Data = append(paste.Data, []byte(ri("10.0.0.1@1", 0, 1)+ri("10.0.0.2@1", 1, 2, 3))...)
	rep, _ := Diagnose([]Input{paste}, Options{Queues: "broker-a:4"})
	var f *Finding
	for i := range rep.Findings {
		if rep.Findings[i].Code == CodeDoubleOwnedQueues {
			f = &rep.Findings[i]
		}
	}
	if f == nil || len(f.Evidence) != 2 || !strings.Contains(f.Evidence[0].Text, "broker-a:1") {
		t.Fatalf("codes %v, finding %+v", codes(rep), f)
	}
	disagree := 0
	for _, q := range rep.Queues {
		if q.Agrees != nil && !*q.Agrees {
			disagree++
		}
	}
	if disagree == 0 {
		t.Error("observed and expected agree although broker-a:1 has two owners")
	}
}

func TestSubscriptionMismatch(t *testing.T) {
	ri := func(id, topic string) string {
		return "$ mqadmin consumerStatus -g G -i " + id + "\n#Consumer Properties#\nconsumerGroup                           : G\n\n\n#Consumer Subscription#\n" +
			"001 Topic: " + topic + "                                        ClassFilter: false    SubExpression: *\n"
	}
	rep, _ := Diagnose([]Input{{Name: "a", Data: []byte(ri("10.0.0.1@1", "T1") + ri("10.0.0.2@1", "T2"))}}, Options{})
	if !slices.Contains(codes(rep), CodeSubscriptionMismat) {
		t.Fatalf("codes %v", codes(rep))
	}
}

func TestGoLogLine(t *testing.T) {
	line := `time="2021-02-13T13:38:37+08:00" level=warning msg="[BUG] ConsumerId not in cidAll" cidAll="[192.168.43.3@4424 192.168.43.3@4451]" consumerGroup=go_client_dev_2 consumerId=192.168.43.3@4479`
	rep, _ := Diagnose([]Input{{Name: "go.log", Data: []byte(line + "\n")}}, Options{})
	if len(rep.Read.GoLogs) != 1 || len(rep.Group.Members) != 2 || rep.Group.Name != "go_client_dev_2" || !slices.Contains(codes(rep), CodeIdleConsumers) {
		t.Fatalf("go log %+v, members %+v, codes %v", rep.Read.GoLogs, rep.Group.Members, codes(rep))
	}
}

func TestBadInput(t *testing.T) {
	big := make([]byte, 10<<20)
	for i := range big {
		big[i] = 'a'
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"binary", []byte("\x7fELF\x02\x01\x01\x00\x00\x00"), "NUL byte"},
		{"random bytes", []byte{0xff, 0xfe, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86}, "invalid or control bytes"},
		{"10 MB", big, "limit is 4 MiB"},
	}
	for _, c := range cases {
		rd := ReadAll([]Input{{Name: c.name, Data: c.data}})
		if rd.Recognised() || !strings.Contains(rd.Inputs[0].Error, c.want) {
			t.Errorf("%s: error %q; want %q", c.name, rd.Inputs[0].Error, c.want)
		}
	}
	// Deeply nested JSON: cut at the depth limit, with a note.
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	rd := ReadAll([]Input{{Name: "deep", Data: []byte(deep)}})
	if !hasNote(rd, "nested deeper than 64") {
		t.Errorf("deep: notes %v", rd.Notes)
	}
	// Closers without openers, many of them.
	rd = ReadAll([]Input{{Name: "closers", Data: []byte("\"a\": 1" + strings.Repeat("}", 100000))}})
	if !hasNote(rd, "closes more than 64 levels") {
		t.Errorf("closers: notes %v", rd.Notes)
	}
	// One format in the middle of another: both are read.
	mixed := "001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4\n" +
		`{"brokerDatas":[],"queueDatas":[{"brokerName":"b","perm":6,"readQueueNums":4,"writeQueueNums":4}]}` + "\n" +
		"002  10.0.0.2@1  10.0.0.2:1  JAVA  V4_9_4\n"
	rd = ReadAll([]Input{{Name: "mixed", Data: []byte(mixed)}})
	if len(rd.Connections) != 2 || len(rd.QueueCounts) != 1 {
		t.Errorf("mixed: %d connections, %d queue counts", len(rd.Connections), len(rd.QueueCounts))
	}
	// Many small documents, one after another: each is read (and the reader stays linear).
	blocks := strings.Repeat(`{"offsetTable":{{"brokerName":"b","queueId":0,"topic":"t"}:{"brokerOffset":1,"consumerOffset":1}}}`+"\n", 20000)
	rd = ReadAll([]Input{{Name: "blocks", Data: []byte(blocks)}})
	if len(rd.Sections) != 20000 || len(rd.Offsets) != 20000 {
		t.Errorf("blocks: %d sections, %d offsets; want 20000", len(rd.Sections), len(rd.Offsets))
	}
	// consumerStatus of 4.0–4.1 failing on a retry queue: said, and the rows before it kept.
	rd = ReadAll([]Input{{Name: "status", Data: []byte("001  10.0.0.1@1                               V4_1_0               1/10.0.0.1@1\n" +
		"Exception in thread \"main\" java.util.UnknownFormatConversionException: Conversion = 'R'\n")}})
	if len(rd.StatusClients) != 1 || !hasNote(rd, "ROCKETMQ-291") {
		t.Errorf("4.1 status: %+v, notes %v", rd.StatusClients, rd.Notes)
	}
	// Nothing recognisable.
	rd = ReadAll([]Input{{Name: "prose", Data: []byte("hello\nworld\n")}})
	if rd.Recognised() {
		t.Error("prose recognised")
	}
	// Many JSON values: bounded.
	many := "[" + strings.Repeat("1,", MaxJSONValues) + "1]"
	rd = ReadAll([]Input{{Name: "many", Data: []byte(many)}})
	if !hasNote(rd, "more than 200000 JSON values") {
		t.Errorf("many: notes %v", rd.Notes[:min(3, len(rd.Notes))])
	}
}

func hasNote(rd *Read, s string) bool {
	for _, n := range rd.Notes {
		if strings.Contains(n.Text, s) {
			return true
		}
	}
	return false
}

func TestEscape(t *testing.T) {
	if got := Escape("a\x1b[31mb\x07\n\u202e"); got != `a\x1b[31mb\x07`+"\n"+`\xe2\x80\xae` {
		t.Errorf("Escape: %q", got)
	}
	if Escape("plain 中文") != "plain 中文" {
		t.Error("Escape changed printable text")
	}
}

func TestScenarioOfGroup(t *testing.T) {
	in := conn(
		"001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4",
		"002  10.0.0.1@1  10.0.0.2:1  JAVA  V4_9_4",
		"003  10.0.0.3@1  10.0.0.3:1  JAVA  V4_9_4",
		"", "Below is subscription:001  Topic: Orders SubExpression: *")
	rep, _ := Diagnose([]Input{in}, Options{Queues: "broker-a:4,broker-b:4"})
	s, left, err := rep.Group.Scenario()
	if err != nil {
		t.Fatal(err)
	}
	if s.Topic != "Orders" || len(s.Brokers) != 2 || len(s.Consumers) != 2 || len(s.Timeline) != 2 || s.Timeline[1].Type != "restartConsumer" {
		t.Errorf("scenario %+v", s)
	}
	if !slices.ContainsFunc(left, func(l string) bool { return strings.Contains(l, "%RETRY%G") }) {
		t.Errorf("left out %q; want the retry topic", left)
	}
	// The duplicated id stays duplicated when its copy restarts: its instance name is fixed.
	for _, c := range s.Consumers {
		if want := c.ID == "10.0.0.1@1"; c.FixedInstanceName != want {
			t.Errorf("%s: fixedInstanceName %v, want %v", c.ID, c.FixedInstanceName, want)
		}
	}
	c, err := cluster.New(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range s.Timeline {
		c.Advance(int64(st.At) - c.Now())
		if err := c.Apply(st.Command); err != nil {
			t.Fatal(err)
		}
	}
	c.Advance(5000)
	ids := 0
	for _, cs := range c.Snapshot().Consumers {
		if cs.ID == "10.0.0.1@1" && cs.ClientID == "10.0.0.1@1" {
			ids++
		}
	}
	if ids != 1 {
		t.Errorf("the restarted copy of 10.0.0.1@1 has another client id (%d consumers keep it)", ids)
	}
}

// A member's connection line names its SDK and version: the scenario runs each member under
// the profile its client is (spec §9) — Go as go-2.1.2, a Java 4.9 release as java-4.9, a
// current Java release as the default — and names a language it has no profile for.
func TestScenarioRunsEachMembersClient(t *testing.T) {
	in := conn(
		"001  10.0.0.1@1  10.0.0.1:1  GO    V4_5_2",
		"002  10.0.0.2@1  10.0.0.2:1  JAVA  V4_9_4",
		"003  10.0.0.3@1  10.0.0.3:1  JAVA  V5_3_2",
		"004  10.0.0.4@1  10.0.0.4:1  CPP   V4_5_2",
		"", "Below is subscription:001  Topic: Orders SubExpression: *")
	rep, _ := Diagnose([]Input{in}, Options{Queues: "broker-a:4,broker-b:4"})
	s, left, err := rep.Group.Scenario()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range s.Consumers {
		got[c.ID] = c.Client
	}
	want := map[string]string{"10.0.0.1@1": "go-2.1.2", "10.0.0.2@1": "java-4.9", "10.0.0.3@1": "", "10.0.0.4@1": ""}
	if !maps.Equal(got, want) {
		t.Errorf("clients %v; want %v", got, want)
	}
	if !slices.ContainsFunc(left, func(l string) bool { return strings.Contains(l, "CPP members") }) {
		t.Errorf("left out %q; want the CPP members' client", left)
	}
	if slices.ContainsFunc(left, func(l string) bool { return strings.Contains(l, "GO members") }) {
		t.Errorf("left out %q; the Go members run their own profile", left)
	}
}

func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob(fixtures + "*.txt")
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"a":{{"brokerName":"b","queueId":1,"topic":"t"}:{"commitOffset":1}}}`))
	f.Add([]byte("}]}\"x\": [1,"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep, err := Diagnose([]Input{{Name: "fuzz", Data: data}}, Options{Queues: "broker-a:4"})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range rep.Read.Sections {
			if s.From < 1 || s.To < s.From {
				t.Fatalf("section %+v", s)
			}
		}
	})
}

// consumerProgress without -g cuts group names at its column (fixture 19: 32 characters). A
// name read only there is reported as maybe cut, and no follow-up command is spelt with it;
// a paste that gives the whole name too, or --group, makes it whole.
func TestCutGroupName(t *testing.T) {
	const cut = "please_rename_unique_group_name_"
	rep, err := Diagnose(readFixtures(t, "19"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Group
	if g.Name != cut || g.NameCut != 32 {
		t.Fatalf("group %q cut at %d; want %q cut at 32", g.Name, g.NameCut, cut)
	}
	if len(g.Missing) == 0 || g.Missing[0].Said.Key != "missing.full-group" || g.Missing[0].Command != "" {
		t.Fatalf("missing %+v: the full name should be asked for first, with no command", g.Missing)
	}
	if !strings.Contains(g.Missing[0].What, cut+" is 32 characters long") || !strings.Contains(g.Missing[0].What, "pass --group") {
		t.Errorf("what: %q", g.Missing[0].What)
	}
	for _, m := range g.Missing {
		if strings.Contains(m.Command, cut) {
			t.Errorf("%q suggests the cut name as complete", m.Command)
		}
	}
	if !strings.Contains(g.Missing[1].Command, "consumerConnection -g <full group name>") {
		t.Errorf("members: %q", g.Missing[1].Command)
	}

	// The whole name from another output, or from --group: nothing is cut.
	for _, c := range []struct {
		name string
		in   []Input
		opts Options
	}{
		{"with consumerStatus", readFixtures(t, "19", "20"), Options{}},
		{"with --group", readFixtures(t, "19"), Options{Group: cut + "4"}},
	} {
		rep, err := Diagnose(c.in, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if g := rep.Group; g.Name != cut+"4" || g.NameCut != 0 {
			t.Errorf("%s: group %q cut at %d", c.name, g.Name, g.NameCut)
		}
		for _, m := range rep.Group.Missing {
			if m.Said.Key == "missing.full-group" || strings.Contains(m.Command, "<full group name>") {
				t.Errorf("%s: %+v", c.name, m)
			}
		}
	}

	// A name shorter than the column is whole, one exactly as long may be cut: 32 up to 4.9.2,
	// 64 from 4.9.3 (where a 32-character name is whole); a header whose spaces were
	// collapsed leaves both widths possible.
	header32 := "#Group                            #Count  #Version                 #Type  #Model          #TPS     #Diff Total\n"
	header64 := "#Group" + strings.Repeat(" ", 60) + "#Count  #Version                 #Type  #Model          #TPS     #Diff Total\n"
	collapsed := "#Group #Count #Version #Type #Model #TPS #Diff Total\n"
	for _, c := range []struct {
		header, group string
		cut           int
	}{
		{header32, "short_group", 0}, {header32, strings.Repeat("g", 32), 32}, {header32, strings.Repeat("g", 64), 0},
		{header64, strings.Repeat("g", 32), 0}, {header64, strings.Repeat("g", 64), 64},
		{collapsed, strings.Repeat("g", 32), 32}, {collapsed, strings.Repeat("g", 64), 64}, {collapsed, "short_group", 0},
	} {
		paste := c.header + c.group + "  1       V4_9_4                   PUSH   CLUSTERING      0        0\n"
		rep, err := Diagnose([]Input{{Name: "p", Data: []byte(paste)}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Group.Name != c.group || rep.Group.NameCut != c.cut {
			t.Errorf("%q after %q: read %q cut at %d; want cut at %d", c.group, c.header, rep.Group.Name, rep.Group.NameCut, c.cut)
		}
	}
}

// A topic name only consumerProgress rows give, as long as their column, may be cut too.
func TestCutTopicName(t *testing.T) {
	topic := strings.Repeat("T", 64)
	paste := "#Topic                                                            #Broker Name                      #QID  #Broker Offset        #Consumer Offset      #Diff                #LastTime\n"
	for i := range 2 {
		paste += fmt.Sprintf("%s  broker-a                          %d     10                    10                    0                    N/A\n", topic, i)
	}
	rep, err := Diagnose([]Input{{Name: "p", Data: []byte("$ mqadmin consumerProgress -g G\n" + paste)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var cut []string
	for _, tp := range rep.Group.Topics {
		if tp.NameCut > 0 {
			cut = append(cut, fmt.Sprintf("%s@%d", tp.Name, tp.NameCut))
		}
	}
	if !slices.Equal(cut, []string{topic + "@64"}) {
		t.Errorf("cut topics %q", cut)
	}
	found := false
	for _, m := range rep.Group.Missing {
		found = found || m.Said.Key == "missing.full-topic"
	}
	if !found {
		t.Errorf("missing %+v: no word of the topic's full name", rep.Group.Missing)
	}
}

// Every place a topic's queues or the group's members are read from is a sentence a reader
// can word in its own language: none is left as a bare English string.
func TestSourcesAreSentences(t *testing.T) {
	files, _ := filepath.Glob(fixtures + "*.txt")
	var all []Input
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, Input{Name: filepath.Base(f), Data: data})
	}
	seen := map[string]bool{}
	for _, c := range []struct {
		in   []Input
		opts Options
	}{
		{all, Options{}},
		{readFixtures(t, "01"), Options{Queues: "broker-a:8"}},
		{readFixtures(t, "20"), Options{Queues: "broker-a:4"}},
		{readFixtures(t, "09"), Options{}},
		{[]Input{{Name: "go", Data: []byte("2020-01-01 [BUG] ConsumerId not in cidAll, group=G consumerId=10.0.0.1@1 cidAll=[10.0.0.2@1]\n")}}, Options{}},
	} {
		for _, in := range c.in {
			rep, err := Diagnose([]Input{in}, c.opts)
			if err != nil {
				continue
			}
			g := rep.Group
			for _, src := range append([]string{g.MembersSource}, func() (out []string) {
				for _, tp := range g.Topics {
					out = append(out, tp.Source)
				}
				return
			}()...) {
				if src == "" {
					continue
				}
				seen[src] = true
				if _, ok := sourceSaid(src).(Said); !ok {
					t.Errorf("%s: the source %q has no words", in.Name, src)
				}
			}
		}
	}
	if len(seen) < 5 {
		t.Errorf("only %d sources seen: %q", len(seen), slices.Sorted(maps.Keys(seen)))
	}
}

// BenchmarkDiagnoseManyMembers diagnoses a consumerConnection of 40,000 members (a 4 MiB
// paste): the work per member must stay constant, not grow with the group.
func BenchmarkDiagnoseManyMembers(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("#ClientId             #ClientAddr           #Language  #Version\n")
	for i := range 40000 {
		fmt.Fprintf(&sb, "10.0.%d.%d@%d      10.0.%d.%d:%d     JAVA       V4_9_4\n", i>>8&255, i&255, 1000+i, i>>8&255, i&255, 40000+i%20000)
	}
	in := []Input{{Name: "connection.txt", Data: []byte(sb.String())}}
	for b.Loop() {
		if _, err := Diagnose(in, Options{Queues: "broker-a:8"}); err != nil {
			b.Fatal(err)
		}
	}
}
