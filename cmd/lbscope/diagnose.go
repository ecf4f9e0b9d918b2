package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/route"
	"github.com/lbscope/lbscope/core/scenario"
)

const diagnoseUsage = `Usage:
  lbscope diagnose [flags] [FILE|DIR|-]...

Reads what mqadmin or the Dashboard printed — topicRoute (JSON or -l), consumerConnection,
consumerProgress, consumerStatus (group or -i), topicStatus, clusterList, the running-info and
consume-stats wire JSON, the Dashboard's REST JSON, Go client "[BUG] ConsumerId not in cidAll"
lines, and the clients' own logs (rocketmq_client.log of every Java release, the Go client's
output, the gRPC clients' logs, one file per member) and the broker's, read as a rebalance
history — in any mix, as files (a directory: each file in it), or one stream of pastes (- or no
FILE reads stdin). It rebuilds the
group, computes what each member's client allocates (sorted as RebalanceImpl sorts, one entry
per connection as the broker answers), compares it with what the outputs show each client
holding, and names what is wrong with the line that shows it. What no paste says is listed
with the command that prints it; flags fill gaps.

Examples:
  mqadmin consumerConnection -g G > conn.txt; mqadmin consumerProgress -g G -s true > prog.txt
  lbscope diagnose conn.txt prog.txt
  pbpaste | lbscope diagnose --queues broker-a:8,broker-b:8 --topic Orders
  lbscope diagnose --json conn.txt
  lbscope diagnose --log-zone +08:00 host1/rocketmq_client.log host2/rocketmq_client.log go.log
  lbscope diagnose --scenario mine.json --link http://127.0.0.1:8080/ conn.txt route.txt

Exit status: 0 when something was read, 2 when nothing in the input is recognisable.

Flags:
`

func runDiagnose(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diagnose", flag.ContinueOnError)
	var opts admin.Options
	var asJSON bool
	var scenarioFile, link string
	fs.StringVar(&opts.Queues, "queues", "", "the main topic's read queues when no topicRoute was pasted, e.g. broker-a:8,broker-b:8")
	fs.StringVar(&opts.Topic, "topic", "", "the main topic's name when no paste names it")
	fs.StringVar(&opts.Strategy, "strategy", "", "allocation strategy when no running info names it (default AVG)")
	fs.StringVar(&opts.SDK, "sdk", "", "language of members whose language no paste gives (JAVA, GO)")
	fs.StringVar(&opts.Group, "group", "", "the group to diagnose when the pastes hold several")
	fs.StringVar(&opts.LogZone, "log-zone", "", "the zone of log stamps that carry none, e.g. +08:00 (the default: RocketMQ's pattern prints GMT+8)")
	fs.BoolVar(&asJSON, "json", false, "print JSON for machines (finding codes are stable)")
	fs.StringVar(&scenarioFile, "scenario", "", "write a scenario file of the group to FILE (- for stdout)")
	fs.StringVar(&link, "link", "", "print a share link of the group's scenario for the playground at BASE_URL")
	if done, status := parseFlags(fs, diagnoseUsage, args, stdout, stderr); done {
		return status
	}
	if opts.Strategy != "" {
		if _, err := allocate.New(opts.Strategy, allocate.Params{}); err != nil {
			return fail(stderr, "diagnose", fmt.Errorf("--strategy: %w", err))
		}
	}
	inputs, err := diagnoseInputs(fs.Args(), stdin)
	if err != nil {
		return fail(stderr, "diagnose", err)
	}
	rep, err := admin.Diagnose(inputs, opts)
	if err != nil {
		return fail(stderr, "diagnose", err)
	}
	if !rep.Read.Recognised() {
		msg := "nothing in the input is an output of mqadmin or the Dashboard that LBScope reads"
		for _, in := range rep.Read.Inputs {
			if in.Error != "" {
				msg = in.Error
				break
			}
		}
		fmt.Fprintf(stderr, "lbscope diagnose: %s (see lbscope diagnose --help for the outputs it reads)\n", admin.Escape(msg))
		return 2
	}
	var buf bytes.Buffer
	if asJSON {
		if err := printDiagnoseJSON(&buf, rep); err != nil {
			return fail(stderr, "diagnose", err)
		}
	} else {
		printDiagnose(&buf, rep)
	}
	if scenarioFile != "" || link != "" {
		if code := diagnoseScenario(&buf, stderr, rep, scenarioFile, link, asJSON); code != 0 {
			stdout.Write(buf.Bytes())
			return code
		}
	}
	if asJSON {
		stdout.Write(buf.Bytes()) // encoding/json escapes control characters itself
	} else {
		io.WriteString(stdout, admin.Escape(buf.String()))
	}
	return 0
}

