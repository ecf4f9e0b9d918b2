package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/conform"
	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/scenario"
)

const allocateUsage = `Usage:
  lbscope allocate --strategy NAME --queues BROKER:COUNT,... --consumers IDS|N [flags]
  lbscope allocate -            read one case (allocate.json schema) from stdin
  lbscope allocate --client go -   the same under rocketmq-client-go (allocate-go.json schema)

Shows which queues every consumer of a group pulls. Like RebalanceImpl, it sorts the
queues (MessageQueue order) and the client ids (Java String order) before calling the
strategy, unless --no-sort asks for a raw strategy call on the input as written.

Strategies: AVG, AVG_BY_CIRCLE, CONSISTENT_HASH, CONFIG, MACHINE_ROOM, MACHINE_ROOM_NEARBY,
or one of your own in Starlark with --strategy-file FILE (the file defines
allocate(group, current, queues, consumers) and returns the queues current pulls; an error
in it shows in the consumer's row, as the client logs what allocate throws).

Examples:
  lbscope allocate --strategy AVG --queues broker-a:4,broker-b:4 --consumers 3
  lbscope allocate --strategy CONSISTENT_HASH --virtual-nodes 10 --queues broker-a:8 \
      --consumers 10.0.0.1@4012,10.0.0.2@4013,10.0.0.3@4011
  lbscope allocate --strategy MACHINE_ROOM --idcs hz --queues hz@broker-a:4,sh@broker-b:4 --consumers 2
  lbscope allocate --strategy MACHINE_ROOM_NEARBY --inner AVG \
      --queues hz-broker-a:4,sh-broker-b:4 --consumers hz-10.0.0.1@1,sh-10.0.1.1@1,hz-10.0.0.2@1
  lbscope allocate --strategy CONFIG --config broker-a:0,broker-b:1 --queues broker-a:2,broker-b:2 --consumers 2
  lbscope allocate --strategy-file testdata/strategies/avg_port.star --queues broker-a:4,broker-b:4 --consumers 3
  echo '{"strategy":"AVG","params":{},"consumerGroup":"cg","currentCID":"c1",
         "cidAll":["c1","c2"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}' | lbscope allocate -

Mixed groups: a consumer written ID:CLIENT runs that client profile — java (the current
Java client, the default), java-4.9, or go-2.1.2 (also "go") — and --client sets the profile
of consumers without one. Each consumer then sorts the queues and ids and runs the strategy
under its own client's rules (Go sorts by UTF-8 bytes, hashes its ring with CRC32, returns
nil or panics where Java throws), and the group view shows every consumer's own result with
the queues pulled twice and the queues nobody pulls:
  lbscope allocate --strategy CONSISTENT_HASH --queues broker-a:4,broker-b:4 \
      --consumers 10.0.0.1@4012:go,10.0.0.2@4013:java,10.0.0.3@4011:java
An id whose text after its last ':' looks like a name needs an explicit client to keep that
text (a@svc:blue:java is the id a@svc:blue); other colons (fe80::1@4012) stay in the id.

A count N for --consumers names them c1…cN. MACHINE_ROOM reads rooms from broker names
"room@broker"; MACHINE_ROOM_NEARBY takes a broker's and a client's room as the text before
the first '-' (hz-broker-a is in hz, hz-10.0.0.1@1 too).

Flags:
`

type allocateFlags struct {
	strategy, topic, queues, consumers, group string
	strategyFile                              string
	virtualNodes                              int
	idcs, inner, config                       string
	noSort, asJSON                            bool
	client                                    string
}

