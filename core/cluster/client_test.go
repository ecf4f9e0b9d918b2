package cluster

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
)

func consumerView(t *testing.T, s Snapshot, id string) ConsumerView {
	t.Helper()
	for _, cv := range s.Consumers {
		if cv.ID == id {
			return cv
		}
	}
	t.Fatalf("no consumer %s in %+v", id, s.Consumers)
	return ConsumerView{}
}

// Spec §9.1.3, §9.1.4 step 5: rocketmq-client-go's consistent-hash ring with no virtual nodes
// panics with integer divide by zero, and nothing recovers it: the Go process exits at its
// first round, its connections close and the brokers drop it; the Java member beside it, whose
// strategy does not panic, lives on.
func TestGoStrategyPanicCrashesTheProcess(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Strategy, cfg.Params = allocate.Named("CONSISTENT_HASH"), allocate.Params{VirtualNodeCnt: ptr(0)}
	cfg.Consumers = []ConsumerConfig{{ID: "10.0.0.1@4012#1"}, {ID: "10.0.0.2@4013", Client: "go"}}
	c := mustNew(t, cfg)
	var crashed []Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseConsumerCrashed {
			crashed = append(crashed, e)
		}
	})
	c.Advance(5000)
	if len(crashed) != 1 || crashed[0].Consumer != "10.0.0.2@4013" || crashed[0].Arg != "go-2.1.2" ||
		!strings.Contains(crashed[0].Text, "integer divide by zero") {
		t.Fatalf("crash events %+v; want one for the Go consumer, naming the panic", crashed)
	}
	s := c.Snapshot()
	if g := consumerView(t, s, "10.0.0.2@4013"); g.Status != StatusKilled || len(g.Queues) != 0 {
		t.Errorf("the Go consumer is %s holding %v; want a dead process holding nothing", g.Status, g.Queues)
	}
	if j := consumerView(t, s, "10.0.0.1@4012#1"); j.Status == StatusKilled || j.Status == StatusStopped {
		t.Errorf("the Java consumer is %s; want it running", j.Status)
	}
	for _, b := range s.Brokers {
		if slices.Contains(b.Consumers, "10.0.0.2@4013") {
			t.Errorf("%s still lists the crashed process: %v", b.Name, b.Consumers)
		}
	}
}

// Spec §1.2, §9.1.2: a Go consumer's id is IP@PID, so its restarted process registers with the
// same id; a Java process's default id ends in the JVM's start time, so its restart registers
// with a new one. Commands still name both by their first id.
func TestRestartKeepsAGoIDAndChangesAJavaOne(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Consumers = []ConsumerConfig{{ID: "10.0.0.1@4012#81902731"}, {ID: "10.0.0.2@4013", Client: "go"}, {ID: "10.0.0.3@4011"}}
	c := mustNew(t, cfg)
	told := map[string]string{}
	c.SetObserver(func(e Event) {
		if e.Cause == "restartConsumer" {
			told[e.Consumer] = e.Text
		}
	})
	c.Advance(10000)
	for _, id := range []string{"10.0.0.1@4012#81902731", "10.0.0.2@4013", "10.0.0.3@4011"} {
		mustApply(t, c, Command{Type: "killConsumer", ID: id})
		mustApply(t, c, Command{Type: "restartConsumer", ID: id})
	}
	c.Advance(40000)
	s := c.Snapshot()
	cid := map[string]string{}
	for _, cv := range s.Consumers {
		if cv.Status != StatusKilled && cv.Status != StatusStopped {
			cid[cv.ID] = cv.ClientID
			if cv.ID == "10.0.0.2@4013" && cv.Client != "go-2.1.2" {
				t.Errorf("the restarted Go consumer runs %s; want go-2.1.2 still", cv.Client)
			}
		}
	}
	if got := cid["10.0.0.2@4013"]; got != "10.0.0.2@4013" {
		t.Errorf("the restarted Go process registers as %q; want its IP@PID 10.0.0.2@4013", got)
	}
	for _, id := range []string{"10.0.0.1@4012#81902731", "10.0.0.3@4011"} {
		if got := cid[id]; got == "" || got == id || !strings.HasPrefix(got, strings.Split(id, "@")[0]+"@") {
			t.Errorf("the restarted Java process %s registers as %q; want a new id on the same IP", id, got)
		}
	}
	if got := told["10.0.0.2@4013"]; !strings.Contains(got, "same client id 10.0.0.2@4013") {
		t.Errorf("the Go restart is told as %q; want it to say the id stays", got)
	}
	if got := told["10.0.0.3@4011"]; !strings.Contains(got, "new client id") {
		t.Errorf("the Java restart is told as %q; want it to say the id changes", got)
	}
	want := slices.Sorted(maps.Values(cid))
	for _, b := range s.Brokers {
		if got := slices.Sorted(slices.Values(b.Consumers)); !slices.Equal(got, want) {
			t.Errorf("%s lists %v; want the three new processes %v", b.Name, got, want)
		}
	}
}

