package session

import (
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// thirtyMinutes is a 30-minute session of the default preset with an action every two
// minutes, played to its end and paused.
func thirtyMinutes(b *testing.B) *Session {
	b.Helper()
	s := NewDefault()
	actions := []string{
		`{"type":"killConsumer","id":"c2"}`, `{"type":"setLatencyFault","on":true}`,
		`{"type":"slowBroker","broker":"broker-b","latencyMs":2000}`, `{"type":"addConsumer"}`,
		`{"type":"partitionConsumer","id":"c3"}`, `{"type":"restartConsumer","id":"c2"}`,
		`{"type":"slowBroker","broker":"broker-b","latencyMs":0}`, `{"type":"hangConsumer","id":"c4"}`,
	}
	for i := range 15 {
		for _, js := range []string{`{"type":"step","ms":120000}`, actions[i%len(actions)]} {
			cmd, err := Decode([]byte(js))
			if err != nil {
				b.Fatal(err)
			}
			s.Enqueue(cmd)
		}
		s.Tick(0)
	}
	if s.State().TimeMs != 1800000 {
		b.Fatalf("the session is at %d", s.State().TimeMs)
	}
	return s
}

// seekTargets are spread over the 30 minutes, alternating back and forth.
var seekTargets = []int64{1790000, 60000, 1500000, 333000, 1234567, 900000, 5000, 1799999, 450000, 1100000}

// BenchmarkSeek measures one seek of a 30-minute default session to moments spread over it:
// "checkpoints" is the session's seek; "baseline=replay-from-0" rebuilds the recorded
// scenario and replays it from 00:00, which is what a seek back did before checkpoints.
func BenchmarkSeek(b *testing.B) {
	s := thirtyMinutes(b)
	sc, _, err := s.Recorded()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("checkpoints", func(b *testing.B) {
		i := 0
		for b.Loop() {
			ms := seekTargets[i%len(seekTargets)]
			i++
			s.Enqueue(Command{Command: cluster.Command{Type: Seek}, Ms: &ms})
			if r := s.Tick(0); r[0].Err != nil {
				b.Fatal(r[0].Err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/seek")
	})
	b.Run("baseline=replay-from-0", func(b *testing.B) {
		i := 0
		for b.Loop() {
			ms := seekTargets[i%len(seekTargets)]
			i++
			f, err := New(sc)
			if err != nil {
				b.Fatal(err)
			}
			f.quiet = true
			f.advance(ms)
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/seek")
	})
}

// BenchmarkTickLarge100x is one frame of the large preset at the playground's top speed
// (1.6 virtual seconds), series sampling and checkpoints included.
func BenchmarkTickLarge100x(b *testing.B) {
	s, err := New(scenario.Presets()["large"])
	if err != nil {
		b.Fatal(err)
	}
	x := 100.0
	s.Enqueue(Command{Command: cluster.Command{Type: SetSpeed}, X: &x})
	for range 100 {
		s.Tick(frame) // past the start-up rebalancing
	}
	for b.Loop() {
		s.Tick(frame)
	}
	b.ReportMetric(float64(len(s.cps)), "checkpoints")
	b.ReportMetric(float64(s.State().TimeMs)/1000, "virtual-s")
}
