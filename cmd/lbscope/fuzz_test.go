package main

import (
	"flag"
	"io"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lbscope/lbscope/core/scenario"
)

// checkLines fails when a command's terminal output carries a control character other than
// newlines, tabs and the progress line's carriage returns: ids and names from the input
// must reach the terminal escaped.
func checkLines(t *testing.T, what, out string) {
	t.Helper()
	for _, r := range out {
		if r != '\n' && r != '\t' && r != '\r' && unsafeRune(r, false) && r != utf8.RuneError {
			t.Fatalf("%s carries the control character %U:\n%q", what, r, out)
		}
	}
}

// FuzzScenarioFlags: sim's and compare's flags, space-separated, build a valid scenario (whose
// work can be estimated) or give one error line; nothing runs, so every input is quick.
func FuzzScenarioFlags(f *testing.F) {
	for _, s := range []string{
		"--brokers 2 --queues 4 --consumers 3 --until 6m --at 60s:partitionConsumer:c1",
		"--brokers 64 --queues 64 --consumers 512 --producers 64 --rate 100000",
		"--consumer-ids 10.0.0.1@4012,10.0.0.2@4013 --strategy CONSISTENT_HASH --virtual-nodes 1000",
		"--consumer-ids c1,,c2", "--consumers 99999999999999999999", "--preset large --until 24h --seed 7",
		"--preset default --brokers 3", "--until 25h", "--at 60s:killConsumer:\x1b[31m", "--model BROADCASTING --fault-table legacy-4x --latency-fault",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) > 64 {
			return
		}
		fs := flag.NewFlagSet("sim", flag.ContinueOnError)
		var sf scenarioFlags
		sf.register(fs, "", "", "")
		if done, _ := parseFlags(fs, "", args, io.Discard, io.Discard); done {
			return
		}
		if fs.NArg() > 0 || sf.file != "" {
			return // a file argument: FuzzParse covers what files hold
		}
		s, err := sf.scenario(fs)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if err := s.Validate(); err != nil {
			t.Fatalf("flags built a scenario Validate refuses: %v", err)
		}
		if w := scenario.WorkOf(s); w.Units <= 0 {
			t.Fatalf("work estimate %+v; want positive", w)
		}
	})
}

// FuzzAllocateFlags: allocate's flags, space-separated, print a table or one error line, and
// whatever they print reaches the terminal escaped.
func FuzzAllocateFlags(f *testing.F) {
	for _, s := range []string{
		"--strategy AVG --queues broker-a:4,broker-b:4 --consumers 3",
		"--strategy CONSISTENT_HASH --virtual-nodes 10 --queues broker-a:8 --consumers 10.0.0.1@4012,10.0.0.2@4013",
		"--strategy MACHINE_ROOM --idcs hz --queues hz@broker-a:4,sh@broker-b:4 --consumers 2",
		"--strategy CONFIG --config broker-a:0,broker-b:1 --queues broker-a:2,broker-b:2 --consumers 2 --json",
		"--queues b:2 --consumers \x1b[31mred,c\u202e2", "--queues b:2 --consumers c1,,c2", "--queues b:99999999999999999999 --consumers 1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) > 64 || len(line) > 4096 {
			return
		}
		out, errOut, status := lbscopeQuiet(t, "", append([]string{"allocate"}, args...)...)
		if status != 0 && status != 2 {
			t.Fatalf("status %d", status)
		}
		checkLines(t, "stdout", out)
		checkLines(t, "stderr", errOut)
	})
}

// FuzzAllocateStdin: one allocate.json case on stdin gives JSON or one error line.
func FuzzAllocateStdin(f *testing.F) {
	for _, s := range []string{
		`{"strategy":"AVG","params":{},"consumerGroup":"cg","currentCID":"c1","cidAll":["c1","c2"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}`,
		`{"strategy":"CONSISTENT_HASH","params":{"virtualNodeCnt":2000000000},"currentCID":"c1","cidAll":["c1","c2","c3"],"mqAll":[{"topic":"T","brokerName":"b","queueId":0}]}`,
		`{"strategy":"MACHINE_ROOM","params":{"consumeridcs":["hz"]},"currentCID":"c1","cidAll":["c1"],"mqAll":[{"topic":"T","brokerName":"hz@b","queueId":0}]}`,
		`{"strategy":"AVG","foo":1}`, `{"strategy":"AVG"} {}`, `[]`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 4096 {
			return // each input stays quick; TestAllocateStdinIsReadUpToTheLimit covers size
		}
		out, errOut, status := lbscopeQuiet(t, in, "allocate", "-")
		if status != 0 && status != 2 {
			t.Fatalf("status %d", status)
		}
		if status == 2 && strings.Count(errOut, "\n") != 1 {
			t.Fatalf("want one error line, got %q", errOut)
		}
		checkLines(t, "stdout", out)
		checkLines(t, "stderr", errOut)
	})
}

func lbscopeQuiet(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	return lbscope(t, stdin, args...)
}
