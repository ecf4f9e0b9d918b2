// Command lbscope runs LBScope's core from the shell: allocate queues as a RocketMQ consumer
// group would under each client profile, and check the core against vectors recorded from the
// real clients.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lbscope/lbscope/wasm/script"
)

// command is one subcommand. run returns an exit status; usage errors are reported by the
// caller as one line.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = []command{
	{"allocate", "which queues each consumer of a group gets, as its client (Java, Java 4.9, Go) computes it", runAllocate},
	{"conform", "check the core against vectors recorded from the real clients", runConform},
	{"serve", "build the browser playground and serve it on 127.0.0.1:8080", runServe},
	{"build", "write the browser playground as a static site (--out DIR)", runBuild},
	{"select", "where a producer's keyed messages go under your own queue selector, against the hash", runSelect},
	{"sim", "run a cluster and consumer group in virtual time and tell what happened", runSim},
	{"compare", "run one scenario under two to four strategies or fault tables and compare the costs", runCompare},
	{"diagnose", "read what mqadmin or the Dashboard printed: the group, what each member gets, what is wrong", runDiagnose},
}

const topUsage = `lbscope — RocketMQ client load balancing, reproduced exactly

Usage:
  lbscope <command> [flags]

Commands:
%s
Run 'lbscope <command> --help' for a command's flags and examples.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Strategies given with their source (a scenario's strategy: {name, source}, setStrategy's
// source) run in Starlark.
func init() { script.Enable() }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintf(stderr, topUsage, commandList())
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintf(stdout, topUsage, commandList())
		return 0
	}
	defer forgetStrategyFiles() // a command's strategy files are its own
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "lbscope: unknown command %+q (commands: %s; see lbscope --help)\n", args[0], commandNames())
	return 2
}

func commandList() string {
	var b strings.Builder
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	return b.String()
}

func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

// parseFlags parses a subcommand's flags. It prints help on -h (done, status 0), one line on
// a flag error (done, status 2), and otherwise returns done = false.
func parseFlags(fs *flag.FlagSet, usage string, args []string, stdout, stderr io.Writer) (done bool, status int) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(flagsFirst(fs, args))
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, usage)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return true, 0
	case err != nil:
		fmt.Fprintf(stderr, "lbscope %s: %s (see lbscope %s --help)\n", fs.Name(), term(err.Error()), fs.Name())
		return true, 2
	}
	return false, 0
}

// fail prints one line for a user's mistake and returns status 2.
func fail(stderr io.Writer, cmd string, err error) int {
	fmt.Fprintf(stderr, "lbscope %s: %s\n", cmd, term(err.Error()))
	return 2
}

// flagsFirst moves flags ahead of positional arguments, so that "lbscope sim FILE --json"
// works as users type it; the flag package alone stops at the first positional argument.
func flagsFirst(fs *flag.FlagSet, args []string) []string {
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(append(flags, "--"), append(positional, args[i+1:]...)...)
		case a == "-" || !strings.HasPrefix(a, "-"):
			positional = append(positional, a)
			continue
		}
		flags = append(flags, a)
		name := strings.TrimLeft(a, "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			if i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		}
	}
	if len(positional) == 0 {
		return flags
	}
	return append(append(flags, "--"), positional...)
}
