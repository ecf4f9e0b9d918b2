package cluster

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
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

// popHourConfig is BenchmarkHour's cluster with its group served by POP (mqadmin
// setConsumeMode -m POP, the default popShareQueueNum) and every member letting the brokers
// allocate (clientRebalance false): each pops from all 16 queues of every broker.
func popHourConfig() Config {
	cfg := benchConfig(8, 16, 64, 2000)
	cfg.ConsumeMode = ModePop
	off := false
	for i := range cfg.Consumers {
		cfg.Consumers[i].ClientRebalance = &off
	}
	return cfg
}

// BenchmarkPopHour is BenchmarkHour's hour with the group consuming by POP (popHourConfig),
// reported beside it. After the timed hours, the last one's counts must show that its members
// popped and kept up, so the benchmark cannot measure a PULL hour instead.
func BenchmarkPopHour(b *testing.B) {
	var c *Cluster
	for b.Loop() {
		var err error
		if c, err = New(popHourConfig()); err != nil {
			b.Fatal(err)
		}
		c.Advance(3600 * 1000)
	}
	b.ReportMetric(3600/(b.Elapsed().Seconds()/float64(b.N)), "x-realtime")
	if m := c.Metrics(); m.Popped == 0 || m.Consumed < m.Produced*99/100 {
		b.Fatalf("not a POP hour that keeps up: produced %d, consumed %d, popped %d", m.Produced, m.Consumed, m.Popped)
	}
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

// pluralConfig is a cluster of several topics and groups at the hour benchmark's scale: 8
// brokers, three topics of 8 queues a broker, three groups of 24 members (their retry topics
// with them), one member in two groups, a listener failing 1 % and tagged messages, 2000
// msg/s in all.
func pluralConfig() Config {
	cfg := Config{Seed: 1}
	for i := range 8 {
		cfg.Brokers = append(cfg.Brokers, BrokerConfig{Name: fmt.Sprintf("broker-%c", 'a'+i)})
	}
	for i, name := range []string{"TopicOrder", "TopicPay", "TopicLog"} {
		cfg.Topics = append(cfg.Topics, TopicConfig{Name: name, Queues: 8})
		p := ProducerConfig{ID: fmt.Sprintf("p%d", i+1), Rate: []int{1000, 600, 400}[i], Threads: 8, Topic: name}
		if i == 1 {
			p.Tags = map[string]float64{"TagA": 0.7, "TagB": 0.3}
		}
		cfg.Producers = append(cfg.Producers, p)
	}
	cfg.Groups = []GroupConfig{{Name: "GID_ORDER"}, {Name: "GID_PAY"}, {Name: "GID_AUDIT", Strategy: allocate.Named("AVG_BY_CIRCLE")}}
	for i := range 72 {
		g := i / 24
		m := MembershipConfig{Group: cfg.Groups[g].Name}
		switch g {
		case 0:
			m.Subscriptions = []SubscriptionConfig{{Topic: "TopicOrder"}, {Topic: "TopicPay"}}
			if i%8 == 0 {
				m.FailRate = 0.01
			}
		case 1:
			m.Subscriptions = []SubscriptionConfig{{Topic: "TopicPay", Tags: []string{"TagA"}}}
		default:
			m.Subscriptions = []SubscriptionConfig{{Topic: "TopicLog"}, {Topic: "TopicOrder"}}
		}
		cc := ConsumerConfig{ID: fmt.Sprintf("c%d", i+1), Groups: []MembershipConfig{m}}
		if i == 0 {
			cc.Groups = append(cc.Groups, MembershipConfig{Group: "GID_AUDIT", Subscriptions: []SubscriptionConfig{{Topic: "TopicLog"}}})
		}
		cfg.Consumers = append(cfg.Consumers, cc)
	}
	return cfg
}

// BenchmarkPluralHour is BenchmarkHour's hour on a cluster of several topics and groups
// (pluralConfig), reported beside it.
func BenchmarkPluralHour(b *testing.B) {
	for b.Loop() {
		c, err := New(pluralConfig())
		if err != nil {
			b.Fatal(err)
		}
		c.Advance(3600 * 1000)
	}
	b.ReportMetric(3600/(b.Elapsed().Seconds()/float64(b.N)), "x-realtime")
}

// BenchmarkBigGroupHour is one virtual hour of a group as operators import them: 1000 members
// on 64 brokers × 64 queues, 2000 msg/s (target: at most 60 s on one core).
func BenchmarkBigGroupHour(b *testing.B) {
	cfg := benchConfig(64, 64, 0, 2000)
	for i := range 64 {
		cfg.Brokers[i].Name = fmt.Sprintf("broker-%02d", i+1)
	}
	for i := range 1000 {
		cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: fmt.Sprintf("10.0.%d.%d@%d", i/250, i%250, 1000+i)})
	}
	for b.Loop() {
		c, err := New(cfg)
		if err != nil {
			b.Fatal(err)
		}
		c.Advance(3600 * 1000)
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/hour")
}
