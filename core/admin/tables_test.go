package admin

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

const tables = "testdata/tables/"

func readTables(t *testing.T, names ...string) []Input {
	t.Helper()
	var out []Input
	for _, n := range names {
		data, err := os.ReadFile(tables + n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Input{Name: n, Data: data})
	}
	return out
}

func kinds(rd *Read) []string {
	var out []string
	for _, s := range rd.Sections {
		k := s.Kind
		if s.Layout != "" {
			k += " (" + s.Layout + ")"
		}
		if s.Cut {
			k += " cut"
		}
		out = append(out, k)
	}
	return out
}

func notesOf(rd *Read) string {
	var b strings.Builder
	for _, n := range rd.Notes {
		b.WriteString(n.Ref.String() + " " + n.Text + "\n")
	}
	return b.String()
}

const group4 = "please_rename_unique_group_name_4"

// Every table of the reference, each in the shape and language of its file, is read into the
// records the diagnosis uses, with the meaning its generation gives the cells.
func TestDashboardTables(t *testing.T) {
	dupConns := func(t *testing.T, rd *Read, version string) {
		t.Helper()
		var ids []string
		for _, c := range rd.Connections {
			if c.Group != group4 || c.Language != "JAVA" || c.Version != version || !strings.Contains(c.Addr, ":") {
				t.Errorf("connection %+v", c)
			}
			ids = append(ids, c.ClientID)
		}
		if !slices.Equal(ids, []string{"172.17.0.1@1", "172.17.0.1@1", "172.17.0.7@1"}) {
			t.Errorf("client ids %q; want both rows of the shared id", ids)
		}
		if len(rd.GroupSubs) == 0 || rd.GroupSubs[0].Topic != "TopicTest" || rd.GroupSubs[0].Expr != "*" || rd.GroupSubs[0].Group != group4 {
			t.Errorf("subscriptions %+v", rd.GroupSubs)
		}
		settings := map[string]string{}
		for _, s := range rd.Settings {
			settings[s.Name] = s.Value
		}
		if settings["ConsumeType"] != "CONSUME_PASSIVELY" || settings["MessageModel"] != "CLUSTERING" || settings["ConsumeFromWhere"] != "CONSUME_FROM_LAST_OFFSET" {
			t.Errorf("settings %v", settings)
		}
	}
	detail := func(t *testing.T, rd *Read) {
		t.Helper()
		owners := map[int32]string{}
		for _, o := range rd.Offsets {
			if o.Queue.Topic != "TopicTest" {
				continue
			}
			if o.Group != group4 || !o.Dashboard || !o.FullClient || !o.HasClient || o.BrokerOffset != 1000 {
				t.Errorf("offset %+v", o)
			}
			owners[o.Queue.QueueID] = o.Client
		}
		if len(owners) != 8 || owners[0] != "172.17.0.1@1" || owners[3] != "" || owners[7] != "172.17.0.7@1" {
			t.Errorf("owners %v", owners)
		}
	}
	cases := []struct {
		file  string
		kinds []string
		check func(t *testing.T, rd *Read)
	}{
		{"client-angular-en-tabs.txt", []string{KindDashClient + " (AngularJS, tabs)", KindDashClient + " (AngularJS, tabs)"},
			func(t *testing.T, rd *Read) {
				dupConns(t, rd, "V4_9_4")
				if len(rd.GroupSubs) != 2 || rd.GroupSubs[1].Topic != "%RETRY%"+group4 {
					t.Errorf("subscriptions %+v", rd.GroupSubs)
				}
			}},
		{"client-angular-zh-github.txt", []string{KindDashClient + " (AngularJS, GitHub table)", KindDashClient + " (AngularJS, GitHub table)"},
			func(t *testing.T, rd *Read) { dupConns(t, rd, "V4_9_4") }},
		{"client-react-en-tabs.txt", []string{KindDashClient + " (React 2.1.0, tabs)", KindDashClient + " (React 2.1.0, tabs)"},
			func(t *testing.T, rd *Read) { dupConns(t, rd, "V5_3_3") }},
		{"client-react-zh-github.txt", []string{KindDashClient + " (React 2.1.0, GitHub table)", KindDashClient + " (React 2.1.0, GitHub table)"},
			func(t *testing.T, rd *Read) { dupConns(t, rd, "V5_3_3") }},
		{"client-cut-row.txt", []string{KindDashClient + " (AngularJS, tabs) cut"}, func(t *testing.T, rd *Read) {
			if len(rd.Connections) != 1 || !strings.Contains(notesOf(rd), "client-cut-row.txt:4 the paste ends inside this row (2 of 4 cells)") {
				t.Errorf("connections %+v, notes %s", rd.Connections, notesOf(rd))
			}
		}},
		{"detail-angular-en-tabs.txt", []string{KindDashDetail + " (AngularJS, tabs)", KindDashDetail + " (AngularJS, tabs)"},
			func(t *testing.T, rd *Read) {
				detail(t, rd)
				if o := rd.Offsets[0]; o.Queue.Topic != "%RETRY%"+group4 || o.LastTime != "" {
					t.Errorf("retry row %+v: the topic of the label row above it, N/A as no time", o)
				}
			}},
		{"detail-angular-zh-github.txt", []string{KindDashDetail + " (AngularJS, GitHub table)"}, detail},
		{"detail-react-en-tabs.txt", []string{KindDashDetail + " (React 2.1.0, tabs)"}, func(t *testing.T, rd *Read) {
			detail(t, rd)
			if o := rd.Offsets[3]; o.ConsumerOffset != 500 || o.LastTime != "5/6/2024, 9:40:02 AM" {
				t.Errorf("row %+v: 1,000 and an empty Lag (Diff) read as React prints them", o)
			}
		}},
		{"manage-angular-zh-github.txt", []string{KindDashManage + " (GitHub table)"}, func(t *testing.T, rd *Read) {
			if len(rd.Offsets) != 4 || rd.Offsets[2].Client != "" || rd.Offsets[2].LastTime != "" || rd.Offsets[3].Client != "172.17.0.7@1" {
				t.Errorf("offsets %+v", rd.Offsets)
			}
			for _, o := range rd.Offsets {
				if o.Group != group4 || o.Queue.Topic != "TopicTest" {
					t.Errorf("offset %+v: group of the label row, topic of the title", o)
				}
			}
		}},
		{"manage-react-en-tabs.txt", []string{KindDashManage + " (tabs)", KindDashManage + " (tabs)"}, func(t *testing.T, rd *Read) {
			if len(rd.Offsets) != 3 || rd.Offsets[1].Group != group4 || rd.Offsets[1].Queue.Topic != "TopicTest" || rd.Offsets[1].LastTime != "" ||
				rd.Offsets[2].Group != "G2" || rd.Offsets[2].Queue.Topic != "TopicTest" {
				t.Errorf("offsets %+v: each group's row names the group of the queues under it", rd.Offsets)
			}
		}},
		{"status-en-pipes.txt", []string{KindDashStatus + " (pipes)"}, func(t *testing.T, rd *Read) {
			want := route.MessageQueue{Topic: "TopicTest", BrokerName: "broker-a", QueueID: 1}
			if len(rd.TopicQueues) != 3 || rd.TopicQueues[0].Queue != want || rd.TopicQueues[0].MaxOffset != 1000 || rd.TopicQueues[2].LastUpdated != "" {
				t.Errorf("topic queues %+v", rd.TopicQueues)
			}
		}},
		{"status-zh-tabs.txt", []string{KindDashStatus + " (tabs)"}, func(t *testing.T, rd *Read) {
			if len(rd.TopicQueues) != 2 || rd.TopicQueues[1].Queue.QueueID != 1 {
				t.Errorf("topic queues %+v", rd.TopicQueues)
			}
		}},
		{"router-angular-en-tabs.txt", []string{KindDashRouter + " (AngularJS)"}, func(t *testing.T, rd *Read) {
			if len(rd.Brokers) != 2 || rd.Brokers[1] != (BrokerAddr{Ref: rd.Brokers[1].Ref, Broker: "broker-a", ID: 1, Addr: "192.168.0.2:10911"}) {
				t.Errorf("brokers %+v", rd.Brokers)
			}
			if len(rd.QueueCounts) != 1 || rd.QueueCounts[0].Topic != "TopicTest" || rd.QueueCounts[0].Read != 8 || rd.QueueCounts[0].Write != 4 || rd.QueueCounts[0].Perm != 6 {
				t.Errorf("queue counts %+v", rd.QueueCounts)
			}
		}},
		{"router-react-zh-github.txt", []string{KindDashRouter + " (React 2.1.0, GitHub table)", KindDashRouter + " (React 2.1.0, GitHub table)"},
			func(t *testing.T, rd *Read) {
				if len(rd.Brokers) != 2 || rd.Brokers[0].Addr != "192.168.0.1:10911" || len(rd.QueueCounts) != 1 || rd.QueueCounts[0].Read != 8 {
					t.Errorf("brokers %+v, counts %+v", rd.Brokers, rd.QueueCounts)
				}
			}},
		{"cluster-react-en-tabs.txt", []string{KindDashCluster + " (React 2.1.0, tabs)"}, func(t *testing.T, rd *Read) {
			if len(rd.Brokers) != 2 || rd.Brokers[0].ID != 0 || rd.Brokers[1].ID != 1 || rd.Brokers[1].Version != "V5_3_3" {
				t.Errorf("brokers %+v: 0(undefined) is the master", rd.Brokers)
			}
		}},
		{"cluster-angular-zh-pipes.txt", []string{KindDashCluster + " (pipes)"}, func(t *testing.T, rd *Read) {
			if len(rd.Brokers) != 2 || rd.Brokers[1].Addr != "192.168.0.2:10911" || rd.Brokers[1].ID != 1 {
				t.Errorf("brokers %+v", rd.Brokers)
			}
		}},
		{"list-react-zh-tabs.txt", []string{KindDashList + " (React 2.1.0 or master 2025, tabs)"}, func(t *testing.T, rd *Read) {
			want := GroupSummary{Ref: rd.Summaries[0].Ref, Group: "default%consumerA", Count: 2, Version: "V4_5_2", Type: "PUSH", Model: "CLUSTERING", DiffTotal: 1, Dashboard: true, HasDelay: true}
			if len(rd.Summaries) != 2 || rd.Summaries[0] != want || rd.Summaries[1].Group != "consumerB" || rd.Summaries[1].Count != 0 {
				t.Errorf("summaries %+v", rd.Summaries)
			}
		}},
		{"list-angular-en-github.txt", []string{KindDashList + " (GitHub table)"}, func(t *testing.T, rd *Read) {
			if len(rd.Summaries) != 2 || rd.Summaries[0].DiffTotal != 20509 || rd.Summaries[0].Count != 2 || rd.Summaries[1].Group != "TOOLS_CONSUMER" ||
				rd.Summaries[1].DiffTotal != -1 || rd.Summaries[1].Version != "" {
				t.Errorf("summaries %+v", rd.Summaries)
			}
		}},
		{"content-no-header-angular.txt", []string{KindTable + " (tabs)"}, func(t *testing.T, rd *Read) {
			if len(rd.Offsets) != 2 || rd.Offsets[0].ConsumerOffset != 990 || rd.Offsets[0].Client != "172.17.0.1@1" ||
				rd.Offsets[1].Client != "" || rd.Offsets[1].BrokerOffset != 1000 || rd.Offsets[1].ConsumerOffset != 500 {
				t.Errorf("offsets %+v", rd.Offsets)
			}
		}},
		{"broker-status-react-zh-tabs.txt", []string{KindDashBroker + " (tabs)"}, func(t *testing.T, rd *Read) {
			if len(rd.BrokerValues) != 3 || rd.BrokerValues[0].Name != "brokerVersionDesc" || rd.BrokerValues[0].Value != "V5_3_3" {
				t.Errorf("values %+v", rd.BrokerValues)
			}
		}},
		// Deliver 2: no header, or one that is no Dashboard's: the cells say what they are.
		{"content-made-up-header.txt", []string{KindTable + " (pipes)"}, func(t *testing.T, rd *Read) {
			if len(rd.Connections) != 2 || rd.Connections[0].Version != "V4_5_2" || rd.Connections[1].Version != "V3_2_6" ||
				rd.Connections[1].ClientID != "10.0.0.6@26917#5261547777682927" {
				t.Errorf("connections %+v: raw versions 317 and 79 by MQVersion's order", rd.Connections)
			}
			if n := notesOf(rd); !strings.Contains(n, "content-made-up-header.txt:3 the columns of this table are guessed from their content (line 3): 1 ClientId, 2 Address, 3 Language, 4 Version") {
				t.Errorf("notes:\n%s", n)
			}
		}},
		{"content-no-header.txt", []string{KindTable + " (tabs)"}, func(t *testing.T, rd *Read) {
			if len(rd.Offsets) != 2 || rd.Offsets[0].ConsumerOffset != 990 || rd.Offsets[0].Client != "10.0.0.5@4012" || rd.Offsets[1].Queue.QueueID != 1 {
				t.Errorf("offsets %+v", rd.Offsets)
			}
			n := notesOf(rd)
			if !strings.Contains(n, "1 Broker, 2 Queue, 3 brokerOffset, 4 consumerOffset, 6 consumerClient, 7 time") || !strings.Contains(n, "name no topic") {
				t.Errorf("notes:\n%s", n)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			rd := ReadAll(readTables(t, c.file))
			if got := kinds(rd); !slices.Equal(got, c.kinds) {
				t.Errorf("sections %q; want %q\nnotes:\n%s", got, c.kinds, notesOf(rd))
			}
			c.check(t, rd)
		})
	}
}

// The real pastes of the reference's §9, verbatim, read as an expert reads them.
func TestDashboardRealPastes(t *testing.T) {
	t.Run("9.1 cluster page", func(t *testing.T) {
		rd := ReadAll(readTables(t, "real-9.1-cluster-externals685.txt"))
		if got := kinds(rd); !slices.Equal(got, []string{KindDashCluster + " (console–dashboard 1.0.0, GitHub table)"}) {
			t.Errorf("sections %q", got)
		}
		var got []string
		for _, b := range rd.Brokers {
			got = append(got, b.Broker+" "+b.Addr+" "+string(rune('0'+b.ID))+" "+b.Version)
		}
		want := []string{"dstable-broker-002 192.168.31.23:10911 0 V4_7_1", "dstable-broker-002 192.168.31.19:10915 1 V4_7_1",
			"dstable-broker-001 192.168.31.19:10911 0 V4_7_1", "dstable-broker-001 192.168.31.23:10915 1 V4_7_1"}
		if !slices.Equal(got, want) {
			t.Errorf("brokers %q", got)
		}
	})
	t.Run("9.2 cluster row", func(t *testing.T) {
		rd := ReadAll(readTables(t, "real-9.2-cluster-row-clientgo601.txt"))
		if len(rd.Brokers) != 1 || rd.Brokers[0].Broker != "broker-a" || rd.Brokers[0].Version != "V4_8_0" || rd.Brokers[0].Addr != "x.x.x.x.:10911" {
			t.Errorf("brokers %+v", rd.Brokers)
		}
	})
	t.Run("9.3 broker status", func(t *testing.T) {
		rd := ReadAll(readTables(t, "real-9.3-broker-status-clientgo601.txt"))
		if got := kinds(rd); !slices.Equal(got, []string{KindDashBroker + " (GitHub table) cut"}) {
			t.Errorf("sections %q", got)
		}
		v := map[string]string{}
		for _, kv := range rd.BrokerValues {
			v[kv.Name] = kv.Value
		}
		if len(rd.BrokerValues) != 26 || v["msgPutTotalTodayNow"] != "928" || v["brokerVersionDesc"] != "V4_8_0" || v["getFoundTps"] != "0.0 0.0 0.0" {
			t.Errorf("%d values: %v", len(rd.BrokerValues), v)
		}
		if !strings.Contains(notesOf(rd), ":27 the paste ends inside this line") {
			t.Errorf("notes:\n%s", notesOf(rd))
		}
	})
	t.Run("9.5 consumer list row", func(t *testing.T) {
		rd := ReadAll(readTables(t, "real-9.5-consumer-list-rocketmq3323.txt"))
		if len(rd.Summaries) != 1 {
			t.Fatalf("summaries %+v\nnotes:\n%s", rd.Summaries, notesOf(rd))
		}
		want := GroupSummary{Ref: Ref{Input: "real-9.5-consumer-list-rocketmq3323.txt", Line: 4}, Group: "default%consumerA", Count: 1,
			Version: "V4_5_2", Type: "PUSH", Model: "CLUSTERING", DiffTotal: 1, Dashboard: true, HasDelay: true}
		if rd.Summaries[0] != want {
			t.Errorf("summary %+v", rd.Summaries[0])
		}
		n := notesOf(rd)
		for _, s := range []string{":1 skipped: <html>", ":4 the columns of this table are guessed from their content (line 4)",
			":13 a message's track (message detail page): group default%consumerA is NOT_ONLINE"} {
			if !strings.Contains(n, s) {
				t.Errorf("notes lack %q:\n%s", s, n)
			}
		}
		rep, err := Diagnose(readTables(t, "real-9.5-consumer-list-rocketmq3323.txt"), Options{})
		if err != nil || rep.Group.Name != "default%consumerA" || rep.Group.MessageModel != "CLUSTERING" {
			t.Errorf("group %+v, %v", rep.Group, err)
		}
	})
	t.Run("9.6 Typora header, cut", func(t *testing.T) {
		rd := ReadAll(readTables(t, "real-9.6-cluster-typora-rocketmq2456.txt"))
		if got := kinds(rd); !slices.Equal(got, []string{KindDashCluster + " (Typora Markdown) cut"}) {
			t.Errorf("sections %q\n%s", got, notesOf(rd))
		}
	})
}

// One CLIENT dialog in every shape a copy takes gives the same connections.
func TestDashboardCopyShapes(t *testing.T) {
	shapes := map[string]string{
		"tabs": "ClientId\tClientAddr\tLanguage\tVersion\n10.0.0.5@4012\t10.0.0.5:5000\tJAVA\tV4_5_1\n10.0.0.5@4012\t10.0.0.6:5000\tGO\tV4_5_2\n",
		"GitHub table, the separator after the first row": "ClientId | ClientAddr | Language | Version\n-- | -- | -- | --\n" +
			"10.0.0.5@4012 | 10.0.0.5:5000 | JAVA | V4_5_1\n10.0.0.5@4012 | 10.0.0.6:5000 | GO | V4_5_2\n",
		"a data row as GitHub's header": "10.0.0.5@4012 | 10.0.0.5:5000 | JAVA | V4_5_1\n-- | -- | -- | --\n10.0.0.5@4012 | 10.0.0.6:5000 | GO | V4_5_2\n",
		"hand-aligned, outer pipes": "| ClientId      | ClientAddr    | Language | Version |\n| 10.0.0.5@4012 | 10.0.0.5:5000 | JAVA     | V4_5_1  |\n" +
			"| 10.0.0.5@4012 | 10.0.0.6:5000 | GO       | V4_5_2  |\n",
		"Typora": "| ClientId | ClientAddr | Language | Version |\n|---|---|---|---|\n| 10\\.0\\.0\\.5@4012 | 10\\.0\\.0\\.5:5000 | JAVA | V4\\_5\\_1 |\n" +
			"| 10\\.0\\.0\\.5@4012 | 10\\.0\\.0\\.6:5000 | GO | V4\\_5\\_2 |\n",
		"html wrapper and buttons": "<html>\n<body>\n\nClientId | ClientAddr | Language | Version\n-- | -- | -- | --\n" +
			"10.0.0.5@4012 | 10.0.0.5:5000 | JAVA | V4_5_1 | CLIENT\n10.0.0.5@4012 | 10.0.0.6:5000 | GO | V4_5_2 | CLIENT\n\n</body>\n</html>\n",
		"CRLF": "ClientId\tClientAddr\tLanguage\tVersion\r\n10.0.0.5@4012\t10.0.0.5:5000\tJAVA\tV4_5_1\r\n10.0.0.5@4012\t10.0.0.6:5000\tGO\tV4_5_2\r\n",
	}
	for name, text := range shapes {
		rd := ReadAll([]Input{{Name: "paste", Data: []byte(text)}})
		var got []string
		for _, c := range rd.Connections {
			got = append(got, c.ClientID+" "+c.Addr+" "+c.Language+" "+c.Version)
		}
		want := []string{"10.0.0.5@4012 10.0.0.5:5000 JAVA V4_5_1", "10.0.0.5@4012 10.0.0.6:5000 GO V4_5_2"}
		if !slices.Equal(got, want) {
			t.Errorf("%s: connections %q\nsections %q\nnotes:\n%s", name, got, kinds(rd), notesOf(rd))
		}
	}
}

// The duplicate-id incident as the Dashboard shows it: a CLIENT dialog with two rows of one
// ClientId and the CONSUME DETAIL, whose consumerClient names the id on the first copy's
// queues and leaves the second copy's share empty. Every generation and language gives the
// duplicate and the unowned share the allocation computes; the empty cells alone are not
// called unowned (tables §10), and the report says how to confirm them.
func TestDashboardDuplicateClientID(t *testing.T) {
	for _, pair := range [][2]string{
		{"client-angular-en-tabs.txt", "detail-angular-en-tabs.txt"},
		{"client-angular-zh-github.txt", "detail-angular-zh-github.txt"},
		{"client-react-en-tabs.txt", "detail-react-en-tabs.txt"},
		{"client-react-zh-github.txt", "detail-angular-zh-github.txt"},
	} {
		t.Run(pair[0], func(t *testing.T) {
			rep, err := Diagnose(readTables(t, pair[0], pair[1]), Options{})
			if err != nil {
				t.Fatal(err)
			}
			byCode := map[string]Finding{}
			var codes []string
			for _, f := range rep.Findings {
				codes = append(codes, f.Code+" "+f.Title)
				byCode[f.Code] = f
			}
			want := []string{"duplicate-client-id duplicate client id 172.17.0.1@1", "unowned-queues TopicTest: broker-a:3-5 pulled by nobody"}
			if !slices.Equal(codes, want) {
				t.Fatalf("findings %q; want %q", codes, want)
			}
			if f := byCode[CodeDuplicateClientID]; len(f.Evidence) != 2 || !strings.Contains(f.Sees, "TopicTest broker-a:3-5 is pulled by nobody") {
				t.Errorf("duplicate %+v", f)
			}
			found := false
			for _, m := range rep.Group.Missing {
				found = found || m.Said.Key == "missing.dashboard-owner" && m.Said.Args[0] == 3 && m.Said.Args[1] == "TopicTest"
			}
			if !found {
				t.Errorf("missing %+v: the empty cells are to be confirmed", rep.Group.Missing)
			}
			if !slices.ContainsFunc(rep.Group.AssumedSaid, func(s Said) bool { return s.Key == "assumed.dashboard-queues" }) {
				t.Errorf("assumed %q: queues of one broker from the consume detail may be the first broker's only", rep.Group.Assumed)
			}
		})
	}
}

// An empty consumerClient is taken as unowned only where every member is named in the column
// and no id is shared; one member never named (a Go client that cannot answer, say) leaves the
// empty cells unproven.
func TestDashboardEmptyCell(t *testing.T) {
	conns := "ClientId\tClientAddr\tLanguage\tVersion\n10.0.0.5@1\t10.0.0.5:5000\tJAVA\tV4_9_4\n10.0.0.6@1\t10.0.0.6:5000\tJAVA\tV4_9_4\n"
	detail := "Topic\tT\tDelay\t0\tLastConsumeTime\tN/A\nbroker\tqueue\tconsumerClient\tbrokerOffset\tconsumerOffset\tdiffTotal\tlastTimestamp\n" +
		"broker-a\t0\t10.0.0.5@1\t10\t10\t0\tN/A\nbroker-a\t1\t\t10\t10\t0\tN/A\nbroker-a\t2\t%s\t10\t10\t0\tN/A\nbroker-a\t3\t10.0.0.6@1\t10\t10\t0\tN/A\n"
	codes := func(text string) []string {
		rep, err := Diagnose([]Input{{Name: "c", Data: []byte(conns)}, {Name: "d", Data: []byte(text)}}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range rep.Findings {
			out = append(out, f.Code)
		}
		return out
	}
	if got := codes(strings.Replace(detail, "%s", "10.0.0.6@1", 1)); !slices.Contains(got, CodeUnownedQueues) {
		t.Errorf("every member named, one cell empty: findings %q; want unowned-queues", got)
	}
	if got := codes(strings.NewReplacer("%s", "", "\t3\t10.0.0.6@1", "\t3\t").Replace(detail)); slices.Contains(got, CodeUnownedQueues) {
		// 10.0.0.6@1 is never named: its queues (2 and 3) show empty, as after a failure.
		t.Errorf("a member never named: findings %q; the empty cells prove nothing", got)
	}
}

// MQVersion's ordinals, as apache/rocketmq's enum orders them.
func TestMQVersion(t *testing.T) {
	for n, want := range map[int64]string{0: "V3_0_0_SNAPSHOT", 1: "V3_0_0_ALPHA1", 15: "V3_0_0_FINAL", 16: "V3_0_1_SNAPSHOT",
		45: "V3_0_15", 46: "V3_1_0_SNAPSHOT", 79: "V3_2_6", 85: "V3_2_9", 86: "V3_3_1_SNAPSHOT", 211: "V3_9_9",
		212: "V4_0_0_SNAPSHOT", 232: "V4_1_0_SNAPSHOT", 317: "V4_5_2", 373: "V4_8_0", 401: "V4_9_4", 413: "V5_0_0",
		477: "V5_3_2", 479: "V5_3_3", 611: "V5_9_9", 612: "HIGHER_VERSION", 9999: "HIGHER_VERSION"} {
		if got := mqVersion(n); got != want {
			t.Errorf("mqVersion(%d) = %s; want %s", n, got, want)
		}
	}
	seen := map[string]bool{}
	for n := int64(0); n < 612; n++ {
		v := mqVersion(n)
		if seen[v] {
			t.Fatalf("%s twice (at %d)", v, n)
		}
		seen[v] = true
	}
}

// A line of many cells or a huge cell is read only so far, with a note, in time linear in the
// line.
func TestDashboardTableBounds(t *testing.T) {
	row := "10.0.0.5@1 | 10.0.0.5:5000 | JAVA | V4_9_4" + strings.Repeat(" | x", 100000) + "\n"
	long := "10.0.0.6@1 | 10.0.0.6:5000 | JAVA | " + strings.Repeat("V", 10000) + "\n"
	rd := ReadAll([]Input{{Name: "big", Data: []byte("ClientId | ClientAddr | Language | Version\n" + row + long)}})
	if len(rd.Connections) != 2 || len(rd.Connections[1].Version) > maxCellBytes+4 {
		t.Errorf("connections %d", len(rd.Connections))
	}
	if n := notesOf(rd); strings.Count(n, "cells beyond the first 48") != 1 {
		t.Errorf("notes:\n%s", n)
	}
}

func FuzzTables(f *testing.F) {
	files, _ := filepath.Glob(tables + "*.txt")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("| a\\|b | c\\\n-- | --\n\t\t\n[x]CLIENT\nbrokerAddrs: | 0\nBROKER_NAME | b\nperm | 6\n"))
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
		for _, c := range rep.Read.Connections {
			if len(c.ClientID) > maxCellBytes+4 || len(c.Addr) > maxCellBytes+4 {
				t.Fatalf("a cell past its bound: %+v", c)
			}
		}
	})
}

// mqadmin's own lines with pipes or tabs stay mqadmin's: a tag expression "TagA || TagB" is no
// table.
func TestTablesLeaveMqadminAlone(t *testing.T) {
	paste := "$ mqadmin consumerConnection -g G\n001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4\n\n" +
		"Below is subscription:001  Topic: T SubExpression: TagA || TagB\nConsumeType: CONSUME_PASSIVELY\n"
	rd := ReadAll([]Input{{Name: "p", Data: []byte(paste)}})
	if got := kinds(rd); !slices.Equal(got, []string{KindCommand + " (consumerConnection)", KindConnection + " (4.0–4.9.2)"}) {
		t.Errorf("sections %q", got)
	}
	if len(rd.GroupSubs) != 1 || rd.GroupSubs[0].Expr != "TagA || TagB" || len(rd.Connections) != 1 {
		t.Errorf("subscriptions %+v, connections %+v", rd.GroupSubs, rd.Connections)
	}
}
