package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
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
	// Parsed is load's scenario when a Go caller has it already (a lesson's): it is checked
	// like a file, without a trip through JSON. No page can set it.
	Parsed *scenario.Scenario `json:"-"`
}

// Playground command types, besides the engine's (cluster.Commands).
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

// Limits of the playground's own arguments.
const (
	MinSpeed  = 0.25
	MaxSpeed  = 100.0
	MaxStepMs = 3600 * 1000 // one virtual hour: the large preset takes seconds for it, in one frame
)

// Speeds are the speed steps the page's controls and keys move through (virtual ms per wall
// ms), MinSpeed to MaxSpeed.
var Speeds = []float64{0.25, 0.5, 1, 2, 5, 10, 20, 50, 100}

// The playground's own commands, in the command table's shape (cluster.TargetSession): the
// page's commands() lists them with the engine's.
func init() {
	w := func(enLabel, enDesc, zhLabel, zhDesc string) map[string]cluster.Words {
		return map[string]cluster.Words{"en": {Label: enLabel, Description: enDesc}, "zh": {Label: zhLabel, Description: zhDesc}}
	}
	ms := func(name string, hi int64, ex string) cluster.Arg {
		zero, top := 0, int(hi)
		return cluster.Arg{Name: name, Type: cluster.ArgInt, Unit: "ms", Min: &zero, Max: &top, Example: ex}
	}
	for _, s := range []cluster.CommandSpec{
		{Name: Pause, Words: w("Pause", "Pauses the simulation.", "暂停", "暂停模拟。")},
		{Name: Play, Words: w("Play", "Plays the simulation at the chosen speed.", "播放", "按所选速度播放模拟。")},
		{Name: Step, Args: []cluster.Arg{ms("ms", MaxStepMs, "1000")},
			Words: w("Step", "Advances the paused simulation by ms virtual milliseconds.", "单步", "将暂停的模拟前进 ms 虚拟毫秒。")},
		{Name: SetSpeed, Args: []cluster.Arg{{Name: "x", Type: cluster.ArgNumber, Unit: "×", Example: "10", Default: 1.0}},
			Words: w("Speed", "Sets the speed: virtual milliseconds per wall millisecond, 0.25…100.", "速度", "设置速度：每个真实毫秒对应的虚拟毫秒数，0.25…100。")},
		{Name: Seek, Args: []cluster.Arg{ms("ms", scenario.MaxDuration.Ms(), "60000")},
			Words: w("Seek", "Moves the timeline to a moment; the state is rebuilt exactly.", "跳转", "把时间线移到某一时刻，精确重建当时的状态。")},
		{Name: Continue, Words: w("Continue from here", "Discards everything after now and goes on from here.", "从此处继续", "丢弃此刻之后的一切，从这里继续。")},
		{Name: Reset, Words: w("Reset", "Starts the scenario again from 00:00.", "重置", "从 00:00 重新开始场景。")},
		{Name: Load, Args: []cluster.Arg{{Name: "scenario|preset|link", Type: cluster.ArgObject}},
			Words: w("Load", "Loads a scenario file's object, a preset by name or a share link.", "加载", "加载场景文件对象、按名称加载预设或分享链接。")},
	} {
		s.Target = cluster.TargetSession
		cluster.Register(s)
	}
}

// MaxCommandBytes bounds one command's JSON: a scenario file (1 MiB) and its wrapping.
const MaxCommandBytes = 1<<20 + 4096

// Types returns every command type the playground accepts, sorted.
func Types() []string {
	var names []string
	for _, s := range cluster.AllCommands() {
		names = append(names, s.Name)
	}
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
	_, ok := cluster.Lookup(typ)
	return ok
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
