package cluster

import (
	"encoding/json"
	"testing"
)

// Counts is Snapshot's counters, equal field for field, as the cluster runs, a consumer dies
// and a broker slows: what the playground's charts record from it is what they recorded from
// the full snapshot.
func TestCountsAreTheSnapshotsCounters(t *testing.T) {
	c, err := New(benchConfig(4, 8, 12, 2000))
	if err != nil {
		t.Fatal(err)
	}
	counters := func(s Snapshot) string {
		out := Snapshot{TimeMs: s.TimeMs, Seed: s.Seed, Topic: s.Topic, Group: s.Group, Strategy: s.Strategy,
			MessageModel: s.MessageModel, LatencyFault: s.LatencyFault, FaultTable: s.FaultTable,
			Metrics: s.Metrics, Anomalies: []Anomaly{}}
		for _, b := range s.Brokers {
			out.Brokers = append(out.Brokers, BrokerView{Name: b.Name, Queues: b.Queues, LatencyMs: b.LatencyMs, Down: b.Down,
				Sends: b.Sends, Failures: b.Failures, SendLatencyMs: b.SendLatencyMs, ReadQueues: b.ReadQueues, WriteQueues: b.WriteQueues})
		}
		for _, q := range s.Queues {
			out.Queues = append(out.Queues, QueueView{Queue: q.Queue, Topic: q.Topic, Group: q.Group, Broker: q.Broker, ID: q.ID, MaxOffset: q.MaxOffset, Committed: q.Committed, Backlog: q.Backlog})
		}
		for _, cv := range s.Consumers {
			out.Consumers = append(out.Consumers, ConsumerView{ID: cv.ID, Group: cv.Group, Topics: cv.Topics, Status: cv.Status, Queues: cv.Queues, Consumed: cv.Consumed})
		}
		data, err := json.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	slow := 3000
	steps := []struct {
		at  int64
		cmd *Command
	}{
		{5000, nil},
		{30000, &Command{Type: "killConsumer", ID: "c3"}},
		{45000, &Command{Type: "slowBroker", Broker: "broker-b", LatencyMs: &slow}},
		{90000, nil},
	}
	for _, st := range steps {
		c.Advance(st.at)
		if st.cmd != nil {
			if err := c.Apply(*st.cmd); err != nil {
				t.Fatal(err)
			}
			c.Advance(st.at + 5000)
		}
		full, counts := c.Snapshot(), c.Counts()
		if len(full.Consumers) == 0 || len(full.Queues) == 0 || full.Metrics.Consumed == 0 {
			t.Fatalf("at %d: an empty snapshot %+v", c.Now(), full.Metrics)
		}
		if want, got := counters(full), counters(counts); got != want {
			t.Fatalf("at %d: Counts\n%.400s\nwant Snapshot's counters\n%.400s", c.Now(), got, want)
		}
		if got, want := counters(counts), func() string { b, _ := json.Marshal(counts); return string(b) }(); got != want {
			t.Fatalf("at %d: Counts carries more than the counters:\n%.400s", c.Now(), want)
		}
	}
}
