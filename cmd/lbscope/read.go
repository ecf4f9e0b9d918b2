package main

import (
	"fmt"
	"io"
	"os"
)

// readLimited reads the file at path (a regular file, a pipe such as /dev/stdin, or a device)
// but never more than limit+1 bytes: a file's stat size says nothing about a pipe or
// /dev/zero, so the limit is enforced on what is read. what names the kind of file for the
// error ("a scenario file").
func readLimited(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAllLimited(f, path, limit, what)
}

// readAllLimited is readLimited for an open reader named name.
func readAllLimited(r io.Reader, name string, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes; %s is at most %d (%s)", name, limit, what, limit, mib(limit))
	}
	return data, nil
}

func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
