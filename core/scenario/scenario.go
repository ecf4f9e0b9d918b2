package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/lbscope/lbscope/core/allocate"
	"github.com/lbscope/lbscope/core/cluster"
)

// Version is the scenario format of a cluster with one topic and one group, which this package
// writes for them; Version2 adds several topics and groups (topics, groups, consumers[].groups,
// producers[].topic and tags, subscriptions' tags). This package reads both.
const (
	Version  = 1
	Version2 = 2
)

// MaxBytes bounds a scenario file.
const MaxBytes = 1 << 20

// Scenario is a cluster's initial state and a timeline of actions on it. Its JSON form is
// flat: the fields of cluster.Config sit beside version, title, until and timeline.
type Scenario struct {
	Version        int    `json:"version"`
	Title          string `json:"title,omitempty"`
	Description    string `json:"description,omitempty"`
	cluster.Config        // seed, topic, group, brokers, consumers, producers, strategy, …
	// Until is when the run ends; zero means DefaultUntil.
	Until    Duration `json:"until,omitempty"`
	Timeline []Step   `json:"timeline,omitempty"`
	// Observed is a history read from the group's logs, held beside the simulation of the
	// same timeline (observed.go); nil: none.
	Observed *Observed `json:"observed,omitempty"`
}

// Step is one action of the timeline at a virtual time. Its JSON form is flat:
// {"at": "60s", "type": "killConsumer", "id": "c1"}.
type Step struct {
	At              Duration `json:"at"`
	cluster.Command          // type and the arguments cluster.CommandTypes lists for it
}

// End is the time the run stops: Until, or DefaultUntil when Until is zero.
func (s Scenario) End() Duration {
	if s.Until == 0 {
		return DefaultUntil
	}
	return s.Until
}

// Parse reads a scenario file and validates it. Fields it does not know are errors, so that a
// misspelt field cannot silently do nothing. A missing until becomes DefaultUntil.
func Parse(data []byte) (Scenario, error) {
	if len(data) > MaxBytes {
		return Scenario{}, fmt.Errorf("scenario: %d bytes; the limit is %d (1 MiB)", len(data), MaxBytes)
	}
	// A generic pass over the document against the Go types, so that every error carries the
	// path of the field it is about (encoding/json names unknown fields without their path).
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return Scenario{}, jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Scenario{}, errors.New("scenario: unexpected data after the JSON object")
	}
	obj, ok := doc.(map[string]any)
	if !ok {
		return Scenario{}, fmt.Errorf("scenario: got a JSON %s; want an object", jsonValueKind(doc))
	}
	// The version comes first: a newer file's unknown fields are better explained by it.
	if err := checkVersionJSON(obj["version"]); err != nil {
		return Scenario{}, err
	}
	if err := checkSchema("", doc, reflect.TypeFor[Scenario]()); err != nil {
		return Scenario{}, err
	}

	var s Scenario
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Scenario{}, jsonError(err)
	}
	if s.Until == 0 {
		s.Until = DefaultUntil
	}
	if err := s.Validate(); err != nil {
		return Scenario{}, err
	}
	return s, nil
}

// Marshal writes s as an indented scenario file that Parse reads back.
func (s Scenario) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

func checkVersionJSON(raw any) error {
	if raw == nil {
		return fmt.Errorf("version: missing; this LBScope reads \"version\": %d or %d", Version, Version2)
	}
	n, ok := raw.(json.Number)
	v, err := strconv.Atoi(string(n))
	if !ok || err != nil {
		b, _ := json.Marshal(raw)
		return fmt.Errorf("version: %s; want %d or %d", b, Version, Version2)
	}
	return checkVersion(v)
}

func checkVersion(v int) error {
	switch {
	case v == Version || v == Version2:
		return nil
	case v > Version2:
		return fmt.Errorf("scenario version %d is newer than this LBScope understands (%d)", v, Version2)
	case v == 0:
		return fmt.Errorf("version: 0 is not a version this LBScope reads; want \"version\": %d or %d", Version, Version2)
	}
	return fmt.Errorf("version: %d; want %d or %d", v, Version, Version2)
}

// NeedsVersion2 names the first setting of c that format 1 lacks ("" when there is none): a
// file with one says "version": 2.
func NeedsVersion2(c cluster.Config) string {
	switch {
	case len(c.Topics) > 0:
		return "topics"
	case len(c.Groups) > 0:
		return "groups"
	}
	for i, k := range c.Consumers {
		switch {
		case len(k.Groups) > 0:
			return fmt.Sprintf("consumers[%d].groups", i)
		case k.Subscription != nil && len(k.Subscription.Tags) > 0:
			return fmt.Sprintf("consumers[%d].subscription.tags", i)
		}
	}
	for i, p := range c.Producers {
		switch {
		case p.Topic != "":
			return fmt.Sprintf("producers[%d].topic", i)
		case len(p.Tags) > 0:
			return fmt.Sprintf("producers[%d].tags", i)
		}
	}
	return ""
}

