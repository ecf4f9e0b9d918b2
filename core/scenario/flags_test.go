package scenario

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
)

func TestFromFlagsDefaults(t *testing.T) {
	s, err := FromFlags(Flags{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if s.Version != 1 || s.Seed != 7 || s.Topic != "TopicTest" || s.Group != "GroupTest" || s.Strategy.Name != "AVG" || s.Until != 5*Minute {
		t.Errorf("FromFlags(seed 7) = version %d, seed %d, topic %s, group %s, strategy %s, until %s; want 1, 7, TopicTest, GroupTest, AVG, 5m",
			s.Version, s.Seed, s.Topic, s.Group, s.Strategy.Name, s.Until)
	}
	want := Presets()["default"]
	if !reflect.DeepEqual(s.Brokers, want.Brokers) || !reflect.DeepEqual(s.Consumers, want.Consumers) || !reflect.DeepEqual(s.Producers, want.Producers) {
		t.Errorf("FromFlags defaults: brokers %v, consumers %v, producers %v; want the default preset's %v, %v, %v",
			s.Brokers, s.Consumers, s.Producers, want.Brokers, want.Consumers, want.Producers)
	}
}

func TestFromFlagsNames(t *testing.T) {
	s, err := FromFlags(Flags{
		Brokers: 3, QueuesPerBroker: 2, Consumers: 12, Producers: 2, Rate: 50,
		Strategy: "CONSISTENT_HASH", Params: allocate.Params{VirtualNodeCnt: intp(3)},
		LatencyFault: true, FaultTable: "legacy-4x", MessageModel: "BROADCASTING", Until: 90 * Second,
		At: []string{"60s:killConsumer:c1", "30s:slowBroker:broker-a:2000", "30s:setLatencyFault:off"},
	})
	if err != nil {
		t.Fatal(err)
	}
	var brokers, consumers, producers []string
	for _, b := range s.Brokers {
		brokers = append(brokers, b.Name+":"+itoa(b.Queues))
	}
	for _, c := range s.Consumers {
		consumers = append(consumers, c.ID)
	}
	for _, p := range s.Producers {
		producers = append(producers, p.ID+":"+itoa(p.Rate))
	}
	for _, tc := range []struct{ what, got, want string }{
		{"brokers", strings.Join(brokers, " "), "broker-a:2 broker-b:2 broker-c:2"},
		{"consumers", strings.Join(consumers, " "), "c1 c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 c12"},
		{"producers", strings.Join(producers, " "), "p1:50 p2:50"},
		// Sorted by time; equal times keep the order given.
		{"timeline", formatSteps(s.Timeline), "30s:slowBroker:broker-a:2000 30s:setLatencyFault:off 1m:killConsumer:c1"},
		{"settings", s.Strategy.Name + " " + s.FaultTable + " " + s.MessageModel + " " + s.Until.String(), "CONSISTENT_HASH legacy-4x BROADCASTING 1m30s"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %s; want %s", tc.what, tc.got, tc.want)
		}
	}
	if !s.LatencyFault || *s.Params.VirtualNodeCnt != 3 {
		t.Errorf("latencyFault %v, virtualNodeCnt %d; want true, 3", s.LatencyFault, *s.Params.VirtualNodeCnt)
	}
}

func TestFromFlagsConsumerIDs(t *testing.T) {
	ids := []string{"10.0.0.1@4012", "10.0.0.2@4013", "192.168.0.3@12345#86234716500123"}
	s, err := FromFlags(Flags{Consumers: 9, ConsumerIDs: ids})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Consumers) != 3 || s.Consumers[2].ID != ids[2] {
		t.Errorf("consumers = %v; want %v", s.Consumers, ids)
	}
}

func TestFromFlagsErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Flags
		want string
	}{
		{"negative brokers", Flags{Brokers: -1}, "brokers: -1; want 0…64"},
		{"too many brokers", Flags{Brokers: 65}, "brokers: 65; want 0…64"},
		{"too many queues", Flags{QueuesPerBroker: 5000}, "queuesPerBroker: 5000; want 0…4096"},
		{"too many queues in all", Flags{Brokers: 64, QueuesPerBroker: 65}, "brokers: 4160 queues in all; the limit is 4096"},
		{"too many consumers", Flags{Consumers: 100000}, "consumers: 100000; want 0…512"},
		{"too many producers", Flags{Producers: 65}, "producers: 65; want 0…64"},
		{"rate", Flags{Rate: 100001}, "rate: 100001; want 0…100000"},
		{"bad consumer id", Flags{ConsumerIDs: []string{"c1", "c 2"}}, `consumers[1].id: "c 2" has ' '`},
		{"duplicate consumer id", Flags{ConsumerIDs: []string{"c1", "c1"}}, `consumers[1].id: "c1" is also consumers[0].id`},
		{"bad strategy", Flags{Strategy: "RANDOM"}, `strategy: unknown strategy "RANDOM"`},
		{"bad step", Flags{At: []string{"30s:slowBroker:broker-a"}}, `--at "30s:slowBroker:broker-a": slowBroker needs broker and latencyMs: 30s:slowBroker:broker-a:2000`},
		{"step after until", Flags{Until: Minute, At: []string{"2m:killConsumer:c1"}}, "timeline[0].at: 2m is after until (1m)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromFlags(tc.f)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("FromFlags error = %v; want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestParseAt(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Step
	}{
		{"60s:killConsumer:c1", step(60000, cluster.Command{Type: "killConsumer", ID: "c1"})},
		{"30s:slowBroker:broker-a:2000", step(30000, cluster.Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: intp(2000)})},
		{"2m:setStrategy:CONSISTENT_HASH", step(120000, cluster.Command{Type: "setStrategy", Strategy: "CONSISTENT_HASH"})},
		{"2m:setStrategy:MACHINE_ROOM_NEARBY-AVG", step(120000, cluster.Command{Type: "setStrategy", Strategy: "MACHINE_ROOM_NEARBY-AVG"})},
		{"10s:setLatencyFault:on", step(10000, cluster.Command{Type: "setLatencyFault", On: boolp(true)})},
		{"10s:setLatencyFault:off", step(10000, cluster.Command{Type: "setLatencyFault", On: boolp(false)})},
		{"10s:setLatencyFault:true", step(10000, cluster.Command{Type: "setLatencyFault", On: boolp(true)})},
		{"10s:setLatencyFault:FALSE", step(10000, cluster.Command{Type: "setLatencyFault", On: boolp(false)})},
		{"0s:setQueues:broker-a:8", step(0, cluster.Command{Type: "setQueues", Broker: "broker-a", Queues: intp(8)})},
		{"0:addBroker:hz@broker-c:4", step(0, cluster.Command{Type: "addBroker", Broker: "hz@broker-c", Queues: intp(4)})},
		{"45s:addConsumer:c9", step(45000, cluster.Command{Type: "addConsumer", ID: "c9"})},
		{"45s:addConsumer:c9:500", step(45000, cluster.Command{Type: "addConsumer", ID: "c9", ConsumeRate: intp(500)})},
		{"45s:addConsumer:10.0.0.9@4012", step(45000, cluster.Command{Type: "addConsumer", ID: "10.0.0.9@4012"})},
		{"1m:setProducerRate:500", step(60000, cluster.Command{Type: "setProducerRate", Rate: intp(500)})},
		{"1m:setProducerRate:500:p2", step(60000, cluster.Command{Type: "setProducerRate", Rate: intp(500), ID: "p2"})},
		{"1m30s:setFaultTable:legacy-4x", step(90000, cluster.Command{Type: "setFaultTable", Table: "legacy-4x"})},
		{"3m:setMessageModel:BROADCASTING", step(180000, cluster.Command{Type: "setMessageModel", Model: "BROADCASTING"})},
		{"250ms:restartConsumer:192.168.0.3@12345#86234716500123", step(250, cluster.Command{Type: "restartConsumer", ID: "192.168.0.3@12345#86234716500123"})},
		// A client id with ':' (IPv6) is joined back together.
		{"5s:partitionConsumer:fe80:0:0:0:0:0:0:1@DEFAULT", step(5000, cluster.Command{Type: "partitionConsumer", ID: "fe80:0:0:0:0:0:0:1@DEFAULT"})},
		{"5s:addConsumer:fe80::1@DEFAULT", step(5000, cluster.Command{Type: "addConsumer", ID: "fe80::1@DEFAULT"})},
		{"5s:addConsumer:fe80::1@DEFAULT:300", step(5000, cluster.Command{Type: "addConsumer", ID: "fe80::1@DEFAULT", ConsumeRate: intp(300)})},
		{"5s:addConsumer:fe80::1@DEFAULT:0:FIRST_OFFSET", step(5000, cluster.Command{Type: "addConsumer", ID: "fe80::1@DEFAULT", ConsumeRate: intp(0), ConsumeFromWhere: "FIRST_OFFSET"})},
		{"5s:addConsumer:fe80::1@DEFAULT:0:LAST_OFFSET:go", step(5000, cluster.Command{Type: "addConsumer", ID: "fe80::1@DEFAULT", ConsumeRate: intp(0), ConsumeFromWhere: "LAST_OFFSET", Client: "go"})},
		{"5s:addConsumer:10.0.0.3@4014:0:LAST_OFFSET:go", step(5000, cluster.Command{Type: "addConsumer", ID: "10.0.0.3@4014", ConsumeRate: intp(0), ConsumeFromWhere: "LAST_OFFSET", Client: "go"})},
		{"5s:restartConsumer:10.0.0.3@4014:java-4.9", step(5000, cluster.Command{Type: "restartConsumer", ID: "10.0.0.3@4014", Client: "java-4.9"})},
		// An optional argument by its name: the ones before it left out.
		{"30s:addConsumer:g9:kind=grpc-push", step(30000, cluster.Command{Type: "addConsumer", ID: "g9", Kind: "grpc-push"})},
		{"30s:addConsumer:g9:200:kind=grpc-simple:proxy=proxy-2", step(30000, cluster.Command{Type: "addConsumer", ID: "g9", ConsumeRate: intp(200), Kind: "grpc-simple", Proxy: "proxy-2"})},
		{"30s:addConsumer:fe80::1@DEFAULT:kind=grpc-push", step(30000, cluster.Command{Type: "addConsumer", ID: "fe80::1@DEFAULT", Kind: "grpc-push"})},
		{"30s:addConsumer:id=fe80::1@DEFAULT:client=go", step(30000, cluster.Command{Type: "addConsumer", ID: "fe80::1@DEFAULT", Client: "go"})},
		{"1m:setProducerRate:id=p2:rate=500", step(60000, cluster.Command{Type: "setProducerRate", Rate: intp(500), ID: "p2"})},
	} {
		got, err := ParseAt(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseAt(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestParseAtErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"30s:slowBroker:broker-a", `--at "30s:slowBroker:broker-a": slowBroker needs broker and latencyMs: 30s:slowBroker:broker-a:2000`},
		{"30s:slowBroker:broker-a:fast", `--at "30s:slowBroker:broker-a:fast": latencyMs "fast" is not a whole number: 30s:slowBroker:broker-a:2000`},
		{"30s:slowBroker:broker-a:700000", `--at "30s:slowBroker:broker-a:700000": latencyMs: 700000; want 0…600000`},
		{"30s:slowBroker:broker-a:10:20", `--at "30s:slowBroker:broker-a:10:20": slowBroker takes 2 arguments; got 3: 30s:slowBroker:broker-a:2000`},
		{"killConsumer", `--at "killConsumer": want TIME:COMMAND[:ARGUMENT…], e.g. 60s:killConsumer:c1`},
		{"soon:killConsumer:c1", `--at "soon:killConsumer:c1": time: duration "soon" is not a duration; want e.g. 250ms, 90s, 5m or 1m30s`},
		{"60000:killConsumer:c1", `--at "60000:killConsumer:c1": time: duration "60000" has no unit`},
		{"60s:killconsumer:c1", `--at "60s:killconsumer:c1": command: "killconsumer" is not a command; did you mean killConsumer?`},
		{"60s::c1", `--at "60s::c1": command missing; want one of addBroker, addConsumer,`},
		{"60s:killConsumer", `--at "60s:killConsumer": killConsumer needs id: 60s:killConsumer:c1`},
		{"60s:killConsumer:", `--at "60s:killConsumer:": id is empty: 60s:killConsumer:c1`},
		{"60s:killConsumer:c 1", `--at "60s:killConsumer:c 1": id: "c 1" has ' '; allowed are letters, digits and . @ # : _ % | -`},
		{"45s:addConsumer", `--at "45s:addConsumer": addConsumer needs id (consumeRate, consumeFromWhere, client, clientRebalance, kind and proxy optional): 45s:addConsumer:c1[:500][:FIRST_OFFSET][:go-2.1.2][:off][:grpc-push][:proxy-1]`},
		{"10s:setLatencyFault:maybe", `--at "10s:setLatencyFault:maybe": on "maybe": want on, off, true or false: 10s:setLatencyFault:on`},
		{"1m:setProducerRate", `--at "1m:setProducerRate": setProducerRate needs rate (id optional): 1m:setProducerRate:500[:p1]`},
		{"1m:setProducerRate:500:p1:p2", `--at "1m:setProducerRate:500:p1:p2": setProducerRate takes 2 arguments; got 3: 1m:setProducerRate:500[:p1]`},
		{"1m:setProducerRate:500:p:1", `setProducerRate takes 2 arguments; got 3`},
		{"1m:setProducerRate:-5", `--at "1m:setProducerRate:-5": rate: -5; want 0…100000`},
		{"2m:setStrategy:RANDOM", `--at "2m:setStrategy:RANDOM": strategy: unknown strategy "RANDOM"`},
		{"2m:setFaultTable:old", `--at "2m:setFaultTable:old": table: "old"; want current or legacy-4x`},
		{"2m:setMessageModel:clustering", `--at "2m:setMessageModel:clustering": model: "clustering"; want CLUSTERING or BROADCASTING`},
		{"25h:killConsumer:c1", `--at "25h:killConsumer:c1": time: duration 25h is outside 0s…24h`},
		{"0s:setQueues:broker-a:99999", `--at "0s:setQueues:broker-a:99999": queues: 99999; want 0…4096`},
		{"30s:addConsumer:g9:knd=grpc-push", `"knd=grpc-push" names no argument of the command`},
		{"30s:addConsumer:g9:kind=grpc-push:kind=grpc-simple", `kind is named twice`},
		{"30s:addConsumer:g9:kind=grpc-push:500", `kind: "grpc-push:500"; want push, grpc-push, grpc-simple`},
		{"30s:addConsumer:g9:500:consumeRate=300", `consumeRate is given twice, by its place and by its name`},
		{"1m:setProducerRate:id=p2", `setProducerRate needs rate`},
		{"30s:addConsumer:kind=grpc-push", `addConsumer needs id`},
	} {
		_, err := ParseAt(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseAt(%q) error = %v; want it to contain %q", tc.in, err, tc.want)
		}
	}
}

// Every command type's example form parses, and FormatAt writes back what ParseAt read.
func TestFormatAtRoundTrip(t *testing.T) {
	var forms []string
	for _, typ := range CommandNames() {
		full := exampleAt("1m30s", typ)
		forms = append(forms,
			strings.NewReplacer("[", "", "]", "").Replace(full), // with the optional arguments
			strings.Split(full, "[")[0])                         // without them
	}
	for _, in := range forms {
		st, err := ParseAt(in)
		if err != nil {
			t.Errorf("ParseAt(%q): %v", in, err)
			continue
		}
		if got := FormatAt(st); got != in {
			t.Errorf("FormatAt(ParseAt(%q)) = %q", in, got)
		}
	}
}

func formatSteps(steps []Step) string {
	var out []string
	for _, st := range steps {
		out = append(out, FormatAt(st))
	}
	return strings.Join(out, " ")
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestFromFlagsProducerClient(t *testing.T) {
	for in, want := range map[string]string{"": "", "java": "", "go": "go-2.1.2", "Java-4.9": "java-4.9"} {
		s, err := FromFlags(Flags{Producers: 2, ProducerClient: in})
		if err != nil {
			t.Fatalf("producer client %q: %v", in, err)
		}
		for _, p := range s.Producers {
			if p.Client != want {
				t.Errorf("producer client %q: %s runs %q; want %q", in, p.ID, p.Client, want)
			}
		}
	}
	if _, err := FromFlags(Flags{ProducerClient: "go-1"}); err == nil || !strings.Contains(err.Error(), "producer-client") || !strings.Contains(err.Error(), "go-2.1.2") {
		t.Errorf("an unknown producer client: %v; want an error naming the flag and the profiles", err)
	}
}

func TestFromFlagsProducerSends(t *testing.T) {
	s, err := FromFlags(Flags{ProducerThreads: 4, ProducerMode: "SYNC", LatencyMax: []int64{50, 1800}, NotAvailableDuration: []int64{0, 60000}})
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Producers[0]; p.Threads != 4 || p.Mode != "" || !reflect.DeepEqual(p.LatencyMax, []int64{50, 1800}) || !reflect.DeepEqual(p.NotAvailableDuration, []int64{0, 60000}) {
		t.Errorf("producer %+v; want 4 sync threads and the given tiers", p)
	}
	if s, err := FromFlags(Flags{ProducerMode: "async"}); err != nil || s.Producers[0].Mode != "async" || s.Producers[0].Threads != 0 {
		t.Errorf("async: %+v, %v; want mode async without threads", s.Producers, err)
	}
	for _, bad := range []struct {
		f    Flags
		want string
	}{
		{Flags{ProducerThreads: 257}, "producer-threads: 257; want 1…256"},
		{Flags{ProducerThreads: 2, ProducerMode: "async"}, "producer-threads: 2; an async producer's sends do not block"},
		{Flags{ProducerMode: "oneway"}, `producer-mode: "oneway"; want sync or async`},
		{Flags{LatencyMax: make([]int64, 65)}, "latency-max: 65 entries; the limit is 64"},
		{Flags{NotAvailableDuration: []int64{-86400001}}, "not-available-duration: entry 1, -86400001"},
		{Flags{ProducerClient: "go", LatencyMax: []int64{50}}, "latency-max: a go-2.1.2 producer has no latency fault tolerance"},
	} {
		if _, err := FromFlags(bad.f); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v; want an error containing %q", bad.f, err, bad.want)
		}
	}
}