// roundsIn counts the rebalance rounds the world runs between from and to.
func roundsIn(c *Cluster, from, to int64, during func()) int64 {
	c.Advance(from)
	before := c.metrics.Rounds
	during()
	c.Advance(to)
	return c.metrics.Rounds - before
}

// Spec §9.1.5: a Go client's notifications do not coalesce and have no 1 s spacing: when a
// member joins a group on two brokers, each member runs one round per notification (one per
// broker), at once, and the newcomer its start round besides; Java members coalesce theirs,
// with rounds at least 1 s apart.
func TestGoNotificationsDoNotCoalesce(t *testing.T) {
	run := func(client string) int64 {
		cfg := smallConfig(100)
		cfg.Consumers = []ConsumerConfig{{ID: "a", Client: client}, {ID: "b", Client: client}}
		c := mustNew(t, cfg)
		return roundsIn(c, 30000, 31500, func() {
			mustApply(t, c, Command{Type: "addConsumer", ID: "n", Client: client})
		})
	}
	// Go: a and b 2 rounds each, n its start round and 2 more.
	if got := run("go"); got != 7 {
		t.Errorf("Go group: %d rounds within 1.5 s of a join; want 7 (one per notification, plus the start round)", got)
	}
	// Java: wake-ups coalesce and rounds are 1 s apart, so each member runs at most two
	// rounds in 1.5 s, however many notifications come.
	if got := run("java"); got > 6 || got < 3 {
		t.Errorf("Java group: %d rounds within 1.5 s of a join; want 3…6 (one or two per member)", got)
	}
}

// Spec §9.1.5: a Go client's timed rounds sit on a fixed 20 s grid from its start, whatever
// rounds a notification ran in between; a Java client waits 20 s after each round.
func TestGoTimedRoundsKeepTheirGrid(t *testing.T) {
	next := func(client string) int64 {
		cfg := smallConfig(100)
		cfg.Consumers = []ConsumerConfig{{ID: "a", Client: client}}
		c := mustNew(t, cfg)
		c.Advance(30000)
		mustApply(t, c, Command{Type: "addConsumer", ID: "n", Client: client})
		c.Advance(33000)
		return consumerView(t, c.Snapshot(), "a").NextRebalanceMs
	}
	if got := next("go"); got != 40000 {
		t.Errorf("Go consumer's next round %d ms; want 40000, its ticker's next tick", got)
	}
	if got := next("java"); got <= 50000 {
		t.Errorf("Java consumer's next round %d ms; want 20 s after its round at ~31 s", got)
	}
}

// Spec §9.1.9: a Go consumer's shutdown sends no UNREGISTER_CLIENT; its closed connections
// make each broker drop it and notify the group.
func TestGoShutdownClosesInsteadOfUnregistering(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Consumers = []ConsumerConfig{{ID: "a"}, {ID: "g", Client: "go"}}
	c := mustNew(t, cfg)
	var causes []string
	c.SetObserver(func(e Event) {
		if e.Kind == EventChange && e.Consumer == "g" {
			causes = append(causes, e.Cause)
		}
	})
	c.Advance(30000)
	mustApply(t, c, Command{Type: "stopConsumer", ID: "g"})
	if want := []string{CauseConnectionClosed, CauseConnectionClosed}; !slices.Equal(causes, want) {
		t.Errorf("brokers saw %v; want each see g's connection close, no unregister", causes)
	}
}

