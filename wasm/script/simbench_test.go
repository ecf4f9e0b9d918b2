package script

import (
	"os"
	"testing"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// BenchmarkSimulation is two virtual minutes of a group of 16 members over 8 brokers × 16
// queues at 1,000 msg/s (a kill and a join in it), with the built-in AVG and with its Starlark
// port given as the scenario's source: every member's every rebalance calls the strategy.
// scripts/bench-sim.sh reports the port's speed as a ratio of the built-in's, measured in the
// same run (target ≥ 0.1).
//
//	go test -run '^$' -bench Simulation -cpu 1 ./wasm/script
func BenchmarkSimulation(b *testing.B) {
	Enable()
	src, err := os.ReadFile("../../testdata/strategies/avg_port.star")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		choice allocate.Choice
	}{
		{"builtin", allocate.Named("AVG")},
		{"starlark", allocate.Choice{Name: "AVG_PORT", Source: string(src), Steps: allocate.MaxScriptSteps}},
	} {
		b.Run(c.name, func(b *testing.B) {
			s, err := scenario.FromFlags(scenario.Flags{Brokers: 8, QueuesPerBroker: 16, Consumers: 16, Producers: 1, Rate: 1000, Until: 2 * scenario.Minute, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			s.Strategy = c.choice
			s.Timeline = []scenario.Step{
				{At: 40 * scenario.Second, Command: cluster.Command{Type: "killConsumer", ID: s.Consumers[3].ID}},
				{At: 80 * scenario.Second, Command: cluster.Command{Type: "addConsumer", ID: "c-new"}},
			}
			for b.Loop() {
				r, err := scenario.Run(s, scenario.RunOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if r.Metrics.Produced == 0 || r.Final.Status["c-new"] == "" {
					b.Fatal("the run did not go as set")
				}
			}
			b.ReportMetric(float64(2*60)/(b.Elapsed().Seconds()/float64(b.N)), "x-realtime")
		})
	}
}
