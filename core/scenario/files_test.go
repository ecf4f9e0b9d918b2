package scenario

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
)

var rewrite = flag.Bool("rewrite", false, "rewrite testdata/scenarios/*.golden from the current output (review the diff)")

// checks states, for each scenario file, the behaviour of the specification it shows. The
// golden timeline beside each file pins everything else; these are the facts a reader relies on.
var checks = map[string]func(t *testing.T, r *Result){
	"grpc-push-proxy.json": func(t *testing.T, r *Result) {
		// Every gRPC consumer gets every broker's acting queue from the proxy, with no
		// rebalance round; P2's messages, renewed while its channel lived, are cleared at the
		// proxy's scan 120–130 s after its last heartbeat, i.e. 110–130 s after the kill at
		// 1:00, and revived about 3 s later (spec §8.4.3, §8.4.6, §8.6.4).
		for _, s := range r.Snapshot.Consumers {
			if s.Kind != cluster.KindGrpcPush || s.Proxy != "proxy-1" {
				t.Errorf("%s: kind %q, proxy %q; want grpc-push through proxy-1", s.ID, s.Kind, s.Proxy)
			}
		}
		if a := r.Final.Assignment["P1"]; strings.Join(a, " ") != "broker-a:-1 broker-b:-1" {
			t.Errorf("P1 holds %v; want broker-a:-1 broker-b:-1", a)
		}
		var cleared, revived, ghost int64
		var clearedAt, revivedAt, ghostAt int64
		for _, e := range r.Events {
			switch {
			case e.Cause == cluster.CauseProxyClear && e.Consumer == "P2":
				cleared, clearedAt = e.N, e.T
			case e.Cause == cluster.CauseGhostReceive && e.Consumer == "P2":
				// §8.6.4 step 5, inferred: P2's parked receives still pop within their poll.
				ghost += e.N
				ghostAt = e.T
			case e.Cause == cluster.CauseRevive && e.Consumer == "P2" && clearedAt > 0:
				revived += e.N
				revivedAt = e.T
			}
		}
		if cleared == 0 || clearedAt < 60000+110000 || clearedAt > 60000+130000 {
			t.Errorf("P2's %d messages cleared at %d ms; want some, 110–130 s after the kill at 1:00", cleared, clearedAt)
		}
		if revived != cleared || revivedAt < clearedAt+3000 || revivedAt > clearedAt+4100 {
			t.Errorf("%d of P2's messages revived at %d ms; want all %d, 3.0–4.1 s after the clear at %d", revived, revivedAt, cleared, clearedAt)
		}
		if ghost == 0 || ghostAt < 60000 || ghostAt > 80000 {
			t.Errorf("P2's parked receives popped %d messages, the last at %d ms; want some within their 20 s poll after the kill", ghost, ghostAt)
		}
		// Those reach the others twice: the second time counts as a duplicate.
		if m := r.Metrics; m.Lost != 0 || m.Backlog != 0 || m.Produced-m.Consumed > 32 || m.Duplicates != ghost || m.Renewed == 0 {
			t.Errorf("metrics %+v; want every message consumed, the %d popped by P2's parked receives twice, none lost, renewals counted", m, ghost)
		}
	},
	"broker-side-join.json": func(t *testing.T, r *Result) {
		// Spec §8.6.1: the brokers' AVG over their member lists, before and after c2 joins;
		// the POP retry topic subscribed and never routed, so every member rebalances about
		// once a second (3 members over 30 s and 2 over 30 s: some 150 rounds, not 6).
		want := map[string]string{"c0": "broker-a:0 broker-a:1 broker-a:2", "c1": "broker-a:3 broker-b:0 broker-b:1", "c2": "broker-b:2 broker-b:3"}
		for id, qs := range want {
			if got := strings.Join(r.Final.Groups["G"]["T"][id], " "); got != qs {
				t.Errorf("%s holds %s of T; want %s", id, got, qs)
			}
		}
		if got := r.Final.Groups["G"]["%RETRY%G"]; len(got["c0"]) != 1 || len(got["c1"]) != 1 || len(got["c2"]) != 0 {
			t.Errorf("%%RETRY%%G: %v; want one queue each for c0 and c1, none for c2", got)
		}
		if got := r.Final.Groups["G"]["%RETRY%G_T"]; got == nil || len(got["c0"])+len(got["c1"])+len(got["c2"]) != 0 {
			t.Errorf("%%RETRY%%G_T: %v; want subscribed by every member, no queue", got)
		}
		if m := r.Metrics; m.Rounds < 120 || m.Lost != 0 || m.Duplicates != 0 {
			t.Errorf("metrics %+v; want rounds about once a second per member, nothing lost or duplicated", m)
		}
		flips := 0
		for _, e := range r.Events {
			if e.Cause == cluster.CauseSubscription && strings.Contains(e.Arg, "%RETRY%G_T") {
				flips++
			}
		}
		if flips == 0 {
			t.Errorf("no broker told the subscription of %s as a change of the group's", "%RETRY%G_T")
		}
	},
	"grpc-fifo.json": func(t *testing.T, r *Result) {
		// Spec §8.4.3 FIFO: one assignment per queue; §8.3.9: batches come back where they
		// are, never through a retry topic; §8.4.6: the batches dead P1 held before the kill
		// are renewed until its channel expires (its last heartbeat at 0:51, so 2:51–3:01).
		for _, e := range r.Events {
			switch {
			case e.Cause == cluster.CauseRebalance && len(e.Queues) != 8:
				t.Errorf("%s: %s; want one assignment per queue of both brokers", Clock(e.T), e.Text)
			case e.Cause == cluster.CauseRevive && strings.Contains(e.Arg, "%RETRY%"):
				t.Errorf("%s: %s; a FIFO batch comes back where it is", Clock(e.T), e.Text)
			case e.Cause == cluster.CauseRevive && e.T > 70000 && e.T < 171000:
				t.Errorf("%s: %s; P1's renewed batches come back only when its channel expires", Clock(e.T), e.Text)
			}
		}
		late := 0
		for _, e := range r.Events {
			if e.Cause == cluster.CauseRevive && e.T >= 171000 && e.T <= 185000 {
				late++
			}
		}
		if late == 0 {
			t.Error("no FIFO batch of P1 came back after its channel expired")
		}
		// The client acks each message as its listener returns: what comes back of P1's
		// batches had not reached it, and is consumed once, by P2.
		if m := r.Metrics; m.Lost != 0 || m.Backlog != 0 || m.Duplicates != 0 || m.Consumed != m.Produced || m.Revived == 0 {
			t.Errorf("metrics %+v; want every message consumed once, P1's unacked batches revived", m)
		}
	},
	"grpc-local-proxy.json": func(t *testing.T, r *Result) {
		// Spec §8.4.1 local mode: G1 registers in each broker's ConsumerManager, so c1's
		// rebalance counts it (AVG over G1 and c1: c1 keeps broker-b) and the retry queue it
		// leaves G1 is read by nobody; §8.4.9, §5.7: G1's settings at 0:01 and 5:01 replace
		// each broker's table, and c1's heartbeats put the retry topic back; §8.4.6: the
		// brokers expire G1 120–130 s after its last heartbeat and each one's proxy clears
		// what it held there; §8.4.8: the client takes the brokers in turn.
		registered := map[string]bool{}
		var settings, restored []int64
		cleared := map[string]int64{}
		for _, e := range r.Events {
			switch {
			case e.Cause == cluster.CauseRegister && e.Consumer == "G1":
				registered[e.Broker] = true
			case e.Cause == cluster.CauseSubscription && e.Consumer == "G1":
				settings = append(settings, e.T)
			case e.Cause == cluster.CauseSubscription && e.Consumer == "c1":
				restored = append(restored, e.T)
			case e.Cause == cluster.CauseProxyClear:
				cleared[e.Broker] = e.T
			}
		}
		if !registered["broker-a"] || !registered["broker-b"] {
			t.Errorf("G1 registered on %v; want both brokers", registered)
		}
		var fiveMin []int64
		for _, at := range settings {
			if at >= 300000 && at < 302000 {
				fiveMin = append(fiveMin, at)
			}
		}
		if len(settings) < 4 || len(fiveMin) != 2 {
			t.Errorf("G1's settings changed the tables at %v; want at 0:01 and again at 5:01, on both brokers", settings)
		}
		if !slices.ContainsFunc(restored, func(at int64) bool { return at > 300000 && at < 340000 }) {
			t.Errorf("c1's heartbeats restored the table at %v; want within 30 s after 5:01", restored)
		}
		orphanRetry := false
		for _, a := range r.Anomalies {
			if a.Kind == "orphan" && a.Queue == "%RETRY%GID_LOCAL/broker-a:0" && a.Start <= 3000 && a.End > 440000 {
				orphanRetry = true
			}
		}
		if !orphanRetry {
			t.Errorf("anomalies %+v; want the retry queue c1 leaves G1 unread from 0:02 until G1 expires", r.Anomalies)
		}
		for _, b := range []string{"broker-a", "broker-b"} {
			// The kill is at 5:30; G1's last heartbeat was at 5:21.
			if at := cleared[b]; at <= 321000+120000 || at > 321000+130000 {
				t.Errorf("the proxy inside %s cleared G1's messages at %s; want 120–130 s after 5:21", b, Clock(at))
			}
		}
		if got := r.Final.Assignment["c1"]; len(slices.DeleteFunc(slices.Clone(got), func(q string) bool { return strings.HasPrefix(q, "%") })) != 8 {
			t.Errorf("c1 ends with %v; want every queue of TopicLocal", got)
		}
		for _, s := range r.Sends {
			if d := s.PerBroker["broker-a"] - s.PerBroker["broker-b"]; d < -4 || d > 4 {
				t.Errorf("sends %+v; want the brokers in turn", s)
			}
		}
	},
	"grpc-producer.json": func(t *testing.T, r *Result) {
		// Spec §8.4.8: the proxy's round robin spreads p1 over all 8 queues before the kill;
		// §8.4.5: its cached view keeps broker-b until a reload that starts at the first send
		// 20 s or more after the last one ended, so sends fail only in that window, and after
		// it every message goes to broker-a.
		var failedAt, reloadAt int64 = -1, -1
		for _, e := range r.Events {
			switch e.Cause {
			case cluster.CauseProxySendFailed:
				if failedAt < 0 {
					failedAt = e.T
				}
				if e.Broker != "broker-b" || e.Until < 30000 || e.Until > 50000 {
					t.Errorf("%s: %s; want broker-b, listed until a send after 00:30–00:50", Clock(e.T), e.Text)
				}
			case cluster.CauseProxyReload:
				reloadAt = e.T
				if strings.Join(e.Queues, " ") != "broker-a:0 broker-a:1 broker-a:2 broker-a:3" {
					t.Errorf("%s: %s; want broker-a's queues alone", Clock(e.T), e.Text)
				}
			}
		}
		if failedAt < 30000 || reloadAt < 40000 || reloadAt > 51000 {
			t.Errorf("first failure at %d, reload at %d; want failures from the kill at 0:30 and the reload 20–21 s after the view's load", failedAt, reloadAt)
		}
		before, after := r.Sends[0], r.Sends[1]
		if before.PerBroker["broker-a"] == 0 || before.PerBroker["broker-b"] == 0 || after.PerBroker["broker-b"] != 0 {
			t.Errorf("sends %+v then %+v; want both brokers before the kill, broker-a alone after", before, after)
		}
		if m := r.Metrics; m.SendFailures == 0 || m.Lost != 0 || m.Consumed != m.Produced {
			t.Errorf("metrics %+v; want failed sends in the window, every stored message consumed", m)
		}
	},
	"grpc-proxy-killed.json": func(t *testing.T, r *Result) {
		// Killed at 1:30, the proxy takes its renewal table with it: the messages it was
		// renewing come back at the end of their invisible time plus the revive delay, and
		// those it had renewed are acked in vain, so they come back as duplicates (spec
		// §8.4.6, §8.3.6, §8.3.7). The Go client drops its process queues at its first
		// failed assignment query, the Java clients keep theirs (§8.4.4 step 2). Restored at
		// 1:55, the proxy answers receives for clients it has no channel of with a 1 s nack
		// until each client's heartbeat registers it again, within 10 s (§8.4.6, §8.4.9).
		var down cluster.Event
		var goDrop, javaDrop bool
		registered := map[string]int64{}
		var revivedP2 int64
		for _, e := range r.Events {
			switch {
			case e.Cause == cluster.CauseProxyDown:
				down = e
			case e.Cause == cluster.CauseRebalance && e.T > 90000 && e.T < 115000:
				goDrop = goDrop || e.Consumer == "G1" && len(e.Queues) == 0
				javaDrop = javaDrop || e.Consumer != "G1"
			case e.Cause == cluster.CauseProxyRegister:
				registered[e.Consumer] = e.T
			case e.Cause == cluster.CauseRevive && e.Consumer == "P2" && e.T > 90000:
				revivedP2 += e.N
			}
		}
		if down.T != 90000 || down.Arg != "proxy-1" || down.N == 0 || down.Until <= 90000 {
			t.Errorf("proxyDown %+v; want at 1:30, proxy-1, the messages it was renewing and when the last comes back", down)
		}
		if !goDrop || javaDrop {
			t.Errorf("during the outage Go dropped its queues %v, a Java client dropped them %v; want Go only", goDrop, javaDrop)
		}
		for _, id := range []string{"P1", "P2", "G1"} {
			if at, ok := registered[id]; !ok || at <= 115000 || at > 125000 {
				t.Errorf("%s registered again at %d ms (%v); want within 10 s after the restore at 1:55", id, at, ok)
			}
		}
		if revivedP2 < down.N/2 {
			t.Errorf("%d of P2's messages revived after the kill; want most of the %d the proxy was renewing", revivedP2, down.N)
		}
		if m := r.Metrics; m.Duplicates == 0 || m.Lost != 0 || m.Backlog != 0 {
			t.Errorf("metrics %+v; want duplicates (acks that missed renewed checkpoints), none lost, no backlog", m)
		}
	},
	"empty-long-polls.json": func(t *testing.T, r *Result) {
		// Spec §8.6.6: on an empty topic each pop is held and answered empty, then sent again
		// at once. The hold, from one pop of a member's queue to its next: 14.95–14.97 s for
		// the remoting POP consumer, 19.95–19.97 s for the gRPC PushConsumer; for the
		// SimpleConsumers the proxy's pollingTime (§8.4.5 step 1): 1 s refused at once, 3 s
		// held 5 s (4.95–4.97), 10 s held 9.95–9.97 s, 30 s cut to 20 s (19.95–19.97).
		want := map[string][2]int64{"c1": {14950, 14970}, "P1": {19950, 19970}, "S3": {4950, 4970}, "S10": {9950, 9970}, "S30": {19950, 19970}}
		last := map[string]int64{} // a member's last pop of a queue (a SimpleConsumer's: of any)
		holds := map[string]int{}
		brokers := map[string]map[string]bool{}
		for _, e := range r.Events {
			switch e.Cause {
			case cluster.CausePop:
				if e.N != 0 {
					t.Errorf("%s: %s; the topic is empty", Clock(e.T), e.Text)
				}
				key := e.Consumer + " " + e.Broker
				if strings.HasPrefix(e.Consumer, "S") {
					key = e.Consumer
					if brokers[e.Consumer] == nil {
						brokers[e.Consumer] = map[string]bool{}
					}
					brokers[e.Consumer][e.Broker] = true
				}
				w, ok := want[e.Consumer]
				if !ok {
					t.Errorf("%s: %s; want no pop of %s", Clock(e.T), e.Text, e.Consumer)
					continue
				}
				if hold := e.Until - e.T; hold < w[0] || hold > w[1] {
					t.Errorf("%s: %s: held %d ms; want %d–%d", Clock(e.T), e.Text, hold, w[0], w[1])
				}
				if at, ok := last[key]; ok {
					holds[e.Consumer]++
					if d := e.T - at; d < w[0] || d > w[1]+cluster.DefaultTiming().FlowStepMs {
						t.Errorf("%s: %s: %d ms after the last; want the held pop's answer, then a new pop at once", Clock(e.T), e.Text, d)
					}
				}
				last[key] = e.T
			case cluster.CauseReceiveRefused:
				if e.Consumer != "S1" || e.Arg != "ILLEGAL_POLLING_TIME" {
					t.Errorf("%s: %s; only S1 is refused, ILLEGAL_POLLING_TIME", Clock(e.T), e.Text)
				}
				holds["S1"]++
			}
		}
		for id := range want {
			if holds[id] == 0 {
				t.Errorf("%s: no second pop; want one after each answer", id)
			}
		}
		if holds["S1"] != 1 {
			t.Errorf("S1 refused %d times in the story; want told once", holds["S1"])
		}
		for _, id := range []string{"S3", "S10", "S30"} {
			if len(brokers[id]) != 2 {
				t.Errorf("%s received from %v; want both brokers in turn", id, brokers[id])
			}
		}
	},
	"grpc-retry.json": func(t *testing.T, r *Result) {
		// One message failed at every delivery: the retry policy's delays, each revived 2–3 s
		// after it ends (the revive rounds of the model, spec §8.3.7), then the proxy dead-letters it when it is
		// popped with reconsume count 17 (spec §8.3.8).
		var fails, revives []cluster.Event
		dead := 0
		for _, e := range r.Events {
			switch e.Cause {
			case cluster.CauseChangeInvisible:
				fails = append(fails, e)
			case cluster.CauseRevive:
				revives = append(revives, e)
			case cluster.CauseDeadLetter:
				dead++
			}
		}
		if len(fails) != 17 || len(revives) != 17 || dead != 1 {
			t.Fatalf("%d failures, %d revives, %d dead letters; want 17, 17 and 1", len(fails), len(revives), dead)
		}
		delays := []int64{1, 5, 10, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600}
		for k, f := range fails {
			if got := revives[k].T - f.T; got < delays[k]*1000+2000 || got >= delays[k]*1000+3000 {
				t.Errorf("failure %d revived %d ms later; want %d s + 2–3 s", k+1, got, delays[k])
			}
		}
		if m := r.Metrics; m.Consumed != 1 || m.Reconsumed != 16 || m.DeadLettered != 1 || m.PopDropped != 0 {
			t.Errorf("metrics %+v; want one message consumed, reconsumed 16 times, dead-lettered once", m)
		}
	},
	"pop-fourth-consumer.json": func(t *testing.T, r *Result) {
		// Four members on three queues all pop broker-a:-1; c2's unconsumed messages come
		// back 62–64 s after their pop, on the POP retry topic (spec §8.2.2, §8.6.3).
		for _, id := range []string{"c1", "c3", "c4"} {
			if a := r.Final.Assignment[id]; !slices.Contains(a, "broker-a:-1") {
				t.Errorf("%s holds %v; want broker-a:-1", id, a)
			}
		}
		for _, s := range r.Snapshot.Consumers {
			if s.Consumed == 0 {
				t.Errorf("%s consumed nothing: under POP every member consumes", s.ID)
			}
		}
		var revived int64
		for _, e := range r.Events {
			if e.Cause != cluster.CauseRevive {
				continue
			}
			revived += e.N
			if e.Consumer != "c2" || e.Arg != "%RETRY%GID_POP_TopicPop" || e.T < 60000+62000-5000 {
				t.Errorf("revive %+v; want c2's messages, popped before the kill at 1:00, 62 s or more after their pop", e)
			}
		}
		if m := r.Metrics; revived == 0 || m.Revived != revived || m.Lost != 0 || m.Duplicates != 0 || m.Backlog != 0 {
			t.Errorf("revived %d (metrics %d), lost %d, duplicates %d, backlog %d", revived, m.Revived, m.Lost, m.Duplicates, m.Backlog)
		}
	},
	"pop-retry.json": func(t *testing.T, r *Result) {
		// One message, failed at every delivery: 16 changes of its invisible time on the POP
		// retry delays, revived 2–3 s after each, then acked and dropped at the 17th (spec
		// §8.2.4 step 7, §8.6.5).
		var fails, revives []cluster.Event
		for _, e := range r.Events {
			switch e.Cause {
			case cluster.CauseChangeInvisible:
				fails = append(fails, e)
			case cluster.CauseRevive:
				revives = append(revives, e)
			}
		}
		if len(fails) != 17 || len(revives) != 16 || fails[16].Arg != "drop" {
			t.Fatalf("%d failures and %d revives; want 17 and 16, the last failure a drop", len(fails), len(revives))
		}
		delays := []int64{10, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600, 7200}
		for k, f := range fails[:16] {
			if got := revives[k].T - f.T; got < delays[k]*1000+2000 || got >= delays[k]*1000+3000 {
				t.Errorf("failure %d revived %d ms later; want %d s + 2–3 s", k+1, got, delays[k])
			}
		}
		if m := r.Metrics; m.Produced != 1 || m.Consumed != 1 || m.Reconsumed != 16 || m.PopDropped != 1 || m.DeadLettered != 0 {
			t.Errorf("metrics %+v; want one message consumed, reconsumed 16 times, dropped, never dead-lettered", m)
		}
	},
	"pop-share-queue-num.json": func(t *testing.T, r *Result) {
		// popShareQueueNum 1 (spec §8.6.7): each member pops its block and the next's; after
		// c4 joins, blocks of two.
		want := map[string]string{"c1": "broker-a:0,broker-a:1,broker-a:2,broker-a:3", "c2": "broker-a:2,broker-a:3,broker-b:0,broker-b:1",
			"c3": "broker-b:0,broker-b:1,broker-b:2,broker-b:3", "c4": "broker-a:0,broker-a:1,broker-b:2,broker-b:3"}
		for id, w := range want {
			got := slices.DeleteFunc(slices.Clone(r.Final.Assignment[id]), func(q string) bool { return strings.HasPrefix(q, "%") })
			if strings.Join(got, ",") != w {
				t.Errorf("%s pops %v; want %s", id, got, w)
			}
		}
		if r.Metrics.Revived == 0 {
			t.Error("the queues c2 lost were dropped without an ack: their messages must come back")
		}
	},
	"orderly-poison.json": func(t *testing.T, r *Result) {
		// c1's two queues stop at their first message, suspended every second for the whole
		// run; c2's flow. What c1's queues received stays unconsumed.
		if n := r.Metrics.Suspensions; n < 100 {
			t.Errorf("%d suspensions in a minute; want c1's two queues suspended about every second", n)
		}
		if r.Metrics.Backlog < r.Metrics.Produced/3 {
			t.Errorf("backlog %d of %d: c1's half should be blocked", r.Metrics.Backlog, r.Metrics.Produced)
		}
	},
	"broker-side-unsupported.json": func(t *testing.T, r *Result) {
		// The members asking the brokers get nothing under CONSISTENT_HASH and rebalance every
		// second; c1 takes its share once it computes its own again (spec §8.2.2).
		told := map[string]bool{}
		for _, e := range r.Events {
			if e.Cause == cluster.CauseAssignmentNull {
				told[e.Consumer] = true
			}
		}
		if !told["c1"] || !told["c2"] || told["c3"] {
			t.Errorf("told %v; want c1 and c2", told)
		}
		if len(r.Final.Assignment["c2"]) != 0 || len(r.Final.Assignment["c1"]) == 0 || r.Metrics.Rounds < 80 {
			t.Errorf("c1 %v, c2 %v, %d rounds; want c2 without queues, c1 with its share, rounds every second",
				r.Final.Assignment["c1"], r.Final.Assignment["c2"], r.Metrics.Rounds)
		}
	},
	"orderly-owner-killed.json": func(t *testing.T, r *Result) {
		// c2's queues are refused to their new owner from the kill at 30 s until the brokers'
		// locks expire 60 s after c2's renewal at 21 s, then locked (spec §8.5.3).
		var refused, locked []int64
		for _, e := range r.Events {
			switch e.Cause {
			case cluster.CauseLockRefused:
				refused = append(refused, e.T)
			case cluster.CauseLock:
				locked = append(locked, e.T)
			}
		}
		if len(refused) == 0 || len(locked) != len(refused) {
			t.Fatalf("refused at %v, locked at %v; want each refusal followed by a lock", refused, locked)
		}
		for i := range refused {
			if refused[i] < 30000 || refused[i] > 31000 || locked[i] <= 81000 || locked[i] > 82000 {
				t.Errorf("refused at %d, locked at %d; want just after the kill, and just after 81 s", refused[i], locked[i])
			}
		}
	},
	"consume-timeout.json": func(t *testing.T, r *Result) {
		// Messages longer than consumeTimeout in their listener are sent back and removed by
		// the clean-up, and come again from the retry topic while the first call still runs.
		if r.Metrics.Expired == 0 || r.Metrics.Retried < r.Metrics.Expired {
			t.Errorf("expired %d, retried %d: want the clean-up to send the stuck messages back", r.Metrics.Expired, r.Metrics.Retried)
		}
		if r.Metrics.Reconsumed == 0 {
			t.Error("no expired message came again from the retry topic")
		}
	},
	"autoscale-storm.json": func(t *testing.T, r *Result) {
		// A rule with no hold time and no cool-down steps every few periods: a storm.
		if n := autoscaleSteps(r); n < 20 {
			t.Errorf("%d autoscaler steps in 10 minutes; want a storm (20 or more)", n)
		}
	},
	"autoscale-calm.json": func(t *testing.T, r *Result) {
		// Hold times and a cool-down: four steps in half an hour, none within 5 min of another.
		if n := autoscaleSteps(r); n != 4 {
			t.Errorf("%d autoscaler steps; want 4", n)
		}
		last := int64(-300000)
		for _, e := range r.Events {
			if e.Cause == cluster.CauseAutoscale {
				if e.T-last < 300000 {
					t.Errorf("a step at %s, %s after the last: the cool-down is 5 min", Clock(e.T), Clock(e.T-last))
				}
				last = e.T
			}
		}
	},
	"rolling-strategy.json": func(t *testing.T, r *Result) {
		// While the group runs two strategies, queues are doubled and orphaned; once the last
		// member has the new one, AVG_BY_CIRCLE's assignment, and no anomaly is open.
		overlaps := 0
		for _, a := range r.Anomalies {
			if a.Kind == "overlap" {
				overlaps++
				if a.Start < 30000 || a.End == 0 || a.End > 122000 {
					t.Errorf("overlap %s from %s to %s: want it within the deploy", a.Queue, Clock(a.Start), Clock(a.End))
				}
			}
		}
		if overlaps == 0 {
			t.Error("no queue was pulled twice while the group was mixed")
		}
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:4 broker-b:0 broker-b:4", "c2": "broker-a:1 broker-a:5 broker-b:1 broker-b:5",
			"c3": "broker-a:2 broker-a:6 broker-b:2 broker-b:6", "c4": "broker-a:3 broker-a:7 broker-b:3 broker-b:7"})
	},
	"drain-broker.json": func(t *testing.T, r *Result) {
		// Read-only: nothing more is stored on broker-b after 40 s, and the consumers read
		// it empty. Removed: the consumers drop its queues at their refresh after 100 s.
		if n := r.Sends[1].PerBroker["broker-b"] + r.Sends[2].PerBroker["broker-b"]; n != 0 {
			t.Errorf("broker-b stored %d messages after it was made read-only", n)
		}
		if r.Metrics.Backlog != 0 || r.Metrics.Consumed != r.Metrics.Produced {
			t.Errorf("backlog %d, consumed %d of %d: broker-b's messages should all be read", r.Metrics.Backlog, r.Metrics.Consumed, r.Metrics.Produced)
		}
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1", "c2": "broker-a:2 broker-a:3"})
		for _, rb := range r.Rebalances {
			if rb.T > 100000 && rb.T < 120000 {
				t.Errorf("%s rebalanced at %s, before its route refresh", rb.Consumer, Clock(rb.T))
			}
		}
	},
	"different-tags.json": func(t *testing.T, r *Result) {
		// The broker filters every pull by c1's stored TagA; c2 then drops all of it. Only
		// the TagA messages of c1's two queues of four are consumed: 70 % of half.
		m := r.Metrics
		if want := m.Produced * 7 / 20; m.Consumed < want-10 || m.Consumed > want+10 {
			t.Errorf("consumed %d of %d; want about %d (c1's queues' TagA messages)", m.Consumed, m.Produced, want)
		}
		if m.Consumed+m.Filtered+m.Backlog != m.Produced {
			t.Errorf("consumed %d + filtered %d + backlog %d ≠ produced %d: messages unaccounted for", m.Consumed, m.Filtered, m.Backlog, m.Produced)
		}
	},
	"retry-ladder.json": func(t *testing.T, r *Result) {
		// Sent back 16 times, each time at delay level 3 + its reconsume count, then to the
		// DLQ: 17 140 s after the first delivery, plus the ≤ 100 ms a level's task takes to
		// see it due and a pull and a flow step per climb (spec §3.15, §5.8).
		var first, dead int64 = -1, -1
		levels := []int64{}
		for _, e := range r.Events {
			switch e.Cause {
			case cluster.CauseSendBack:
				if first < 0 {
					first = e.T
				}
				levels = append(levels, e.Until-e.T)
			case cluster.CauseDeadLetter:
				dead = e.T
			}
		}
		if len(levels) != 16 || r.Metrics.DeadLettered != 1 || r.Metrics.Retried != 16 || r.Metrics.Reconsumed != 16 {
			t.Fatalf("%d sends back, metrics %+v; want 16, 1 dead letter, 16 reconsumed", len(levels), r.Metrics)
		}
		for i, d := range levels {
			if want := []int64{10, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600, 7200}[i] * 1000; d < want || d > want+100 {
				t.Errorf("send-back %d: back after %d ms; want %d ms + ≤ 100 ms", i+1, d, want)
			}
		}
		if span := dead - first; span < 17140000 || span > 17140000+16*200 {
			t.Errorf("the dead letter came %d ms after the first delivery; want 17 140 s and the latencies", span)
		}
	},
	"retry-topic.json": func(t *testing.T, r *Result) {
		// The retry topic has one queue per broker, three here, balanced by AVG over the six
		// sorted members: the first three take one each, the last three none (spec §3.14).
		retry := r.Final.Groups["GID_ORDER"]["%RETRY%GID_ORDER"]
		want := map[string][]string{"c1": {"broker-a:0"}, "c2": {"broker-b:0"}, "c3": {"broker-c:0"}, "c4": {}, "c5": {}, "c6": {}}
		if fmt.Sprint(retry) != fmt.Sprint(want) {
			t.Errorf("the retry topic's queues %v; want %v", retry, want)
		}
	},
	"several-topics.json": func(t *testing.T, r *Result) {
		// Each topic is balanced on its own over the same sorted members: AVG's remainder
		// goes to c1 and c2 on every one of the three topics (apache/rocketmq#1945).
		g := r.Final.Groups["GID_APP"]
		for _, topic := range []string{"TopicA", "TopicB", "TopicC"} {
			for id, n := range map[string]int{"c1": 2, "c2": 2, "c3": 1, "c4": 1} {
				if got := len(g[topic][id]); got != n {
					t.Errorf("%s holds %d queues of %s; want %d", id, got, topic, n)
				}
			}
		}
	},
	"two-groups.json": func(t *testing.T, r *Result) {
		// Each group balances TopicPay over its own members and consumes all of it: the
		// messages of TopicPay are consumed once per group. After c3 dies, each group's
		// survivors hold the whole topic between them.
		if r.Metrics.Consumed <= r.Metrics.Produced {
			t.Errorf("consumed %d, produced %d: TopicPay should be consumed by both groups", r.Metrics.Consumed, r.Metrics.Produced)
		}
		if got := r.Final.Groups["GID_AUDIT"]["TopicPay"]["c4"]; len(got) != 4 {
			t.Errorf("c4 holds %v of TopicPay in GID_AUDIT; want its 4 queues", got)
		}
		order := r.Final.Groups["GID_ORDER"]["TopicPay"]
		if len(order["c1"])+len(order["c2"]) != 4 || len(order["c3"]) != 0 {
			t.Errorf("GID_ORDER's TopicPay: %v; want its 4 queues between c1 and c2", order)
		}
		if r.Final.Status["c3"] != cluster.StatusKilled {
			t.Errorf("c3 is %s; want killed", r.Final.Status["c3"])
		}
	},
	"observed-kill.json": func(t *testing.T, r *Result) {
		// The simulation: the brokers drop the killed member at once and notify the others,
		// who take its queues a millisecond later (spec §3.11). The logs: the survivors took
		// them at their next rounds, 62 s and 65 s, so the two disagree from 60.001 s to 65 s:
		// broker-a:0-2 orphaned per the logs, broker-b:0-1 held by the wrong member, then twice.
		assertFinal(t, r, map[string]string{"10.0.0.1@1234": "", "10.0.0.2@2345": "broker-a:0 broker-a:1 broker-a:2 broker-a:3", "10.0.0.3@3456": "broker-b:0 broker-b:1 broker-b:2 broker-b:3"})
		data, err := os.ReadFile("../../testdata/scenarios/observed-kill.json")
		if err != nil {
			t.Fatal(err)
		}
		s, err := Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		ds, err := Disagreements(s)
		if err != nil {
			t.Fatal(err)
		}
		want := []Disagreement{
			{From: 60001, To: 65000, Queues: []string{"broker-a:0", "broker-a:1", "broker-a:2"}, Logged: nil, Simulated: []string{"10.0.0.2@2345"}},
			{From: 60001, To: 62000, Queues: []string{"broker-b:0", "broker-b:1"}, Logged: []string{"10.0.0.2@2345"}, Simulated: []string{"10.0.0.3@3456"}},
			{From: 62000, To: 65000, Queues: []string{"broker-b:0", "broker-b:1"}, Logged: []string{"10.0.0.2@2345", "10.0.0.3@3456"}, Simulated: []string{"10.0.0.3@3456"}},
		}
		if fmt.Sprint(ds) != fmt.Sprint(want) {
			t.Errorf("disagreements\n%v\nwant\n%v", ds, want)
		}
		// Without the history the run is the same, byte for byte.
		s.Observed = nil
		bare, err := Run(s, RunOptions{Events: true})
		if err != nil {
			t.Fatal(err)
		}
		if bare.Digest() != r.Digest() {
			t.Error("the observed section changed the run")
		}
	},
	"read-more-than-write.json": func(t *testing.T, r *Result) {
		// Queues 2 and 3 of each broker are held and pulled, and nothing is ever written to them:
		// c2 and c4 consume nothing, c1 and c3 everything (spec §1.3).
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1", "c2": "broker-a:2 broker-a:3", "c3": "broker-b:0 broker-b:1", "c4": "broker-b:2 broker-b:3"})
		consumed := map[string]int64{}
		for _, c := range r.Snapshot.Consumers {
			consumed[c.ID] = c.Consumed
		}
		for _, q := range r.Snapshot.Queues {
			if want := q.ID >= 2; (q.Access == cluster.AccessReadOnly) != want || want && q.MaxOffset != 0 || !want && q.MaxOffset == 0 {
				t.Errorf("%s: access %q, %d messages; want read-only and empty exactly for queues 2 and 3", q.Queue, q.Access, q.MaxOffset)
			}
		}
		if consumed["c2"] != 0 || consumed["c4"] != 0 || consumed["c1"] == 0 || consumed["c3"] == 0 || consumed["c1"]+consumed["c3"] != r.Metrics.Consumed {
			t.Errorf("consumed %v of %d; want everything by c1 and c3, nothing by c2 and c4", consumed, r.Metrics.Consumed)
		}
		if r.Metrics.Unread != 0 {
			t.Errorf("%d unread; want none: every written queue is read", r.Metrics.Unread)
		}
	},
	"write-more-than-read.json": func(t *testing.T, r *Result) {
		// Half of the write queues are beyond the read count: about half of what is produced
		// stays there, counted as unread, and no queue of them has an owner (spec §1.3).
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1", "c2": "broker-b:0 broker-b:1"})
		var stranded int64
		for _, q := range r.Snapshot.Queues {
			if q.ID >= 2 {
				if q.Access != cluster.AccessWriteOnly || len(q.Owners) != 0 || q.MaxOffset == 0 {
					t.Errorf("%s: access %q, owners %v, %d messages; want write-only, no owner, written", q.Queue, q.Access, q.Owners, q.MaxOffset)
				}
				stranded += q.MaxOffset
			}
		}
		m := r.Metrics
		if m.Unread != stranded || m.Unread*10 < m.Produced*4 || m.Unread*10 > m.Produced*6 {
			t.Errorf("unread %d (queues 2 and 3 hold %d) of %d produced; want those queues' messages, about half", m.Unread, stranded, m.Produced)
		}
		if m.Consumed+m.Unread > m.Produced || m.Consumed < m.Produced/3 {
			t.Errorf("consumed %d, unread %d, produced %d", m.Consumed, m.Unread, m.Produced)
		}
		orphans := 0
		for _, a := range r.Anomalies {
			if a.Kind == "orphan" && a.End == 0 {
				orphans++
			}
		}
		if orphans != 4 {
			t.Errorf("%d orphans open at the end; want the 4 write-only queues", orphans)
		}
	},
	"own-strategy-floor.json": func(t *testing.T, r *Result) {
		// The Starlark strategy from the file's source floors every share: broker-b:7 is
		// nobody's from the first round until the mended source, set at 60 s, hands it out.
		var orphan *cluster.Anomaly
		for i, a := range r.Anomalies {
			if a.Kind == "orphan" && a.Queue == "broker-b:7" {
				orphan = &r.Anomalies[i]
			}
		}
		if orphan == nil || orphan.Start > 2000 || orphan.End < 60000 || orphan.End > 62000 {
			t.Errorf("broker-b:7 orphaned %+v; want from the first round until just after 60 s", orphan)
		}
		assertFinal(t, r, map[string]string{"10.0.0.1@4012": "broker-a:0 broker-a:1 broker-a:2",
			"10.0.0.2@4013": "broker-a:3 broker-a:4 broker-a:5 broker-a:6 broker-a:7",
			"10.0.0.3@4011": "broker-b:0 broker-b:1 broker-b:2 broker-b:3 broker-b:4 broker-b:5 broker-b:6 broker-b:7"})
		if r.Metrics.Unread != 0 {
			t.Errorf("%d messages unread at the end; the mended strategy's owner reads broker-b:7's backlog", r.Metrics.Unread)
		}
	},
	"different-subscriptions.json": func(t *testing.T, r *Result) {
		// c3 is counted and takes nothing: its block is pulled by nobody all run long, and
		// the table flips with the heartbeats (spec §5.7).
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1", "c2": "broker-a:2 broker-a:3", "c3": "", "c4": "broker-b:2 broker-b:3"})
		open := map[string]bool{}
		for _, a := range r.Anomalies {
			if a.Kind == "orphan" && a.End == 0 {
				open[a.Queue] = a.Start < 2000
			}
		}
		if len(open) != 2 || !open["broker-b:0"] || !open["broker-b:1"] {
			t.Errorf("orphans open since the start %v; want broker-b:0 and broker-b:1", open)
		}
		flips := 0
		for _, e := range r.Events {
			if e.Cause == cluster.CauseSubscription {
				flips++
			}
		}
		if flips < 10 {
			t.Errorf("%d subscription flips in 5 minutes; want one per broker at most heartbeats", flips)
		}
		var b0 int64
		for _, q := range r.Snapshot.Queues {
			if q.Queue == "broker-b:0" {
				b0 = q.Backlog
			}
		}
		if b0 == 0 || r.Metrics.Backlog < b0 {
			t.Errorf("broker-b:0 backlog %d of %d; want its messages piling up", b0, r.Metrics.Backlog)
		}
	},
	"join.json": func(t *testing.T, r *Result) {
		// Every member rebalances within about a second of c4's start (spec §5.4).
		moved := map[string]int64{}
		for _, rb := range r.Rebalances {
			if rb.T >= 60000 {
				moved[rb.Consumer] = rb.T
			}
		}
		for _, id := range []string{"c1", "c2", "c3", "c4"} {
			if at, ok := moved[id]; !ok || at-60000 > 1500 {
				t.Errorf("%s rebalanced at %v after c4 joined at 60 s; want within 1.5 s", id, moved[id])
			}
		}
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1", "c2": "broker-a:2 broker-a:3", "c3": "broker-b:0 broker-b:1", "c4": "broker-b:2 broker-b:3"})
	},
	"graceful-leave.json": func(t *testing.T, r *Result) {
		assertMovedWithin(t, r, 62500, 5000)
		if r.Metrics.Duplicates == 0 || r.Metrics.Duplicates > 60 {
			t.Errorf("duplicates %d; want only the listener calls running at the stop (1…60)", r.Metrics.Duplicates)
		}
	},
	"kill.json": func(t *testing.T, r *Result) {
		assertMovedWithin(t, r, 62500, 5000)
		stop := runFile(t, "graceful-leave.json")
		if r.Metrics.Duplicates <= stop.Metrics.Duplicates {
			t.Errorf("duplicates after a kill %d; after a graceful stop %d; want more after the kill", r.Metrics.Duplicates, stop.Metrics.Duplicates)
		}
	},
	"partition.json": func(t *testing.T, r *Result) {
		at := firstRebalanceAfter(r, 60000)
		if d := at - 60000; d < 90000 || d > 170000 {
			t.Errorf("queues moved %d ms after the partition; want 90…170 s (expiry, then a periodic round)", d)
		}
		if r.Final.Status["c1"] != cluster.StatusPartitioned || len(r.Final.Assignment["c1"]) == 0 {
			t.Errorf("c1 ends %s holding %v; want partitioned and still believing it owns its queues", r.Final.Status["c1"], r.Final.Assignment["c1"])
		}
	},
	"partition-heal.json": func(t *testing.T, r *Result) {
		// On heal c1 reconnects and heartbeats every broker at once; each notifies the group,
		// and c2 and c3 give its queues back within a second, not at the next heartbeat.
		for _, id := range []string{"c2", "c3"} {
			at := int64(-1)
			for _, rb := range r.Rebalances {
				if rb.Consumer == id && rb.T >= 180000 {
					at = rb.T
					break
				}
			}
			if at < 0 || at-180000 > 1000 {
				t.Errorf("%s rebalanced at %d ms after the heal at 180000; want within 1 s", id, at)
			}
		}
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1 broker-a:2", "c2": "broker-a:3 broker-b:0 broker-b:1", "c3": "broker-b:2 broker-b:3"})
	},
	"slow-message.json": func(t *testing.T, r *Result) {
		// The same run without slow messages: offsets follow consumption closely, so the
		// hand-over repeats little. With them, up to 30 s of a queue comes again.
		s, _ := runScenarioFile(t, "slow-message.json")
		s.Consumers[0].SlowEvery, s.Consumers[0].SlowMs = 0, 0
		fast, err := Run(s, RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if d, f := r.Metrics.Duplicates, fast.Metrics.Duplicates; d < 500 || d < 10*f || d > 2*30*50 {
			t.Errorf("duplicates after the kill: %d with slow messages, %d without; want many more with them, at most 30 s of c1's two queues", d, f)
		}
	},
	"hot-key-composite.json": func(t *testing.T, r *Result) {
		// The hot key's half spreads over four queues of broker-a: none holds more than
		// an eighth of the rest plus a quarter of the hot half (~19%), and the backlog that
		// hot-key.json piles up on broker-a:0 is gone.
		m := r.Metrics
		for _, q := range r.Snapshot.Queues {
			if q.MaxOffset*100 > m.Produced*22 {
				t.Errorf("%s stored %d of %d; want at most ~19%%", q.Queue, q.MaxOffset, m.Produced)
			}
		}
		if m.Backlog > 1000 || m.SendFailures != 0 {
			t.Errorf("backlog %d, send failures %d; want the consumers keeping up, no failure", m.Backlog, m.SendFailures)
		}
	},
	"hot-key.json": func(t *testing.T, r *Result) {
		// "streamer-0".hashCode() = -1194251632, |h rem 8| = 0: broker-a:0 gets the hot half
		// plus its share of the rest, and holds almost all the backlog.
		var hot, backlog int64
		for _, q := range r.Snapshot.Queues {
			if q.Queue == "broker-a:0" {
				hot = q.MaxOffset
			}
			backlog += q.Backlog
		}
		m := r.Metrics
		if hot*100 < m.Produced*50 || hot*100 > m.Produced*60 {
			t.Errorf("broker-a:0 stored %d of %d; want half plus an eighth of the rest (~56%%)", hot, m.Produced)
		}
		var hotBacklog int64
		for _, q := range r.Snapshot.Queues {
			if q.Queue == "broker-a:0" {
				hotBacklog = q.Backlog
			}
		}
		if backlog == 0 || hotBacklog*10 < backlog*9 {
			t.Errorf("backlog %d, of which broker-a:0 %d; want nearly all of it on the hot queue", backlog, hotBacklog)
		}
	},
	"custom-latency-tiers.json": func(t *testing.T, r *Result) {
		byProducer := map[string][]cluster.Isolation{}
		for _, iso := range r.Isolations {
			byProducer[iso.Producer] = append(byProducer[iso.Producer], iso)
		}
		for _, iso := range byProducer["p1"] {
			if d := iso.Until - iso.Start; d != 20000 {
				t.Errorf("p1 isolated %s for %d ms; want its own 20 s tier", iso.Broker, d)
			}
		}
		if len(byProducer["p1"]) < 2 || len(byProducer["p2"]) != 0 {
			t.Errorf("isolations: p1 %d, p2 %d; want p1 several, p2 none (its lookup throws)", len(byProducer["p1"]), len(byProducer["p2"]))
		}
		if m := r.Metrics; m.SendFailures == 0 || m.SendFailures != m.StoredAfterTimeout {
			t.Errorf("failures %d, stored after the client saw a failure %d; want p2's slow sends failed yet stored", m.SendFailures, m.StoredAfterTimeout)
		}
	},
	"more-consumers-than-queues.json": func(t *testing.T, r *Result) {
		assertFinal(t, r, map[string]string{"c1": "broker-a:0", "c10": "broker-a:1", "c2": "broker-a:2", "c3": "broker-a:3", "c4": ""})
	},
	"broadcasting.json": func(t *testing.T, r *Result) {
		for id, qs := range r.Final.Assignment {
			if len(qs) != 4 {
				t.Errorf("%s holds %v; want all 4 queues", id, qs)
			}
		}
		// Each consumer skips what came before its first round (LAST_OFFSET from a local store
		// that answers -1) and consumes everything after, once.
		if m := r.Metrics; m.Consumed+m.Skipped != 3*m.Produced || m.Duplicates != 0 || m.Skipped == 0 || m.Skipped > 3*150 {
			t.Errorf("consumed %d, skipped %d for %d produced and 3 consumers, %d duplicates; want each message once per consumer after its first second", m.Consumed, m.Skipped, m.Produced, m.Duplicates)
		}
	},
	"broadcasting-late-join.json": func(t *testing.T, r *Result) {
		consumed := map[string]int64{}
		for _, cv := range r.Snapshot.Consumers {
			consumed[cv.ID] = cv.Consumed
		}
		joined := firstRebalanceAfter(r, 60000)
		m := r.Metrics
		// c3 consumed only what was produced after it took its queues at ~61 s: everything
		// from then on, at 100 msg/s, and nothing of the first minute.
		after := m.Produced - 6000
		if c3 := consumed["c3"]; c3 > after || c3 < after-int64(joined-60000)/10-5 || joined-60000 > 1500 {
			t.Errorf("c3 consumed %d, first rebalance at %d ms; want only the %d messages produced after ~61 s", c3, joined, after)
		}
		if consumed["c1"] != m.Produced || consumed["c2"] != m.Produced || m.Skipped != m.Produced-consumed["c3"] || m.Duplicates != 0 {
			t.Errorf("c1 %d, c2 %d of %d produced, skipped %d, duplicates %d; want c1 and c2 everything (FIRST_OFFSET), c3's gap skipped", consumed["c1"], consumed["c2"], m.Produced, m.Skipped, m.Duplicates)
		}
	},
	"history-new-group.json": func(t *testing.T, r *Result) {
		// broker-a answers 0 (message 0 in memory): its 40000 old messages are consumed; broker-b
		// answers not found: LAST_OFFSET skips its 40000 and the few that came before c2's round.
		m := r.Metrics
		if m.Skipped < 40000 || m.Skipped > 40000+4*100 || m.Consumed+m.Skipped != m.Produced+80000 || m.Lost != 0 {
			t.Errorf("consumed %d, skipped %d, produced %d; want broker-a's 40000 old messages consumed and broker-b's skipped", m.Consumed, m.Skipped, m.Produced)
		}
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1 broker-a:2 broker-a:3", "c2": "broker-b:0 broker-b:1 broker-b:2 broker-b:3"})
	},
	"mixed-clients-consistent-hash.json": func(t *testing.T, r *Result) {
		// Each member computes its own queues under its own client (MD5 ring for Java, CRC-32
		// for Go, spec §4.3, §9.1.3): the group pulls exactly what profile.MixedGroup says
		// each member takes, and its doubled and orphaned queues are exactly the ones the
		// members' results leave, open while the membership stands (rocketmq-client-go#419).
		s, _ := runScenarioFile(t, "mixed-clients-consistent-hash.json")
		mqAll, err := route.ParseQueueCounts(r.Snapshot.Topic, "broker-a:8,broker-b:8")
		if err != nil {
			t.Fatal(err)
		}
		var members []profile.Member
		for _, k := range s.Consumers {
			members = append(members, profile.Member{ClientID: k.ID, Profile: profile.Name(k.Client)})
		}
		for _, span := range []struct {
			from, to int64
			members  []profile.Member
		}{{1000, 60000, members}, {60001, 120000, members[:3]}} {
			v, err := profile.MixedGroup(s.Strategy.Name, s.Params, r.Snapshot.Group, mqAll, span.members, true)
			if err != nil {
				t.Fatal(err)
			}
			got := assignmentAt(r, span.from)
			for _, m := range v.Members {
				want := slices.Clone(m.Queues)
				route.SortQueues(want)
				if g, w := strings.Join(got[m.ClientID], " "), strings.Join(shortNamesOf(want), " "); g != w {
					t.Errorf("%d ms: %s (%s) pulls %q; its own allocation is %q", span.from, m.ClientID, m.Profile, g, w)
				}
			}
			// Every shared and orphaned queue of the members' results is an anomaly open over
			// the whole span, and there is no other.
			open := map[string]string{}
			for _, a := range r.Anomalies {
				if a.Start <= span.from && (a.End == 0 || a.End >= span.to) {
					open[a.Queue] = a.Kind + " " + strings.Join(a.Owners, ",")
				}
			}
			want := map[string]string{}
			for _, q := range v.Shared {
				want[q.Queue.Short()] = "overlap " + strings.Join(q.Owners, ",")
			}
			for _, q := range v.Orphans {
				want[q.Short()] = "orphan "
			}
			if len(want) == 0 {
				t.Errorf("%d–%d ms: the members' results fit together; the file should show them disagree", span.from, span.to)
			}
			if !maps.Equal(open, want) {
				t.Errorf("%d–%d ms: anomalies open throughout %v; want the members' disagreement %v", span.from, span.to, open, want)
			}
		}
	},
	"slow-broker.json": func(t *testing.T, r *Result) {
		var tiers []string
		for _, e := range r.Events {
			if e.Kind == cluster.EventIsolation {
				tiers = append(tiers, e.Text[strings.LastIndex(e.Text, "tier "):])
			}
		}
		for _, want := range []string{"tier 5 s", "tier 2 s"} {
			if !slices.Contains(tiers, want) {
				t.Errorf("isolations %v; want one by the %s", slices.Compact(tiers), want)
			}
		}
		if a, b := r.Metrics.SendsPerBroker["broker-a"], r.Metrics.SendsPerBroker["broker-b"]; a*2 > b {
			t.Errorf("sends: broker-a %d, broker-b %d; want the slow broker mostly avoided", a, b)
		}
	},
	"broker-down.json": func(t *testing.T, r *Result) {
		// Sends in flight to the dying broker fail at once and are retried on the other one;
		// later picks of it are refused and retried too (spec §2.5, §2.8).
		if r.Metrics.SendFailures != 0 || r.Metrics.Lost != 0 {
			t.Errorf("%d sends failed, %d lost; want every send retried on broker-b, nothing lost", r.Metrics.SendFailures, r.Metrics.Lost)
		}
		assertFinal(t, r, map[string]string{"c1": "broker-a:0 broker-a:1 broker-a:2 broker-a:3", "c2": "broker-b:0 broker-b:1 broker-b:2 broker-b:3"})
	},
	"slow-broker-blocks.json": func(t *testing.T, r *Result) {
		// One blocking thread: 200/s while both brokers are fast, a few per second while it
		// keeps visiting the 2 s broker, and sends that outlive the budget fail but are stored.
		fast, slow, late := sendSpan(t, r, 0), sendSpan(t, r, 30000), sendSpan(t, r, 90000)
		if rate := fast.Stored / 30; rate < 190 || rate > 201 {
			t.Errorf("%d/s before the slowdown; want about 200", rate)
		}
		if slow.Stored > 120 || slow.PerBroker["broker-a"] < 25 || slow.PerBroker["broker-a"] > 31 {
			t.Errorf("30–90 s: %d stored, %d on broker-a; want the rate down to ~1/s, broker-a visited every ~2 s", slow.Stored, slow.PerBroker["broker-a"])
		}
		if m := r.Metrics; m.StoredAfterTimeout == 0 || m.StoredAfterTimeout != m.SendFailures || m.SendFailures != late.PerBroker["broker-a"] {
			t.Errorf("stored after a client timeout %d, failures %d, broker-a stored %d from 90 s; want each 4 s send failed once and stored", m.StoredAfterTimeout, m.SendFailures, late.PerBroker["broker-a"])
		}
	},
	"slow-broker-visits.json": func(t *testing.T, r *Result) {
		// Fault tolerance on: broker-a is visited once per window of 2 s blocked + 5 s
		// isolated, and the producer keeps most of its rate.
		var starts []int64
		for _, iso := range r.Isolations {
			if iso.Broker == "broker-a" {
				starts = append(starts, iso.Start)
			}
		}
		if len(starts) < 7 || len(starts) > 10 {
			t.Fatalf("broker-a isolated at %v; want once per ~7 s from 32 s to 90 s", starts)
		}
		for i := 1; i < len(starts); i++ {
			if d := starts[i] - starts[i-1]; d < 7000 || d > 7100 {
				t.Errorf("isolations at %d and %d ms: %d ms apart; want 2 s blocked + 5 s isolated", starts[i-1], starts[i], d)
			}
		}
		if slow := sendSpan(t, r, 30000); slow.Stored < 100*60 || slow.PerBroker["broker-a"] > 12 {
			t.Errorf("30–90 s: %d stored, %d on broker-a; want over 100/s, broker-a about once per 7 s", slow.Stored, slow.PerBroker["broker-a"])
		}
	},
	"producer-client-java.json": func(t *testing.T, r *Result) {
		// The current client: every timeout isolates broker-a for 10 s; it is tried again
		// about every 13 s.
		starts := isolationStarts(r, "broker-a")
		if len(starts) < 40 {
			t.Fatalf("broker-a isolated at %v; want about every 13 s from 33 s on", starts)
		}
		exact := 0
		for _, iso := range r.Isolations {
			if d := iso.Until - iso.Start; iso.Broker == "broker-a" && (d < 10000 || d > 30000) {
				t.Errorf("broker-a isolated %d–%d ms; want 10 s at a time (extended by a timeout of another thread)", iso.Start, iso.Until)
			} else if d == 10000 {
				exact++
			}
		}
		if exact < len(starts)*3/4 {
			t.Errorf("%d of %d isolations of broker-a last exactly 10 s; want most", exact, len(starts))
		}
	},
	"producer-client-java49.json": func(t *testing.T, r *Result) {
		// 4.9: the first timeout takes broker-a out for 10 minutes; nothing is sent to it
		// in between, and the producer keeps its rate.
		starts := isolationStarts(r, "broker-a")
		if len(starts) != 2 || starts[0] < 33000 || starts[0] > 34000 || starts[1] < starts[0]+600000 {
			t.Fatalf("broker-a isolated at %v; want at 33 s and again once its 600 s are over", starts)
		}
		if iso := r.Isolations[0]; iso.Until-iso.Start != 600000 {
			t.Errorf("first isolation %d–%d ms; want 600 s", iso.Start, iso.Until)
		}
		if slow := sendSpan(t, r, 30000); slow.PerBroker["broker-a"] > 20 || slow.Stored < 190*630 {
			t.Errorf("30 s–11 min: %d stored, %d on broker-a; want the full rate, broker-a only before and after its 10 minutes", slow.Stored, slow.PerBroker["broker-a"])
		}
	},
	"producer-client-go.json": func(t *testing.T, r *Result) {
		// Go: no fault table, so no isolation; each thread spends up to 4 × 3 s on broker-a
		// and the rate collapses.
		if len(r.Isolations) != 0 {
			t.Errorf("isolations %v; a Go producer has no fault tolerance", r.Isolations)
		}
		if slow := sendSpan(t, r, 30000); slow.Stored > 200*630/10 || slow.PerBroker["broker-a"] == 0 {
			t.Errorf("30 s–11 min: %d stored, %d on broker-a; want a tenth of the rate at most, broker-a still tried", slow.Stored, slow.PerBroker["broker-a"])
		}
		if m := r.Metrics; m.SendFailures == 0 || m.StoredAfterTimeout == 0 {
			t.Errorf("send failures %d, stored after a client timeout %d; want sends failing after 4 attempts, stored all the same", m.SendFailures, m.StoredAfterTimeout)
		}
	},
	"duplicate-client-id.json": func(t *testing.T, r *Result) {
		orphaned := false
		for _, a := range r.Anomalies {
			if a.Kind == "orphan" && a.Start <= 75000 && a.End > 140000 {
				orphaned = true
			}
		}
		if !orphaned {
			t.Error("want a share pulled by nobody while c2 is listed twice (until the old channel expires)")
		}
	},
	"consistent-hash-moves-less.json": func(t *testing.T, r *Result) {
		before, after := assignmentAt(r, 59999), r.Final.Assignment
		for id, qs := range before {
			if id == "10.0.0.2@4013" {
				continue
			}
			for _, q := range qs {
				if !slices.Contains(after[id], q) {
					t.Errorf("%s lost %s though only 10.0.0.2@4013 left", id, q)
				}
			}
		}
	},
}

