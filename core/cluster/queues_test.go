package cluster

import (
	"github.com/lbscope/lbscope/core/allocate"
	"strings"
	"testing"
)

// Producers write only write queues and consumers rebalance only read queues (spec §1.3):
// with read > write the extra read queues are held and never receive a message; with
// write > read the extra write queues fill up and nobody holds them.
func TestReadAndWriteQueueCountsDiffer(t *testing.T) {
	cfg := smallConfig(400)
	cfg.Brokers = []BrokerConfig{
		{Name: "broker-a", Queues: 4, WriteQueueNums: 2}, // read 4, write 2
		{Name: "broker-b", Queues: 2, WriteQueueNums: 4}, // read 2, write 4
	}
	c := mustNew(t, cfg)
	c.Advance(120000)
	s := c.Snapshot()
	var unread int64
	for _, q := range s.Queues {
		switch {
		case q.Broker == "broker-a" && q.ID >= 2:
			if q.Access != AccessReadOnly || q.MaxOffset != 0 || len(q.Owners) != 1 {
				t.Errorf("%s: access %q, %d messages, owners %v; want read-only, never written, one owner", q.Queue, q.Access, q.MaxOffset, q.Owners)
			}
		case q.Broker == "broker-b" && q.ID >= 2:
			if q.Access != AccessWriteOnly || q.MaxOffset == 0 || len(q.Owners) != 0 {
				t.Errorf("%s: access %q, %d messages, owners %v; want write-only, written, no owner", q.Queue, q.Access, q.MaxOffset, q.Owners)
			}
			unread += q.MaxOffset
		default:
			if q.Access != "" || q.MaxOffset == 0 || len(q.Owners) != 1 {
				t.Errorf("%s: access %q, %d messages, owners %v; want read-write, written, one owner", q.Queue, q.Access, q.MaxOffset, q.Owners)
			}
		}
	}
	if m := c.Metrics(); m.Unread != unread || unread == 0 || m.Backlog < unread {
		t.Errorf("unread %d, backlog %d; want the %d messages of broker-b:2 and :3, within the backlog", m.Unread, m.Backlog, unread)
	}
	if b := s.Brokers[0]; b.Queues != 4 || b.ReadQueues != 4 || b.WriteQueues != 2 {
		t.Errorf("broker-a view %+v; want 4 queues, read 4, write 2", b)
	}
	orphans := map[string]bool{}
	for _, a := range c.Anomalies() {
		if a.Kind == "orphan" && a.End == 0 {
			orphans[a.Queue] = true
		}
	}
	if !orphans["broker-b:2"] || !orphans["broker-b:3"] || len(orphans) != 2 {
		t.Errorf("open orphans %v; want broker-b:2 and broker-b:3", orphans)
	}
}

// A member that subscribes another topic is counted by the others' rebalance and takes none
// of its share: that block is pulled by nobody. Its heartbeats replace the group's
// subscription on each broker, a CHANGE each time (spec §5.7).
func TestMemberWithAnotherSubscription(t *testing.T) {
	cfg := smallConfig(200)
	cfg.Consumers = []ConsumerConfig{{ID: "c1"}, {ID: "c2"}, {ID: "c3", Subscription: &SubscriptionConfig{Topic: "OrderTopic"}}, {ID: "c4"}}
	c := mustNew(t, cfg)
	flips := 0
	c.SetObserver(func(e Event) {
		if e.Cause == CauseSubscription {
			flips++
		}
	})
	c.Advance(180000)
	s := c.Snapshot()
	got := map[string]string{}
	for _, cv := range s.Consumers {
		got[cv.ID] = strings.Join(cv.Queues, " ")
	}
	// AVG over c1 … c4 and 8 queues: c3's block is broker-b:0 and broker-b:1.
	want := map[string]string{"c1": "broker-a:0 broker-a:1", "c2": "broker-a:2 broker-a:3", "c3": "", "c4": "broker-b:2 broker-b:3"}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s holds %q; want %q", id, got[id], w)
		}
	}
	if s.Consumers[2].Subscription != "OrderTopic" {
		t.Errorf("c3's view says it subscribes %q", s.Consumers[2].Subscription)
	}
	for _, q := range s.Queues {
		if (q.Queue == "broker-b:0" || q.Queue == "broker-b:1") && len(q.Owners) != 0 {
			t.Errorf("%s is pulled by %v; want nobody", q.Queue, q.Owners)
		}
	}
	// Every 30 s heartbeat of c3 flips the table on both brokers, and the next of another member
	// flips it back: several flips a minute.
	if flips < 6 {
		t.Errorf("%d subscription flips in 3 minutes; want the table to flip with the heartbeats", flips)
	}
}

