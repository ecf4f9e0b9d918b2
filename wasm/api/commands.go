package api

import (
	"encoding/json"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/words"
)

// commandJSON is one entry of the command table as lbscope.commands() gives it.
type commandJSON struct {
	*cluster.CommandSpec
	From    []string      `json:"from"`
	Args    []cluster.Arg `json:"args"`
	Example string        `json:"example"`
	Session bool          `json:"session"` // the playground's own (pause, seek, …): not in scenario files
	// Fill says that the playground fills in the required arguments the page leaves out
	// (addConsumer's free c<N> id, the table's Fill hook).
	Fill bool `json:"fill"`
}

// Commands is the whole command table in the page's shape:
//
//	lbscope.commands() → [{name, target, from: [statuses], args: [{name, type, unit, min, max,
//	                       optional, default, enum, choices, example}], words: {en: {label,
//	                       description, done}, zh: {…}}, example: "30s:killConsumer:c1",
//	                       menu, session, fill}, …]
//
// in the table's order: the engine's commands, then the playground's.
func Commands() []commandJSON {
	var out []commandJSON
	for _, s := range cluster.AllCommands() {
		c := commandJSON{CommandSpec: s, From: s.From, Args: s.Args, Session: s.Target == cluster.TargetSession, Fill: s.Fill != nil}
		if c.From == nil {
			c.From = []string{}
		}
		if c.Args == nil {
			c.Args = []cluster.Arg{}
		}
		if !c.Session {
			c.Example = s.Example()
		}
		out = append(out, c)
	}
	return out
}

func init() {
	register("commands", func(a *API, _ json.RawMessage) (any, error) {
		return Commands(), nil
	})
	// lbscope.words() → {en: {"status.alive": "alive", "command.killConsumer": "Kill", …}, zh: {…}}:
	// the names of statuses and commands, which the page's dictionary takes as they are.
	register("words", func(a *API, _ json.RawMessage) (any, error) {
		return Words(), nil
	})
	// lbscope.speeds() → [0.25, 0.5, 1, …, 100]: the speed steps of the page's controls.
	register("speeds", func(a *API, _ json.RawMessage) (any, error) {
		return session.Speeds, nil
	})
}

// Words are the names every reader shares, by language: "status.<status>" for consumer
// statuses and "command.<name>" for the command table's labels, from the one dictionary
// (package words).
func Words() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, lang := range Langs {
		out[lang] = words.Lang(lang, "status.", "command.")
	}
	return out
}