func TestScenarioFiles(t *testing.T) {
	files, err := filepath.Glob("../../testdata/scenarios/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			check, ok := checks[name]
			if !ok {
				t.Fatalf("%s has no check: say what behaviour it shows in checks", name)
			}
			s, r := runScenarioFile(t, name)
			if s.Description == "" || !strings.Contains(s.Description, "spec §") {
				t.Errorf("%s: the description must say what it shows and which spec section it follows", name)
			}
			check(t, r)
			if m := r.Metrics; m.Lost != 0 {
				t.Errorf("%d messages lost", m.Lost)
			}
			golden := strings.TrimSuffix(f, ".json") + ".golden"
			got := r.Text(s)
			if s.Observed != nil { // as lbscope sim prints it
				ds, err := Disagreements(s)
				if err != nil {
					t.Fatal(err)
				}
				got += ObservedText(s, ds)
			}
			if *rewrite {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./core/scenario -rewrite to create it, then review it)", err)
			}
			if got != string(want) {
				t.Errorf("timeline differs from %s (go test ./core/scenario -rewrite, then review the diff):\n%s", filepath.Base(golden), firstDiff(string(want), got))
			}
		})
	}
}

// isolationStarts are the starts of the producers' isolations of broker.
func isolationStarts(r *Result, broker string) []int64 {
	var out []int64
	for _, iso := range r.Isolations {
		if iso.Broker == broker {
			out = append(out, iso.Start)
		}
	}
	return out
}