// maxDiagnoseInput bounds what one input may bring before the reader refuses it: a log may be
// larger than a paste.
const maxDiagnoseInput = admin.MaxLogBytes

// maxDiagnoseFiles bounds how many files the arguments, directories included, may name.
const maxDiagnoseFiles = 256

func diagnoseInputs(args []string, stdin io.Reader) ([]admin.Input, error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	args, err := expandDirs(args)
	if err != nil {
		return nil, err
	}
	var out []admin.Input
	for _, a := range args {
		var r io.Reader
		name := a
		if a == "-" {
			r, name = stdin, "stdin"
		} else {
			f, err := os.Open(a)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			r = f
		}
		// Read one byte past the limit so that the reader can say the input is too large
		// without holding more of it.
		data, err := io.ReadAll(io.LimitReader(r, maxDiagnoseInput+1))
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		if len(data) > maxDiagnoseInput {
			return nil, fmt.Errorf("%s is larger than %d MiB; cut a log to the window of interest", name, maxDiagnoseInput>>20)
		}
		out = append(out, admin.Input{Name: name, Data: data})
	}
	return out, nil
}

// expandDirs replaces each directory among args by the regular files in it, in name order,
// leaving out hidden ones; it refuses more than maxDiagnoseFiles files in all.
func expandDirs(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if a == "-" || err != nil || !fi.IsDir() {
			out = append(out, a) // opening it says what is wrong
		} else {
			entries, err := os.ReadDir(a)
			if err != nil {
				return nil, err
			}
			n := 0
			for _, e := range entries {
				if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
					out = append(out, filepath.Join(a, e.Name()))
					n++
				}
			}
			if n == 0 {
				return nil, fmt.Errorf("%s: a directory with no file in it", a)
			}
		}
		if len(out) > maxDiagnoseFiles {
			return nil, fmt.Errorf("more than %d files to read; name the outputs to diagnose", maxDiagnoseFiles)
		}
	}
	return out, nil
}