// A client that cannot run the group's strategy is refused with the reason (spec §9.1.3:
// v2.1.2's MACHINE_ROOM_NEARBY has no inner strategy), and so is an unknown client.
func TestClientStrategyAndNameErrors(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Strategy = allocate.Named("MACHINE_ROOM_NEARBY-CONSISTENT_HASH")
	cfg.Consumers = []ConsumerConfig{{ID: "g", Client: "go"}}
	if _, err := New(cfg); err == nil || !strings.Contains(err.Error(), "no inner strategy") {
		t.Errorf("New with a Go member under MACHINE_ROOM_NEARBY-CONSISTENT_HASH: %v; want the Go client's refusal", err)
	}
	c := mustNew(t, smallConfig(100))
	if err := c.Apply(Command{Type: "addConsumer", ID: "x", Client: "python"}); err == nil || !strings.Contains(err.Error(), "unknown client profile") {
		t.Errorf("addConsumer client python: %v; want an unknown-profile error", err)
	}
	mustApply(t, c, Command{Type: "addConsumer", ID: "g", Client: "go"})
	if err := c.Apply(Command{Type: "setStrategy", Strategy: "MACHINE_ROOM_NEARBY-CONSISTENT_HASH"}); err == nil || !strings.Contains(err.Error(), "g: go-2.1.2") {
		t.Errorf("setStrategy a strategy the Go member cannot run: %v; want it refused naming the member", err)
	}
}

// Spec §9.1.7: a Go client's drop is persist([mq]), which erases every other queue's in-memory
// offset: a second queue dropped before it consumes again uploads nothing, and its new owner
// resumes from the older broker value; Java's per-queue persist uploads each one.
func TestGoDropErasesTheOtherOffsets(t *testing.T) {
	committedAfterTwoDrops := func(client string) (uploaded, inMemory int64) {
		cfg := smallConfig(200)
		cfg.Consumers = []ConsumerConfig{{ID: "a", Client: client}}
		c := mustNew(t, cfg)
		c.Advance(20000)
		cs := c.current[memberKey{"a", 0}]
		mustApply(t, c, Command{Type: "hangConsumer", ID: "a"}) // nothing consumed from now on
		c.Advance(21000)
		p0, p1 := cs.pqList[0], cs.pqList[1]
		if p1.nextPull <= p1.consumedUpTo {
			t.Fatalf("%s: nothing cached on %s", client, p1.mq.Short())
		}
		p1.consumedUpTo++ // one more message done since its offset last reached the broker
		c.dropQueue(cs, p0, true)
		c.dropQueue(cs, p1, true)
		return p1.off.committed, p1.offset()
	}
	if up, mem := committedAfterTwoDrops("java"); up != mem {
		t.Errorf("Java: broker holds %d for the second dropped queue; want its in-memory %d", up, mem)
	}
	if up, mem := committedAfterTwoDrops("go"); up != mem-1 {
		t.Errorf("Go: broker holds %d for the second dropped queue (in memory %d); want the older value %d, nothing uploaded", up, mem, mem-1)
	}
}

// Spec §9.1.5: a new connection is no rebalance trigger in Go. A healed Go consumer runs one
// round per notification its reconnection causes, and no more.
func TestGoReconnectRunsOneRoundPerNotification(t *testing.T) {
	cfg := smallConfig(100)
	cfg.Consumers = []ConsumerConfig{{ID: "g", Client: "go"}}
	c := mustNew(t, cfg)
	changes := 0
	c.SetObserver(func(e Event) {
		if e.Cause == CauseReconnect || e.Cause == CauseConnectionReset {
			changes++
		}
	})
	c.Advance(30000)
	mustApply(t, c, Command{Type: "partitionConsumer", ID: "g"})
	got := roundsIn(c, 50000, 51500, func() { mustApply(t, c, Command{Type: "healConsumer", ID: "g"}) })
	if changes == 0 || got != int64(changes) {
		t.Errorf("%d rounds after the heal for %d notifications; want one per notification", got, changes)
	}
}

