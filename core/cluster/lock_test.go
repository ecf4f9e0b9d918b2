package cluster

import (
	"slices"
	"testing"
)

// lockRun runs an orderly group of c1 and c2 on one broker of 4 queues, applies cmd at 30 s,
// and returns the lock events (lockRefused and lock) after it.
func lockRun(t *testing.T, cmds ...Command) (c *Cluster, events []Event) {
	t.Helper()
	cfg := Config{Seed: 1, Brokers: []BrokerConfig{{Name: "broker-a", Queues: 4}},
		Groups:    []GroupConfig{{Name: "G", Orderly: true}},
		Consumers: []ConsumerConfig{{ID: "c1"}, {ID: "c2"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 100}}}
	c = mustNew(t, cfg)
	c.SetObserver(func(e Event) {
		if e.Cause == CauseLock || e.Cause == CauseLockRefused {
			events = append(events, e)
		}
	})
	c.Advance(30000)
	if len(events) != 0 {
		t.Fatalf("lock events before anything happened: %+v", events)
	}
	for _, cmd := range cmds {
		mustApply(t, c, cmd)
	}
	c.Advance(150000)
	return c, events
}

// A killed owner's queues are paused until the broker's lock expires, 60 s after the owner's
// last renewal (spec §8.5.3): c2 renewed at 21 s, died at 30 s, so c1, refused from its first
// round after the brokers' notification, locks c2's queues at its first round after 81 s.
func TestLockKilledOwnerPausesItsQueues(t *testing.T) {
	c, events := lockRun(t, Command{Type: "killConsumer", ID: "c2"})
	var refused, locked []Event
	for _, e := range events {
		if e.Consumer != "c1" {
			t.Errorf("lock event of %s: %+v", e.Consumer, e)
		}
		if e.Cause == CauseLockRefused {
			refused = append(refused, e)
		} else {
			locked = append(locked, e)
		}
	}
	if len(refused) != 2 || len(locked) != 2 {
		t.Fatalf("refused %+v, locked %+v; want c2's two queues refused, then locked", refused, locked)
	}
	for _, e := range refused {
		if e.T < 30000 || e.T > 31100 || !slices.Equal(e.Owners, []string{"c2"}) {
			t.Errorf("refused at %d by %v; want at c1's round just after the kill, held by c2", e.T, e.Owners)
		}
	}
	for _, e := range locked {
		if e.T <= 81000 || e.T > 82100 || e.N < 50 || e.N > 51 {
			t.Errorf("locked at %d after %d s; want at c1's first round after 81 s (c2's renewal at 21 s + 60 s)", e.T, e.N)
		}
	}
	for _, q := range c.Snapshot().Queues {
		if len(q.Owners) != 1 || q.Owners[0] != "c1" {
			t.Errorf("%s held by %v at the end; want c1", q.Queue, q.Owners)
		}
	}
	if m := c.Metrics(); m.Lost != 0 || m.Backlog > 100 {
		t.Errorf("lost %d, backlog %d; want nothing lost and the paused queues drained", m.Lost, m.Backlog)
	}
}

// A graceful shutdown unlocks its queues first (spec §3.11, §8.5.2): the other member takes
// them at once, no lock refused.
func TestLockStopUnlocksAtOnce(t *testing.T) {
	c, events := lockRun(t, Command{Type: "stopConsumer", ID: "c2"})
	if len(events) != 0 {
		t.Errorf("lock events after a graceful stop: %+v; want none", events)
	}
	for _, q := range c.Snapshot().Queues {
		if len(q.Owners) != 1 || q.Owners[0] != "c1" {
			t.Errorf("%s held by %v; want c1", q.Queue, q.Owners)
		}
	}
}

// A member joining takes its share once the others have given it up and unlocked it: a
// pause of about 1–3 s at most (spec §8.5.3). Here the others, notified by the brokers, give
// their queues up before the joiner's first round asks for them, so no lock is refused.
func TestLockJoinPausesBriefly(t *testing.T) {
	var took int64 = -1
	cfg := Config{Seed: 1, Brokers: []BrokerConfig{{Name: "broker-a", Queues: 4}},
		Groups:    []GroupConfig{{Name: "G", Orderly: true}},
		Consumers: []ConsumerConfig{{ID: "c1"}, {ID: "c2"}},
		Producers: []ProducerConfig{{ID: "p1", Rate: 100}}}
	c := mustNew(t, cfg)
	c.Advance(30000)
	c.SetObserver(func(e Event) {
		if e.Kind == EventRebalance && e.Consumer == "c3" && len(e.Queues) > 0 && took < 0 {
			took = e.T
		}
		if e.Cause == CauseLockRefused {
			t.Errorf("lock refused: %+v", e)
		}
	})
	mustApply(t, c, Command{Type: "addConsumer", ID: "c3"})
	c.Advance(60000)
	if took < 30000 || took > 33000 {
		t.Errorf("c3 took queues at %d; want within 3 s of joining at 30 s", took)
	}
}

// A member whose listener is stuck cannot give its queues up cleanly: it unlocks them only 20 s
// after its last lock (the forced unlock), so the joiner waits about that long (spec §8.5.2).
func TestLockHungOwnerForcesUnlockLater(t *testing.T) {
	_, events := lockRun(t, Command{Type: "hangConsumer", ID: "c2"}, Command{Type: "addConsumer", ID: "c3"})
	var locked []Event
	for _, e := range events {
		if e.Cause == CauseLock {
			locked = append(locked, e)
		}
	}
	if len(locked) == 0 {
		t.Fatalf("c3 never locked what it was given: %+v", events)
	}
	for _, e := range locked {
		if e.T < 41000 || e.T > 62000 {
			t.Errorf("%v locked at %d; want after c2's forced unlock, 20 s after its last lock (renewed at 21 s)", e.Queues, e.T)
		}
	}
}
