package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/conform"
	"github.com/lbscope/lbscope/core/profile/goclient"
)

const conformUsage = `Usage:
  lbscope conform PATH...

Checks the core against conformance vectors recorded from the real clients: files, or
directories searched for *.json (subfolders included), in the allocate, select, fault,
hash, sort and publish schemas. Each file's kind is recognised from its content and its
client profile from its "client" field: none is the current Java client,
"rocketmq-client-go/v2@v2.1.2" the go-2.1.2 profile, "rocketmq-java@4.9.8" java-4.9.
Prints a line per file, the first failures in detail, and a total. Exit status: 0 all
passed, 1 a case failed, 2 unreadable input (a file larger than 32 MiB included).

Example:
  lbscope conform testdata/conformance

`

func runConform(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conform", flag.ContinueOnError)
	if done, status := parseFlags(fs, conformUsage, args, stdout, stderr); done {
		return status
	}
	if fs.NArg() == 0 {
		return fail(stderr, "conform", fmt.Errorf("no path given (e.g. lbscope conform testdata/conformance)"))
	}
	var files []vectorFile
	for _, p := range fs.Args() {
		found, err := vectorFiles(p)
		if err != nil {
			return fail(stderr, "conform", err)
		}
		files = append(files, found...)
	}
	passed, failed, unreadable := 0, 0, 0
	opts := conform.Options{GoRandom: func(seed int64) goclient.IntnSource { return rand.New(rand.NewSource(seed)) }}
	for _, vf := range files {
		name := vf.path
		data, err := readVectorFile(name)
		if err == nil {
			var r conform.Result
			r, err = conform.RunWith(data, opts)
			if err == nil {
				label := vf.label
				if r.Profile != "" && r.Profile != "java" {
					label += " (" + r.Profile + ")"
				}
				fmt.Fprintf(stdout, "%s: %d passed, %d failed\n", label, r.Passed, r.Failed)
				for _, f := range r.Failures {
					fmt.Fprintf(stdout, "  FAIL %s\n    want %s\n    got  %s\n", f.ID, f.Want, f.Got)
				}
				if more := r.Failed - len(r.Failures); more > 0 {
					fmt.Fprintf(stdout, "  … and %d more failures\n", more)
				}
				passed += r.Passed
				failed += r.Failed
				continue
			}
		}
		unreadable++
		fmt.Fprintf(stderr, "lbscope conform: %s: %v\n", name, err)
	}
	fmt.Fprintf(stdout, "%d passed, %d failed\n", passed, failed)
	switch {
	case unreadable > 0:
		return 2
	case failed > 0:
		return 1
	}
	return 0
}

// readVectorFile reads at most conform.MaxFileSize+1 bytes, so a huge file (or a device)
// is refused without being read whole.
func readVectorFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, conform.MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > conform.MaxFileSize {
		return nil, fmt.Errorf("larger than %d MiB: not a vector file this tool reads", conform.MaxFileSize>>20)
	}
	return data, nil
}

type vectorFile struct {
	path  string
	label string // the name printed: the path below the directory given, or the file's name
}

// maxVectorFiles bounds a directory walk.
const maxVectorFiles = 10000

// vectorFiles expands a path: a file as itself, a directory as the *.json files in it and
// its subfolders, in path order.
func vectorFiles(p string) ([]vectorFile, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []vectorFile{{path: p, label: filepath.Base(p)}}, nil
	}
	var out []vectorFile
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") {
			return nil
		}
		if len(out) == maxVectorFiles {
			return fmt.Errorf("%s: more than %d *.json files", p, maxVectorFiles)
		}
		rel, err := filepath.Rel(p, path)
		if err != nil {
			return err
		}
		out = append(out, vectorFile{path: path, label: filepath.ToSlash(rel)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no *.json vector files in this directory", p)
	}
	slices.SortFunc(out, func(a, b vectorFile) int { return strings.Compare(a.label, b.label) })
	return out, nil
}
