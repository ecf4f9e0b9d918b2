package cluster

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// A snapshot's registered ids per broker, and the sorted list each consumer's view compares
// against, are made once and shared until the broker's channels change: through kills,
// restarts, partitions, broker crashes and expiries, and on a clone going its own way, every
// snapshot shows what the brokers hold at that moment, and an earlier snapshot's lists stay
// as they were.
func TestSnapshotListsFollowTheChannels(t *testing.T) {
	seeds := 30
	if testing.Short() {
		seeds = 8
	}
	changed := 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		cfg := smallConfig(200 + r.IntN(800))
		cfg.Seed = int64(seed)
		c := mustNew(t, cfg)
		type kept struct {
			snap Snapshot
			ids  [][]string // deep copies of snap's broker lists
			now  [][]string // and of its views' Now
		}
		keep := func(s Snapshot) kept {
			k := kept{snap: s}
			for _, b := range s.Brokers {
				k.ids = append(k.ids, slices.Clone(b.Consumers))
			}
			for _, cv := range s.Consumers {
				k.now = append(k.now, slices.Clone(cv.View.Now))
			}
			return k
		}
		check := func(c *Cluster, where string) Snapshot {
			s := c.Snapshot()
			for i, b := range c.brokers {
				if want := orEmpty(c.registeredIDs(b.groups[0])); !slices.Equal(s.Brokers[i].Consumers, want) {
					t.Fatalf("seed %d %s at %s: %s lists %v; its channels hold %v", seed, where, clock(c.now), b.name, s.Brokers[i].Consumers, want)
				}
			}
			for _, cv := range s.Consumers {
				if cv.View.IsZero() || cv.View.NowBroker == "" {
					continue
				}
				b := c.brokerBy[cv.View.NowBroker]
				_, want := c.current[memberKey{cv.ID, 0}].prof.SortInputs(nil, c.registeredIDs(b.groups[0]))
				if !slices.Equal(cv.View.Now, orEmpty(want)) {
					t.Fatalf("seed %d %s at %s: %s's view says %s holds %v; sorted it holds %v", seed, where, clock(c.now), cv.ID, b.name, cv.View.Now, want)
				}
			}
			return s
		}
		var old []kept
		last := ""
		for c.now < 240000 {
			if r.IntN(8) == 0 {
				_ = c.Apply(randomCommand(r, c))
			}
			c.Advance(c.now + int64(500+r.IntN(3000)))
			s := check(c, "")
			lists := ""
			for _, b := range s.Brokers {
				lists += fmt.Sprint(b.Consumers)
			}
			if last != "" && lists != last {
				changed++ // a register or a dropped channel since the last step
			}
			last = lists
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
			for i, b := range k.snap.Brokers {
				if !slices.Equal(b.Consumers, k.ids[i]) {
					t.Fatalf("seed %d: a snapshot of %s's list changed after it was taken: %v, was %v", seed, clock(k.snap.TimeMs), b.Consumers, k.ids[i])
				}
			}
			for i, cv := range k.snap.Consumers {
				if !slices.Equal(cv.View.Now, k.now[i]) {
					t.Fatalf("seed %d: a snapshot of %s's view of %s changed after it was taken", seed, clock(k.snap.TimeMs), cv.ID)
				}
			}
		}
	}
	t.Logf("the brokers' lists changed %d times in %d runs", changed, seeds)
	if changed < seeds {
		t.Fatalf("the brokers' lists changed only %d times in %d runs: the test barely changed the channels", changed, seeds)
	}
}
