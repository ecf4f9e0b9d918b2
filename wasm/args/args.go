// Package args reads the one JSON argument of a page's call, for every Go program the page
// calls: the playground's API (wasm/api) and the reader of pastes (wasm/paste), so that both
// bound it alike and say what is wrong with it in the same words, JavaScript's.
package args

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxBytes bounds one call's JSON argument.
const MaxBytes = 1 << 20

// Check is a call's argument as a method reads it: "null" when there is none, an error
// naming lbscope.<name> when it is over MaxBytes or not JSON.
func Check(name string, arg []byte) (json.RawMessage, error) {
	if len(arg) > MaxBytes {
		return nil, fmt.Errorf("lbscope.%s: the argument is %d bytes; at most %d", name, len(arg), MaxBytes)
	}
	if len(arg) == 0 {
		return json.RawMessage("null"), nil
	}
	if !json.Valid(arg) {
		return nil, fmt.Errorf("lbscope.%s: the argument is not JSON", name)
	}
	return arg, nil
}

// Decode reads arg into v, refusing unknown fields so that a misspelt option is an error;
// want shows the argument the method takes.
func Decode(arg json.RawMessage, v any, want string) error {
	if string(arg) == "null" {
		return fmt.Errorf("needs an argument: %s", want)
	}
	dec := json.NewDecoder(strings.NewReader(string(arg)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			// Say what came in JavaScript's words, not the Go type it missed.
			if te.Field != "" {
				return fmt.Errorf("%s is a %s; want %s", te.Field, jsKind(te.Value), want)
			}
			return fmt.Errorf("got a %s; want %s", jsKind(te.Value), want)
		}
		return fmt.Errorf("%s; want %s", strings.TrimPrefix(err.Error(), "json: "), want)
	}
	return nil
}

// jsKind names a JSON value kind as a page's author knows it.
func jsKind(jsonKind string) string {
	switch {
	case jsonKind == "bool":
		return "boolean"
	case strings.HasPrefix(jsonKind, "number"): // "number", "number 1.5"
		return "number"
	}
	return jsonKind // object, array, string
}
