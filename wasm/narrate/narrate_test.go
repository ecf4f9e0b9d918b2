package narrate

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/fault"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/wasm/session"
)

func TestRanges(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{nil, []string{}},
		{[]string{"broker-a:4", "broker-a:5", "broker-a:6", "broker-a:7"}, []string{"broker-a:4–7"}},
		{[]string{"broker-a:0", "broker-a:1", "broker-a:3", "broker-b:2"}, []string{"broker-a:0–1,3", "broker-b:2"}},
		{[]string{"broker-b:1", "broker-a:2", "broker-b:0"}, []string{"broker-b:0–1", "broker-a:2"}}, // brokers in order of appearance
		{[]string{"broker-a:10", "broker-a:9", "broker-a:11", "broker-a:9"}, []string{"broker-a:9–11"}},
		{[]string{"x:1:2", "odd"}, []string{"x:1:2", "odd"}},
	}
	for _, tt := range tests {
		if got := Ranges(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Ranges(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

// world is a running small preset whose events are collected.
type world struct {
	t      *testing.T
	c      *cluster.Cluster
	events []cluster.Event
	all    []cluster.Event
}

func newWorld(t *testing.T) *world {
	t.Helper()
	c, err := cluster.New(scenario.Presets()["small"].Config)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, c: c}
	c.SetObserver(func(e cluster.Event) { w.events = append(w.events, e); w.all = append(w.all, e) })
	c.Advance(30000) // settled: c1, c2, c3 share broker-a and broker-b's 8 queues
	w.events = nil
	return w
}

func (w *world) apply(cmd cluster.Command) {
	w.t.Helper()
	if err := w.c.Apply(cmd); err != nil {
		w.t.Fatal(err)
	}
}

// run advances by ms and returns the events of that stretch, as one frame would see them.
func (w *world) run(ms int64) []cluster.Event {
	w.c.Advance(w.c.Now() + ms)
	out := w.events
	w.events = nil
	return out
}

func (w *world) queues(id string) []string {
	for _, cv := range w.c.Snapshot().Consumers {
		if cv.ID == id {
			return cv.Queues
		}
	}
	w.t.Fatalf("no consumer %s", id)
	return nil
}

func TestFrameKillRebalances(t *testing.T) {
	w := newWorld(t)
	w.apply(cluster.Command{Type: "killConsumer", ID: "c3"})
	frame := w.run(10) // the notified consumers rebalance one round trip later
	// AVG over the 8 queues in route order and [c1 c2]: the first half to c1.
	if got, want := w.queues("c1"), []string{"broker-a:0", "broker-a:1", "broker-a:2", "broker-a:3"}; !slices.Equal(got, want) {
		t.Fatalf("c1 pulls %q; want %q", got, want)
	}
	tests := []struct {
		lang string
		want []string
	}{
		{EN, []string{"c3 killed; broker-a:0–3 → c1, broker-b:0–3 → c2", "broker-a:3 pulled by c1 and c2"}},
		{ZH, []string{"消费者 c3 被强制终止；broker-a:0–3 → c1，broker-b:0–3 → c2", "broker-a:3 同时被 c1 和 c2 拉取"}},
	}
	for _, tt := range tests {
		if got := Frame(frame, tt.lang); !slices.Equal(got, tt.want) {
			t.Errorf("Frame(%s) = %q; want %q", tt.lang, got, tt.want)
		}
	}
}

func TestFrameJoinPartitionExpiry(t *testing.T) {
	w := newWorld(t)
	w.apply(cluster.Command{Type: "partitionConsumer", ID: "c2"})
	w.apply(cluster.Command{Type: "addConsumer", ID: "c5"})
	got := Frame(w.run(1), EN)
	if len(got) == 0 || !strings.HasPrefix(got[0], "c2 cut off (brokers still list it until its channel expires, 120 s); c5 joined") {
		t.Errorf("Frame(en) = %q; want the partition, then the join", got)
	}
	zh := Frame(w.run(0), ZH)
	if len(zh) != 0 {
		t.Errorf("a frame without events says %q", zh)
	}
	// The brokers drop the silent consumer some 120 s later, each on its own.
	var en, cn []string
	for range 200 {
		f := w.run(1000)
		en = append(en, Frame(f, EN)...)
		cn = append(cn, Frame(f, ZH)...)
	}
	re := regexp.MustCompile(`^(brokers|broker-[ab]) dropped c2 \((channel expired|channel idle for 120 s)`)
	reZH := regexp.MustCompile(`^(各 Broker|broker-[ab]) 移除了 c2（(连接过期|连接空闲 120 秒)`)
	if !slices.ContainsFunc(en, re.MatchString) {
		t.Errorf("no sentence tells the brokers dropped c2: %q", en)
	}
	if !slices.ContainsFunc(cn, reZH.MatchString) {
		t.Errorf("no Chinese sentence tells the brokers dropped c2: %q", cn)
	}
}

func TestFrameSlowBrokerIsolation(t *testing.T) {
	w := newWorld(t)
	on, lat := true, 2000
	w.apply(cluster.Command{Type: "setLatencyFault", On: &on})
	w.apply(cluster.Command{Type: "slowBroker", Broker: "broker-b", LatencyMs: &lat})
	if got, want := Frame(w.run(0), EN), []string{"latency fault tolerance on; broker-b slowed by 2000 ms"}; !slices.Equal(got, want) {
		t.Errorf("Frame = %q; want %q", got, want)
	}
	f := w.run(15000)
	re := regexp.MustCompile(`^broker-b avoided for \d+ s \(latency 20\d\d ms\)$`)
	reZH := regexp.MustCompile(`^生产者规避 broker-b \d+ 秒（延迟 20\d\d 毫秒）$`)
	if got := Frame(f, EN); !slices.ContainsFunc(got, re.MatchString) {
		t.Errorf("Frame(en) = %q; want broker-b avoided", got)
	}
	if got := Frame(f, ZH); !slices.ContainsFunc(got, reZH.MatchString) {
		t.Errorf("Frame(zh) = %q; want broker-b avoided", got)
	}
}

func TestFramePageActionsAndErrors(t *testing.T) {
	s, err := session.New(scenario.Presets()["small"])
	if err != nil {
		t.Fatal(err)
	}
	x := 10.0
	for _, c := range []session.Command{
		{Command: cluster.Command{Type: session.Pause}},
		{Command: cluster.Command{Type: session.SetSpeed}, X: &x},
		{Command: cluster.Command{Type: "killBroker", Broker: "broker-a"}},
		{Command: cluster.Command{Type: "killConsumer", ID: "c9"}},
	} {
		if _, err := s.Enqueue(c); err != nil {
			t.Fatal(err)
		}
	}
	s.Tick(16)
	events := s.DrainEvents()
	en := Frame(events, EN)
	if len(en) != 2 || en[0] != "paused; speed 10×; broker-a down" || !strings.HasPrefix(en[1], `refused: killConsumer: no consumer "c9"`) {
		t.Errorf("Frame(en) = %q", en)
	}
	cn := Frame(events, ZH)
	if len(cn) != 2 || cn[0] != "已暂停；速度 10×；broker-a 宕机" || !strings.HasPrefix(cn[1], "操作被拒绝：") {
		t.Errorf("Frame(zh) = %q", cn)
	}
}

func TestFrameBounded(t *testing.T) {
	var events []cluster.Event
	for i := range 40 {
		id := "c" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		events = append(events, cluster.Event{Kind: cluster.EventRebalance, Consumer: id, Queues: []string{"broker-a:1"}, Text: id + " rebalances: broker-a:1"})
	}
	got := Frame(events, EN)
	if len(got) != 1 || strings.Count(got[0], "→") != maxRebalances || !strings.HasSuffix(got[0], "34 more consumers rebalanced") {
		t.Errorf("Frame of 40 rebalances = %q; want %d named and the rest counted", got, maxRebalances)
	}
}

// identifiers are the ASCII words a Chinese sentence may keep: ids, names, strategy and model
// names, permissions as setPerm takes them, a subscription as setSubscription takes it
// (TopicTest:TagA), and "Broker" as RocketMQ's Chinese documentation writes it.
var identifier = regexp.MustCompile(`^(c\d+|p\d+|broker-[a-z]+(:-?\d+)?|Broker|proxy-\d+|Proxy|CLUSTERING|BROADCASTING|RW|R|W|none|Topic\w*(:[\w|]+)?|Tag\w*(\|\|Tag\w*)*|` +
	strings.Join(allocate.Names(), "|") + `|` + strings.Join(fault.TableNames(), "|") + `|COMPOSITE|Small|cluster|PULL|POP|RETRY|\w+_Topic\w*)$`) // PULL, POP: mqadmin setConsumeMode's modes; COMPOSITE: a selector named as its author named it

var asciiWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_\-:.]*[A-Za-z0-9]|[A-Za-z]`)

// untranslated returns the ASCII words of s that are not identifiers.
func untranslated(s string) []string {
	var out []string
	for _, w := range asciiWord.FindAllString(s, -1) {
		if !identifier.MatchString(w) {
			out = append(out, w)
		}
	}
	return out
}

// TestChineseEverything drives every command of the vocabulary and the events they set off,
// and checks that the Chinese narration and event texts keep no English but identifiers.
func TestChineseEverything(t *testing.T) {
	w := newWorld(t)
	on, off, lat, zero, q, rate := true, false, 2000, 0, 6, 300
	cmds := []cluster.Command{
		{Type: "addConsumer", ID: "c4"},
		{Type: "addProxy", Proxy: "proxy-1"},
		{Type: "addConsumer", ID: "c5", Kind: cluster.KindGrpcPush, Proxy: "proxy-1"},
		{Type: "killProxy", Proxy: "proxy-1"},
		{Type: "restoreProxy", Proxy: "proxy-1"},
		{Type: "stopConsumer", ID: "c5"},
		{Type: "setLatencyFault", On: &on},
		{Type: "slowBroker", Broker: "broker-b", LatencyMs: &lat},
		{Type: "killConsumer", ID: "c3"},
		{Type: "partitionConsumer", ID: "c2"},
		{Type: "hangConsumer", ID: "c1"},
		{Type: "resumeConsumer", ID: "c1"},
		{Type: "stopConsumer", ID: "c1"},
		{Type: "restartConsumer", ID: "c1"},
		{Type: "restartConsumer", ID: "c3"},
		{Type: "healConsumer", ID: "c2"},
		{Type: "slowBroker", Broker: "broker-b", LatencyMs: &zero},
		{Type: "killBroker", Broker: "broker-a"},
		{Type: "restoreBroker", Broker: "broker-a"},
		{Type: "addBroker", Broker: "broker-c", Queues: &q},
		{Type: "setQueues", Broker: "broker-c", Queues: &q},
		{Type: "setPerm", Broker: "broker-c", Perm: cluster.PermR},
		{Type: "setSubscription", ID: "c4", Subscription: "TopicTest:TagA"},
		{Type: "setFailRate", ID: "c4", FailPercent: &q},
		{Type: "addTopic", Topic: "TopicNew", Queues: &q, Rate: &rate},
		{Type: "setClientRebalance", ID: "c4", ClientRebalance: &off},
		{Type: "setClientRebalance", ID: "c4", ClientRebalance: &on},
		{Type: "setConsumeMode", ConsumeMode: "POP"},
		{Type: "setAutoscale", OutAbove: &rate, MaxMembers: &q},
		{Type: "setAutoscale", OutAbove: &rate, MaxMembers: &zero},
		{Type: "removeBroker", Broker: "broker-c"},
		{Type: "setStrategy", Strategy: "AVG_BY_CIRCLE"},
		{Type: "setProducerRate", Rate: &rate},
		{Type: "setFaultTable", Table: fault.TableLegacy4x},
		{Type: "setLatencyTiers", LatencyMax: []int64{50, 100, 550, 1800}, NotAvailableDuration: []int64{0, 0, 30000, 60000}},
		{Type: "setProducerThreads", Threads: &q},
		{Type: "setSendMode", Mode: cluster.SendAsync},
		{Type: "setMessageModel", Model: cluster.Broadcasting},
		{Type: "setLatencyFault", On: &off},
		{Type: "partitionConsumer", ID: "c4"},
	}
	seen := map[string]bool{}
	for _, cmd := range cmds {
		w.apply(cmd)
		seen[cmd.Type] = true
		w.run(20000)
	}
	w.run(200000)
	// setSelector needs a producer that sends with keys, and a compiler of selectors: one
	// written in Go here.
	selector.SetCompiler(func(name, file string, src []byte, steps int) (selector.Custom, error) { return lastQueue{}, nil })
	defer selector.SetCompiler(nil)
	kcfg := scenario.Presets()["small"].Config
	kcfg.Producers[0].Keys = &cluster.KeysConfig{Count: 10}
	kc, err := cluster.New(kcfg)
	if err != nil {
		t.Fatal(err)
	}
	kc.SetObserver(func(e cluster.Event) { w.all = append(w.all, e) })
	kc.Advance(5000)
	if err := kc.Apply(cluster.Command{Type: "setSelector", Selector: "COMPOSITE", Source: "def select(queues, message, arg): …"}); err != nil {
		t.Fatal(err)
	}
	seen["setSelector"] = true
	kc.Advance(10000)
	for _, typ := range cluster.CommandNames() {
		if !seen[typ] {
			t.Errorf("command %s is not exercised", typ)
		}
	}
	// And the session's own lines.
	s, err := session.New(scenario.Presets()["small"])
	if err != nil {
		t.Fatal(err)
	}
	x := 2.0
	for _, c := range []session.Command{
		{Command: cluster.Command{Type: session.Pause}},
		{Command: cluster.Command{Type: session.SetSpeed}, X: &x},
		{Command: cluster.Command{Type: session.Play}},
		{Command: cluster.Command{Type: session.Reset}},
		{Command: cluster.Command{Type: session.Load}, Preset: "small"},
		// Time travel: a seek back, continue, and an action behind the horizon.
		{Command: cluster.Command{Type: session.Step}, Ms: ptr(int64(30000))},
		{Command: cluster.Command{Type: session.Seek}, Ms: ptr(int64(10000))},
		{Command: cluster.Command{Type: session.Continue}},
		{Command: cluster.Command{Type: session.Step}, Ms: ptr(int64(5000))},
		{Command: cluster.Command{Type: session.Seek}, Ms: ptr(int64(2000))},
		{Command: cluster.Command{Type: "killConsumer", ID: "c1"}},
	} {
		if _, err := s.Enqueue(c); err != nil {
			t.Fatal(err)
		}
	}
	s.Tick(16)
	all := append(w.all, s.DrainEvents()...)

	kinds := map[int]bool{}
	for _, e := range all {
		f := read(e)
		kinds[f.kind] = true
		if f.kind == factUnknown {
			t.Errorf("event not recognised: %s %q", e.Kind, e.Text)
			continue
		}
		zh := Event(e, ZH)
		if zh == e.Text {
			t.Errorf("Event(zh) leaves %q as it is", e.Text)
		}
		if bad := untranslated(zh); len(bad) > 0 {
			t.Errorf("Event(zh) of %q = %q keeps %q", e.Text, zh, bad)
		}
		if got := Event(e, EN); got != e.Text {
			t.Errorf("Event(en) = %q; want the engine's %q", got, e.Text)
		}
		// The dictionary's English of an event-log line is the engine's own format (queue
		// ranges aside: the engine writes 0-3 where the narration writes 0–3; and a restarted
		// consumer's own number, c1#2, which the narration leaves out).
		if f.kind >= factRebalance && f.kind <= factExpiryAhead {
			got := logText(f, EN)
			if f.kind == factRebalance {
				got = strings.ReplaceAll(got, "–", "-")
			}
			if got != restartNumber.ReplaceAllString(e.Text, "") {
				t.Errorf("the dictionary's English log line %q; the engine says %q", got, e.Text)
			}
		}
		for _, s := range Frame([]cluster.Event{e}, ZH) {
			if bad := untranslated(s); len(bad) > 0 {
				t.Errorf("Frame(zh) of %q says %q, keeping %q", e.Text, s, bad)
			}
		}
	}
	for _, k := range []int{factRebalance, factRegister, factUnregister, factDropClosed, factIsolation, factOverlap, factExpiryAhead,
		factPaused, factSpeed, factPlaying, factReset, factLoaded, factMoved, factContinued} {
		if !kinds[k] {
			t.Errorf("no event of fact kind %d happened; the run should produce one", k)
		}
	}
	if !kinds[factExpire] && !kinds[factDropIdle] {
		t.Errorf("no broker expired or closed a silent consumer")
	}
}

func ptr[T any](v T) *T { return &v }

// lastQueue is a selector written in Go: the last queue of the list.
type lastQueue struct{}

func (lastQueue) Select(mqs []route.MessageQueue, _ selector.Message, _ any) (route.MessageQueue, error) {
	return mqs[len(mqs)-1], nil
}

var restartNumber = regexp.MustCompile(`#\d+\b`)

// Every simulation command has a Chinese name for "… behind the end of the timeline".
func TestEveryCommandHasAChineseName(t *testing.T) {
	for _, typ := range cluster.CommandNames() {
		if got := commandIn(ZH, typ+" c1"); got == typ+" c1" || len(untranslated(got)) > 0 {
			t.Errorf("commandIn(zh, %q) = %q", typ+" c1", got)
		}
	}
}

// The narration reads causes and their values, never the English text: rewording every
// engine and session message changes no sentence (a refusal keeps its reason's own words).
func TestNarrationIgnoresWording(t *testing.T) {
	w := newWorld(t)
	on, lat := true, 2000
	var frames [][]cluster.Event
	for _, cmd := range []cluster.Command{
		{Type: "setLatencyFault", On: &on},
		{Type: "slowBroker", Broker: "broker-b", LatencyMs: &lat},
		{Type: "killConsumer", ID: "c3"},
		{Type: "partitionConsumer", ID: "c2"},
		{Type: "addConsumer", ID: "c4"},
	} {
		w.apply(cmd)
		frames = append(frames, w.run(1))
		for range 40 {
			frames = append(frames, w.run(5000))
		}
	}
	s, err := session.New(scenario.Presets()["small"])
	if err != nil {
		t.Fatal(err)
	}
	x := 4.0
	for _, c := range []session.Command{
		{Command: cluster.Command{Type: session.SetSpeed}, X: &x},
		{Command: cluster.Command{Type: session.Step}, Ms: ptr(int64(30000))},
		{Command: cluster.Command{Type: session.Seek}, Ms: ptr(int64(10000))},
		{Command: cluster.Command{Type: "killConsumer", ID: "c1"}},
		{Command: cluster.Command{Type: session.Reset}},
	} {
		if _, err := s.Enqueue(c); err != nil {
			t.Fatal(err)
		}
		s.Tick(16)
		frames = append(frames, s.DrainEvents())
	}
	said := 0
	for _, f := range frames {
		reworded := slices.Clone(f)
		for i := range reworded {
			if reworded[i].Kind != session.EventError {
				reworded[i].Text = "reworded"
			}
		}
		for _, lang := range []string{EN, ZH} {
			want, got := Frame(f, lang), Frame(reworded, lang)
			if !slices.Equal(got, want) {
				t.Errorf("Frame(%s) of reworded events = %q; want %q", lang, got, want)
			}
			said += len(want)
		}
		for i, e := range f {
			if got, want := Event(reworded[i], ZH), Event(e, ZH); got != want {
				t.Errorf("Event(zh) of reworded %q = %q; want %q", e.Text, got, want)
			}
		}
	}
	if said < 10 {
		t.Errorf("only %d sentences in the whole run", said)
	}
}

// A Go consumer healed after the brokers expired it asks a broker that does not list it yet:
// the narration says it takes nothing with the client's own log line, in both languages, and
// the event log's English is the engine's text.
func TestNotInCidAllIsNarrated(t *testing.T) {
	s := scenario.Presets()["small"]
	s.Consumers = []cluster.ConsumerConfig{{ID: "10.0.0.1@4012", Client: "go"}, {ID: "10.0.0.2@4013", Client: "go"}, {ID: "10.0.0.3@4014", Client: "go"}}
	s.Timeline = []scenario.Step{
		{At: 21000, Command: cluster.Command{Type: "partitionConsumer", ID: "10.0.0.3@4014"}},
		{At: 151000, Command: cluster.Command{Type: "healConsumer", ID: "10.0.0.3@4014"}},
	}
	s.Until = 200000
	r, err := scenario.Run(s, scenario.RunOptions{Events: true})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(r.Events, func(e cluster.Event) bool { return e.Cause == cluster.CauseNotInCidAll })
	if i < 0 {
		t.Fatal("no notInCidAll event in the run")
	}
	e := r.Events[i]
	if got := logText(read(e), EN); got != e.Text {
		t.Errorf("the dictionary's English log line %q; the engine says %q", got, e.Text)
	}
	zh := Event(e, ZH)
	if !strings.Contains(zh, "[BUG] ConsumerId not in cidAll") || !strings.Contains(zh, "10.0.0.3@4014") || !hasChinese(zh) {
		t.Errorf("Event(zh) = %q", zh)
	}
	for lang, want := range map[string]string{EN: `10.0.0.3@4014 takes nothing: "[BUG] ConsumerId not in cidAll" (` + e.Broker + ` does not list it)`, ZH: "10.0.0.3@4014 分不到任何队列"} {
		got := Frame([]cluster.Event{e}, lang)
		if len(got) != 1 || !strings.HasPrefix(got[0], want) {
			t.Errorf("Frame(%s) = %q; want %q…", lang, got, want)
		}
	}
}

func hasChinese(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

var moreNames = regexp.MustCompile(`^(RETRY|DLQ|GID_\w+|auto-\d+|GID_\w+_Topic\w+|P\d|G\d|proxy-\d)$`)

// The engine's causes of consume failures, tags, autoscaling and queue locks, as the scenario
// files that show them produce them, read in Chinese with no English but identifiers.
func TestChineseScenarioFileCauses(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range []string{"orderly-owner-killed", "orderly-poison", "retry-ladder", "different-tags", "autoscale-storm", "broker-side-unsupported", "pop-fourth-consumer", "pop-retry", "grpc-push-proxy", "grpc-retry", "grpc-local-proxy", "grpc-fifo"} {
		data, err := os.ReadFile("../../testdata/scenarios/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		r, err := scenario.Run(s, scenario.RunOptions{Events: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Events {
			if read(e).kind == factUnknown {
				t.Errorf("%s: event not recognised: %s %q", name, e.Cause, e.Text)
				continue
			}
			seen[e.Cause] = true
			zh := Event(e, ZH)
			// Besides the usual identifiers: groups, %RETRY%/%DLQ% topics and the ids an
			// autoscaler gives.
			bad := slices.DeleteFunc(untranslated(zh), func(w string) bool { return moreNames.MatchString(w) })
			if len(bad) > 0 {
				t.Errorf("%s: Event(zh) of %q = %q keeps %q", name, e.Text, zh, bad)
			}
		}
	}
	for _, c := range []string{cluster.CauseSendBack, cluster.CauseDeadLetter, cluster.CauseSuspend, cluster.CauseFiltered,
		cluster.CauseAutoscale, cluster.CauseLockRefused, cluster.CauseLock, cluster.CauseAssignmentNull, cluster.CauseChangeInvisible, cluster.CauseRevive, cluster.CauseProxyClear} {
		if !seen[c] {
			t.Errorf("no %s event in the scenario files run", c)
		}
	}
}
