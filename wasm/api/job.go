package api

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Job is a method's work that does not fit in one call: the page's thread must never be held
// longer than about 100 ms (session.MaxCallWork), so such a method (compare) returns a Job
// instead of its result, and the bridge runs it a slice at a time, each slice in its own task
// of the page's event loop, with frames drawn in between; lbscope.<name>(arg) then gives a
// Promise of the result. Call runs a job through at once (tests, native callers).
//
// The work runs on its own goroutine, handed the turn one slice at a time: Step gives it the
// turn and waits until it stops at the end of a slice (or finishes), so the job and its caller
// never run at the same time, on the page's single thread or natively.
type Job struct {
	name   string
	turn   chan bool     // a slice to run; true: stop instead
	yield  chan struct{} // the slice ran
	done   bool
	result any
	err    error
}

// errStopped ends a job's goroutine from inside the work (a panic caught by the job): the
// engine's run has no way out but finishing, and a cancelled comparison must not finish.
var errStopped = errors.New("cancelled")

// newJob starts work on its goroutine, waiting for the first turn. work calls pause at every
// point where a slice may end; pause returns when the next slice's turn comes.
func newJob(work func(pause func()) (any, error)) *Job {
	j := &Job{turn: make(chan bool), yield: make(chan struct{})}
	pause := func() {
		j.yield <- struct{}{}
		if <-j.turn {
			panic(errStopped)
		}
	}
	go func() {
		defer func() {
			if r := recover(); r != nil {
				if r == errStopped {
					j.err = errStopped
				} else {
					// A bug in the work: the job fails, the page goes on, no stack in the answer.
					j.err = fmt.Errorf("failed: %s", firstLine(fmt.Sprint(r)))
				}
			}
			j.done = true
			j.yield <- struct{}{}
		}()
		if <-j.turn {
			panic(errStopped)
		}
		j.result, j.err = work(pause)
	}()
	return j
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// Step runs one slice of the job and reports whether it is done. Not safe for concurrent use.
func (j *Job) Step() bool {
	if j.done {
		return true
	}
	j.turn <- false
	<-j.yield
	return j.done
}

// Stop ends the job where it is, without running further: its result is then the error
// errStopped says. A finished job stays as it finished.
func (j *Job) Stop() {
	if j.done {
		return
	}
	j.turn <- true
	<-j.yield
}

// Result is the finished job's answer as JSON, or its error naming the method.
func (j *Job) Result() ([]byte, error) {
	if !j.done {
		return nil, fmt.Errorf("lbscope.%s: not finished", j.name)
	}
	if j.err != nil {
		return nil, fmt.Errorf("lbscope.%s: %w", j.name, j.err)
	}
	out, err := json.Marshal(j.result)
	if err != nil {
		return nil, fmt.Errorf("lbscope.%s: %w", j.name, err)
	}
	return out, nil
}
