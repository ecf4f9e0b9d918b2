package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/scenario"
)

const compareUsage = `Usage:
  lbscope compare --variants A,B[,C,D] [--by strategy|faultTable|latencyFault|client] [scenario flags]
  lbscope compare --variants A,B [flags] FILE.json
  lbscope compare --variants A,B --preset small|default|large [flags]

Runs the same scenario — cluster, seed and timeline — once per variant, each variant
changing only the initial configuration, and prints what each one cost side by side:
queues moved by each action, the spread of queues per consumer, duplicates and lost
messages, time to converge, idle consumers, and with fault-table variants the producers'
send failures, isolations and each broker's share of the sends, and with consume-mode
variants the messages consumed, left to consume and revived. Lower is better on every
line but the isolations, shares and messages consumed; the best value of a line is marked
with *.

Variants (2 to 4, comma-separated), by what --by names (default strategy):
  strategy       a strategy name: ` + "%s" + `
                 CONSISTENT_HASH/20 gives its virtual nodes per consumer;
                 file:FILE a strategy written in Starlark (see allocate --strategy-file)
  faultTable     current or legacy-4x (the latency tier table, spec §2.3)
  latencyFault   on or off (sendLatencyFaultEnable)
  client         the client profile every consumer runs: java, java-4.9 or go-2.1.2
                 (go for short); the scenario's consumers and those its timeline adds
  consumeMode    PULL or POP: the brokers' message request mode of every group, every
                 member letting the brokers allocate (clientRebalance false, spec §8.1)

Examples:
  lbscope compare --variants AVG,CONSISTENT_HASH --at 60s:killConsumer:c1
  lbscope compare --variants AVG,AVG_BY_CIRCLE,CONSISTENT_HASH/5,CONSISTENT_HASH/100 --at 60s:addConsumer:c5
  lbscope compare --by faultTable --variants current,legacy-4x --latency-fault --at 30s:slowBroker:broker-a:2000
  lbscope compare --by latencyFault --variants off,on --at 30s:slowBroker:broker-a:600 --until 2m
  lbscope compare --variants AVG,CONSISTENT_HASH --preset large --at 2m:killConsumer:c7 --json
  lbscope compare --variants AVG,CONSISTENT_HASH testdata/scenarios/partition.json
  lbscope compare --by client --variants java,go-2.1.2,java-4.9 --strategy CONSISTENT_HASH --at 60s:killConsumer:c1
  lbscope compare --by consumeMode --variants PULL,POP --brokers 1 --queues 3 --consumers 4

The scenario flags are sim's (lbscope sim --help); with a scenario file or preset, --seed
and --until replace its values and --at steps are added to its timeline.

Flags:
`

func runCompare(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	var (
		sf       scenarioFlags
		asJSON   bool
		list, by string
		maxWork  workFlag
	)
	fs.StringVar(&list, "variants", "", "the variants, comma-separated, e.g. AVG,CONSISTENT_HASH (2 to 4)")
	fs.StringVar(&by, "by", "strategy", "what the variants change: strategy, faultTable, latencyFault, client or consumeMode")
	sf.register(fs, "allocation strategy of fault-table variants", "CONSISTENT_HASH: virtual nodes per consumer (with --strategy)",
		"latency tier table of strategy variants: current or legacy-4x")
	fs.BoolVar(&asJSON, "json", false, "print the comparison as JSON")
	registerWork(fs, &maxWork)
	usage := fmt.Sprintf(compareUsage, strings.Join(allocate.Names(), ", "))
	if done, status := parseFlags(fs, usage, args, stdout, stderr); done {
		return status
	}
	if list == "" {
		return fail(stderr, "compare", errors.New("--variants: missing; e.g. --variants AVG,CONSISTENT_HASH"))
	}
	if by == "strategy" {
		var err error
		if list, err = variantFiles(list); err != nil {
			return fail(stderr, "compare", err)
		}
	}
	variants, err := scenario.ParseVariants(list, by)
	if err != nil {
		return fail(stderr, "compare", err)
	}
	// The flag the variants vary would be overridden: say so rather than ignore it.
	set := setFlags(fs)
	varied := map[string][]string{"strategy": {"strategy", "virtual-nodes"}, "faultTable": {"fault-table"}, "latencyFault": {"latency-fault"}}
	for _, name := range varied[by] {
		if set[name] {
			return fail(stderr, "compare", fmt.Errorf("--%s: the variants set it (--by %s); leave it out", name, by))
		}
	}
	s, err := sf.scenario(fs)
	if err != nil {
		return fail(stderr, "compare", err)
	}

	w := scenario.CompareWork(s, variants)
	if err := checkWork(w, len(variants), int64(maxWork)); err != nil {
		return fail(stderr, "compare", err)
	}
	p := newProgress(stderr, "compare", w, len(variants))
	c, err := scenario.CompareProgress(s, variants, p.at)
	p.done()
	if err != nil {
		return fail(stderr, "compare", err)
	}
	if asJSON {
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return fail(stderr, "compare", err)
		}
		stdout.Write(append(b, '\n'))
		return 0
	}
	io.WriteString(stdout, termText(compareText(s, c)))
	return 0
}

