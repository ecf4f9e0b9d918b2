package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

func fixtureText(t *testing.T, prefix string) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../testdata/admin/" + prefix + "-*.txt")
	if err != nil || len(files) != 1 {
		t.Fatalf("%s: %v %v", prefix, files, err)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"name": filepath.Base(files[0]), "text": string(data)}
}

// The Import dialog's call: a newcomer pastes consumerConnection and the route, reads the
// findings in their language and gets a scenario the page loads.
func TestDiagnoseMethod(t *testing.T) {
	a := New(session.NewDefault())
	arg, _ := json.Marshal(map[string]any{"inputs": []map[string]string{fixtureText(t, "16"), fixtureText(t, "20")}})
	for _, lang := range []string{"en", "zh"} {
		if _, err := a.Call("setLang", []byte(`"`+lang+`"`)); err != nil {
			t.Fatal(err)
		}
		out, err := a.Call("diagnose", arg)
		if err != nil {
			t.Fatal(err)
		}
		var got DiagnoseResult
		if err := json.Unmarshal(out, &got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Codes, []string{admin.CodeAllocationOK}) || got.Lang != lang || len(got.Headlines) != 1 {
			t.Fatalf("%s: codes %v lang %s headlines %+v", lang, got.Codes, got.Lang, got.Headlines)
		}
		if lang == "zh" && got.Headlines[0].Title != findingText[admin.CodeAllocationOK][0] {
			t.Errorf("zh headline %q", got.Headlines[0].Title)
		}
		if got.Scenario == nil || got.Scenario.Topic != "TopicTest" || len(got.Scenario.Consumers) != 1 {
			t.Fatalf("%s: scenario %+v (%s)", lang, got.Scenario, got.ScenarioError)
		}
		// The page loads it as it is.
		raw, _ := json.Marshal(got.Scenario)
		if _, err := scenario.Parse(raw); err != nil {
			t.Errorf("scenario does not parse back: %v", err)
		}
	}
	if _, err := a.Call("diagnose", []byte(`{"inputs":[{"text":"hello"}]}`)); err == nil || !strings.Contains(err.Error(), "粘贴") {
		t.Errorf("zh error for prose: %v", err)
	}
	if _, err := a.Call("diagnose", []byte(`{"inputs":[]}`)); err == nil || !strings.Contains(err.Error(), "needs inputs") {
		t.Errorf("empty inputs: %v", err)
	}
}

// Every finding code has its Chinese headline and fix.
func TestDiagnoseChineseForEveryCode(t *testing.T) {
	for _, c := range admin.Codes {
		if t2, ok := findingText[c]; !ok || t2[0] == "" || t2[1] == "" {
			t.Errorf("no Chinese for %s", c)
		}
	}
}
