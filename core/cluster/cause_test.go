package cluster

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/fault"
)

// checkCause fails when an event's cause is not documented in Causes, belongs to another kind,
// or lacks the fields the table of Causes promises.
func checkCause(t *testing.T, e Event) {
	t.Helper()
	kind, ok := CauseKind(e.Cause)
	if !ok {
		t.Fatalf("event %s %q has cause %q, not one of Causes", e.Kind, e.Text, e.Cause)
	}
	if kind != e.Kind {
		t.Fatalf("event %q: cause %s is of kind %s; the event is %s", e.Text, e.Cause, kind, e.Kind)
	}
	bad := ""
	switch e.Cause {
	case "addConsumer", "killConsumer", "partitionConsumer", "healConsumer", "stopConsumer", "restartConsumer",
		"hangConsumer", "resumeConsumer", CauseRebalance, CauseExpiryAhead, CauseStrategyThrew, CauseConsumerCrashed:
		if e.Consumer == "" {
			bad = "no consumer"
		}
	case "killProxy", "restoreProxy", "addProxy", CauseProxyDown:
		if e.Arg == "" {
			bad = "no proxy"
		}
	case CauseProxyRegister, CauseAckHeld:
		if e.Consumer == "" || e.Arg == "" {
			bad = "no consumer or proxy"
		}
	case "slowBroker", "killBroker", "restoreBroker", CauseOverlap:
		if e.Broker == "" {
			bad = "no broker"
		}
	case "addBroker", "setQueues":
		if e.Broker == "" || e.N <= 0 && e.Text != e.Broker+" now has 0 queues for the topic" {
			bad = "no broker or queue count"
		}
	case CauseSubscription:
		if e.Consumer == "" || e.Broker == "" || e.Arg == "" {
			bad = "no consumer, broker or topic"
		}
	case CauseRegister, CauseUnregister, CauseConnectionClosed:
		if e.Consumer == "" || e.Broker == "" {
			bad = "no consumer or broker"
		}
	case CauseIdleClosed, CauseExpire, CauseExpireNotify:
		if e.Consumer == "" || e.Broker == "" || e.N <= 0 {
			bad = "no consumer, broker or seconds"
		}
	case CauseIsolateSlow, CauseIsolateFailed:
		if e.Broker == "" || e.Arg == "" || e.Until <= e.T-1000 || e.N <= 0 || (e.Cause == CauseIsolateSlow) != (e.LatencyMs > 0) {
			bad = "no broker, producer, deadline, tier or latency"
		}
	case "setStrategy", "setFaultTable", "setMessageModel":
		if e.Arg == "" {
			bad = "no argument"
		}
	case "setLatencyFault":
		if e.Arg != "on" && e.Arg != "off" {
			bad = "arg neither on nor off"
		}
	}
	if (e.Cause == CauseRevive || e.Cause == CauseChangeInvisible) && (e.Consumer == "" || e.Broker == "" || e.N <= 0 || e.Arg == "") {
		bad = "no consumer, broker, count or kind"
	}
	if e.Cause == CauseOverlap && (len(e.Queues) != 1 || len(e.Owners) < 2) {
		bad = "not one queue and several owners"
	}
	if e.Cause == CauseExpiryAhead && e.Until <= e.T {
		bad = "no expected expiry"
	}
	if e.Cause == CauseSelectorThrew && (e.Arg == "" || e.Error == "") {
		bad = "no producer or message"
	}
	if (e.Cause == CauseStrategyThrew || e.Cause == CauseConsumerCrashed) && e.Arg == "" {
		bad = "no strategy or client"
	}
	if bad != "" {
		t.Fatalf("event %+v (cause %s): %s", e, e.Cause, bad)
	}
}

// Every command type is a documented cause: the action an applied command emits has its type
// as its cause.
func TestEveryCommandIsACause(t *testing.T) {
	for _, typ := range CommandNames() {
		if k, _ := CauseKind(typ); k != EventAction {
			t.Errorf("command %s is not documented as an action cause", typ)
		}
	}
}

