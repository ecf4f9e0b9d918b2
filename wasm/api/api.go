// Package api is the playground's JS API beyond dispatch, state and on: named methods that take
// one JSON argument and return JSON. The browser's bridge exposes every registered method as
// lbscope.<name>(arg) without knowing any of them, so each method lives (and is tested
// natively) here, next to the feature it serves.
//
// A method runs on the page's goroutine while the game loop ticks the session on another: it
// reads the session's published state or enqueues commands, and guards its own state with the
// API's mutex. Frame is the game loop's side: once per frame it hands the API the session's new
// events.
package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/lbscope/lbscope/wasm/args"
	"github.com/lbscope/lbscope/wasm/session"
)

// MaxArgBytes bounds one call's JSON argument.
const MaxArgBytes = args.MaxBytes

// API is the method set of one playground page.
type API struct {
	Sess *session.Session

	mu sync.Mutex

	lessons lessonState // lessons.go
	cmp     *comparing  // compare.go: the comparison running, if any
	narr    narrState   // narration.go
	out     outState    // frame.go
}

// method is one registered method: args is the caller's JSON argument ("null" when none).
type method func(a *API, args json.RawMessage) (any, error)

var methods = map[string]method{}

// register adds a method; called from init in the files that implement them.
func register(name string, m method) {
	if _, dup := methods[name]; dup {
		panic("api: method " + name + " registered twice")
	}
	methods[name] = m
}

// rawJSON is a method's answer already in JSON, handed out as it is.
type rawJSON []byte

// sliced marks the methods that answer with a Job (registerJob): in the page they always give
// a Promise, of their result or of their {error}.
var sliced = map[string]bool{}

// registerJob adds a method whose work runs as a Job.
func registerJob(name string, m method) {
	register(name, m)
	sliced[name] = true
}

// Sliced reports whether method name runs as a Job, so that the page gets a Promise from it.
func Sliced(name string) bool { return sliced[name] }

// New builds the API of a page whose session is s, in English.
func New(s *session.Session) *API {
	return &API{Sess: s}
}

// Names lists the registered methods, sorted.
func Names() []string {
	names := slices.Collect(maps.Keys(methods))
	slices.Sort(names)
	return names
}

// Call runs method name with args (JSON; empty means null) and returns its result as JSON.
// Errors name the method and say what was wrong with the argument. A method that answers
// with a Job (compare) is run through before Call returns.
func (a *API) Call(name string, args []byte) ([]byte, error) {
	out, job, err := a.Start(name, args)
	if job != nil {
		for !job.Step() {
		}
		return job.Result()
	}
	return out, err
}

// Start is Call for the page's bridge: a method that answers with a Job returns it, unrun,
// for the bridge to run a slice at a time (and out is nil).
func (a *API) Start(name string, arg []byte) (out []byte, job *Job, err error) {
	m, ok := methods[name]
	if !ok {
		return nil, nil, fmt.Errorf("lbscope.%s: no such method (methods: %s)", name, strings.Join(Names(), ", "))
	}
	raw, err := args.Check(name, arg)
	if err != nil {
		return nil, nil, err
	}
	v, err := m(a, raw)
	if err != nil {
		return nil, nil, fmt.Errorf("lbscope.%s: %w", name, err)
	}
	if j, ok := v.(*Job); ok {
		j.name = name
		return nil, j, nil
	}
	if raw, ok := v.(rawJSON); ok {
		return raw, nil, nil
	}
	out, err = json.Marshal(v)
	if err != nil {
		return nil, nil, fmt.Errorf("lbscope.%s: %w", name, err)
	}
	return out, nil, nil
}

// Note is something the API tells the page after a frame: Kind is an event name listeners
// subscribe to with lbscope.on (e.g. "narration", "lesson").
type Note struct {
	Kind string `json:"kind"`
	T    int64  `json:"t"`
	Text string `json:"text"`
}

// Lang is the language the page chose ("en" or "zh"), which the session keeps.
func (a *API) Lang() string { return a.Sess.Lang() }

// Langs are the languages of the playground's prose.
var Langs = session.Langs

func init() {
	register("setLang", func(a *API, args json.RawMessage) (any, error) {
		var lang string
		if err := json.Unmarshal(args, &lang); err != nil {
			return nil, fmt.Errorf(`want a language, "en" or "zh"`)
		}
		if err := a.Sess.SetLang(lang); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "lang": lang}, nil
	})
	// lbscope.lang() → "en" or "zh", the language setLang last chose: the page's calls into
	// its other wasms (the reader of pastes) carry it.
	register("lang", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		return a.Lang(), nil
	})
	register("methods", func(a *API, _ json.RawMessage) (any, error) {
		return Names(), nil
	})
}

// decode reads args into v, refusing unknown fields so that a misspelt option is an error.
func decode(arg json.RawMessage, v any, want string) error { return args.Decode(arg, v, want) }

func init() {
	register("state", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		return a.Sess.State(), nil
	})
}
