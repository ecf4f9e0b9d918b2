package paste

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
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
	a := &page{lang: "en"}
	a.lang = "zh"
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

// Logs larger than one call carries are handed over in slices (diagnoseStage) and read as one:
// the kill logs cut into slices of 1000 bytes give the report the whole files give; the stage
// stays for a second reading (a change of language) until it is cleared; one input past the
// command line's limit is refused with its name.
func TestDiagnoseStagedSlices(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/logs/kill/*.log")
	var whole []map[string]string
	a := &page{lang: "en"}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		whole = append(whole, map[string]string{"name": name, "text": string(data)})
		for i := 0; i < len(data); i += 1000 {
			arg, _ := json.Marshal(map[string]string{"name": name, "text": string(data[i:min(i+1000, len(data))])})
			if _, err := a.Call("diagnoseStage", arg); err != nil {
				t.Fatal(err)
			}
		}
	}
	codes := func(raw []byte) string {
		var r struct {
			Codes   []string `json:"codes"`
			History struct {
				Rounds []json.RawMessage `json:"rounds"`
			} `json:"history"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		return strings.Join(r.Codes, " ") + " / " + strconv.Itoa(len(r.History.Rounds)) + " rounds"
	}
	arg, _ := json.Marshal(map[string]any{"inputs": whole})
	want, err := a.Call("diagnose", arg)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		got, err := a.Call("diagnose", []byte(`{"inputs": [], "staged": true}`))
		if err != nil {
			t.Fatal(err)
		}
		if codes(got) != codes(want) || codes(got) != "double-owned-window orphaned-window allocation-ok / 8 rounds" {
			t.Errorf("staged %s; whole %s", codes(got), codes(want))
		}
	}
	if out, err := a.Call("diagnoseStage", []byte(`{"clear": true}`)); err != nil || string(out) != `{"bytes":0,"inputs":0}` {
		t.Errorf("clear: %s %v", out, err)
	}
	if _, err := a.Call("diagnose", []byte(`{"inputs": [], "staged": true}`)); err == nil || !strings.Contains(err.Error(), "needs inputs") {
		t.Errorf("an empty stage read: %v", err)
	}
	slice := strings.Repeat("x", 1<<19)
	arg, _ = json.Marshal(map[string]string{"name": "huge.log", "text": slice})
	n := 0
	for ; n <= MaxStageInput/len(slice); n++ {
		if _, err = a.Call("diagnoseStage", arg); err != nil {
			break
		}
	}
	if n != MaxStageInput/len(slice) || err == nil || !strings.Contains(err.Error(), "huge.log goes past 32 MiB") {
		t.Errorf("past the limit after %d slices: %v", n, err)
	}
	if _, err := a.Call("diagnoseStage", []byte(`{"text": "x"}`)); err == nil || !strings.Contains(err.Error(), "needs a name") {
		t.Errorf("no name: %v", err)
	}
}
