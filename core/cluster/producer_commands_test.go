package cluster

import (
	"strings"
	"testing"
)

// stored runs c to until and returns the messages stored meanwhile.
func storedUntil(c *Cluster, until int64) int64 {
	before := c.Metrics().Produced
	c.Advance(until)
	return c.Metrics().Produced - before
}

// More sending threads win back the rate a slow broker took from a blocking producer, and
// async sends never lose it (spec §2.7, §2.9).
func TestSetProducerThreadsAndSendMode(t *testing.T) {
	cfg := smallConfig(200)
	cfg.Producers[0].Threads = 1
	c := mustNew(t, cfg)
	c.Advance(10000)
	mustApply(t, c, Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: ptr(2000)})
	c.Advance(20000)
	one := storedUntil(c, 30000) // 1 thread: each send to broker-a blocks it for 2 s
	mustApply(t, c, Command{Type: "setProducerThreads", Threads: ptr(64)})
	c.Advance(40000)
	many := storedUntil(c, 50000)
	mustApply(t, c, Command{Type: "setProducerThreads", Threads: ptr(1)})
	c.Advance(60000)
	back := storedUntil(c, 70000)
	mustApply(t, c, Command{Type: "setSendMode", Mode: SendAsync})
	c.Advance(80000)
	async := storedUntil(c, 90000)
	// 64 threads: each runs its list, half of it on broker-a (4 × 2 s + 4 × 320 ms per 8
	// sends), about 55/s together.
	if one > 20 || many < 400 || back > 20 || async < 1900 {
		t.Errorf("stored in 10 s: %d with 1 thread, %d with 64, %d with 1 again, %d async; want about 1/s, 55/s, 1/s, 200/s", one, many, back, async)
	}
	if v := c.Snapshot().Producers[0]; v.Mode != SendAsync || v.Threads != 0 {
		t.Errorf("state: mode %q, threads %d; want async, 0", v.Mode, v.Threads)
	}
	if err := c.Apply(Command{Type: "setProducerThreads", Threads: ptr(4)}); err == nil || !strings.Contains(err.Error(), "async") {
		t.Errorf("threads for an async producer: %v; want an error saying it sends async", err)
	}
	mustApply(t, c, Command{Type: "setSendMode", Mode: SendSync, Threads: ptr(3)})
	if v := c.Snapshot().Producers[0]; v.Mode != SendSync || v.Threads != 3 {
		t.Errorf("state: mode %q, threads %d; want sync, 3", v.Mode, v.Threads)
	}
	if err := checkSends(c); err != nil {
		t.Fatal(err)
	}
}

// setLatencyTiers replaces the producer's tiers as setLatencyMax / setNotAvailableDuration do:
// a 2 s broker is then isolated for the custom tier's 60 s, on the current client and on
// 4.9; a Go producer has no tiers to set.
func TestSetLatencyTiers(t *testing.T) {
	for _, client := range []string{"", "java-4.9"} {
		cfg := smallConfig(200)
		cfg.LatencyFault = true
		cfg.Producers[0].Client = client
		c := mustNew(t, cfg)
		c.Advance(5000)
		mustApply(t, c, Command{Type: "setLatencyTiers", LatencyMax: []int64{50, 100, 550, 1800}, NotAvailableDuration: []int64{0, 0, 30000, 60000}})
		mustApply(t, c, Command{Type: "slowBroker", Broker: "broker-a", LatencyMs: ptr(2000)})
		c.Advance(30000)
		isos := c.Isolations()
		if len(isos) != 1 || isos[0].Broker != "broker-a" || isos[0].Until-isos[0].Start != 60000 {
			t.Errorf("client %q: isolations %+v; want broker-a once, for the custom tier's 60 s", client, isos)
		}
	}
	cfg := smallConfig(200)
	cfg.Producers[0].Client = "go"
	c := mustNew(t, cfg)
	err := c.Apply(Command{Type: "setLatencyTiers", ID: "p1", LatencyMax: []int64{50}, NotAvailableDuration: []int64{0}})
	if err == nil || !strings.Contains(err.Error(), "no latency fault tolerance") {
		t.Errorf("tiers for a Go producer: %v; want an error saying it has none", err)
	}
	if err := c.Apply(Command{Type: "setLatencyTiers", ID: "p9", LatencyMax: []int64{50}, NotAvailableDuration: []int64{0}}); err == nil || !strings.Contains(err.Error(), `no producer "p9"`) {
		t.Errorf("tiers for a missing producer: %v", err)
	}
	for _, bad := range []struct {
		cmd  Command
		want string
	}{
		{Command{Type: "setLatencyTiers", LatencyMax: []int64{50}}, "notAvailableDuration: missing"},
		{Command{Type: "setLatencyTiers", LatencyMax: make([]int64, MaxTiers+1), NotAvailableDuration: []int64{}}, "65 entries; the limit is 64"},
		{Command{Type: "setLatencyTiers", LatencyMax: []int64{}, NotAvailableDuration: []int64{0, MaxTierMs + 1}}, "notAvailableDuration[1]: 86400001"},
		{Command{Type: "setProducerThreads", Threads: ptr(0)}, "threads: 0; want 1…256"},
		{Command{Type: "setSendMode", Mode: "batch"}, `mode: "batch"; want sync or async`},
		{Command{Type: "setSendMode", Mode: SendAsync, Threads: ptr(2)}, "threads applies to mode sync"},
	} {
		if err := CheckCommand("", bad.cmd); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v; want an error containing %q", bad.cmd, err, bad.want)
		}
	}
}
