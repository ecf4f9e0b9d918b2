package api

import (
	"encoding/json"
	"testing"

	"github.com/lbscope/lbscope/core/admin"
	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

// lbscope.limits() states the limits the page's JavaScript holds each argument to, from the
// one set, and they let through what the page's own calls carry: a share link in a load, a
// scenario file in a dispatch, a long paste in diagnose.
func TestLimitsMethod(t *testing.T) {
	out, err := New(session.NewDefault()).Call("limits", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got Limits
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	if want := (ArgLimit{Chars: MaxArgBytes, Depth: cluster.MaxArgDepth, String: cluster.MaxArgString}); got.Args != want {
		t.Errorf("args = %+v; want %+v", got.Args, want)
	}
	if d := got.Methods["dispatch"]; d.Chars != session.MaxCommandBytes || d.Chars < scenario.MaxBytes {
		t.Errorf("dispatch's limit %+v does not carry a scenario file (%d bytes)", d, scenario.MaxBytes)
	}
	if got.Args.String < scenario.MaxShareLen {
		t.Errorf("a string may be %d characters; a share link is up to %d", got.Args.String, scenario.MaxShareLen)
	}
	if got.Methods["diagnose"].String != MaxArgBytes {
		t.Errorf("diagnose's pasted text is limited to %d characters", got.Methods["diagnose"].String)
	}
	// The stage the reader's wasm holds is told here as the reader bounds it.
	if got.Stage["input"] != admin.MaxLogBytes || got.Stage["total"] != admin.MaxLogTotal {
		t.Errorf("stage %v; the reader holds %d a log, %d in all", got.Stage, admin.MaxLogBytes, admin.MaxLogTotal)
	}
	if got.Cluster["consumers"] != cluster.MaxConsumers || got.Work["compareUnits"] != MaxCompareWork || got.Work["sliceUnits"] != session.MaxSliceWork {
		t.Errorf("cluster %v, work %v", got.Cluster, got.Work)
	}
	// The settings' limits are the field table's, each one a page may check before a load.
	if q := got.Fields["brokers[].queues"]; q.Min != 0 || q.Max != cluster.MaxQueues {
		t.Errorf("brokers[].queues: %+v; want 0…%d", q, cluster.MaxQueues)
	}
	if b := got.Fields["brokers"]; b.Len != cluster.MaxBrokers {
		t.Errorf("brokers: %+v; want at most %d", b, cluster.MaxBrokers)
	}
	if m := got.Fields["messageModel"]; len(m.Enum) != 2 {
		t.Errorf("messageModel: %+v; want its two values", m)
	}
	for _, f := range cluster.Fields() {
		if _, ok := got.Fields[f.Path]; f.Type == cluster.ArgInt && f.Min < f.Max && f.Path != "seed" && !ok {
			t.Errorf("limits().fields has no %s", f.Path)
		}
	}
	if _, err := New(session.NewDefault()).Call("limits", []byte(`1`)); err == nil {
		t.Error("limits(1) accepted")
	}
}
