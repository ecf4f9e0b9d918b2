package cluster

import (
	"fmt"
	"runtime"
	"testing"
)

// hourConfig is the throughput case: 8 brokers × 16 queues, 64 consumers, 2000 msg/s.
func benchConfig(brokers, queues, consumers, rate int) Config {
	// 16 blocking threads keep up with 2000 msg/s (125/s each, one send every 8 ms).
	cfg := Config{Seed: 1, Producers: []ProducerConfig{{ID: "p1", Rate: rate, Threads: 16}}}
	for i := range brokers {
		cfg.Brokers = append(cfg.Brokers, BrokerConfig{Name: fmt.Sprintf("broker-%c", 'a'+i), Queues: queues})
	}
	for i := range consumers {
		cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: fmt.Sprintf("c%d", i+1)})
	}
	return cfg
}

// BenchmarkHour runs one hour of virtual time; the x-realtime metric is how many times faster
// than real time that was (target: at least 3600).
func BenchmarkHour(b *testing.B) {
	for b.Loop() {
		c, err := New(benchConfig(8, 16, 64, 2000))
		if err != nil {
			b.Fatal(err)
		}
		c.Advance(3600 * 1000)
	}
	b.ReportMetric(3600/(b.Elapsed().Seconds()/float64(b.N)), "x-realtime")
}

// BenchmarkFrame is one browser frame's step of the large preset (16 brokers × 16 queues, 64
// consumers, 2000 msg/s) once it is running: 16 ms of virtual time at 1×, 1.6 s at 100×.
func BenchmarkFrame(b *testing.B) {
	for _, step := range []int64{16, 1600, 60000} {
		b.Run(fmt.Sprintf("virtual=%dms", step), func(b *testing.B) {
			c, err := New(benchConfig(16, 16, 64, 2000))
			if err != nil {
				b.Fatal(err)
			}
			c.Advance(120000)
			for b.Loop() {
				c.Advance(c.Now() + step)
			}
		})
	}
}

// BenchmarkRetainedHeap reports the live heap of the hour-long run's cluster after 10 and
// after 60 virtual minutes: memory must not grow with the run's length beyond bounded logs.
func BenchmarkRetainedHeap(b *testing.B) {
	live := func() float64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return float64(m.HeapAlloc) / (1 << 20)
	}
	var at10, at60 float64
	for b.Loop() {
		c, err := New(benchConfig(8, 16, 64, 2000))
		if err != nil {
			b.Fatal(err)
		}
		c.Advance(10 * 60 * 1000)
		at10 = live()
		c.Advance(60 * 60 * 1000)
		at60 = live()
		runtime.KeepAlive(c)
	}
	b.ReportMetric(at10, "heapMB@10m")
	b.ReportMetric(at60, "heapMB@60m")
}

// BenchmarkSnapshot is the snapshot the playground publishes every frame, of the large preset
// (16 brokers × 16 queues, 64 consumers, 2000 msg/s) once it is running.
func BenchmarkSnapshot(b *testing.B) {
	c, err := New(benchConfig(16, 16, 64, 2000))
	if err != nil {
		b.Fatal(err)
	}
	c.Advance(120000)
	for b.Loop() {
		c.Advance(c.Now() + 16)
		_ = c.Snapshot()
	}
}