// Spec §3.1, §9.2: the 4.9 client has no 1 s spacing, so its start round runs at once, where
// the current client's waits a second after creation; and a strategy exception is not
// retried in 1 s but waits for the next round.
func TestJava49RoundsHaveNoSpacingAndNoRetry(t *testing.T) {
	holds := func(client string) int {
		cfg := smallConfig(100)
		cfg.Consumers = []ConsumerConfig{{ID: "a", Client: client}}
		c := mustNew(t, cfg)
		c.Advance(500)
		return len(consumerView(t, c.Snapshot(), "a").Queues)
	}
	if n := holds("java-4.9"); n != 8 {
		t.Errorf("4.9 consumer holds %d queues at 0.5 s; want all 8 from its start round", n)
	}
	if n := holds("java"); n != 0 {
		t.Errorf("current Java consumer holds %d queues at 0.5 s; want none before its first round at 1 s", n)
	}
	// MACHINE_ROOM without rooms throws on room-named brokers (spec §4.4).
	next := func(client string) int64 {
		cfg := smallConfig(100)
		cfg.Brokers = []BrokerConfig{{Name: "hz@broker-a", Queues: 4}}
		cfg.Strategy = allocate.Named("MACHINE_ROOM")
		cfg.Consumers = []ConsumerConfig{{ID: "a", Client: client}}
		c := mustNew(t, cfg)
		c.Advance(5000)
		return consumerView(t, c.Snapshot(), "a").NextRebalanceMs - 5000
	}
	if d := next("java"); d > 1000 {
		t.Errorf("current Java: next round %d ms after a throwing one; want a 1 s retry", d)
	}
	if d := next("java-4.9"); d < 10000 {
		t.Errorf("4.9: next round %d ms away after a throwing one; want the 20 s wait", d)
	}
}

// Spec §3.3, §9.1.4 step 3: a broker that knows no consumer of the group answers SYSTEM_ERROR
// without a body. Java takes it as null and leaves its table alone; Go does not check the code,
// parses an empty list, and its strategy's guard drops every queue of the topic.
func TestABrokerWithoutTheGroupEmptiesAGoConsumer(t *testing.T) {
	holdsAfter := func(client string) int {
		cfg := smallConfig(100)
		cfg.Consumers = []ConsumerConfig{{ID: "a", Client: client}}
		c := mustNew(t, cfg)
		c.Advance(10000)
		cs := c.current[memberKey{"a", 0}]
		if len(cs.pqList) != 8 {
			t.Fatalf("%s: holds %d queues before; want 8", client, len(cs.pqList))
		}
		for _, b := range c.brokers {
			b.groupOf(cs).dropChannel(cs.idx) // the brokers forget the group, as after a broker restart
		}
		c.rebalance(cs)
		return len(cs.pqList)
	}
	if n := holdsAfter("java"); n != 8 {
		t.Errorf("Java holds %d queues after an error answer; want its 8 kept", n)
	}
	if n := holdsAfter("go"); n != 0 {
		t.Errorf("Go holds %d queues after an error answer; want every queue dropped", n)
	}
}

