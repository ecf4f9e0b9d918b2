package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/wasm/session"
)

// The Import dialog's call with three members' logs: the result carries the history (each
// round, who held each queue when) for the page to replay, and the findings in the page's
// language.
func TestDiagnoseLogsHistory(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/logs/kill/*.log")
	var inputs []map[string]string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, map[string]string{"name": filepath.Base(f), "text": string(data)})
	}
	a := New(session.NewDefault())
	if _, err := a.Call("setLang", []byte(`"zh"`)); err != nil {
		t.Fatal(err)
	}
	arg, _ := json.Marshal(map[string]any{"inputs": inputs, "logZone": "+08:00"})
	out, err := a.Call("diagnose", arg)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		DiagnoseResult
		History struct {
			ZoneGiven bool `json:"zoneGiven"`
			Rounds    []struct {
				Member string `json:"member"`
			} `json:"rounds"`
			Queues []struct {
				Held []struct {
					Member   string `json:"member"`
					From, To int64
				} `json:"held"`
			} `json:"queues"`
		} `json:"history"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if !got.History.ZoneGiven || len(got.History.Rounds) != 8 || len(got.History.Queues) != 8 {
		t.Fatalf("history %+v", got.History)
	}
	if !slices.Equal(got.Codes, []string{"double-owned-window", "orphaned-window", "allocation-ok"}) {
		t.Fatalf("codes %v", got.Codes)
	}
	if h := got.Headlines[1]; !strings.Contains(h.Title, "无人持有") || !strings.Contains(h.Title, "35 ms") {
		t.Errorf("orphaned-window in Chinese: %+v", h)
	}
	if ev := got.Said.Evidence[1]; len(ev) != 3 || !strings.Contains(ev[1], "自 2026-12-04 10:00:58.310 起持续 35 ms") {
		t.Errorf("evidence in Chinese %q", ev)
	}
	if _, err := a.Call("diagnose", []byte(`{"inputs":[{"text":"x"}],"logZone":"Mars"}`)); err == nil || !strings.Contains(err.Error(), "logZone") {
		t.Errorf("a bad zone: %v; want the page's name of the field", err)
	}
}
