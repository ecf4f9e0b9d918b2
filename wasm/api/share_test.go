package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

// share() is a link that opens at the same moment; presets() every preset by name.
func TestShareAndPresetsMethods(t *testing.T) {
	s := session.NewDefault()
	a := New(s)
	cmd, _ := session.Decode([]byte(`{"type":"step","ms":4000}`))
	s.Enqueue(cmd)
	s.Tick(0)
	out, err := a.Call("share", nil)
	if err != nil {
		t.Fatal(err)
	}
	var link string
	if err := json.Unmarshal(out, &link); err != nil || !strings.HasPrefix(link, "#s=1.") {
		t.Fatalf("share() = %s (%v); want \"#s=1.…\"", out, err)
	}
	b := session.NewDefault()
	if err := b.OpenLink(link); err != nil {
		t.Fatal(err)
	}
	if got := b.State().TimeMs; got != 4000 {
		t.Errorf("the link opens at %d ms; want 4000", got)
	}
	if _, err := a.Call("share", []byte(`1`)); err == nil || !strings.Contains(err.Error(), "lbscope.share: takes no argument") {
		t.Errorf("share(1): %v; want it to take no argument", err)
	}

	out, err = a.Call("presets", nil)
	if err != nil {
		t.Fatal(err)
	}
	var presets map[string]struct {
		Title string `json:"title"`
	}
	if err := json.Unmarshal(out, &presets); err != nil || len(presets) != len(scenario.PresetNames()) ||
		presets["small"].Title == "" || presets["default"].Title == "" || presets["large"].Title == "" {
		t.Errorf("presets() has %d: %v (%v); want every preset, small, default and large among them", len(presets), presets, err)
	}
}
