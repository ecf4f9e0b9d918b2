package api

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lbscope/lbscope/wasm/session"
	"github.com/lbscope/lbscope/wasm/view"
)

// sampled is a default session run for 5 s with c2 killed at 2 s. Its recorder is fed here,
// at the same multiples of the interval the session samples at, so that the test holds
// whether or not the session has sampled them already (a repeated time replaces the sample).
func sampled(t *testing.T) *API {
	t.Helper()
	a := New(session.NewDefault())
	rec := a.Sess.Series()
	tick := func(cmds ...string) {
		for _, c := range cmds {
			cmd, err := session.Decode([]byte(c))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := a.Sess.Enqueue(cmd); err != nil {
				t.Fatal(err)
			}
		}
		for _, r := range a.Sess.Tick(0) {
			if r.Err != nil {
				t.Fatal(r.Err)
			}
		}
		snap := a.Sess.Snapshot()
		rec.Sample(&snap)
	}
	tick(`{"type":"pause"}`)
	for ms := int64(1000); ms <= 5000; ms += 1000 {
		tick(`{"type":"step","ms":1000}`)
		if ms == 2000 {
			tick(`{"type":"killConsumer","id":"c2"}`)
			rec.Mark(2000, "killConsumer c2")
		}
	}
	return a
}

type seriesData struct {
	Epoch     int64   `json:"epoch"`
	T         []int64 `json:"t"`
	Consumers []struct {
		ID       string     `json:"id"`
		Queues   []*int64   `json:"queues"`
		MsgsPerS []*float64 `json:"msgsPerS"`
	} `json:"consumers"`
	Queues []struct {
		Queue   string   `json:"queue"`
		Backlog []*int64 `json:"backlog"`
	} `json:"queues"`
	Brokers []struct {
		Name  string     `json:"name"`
		Share []*float64 `json:"share"`
	} `json:"brokers"`
	Marks []struct {
		T    int64  `json:"t"`
		Text string `json:"text"`
	} `json:"marks"`
}

func callSeries(t *testing.T, a *API, args string) seriesData {
	t.Helper()
	out, err := a.Call("series", []byte(args))
	if err != nil {
		t.Fatal(err)
	}
	var d seriesData
	if err := json.Unmarshal(out, &d); err != nil {
		t.Fatalf("series(%s) answered %.200s: %v", args, out, err)
	}
	return d
}

func TestSeriesMethod(t *testing.T) {
	a := sampled(t)
	d := callSeries(t, a, "")
	if !slices.Contains(d.T, 0) || d.T[len(d.T)-1] != 5000 {
		t.Fatalf("samples at %v; want 0 … 5000", d.T)
	}
	if len(d.Consumers) != 4 || len(d.Queues) != 32 || len(d.Brokers) != 4 {
		t.Errorf("%d consumers, %d queues, %d brokers; want the default preset's 4, 32, 4", len(d.Consumers), len(d.Queues), len(d.Brokers))
	}
	for _, c := range d.Consumers {
		if len(c.Queues) != len(d.T) || len(c.MsgsPerS) != len(d.T) {
			t.Errorf("%s has %d values for %d samples", c.ID, len(c.Queues), len(d.T))
		}
		if c.ID == "c2" && (c.Queues[len(d.T)-1] == nil || *c.Queues[len(d.T)-1] != 0) {
			t.Errorf("killed c2 holds %v queues at 5 s; want 0", c.Queues[len(d.T)-1])
		}
	}
	if len(d.Marks) != 1 || d.Marks[0].T != 2000 {
		t.Errorf("marks %v; want the kill at 2 s", d.Marks)
	}
	later := callSeries(t, a, `{"fromMs": 3001}`)
	if !slices.Equal(later.T, []int64{4000, 5000}) || len(later.Marks) != 0 || later.Epoch != d.Epoch {
		t.Errorf("series({fromMs: 3001}): samples %v, marks %v; want 4000, 5000 and none", later.T, later.Marks)
	}
	for _, bad := range []struct{ args, want string }{
		{`{"from": 1}`, `unknown field "from"`},
		{`{"fromMs": -5}`, "fromMs -5: want 0 or more"},
		{`{"fromMs": "soon"}`, "want {fromMs: virtual ms}"},
		{`7`, "want {fromMs: virtual ms}"},
	} {
		if _, err := a.Call("series", []byte(bad.args)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("series(%s) error = %v; want one containing %q", bad.args, err, bad.want)
		}
	}
}

func TestExportMetrics(t *testing.T) {
	a := sampled(t)
	out, err := a.Call("exportMetrics", []byte(`{"format":"csv"}`))
	if err != nil {
		t.Fatal(err)
	}
	var ex struct{ Filename, MIME, Text string }
	if err := json.Unmarshal(out, &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Filename != "lbscope-metrics-5s.csv" || ex.MIME != "text/csv" {
		t.Errorf("filename %q, mime %q", ex.Filename, ex.MIME)
	}
	recs, err := csv.NewReader(bytes.NewReader([]byte(ex.Text))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 3 || recs[0][0] != "t_ms" || !slices.Contains(recs[0], "consumer.c2.queues") {
		t.Errorf("CSV of %d rows, header %v", len(recs), recs[0])
	}
	out, err = a.Call("exportMetrics", []byte(`{"format":"json"}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out, &ex); err != nil {
		t.Fatal(err)
	}
	var doc seriesData
	if err := json.Unmarshal([]byte(ex.Text), &doc); err != nil || ex.MIME != "application/json" || len(doc.T) != len(recs)-1 {
		t.Errorf("JSON export: %v, mime %q, %d samples; want %d", err, ex.MIME, len(doc.T), len(recs)-1)
	}
	for _, bad := range []struct{ args, want string }{
		{``, "needs an argument"},
		{`{"format":"xml"}`, `format "xml": want "csv" or "json"`},
		{`{"format":"csv","gzip":true}`, `unknown field "gzip"`},
	} {
		if _, err := a.Call("exportMetrics", []byte(bad.args)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("exportMetrics(%s) error = %v; want one containing %q", bad.args, err, bad.want)
		}
	}
}

func TestPaletteMatchesTheCanvas(t *testing.T) {
	a := New(session.NewDefault())
	out, err := a.Call("palette", nil)
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Consumers map[string]string `json:"consumers"`
		Labels    map[string]string `json:"labels"`
		Palette   []string          `json:"palette"`
	}
	if err := json.Unmarshal(out, &p); err != nil {
		t.Fatal(err)
	}
	snap := a.Sess.Snapshot()
	marks := view.Marks(snap.Consumers)
	if len(p.Consumers) != len(snap.Consumers) || len(p.Palette) != len(view.Palette) {
		t.Fatalf("palette %v for %d consumers", p, len(snap.Consumers))
	}
	re := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	seen := map[string]bool{}
	for id, col := range p.Consumers {
		if !re.MatchString(col) || seen[col] {
			t.Errorf("%s's colour %q: want a distinct #rrggbb", id, col)
		}
		seen[col] = true
		if want := p.Palette[marks[id].Index%len(p.Palette)]; col != want {
			t.Errorf("%s's colour %s; the canvas draws it in %s", id, col, want)
		}
		if want := view.ConsumerLabel(id, marks[id]); p.Labels[id] != want {
			t.Errorf("%s's label %q; its box reads %q", id, p.Labels[id], want)
		}
	}
	if p.Palette[0] != "#e69f00" {
		t.Errorf("the first colour %s; want the canvas's orange #e69f00", p.Palette[0])
	}
}
