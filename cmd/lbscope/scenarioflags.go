package main

import (
	"errors"
	"flag"
	"fmt"
	"reflect"
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
	selectorFile string
	at           atList
	virtualNodes int
	until        scenario.Duration
}

// tierList is a comma-separated list of latency tiers in milliseconds, set into v: nil until
// the flag is given, an empty table for "".
type tierList struct{ v *[]int64 }

func (l tierList) String() string {
	if l.v == nil {
		return ""
	}
	parts := make([]string, len(*l.v))
	for i, x := range *l.v {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, ",")
}

func (l tierList) Set(s string) error {
	*l.v = []int64{}
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
		*l.v = append(*l.v, n)
	}
	return nil
}

// ownShapeFlags are the flags that build a cluster from flags besides the field table's.
var ownShapeFlags = []string{"consumer-ids", "strategy-file", "virtual-nodes"}

// shapeFlags build a cluster from flags; they cannot change a scenario file or preset: the
// field table's flags but --seed, which a file's run takes too, and ownShapeFlags.
func shapeFlags() []string {
	var out []string
	for _, f := range cluster.Fields() {
		if f.Flag != "" && f.Flag != "seed" {
			out = append(out, f.Flag)
		}
	}
	return append(out, ownShapeFlags...)
}

// register defines the flags on fs: each field of scenario.Flags tagged with a flag from its
// entry of the field table (help, default), the rest here. The help texts of the three flags
// whose meaning a subcommand narrows are its own.
func (sf *scenarioFlags) register(fs *flag.FlagSet, strategyHelp, virtualNodesHelp, faultTableHelp string) {
	own := map[string]string{"strategy": strategyHelp + ": " + strings.Join(allocate.Names(), ", "), "fault-table": faultTableHelp}
	v := reflect.ValueOf(&sf.f).Elem()
	for i := range v.NumField() {
		name := v.Type().Field(i).Tag.Get("flag")
		if name == "" {
			continue
		}
		spec, ok := cluster.FieldByFlag(name)
		if !ok {
			panic("scenario.Flags: flag " + name + " has no entry in the field table")
		}
		help, def := spec.Doc, spec.FlagDefaultText()
		if h, ok := own[name]; ok {
			help = h
		}
		switch p := v.Field(i).Addr().Interface().(type) {
		case *int:
			n, _ := strconv.Atoi(def)
			fs.IntVar(p, name, n, help)
		case *int64:
			n, _ := strconv.ParseInt(def, 10, 64)
			fs.Int64Var(p, name, n, help)
		case *string:
			fs.StringVar(p, name, def, help)
		case *bool:
			fs.BoolVar(p, name, def == "true", help)
		case *[]int64:
			fs.Var(tierList{p}, name, help)
		default:
			panic("scenario.Flags: flag " + name + " of an unknown type")
		}
	}
	fs.StringVar(&sf.ids, "consumer-ids", "", "client ids instead of c1…cN, comma-separated, each optionally with the SDK it runs (e.g. 10.0.0.1@4012,10.0.0.2@4013:go; clients java, java-4.9, go-2.1.2)")
	fs.StringVar(&sf.strategyFile, "strategy-file", "", "a strategy written in Starlark instead of --strategy: a file that defines allocate(group, current, queues, consumers)")
	fs.StringVar(&sf.selectorFile, "selector-file", "", "a MessageQueueSelector written in Starlark for every producer that sends with keys, in place of SelectMessageQueueByHash: a file that defines select(queues, message, arg)")
	fs.IntVar(&sf.virtualNodes, "virtual-nodes", allocate.DefaultVirtualNodeCnt, virtualNodesHelp)
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
		f.Until, f.At = sf.until, sf.at
		s, err := scenario.FromFlags(f)
		if err != nil {
			return s, err
		}
		return sf.withSelector(s, set)
	}
	for _, name := range shapeFlags() {
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
	return sf.withSelector(s, set)
}

// withSelector gives every producer of s that sends with keys the selector of --selector-file
// (the file's select; a file may define allocate too, which --strategy-file uses), checked
// under the file's own name first so that its errors name it.
func (sf *scenarioFlags) withSelector(s scenario.Scenario, set map[string]bool) (scenario.Scenario, error) {
	if !set["selector-file"] {
		return s, nil
	}
	c, err := loadSelectorFile(sf.selectorFile)
	if err != nil {
		return scenario.Scenario{}, fmt.Errorf("--selector-file: %w", err)
	}
	n := 0
	for i := range s.Config.Producers {
		if s.Config.Producers[i].Keys != nil {
			s.Config.Producers[i].Selector = &c
			n++
		}
	}
	if n == 0 {
		return scenario.Scenario{}, errors.New("--selector-file: no producer sends with keys, so no send calls a selector; give a scenario whose producers have keys (producers[].keys, e.g. testdata/scenarios/hot-key.json)")
	}
	if err := s.Validate(); err != nil {
		return scenario.Scenario{}, err
	}
	return s, nil
}
