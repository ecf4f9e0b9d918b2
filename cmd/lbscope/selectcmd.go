package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/jrand"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/selector"
	"github.com/lbscope/lbscope/wasm/script"
)

const selectUsage = `Usage:
  lbscope select --selector-file FILE [--queues BROKER:COUNT,...] [--keys N] [--hot-share P] [flags]

Shows where a producer's keyed messages go under a MessageQueueSelector written in Starlark
(the file defines select(queues, message, arg) and returns one of queues) beside the
client's SelectMessageQueueByHash: messages per queue of the publish list, and where the hot
key (key 0, which --hot-share percent of the messages carry) goes. The keys are drawn as a
scenario's producers[].keys draws them; each select call sees message.key, message.tags and
message.seq (the producer's count of keyed sends before it), and the key as arg (spec §2.11).
A select that fails is counted, and its message shown with its file and line, as the
producer's send would fail. To run the selector in a whole cluster, give it to
lbscope sim --selector-file FILE with a scenario whose producers send with keys.

Examples:
  lbscope select --selector-file assets/strategies/composite.star --queues broker-a:4,broker-b:4 --keys 1000 --hot-share 50
  lbscope sim testdata/scenarios/hot-key.json --selector-file assets/strategies/composite.star

Flags:
`

func runSelect(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("select", flag.ContinueOnError)
	var (
		file, queues, prefix, tags, topic string
		keys, hot, messages               int
		seed                              int64
		asJSON                            bool
	)
	fs.StringVar(&file, "selector-file", "", "the selector, in Starlark: a file that defines select(queues, message, arg)")
	fs.StringVar(&queues, "queues", "broker-a:4,broker-b:4", "the publish list: brokers and their write queue counts")
	fs.StringVar(&topic, "topic", "TopicTest", "topic of the queues")
	fs.IntVar(&keys, "keys", 1000, fmt.Sprintf("distinct keys, 1…%d", cluster.MaxKeys))
	fs.IntVar(&hot, "hot-share", 0, "percent of the messages that carry key 0, 0…100")
	fs.StringVar(&prefix, "prefix", "key-", "the keys' prefix")
	fs.StringVar(&tags, "tags", "", "the tag every message carries (message.tags)")
	fs.IntVar(&messages, "messages", 10000, fmt.Sprintf("messages to place, 1…%d", selector.MaxSpreadMessages))
	fs.Int64Var(&seed, "seed", 1, "seed of the key draws")
	fs.BoolVar(&asJSON, "json", false, "print JSON for machines")
	if done, status := parseFlags(fs, selectUsage, args, stdout, stderr); done {
		return status
	}
	switch {
	case fs.NArg() > 0:
		return fail(stderr, "select", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	case file == "":
		return fail(stderr, "select", errors.New("--selector-file is required: a Starlark file that defines select(queues, message, arg)"))
	case keys < 1 || keys > cluster.MaxKeys:
		return fail(stderr, "select", fmt.Errorf("--keys %d: want 1…%d", keys, cluster.MaxKeys))
	case hot < 0 || hot > 100:
		return fail(stderr, "select", fmt.Errorf("--hot-share %d: want 0…100", hot))
	case messages < 1 || messages > selector.MaxSpreadMessages:
		return fail(stderr, "select", fmt.Errorf("--messages %d: want 1…%d", messages, selector.MaxSpreadMessages))
	case len(prefix) > cluster.MaxNameLen:
		return fail(stderr, "select", fmt.Errorf("--prefix: %d bytes; the limit is %d", len(prefix), cluster.MaxNameLen))
	}
	mqs, err := route.ParseQueueCounts(topic, queues)
	if err != nil {
		return fail(stderr, "select", fmt.Errorf("--queues: %w", err))
	}
	c, err := loadSelectorFile(file)
	if err != nil {
		return fail(stderr, "select", fmt.Errorf("--selector-file: %w", err))
	}
	s, err := script.CompileSelector(c.Name, file, []byte(c.Source), c.StepBudget())
	if err != nil {
		return fail(stderr, "select", fmt.Errorf("--selector-file: %w", err))
	}
	sp := selector.SpreadOf(s, mqs, selector.KeyMix{Count: keys, HotShare: hot, Prefix: prefix, Tags: tags}, messages, jrand.New(seed))
	if asJSON {
		b, _ := json.MarshalIndent(struct {
			Selector string `json:"selector"`
			selector.Spread
		}{c.Name, sp}, "", "  ")
		stdout.Write(append(b, '\n'))
		return 0
	}
	io.WriteString(stdout, termText(spreadText(c.Name, sp, hot)))
	return 0
}

// spreadText is a Spread as a table: messages per queue under the hash and the selector,
// the hot key's beside them, and the hottest queue of each.
func spreadText(name string, sp selector.Spread, hot int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d messages over %d queues; %s carries %d%% of them\n\n", sp.Messages, len(sp.Queues), sp.HotKey, hot)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "queue\tHASH\t%s\t%s by HASH\t%s by %s\n", name, sp.HotKey, sp.HotKey, name)
	for i, q := range sp.Queues {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", q, sp.Hash[i], sp.Custom[i], sp.HotHash[i], sp.HotCust[i])
	}
	tw.Flush()
	b.WriteString("\n")
	for _, row := range []struct {
		who    string
		counts []int64
	}{{"HASH", sp.Hash}, {name, sp.Custom}} {
		i := hottest(row.counts)
		if i < 0 {
			continue
		}
		fmt.Fprintf(&b, "hottest queue under %s: %s, %d messages (%d%%)\n", row.who, sp.Queues[i], row.counts[i], row.counts[i]*100/max(sp.Messages, 1))
	}
	if sp.Failed > 0 {
		fmt.Fprintf(&b, "%s failed %d send(s), as the producer's send fails when the selector throws: %s\n", name, sp.Failed, sp.Error)
	}
	return b.String()
}

// hottest is the index of the largest count (the first of equals), -1 for none.
func hottest(counts []int64) int {
	best := -1
	for i, n := range counts {
		if best < 0 || n > counts[best] {
			best = i
		}
	}
	return best
}