// Spec §3.13 item 4, §9.1.3, §9.1.5: a Go client has no heartbeat on a new connection. Healed
// after the brokers expired it, it stays unlisted until its next periodic heartbeat; its own
// round in between asks a broker whose list lacks it, logs "[BUG] ConsumerId not in cidAll"
// and takes nothing, until the heartbeat brings it back. The current Java client heartbeats
// the new connection at once and is listed again right away.
func TestAHealedGoConsumerMissingFromTheListTakesNothing(t *testing.T) {
	run := func(client string) *Cluster {
		cfg := smallConfig(100)
		cfg.Consumers = []ConsumerConfig{{ID: "10.0.0.1@4012", Client: client}, {ID: "10.0.0.2@4013", Client: client}, {ID: "10.0.0.3@4014", Client: client}}
		c := mustNew(t, cfg)
		c.Advance(21000)
		mustApply(t, c, Command{Type: "partitionConsumer", ID: "10.0.0.3@4014"})
		c.Advance(151000) // past the brokers' 120 s expiry
		for _, b := range c.Snapshot().Brokers {
			if slices.Contains(b.Consumers, "10.0.0.3@4014") {
				t.Fatalf("%s: %s still lists the cut-off consumer", client, b.Name)
			}
		}
		mustApply(t, c, Command{Type: "healConsumer", ID: "10.0.0.3@4014"})
		return c
	}

	c := run("go")
	var seen []Event
	c.SetObserver(func(e Event) {
		if e.Cause == CauseNotInCidAll || e.Consumer == "10.0.0.3@4014" && (e.Kind == EventRebalance || e.Cause == CauseRegister) {
			seen = append(seen, e)
		}
	})
	if bs := listedBy(c.Snapshot(), "10.0.0.3@4014"); len(bs) != 0 {
		t.Errorf("go: listed by %v right after the heal; a Go client has no heartbeat on connect", bs)
	}
	c.Advance(151000 + 31000)
	i := slices.IndexFunc(seen, func(e Event) bool { return e.Cause == CauseNotInCidAll })
	if i < 0 {
		t.Fatalf("go: no [BUG] ConsumerId not in cidAll within 31 s of the heal: %+v", seen)
	}
	bug := seen[i]
	if bug.Consumer != "10.0.0.3@4014" || bug.Broker == "" || bug.N != 2 || !strings.Contains(bug.Text, `"[BUG] ConsumerId not in cidAll"`) {
		t.Errorf("go: the warning %+v; want the healed consumer, the broker asked and its 2 listed ids", bug)
	}
	// Right then it owns nothing, and its heartbeat later brings it back.
	if i+1 >= len(seen) || seen[i+1].Kind != EventRebalance || len(seen[i+1].Queues) != 0 || seen[i+1].T != bug.T {
		t.Errorf("go: after the warning %+v; want its rebalance to no queues at once", seen[i+1:])
	}
	back := false
	for _, e := range seen[i:] {
		back = back || e.Cause == CauseRegister
	}
	if s := c.Snapshot(); !back || len(listedBy(s, "10.0.0.3@4014")) != 2 || len(consumerView(t, s, "10.0.0.3@4014").Queues) == 0 {
		t.Errorf("go: 31 s after the heal: registered again %v, listed by %v, queues %v", back, listedBy(s, "10.0.0.3@4014"), consumerView(t, s, "10.0.0.3@4014").Queues)
	}

	c = run("java")
	if bs := listedBy(c.Snapshot(), "10.0.0.3@4014"); len(bs) != 2 {
		t.Errorf("java: listed by %v right after the heal; the current client heartbeats a new connection at once", bs)
	}
	c.SetObserver(func(e Event) {
		if e.Cause == CauseNotInCidAll {
			t.Errorf("java: %+v; the warning is the Go client's", e)
		}
	})
	c.Advance(151000 + 31000)
}

func listedBy(s Snapshot, cid string) []string {
	var out []string
	for _, b := range s.Brokers {
		if slices.Contains(b.Consumers, cid) {
			out = append(out, b.Name)
		}
	}
	return out
}

// Spec §5.4 step 2, §9.1.5: a joining Go consumer's start round follows its synchronous
// heartbeat round, so it never asks a broker that has not registered it yet.
func TestAJoiningGoConsumerIsListedBeforeItsFirstRound(t *testing.T) {
	for seed := int64(1); seed <= 20; seed++ {
		cfg := smallConfig(100)
		cfg.Seed = seed
		cfg.Consumers = []ConsumerConfig{{ID: "10.0.0.1@4012", Client: "go"}, {ID: "10.0.0.2@4013", Client: "go"}}
		c := mustNew(t, cfg)
		c.SetObserver(func(e Event) {
			if e.Cause == CauseNotInCidAll {
				t.Errorf("seed %d: %+v", seed, e)
			}
		})
		c.Advance(30000)
		mustApply(t, c, Command{Type: "addConsumer", ID: "10.0.0.9@4020", Client: "go"})
		c.Advance(35000)
		if q := consumerView(t, c.Snapshot(), "10.0.0.9@4020").Queues; len(q) == 0 {
			t.Errorf("seed %d: the newcomer holds nothing 5 s after joining", seed)
		}
	}
}
