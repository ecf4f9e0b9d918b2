package conform

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/lbscope/lbscope/core/profile"
	"github.com/lbscope/lbscope/core/profile/goclient"
)

// MaxFileSize is the largest vector file Run accepts; a reader should read at most
// MaxFileSize+1 bytes and refuse a file that fills them.
const MaxFileSize = 32 << 20

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
	Kind     string // allocate, select, fault, hash, sort or publish
	Profile  string // the client profile the file was checked against (profile.Name)
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
var ErrUnknownKind = errors.New("not a conformance vector file: no top-level \"cases\" (allocate, select, sort, publish), \"sweep\"/\"sequences\" (fault) or \"hashes\" (hash)")

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
		case c["publishList"] != nil:
			return "publish", nil
		}
	}
	return "", ErrUnknownKind
}

// Options are what a driver injects into Run.
type Options struct {
	// GoRandom returns the random source of a Go random selector seeded with seed — in
	// the client rand.New(rand.NewSource(seed)) of math/rand, which the core does not import.
	// Without it, cases that draw from a Go random selector are reported as failures.
	GoRandom func(seed int64) goclient.IntnSource
}

// Run checks every case of one vector file against the profile of its "client" field (the
// current Java client when there is none). An error means the file could not be read as
// vectors at all (too large, bad JSON, unknown kind or client, a malformed or oversized
// case); failing cases are not errors.
func Run(data []byte) (Result, error) { return RunWith(data, Options{}) }

// RunWith is Run with injected sources.
func RunWith(data []byte, opts Options) (Result, error) {
	if len(data) > MaxFileSize {
		return Result{}, fmt.Errorf("larger than %d MiB: not a vector file this tool reads", MaxFileSize>>20)
	}
	kind, err := Kind(data)
	if err != nil {
		return Result{}, err
	}
	p, err := fileProfile(data)
	if err != nil {
		return Result{}, err
	}
	var r Result
	switch p.Name {
	case profile.Go212:
		switch kind {
		case "allocate":
			r, err = runGoAllocate(data, p)
		case "select":
			r, err = runGoSelect(data, opts)
		case "publish":
			r, err = runGoPublish(data)
		default:
			err = fmt.Errorf("no %s vectors are defined for %s", kind, p.Name)
		}
	case profile.Java49:
		switch kind {
		case "select":
			r, err = runJava49Select(data)
		case "fault":
			r, err = runJava49Fault(data)
		default:
			err = fmt.Errorf("no %s vectors are defined for %s (its allocation is the current client's)", kind, p.Name)
		}
	default:
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
		default:
			err = fmt.Errorf("no %s vectors are defined for the current Java client", kind)
		}
	}
	r.Kind, r.Profile = kind, string(p.Name)
	return r, err
}

// fileProfile is the profile named by the file's top-level "client" field; none is the
// current Java client.
func fileProfile(data []byte) (*profile.Profile, error) {
	var top struct {
		Client *string `json:"client"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if top.Client == nil {
		return profile.Lookup(string(profile.Java))
	}
	p, ok := profile.ByVectorClient(*top.Client)
	if !ok {
		return nil, fmt.Errorf("\"client\": %.80q is no client profile this tool knows (rocketmq-client-go/v2@v2.1.2, rocketmq-java@4.9.8, or no field for the current Java client)", *top.Client)
	}
	return p, nil
}