// sendSpan is the span of r.Sends that starts at from.
func sendSpan(t *testing.T, r *Result, from int64) SendSpan {
	t.Helper()
	for _, sp := range r.Sends {
		if sp.From == from {
			return sp
		}
	}
	t.Fatalf("no send span from %d ms in %v", from, r.Sends)
	return SendSpan{}
}

func runScenarioFile(t *testing.T, name string) (Scenario, *Result) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../testdata/scenarios", name))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(s, RunOptions{Events: true})
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

func runFile(t *testing.T, name string) *Result {
	_, r := runScenarioFile(t, name)
	return r
}

func assertFinal(t *testing.T, r *Result, want map[string]string) {
	t.Helper()
	for id, qs := range want {
		if got := strings.Join(r.Final.Assignment[id], " "); got != qs {
			t.Errorf("%s ends with %q; want %q", id, got, qs)
		}
	}
}

func assertMovedWithin(t *testing.T, r *Result, at, within int64) {
	t.Helper()
	if got := firstRebalanceAfter(r, at); got-at > within {
		t.Errorf("queues moved %d ms after the action; want within %d ms", got-at, within)
	}
}

func firstRebalanceAfter(r *Result, at int64) int64 {
	for _, rb := range r.Rebalances {
		if rb.T >= at {
			return rb.T
		}
	}
	return 1 << 62
}

// assignmentAt replays the rebalances up to time t.
func assignmentAt(r *Result, t int64) map[string][]string {
	m := map[string][]string{}
	for _, rb := range r.Rebalances {
		if rb.T <= t {
			m[rb.Consumer] = rb.Queues
		}
	}
	return m
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  want %s\n  got  %s", i+1, a, b)
		}
	}
	return ""
}

func shortNamesOf(qs []route.MessageQueue) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Short()
	}
	return out
}

// autoscaleSteps counts the members an autoscaler started or stopped.
func autoscaleSteps(r *Result) int {
	n := 0
	for _, e := range r.Events {
		if e.Cause == cluster.CauseAutoscale {
			n++
		}
	}
	return n
}
