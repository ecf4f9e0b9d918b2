package cluster

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
)

// cloneCommand draws from the playground's actions plus the model and fault-table switches,
// so broadcasting offset files and both tier tables are exercised too.
func cloneCommand(r *rand.Rand, c *Cluster) Command {
	switch r.IntN(20) {
	case 0:
		return Command{Type: "setMessageModel", Model: []string{Clustering, Broadcasting}[r.IntN(2)]}
	case 1:
		return Command{Type: "setFaultTable", Table: []string{"current", "legacy-4x"}[r.IntN(2)]}
	case 2:
		return Command{Type: "addBroker", Broker: fmt.Sprintf("broker-%c", 'c'+r.IntN(4)), Queues: ptr(1 + r.IntN(4))}
	}
	return randomCommand(r, c)
}

// story collects a cluster's events as text.
type story struct{ lines []string }

func (s *story) watch(c *Cluster) {
	c.SetObserver(func(e Event) {
		s.lines = append(s.lines, fmt.Sprintf("%d|%s|%s|%s|%s|%s", e.T, e.Kind, e.Consumer, e.Broker, strings.Join(e.Queues, ","), e.Text))
	})
}

// world is everything a cluster shows: its snapshot, log, intervals and counts, as JSON.
func world(t *testing.T, c *Cluster) string {
	t.Helper()
	data, err := json.Marshal(struct {
		Snap       Snapshot
		Log        []Event
		Anomalies  []Anomaly
		Isolations []Isolation
		Metrics    Metrics
	}{c.Snapshot(), c.Log(), c.Anomalies(), c.Isolations(), c.Metrics()})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestCloneContinuesIdentically: for many seeds, a run with random actions is cloned at a
// random moment; the original and the clone, given the same later commands and advances, tell
// the same events and show the same world at every step. A third copy, driven wildly in
// between, changes neither, and both keep matching a run that was never cloned at all.
func TestCloneContinuesIdentically(t *testing.T) {
	seeds := 60
	if testing.Short() {
		seeds = 10
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		cfg := smallConfig(100 + r.IntN(1500))
		cfg.Seed = int64(seed)
		cfg.LatencyFault = r.IntN(2) == 0
		cfg.Producers[0].Threads = 1 + r.IntN(4)
		cfg.Producers[0].Client = []string{"", "java-4.9", "go-2.1.2"}[seed%3] // each client's producer state is copied
		a, ref := mustNew(t, cfg), mustNew(t, cfg)
		var sa, sref story
		sa.watch(a)
		sref.watch(ref)
		var applied []string
		act := func(cmd Command, cs ...*Cluster) {
			var errs []string
			for _, c := range cs {
				err := c.Apply(cmd)
				errs = append(errs, fmt.Sprint(err))
			}
			for _, e := range errs[1:] {
				if e != errs[0] {
					t.Fatalf("seed %d: %s: the copies disagree on the command: %v", seed, cmd.Type, errs)
				}
			}
			applied = append(applied, fmt.Sprintf("%s %s %s%s", clock(cs[0].now), cmd.Type, cmd.ID, cmd.Broker))
		}

		until := int64(20000 + r.IntN(400000))
		for a.now < until {
			step := int64(1 + r.IntN(40000))
			a.Advance(a.now + step)
			ref.Advance(ref.now + step)
			act(cloneCommand(r, a), a, ref)
		}
		before := world(t, a)
		b := a.Clone()
		if got := world(t, b); got != before {
			t.Fatalf("seed %d at %s: the clone differs from the original at once", seed, clock(a.now))
		}
		var sb story
		sb.watch(b)

		// A third copy, driven its own way: the others must not notice.
		x := a.Clone()
		wild := rand.New(rand.NewPCG(uint64(seed), 12))
		for range 10 {
			_ = x.Apply(cloneCommand(wild, x))
			x.Advance(x.now + int64(1+wild.IntN(30000)))
		}
		if got := world(t, a); got != before {
			t.Fatalf("seed %d: driving a clone changed the original (after %v)", seed, applied)
		}

		mark := len(sa.lines)
		for range 8 {
			step := int64(1 + r.IntN(40000))
			a.Advance(a.now + step)
			b.Advance(b.now + step)
			ref.Advance(ref.now + step)
			act(cloneCommand(r, a), a, b, ref)
			wa, wb, wr := world(t, a), world(t, b), world(t, ref)
			if wa != wb {
				t.Fatalf("seed %d at %s: clone and original differ after %v:\n%s\n%s", seed, clock(a.now), applied, wa, wb)
			}
			if wa != wr {
				t.Fatalf("seed %d at %s: the cloned run differs from one never cloned after %v", seed, clock(a.now), applied)
			}
		}
		if got, want := strings.Join(sb.lines, "\n"), strings.Join(sa.lines[mark:], "\n"); got != want {
			t.Fatalf("seed %d: the clone's events differ from the original's after the clone:\n%s\n---\n%s", seed, got, want)
		}
		if got, want := strings.Join(sa.lines, "\n"), strings.Join(sref.lines, "\n"); got != want {
			t.Fatalf("seed %d: the cloned run's events differ from a run never cloned", seed)
		}
		if len(sb.lines) == 0 {
			t.Fatalf("seed %d: no event after the clone: the comparison saw nothing", seed)
		}
	}
}

// TestCloneHasNoObserver: the copy tells nobody until it is given an observer.
func TestCloneHasNoObserver(t *testing.T) {
	c := mustNew(t, smallConfig(500))
	n := 0
	c.SetObserver(func(Event) { n++ })
	c.Advance(5000)
	before := n
	d := c.Clone()
	mustApply(t, d, Command{Type: "killConsumer", ID: "c1"})
	d.Advance(20000)
	if n != before {
		t.Errorf("the original's observer heard %d events of the clone", n-before)
	}
}

// BenchmarkClone measures one copy and the heap it holds, on the playground's default and
// large presets after ten virtual minutes.
func BenchmarkClone(b *testing.B) {
	for _, p := range []struct {
		name                          string
		brokers, queues, consumers, r int
	}{{"default", 4, 8, 4, 200}, {"large", 16, 16, 64, 2000}} {
		b.Run(p.name, func(b *testing.B) {
			c, err := New(benchConfig(p.brokers, p.queues, p.consumers, p.r))
			if err != nil {
				b.Fatal(err)
			}
			c.Advance(600000)
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			keep := make([]*Cluster, 20)
			for i := range keep {
				keep[i] = c.Clone()
			}
			runtime.GC()
			runtime.ReadMemStats(&m1)
			runtime.KeepAlive(keep)
			for b.Loop() {
				_ = c.Clone()
			}
			b.ReportMetric(float64(m1.HeapAlloc-m0.HeapAlloc)/float64(len(keep))/1024, "KB/clone")
		})
	}
}

// Advancing in pieces of a few events — the playground's way of never holding the page long —
// is the same run as advancing at once: the same story, event for event, and the same state.
func TestAdvanceSomeIsAdvanceInPieces(t *testing.T) {
	cfg := smallConfig(800)
	a, ref := mustNew(t, cfg), mustNew(t, cfg)
	var sa, sref story
	sa.watch(a)
	sref.watch(ref)
	pieces := 0
	for _, to := range []int64{0, 1000, 1001, 7500, 30000} {
		for !a.AdvanceSome(to, 3) {
			pieces++
		}
		ref.Advance(to)
		if a.Now() != to || ref.Now() != to {
			t.Fatalf("at %d: %d and %d", to, a.Now(), ref.Now())
		}
		if to == 7500 {
			mustApply(t, a, Command{Type: "killConsumer", ID: "c1"})
			mustApply(t, ref, Command{Type: "killConsumer", ID: "c1"})
		}
	}
	if pieces < 100 {
		t.Errorf("30 s in %d pieces of 3 events; want many", pieces)
	}
	if !slices.Equal(sa.lines, sref.lines) {
		t.Errorf("the stories differ: %d and %d events", len(sa.lines), len(sref.lines))
	}
	if world(t, a) != world(t, ref) {
		t.Error("the states differ")
	}
}

// TestCloneCopiesTopicAndGroupState checks, field by field, that Clone leaves no pointer,
// slice or map of the topic's and the group's state shared between the original and the copy,
// except those shared or reset on purpose (listed here with why). A field added to one of these
// structs fails here until Clone copies it or it is listed.
func TestCloneCopiesTopicAndGroupState(t *testing.T) {
	shared := map[string]string{
		"topicState.routeCache": "read-only once built",
		"topicState.tags":       "immutable once built",
		"groupState.strategy":   "immutable once built",
		"groupState.goStrategy": "immutable once built",
		"brokerTopic.shorts":    "append-only, the copy's slice is capped at its length",
		"brokerGroup.listed":    "the copy starts without and makes its own",
		"brokerGroup.order":     "read-only once made: a change makes a new one",
		"groupState.params":     "copied by cloneParams, checked below with every field set",
	}
	cfg := benchConfig(2, 4, 3, 200)
	cfg.Groups = []GroupConfig{{Name: "G1", Orderly: true}, {Name: "G2", Autoscale: &AutoscaleConfig{OutAbove: 0, Max: 3}}}
	cfg.Consumers[1].Groups = []MembershipConfig{{Group: "G1"}, {Group: "G2"}}
	c := mustNew(t, cfg)
	c.Advance(90000)
	c.deadLetterTopic(c.groups[1])
	c.ensurePopRetry(c.brokers[0], c.groups[1], c.topics[0])
	c.brokers[0].groups[0].fifoOf(0, 0).cks = []int64{1} // a FIFO batch's order info
	c.Snapshot()                                         // fills the registered lists and the queue names
	n := c.Clone()

	// A pointer or map may be nil in one topic or group (the first topic has no owning group)
	// but must be set in some, so that its copy is checked.
	set, unset := map[string]bool{}, map[string]string{}
	defer func() {
		for key, name := range unset {
			if !set[key] {
				t.Errorf("%s is nil in the test's cluster: give it a value so that its copy is checked", name)
			}
		}
	}()
	var check func(path string, a, b reflect.Value)
	check = func(path string, a, b reflect.Value) {
		for i := range a.NumField() {
			f := a.Type().Field(i)
			key := a.Type().Name() + "." + f.Name
			if _, ok := shared[key]; ok {
				continue
			}
			x, y := a.Field(i), b.Field(i)
			name := path + "." + f.Name
			switch x.Kind() {
			case reflect.Pointer, reflect.Map:
				if x.IsNil() {
					if _, ok := unset[key]; !ok {
						unset[key] = name
					}
					continue
				}
				set[key] = true
				if x.UnsafePointer() == y.UnsafePointer() {
					t.Errorf("%s is shared by the original and its clone", name)
				}
			case reflect.Slice:
				if x.Len() == 0 {
					t.Errorf("%s is empty in the test's cluster: give it a value so that its copy is checked", name)
				} else if x.UnsafePointer() == y.UnsafePointer() {
					t.Errorf("%s is shared by the original and its clone", name)
				}
			case reflect.Interface:
				t.Errorf("%s: an interface field; copy it in Clone or list it as shared here", name)
			case reflect.Struct:
				check(name, x, y)
				continue
			default:
				continue
			}
			// Elements that are pointers are copies too.
			switch {
			case x.Kind() == reflect.Slice && x.Type().Elem().Kind() == reflect.Pointer:
				for j := range min(x.Len(), y.Len()) {
					if x.Index(j).UnsafePointer() == y.Index(j).UnsafePointer() {
						t.Errorf("%s[%d] is shared by the original and its clone", name, j)
					}
				}
			case x.Kind() == reflect.Map && x.Type().Elem().Kind() == reflect.Pointer:
				for _, k := range x.MapKeys() {
					if x.MapIndex(k).UnsafePointer() == y.MapIndex(k).UnsafePointer() {
						t.Errorf("%s[%v] is shared by the original and its clone", name, k)
					}
				}
			}
		}
	}
	for i := range c.topics {
		if c.topics[i] == n.topics[i] {
			t.Fatalf("topic %d's state is shared by the original and its clone", i)
		}
		check("topic", reflect.ValueOf(*c.topics[i]), reflect.ValueOf(*n.topics[i]))
	}
	for i := range c.groups {
		if c.groups[i] == n.groups[i] {
			t.Fatalf("group %d's state is shared by the original and its clone", i)
		}
		check("group", reflect.ValueOf(*c.groups[i]), reflect.ValueOf(*n.groups[i]))
	}
	for i, b := range c.brokers {
		for j, bt := range b.topics {
			if bt == nil {
				continue
			}
			if bt == n.brokers[i].topics[j] {
				t.Fatalf("%s's part of topic %d is shared", b.name, j)
			}
			check(b.name+".topic", reflect.ValueOf(*bt), reflect.ValueOf(*n.brokers[i].topics[j]))
		}
		for j, bg := range b.groups {
			if bg == n.brokers[i].groups[j] {
				t.Fatalf("%s's part of group %d is shared", b.name, j)
			}
			check(b.name+".group", reflect.ValueOf(*bg), reflect.ValueOf(*n.brokers[i].groups[j]))
		}
	}
	vnodes, inner := 3, 5
	p := allocate.Params{VirtualNodeCnt: &vnodes, ConsumerIDCs: []string{"idc1"}, Inner: "AVG", InnerVirtualNodeCnt: &inner,
		MessageQueueList: []route.MessageQueue{{Topic: "TopicTest", BrokerName: "broker-a"}}, Values: map[string]any{"k": 1}}
	check("params", reflect.ValueOf(p), reflect.ValueOf(cloneParams(p)))
}
