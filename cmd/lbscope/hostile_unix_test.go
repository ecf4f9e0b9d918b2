//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// `yes | lbscope sim /dev/stdin`: a pipe that never ends is read up to the limit, then
// refused; the writer sees the pipe closed.
func TestScenarioFromAnEndlessPipeIsReadUpToTheLimit(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "yes")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		line := []byte(strings.Repeat("y\n", 4096))
		for {
			if _, err := w.Write(line); err != nil {
				return // EPIPE once the reader is gone
			}
		}
	}()
	_, errOut, status := lbscope(t, "", "sim", fifo)
	assert.Equal(t, 2, status)
	assert.Contains(t, errOut, "more than 1048576 bytes; a scenario file is at most 1048576 (1 MiB)")
	<-done
}
