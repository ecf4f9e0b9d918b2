package main

import (
	"flag"
	"io"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/stretchr/testify/assert"
)

// Every flag of the field table is a flag of sim and compare, with its entry's help and
// default, and shapes a flag-built cluster only: given with a preset, it is refused.
func TestScenarioFlagsAreTheFieldTables(t *testing.T) {
	var sf scenarioFlags
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sf.register(fs, "allocation strategy", "virtual nodes", "fault table")
	n := 0
	for _, f := range cluster.Fields() {
		if f.Flag == "" {
			continue
		}
		n++
		fl := fs.Lookup(f.Flag)
		if !assert.NotNil(t, fl, "--%s (%s) is not defined", f.Flag, f.Path) {
			continue
		}
		if f.Flag != "strategy" && f.Flag != "fault-table" {
			assert.Equal(t, f.Doc, fl.Usage, "--%s's help", f.Flag)
		}
		if def := f.FlagDefaultText(); def != "" {
			assert.Equal(t, def, fl.DefValue, "--%s's default", f.Flag)
		}
		if f.Flag != "seed" {
			assert.Contains(t, shapeFlags(), f.Flag)
		}
	}
	assert.Greater(t, n, 10, "the table's flags")
	_, errOut, status := lbscope(t, "", "sim", "--preset", "default", "--producer-mode", "async")
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "--producer-mode shapes a flag-built cluster; it cannot change a scenario file or preset")
}
