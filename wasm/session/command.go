package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
)

// Command is one playground command: the simulation's vocabulary (cluster.Command, whose
// fields it embeds) plus the playground's own commands and their arguments. Its JSON form is
// a flat object with a type and named fields:
//
//	{"type": "killConsumer", "id": "c2"}
//	{"type": "slowBroker", "broker": "broker-a", "latencyMs": 2000}
//	{"type": "step", "ms": 1000}
//	{"type": "setSpeed", "x": 10}
//	{"type": "seek", "ms": 60000}
//	{"type": "continue"}  (behind the horizon: discard everything after now and go on from here)
//	{"type": "load", "scenario": {"version": 1, …}}  or  {"type": "load", "preset": "large"}
//	{"type": "load", "link": "1.…"}  (a share link: its scenario, run to its moment, paused)
type Command struct {
	cluster.Command
	Ms       *int64          `json:"ms,omitempty"`       // step: virtual milliseconds
	X        *float64        `json:"x,omitempty"`        // setSpeed: virtual ms per wall ms
	Scenario json.RawMessage `json:"scenario,omitempty"` // load: a scenario file's JSON object
	Preset   string          `json:"preset,omitempty"`   // load: a preset's name instead
	Link     string          `json:"link,omitempty"`     // load: a share link ("1.…" or "#s=1.…") instead
}

// Playground command types, besides those of cluster.CommandTypes.
const (
	Pause    = "pause"
	Play     = "play"
	Step     = "step"
	SetSpeed = "setSpeed"
	Reset    = "reset"
	Load     = "load"
	Seek     = "seek"
	Continue = "continue"
)

// PlaygroundTypes lists the playground's own commands with their arguments, in the form of
// cluster.CommandTypes.
var PlaygroundTypes = map[string][]string{
	Pause:    {},
	Play:     {},
	Step:     {"ms"},
	SetSpeed: {"x"},
	Reset:    {},
	Load:     {"scenario|preset|link"},
	Seek:     {"ms"},
	Continue: {},
}

// Limits of the playground's own arguments.
const (
	MinSpeed  = 0.25
	MaxSpeed  = 100.0
	MaxStepMs = 3600 * 1000 // one virtual hour: the large preset takes seconds for it, in one frame
)

// MaxCommandBytes bounds one command's JSON: a scenario file (1 MiB) and its wrapping.
const MaxCommandBytes = 1<<20 + 4096

// Types returns every command type the playground accepts, sorted.
func Types() []string {
	names := slices.Collect(maps.Keys(cluster.CommandTypes))
	names = append(names, slices.Collect(maps.Keys(PlaygroundTypes))...)
	slices.Sort(names)
	return names
}

// Decode reads one command's JSON. Fields it does not know are errors (a misspelt field must
// not silently do nothing); whether the fields a type needs are present is checked when the
// command is applied.
func Decode(data []byte) (Command, error) {
	if len(data) > MaxCommandBytes {
		return Command{}, fmt.Errorf("command: %d bytes; the limit is %d", len(data), MaxCommandBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var cmd Command
	if err := dec.Decode(&cmd); err != nil {
		return Command{}, decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Command{}, errors.New("command: unexpected data after the JSON object")
	}
	if cmd.Type == "" {
		return Command{}, errors.New(`command: no type; want e.g. {"type": "killConsumer", "id": "c2"}`)
	}
	if !known(cmd.Type) {
		return Command{}, unknownType(cmd.Type)
	}
	return cmd, nil
}

func known(typ string) bool {
	_, sim := cluster.CommandTypes[typ]
	_, play := PlaygroundTypes[typ]
	return sim || play
}

func unknownType(typ string) error {
	return fmt.Errorf("unknown command %q (commands: %s)", typ, strings.Join(Types(), ", "))
}

func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return errors.New("command: empty; want a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("command: not valid JSON: it ends early")
	case errors.As(err, &syntax):
		return fmt.Errorf("command: not valid JSON at byte %d: %v", syntax.Offset, err)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Errorf("command: got a JSON %s; want an object", typ.Value)
		}
		return fmt.Errorf("command: %s: got a JSON %s; want %s", typ.Field, typ.Value, kind(typ.Type.String()))
	}
	msg := strings.TrimPrefix(err.Error(), "json: ")
	return fmt.Errorf("command: %s", msg)
}

func kind(goType string) string {
	goType = strings.TrimLeft(goType, "*")
	switch {
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "true or false"
	case strings.HasPrefix(goType, "int"):
		return "a whole number"
	case strings.HasPrefix(goType, "float"):
		return "a number"
	}
	return "an object"
}
