package cluster

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/route"
)

// A snapshot's queue names, owners, consumer lists and views (built in one array per
// snapshot, from names and comparisons made once) are what the owners map, the queues' short
// names, the brokers up, the client ids' start order and the views' lists say, through kills,
// restarts, partitions, queue count changes and clones; Counts lists the same; and an earlier
// snapshot's lists stay as they were.
func TestSnapshotQueueListsMatchAFreshComputation(t *testing.T) {
	seeds := 20
	if testing.Short() {
		seeds = 6
	}
	restarts := 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		cfg := smallConfig(200 + r.IntN(800))
		cfg.Seed = int64(seed)
		c := mustNew(t, cfg)
		type kept struct {
			snap   Snapshot
			owners [][]string // deep copies of snap's queue owners
			queues [][]string // and of its consumers' queues and pulled queues
			pulled [][]string
		}
		keep := func(s Snapshot) kept {
			k := kept{snap: s}
			for _, q := range s.Queues {
				k.owners = append(k.owners, slices.Clone(q.Owners))
			}
			for _, cv := range s.Consumers {
				k.queues = append(k.queues, slices.Clone(cv.Queues))
				k.pulled = append(k.pulled, slices.Clone(cv.View.Pulled))
			}
			return k
		}
		check := func(c *Cluster, where string) Snapshot {
			s, counts := c.Snapshot(), c.Counts()
			owners := c.owners()
			i := 0
			for _, b := range c.brokers {
				for id := range b.topics[0].queues {
					mq := route.MessageQueue{Topic: c.topics[0].name, BrokerName: b.name, QueueID: int32(id)}
					q, cq := s.Queues[i], counts.Queues[i]
					if q.Queue != mq.Short() || cq.Queue != mq.Short() {
						t.Fatalf("seed %d %s at %s: queue %d is named %q (counts %q), want %q", seed, where, clock(c.now), i, q.Queue, cq.Queue, mq.Short())
					}
					if want := orEmpty(owners[anomalyKey{0, mq}]); q.Owners == nil || !slices.Equal(q.Owners, want) {
						t.Fatalf("seed %d %s at %s: %s is owned by %#v, want %v", seed, where, clock(c.now), q.Queue, q.Owners, want)
					}
					if cap(q.Owners) != len(q.Owners) {
						t.Fatalf("seed %d %s at %s: %s's owners have room for %d: an append would write into the next queue's", seed, where, clock(c.now), q.Queue, cap(q.Owners))
					}
					i++
				}
			}
			if len(s.Queues) != i || len(counts.Queues) != i {
				t.Fatalf("seed %d %s at %s: %d queues (counts %d), want %d", seed, where, clock(c.now), len(s.Queues), len(counts.Queues), i)
			}
			ids := c.consumerIDs()
			if len(s.Consumers) != len(ids) || len(counts.Consumers) != len(ids) {
				t.Fatalf("seed %d %s at %s: %d consumers (counts %d), want %v", seed, where, clock(c.now), len(s.Consumers), len(counts.Consumers), ids)
			}
			for j, id := range ids {
				cs := c.current[memberKey{id, 0}]
				cv := s.Consumers[j]
				want := orEmpty(c.queueNames(cs.queues()))
				if cv.ID != id || counts.Consumers[j].ID != id || !slices.Equal(cv.Queues, want) || !slices.Equal(counts.Consumers[j].Queues, want) || cv.Queues == nil {
					t.Fatalf("seed %d %s at %s: consumer %d is %s with %#v (counts %s with %v), want %s with %v", seed, where, clock(c.now), j, cv.ID, cv.Queues, counts.Consumers[j].ID, counts.Consumers[j].Queues, id, want)
				}
				if cv.View.IsZero() {
					continue
				}
				if cv.View.Stale != !slices.Equal(cv.View.Cids, cv.View.Now) {
					t.Fatalf("seed %d %s at %s: %s's view is stale: %v, with list %v and %s now %v", seed, where, clock(c.now), id, cv.View.Stale, cv.View.Cids, cv.View.NowBroker, cv.View.Now)
				}
				pulled := []string{}
				for _, pq := range cs.pqList {
					if !cs.partitioned && !pq.b.down {
						pulled = append(pulled, pq.mq.Short())
					}
				}
				if cv.View.Pulled == nil || !slices.Equal(cv.View.Pulled, pulled) {
					t.Fatalf("seed %d %s at %s: %s's view pulls %#v, want %v", seed, where, clock(c.now), id, cv.View.Pulled, pulled)
				}
			}
			return s
		}
		var old []kept
		for c.now < 240000 {
			if r.IntN(6) == 0 {
				_ = c.Apply(randomCommand(r, c))
			}
			if r.IntN(20) == 0 {
				// A second process of one id: the lists show the id once, with its latest process.
				ids := c.consumerIDs()
				if c.Apply(Command{Type: "restartConsumer", ID: ids[r.IntN(len(ids))]}) == nil {
					restarts++
				}
			}
			c.Advance(c.now + int64(500+r.IntN(3000)))
			s := check(c, "")
			if r.IntN(6) == 0 {
				old = append(old, keep(s))
			}
			if r.IntN(40) == 0 {
				cl := c.Clone()
				for range 5 {
					_ = cl.Apply(randomCommand(r, cl))
					cl.Advance(cl.now + 20000)
					check(cl, "clone")
				}
			}
		}
		for _, k := range old {
			for i, q := range k.snap.Queues {
				if !slices.Equal(q.Owners, k.owners[i]) {
					t.Fatalf("seed %d: a snapshot of %s's owners of %s changed after it was taken: %v, was %v", seed, clock(k.snap.TimeMs), q.Queue, q.Owners, k.owners[i])
				}
			}
			for i, cv := range k.snap.Consumers {
				if !slices.Equal(cv.Queues, k.queues[i]) || !slices.Equal(cv.View.Pulled, k.pulled[i]) {
					t.Fatalf("seed %d: a snapshot of %s's queues of %s changed after it was taken", seed, clock(k.snap.TimeMs), cv.ID)
				}
			}
		}
	}
	if restarts < seeds {
		t.Fatalf("only %d restarts in %d runs: the test barely made a client id's second process", restarts, seeds)
	}
}