// jsonError rewords encoding/json's errors to name a field path first where it has one.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("scenario: empty; want a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("scenario: not valid JSON: it ends early")
	case errors.As(err, &syntax):
		return fmt.Errorf("scenario: not valid JSON at byte %d: %v", syntax.Offset, err)
	case errors.As(err, &typ):
		return fmt.Errorf("%s: got a JSON %s; want %s", orTop(typ.Field), typ.Value, jsonKind(typ.Type))
	}
	return fmt.Errorf("scenario: %v", err)
}

var (
	durationType    = reflect.TypeFor[Duration]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	paramsType      = reflect.TypeFor[allocate.Params]()
	choiceType      = reflect.TypeFor[allocate.Choice]()
	// choiceFields is a Choice's object form, without its own JSON methods.
	choiceFields = reflect.TypeFor[struct {
		Name   string `json:"name"`
		Source string `json:"source"`
		Steps  int    `json:"steps"`
	}]()
)

// checkSchema walks a document decoded with UseNumber alongside the Go type it will be decoded
// into, and reports the first unknown field, wrongly typed value, out-of-range integer or bad
// duration with its path. Object keys are visited in sorted order so the first error is stable.
func checkSchema(path string, v any, t reflect.Type) error {
	if v == nil {
		return nil // null leaves a field unset, as encoding/json does
	}
	if t == durationType {
		raw, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("%s: %v", orTop(path), err)
		}
		if _, err := durationFromJSON(raw); err != nil {
			return fmt.Errorf("%s: %v", orTop(path), err)
		}
		return nil
	}
	if t == choiceType {
		// A strategy: its name, or {"name", "source"}.
		if _, ok := v.(string); ok {
			return nil
		}
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("%s: got a JSON %s; want a strategy's name, or an object {\"name\", \"source\"}", orTop(path), jsonValueKind(v))
		}
		return checkSchema(path, v, choiceFields)
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) && t != paramsType {
		return nil // a type with its own JSON form checks itself
	}
	switch t.Kind() {
	case reflect.Pointer:
		return checkSchema(path, v, t.Elem())
	case reflect.Interface:
		return nil
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return typeMismatch(path, v, t)
		}
		fields := jsonFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			ft, ok := fields[k]
			if !ok && t == paramsType && allocate.Declared(k) {
				continue // a registered strategy's own parameter: CheckParams checks it
			}
			if !ok {
				return unknownField(path, k, fields)
			}
			if err := checkSchema(join(path, k), obj[k], ft); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return typeMismatch(path, v, t)
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if err := checkSchema(join(path, k), obj[k], t.Elem()); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		arr, ok := v.([]any)
		if !ok {
			return typeMismatch(path, v, t)
		}
		for i, e := range arr {
			if err := checkSchema(path+"["+strconv.Itoa(i)+"]", e, t.Elem()); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		if _, ok := v.(string); !ok {
			return typeMismatch(path, v, t)
		}
		return nil
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return typeMismatch(path, v, t)
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return typeMismatch(path, v, t)
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return fmt.Errorf("%s: %s; want a whole number that fits %d bits", orTop(path), n, t.Bits())
		}
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return typeMismatch(path, v, t)
		}
		if _, err := strconv.ParseUint(string(n), 10, t.Bits()); err != nil {
			return fmt.Errorf("%s: %s; want a whole number 0 or more that fits %d bits", orTop(path), n, t.Bits())
		}
		return nil
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return typeMismatch(path, v, t)
		}
		return nil
	}
	return nil
}

// jsonFields maps the JSON names of t's fields, embedded structs' fields included, to their
// types, following encoding/json's rules for tags and embedding (the shallower field wins).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	depth := map[string]int{}
	var walk func(t reflect.Type, d int)
	walk = func(t reflect.Type, d int) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, d+1)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if old, ok := depth[name]; ok && old <= d {
				continue
			}
			out[name], depth[name] = f.Type, d
		}
	}
	walk(t, 0)
	return out
}

func unknownField(path, key string, fields map[string]reflect.Type) error {
	msg := fmt.Sprintf("%s: unknown field %q", orTop(path), key)
	if path == "" {
		msg = fmt.Sprintf("unknown field %q", key)
	}
	if near := nearest(key, slices.Sorted(maps.Keys(fields))); near != "" {
		msg += fmt.Sprintf("; did you mean %q?", near)
	}
	return errors.New(msg)
}

func typeMismatch(path string, v any, t reflect.Type) error {
	return fmt.Errorf("%s: got a JSON %s; want %s", orTop(path), jsonValueKind(v), jsonKind(t))
}

func jsonValueKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "value"
}

func jsonKind(t reflect.Type) string {
	if t == durationType {
		return `a duration like "90s" or a number of milliseconds`
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func orTop(path string) string {
	if path == "" {
		return "scenario"
	}
	return path
}

// nearest returns the candidate closest to s (case-insensitive edit distance at most 2), or "".
func nearest(s string, candidates []string) string { return cluster.Nearest(s, candidates) }
