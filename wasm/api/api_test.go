package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/wasm/session"
)

func TestCallRefusesWhatItCannotRun(t *testing.T) {
	a := New(session.NewDefault())
	cases := []struct {
		name, method, args, want string
	}{
		{"unknown method", "nosuch", "", "lbscope.nosuch: no such method"},
		{"argument not JSON", "setLang", "{zh", "lbscope.setLang: the argument is not JSON"},
		{"language not offered", "setLang", `"fr"`, `language "fr": want "en" or "zh"`},
		{"language of the wrong type", "setLang", `3`, `want a language`},
		{"argument too large", "setLang", `"` + strings.Repeat("x", MaxArgBytes) + `"`, "at most"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := a.Call(c.method, []byte(c.args))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Call(%q, %.40q) error = %v; want one containing %q", c.method, c.args, err, c.want)
			}
		})
	}
	if got := a.Lang(); got != "en" {
		t.Errorf("after refused calls the language is %q; want it unchanged, en", got)
	}
}

func TestSetLangChangesTheLanguageOfProse(t *testing.T) {
	a := New(session.NewDefault())
	out, err := a.Call("setLang", []byte(`"zh"`))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		OK   bool   `json:"ok"`
		Lang string `json:"lang"`
	}
	if err := json.Unmarshal(out, &res); err != nil || !res.OK || res.Lang != "zh" {
		t.Fatalf("setLang zh answered %s (%v)", out, err)
	}
	if a.Lang() != "zh" {
		t.Errorf("Lang() = %q after setLang zh", a.Lang())
	}
	// lbscope.lang() tells it, for the page's calls into the reader of pastes.
	if out, err := a.Call("lang", nil); err != nil || string(out) != `"zh"` {
		t.Errorf("lang() = %s (%v); want \"zh\"", out, err)
	}
	if _, err := a.Call("lang", []byte(`"en"`)); err == nil || !strings.Contains(err.Error(), "takes no argument") {
		t.Errorf("lang(\"en\"): %v; want it refused", err)
	}
}

func TestMethodsListsEveryRegisteredMethod(t *testing.T) {
	a := New(session.NewDefault())
	out, err := a.Call("methods", nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	if err := json.Unmarshal(out, &names); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"methods", "setLang"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("methods() = %v; missing %s", names, want)
		}
	}
}

func TestDecodeNamesAMisspeltOption(t *testing.T) {
	var v struct {
		FromMs int64 `json:"fromMs"`
	}
	err := decode(json.RawMessage(`{"from": 3}`), &v, "{fromMs}")
	if err == nil || !strings.Contains(err.Error(), `"from"`) {
		t.Fatalf("decode with a misspelt field: %v; want an error naming it", err)
	}
	if err := decode(json.RawMessage(`null`), &v, "{fromMs}"); err == nil || !strings.Contains(err.Error(), "{fromMs}") {
		t.Fatalf("decode(null): %v; want an error saying what is wanted", err)
	}
}

func TestDecodeSaysWhatCameInJavaScriptsWords(t *testing.T) {
	var v struct {
		FromMs *int64 `json:"fromMs"`
	}
	err := decode(json.RawMessage(`"x"`), &v, "{fromMs}")
	if err == nil || err.Error() != "got a string; want {fromMs}" {
		t.Errorf("a string for an object: %v", err)
	}
	err = decode(json.RawMessage(`{"fromMs": "soon"}`), &v, "{fromMs}")
	if err == nil || err.Error() != "fromMs is a string; want {fromMs}" {
		t.Errorf("a string for a number: %v", err)
	}
}
