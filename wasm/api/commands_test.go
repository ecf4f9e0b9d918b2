package api

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

type commandOut struct {
	Name   string   `json:"name"`
	Target string   `json:"target"`
	From   []string `json:"from"`
	Args   []struct {
		Name     string   `json:"name"`
		Type     string   `json:"type"`
		Min      *int     `json:"min"`
		Max      *int     `json:"max"`
		Optional bool     `json:"optional"`
		Enum     []string `json:"enum"`
	} `json:"args"`
	Words   map[string]struct{ Label, Description string } `json:"words"`
	Example string                                         `json:"example"`
	Menu    bool                                           `json:"menu"`
	Session bool                                           `json:"session"`
}

func commandsOf(t *testing.T) map[string]commandOut {
	t.Helper()
	out, err := New(session.NewDefault()).Call("commands", nil)
	if err != nil {
		t.Fatal(err)
	}
	var list []commandOut
	if err := json.Unmarshal(out, &list); err != nil {
		t.Fatal(err)
	}
	m := map[string]commandOut{}
	for _, c := range list {
		m[c.Name] = c
	}
	return m
}

// commands() gives the page every command, the engine's and the playground's, with what the
// panel builds its buttons from: target, statuses, arguments and their limits, words in both
// languages.
func TestCommandsGivesTheTable(t *testing.T) {
	m := commandsOf(t)
	for _, name := range append(cluster.CommandNames(), session.Pause, session.Seek, session.Load, session.SetSpeed) {
		c, ok := m[name]
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		for _, lang := range []string{"en", "zh"} {
			if c.Words[lang].Label == "" || c.Words[lang].Description == "" {
				t.Errorf("%s: no %s words", name, lang)
			}
		}
		if c.From == nil || c.Args == nil {
			t.Errorf("%s: from or args null", name)
		}
		if !c.Session && c.Example == "" {
			t.Errorf("%s: no example", name)
		}
	}
	k := m["killConsumer"]
	if k.Target != "consumer" || !k.Menu || !slices.Contains(k.From, cluster.StatusHung) || slices.Contains(k.From, cluster.StatusKilled) {
		t.Errorf("killConsumer %+v", k)
	}
	if r := m["addConsumer"].Args[1]; r.Name != "consumeRate" || !r.Optional || *r.Max != cluster.MaxConsumeRate {
		t.Errorf("addConsumer's consumeRate %+v", r)
	}
	if !m[session.Pause].Session || m["killConsumer"].Session {
		t.Error("session flags")
	}
}

// A command registered in the table alone appears in commands().
func TestCommandsShowsATestEntry(t *testing.T) {
	cluster.Register(cluster.CommandSpec{Name: "testPoke", Target: cluster.TargetConsumer, From: []string{cluster.StatusAlive}, Menu: true,
		Args:     []cluster.Arg{{Name: "id", Type: cluster.ArgString, Charset: &cluster.ClientIDName, Example: "c1"}},
		Apply:    func(c *cluster.Cluster, cmd cluster.Command) error { return nil },
		Describe: func(cmd cluster.Command) string { return cmd.ID + " is poked" },
		Words: map[string]cluster.Words{
			"en": {Label: "Poke", Description: "Pokes a consumer."},
			"zh": {Label: "戳", Description: "戳一下消费者。"},
		},
	})
	defer cluster.Unregister("testPoke")
	c, ok := commandsOf(t)["testPoke"]
	if !ok || c.Words["zh"].Label != "戳" || c.Example != "30s:testPoke:c1" || !c.Menu {
		t.Errorf("testPoke %+v", c)
	}
}

func TestSpeeds(t *testing.T) {
	out, err := New(session.NewDefault()).Call("speeds", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) < 2 || got[0] != session.MinSpeed || got[len(got)-1] != session.MaxSpeed || !slices.IsSorted(got) {
		t.Errorf("speeds %v", got)
	}
}

// words() names statuses as the canvas does, and commands as the table does.
func TestWordsAreTheSharedNames(t *testing.T) {
	out, err := New(session.NewDefault()).Call("words", nil)
	if err != nil {
		t.Fatal(err)
	}
	var w map[string]map[string]string
	if err := json.Unmarshal(out, &w); err != nil {
		t.Fatal(err)
	}
	if w["zh"]["status.partitioned"] != view.StatusTextIn(view.ZH, cluster.StatusPartitioned) || w["zh"]["status.hung"] != "卡住" {
		t.Errorf("statuses %v", w["zh"])
	}
	spec, _ := cluster.Lookup("stopConsumer")
	if w["zh"]["command.stopConsumer"] != spec.Words["zh"].Label || w["en"]["command.pause"] != "Pause" {
		t.Errorf("commands %v", w)
	}
}
