package scenario

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
)

// fieldRows reads the format's field table of testdata/scenarios/README.md: each path its
// first column names (`brokers[].readQueueNums`, `.writeQueueNums`: a leading '.' continues
// the row's first path), with the row's whole text.
func fieldRows(t *testing.T, md string) map[string]string {
	t.Helper()
	_, table, ok := strings.Cut(md, "\n## Fields\n")
	if !ok {
		t.Fatal("README.md has no ## Fields section")
	}
	table, _, _ = strings.Cut(table, "\n#")
	rows := map[string]string{}
	code := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| `") || len(cells) < 2 {
			continue
		}
		first := ""
		for _, m := range code.FindAllStringSubmatch(cells[0], -1) {
			p := m[1]
			if strings.HasPrefix(p, ".") && first != "" {
				p = first[:strings.LastIndexByte(first, '.')] + p
			}
			if first == "" {
				first = p
			}
			rows[p] = line
		}
	}
	return rows
}

// number is n as the documentation writes it.
func number(n int64) string { return strconv.FormatInt(n, 10) }

// The format's documentation says what the field table says: every setting has a row (or,
// within an object, a mention in its object's row) with its limits, its values and its
// default, no row names a setting the table lacks, and the timing table is the table's.
func TestFieldDocsFollowTheTable(t *testing.T) {
	b, err := os.ReadFile("../../testdata/scenarios/README.md")
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	rows := fieldRows(t, md)
	for _, f := range cluster.Fields() {
		if strings.HasPrefix(f.Path, "timing.") {
			continue // the timing table, below
		}
		row, ok := rows[f.Path]
		if f.Type == cluster.ArgList {
			row, ok = rows[f.Path+"[]"]
		}
		if !ok {
			parent, known := cluster.Field(f.Scope())
			if row, ok = rows[f.Scope()]; !ok || !known || parent.Type != cluster.ArgObject || !strings.Contains(row, f.Name()) {
				t.Errorf("%s: no row, nor a mention in its object's row", f.Path)
				continue
			}
		}
		var want []string
		switch f.Type {
		case cluster.ArgInt:
			if f.Min < f.Max && f.Path != "seed" {
				want = append(want, number(f.Min)+"…"+number(f.Max))
			}
		case cluster.ArgInts:
			want = append(want, number(f.Min)+"…"+number(f.Max), "≤ "+strconv.Itoa(f.Len))
		case cluster.ArgList:
			want = append(want, strconv.Itoa(f.Len))
		case cluster.ArgEnum:
			for _, e := range f.Enum {
				want = append(want, "`"+e+"`")
			}
		}
		if f.Default != "" {
			want = append(want, "`"+f.Default+"`")
		}
		for _, w := range want {
			if !strings.Contains(row, w) {
				t.Errorf("%s: the row does not say %s:\n%s", f.Path, w, row)
			}
		}
	}
	scenarioOwn := map[string]bool{"version": true, "title": true, "description": true, "until": true, "timeline[]": true, "timeline[].at": true, "timeline[].type": true}
	for p := range rows {
		// observed is the scenario's own too: a history beside the run, checked in observed.go.
		if _, ok := cluster.Field(strings.TrimSuffix(p, "[]")); !ok && !scenarioOwn[p] && !strings.HasPrefix(p, "observed") {
			t.Errorf("the README documents %s, which the field table lacks", p)
		}
	}
	if want := timingTable(); !strings.Contains(md, want) {
		t.Errorf("README.md's timing table is not the field table's; it reads:\n%s", want)
	}
}

// timingTable is the format documentation's table of the timing fields, from the field table.
func timingTable() string {
	var b strings.Builder
	b.WriteString("| `timing.` field | default | limits | meaning |\n|---|---|---|---|\n")
	for _, f := range cluster.Fields() {
		if f.Scope() != "timing" {
			continue
		}
		limits := "true or false"
		if f.Type == cluster.ArgInt {
			limits = number(f.Min) + "…" + number(f.Max) + " " + f.Unit
		}
		def := f.Default
		if def == "" {
			def = "false"
		}
		b.WriteString("| `" + f.Name() + "` | " + def + " | " + limits + " | " + f.Doc + " |\n")
	}
	return b.String()
}

// The names a scenario built from counts uses are the field table's defaults.
func TestDefaultNamesAreTheTables(t *testing.T) {
	if DefaultTopic != cluster.DefaultOf("topic") || DefaultGroup != cluster.DefaultOf("group") {
		t.Errorf("DefaultTopic, DefaultGroup = %s, %s; the field table's are %s, %s", DefaultTopic, DefaultGroup, cluster.DefaultOf("topic"), cluster.DefaultOf("group"))
	}
}