// metricNames are the cost table's lines as the command line prints them.
var metricNames = map[string]string{
	"movedTotal":     "queues moved, total",
	"movedMean":      "queues moved per action",
	"spreadEnd":      "spread at the end (max−min)",
	"spreadWorst":    "worst spread once settled",
	"duplicates":     "duplicates",
	"lost":           "lost",
	"convergeMeanMs": "converge, mean",
	"convergeMaxMs":  "converge, max",
	"unsettled":      "actions never settled",
	"idleEnd":        "idle consumers at the end",
	"retried":        "messages sent back (retried)",
	"deadLettered":   "messages dead-lettered",
	"filtered":       "messages filtered by tags",
	"consumed":       "messages consumed",
	"backlog":        "messages left to consume at the end",
	"revived":        "messages revived (POP)",
	"sendFailures":   "send failures",
	"isolations":     "isolations",
	"sendShare":      "share of sends",
}

func compareText(s scenario.Scenario, c *scenario.Comparison) string {
	var b strings.Builder
	queues := scenario.QueueCount(s.Config)
	fmt.Fprintf(&b, "compare · seed %d · %s on %s · %s · %s · until %s\n",
		c.Seed, plural(queues, "queue"), plural(len(s.Brokers), "broker"), plural(len(s.Consumers), "consumer"), plural(c.Actions, "action"), scenario.Clock(c.Until))
	if c.Title != "" {
		fmt.Fprintf(&b, "%s\n", c.Title)
	}
	if len(c.Rows) > 0 && c.Rows[0].Variant.Client != "" {
		b.WriteString("each column runs every consumer under its client, in place of the scenario's own\n")
	}
	if len(c.Rows) > 0 && c.Rows[0].Variant.ConsumeMode != "" {
		b.WriteString("each column lets the brokers allocate for every member (clientRebalance false) and serves the group's topics in its mode: PULL exclusive queues, POP messages from shared queues\n")
	}
	b.WriteString("\n")

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	// Left-aligned names, right-aligned numbers: the name column is padded by hand.
	nameWidth := 0
	lines := make([]string, len(c.Table))
	for i, m := range c.Table {
		name := metricNames[m.Key]
		if m.Key == "sendShare" {
			name += " " + m.Broker
		}
		lines[i] = name
		nameWidth = max(nameWidth, len([]rune(name)))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", nameWidth-len([]rune(s))) }
	fmt.Fprintf(tw, "%s\t", pad("COST"))
	for _, r := range c.Rows {
		fmt.Fprintf(tw, "%s \t", r.Label) // the space stands above the numbers' marks
	}
	fmt.Fprintln(tw)
	for i, m := range c.Table {
		fmt.Fprintf(tw, "%s\t", pad(lines[i]))
		for j, v := range m.Values {
			mark := " "
			for _, k := range m.Best {
				if k == j {
					mark = "*"
				}
			}
			text := formatMetric(m.Key, v)
			if slices.Contains(m.Absent, j) {
				text = "–"
			}
			fmt.Fprintf(tw, "%s%s\t", text, mark)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	if len(c.Rows) > 0 && len(c.Rows[0].Moved) > 0 {
		b.WriteString("\nqueues moved by each action\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
		width := 0
		what := make([]string, len(c.Rows[0].Moved))
		for i, m := range c.Rows[0].Moved {
			what[i] = strings.TrimSpace(scenario.Clock(m.T) + " " + m.Type + " " + m.Target)
			width = max(width, len(what[i]))
		}
		for i := range c.Rows[0].Moved {
			fmt.Fprintf(tw, "%-*s\t", width, what[i])
			for _, r := range c.Rows {
				fmt.Fprintf(tw, "%d \t", r.Moved[i].Queues)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "\nnote: %s", n.Text)
	}
	if len(c.Notes) > 0 {
		b.WriteString("\n")
	}
	b.WriteString("\n* best of the line (lower is better; isolations, shares of sends and messages consumed have no better)\n")
	// Right-aligned cells leave padding at the ends of lines.
	out := strings.Split(b.String(), "\n")
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(out, "\n")
}

func formatMetric(key string, v float64) string {
	switch key {
	case "movedMean":
		return strconv.FormatFloat(v, 'f', 1, 64)
	case "convergeMeanMs", "convergeMaxMs":
		if v >= 10000 {
			return strconv.FormatFloat(v/1000, 'f', 1, 64) + " s"
		}
		return strconv.FormatFloat(v, 'f', 0, 64) + " ms"
	case "sendShare":
		return strconv.FormatFloat(v*100, 'f', 1, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
