package main

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
)

// scenarioFlags are the flags sim and compare share: a cluster built from flags, or a scenario
// file (FILE or --scenario) or preset, with --seed, --until and --at steps on top.
type scenarioFlags struct {
	f            scenario.Flags
	ids, preset  string
	file         string
	strategyFile string
	at           atList
	virtualNodes int
	until        scenario.Duration
	latencyMax   tierList
	notAvailable tierList
}

// tierList is a comma-separated list of latency tiers in milliseconds.
type tierList struct {
	v   []int64
	set bool
}

func (l *tierList) String() string {
	parts := make([]string, len(l.v))
	for i, x := range l.v {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, ",")
}

func (l *tierList) Set(s string) error {
	l.v, l.set = []int64{}, true
	if strings.TrimSpace(s) == "" {
		return nil // an empty table, as the client allows
	}
	for i, item := range strings.Split(s, ",") {
		if i >= cluster.MaxTiers {
			return fmt.Errorf("more than %d entries", cluster.MaxTiers)
		}
		n, err := strconv.ParseInt(strings.TrimSpace(item), 10, 64)
		if err != nil {
			return fmt.Errorf("entry %d, %q, is not a whole number of milliseconds (write them 50,100,550)", i+1, item)
		}
		l.v = append(l.v, n)
	}
	return nil
}

// shapeFlags build a cluster from flags; they cannot change a scenario file or preset.
var shapeFlags = []string{"brokers", "queues", "consumers", "consumer-ids", "producers", "rate", "producer-client", "producer-threads", "producer-mode",
	"latency-max", "not-available-duration", "strategy", "strategy-file", "virtual-nodes", "model", "latency-fault", "fault-table"}

// register defines the flags on fs; the help texts of the three flags whose meaning a
// subcommand narrows are its own.
func (sf *scenarioFlags) register(fs *flag.FlagSet, strategyHelp, virtualNodesHelp, faultTableHelp string) {
	f := &sf.f
	fs.IntVar(&f.Brokers, "brokers", scenario.DefaultBrokers, "number of brokers, named broker-a, broker-b, …")
	fs.IntVar(&f.QueuesPerBroker, "queues", scenario.DefaultQueuesPerBroker, "queues of the topic on each broker")
	fs.IntVar(&f.Consumers, "consumers", scenario.DefaultConsumers, "number of consumers, named c1…cN")
	fs.StringVar(&sf.ids, "consumer-ids", "", "client ids instead of c1…cN, comma-separated, each optionally with the SDK it runs (e.g. 10.0.0.1@4012,10.0.0.2@4013:go; clients java, java-4.9, go-2.1.2)")
	fs.IntVar(&f.Producers, "producers", scenario.DefaultProducers, "number of producers")
	fs.IntVar(&f.Rate, "rate", scenario.DefaultRate, "messages per second of each producer")
	fs.StringVar(&f.ProducerClient, "producer-client", "java", "the SDK the producers run: java, java-4.9 or go-2.1.2 (go); it decides their queue selection, retries and latency fault tolerance")
	fs.IntVar(&f.ProducerThreads, "producer-threads", 0, "threads calling the synchronous send in each producer, 1…256 (default: one per 125 msg/s of --rate)")
	fs.StringVar(&f.ProducerMode, "producer-mode", "sync", "how the producers send: sync (each thread blocks for its send) or async (a callback, nothing blocks)")
	fs.Var(&sf.latencyMax, "latency-max", "the producers' own latencyMax tiers in ms, comma-separated, e.g. 50,100,550,1800,3000,5000,15000 (setLatencyMax)")
	fs.Var(&sf.notAvailable, "not-available-duration", "the producers' own notAvailableDuration tiers in ms, e.g. 0,0,2000,5000,6000,10000,30000 (setNotAvailableDuration)")
	fs.StringVar(&f.Strategy, "strategy", "AVG", strategyHelp+": "+strings.Join(allocate.Names(), ", "))
	fs.StringVar(&sf.strategyFile, "strategy-file", "", "a strategy written in Starlark instead of --strategy: a file that defines allocate(group, current, queues, consumers)")
	fs.IntVar(&sf.virtualNodes, "virtual-nodes", allocate.DefaultVirtualNodeCnt, virtualNodesHelp)
	fs.StringVar(&f.MessageModel, "model", "CLUSTERING", "message model: CLUSTERING or BROADCASTING")
	fs.BoolVar(&f.LatencyFault, "latency-fault", false, "turn the producers' latency fault tolerance on (sendLatencyFaultEnable)")
	fs.StringVar(&f.FaultTable, "fault-table", "current", faultTableHelp)
	fs.Int64Var(&f.Seed, "seed", 1, "the run's seed; every random stream derives from it")
	fs.Var(&sf.until, "until", "how long to run, e.g. 90s, 5m, 1h (default 5m)")
	fs.Var(&sf.at, "at", "an action at a time, TIME:TYPE[:ARG…], e.g. 60s:killConsumer:c1 (repeatable)")
	fs.StringVar(&sf.preset, "preset", "", "start from a preset: "+strings.Join(scenario.PresetNames(), ", "))
	fs.StringVar(&sf.file, "scenario", "", "a scenario file (same as giving FILE)")
}

