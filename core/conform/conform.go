package conform

import (
	"encoding/json"
	"errors"
	"fmt"
)

// MaxFailures is how many failures a Result keeps in detail; the counts are always complete.
const MaxFailures = 5

// Failure is one case that did not reproduce the recorded result.
type Failure struct {
	ID   string // the case id (or a description where the file has none)
	Want string
	Got  string
}

// Result is what one vector file produced.
type Result struct {
	Kind     string // allocate, select, fault, hash or sort
	Passed   int
	Failed   int
	Failures []Failure // the first MaxFailures failures
}

func (r *Result) pass() { r.Passed++ }

func (r *Result) fail(id, want, got string) {
	r.Failed++
	if len(r.Failures) < MaxFailures {
		r.Failures = append(r.Failures, Failure{ID: id, Want: want, Got: got})
	}
}

// check counts one case: passed when want == got.
func (r *Result) check(id, want, got string) {
	if want == got {
		r.pass()
	} else {
		r.fail(id, want, got)
	}
}

// ErrUnknownKind means the JSON was read but matches none of the vector schemas.
var ErrUnknownKind = errors.New("not a conformance vector file: no top-level \"cases\" (allocate, select, sort), \"sweep\"/\"sequences\" (fault) or \"hashes\" (hash)")

// Kind recognises a vector file from its content, not its name.
func Kind(data []byte) (string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return "", fmt.Errorf("not valid JSON: %w", err)
	}
	switch {
	case top["hashes"] != nil || top["ringExample"] != nil:
		return "hash", nil
	case top["sweep"] != nil || top["sequences"] != nil:
		return "fault", nil
	case top["cases"] != nil:
		var cases []map[string]json.RawMessage
		if err := json.Unmarshal(top["cases"], &cases); err != nil {
			return "", fmt.Errorf("\"cases\" is not a list of objects: %w", err)
		}
		if len(cases) == 0 {
			return "", errors.New("\"cases\" is empty: cannot tell which kind of vectors this is")
		}
		c := cases[0]
		switch {
		case c["strategy"] != nil:
			return "allocate", nil
		case c["steps"] != nil:
			return "select", nil
		case c["kind"] != nil && c["sorted"] != nil:
			return "sort", nil
		}
	}
	return "", ErrUnknownKind
}

// Run checks every case of one vector file. An error means the file could not be read as
// vectors at all (bad JSON, unknown kind, a malformed case); failing cases are not errors.
func Run(data []byte) (Result, error) {
	kind, err := Kind(data)
	if err != nil {
		return Result{}, err
	}
	var r Result
	switch kind {
	case "allocate":
		r, err = runAllocate(data)
	case "select":
		r, err = runSelect(data)
	case "fault":
		r, err = runFault(data)
	case "hash":
		r, err = runHash(data)
	case "sort":
		r, err = runSort(data)
	}
	r.Kind = kind
	return r, err
}