func printDiagnose(w io.Writer, rep *admin.Report) {
	g := rep.Group
	name := g.Name
	if name == "" {
		name = "(group not named in the paste)"
	}
	if g.NameCut > 0 {
		name += fmt.Sprintf(" (maybe cut at %d characters)", g.NameCut)
	}
	members := plural(len(g.Members), "member")
	if len(g.Members) == 0 && rep.History != nil {
		members = plural(len(rep.History.Members), "member") + " in the logs"
	}
	fmt.Fprintf(w, "group %s · %s · %s · strategy %s (%s)\n", name, members, g.MessageModel, g.Strategy, g.StrategySource)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "read:")
	for _, s := range rep.Read.Sections {
		if s.Kind == admin.KindCommand {
			continue
		}
		extra := ""
		if s.Layout != "" {
			extra = " (" + s.Layout + ")"
		}
		if s.Cut {
			extra += ", cut"
		}
		lines := fmt.Sprintf("lines %d–%d", s.From, s.To)
		if s.From == s.To {
			lines = fmt.Sprintf("line %d", s.From)
		}
		fmt.Fprintf(w, "  %s %s: %s%s\n", s.Input, lines, s.Kind, extra)
	}
	if len(g.Members) > 0 {
		per := "one row per client id: duplicates do not show"
		if g.Complete {
			per = "one row per connection"
		}
		fmt.Fprintf(w, "\nmembers (%s, %s):\n", g.MembersSource, per)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  CLIENT ID\tADDRESS\tLANGUAGE\tVERSION\tLINE")
		for _, m := range g.Members {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", m.ClientID, dash(m.Addr), dash(m.Language), dash(m.Version), m.Ref)
		}
		tw.Flush()
	}
	printBrokers(w, rep)
	if len(g.Topics) > 0 {
		fmt.Fprintln(w, "\ntopics:")
		for _, t := range g.Topics {
			mark := ""
			if t.Main {
				mark = " (main)"
			}
			if t.Source == "" {
				fmt.Fprintf(w, "  %s%s: queues unknown\n", t.Name, mark)
				continue
			}
			if t.NameCut > 0 {
				mark += fmt.Sprintf(" (name maybe cut at %d characters)", t.NameCut)
			}
			fmt.Fprintf(w, "  %s%s: %s · %s\n", t.Name, mark, plural(len(t.Queues), "queue"), t.Source)
		}
	}
	for _, a := range g.Assumed {
		fmt.Fprintf(w, "assumed: %s\n", a)
	}
	for _, l := range g.LeftOut {
		fmt.Fprintf(w, "left out: %s\n", l)
	}
	for _, a := range rep.Allocations {
		fmt.Fprintf(w, "\nexpected allocation of %s\n", a.Topic)
		if a.Note != "" {
			fmt.Fprintf(w, "  %s\n", a.Note)
			continue
		}
		printAllocateTable(w, allocateFlags{topic: a.Topic}, a.View, a.MQAll, a.CidAll)
		if a.Clients != "" {
			fmt.Fprintf(w, "%s\n", a.Clients)
		}
	}
	observed := false
	for _, q := range rep.Queues {
		if len(q.Observed) > 0 || q.Lag != nil {
			observed = true
		}
	}
	if observed {
		fmt.Fprintln(w, "\nobserved versus expected:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  QUEUE\tEXPECTED\tOBSERVED\tLAG\t")
		for _, q := range rep.Queues {
			var obs []string
			for _, o := range q.Observed {
				c := o.Client
				if c == "" {
					c = "(unnamed client)"
				}
				obs = append(obs, c+" ["+o.Ref.String()+"]")
			}
			lag := "-"
			if q.Lag != nil {
				lag = fmt.Sprint(*q.Lag)
			}
			verdict := ""
			if q.Agrees != nil && !*q.Agrees {
				verdict = "differs"
			}
			fmt.Fprintf(tw, "  %s:%s\t%s\t%s\t%s\t%s\n", q.Queue.Topic, q.Queue.Short(), dash(strings.Join(q.Expected, ", ")), dash(strings.Join(obs, ", ")), lag, verdict)
		}
		tw.Flush()
	}
	if len(rep.Allocations) == 0 {
		// Nothing to compare with: still say what each running info shows its client holding.
		for i, ri := range rep.Read.RunningInfos {
			if !ri.HasHeld {
				continue
			}
			if i == 0 || !rep.Read.RunningInfos[i-1].HasHeld {
				fmt.Fprintln(w, "\nheld now (running info):")
			}
			who := ri.ClientID
			if who == "" {
				who = "a client not named in the paste"
			}
			qs := make([]route.MessageQueue, len(ri.Held))
			for j, h := range ri.Held {
				qs[j] = h.Queue
			}
			fmt.Fprintf(w, "  %s (%s): %s\n", who, ri.Ref, heldText(qs))
		}
	}
	if rep.History != nil {
		printHistory(w, rep.History)
	}
	fmt.Fprintln(w, "\nfindings:")
	if len(rep.Findings) == 0 {
		fmt.Fprintln(w, "  none: the pastes do not hold enough to judge the allocation (see missing)")
	}
	for _, f := range rep.Findings {
		fmt.Fprintf(w, "  [%s] %s: %s\n", f.Severity, f.Code, f.Title)
		for _, e := range f.Evidence {
			fmt.Fprintf(w, "      %s  %s\n", e.Ref, e.Text)
		}
		fmt.Fprintf(w, "      sees: %s\n", f.Sees)
		fmt.Fprintf(w, "      fix:  %s\n", f.Fix)
	}
	if len(g.Missing) > 0 {
		fmt.Fprintln(w, "\nmissing:")
		for _, m := range g.Missing {
			if m.Command == "" {
				fmt.Fprintf(w, "  %s\n", m.What)
				continue
			}
			read := ""
			if m.Read != "" {
				read = "  (" + m.Read + ")"
			}
			fmt.Fprintf(w, "  %s: %s%s\n", m.What, m.Command, read)
		}
	}
	if len(rep.Read.Notes) > 0 {
		fmt.Fprintln(w, "\nnotes:")
		for _, n := range rep.Read.Notes {
			fmt.Fprintf(w, "  %s  %s\n", n.Ref, n.Text)
		}
	}
}

// heldText lists queues topic by topic, each in the compact form.
func heldText(qs []route.MessageQueue) string {
	if len(qs) == 0 {
		return "(none)"
	}
	route.SortQueues(qs)
	var parts []string
	for i := 0; i < len(qs); {
		j := i
		for j < len(qs) && qs[j].Topic == qs[i].Topic {
			j++
		}
		parts = append(parts, qs[i].Topic+" "+route.Compact(qs[i:j]))
		i = j
	}
	return strings.Join(parts, "; ")
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func printDiagnoseJSON(w io.Writer, rep *admin.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep.Export())
}

