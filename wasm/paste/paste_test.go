package paste

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/scenario"
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
	a := &page{lang: "en"}
	arg, _ := json.Marshal(map[string]any{"inputs": []map[string]string{fixtureText(t, "16"), fixtureText(t, "20")}})
	for _, lang := range []string{"en", "zh"} {
		a.lang = lang
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
		en := got.Findings[0]
		if h := got.Headlines[0]; lang == "zh" && (h.Title == en.Title || h.Fix == en.Fix || !strings.Contains(h.Title, "分配正常")) ||
			lang == "en" && (h.Title != en.Title || h.Fix != en.Fix) {
			t.Errorf("%s headline %+v; the report says %q, %q", lang, h, en.Title, en.Fix)
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

// Every finding the fixtures and a duplicate id give is worded by the dictionary, in Chinese
// with the finding's own values (ids, queues, counts) where the English has them.
func TestDiagnoseChineseHeadlinesCarryTheValues(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/admin/*.txt")
	var inputs []admin.Input
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, admin.Input{Name: filepath.Base(f), Data: data})
	}
	inputs = append(inputs, admin.Input{Name: "dup", Data: []byte("#ClientId   #ClientAddr   #Language  #Version\n" +
		"001  10.0.0.1@1  10.0.0.1:1  JAVA  V4_9_4\n002  10.0.0.1@1  10.0.0.2:1  JAVA  V4_9_4\n")})
	seen := 0
	for _, in := range inputs {
		rep, err := admin.Diagnose([]admin.Input{in}, admin.Options{Queues: "broker-a:4"})
		if err != nil {
			continue
		}
		for _, f := range rep.Findings {
			seen++
			if f.Words == "" {
				t.Errorf("%s: finding %s (%q) has no words for the page", in.Name, f.Code, f.Title)
				continue
			}
			zh := headline("zh", f)
			if zh.Title == f.Title || zh.Fix == f.Fix || headline("en", f).Title != f.Title || headline("en", f).Fix != f.Fix {
				t.Errorf("%s: %s: zh %+v; en %q, %q", in.Name, f.Words, zh, f.Title, f.Fix)
			}
			for _, a := range f.Args {
				if s, ok := a.(string); ok && !strings.Contains(zh.Title+zh.Fix, s) {
					t.Errorf("%s: %s: the Chinese %+v lacks %q", in.Name, f.Words, zh, s)
				}
			}
		}
	}
	if seen < 5 {
		t.Errorf("only %d findings over the fixtures", seen)
	}
}

// What the page shows besides the findings is in its language and points at the Import
// dialog's fields, never at the command line's flags: a consumerStatus alone (no queues: no
// scenario), a cut group name, and a bad Queues field.
func TestDiagnoseSaysItInThePagesTerms(t *testing.T) {
	a := &page{lang: "en"}
	call := func(lang string, args map[string]any) (DiagnoseResult, error) {
		t.Helper()
		a.lang = lang
		raw, _ := json.Marshal(args)
		out, err := a.Call("diagnose", raw)
		var got DiagnoseResult
		if err == nil {
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
		}
		return got, err
	}
	status := map[string]any{"inputs": []map[string]string{fixtureText(t, "20")}}
	cut := map[string]any{"inputs": []map[string]string{fixtureText(t, "19")}}
	for _, c := range []struct {
		lang, noTopic, field, members, fullName string
	}{
		{"en", "no topic with known queues: the scenario needs one (paste topicRoute, or fill in the Queues field)", "fill in the Group field",
			"the group's members", "the group's full name: please_rename_unique_group_name_ is 32 characters long"},
		{"zh", "没有已知队列的主题：场景需要一个（粘贴 topicRoute，或填写“队列”一栏）", "填写“消费组”一栏",
			"消费组的成员", "消费组的完整名称：please_rename_unique_group_name_ 长 32 个字符"},
	} {
		got, err := call(c.lang, status)
		if err != nil {
			t.Fatal(err)
		}
		if got.Scenario != nil || got.Said.ScenarioError != c.noTopic {
			t.Errorf("%s: scenario error %q; want %q", c.lang, got.Said.ScenarioError, c.noTopic)
		}
		if len(got.Said.Missing) != len(got.Group.Missing) {
			t.Fatalf("%s: %d missing said for %d", c.lang, len(got.Said.Missing), len(got.Group.Missing))
		}
		got, err = call(c.lang, cut)
		if err != nil {
			t.Fatal(err)
		}
		m := got.Said.Missing
		if len(m) < 2 || !strings.HasPrefix(m[0].What, c.fullName) || !strings.Contains(m[0].What, c.field) || m[0].Command != "" ||
			m[1].What != c.members || m[1].Command != "mqadmin consumerConnection -g <full group name>" {
			t.Errorf("%s: missing %+v", c.lang, m)
		}
		for _, x := range m {
			if strings.Contains(x.What, "--") {
				t.Errorf("%s: %q names a flag", c.lang, x.What)
			}
		}
		// A binary input is refused in the page's language.
		_, err = call(c.lang, map[string]any{"inputs": []map[string]string{{"name": "x.bin", "text": "ab\x00cd"}}})
		if want := map[string]string{"en": "x.bin has a NUL byte at offset 2", "zh": "x.bin 在偏移 2 处有 NUL 字节"}[c.lang]; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: a binary input: %v", c.lang, err)
		}
		// The reader's notes and the evidence, line by line, in the page's language.
		got, err = call(c.lang, map[string]any{"inputs": []map[string]string{fixtureText(t, "01"), fixtureText(t, "02")}, "queues": "broker-a:8,broker-b:8,broker-c:8"})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Said.Notes) != len(got.Notes) || len(got.Said.Evidence) != len(got.Findings) || len(got.Said.ScenarioLeft) != len(got.ScenarioLeft) {
			t.Fatalf("%s: said %d notes for %d, evidence for %d findings of %d, %d left out for %d", c.lang, len(got.Said.Notes), len(got.Notes),
				len(got.Said.Evidence), len(got.Findings), len(got.Said.ScenarioLeft), len(got.ScenarioLeft))
		}
		for i, n := range got.Notes {
			if c.lang == "en" && got.Said.Notes[i] != n.Text || c.lang == "zh" && got.Said.Notes[i] == n.Text {
				t.Errorf("%s: note %q said %q", c.lang, n.Text, got.Said.Notes[i])
			}
		}
		if ev := got.Said.Evidence[0]; len(ev) != len(got.Findings[0].Evidence) ||
			ev[0] != map[string]string{"en": "UNKNOWN_TOPIC: 24 queues (the Queues field)", "zh": "UNKNOWN_TOPIC：24 个队列（“队列”一栏）"}[c.lang] {
			t.Errorf("%s: evidence %q", c.lang, ev)
		}
		_, err = call(c.lang, map[string]any{"inputs": []map[string]string{fixtureText(t, "20")}, "queues": "broker-a"})
		want := map[string]string{"en": "the Queues field: ", "zh": "“队列”一栏无法读取"}[c.lang]
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "--queues") {
			t.Errorf("%s: a bad Queues field: %v", c.lang, err)
		}
	}
}

// page makes the page's calls: the language lbscope.setLang last chose goes with each, as
// web/lazy.js sends lbscope.lang() with them.
type page struct {
	r    Reader
	lang string
}

func (p *page) Call(name string, arg []byte) ([]byte, error) { return p.r.Call(name, p.lang, arg) }

// A call the reader cannot answer says why, naming the page's method as its other calls do.
func TestReaderRefuses(t *testing.T) {
	var r Reader
	for _, c := range []struct{ name, lang, arg, want string }{
		{"state", "en", "", "lbscope.state: no such method of the reader (methods: diagnose, diagnoseStage)"},
		{"diagnose", "fr", `{"inputs": []}`, `lbscope.diagnose: language "fr": want "en" or "zh"`},
		{"diagnose", "en", "{inputs", "lbscope.diagnose: the argument is not JSON"},
		{"diagnose", "en", "", "lbscope.diagnose: needs an argument: {inputs: "},
		{"diagnose", "en", `{"inputs": [], "queue": "broker-a:4"}`, `lbscope.diagnose: unknown field "queue"; want {inputs:`},
		{"diagnose", "en", `{"inputs": 3}`, "lbscope.diagnose: inputs is a number; want {inputs:"},
		{"diagnoseStage", "zh", `"` + strings.Repeat("x", MaxStageInput>>5) + `"`, "lbscope.diagnoseStage: the argument is 1048578 bytes; at most 1048576"},
	} {
		if _, err := r.Call(c.name, c.lang, []byte(c.arg)); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s(%.40s) in %s: %v; want %q", c.name, c.arg, c.lang, err, c.want)
		}
	}
}
