package core

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/lbscope/lbscope"

// Imports a deterministic core must not use, even though they are standard: they reach the
// outside world, the browser, or global randomness.
var forbiddenImports = map[string]string{
	"os":               "reads the environment or files",
	"os/exec":          "runs processes",
	"net":              "reaches the network",
	"net/http":         "reaches the network",
	"syscall":          "reaches the operating system",
	"syscall/js":       "belongs to the browser driver",
	"math/rand":        "global randomness: use core/jrand streams",
	"math/rand/v2":     "global randomness: use core/jrand streams",
	"crypto/rand":      "non-deterministic randomness",
	"unsafe":           "not needed by a pure model",
	"runtime":          "not needed by a pure model",
	"plugin":           "not needed by a pure model",
	"hash/maphash":     "seeded per process: not deterministic",
	"testing/synctest": "test-only",
}

// Clock reads of package time; durations and formatting stay allowed.
var forbiddenTimeCalls = map[string]bool{
	"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true, "AfterFunc": true,
	"Tick": true, "NewTicker": true, "NewTimer": true,
}

// TestCoreIsPure keeps the core a deterministic state machine: only the standard library (and
// the core itself), no clock, no global randomness, no I/O.
func TestCoreIsPure(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		timeName := ""
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			first := strings.Split(p, "/")[0]
			switch {
			case strings.HasPrefix(p, module+"/core"):
			case strings.Contains(first, "."):
				t.Errorf("%s imports %s: the core may import only the standard library", path, p)
			case forbiddenImports[p] != "":
				t.Errorf("%s imports %s: %s", path, p, forbiddenImports[p])
			}
			if p == "time" {
				timeName = "time"
				if imp.Name != nil {
					timeName = imp.Name.Name
				}
			}
		}
		if timeName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == timeName && forbiddenTimeCalls[sel.Sel.Name] {
				t.Errorf("%s: time.%s reads the clock; pass virtual milliseconds in instead", fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Fatalf("checked only %d files: is the walk looking at core/?", checked)
	}
}