func runAllocate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("allocate", flag.ContinueOnError)
	var f allocateFlags
	fs.StringVar(&f.strategy, "strategy", "AVG", "allocation strategy (AVG, AVG_BY_CIRCLE, CONSISTENT_HASH, CONFIG, MACHINE_ROOM, MACHINE_ROOM_NEARBY)")
	fs.StringVar(&f.strategyFile, "strategy-file", "", "a strategy written in Starlark: a file that defines allocate(group, current, queues, consumers)")
	fs.StringVar(&f.topic, "topic", "TopicTest", "topic of the queues")
	fs.StringVar(&f.queues, "queues", "", "brokers and their queue counts, e.g. broker-a:8,broker-b:4")
	fs.StringVar(&f.consumers, "consumers", "", "client ids, comma-separated (e.g. 10.0.0.1@4012,10.0.0.2@4013), or a count N for c1…cN")
	fs.StringVar(&f.group, "group", "GroupTest", "consumer group name (no strategy depends on it)")
	fs.IntVar(&f.virtualNodes, "virtual-nodes", allocate.DefaultVirtualNodeCnt, "CONSISTENT_HASH (and NEARBY's CONSISTENT_HASH inner): virtual nodes per consumer")
	fs.StringVar(&f.idcs, "idcs", "", "MACHINE_ROOM: the consumer machine rooms, comma-separated (unset = Java null)")
	fs.StringVar(&f.inner, "inner", "AVG", "MACHINE_ROOM_NEARBY: strategy inside a room (AVG, AVG_BY_CIRCLE, CONSISTENT_HASH)")
	fs.StringVar(&f.config, "config", "", "CONFIG: the configured queues, e.g. broker-a:0,broker-b:3 (unset = Java null)")
	fs.BoolVar(&f.noSort, "no-sort", false, "call the strategy on the input as written (strategies do not sort; RebalanceImpl does)")
	fs.BoolVar(&f.asJSON, "json", false, "print JSON for machines")
	fs.StringVar(&f.client, "client", "java", "client profile of consumers without an :CLIENT suffix (java, java-4.9, go-2.1.2 or go)")
	if done, status := parseFlags(fs, allocateUsage, args, stdout, stderr); done {
		return status
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })

	if fs.NArg() == 1 && fs.Arg(0) == "-" {
		p, err := profile.Lookup(f.client)
		if err != nil {
			return fail(stderr, "allocate", fmt.Errorf("--client: %w", err))
		}
		return allocateStdin(stdin, stdout, stderr, p)
	}
	if fs.NArg() > 0 {
		return fail(stderr, "allocate", fmt.Errorf("unexpected argument %q (use - to read a case from stdin)", fs.Arg(0)))
	}
	if f.queues == "" {
		return fail(stderr, "allocate", errors.New("--queues is required, e.g. --queues broker-a:4,broker-b:4"))
	}
	if f.consumers == "" {
		return fail(stderr, "allocate", errors.New("--consumers is required: client ids (c1,c2) or a count (3)"))
	}
	mqAll, err := route.ParseQueueCounts(f.topic, f.queues)
	if err != nil {
		return fail(stderr, "allocate", fmt.Errorf("--queues: %w", err))
	}
	cidAll, err := parseConsumers(f.consumers)
	if err != nil {
		return fail(stderr, "allocate", fmt.Errorf("--consumers: %w", err))
	}
	if _, err := profile.Lookup(f.client); err != nil {
		return fail(stderr, "allocate", fmt.Errorf("--client: %w", err))
	}
	members, mixed, err := splitProfiles(cidAll, f.client)
	if err != nil {
		return fail(stderr, "allocate", fmt.Errorf("--consumers: %w", err))
	}
	mixed = mixed || set["client"]
	if set["strategy-file"] {
		if set["strategy"] {
			return fail(stderr, "allocate", errors.New("--strategy and --strategy-file name the strategy twice; give one"))
		}
		if f.strategy, err = loadStrategyFile(f.strategyFile); err != nil {
			return fail(stderr, "allocate", fmt.Errorf("--strategy-file: %w", err))
		}
	}
	p := allocate.Params{Inner: f.inner}
	if set["virtual-nodes"] {
		if f.virtualNodes < 0 || f.virtualNodes > allocate.MaxVirtualNodeCnt {
			return fail(stderr, "allocate", fmt.Errorf("--virtual-nodes %d: want 0…%d", f.virtualNodes, allocate.MaxVirtualNodeCnt))
		}
		p.VirtualNodeCnt, p.InnerVirtualNodeCnt = &f.virtualNodes, &f.virtualNodes
	}
	if set["idcs"] {
		if p.ConsumerIDCs, err = splitList(f.idcs); err != nil {
			return fail(stderr, "allocate", fmt.Errorf("--idcs: %w", err))
		}
	}
	if set["config"] {
		if p.MessageQueueList, err = route.ParseQueueList(f.topic, f.config); err != nil {
			return fail(stderr, "allocate", fmt.Errorf("--config: %w", err))
		}
	}
	if mixed {
		v, err := profile.MixedGroup(f.strategy, p, f.group, mqAll, members, !f.noSort)
		if err != nil {
			return fail(stderr, "allocate", fmt.Errorf("--strategy: %w", err))
		}
		if f.asJSON {
			return printMixedJSON(stdout, f, v, mqAll)
		}
		printMixedTable(stdout, f, v, mqAll)
		return 0
	}
	s, err := allocate.New(f.strategy, p)
	if err != nil {
		return fail(stderr, "allocate", fmt.Errorf("--strategy: %w", err))
	}
	if !f.noSort {
		route.SortQueues(mqAll)
		route.SortClientIDs(cidAll)
	}
	v := allocate.Group(s, f.group, mqAll, cidAll)
	if f.asJSON {
		return printAllocateJSON(stdout, f, v, mqAll, cidAll)
	}
	printAllocateTable(stdout, f, v, mqAll, cidAll)
	return 0
}

