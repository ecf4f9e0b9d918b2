package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lbscope/lbscope/core/scenario"
)

const simUsage = `Usage:
  lbscope sim [flags]                   a cluster built from flags
  lbscope sim [flags] FILE.json         a scenario file (see testdata/scenarios/README.md)
  lbscope sim --preset small|default|large [flags]
  lbscope sim --preset INCIDENT [flags] a reported problem, reproduced (below)

Runs a RocketMQ cluster and consumer group in virtual time — heartbeats, notifications,
the 20 s rebalance, the 120 s channel expiry, offsets persisted every 5 s — and prints
what happened: when each consumer's queues changed, overlaps and orphans, the final
assignment, and the counts (produced, consumed, duplicates, lost). The same inputs print
the same output, byte for byte.

Actions on the timeline: --at TIME:TYPE[:ARG…], repeated; an optional argument may be given
as NAME=VALUE, which skips the ones before it (--at 30s:addConsumer:g9:kind=grpc-push).
Types and their arguments:
%s
Incidents, each a preset citing the reports it reproduces (the page's gallery has them too):
%s
Examples:
  lbscope sim --brokers 2 --queues 4 --consumers 3 --until 6m --at 60s:partitionConsumer:c1
  lbscope sim --brokers 2 --queues 4 --consumers 3 --at 60s:killConsumer:c1 --json
  lbscope sim --latency-fault --at 30s:slowBroker:broker-a:2000 --until 2m
  lbscope sim --consumer-ids 10.0.0.1@4012,10.0.0.2@4013 --strategy CONSISTENT_HASH --at 45s:addConsumer:10.0.0.3@4014
  lbscope sim --preset large --until 10m --seed 7
  lbscope sim testdata/scenarios/partition.json --json

With a scenario file or a preset, --seed and --until replace the file's values and --at
steps are added to its timeline; the cluster-shape flags belong to flag-built runs.

Flags:
`

func runSim(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	var (
		sf      scenarioFlags
		asJSON  bool
		events  bool
		detail  bool
		maxWork workFlag
	)
	sf.register(fs, "allocation strategy", "CONSISTENT_HASH: virtual nodes per consumer", "latency tier table: current (5.1.4+) or legacy-4x")
	fs.BoolVar(&asJSON, "json", false, "print JSON: seed, actions, rebalances, anomalies, final assignment, metrics, and for a scenario of logs (diagnose --scenario) the windows where logs and simulation disagree")
	fs.BoolVar(&events, "events", false, "with --json, include every event of the run, each pop and ack of POP and gRPC members too")
	fs.BoolVar(&detail, "detail", false, "tell each pop (a gRPC receive), empty long poll and ack of POP and gRPC members, at most 20000 (a scenario's \"detail\": true does too)")
	registerWork(fs, &maxWork)
	usage := fmt.Sprintf(simUsage, commandTable(), incidentTable())
	if done, status := parseFlags(fs, usage, args, stdout, stderr); done {
		return status
	}
	s, err := sf.scenario(fs)
	if err != nil {
		return fail(stderr, "sim", err)
	}

	w := scenario.WorkOf(s)
	if err := checkWork(w, 1, int64(maxWork)); err != nil {
		return fail(stderr, "sim", err)
	}
	p := newProgress(stderr, "sim", w, 1)
	r, err := scenario.Run(s, scenario.RunOptions{Events: events || !asJSON, Detail: detail || events && asJSON, Progress: func(ms int64) { p.at(0, ms) }})
	p.done()
	if err != nil {
		return fail(stderr, "sim", err)
	}
	var ds []scenario.Disagreement
	if s.Observed != nil {
		// A history read from logs: where it and the simulation of the same steps disagree.
		if ds, err = scenario.Disagreements(s); err != nil {
			return fail(stderr, "sim", err)
		}
	}
	if asJSON {
		if s.Observed == nil {
			stdout.Write(r.JSON())
			return 0
		}
		b, err := json.MarshalIndent(simObservedJSON{Result: r, Observed: observedJSON(s, ds)}, "", "  ")
		if err != nil {
			return fail(stderr, "sim", err)
		}
		stdout.Write(append(b, '\n'))
		return 0
	}
	text := r.Text(s)
	if s.Observed != nil {
		text += scenario.ObservedText(s, ds)
	}
	io.WriteString(stdout, termText(text))
	return 0
}

// incidentTable lists the incident presets, one a line: name, title and citations.
func incidentTable() string {
	reg := scenario.Registry()
	width := 0
	for _, inc := range reg {
		width = max(width, len(inc.Name))
	}
	var b strings.Builder
	for _, inc := range reg {
		fmt.Fprintf(&b, "  %-*s  %s (%s)\n", width, inc.Name, inc.Title.En, scenario.CiteText(inc.Cites))
	}
	return b.String()
}

func loadScenario(file, preset string) (scenario.Scenario, error) {
	if preset != "" {
		s, ok := scenario.Presets()[preset]
		if !ok {
			return scenario.Scenario{}, fmt.Errorf("--preset %q: want one of %s", preset, strings.Join(scenario.PresetNames(), ", "))
		}
		return s, nil
	}
	data, err := readLimited(file, scenario.MaxBytes, "a scenario file")
	if err != nil {
		return scenario.Scenario{}, err
	}
	s, err := scenario.Parse(data)
	if err != nil {
		return scenario.Scenario{}, fmt.Errorf("%s: %w", file, err)
	}
	return s, nil
}

// sortSteps orders steps by time, keeping the given order for equal times.
func sortSteps(steps []scenario.Step) {
	for i := 1; i < len(steps); i++ {
		for j := i; j > 0 && steps[j].At < steps[j-1].At; j-- {
			steps[j], steps[j-1] = steps[j-1], steps[j]
		}
	}
}

// atList collects repeated --at flags.
type atList []string

func (a *atList) String() string     { return strings.Join(*a, " ") }
func (a *atList) Set(v string) error { *a = append(*a, v); return nil }

func commandTable() string {
	var b strings.Builder
	for _, name := range scenario.CommandNames() {
		fmt.Fprintf(&b, "  %s\n", scenario.ExampleAt(name))
	}
	return b.String()
}

// simObservedJSON is sim --json's output for a scenario with a logged history: the run, then
// what the logs were and every window in which they and the simulation name different owners.
type simObservedJSON struct {
	*scenario.Result
	Observed simObserved `json:"observed"`
}

type simObserved struct {
	Source string `json:"source,omitempty"`
	Zone   string `json:"zone,omitempty"`
	Start  string `json:"start,omitempty"` // the wall-clock moment that is t=0
	// Disagreements are the windows (virtual ms) in which the logged owners of some queues
	// differ from the simulated ones; empty when the two agree all along.
	Disagreements []scenario.Disagreement `json:"disagreements"`
}

func observedJSON(s scenario.Scenario, ds []scenario.Disagreement) simObserved {
	o := simObserved{Source: s.Observed.Source, Zone: s.Observed.Zone, Start: s.Observed.Start, Disagreements: []scenario.Disagreement{}}
	for _, d := range ds {
		if d.Logged == nil {
			d.Logged = []string{}
		}
		if d.Simulated == nil {
			d.Simulated = []string{}
		}
		o.Disagreements = append(o.Disagreements, d)
	}
	return o
}