// setFlags names the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	return set
}

// scenario builds the scenario the parsed flags describe; errors name the flag at fault.
func (sf *scenarioFlags) scenario(fs *flag.FlagSet) (scenario.Scenario, error) {
	set := setFlags(fs)
	file := sf.file
	switch {
	case fs.NArg() > 1:
		return scenario.Scenario{}, fmt.Errorf("one scenario file at most; got %s", strings.Join(fs.Args(), " "))
	case fs.NArg() == 1 && file != "":
		return scenario.Scenario{}, errors.New("give the scenario file either as FILE or with --scenario, not both")
	case fs.NArg() == 1:
		file = fs.Arg(0)
	}
	if file != "" && sf.preset != "" {
		return scenario.Scenario{}, errors.New("--preset and a scenario file cannot be combined")
	}
	if file == "" && sf.preset == "" {
		f := sf.f
		if sf.ids != "" {
			ids, err := splitList(sf.ids)
			if err != nil {
				return scenario.Scenario{}, fmt.Errorf("--consumer-ids: %w", err)
			}
			f.ConsumerIDs = ids
		}
		if set["strategy-file"] {
			if set["strategy"] {
				return scenario.Scenario{}, errors.New("--strategy and --strategy-file name the strategy twice; give one")
			}
			name, err := loadStrategyFile(sf.strategyFile)
			if err != nil {
				return scenario.Scenario{}, fmt.Errorf("--strategy-file: %w", err)
			}
			f.Strategy = name
		}
		if set["virtual-nodes"] {
			vn := sf.virtualNodes
			f.Params.VirtualNodeCnt = &vn
		}
		if sf.latencyMax.set {
			f.LatencyMax = sf.latencyMax.v
		}
		if sf.notAvailable.set {
			f.NotAvailableDuration = sf.notAvailable.v
		}
		f.Until, f.At = sf.until, sf.at
		return scenario.FromFlags(f)
	}
	for _, name := range shapeFlags {
		if set[name] {
			return scenario.Scenario{}, fmt.Errorf("--%s shapes a flag-built cluster; it cannot change a scenario file or preset (edit the file instead)", name)
		}
	}
	s, err := loadScenario(file, sf.preset)
	if err != nil {
		return scenario.Scenario{}, err
	}
	if set["seed"] {
		s.Seed = sf.f.Seed
	}
	if set["until"] {
		s.Until = sf.until
	}
	for _, a := range sf.at {
		st, err := scenario.ParseAt(a)
		if err != nil {
			return scenario.Scenario{}, err
		}
		s.Timeline = append(s.Timeline, st)
	}
	sortSteps(s.Timeline)
	if err := s.Validate(); err != nil {
		return scenario.Scenario{}, err
	}
	return s, nil
}
