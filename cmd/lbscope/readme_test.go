package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The command lines and outputs the documentation shows are the program's own: every fenced
// block of a Markdown file whose first line is "$ go run ./cmd/lbscope …" (or "$ echo … |" or
// "$ cat FILE… |" in front of it, lines continued with a backslash) is run in-process, from
// the module's root, and what it prints must be what the block shows below the command, line
// for line. A block whose last line is "…" (or "...") shows the first lines of the output only.
//
//	go test ./cmd/lbscope -run TestREADME -rewrite
//
// writes what the program prints today into every such block (a cut block keeps its number
// of lines), so the documentation is produced from the program, never the other way round.
var rewriteREADME = flag.Bool("rewrite", false, "rewrite the output shown in the Markdown files' command blocks from what the program prints")

// readmeBlock is one command block of a Markdown file.
type readmeBlock struct {
	file    string   // path from the module root
	line    int      // the line of the "$ " command, 1-based
	command string   // the command as written, continuations joined
	first   int      // index in the file's lines of the output's first line
	shown   []string // the output lines shown, without the closing "…"
	cut     string   // the closing "…" line as written, when only the first lines are shown
	end     int      // index of the closing fence
}

const readmeCommand = "go run ./cmd/lbscope"

// oneLine is the command on one line, for messages.
func (b readmeBlock) oneLine() string { return strings.Join(strings.Fields(b.command), " ") }

// readmeBlocks finds the command blocks of one file's lines.
func readmeBlocks(file string, lines []string) ([]readmeBlock, error) {
	var blocks []readmeBlock
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(fence, "```") {
			continue
		}
		open := i
		end := -1
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "```" {
				end = j
				break
			}
		}
		if end < 0 {
			return nil, fmt.Errorf("%s:%d: a fenced block that is never closed", file, open+1)
		}
		i = end
		if open+1 >= end || !strings.HasPrefix(lines[open+1], "$ ") {
			continue
		}
		b := readmeBlock{file: file, line: open + 2, end: end}
		cmd := strings.TrimPrefix(lines[open+1], "$ ")
		k := open + 2
		for strings.HasSuffix(cmd, "\\") {
			if k >= end {
				return nil, fmt.Errorf("%s:%d: the command's last line ends with a backslash", file, b.line)
			}
			cmd = strings.TrimSuffix(cmd, "\\") + lines[k] // as a shell joins them
			k++
		}
		b.command = cmd
		b.first = k
		b.shown = append([]string(nil), lines[k:end]...)
		if n := len(b.shown); n > 0 {
			if last := strings.TrimSpace(b.shown[n-1]); last == "…" || last == "..." {
				b.cut = b.shown[n-1]
				b.shown = b.shown[:n-1]
			}
		}
		blocks = append(blocks, b)
	}
	return blocks, nil
}