// setSubscription changes one member's topics at once: its heartbeat replaces the group's
// table on every broker (a CHANGE each, spec §5.7), and its next round takes the new topic's
// queues and drops the old one's.
func TestSetSubscriptionMovesOneMember(t *testing.T) {
	cfg := Config{Seed: 1, Topics: []TopicConfig{{Name: "TA", Queues: 2}, {Name: "TB", Queues: 2}},
		Groups:    []GroupConfig{{Name: "G", NoRetryTopic: true}},
		Brokers:   []BrokerConfig{{Name: "broker-a"}},
		Consumers: []ConsumerConfig{{ID: "c1", Groups: []MembershipConfig{{Group: "G", Subscriptions: []SubscriptionConfig{{Topic: "TA"}}}}}}}
	c := mustNew(t, cfg)
	c.Advance(5000)
	if got := c.Snapshot().Consumers[0].Queues; len(got) != 2 || got[0] != "broker-a:0" {
		t.Fatalf("c1 holds %v; want TA's two queues", got)
	}
	var flips int
	c.SetObserver(func(e Event) {
		if e.Cause == CauseSubscription {
			flips++
		}
	})
	mustApply(t, c, Command{Type: "setSubscription", ID: "c1", Subscription: "TB:TagX"})
	c.Advance(30000)
	if got := c.Snapshot().Consumers[0].Queues; len(got) != 2 || got[0] != "TB/broker-a:0" || got[1] != "TB/broker-a:1" {
		t.Errorf("c1 holds %v after subscribing TB; want TB's two queues", got)
	}
	if flips == 0 {
		t.Error("the broker's table did not flip to TB")
	}
	for _, bad := range []string{"", "TB;TB", "T B", "TB:a||", strings.Repeat("T;", 10) + "T"} {
		if err := c.Apply(Command{Type: "setSubscription", ID: "c1", Subscription: bad}); err == nil {
			t.Errorf("setSubscription %q was taken", bad)
		}
	}
}

// Members of one process share its client instance (one client id, spec §1.2, §3.14): one
// rebalance thread runs both groups' rounds, and a group whose strategy throws makes the whole
// instance retry every second, the healthy group's round with it.
func TestOneInstanceForAProcessesGroups(t *testing.T) {
	cfg := Config{Seed: 1, Topics: []TopicConfig{{Name: "TA", Queues: 2}},
		Groups: []GroupConfig{{Name: "GOOD", NoRetryTopic: true}, {Name: "BAD", NoRetryTopic: true, Strategy: allocate.Named("MACHINE_ROOM")}},
		// MACHINE_ROOM without consumeridcs throws on a room-named broker (spec §4.4).
		Brokers: []BrokerConfig{{Name: "hz@broker-a"}},
		Consumers: []ConsumerConfig{{ID: "c1", Groups: []MembershipConfig{{Group: "GOOD"}, {Group: "BAD"}}},
			{ID: "c2", Groups: []MembershipConfig{{Group: "GOOD"}}}}}
	c := mustNew(t, cfg)
	c1good, c1bad := c.current[memberKey{"c1", 0}], c.current[memberKey{"c1", 1}]
	if c1good.lead != c1bad.lead || c1good.cid != c1bad.cid || len(c1good.lead.peers) != 2 {
		t.Fatalf("c1's two memberships run in %p and %p; want one instance", c1good.lead, c1bad.lead)
	}
	c2 := c.current[memberKey{"c2", 0}]
	c.Advance(20000)
	// The instance's rounds: c1's lead reschedules every second while BAD throws; c2, alone
	// and balanced, every 20 s.
	if d := c1good.lead.next - c1good.lead.roundEnd; d != c.t.RebalanceMinInterval {
		t.Errorf("c1's instance waits %d ms for its next round; want %d (unbalanced)", d, c.t.RebalanceMinInterval)
	}
	if d := c2.next - c2.roundEnd; d != c.t.RebalanceWaitInterval {
		t.Errorf("c2 waits %d ms for its next round; want %d", d, c.t.RebalanceWaitInterval)
	}
	if len(c1good.queues()) == 0 {
		t.Error("c1 holds nothing of GOOD: the healthy group's part of the round must still run")
	}
}
