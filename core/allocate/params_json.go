package allocate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// plainParams is Params without its JSON methods: RocketMQ's strategies' parameters as
// encoding/json reads and writes struct fields.
type plainParams Params

// MarshalJSON writes the typed fields as encoding/json does, then Values' in key order.
func (p Params) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(plainParams(p))
	if err != nil || len(p.Values) == 0 {
		return b, err
	}
	var buf bytes.Buffer
	buf.Write(b[:len(b)-1])
	sep := len(b) > 2
	for _, k := range slices.Sorted(maps.Keys(p.Values)) {
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(p.Values[k])
		if err != nil {
			return nil, err
		}
		if sep {
			buf.WriteByte(',')
		}
		sep = true
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads the typed fields as encoding/json does, refusing unknown keys, and
// keeps in Values the keys that a strategy registered beyond RocketMQ's own declares.
func (p *Params) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return &json.UnmarshalTypeError{Value: jsonKindOf(b), Type: reflect.TypeFor[Params]()}
	}
	values := map[string]any{}
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		if IsField(k) {
			continue
		}
		if !Declared(k) {
			return fmt.Errorf("json: unknown field %q", k)
		}
		var v any
		if err := json.Unmarshal(raw[k], &v); err != nil {
			return err
		}
		values[k] = v
		delete(raw, k)
	}
	rest, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(rest))
	dec.DisallowUnknownFields()
	var q plainParams
	if err := dec.Decode(&q); err != nil {
		return err
	}
	*p = Params(q)
	if len(values) > 0 {
		p.Values = values
	}
	return nil
}

// IsField says whether key names one of Params' typed fields (case-insensitively, as
// encoding/json matches them).
func IsField(key string) bool {
	t := reflect.TypeFor[plainParams]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && strings.EqualFold(name, key) {
			return true
		}
	}
	return false
}

// Declared says whether a registered strategy has a parameter called key that Params has no
// field for: one that Values carries.
func Declared(key string) bool {
	return !IsField(key) && slices.ContainsFunc(AllParams(), func(p ParamSpec) bool { return p.Name == key })
}

func jsonKindOf(b []byte) string {
	switch b := bytes.TrimSpace(b); {
	case len(b) == 0:
		return "nothing"
	case b[0] == '[':
		return "array"
	case b[0] == '"':
		return "string"
	case b[0] == 't' || b[0] == 'f':
		return "bool"
	}
	return "number"
}