// TestEveryEventHasADocumentedCause runs busy random worlds, with the actions the random
// generator does not draw added, and checks every event the engine emits (and its log keeps)
// against the table of Causes; and that the runs met most of the causes, so the check means
// something.
func TestEveryEventHasADocumentedCause(t *testing.T) {
	seen := map[string]bool{}
	seeds := 30
	if testing.Short() {
		seeds = 6
	}
	// watch checks every event of c and notes its cause.
	watch := func(c *Cluster) {
		c.SetObserver(func(e Event) {
			checkCause(t, e)
			seen[e.Cause] = true
		})
	}
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 5))
		cfg := smallConfig(200 + r.IntN(1500))
		cfg.Seed = int64(seed)
		cfg.LatencyFault = true
		if seed == 0 {
			// A member subscribing another topic flips the group's subscription (spec §5.7).
			cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: "o1", Subscription: &SubscriptionConfig{Topic: "OtherTopic"}})
		}
		c := mustNew(t, cfg)
		watch(c)
		extra := [][]Command{
			{{Type: "addBroker", Broker: "hz@broker-x", Queues: ptr(2)}},
			{{Type: "setFaultTable", Table: fault.TableLegacy4x}},
			{{Type: "setMessageModel", Model: Broadcasting}},
			{{Type: "setMessageModel", Model: Clustering}},
			// MACHINE_ROOM without consumeridcs throws on a room-named broker (spec §4.4).
			{{Type: "setStrategy", Strategy: "MACHINE_ROOM"}},
			{{Type: "setStrategy", Strategy: "AVG"}},
			{{Type: "addConsumer", ID: "h1"}, {Type: "hangConsumer", ID: "h1"}, {Type: "resumeConsumer", ID: "h1"}},
			// rocketmq-client-go's ring panics with no virtual nodes: the Go process crashes
			// at its round right away (spec §9.1.3, §9.1.4).
			{{Type: "setStrategy", Strategy: "CONSISTENT_HASH", Params: &allocate.Params{VirtualNodeCnt: ptr(0)}}, {Type: "addConsumer", ID: "g1", Client: "go"}},
			{{Type: "setStrategy", Strategy: "AVG"}},
			{{Type: "setLatencyTiers", LatencyMax: []int64{50, 1800}, NotAvailableDuration: []int64{0, 60000}},
				{Type: "setProducerThreads", Threads: ptr(4)}, {Type: "setSendMode", Mode: SendAsync}, {Type: "setSendMode", Mode: SendSync}},
		}
		next := int64(5000)
		for c.now < 600000 {
			if c.now >= next {
				cmds := []Command{randomCommand(r, c)}
				if len(extra) > 0 && r.IntN(4) == 0 {
					cmds, extra = extra[0], extra[1:]
				}
				for _, cmd := range cmds {
					_ = c.Apply(cmd)
				}
				next = c.now + int64(1000+r.IntN(40000))
			}
			c.Advance(c.now + 500)
		}
		for _, e := range c.Log() {
			checkCause(t, e)
		}
	}
	// A Go consumer healed after the brokers expired it asks one that does not list it yet
	// (spec §3.13, §9.1.3): timed so that its round comes before its heartbeat.
	cfg := smallConfig(100)
	cfg.Consumers = []ConsumerConfig{{ID: "10.0.0.1@4012", Client: "go"}, {ID: "10.0.0.2@4013", Client: "go"}, {ID: "10.0.0.3@4014", Client: "go"}}
	c := mustNew(t, cfg)
	watch(c)
	c.Advance(21000)
	mustApply(t, c, Command{Type: "partitionConsumer", ID: "10.0.0.3@4014"})
	c.Advance(151000)
	mustApply(t, c, Command{Type: "healConsumer", ID: "10.0.0.3@4014"})
	c.Advance(200000)

	// A listener that fails everything sends back and, at its group's maxReconsumeTimes 1,
	// dead-letters (spec §3.15, §5.8).
	cfg = smallConfig(10)
	// Its autoscaler starts a member on any backlog, and stops it once none is left.
	cfg.Groups = []GroupConfig{{Name: "G", MaxReconsumeTimes: 1, Autoscale: &AutoscaleConfig{OutAbove: 0, InBelow: 0, Min: 1, Max: 2, PeriodMs: 1000}}}
	cfg.Consumers = []ConsumerConfig{{ID: "f1", Groups: []MembershipConfig{{Group: "G", FailRate: 1}}}}
	c = mustNew(t, cfg)
	watch(c)
	c.Advance(60000)
	mustApply(t, c, Command{Type: "setSubscription", ID: "f1", Subscription: "TopicTest:TagA"})
	half := 50
	mustApply(t, c, Command{Type: "setFailRate", ID: "f1", FailPercent: &half})
	above, most := 100, 3
	mustApply(t, c, Command{Type: "setAutoscale", OutAbove: &above, MaxMembers: &most})
	mustApply(t, c, Command{Type: "addTopic", Topic: "TopicNew", Rate: &above})
	// Left to the brokers, a member of a CONSISTENT_HASH group gets no answer (spec §8.2).
	off := false
	mustApply(t, c, Command{Type: "setStrategy", Strategy: "CONSISTENT_HASH"})
	mustApply(t, c, Command{Type: "setClientRebalance", ID: "f1", ClientRebalance: &off})
	// An orderly listener that fails suspends its queue (spec §3.15).
	oc := smallConfig(10)
	oc.Groups = []GroupConfig{{Name: "O", Orderly: true}}
	oc.Consumers = []ConsumerConfig{{ID: "o1", Groups: []MembershipConfig{{Group: "O", FailRate: 1}}}, {ID: "o2"}}
	o := mustNew(t, oc)
	watch(o)
	o.Advance(10000)
	// Its killed member's queues wait for their locks to expire (spec §8.5.3).
	mustApply(t, o, Command{Type: "killConsumer", ID: "o2"})
	o.Advance(100000)
	mustApply(t, c, Command{Type: "setPerm", Broker: "broker-a", Perm: PermR})
	mustApply(t, c, Command{Type: "removeBroker", Broker: "broker-b"})
	c.Advance(90000)

	// A producer's own selector that throws fails its keyed sends (spec §2.11).
	withFakeSelectors(t, nil)
	s := mustNew(t, keyedConfig("fail"))
	watch(s)
	s.Advance(2000)
	mustApply(t, s, Command{Type: "setSelector", Selector: "FAKE", Source: "last"})
	s.Advance(3000)

	// POP (spec §8.3): a member failing half its messages changes their invisible time, a
	// killed one's popped messages are revived.
	pc := smallConfig(200)
	pc.Groups = []GroupConfig{{Name: "P"}}
	pc.Consumers = []ConsumerConfig{{ID: "p1", ClientRebalance: &off, Groups: []MembershipConfig{{Group: "P", FailRate: 0.5}}}, {ID: "p2", ClientRebalance: &off}}
	p := mustNew(t, pc)
	watch(p)
	mustApply(t, p, Command{Type: "setConsumeMode", ConsumeMode: ModePop})
	p.Advance(30000)
	mustApply(t, p, Command{Type: "killConsumer", ID: "p2"})
	p.Advance(120000)

	// gRPC (spec §8.4.6): a killed PushConsumer's messages are cleared by its proxy when its
	// channel expires.
	gc := smallConfig(200)
	gc.Proxies = []ProxyConfig{{Name: "proxy-1"}}
	gc.Consumers = []ConsumerConfig{{ID: "g1", Kind: KindGrpcPush, ConsumeRate: 20}, {ID: "g2", Kind: KindGrpcPush}}
	gc.Detail = true // pops and acks are told when asked
	// A SimpleConsumer whose awaitDuration the proxy refuses (spec §8.4.5 step 1).
	gc.Consumers = append(gc.Consumers, ConsumerConfig{ID: "s1", Kind: KindGrpcSimple, AwaitDurationMs: 1000})
	// A classic member asking for its queues through the proxy's remoting port (spec §8.1).
	gc.Consumers = append(gc.Consumers, ConsumerConfig{ID: "r1", ClientRebalance: &off, Proxy: "proxy-1"})
	gc.Producers = append(gc.Producers, ProducerConfig{ID: "gp", Rate: 50, Kind: ProducerGrpc}) // a gRPC producer (spec §8.4.8)
	gp := mustNew(t, gc)
	watch(gp)
	gp.Advance(30000)
	mustApply(t, gp, Command{Type: "killConsumer", ID: "g1"})
	// A parked receive of the killed g1 woken by a message (spec §8.4.6, inferred).
	gi := grpcConfig([]string{"i1", "i2"}, nil)
	gi.Producers[0].Rate = 0
	idle := mustNew(t, gi)
	watch(idle)
	idle.Advance(5000)
	mustApply(t, idle, Command{Type: "killConsumer", ID: "i1"})
	mustApply(t, idle, Command{Type: "setProducerRate", Rate: ptr(50)})
	idle.Advance(10000)
	// … and a dead broker the proxy's view still lists fails the gRPC producer's sends, until
	// a reload drops it.
	mustApply(t, gp, Command{Type: "killBroker", Broker: "broker-b"})
	gp.Advance(200000)
	// A killed proxy (spec §8.4.6, §8.4.9): its clients' calls fail and its renewals are gone;
	// restored, a receive before a client's heartbeat is nacked, the heartbeat registers it,
	// and acks held meanwhile go through.
	mustApply(t, gp, Command{Type: "addProxy", Proxy: "proxy-2"})
	mustApply(t, gp, Command{Type: "addConsumer", ID: "g3", Kind: KindGrpcPush, Proxy: "proxy-2", ConsumeRate: ptr(50)})
	gp.Advance(gp.now + 20000)
	mustApply(t, gp, Command{Type: "killProxy", Proxy: "proxy-2"})
	gp.Advance(gp.now + 3500)
	mustApply(t, gp, Command{Type: "restoreProxy", Proxy: "proxy-2"})
	gp.Advance(gp.now + 30000)

	var missing []string
	for _, cause := range append(slices.Collect(maps.Keys(Causes)), CommandNames()...) {
		if !seen[cause] {
			missing = append(missing, cause)
		}
	}
	slices.Sort(missing)
	// The expiry that notifies needs a tuned timing (ExpiryNotifies); everything else happens.
	if len(missing) > 1 || len(missing) == 1 && missing[0] != CauseExpireNotify {
		t.Errorf("causes never emitted in %d busy runs: %v", seeds, missing)
	}
}

// An expiry that races the close (Timing.ExpiryNotifies) is told as expireNotify.
func TestExpireNotifyCause(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Timing.ExpiryNotifies = true
	cfg.Timing.IdleTimeout = 600000 // the scan, not the idle close, finds the silent channel
	c := mustNew(t, cfg)
	var got []Event
	c.SetObserver(func(e Event) {
		checkCause(t, e)
		if e.Kind == EventChange && e.Consumer == "c2" {
			got = append(got, e)
		}
	})
	c.Advance(30000)
	mustApply(t, c, Command{Type: "partitionConsumer", ID: "c2"})
	c.Advance(300000)
	if !slices.ContainsFunc(got, func(e Event) bool { return e.Cause == CauseExpireNotify && e.N == 120 }) {
		t.Errorf("no broker expired c2 with expireNotify after 120 s: %+v", got)
	}
}