// splitList splits a comma-separated list, trimming spaces around the items. An empty item
// (two commas in a row, a comma at either end) is an error rather than silently dropped.
func splitList(s string) ([]string, error) {
	out := []string{}
	if strings.TrimSpace(s) == "" {
		return out, nil
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return nil, fmt.Errorf("item %d of %q is empty (two commas in a row, or one at an end)", len(out)+1, s)
		}
		out = append(out, item)
	}
	return out, nil
}

// maxConsumers bounds a group typed on the command line, as scenario files are bounded.
const maxConsumers = scenario.MaxConsumers

func parseConsumers(s string) ([]string, error) {
	if t := strings.TrimSpace(s); t != "" && strings.Trim(t, "0123456789") == "" {
		n, err := strconv.Atoi(t)
		if err != nil || n < 1 || n > maxConsumers {
			return nil, fmt.Errorf("count %s: want 1…%d", t, maxConsumers)
		}
		ids := make([]string, n)
		for i := range ids {
			ids[i] = "c" + strconv.Itoa(i+1)
		}
		return ids, nil
	}
	ids, err := splitList(s)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, errors.New("no client id given")
	}
	if len(ids) > maxConsumers {
		return nil, fmt.Errorf("%d client ids; the limit is %d", len(ids), maxConsumers)
	}
	for _, id := range ids {
		if len(id) > 256 {
			return nil, fmt.Errorf("client id %.20q… is longer than 256 characters", id)
		}
	}
	return ids, nil
}

