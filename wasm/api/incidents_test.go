package api

import (
	"encoding/json"
	"testing"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

// incidents() lists every incident of the registry with its citations, and each loads by
// its name as a preset.
func TestIncidentsMethod(t *testing.T) {
	a := New(session.NewDefault())
	var got []incidentJSON
	if err := json.Unmarshal(call(t, a, "incidents", "null"), &got); err != nil {
		t.Fatal(err)
	}
	reg := scenario.Registry()
	if len(got) != len(reg) {
		t.Fatalf("%d incidents; the registry holds %d", len(got), len(reg))
	}
	for i, inc := range reg {
		g := got[i]
		if g.Name != inc.Name || g.Title != inc.Title || g.Text != inc.Text || len(g.Cites) != len(inc.Cites) ||
			g.Cites[0].Label != inc.Cites[0].Label() || g.Cites[0].URL != inc.Cites[0].URL() {
			t.Errorf("incident %d: %+v; want %s with its texts and citations", i, g, inc.Name)
		}
		dispatchCmd(t, a, `{"type":"load","preset":"`+g.Name+`"}`)
		frames(a, 3, 16)
		if title := a.Sess.State().Title; title != inc.Title.En {
			t.Errorf("after loading %s the scenario is %q", g.Name, title)
		}
	}
	if _, err := a.Call("incidents", json.RawMessage(`{"x":1}`)); err == nil {
		t.Error("incidents({x: 1}) accepted")
	}
}
