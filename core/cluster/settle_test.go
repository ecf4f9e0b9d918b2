package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSettledSendsChangeNothing: settling a successful send with its start (the fast path of
// blocking producers without fault tolerance) tells the same story as completing it when its
// response arrives, under random actions at arbitrary milliseconds — slow brokers whose
// timeouts close connections under settled sends, killed brokers, removed queues, rate
// changes and fault tolerance switched on and off.
func TestSettledSendsChangeNothing(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	defer func() { settleSends = true }()
	for seed := range seeds {
		digest := func(settle bool) string {
			settleSends = settle
			r := rand.New(rand.NewPCG(uint64(seed), 11))
			cfg := smallConfig(200 + r.IntN(1500))
			cfg.Seed = int64(seed)
			cfg.Producers[0].Threads = 1 + r.IntN(12)
			cfg.Producers[0].Client = []string{"", "java-4.9", "go-2.1.2"}[seed%3]
			if r.IntN(4) == 0 {
				cfg.Producers[0].Keys = &KeysConfig{Count: 1 + r.IntN(100), HotShare: r.IntN(90)}
			}
			c := mustNew(t, cfg)
			h := sha256.New()
			enc := json.NewEncoder(h)
			c.SetObserver(func(e Event) {
				if err := enc.Encode(e); err != nil {
					t.Fatal(err)
				}
			})
			for c.now < 300000 {
				c.Advance(c.now + int64(1+r.IntN(8000)))
				var cmd Command
				switch r.IntN(5) {
				case 1:
					cmd = randomProducerCommand(r)
				case 0:
					cmd = Command{Type: "slowBroker", Broker: c.brokers[r.IntN(len(c.brokers))].name, LatencyMs: ptr([]int{0, 1500, 2000, 2990, 6000}[r.IntN(5)])}
				default:
					cmd = randomCommand(r, c)
				}
				_ = c.Apply(cmd)
				m := c.Metrics()
				fmt.Fprintf(h, "%d %d %d %d %d %v\n", c.now, m.Produced, m.SendFailures, m.StoredAfterTimeout, m.InFlight, m.SendsPerBroker)
				if err := checkSends(c); err != nil {
					t.Fatalf("seed %d, settle %v, at %s: %v", seed, settle, clock(c.now), err)
				}
			}
			fmt.Fprintf(h, "%+v %+v", c.Metrics(), c.Snapshot())
			return hex.EncodeToString(h.Sum(nil))
		}
		if a, b := digest(true), digest(false); a != b {
			t.Fatalf("seed %d: settled sends tell another story: %s vs %s", seed, a, b)
		}
	}
}