func printAllocateTable(w io.Writer, f allocateFlags, v allocate.View, mqAll []route.MessageQueue, cidAll []string) {
	brokers := map[string]bool{}
	for _, q := range mqAll {
		brokers[q.BrokerName] = true
	}
	fmt.Fprintf(w, "%s · topic %s · %s on %s · %s\n", v.Strategy, term(f.topic),
		plural(len(mqAll), "queue"), plural(len(brokers), "broker"), plural(len(cidAll), "consumer"))
	if f.noSort {
		fmt.Fprintln(w, "inputs used as written (--no-sort): a raw strategy call")
	} else {
		fmt.Fprintln(w, "inputs sorted as RebalanceImpl sorts them: queues by topic, broker, id; client ids in Java String order")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "CONSUMER\tQUEUES\tCOUNT")
	for _, a := range v.Assignments {
		switch {
		case a.Err != nil:
			fmt.Fprintf(tw, "%s\t%s\t-\n", term(a.ClientID), term(javaText(a.Err)))
		case a.Queues == nil:
			fmt.Fprintf(tw, "%s\t(null: nothing configured)\t0\n", term(a.ClientID))
		case len(a.Queues) == 0:
			fmt.Fprintf(tw, "%s\t(none)\t0\n", term(a.ClientID))
		default:
			fmt.Fprintf(tw, "%s\t%s\t%d\n", term(a.ClientID), term(route.Compact(a.Queues)), len(a.Queues))
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	idle := "none"
	if len(v.Idle) > 0 {
		idle = term(strings.Join(v.Idle, ", "))
	}
	fmt.Fprintf(w, "spread %d (max %d, min %d) · idle consumers: %s\n", v.Spread, v.Max, v.Min, idle)
	orphans, shared := v.Coverage(mqAll)
	if len(orphans) > 0 {
		fmt.Fprintf(w, "not pulled by anyone: %s\n", term(route.Compact(orphans)))
	}
	if len(shared) > 0 {
		fmt.Fprintf(w, "pulled by more than one consumer: %s\n", term(route.Compact(shared)))
	}
	if dups := duplicates(cidAll); len(dups) > 0 {
		fmt.Fprintf(w, "duplicate client ids: %s — each copy gets the same queues, and the share of the later copies is pulled by nobody\n", term(strings.Join(dups, ", ")))
	}
}

func duplicates(ids []string) []string {
	seen := map[string]int{}
	var out []string
	for _, id := range ids {
		seen[id]++
		if seen[id] == 2 {
			out = append(out, id)
		}
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func javaText(err error) string {
	var je *allocate.Error
	if errors.As(err, &je) {
		return je.Java()
	}
	return err.Error()
}

type jsonAssignment struct {
	ClientID string   `json:"clientId"`
	Queues   []string `json:"queues"`
	Count    int      `json:"count"`
	Error    string   `json:"error,omitempty"`
}

func printAllocateJSON(w io.Writer, f allocateFlags, v allocate.View, mqAll []route.MessageQueue, cidAll []string) int {
	orphans, shared := v.Coverage(mqAll)
	out := struct {
		Strategy  string           `json:"strategy"`
		Topic     string           `json:"topic"`
		Sorted    bool             `json:"sorted"`
		Queues    []string         `json:"queues"`
		ClientIDs []string         `json:"clientIds"`
		Consumers []jsonAssignment `json:"consumers"`
		Spread    int              `json:"spread"`
		Max       int              `json:"max"`
		Min       int              `json:"min"`
		Idle      []string         `json:"idle"`
		Orphans   []string         `json:"orphans"`
		Shared    []string         `json:"shared"`
	}{
		Strategy: v.Strategy, Topic: f.topic, Sorted: !f.noSort, Queues: shorts(mqAll), ClientIDs: cidAll,
		Spread: v.Spread, Max: v.Max, Min: v.Min, Idle: orEmpty(v.Idle), Orphans: shorts(orphans), Shared: shorts(shared),
	}
	for _, a := range v.Assignments {
		ja := jsonAssignment{ClientID: a.ClientID, Queues: shorts(a.Queues), Count: len(a.Queues)}
		if a.Err != nil {
			ja.Error = javaText(a.Err)
		}
		out.Consumers = append(out.Consumers, ja)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fail(w, "allocate", err)
	}
	return 0
}

func shorts(qs []route.MessageQueue) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = q.Short()
	}
	return out
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// maxStdinCase bounds what `allocate -` reads, so a runaway pipe cannot exhaust memory.
const maxStdinCase = 16 << 20

func allocateStdin(stdin io.Reader, stdout, stderr io.Writer, p *profile.Profile) int {
	data, err := readAllLimited(stdin, "stdin", maxStdinCase, "a case")
	if err != nil {
		return fail(stderr, "allocate", err)
	}
	c, err := decodeCase(data)
	if err != nil {
		return fail(stderr, "allocate", err)
	}
	if c.Strategy == "" {
		return fail(stderr, "allocate", errors.New("stdin case has no \"strategy\""))
	}
	call := c.Call
	if p.IsGo() {
		call = func() (conform.Outcome, error) { return c.CallGo(p) }
	}
	got, err := call()
	if err != nil {
		return fail(stderr, "allocate", err)
	}
	enc := json.NewEncoder(stdout)
	if got.Error != "" {
		enc.Encode(map[string]string{"error": got.Error})
		return 0
	}
	if got.Result == nil {
		fmt.Fprintln(stdout, `{"result":null}`)
		return 0
	}
	enc.Encode(map[string][]route.MessageQueue{"result": got.Result})
	return 0
}

// decodeCase reads one allocate.json case. A field it does not know is an error naming the
// field: a misspelt "virtualNodeCnt" must not silently fall back to the default.
func decodeCase(data []byte) (conform.AllocateCase, error) {
	var c conform.AllocateCase
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("stdin is not one allocate.json case: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return c, errors.New("stdin is not one allocate.json case: more data after the JSON object")
	}
	return c, nil
}