func diagnoseScenario(w, stderr io.Writer, rep *admin.Report, file, link string, asJSON bool) int {
	s, left, err := rep.Group.Scenario()
	if err != nil {
		return fail(stderr, "diagnose", fmt.Errorf("--scenario: %w", err))
	}
	if file != "" {
		data, err := s.Marshal()
		if err != nil {
			return fail(stderr, "diagnose", err)
		}
		if file == "-" {
			w.Write(data)
		} else if err := os.WriteFile(file, data, 0o644); err != nil {
			return fail(stderr, "diagnose", err)
		}
		if !asJSON && file != "-" {
			joins := 0
			for _, st := range s.Timeline {
				if st.Type == "addConsumer" {
					joins++
				}
			}
			more := ""
			if joins > 0 {
				more = fmt.Sprintf(", %d joining later", joins)
			}
			if s.Observed != nil {
				more += fmt.Sprintf(", the logged history of %d holdings and %d rounds: lbscope sim %s replays it", len(s.Observed.Holdings), len(s.Observed.Rounds), file)
			}
			what := "topic " + s.Topic
			if len(s.Topics) > 0 {
				names := make([]string, len(s.Topics))
				for i, t := range s.Topics {
					names[i] = t.Name
				}
				what = "topics " + strings.Join(names, ", ")
				for _, g := range s.Groups {
					what += ", group " + g.Name
				}
			}
			fmt.Fprintf(w, "\nscenario written to %s (%s, %d consumers%s)\n", file, what, len(s.Consumers), more)
			for _, l := range left {
				fmt.Fprintf(w, "  left out: %s\n", l)
			}
		}
	}
	if link != "" {
		frag, err := scenario.EncodeShare(scenario.Share{Scenario: s})
		if err != nil {
			return fail(stderr, "diagnose", err)
		}
		base, _, _ := strings.Cut(link, "#")
		if base == "" {
			return fail(stderr, "diagnose", errors.New("--link needs the playground's address, e.g. http://127.0.0.1:8080/"))
		}
		if asJSON {
			fmt.Fprintf(stderr, "%s#s=%s\n", base, frag)
		} else {
			fmt.Fprintf(w, "\nopen it in the playground: %s#s=%s\n", base, frag)
		}
	}
	return 0
}

// printBrokers prints what the pastes say of the brokers and of the groups besides the one
// diagnosed: the brokers of a cluster (clusterList, the Dashboard's cluster page: those with
// a version; a route's addresses are its topic's), the groups of a consumer list and a
// broker's status.
func printBrokers(w io.Writer, rep *admin.Report) {
	versioned := false
	for _, b := range rep.Group.Brokers {
		versioned = versioned || b.Version != ""
	}
	if versioned {
		fmt.Fprintln(w, "\nbrokers:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  BROKER\tID\tROLE\tADDRESS\tVERSION\tLINE")
		for _, b := range rep.Group.Brokers {
			role := "slave"
			if b.ID == 0 {
				role = "master"
			}
			fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\t%s\n", b.Broker, b.ID, role, b.Addr, dash(b.Version), b.Ref)
		}
		tw.Flush()
	}
	if len(rep.Read.Summaries) > 0 {
		fmt.Fprintln(w, "\ngroups (consumer list):")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  GROUP\tCONNECTIONS\tLOWEST VERSION\tTYPE\tMODEL\tDIFF TOTAL\tLINE")
		for _, s := range rep.Read.Summaries {
			fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\t%d\t%s\n", s.Group, s.Count, dash(s.Version), dash(s.Type), dash(s.Model), s.DiffTotal, s.Ref)
		}
		tw.Flush()
	}
	if len(rep.Read.BrokerValues) > 0 {
		v := map[string]string{}
		for _, kv := range rep.Read.BrokerValues {
			v[kv.Name] = kv.Value
		}
		fmt.Fprintf(w, "\nbroker status (%s):\n", rep.Read.BrokerValues[0].Ref)
		for _, k := range []string{"brokerVersionDesc", "brokerName", "brokerId", "brokerClusterName", "bootTimestamp", "commitLogDiskRatio", "putTps", "getTransferedTps", "getTransferredTps"} {
			if x := v[k]; x != "" {
				if k == "bootTimestamp" {
					if ms, err := strconv.ParseInt(x, 10, 64); err == nil {
						x += " (" + time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05 UTC") + ")"
					}
				}
				fmt.Fprintf(w, "  %s: %s\n", k, x)
			}
		}
		day := func(now, morning string) string {
			a, err1 := strconv.ParseInt(v[now], 10, 64)
			b, err2 := strconv.ParseInt(v[morning], 10, 64)
			if err1 != nil || err2 != nil {
				return "-"
			}
			return strconv.FormatInt(a-b, 10)
		}
		fmt.Fprintf(w, "  messages today: %s put, %s got; yesterday: %s put, %s got\n",
			day("msgPutTotalTodayNow", "msgPutTotalTodayMorning"), day("msgGetTotalTodayNow", "msgGetTotalTodayMorning"),
			day("msgPutTotalTodayMorning", "msgPutTotalYesterdayMorning"), day("msgGetTotalTodayMorning", "msgGetTotalYesterdayMorning"))
	}
}