// shellWords splits a command line as a POSIX shell does for the forms the documentation uses:
// words, '…' and "…" quoting, backslash escapes and "|" between commands. Anything else a
// shell would interpret (redirections, substitutions, lists) is refused, so a block the test
// cannot run exactly as shown fails instead of being run otherwise.
func shellWords(s string) ([][]string, error) {
	var stages [][]string
	var words []string
	var w strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			words = append(words, w.String())
			w.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			flush()
		case c == '|':
			flush()
			if len(words) == 0 {
				return nil, errors.New(`a "|" with no command before it`)
			}
			stages = append(stages, words)
			words = nil
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("an unclosed ' quote")
			}
			w.WriteString(s[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case c == '"':
			inWord = true
			for i++; ; i++ {
				if i >= len(s) {
					return nil, errors.New(`an unclosed " quote`)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '$' || s[i] == '`' {
					return nil, fmt.Errorf("%q inside double quotes: the test does not expand it", s[i])
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				w.WriteByte(s[i])
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, errors.New("a backslash at the end")
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		case strings.IndexByte("<>;&$`()*?[]{}", c) >= 0 || !inWord && (c == '~' || c == '#'):
			return nil, fmt.Errorf("%q: the test runs words, quotes and one pipe, nothing else a shell interprets", c)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	flush()
	if len(words) == 0 {
		return nil, errors.New("no command")
	}
	return append(stages, words), nil
}

// readmeRun runs a block's command in-process from the module root (the working directory
// the documentation's commands are typed in) and gives its stdout.
func readmeRun(t *testing.T, command string) (stdout, stderr string, status int, err error) {
	t.Helper()
	stages, err := shellWords(command)
	if err != nil {
		return "", "", 0, err
	}
	var stdin string
	switch len(stages) {
	case 1:
	case 2:
		feed := stages[0]
		switch feed[0] {
		case "echo":
			stdin = strings.Join(feed[1:], " ") + "\n"
		case "cat":
			if len(feed) < 2 {
				return "", "", 0, errors.New("cat with no file")
			}
			var b strings.Builder
			for _, f := range feed[1:] {
				data, err := os.ReadFile(f)
				if err != nil {
					return "", "", 0, err
				}
				b.Write(data)
			}
			stdin = b.String()
		default:
			return "", "", 0, fmt.Errorf("%q before the pipe: the test feeds stdin from echo or cat only", feed[0])
		}
	default:
		return "", "", 0, errors.New("more than one pipe")
	}
	words := stages[len(stages)-1]
	if len(words) < 3 || strings.Join(words[:3], " ") != readmeCommand {
		return "", "", 0, fmt.Errorf("the command does not start with %q", readmeCommand)
	}
	stdout, stderr, status = lbscope(t, stdin, words[3:]...)
	return stdout, stderr, status, nil
}

// outputLines splits what a command printed into the lines a terminal shows.
func outputLines(out string) []string {
	if out == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// lineDiff describes how got differs from want, line by line (a longest common subsequence),
// naming for every line the file's line it is at: "-" a line the file shows and the program
// does not print, "+" a line the program prints and the file does not show.
func lineDiff(file string, firstLine int, want, got []string) string {
	n, m := len(want), len(got)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if want[i] == got[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j, hunk := 0, 0, -1 // hunk: the first line the current run of changes takes out
	for i < n || j < m {
		switch {
		case i < n && j < m && want[i] == got[j]:
			i++
			j++
			hunk = -1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&b, "  %s:%d -%s\n", file, firstLine+i, want[i])
			if hunk < 0 {
				hunk = i
			}
			i++
		default:
			at := i // a printed line goes where the lines it replaces were, or before want[i]
			if hunk >= 0 {
				at = hunk
			}
			fmt.Fprintf(&b, "  %s:%d +%s\n", file, firstLine+at, got[j])
			j++
		}
	}
	return b.String()
}

// checkBlock compares what a block shows with what its command printed; "" when they agree.
func checkBlock(b readmeBlock, got []string) string {
	want := b.shown
	if b.cut != "" {
		if len(got) <= len(want) {
			return fmt.Sprintf("the block ends with … but the program prints no more than the %d lines shown (%d)", len(want), len(got))
		}
		got = got[:len(want)]
	}
	if strings.Join(want, "\n") == strings.Join(got, "\n") {
		return ""
	}
	return "differs from what the program prints (-shown, +printed):\n" + lineDiff(b.file, b.first+1, want, got)
}

// markdownFiles lists the module's Markdown files, from its root.
func markdownFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestREADME(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	total := 0
	for _, file := range markdownFiles(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		blocks, err := readmeBlocks(file, lines)
		if err != nil {
			t.Fatal(err)
		}
		total += len(blocks)
		rewrite := make(map[int][]string) // block index → the output lines to write
		for k, b := range blocks {
			stdout, stderr, status, err := readmeRun(t, b.command)
			if err != nil {
				t.Errorf("%s:%d: %s: %v", b.file, b.line, b.oneLine(), err)
				continue
			}
			if status != 0 {
				t.Errorf("%s:%d: %s: exit status %d, stderr: %s", b.file, b.line, b.oneLine(), status, stderr)
				continue
			}
			got := outputLines(stdout)
			msg := checkBlock(b, got)
			if msg == "" {
				continue
			}
			if !*rewriteREADME {
				t.Errorf("%s:%d: the output shown for\n  $ %s\n%s(go test ./cmd/lbscope -run TestREADME -rewrite writes what the program prints into the block)",
					b.file, b.line, b.oneLine(), msg)
				continue
			}
			if b.cut != "" && len(got) > len(b.shown) {
				got = append(got[:len(b.shown):len(b.shown)], b.cut)
			}
			rewrite[k] = got
			t.Logf("%s:%d: rewrote the output of %s", b.file, b.line, b.oneLine())
		}
		if len(rewrite) == 0 {
			continue
		}
		// Backwards, so that rewriting a block leaves the earlier blocks' positions alone.
		for k := len(blocks) - 1; k >= 0; k-- {
			if got, ok := rewrite[k]; ok {
				lines = append(lines[:blocks[k].first], append(got, lines[blocks[k].end:]...)...)
			}
		}
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if total == 0 {
		t.Fatal("no command block found in the Markdown files: the test would check nothing")
	}
}

// The checker itself: the forms the documentation uses are read as a shell reads them, cut
// and drifted blocks are told apart, and what a shell would interpret otherwise is refused.
func TestREADMEBlocks(t *testing.T) {
	md := strings.Split("text\n```\n$ echo '{\"a\": 1}' | go run ./cmd/lbscope allocate \\\n    --json\nline 1\nline 2\n…\n```\n```sh\ngo run ./cmd/lbscope serve\n```\n```\n$ go run ./cmd/lbscope sim\n```\n", "\n")
	blocks, err := readmeBlocks("X.md", md)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 2 {
		t.Fatalf("found %d command blocks, want 2: %+v", len(blocks), blocks)
	}
	b := blocks[0]
	if b.line != 3 || b.oneLine() != `echo '{"a": 1}' | go run ./cmd/lbscope allocate --json` || b.cut != "…" ||
		strings.Join(b.shown, "|") != "line 1|line 2" || b.first != 4 {
		t.Errorf("first block read as %+v", b)
	}
	if blocks[1].cut != "" || len(blocks[1].shown) != 0 {
		t.Errorf("second block read as %+v", blocks[1])
	}
	// A backslash joins the lines as a shell does: the next line's indentation still parts
	// the words, and without it the words run together.
	joined, err := readmeBlocks("X.md", []string{"```", "$ go run ./cmd/lbscope sim --until\\", "  1m --seed 4\\", "2", "```"})
	if err != nil || len(joined) != 1 {
		t.Fatalf("%v, %+v", err, joined)
	}
	if w, err := shellWords(joined[0].command); err != nil || strings.Join(w[0], "|") != "go|run|./cmd/lbscope|sim|--until|1m|--seed|42" || joined[0].first != 4 {
		t.Errorf("joined as %q, %v, output from line index %d", w, err, joined[0].first)
	}

	stages, err := shellWords(b.command)
	if err != nil {
		t.Fatal(err)
	}
	if len(stages) != 2 || strings.Join(stages[0], "|") != `echo|{"a": 1}` ||
		strings.Join(stages[1], "|") != "go|run|./cmd/lbscope|allocate|--json" {
		t.Errorf("split as %q", stages)
	}
	if w, err := shellWords(`a "b \"c\"" d\ e x:y@1,2`); err != nil || strings.Join(w[0], "|") != `a|b "c"|d e|x:y@1,2` {
		t.Errorf("split as %q, %v", w, err)
	}
	for _, bad := range []string{"a > f", "a; b", "a && b", "echo $HOME", "a $(b)", "a 'b", `a "b`, "| a", "a *", "a {b,c}", "~/a", "a #b"} {
		if stages, err := shellWords(bad); err == nil {
			t.Errorf("%q accepted as %q", bad, stages)
		}
	}
	for _, bad := range []string{"echo a | cat | go run ./cmd/lbscope sim", "sh -c x | go run ./cmd/lbscope sim", "go run ./cmd/lbscope2 sim", "scripts/test.sh", "cat | go run ./cmd/lbscope sim"} {
		if _, _, _, err := readmeRun(t, bad); err == nil {
			t.Errorf("%q was run", bad)
		}
	}

	if msg := checkBlock(b, []string{"line 1", "line 2", "line 3"}); msg != "" {
		t.Errorf("a cut block that is the output's start: %s", msg)
	}
	if msg := checkBlock(b, []string{"line 1", "line 2"}); !strings.Contains(msg, "no more than") {
		t.Errorf("a cut block of the whole output: %q", msg)
	}
	whole := readmeBlock{file: "X.md", first: 4, shown: []string{"a", "b", "c"}}
	msg := checkBlock(whole, []string{"a", "B", "c", "d"})
	for _, want := range []string{"X.md:6 -b\n", "X.md:6 +B\n", "X.md:8 +d\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("diff %q lacks %q", msg, want)
		}
	}
	if checkBlock(whole, []string{"a", "b", "c"}) != "" || checkBlock(whole, []string{"a", "b"}) == "" {
		t.Error("a whole block must match the output exactly")
	}
	if d := lineDiff("X.md", 1, nil, nil); d != "" {
		t.Errorf("diff of nothing: %q", d)
	}
}

// figure is a measured quantity as the README's Performance section writes one: a number with
// a unit of time, size, rate or share.
var figure = regexp.MustCompile(`\d[\d,.]*\s?(ns|µs|ms|s|KB|MB|GB|fps|cores|×|%)(\W|$)`)

// measuredBy is a command that measures, or a sentence saying that none repeats the figure.
var measuredBy = regexp.MustCompile("`(CI=1 )?go test |`scripts/[a-z-]+\\.sh|`(go run \\./cmd/)?lbscope [a-z]|`/usr/bin/time |`Benchmark[A-Za-z]+`|no command repeats")

// A figure in the Performance section comes with the command that measures it and its
// settings: each paragraph that quotes one names a command, and a table has one in the
// paragraph before or after it, so a reader can measure again and compare.
func TestREADMEFiguresNameTheirCommand(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	start := slices.Index(lines, "## Performance")
	if start < 0 {
		t.Fatal(`README.md has no "## Performance" section`)
	}
	type para struct {
		line  int
		text  string
		table bool
	}
	var paras []para
	for i := start + 1; i < len(lines) && !strings.HasPrefix(lines[i], "## "); i++ {
		if strings.TrimSpace(lines[i]) == "" {
			continue
		}
		p := para{line: i + 1, table: strings.HasPrefix(lines[i], "|")}
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && strings.HasPrefix(lines[i], "|") == p.table; i++ {
			p.text += lines[i] + "\n"
		}
		i--
		paras = append(paras, p)
	}
	figures := 0
	for k, p := range paras {
		f := figure.FindString(p.text)
		if f == "" {
			continue
		}
		figures++
		named := measuredBy.MatchString(p.text)
		if p.table {
			named = k > 0 && !paras[k-1].table && measuredBy.MatchString(paras[k-1].text) ||
				k+1 < len(paras) && !paras[k+1].table && measuredBy.MatchString(paras[k+1].text)
		}
		if !named {
			t.Errorf("README.md:%d: %q and the rest of this %s name no command that measures them (a `go test …`, `scripts/….sh` or `lbscope …`, with its settings)",
				p.line, strings.TrimSpace(f), map[bool]string{false: "paragraph", true: "table and the paragraphs around it"}[p.table])
		}
	}
	if figures < 10 {
		t.Errorf("found %d paragraphs with figures in the Performance section; the pattern no longer reads them", figures)
	}
}

// What the documentation quotes of the program's output in its prose, with the command that
// prints it: each quote must be in the file as written (line breaks aside) and in what the
// command prints, so neither drifts alone.
func TestREADMEQuotes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(file, []byte(`{"version": 1, "brokers": [{"name": "broker-a", "queues": 4}],
		"consumers": [{"id": "c1"}], "until": "3m", "timeline": [
		{"at": "10s", "type": "killConsumer", "id": "c1"}, {"at": "20s", "type": "restartConsumer", "id": "c1"},
		{"at": "30s", "type": "slowBroker", "broker": "broker-a", "latencyMs": 100},
		{"at": "40s", "type": "slowBroker", "broker": "broker-a", "latencyMs": 700000}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json") // as /dev/zero reads: more than a scenario may hold
	if err := os.WriteFile(big, make([]byte, 1<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		doc   string
		args  []string
		quote string
	}{
		{"README.md", []string{"sim", big}, "more than 1048576 bytes; a scenario file is at most 1048576 (1 MiB)"},
		{"README.md", []string{"compare", "--variants", "AVG,CONSISTENT_HASH", big}, "more than 1048576 bytes; a scenario file is at most 1048576 (1 MiB)"},
		{"README.md", []string{"diagnose", "--json", "testdata/admin/23-consumerConnection.txt"}, `"codes": ["loopback-client-ip"]`},
		{"testdata/scenarios/README.md", []string{"sim", file}, "timeline[3].latencyMs: 700000; want 0…600000"},
	}
	squeeze := func(s string) string { return strings.Join(strings.Fields(s), "") }
	root := filepath.Join("..", "..")
	for _, tt := range tests {
		data, err := os.ReadFile(filepath.Join(root, tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(strings.Fields(string(data)), " "), tt.quote) {
			t.Errorf("%s no longer quotes %q; change this test's quote with it", tt.doc, tt.quote)
		}
		args := slices.Clone(tt.args)
		if i := len(args) - 1; strings.HasPrefix(args[i], "testdata/") {
			args[i] = filepath.Join(root, args[i])
		}
		stdout, stderr, _ := lbscope(t, "", args...)
		if !strings.Contains(squeeze(stdout+stderr), squeeze(tt.quote)) {
			t.Errorf("%s quotes %q, but lbscope %s prints:\n%s%s", tt.doc, tt.quote, strings.Join(tt.args, " "), stdout, stderr)
		}
	}
}
