package cluster

import (
	"fmt"
	"testing"
)

// The start of the largest group the scenario limits allow (512 consumers on 64 brokers)
// registers every consumer on every broker, and each registration notifies every consumer
// registered so far: 8 million notifications. They travel as one queue event per CHANGE, so
// the queue holds thousands of events, not millions (it held 1.8 GB before).
func TestAStartQueuesOneEventPerChange(t *testing.T) {
	c := mustNew(t, group(64, 4, 512))
	changes := 64 * 512
	if n := c.events.Len(); n > 4*changes {
		t.Fatalf("%d events queued after the start; want at most %d (a few per consumer and broker)", n, 4*changes)
	}
}

// Every consumer a CHANGE's batch names is notified, indexes past 255 included: when c1 is
// killed, its broker's CHANGE wakes every other consumer, and each rebalances within a
// second instead of at its next 20 s period.
func TestEveryNotifiedConsumerWakes(t *testing.T) {
	const n = 300
	c := mustNew(t, group(1, 4, n))
	c.Advance(60000)
	if err := c.Apply(Command{Type: "killConsumer", ID: "c1"}); err != nil {
		t.Fatal(err)
	}
	killed := c.Now()
	c.Advance(killed + 1000)
	late := 0
	for _, cs := range c.consumers[1:] {
		if cs.roundEnd <= killed {
			late++
		}
	}
	if late > 0 {
		t.Fatalf("%d of %d consumers did not rebalance within 1 s of the CHANGE", late, n-1)
	}
}

func group(brokers, queues, consumers int) Config {
	cfg := Config{Seed: 1}
	for i := range brokers {
		cfg.Brokers = append(cfg.Brokers, BrokerConfig{Name: fmt.Sprintf("broker-%02d", i), Queues: queues})
	}
	for i := range consumers {
		cfg.Consumers = append(cfg.Consumers, ConsumerConfig{ID: fmt.Sprintf("c%d", i+1)})
	}
	return cfg
}
