package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/conform"
)

const conformUsage = `Usage:
  lbscope conform PATH...

Checks the core against conformance vectors recorded from the real Java classes (files
or directories of *.json in the allocate, select, fault, hash and sort schemas; each
file's kind is recognised from its content). Prints a line per file, the first failures
in detail, and a total. Exit status: 0 all passed, 1 a case failed, 2 unreadable input.

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
	var files []string
	for _, p := range fs.Args() {
		found, err := vectorFiles(p)
		if err != nil {
			return fail(stderr, "conform", err)
		}
		files = append(files, found...)
	}
	passed, failed, unreadable := 0, 0, 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err == nil {
			var r conform.Result
			r, err = conform.Run(data)
			if err == nil {
				fmt.Fprintf(stdout, "%s: %d passed, %d failed\n", filepath.Base(name), r.Passed, r.Failed)
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

// vectorFiles expands a path: a file as itself, a directory as the *.json files directly in
// it, in name order.
func vectorFiles(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(p, e.Name()))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no *.json vector files in this directory", p)
	}
	slices.Sort(out)
	return out, nil
}
