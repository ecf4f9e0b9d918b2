package conform

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lbscope/lbscope/core/fault"
)

type faultFile struct {
	LatencyMax                    []int64         `json:"latencyMax"`
	NotAvailableDuration          []int64         `json:"notAvailableDuration"`
	IsolationLatency              *int64          `json:"isolationLatency"`
	IsolationDuration             *int64          `json:"isolationDuration"`
	SendLatencyFaultEnableDefault *bool           `json:"sendLatencyFaultEnableDefault"`
	StartDetectorEnableDefault    *bool           `json:"startDetectorEnableDefault"`
	Sweep                         []faultSweep    `json:"sweep"`
	Sequences                     []faultSequence `json:"sequences"`
}

type faultSweep struct {
	Latency              *int64 `json:"latency"`
	NotAvailableDuration *int64 `json:"notAvailableDuration"`
}

type faultSequence struct {
	ID                     *string      `json:"id"`
	SendLatencyFaultEnable *bool        `json:"sendLatencyFaultEnable"`
	LatencyMax             []int64      `json:"latencyMax"`           // optional table override
	NotAvailableDuration   []int64      `json:"notAvailableDuration"` // optional table override
	Steps                  *[]faultStep `json:"steps"`
}

type faultStep struct {
	AtMs           *int64  `json:"atMs"`
	Op             string  `json:"op"`
	BrokerName     *string `json:"brokerName"`
	CurrentLatency *int64  `json:"currentLatency"`
	Isolation      *bool   `json:"isolation"`
	Reachable      *bool   `json:"reachable"` // the update's input, or the check's expectation
	Available      *bool   `json:"available"`
}

// runFault checks fault.json: the header constants against the current defaults (one case,
// "defaults"), every sweep point of computeNotAvailableDuration (one case each) and every
// timed sequence on an MQFaultStrategy with a virtual clock set to atMs (one case each).
func runFault(data []byte) (Result, error) {
	var f faultFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Result{}, fmt.Errorf("fault vectors: %w", err)
	}
	var r Result
	if want, got, ok := f.defaults(); ok {
		r.check("defaults", want, got)
	}
	table := fault.DefaultTable()
	for i, pt := range f.Sweep {
		if pt.Latency == nil || pt.NotAvailableDuration == nil {
			return r, fmt.Errorf("fault sweep point #%d: needs \"latency\" and \"notAvailableDuration\"", i+1)
		}
		id := fmt.Sprintf("sweep latency=%d", *pt.Latency)
		r.check(id, fmt.Sprintf("%d ms → %d ms", *pt.Latency, *pt.NotAvailableDuration),
			fmt.Sprintf("%d ms → %d ms", *pt.Latency, table.ComputeNotAvailableDuration(*pt.Latency)))
	}
	for i, seq := range f.Sequences {
		if seq.ID == nil {
			return r, fmt.Errorf("fault sequence #%d: missing \"id\"", i+1)
		}
		want, got, err := seq.run()
		if err != nil {
			return r, fmt.Errorf("fault sequence %q: %w", *seq.ID, err)
		}
		r.check(*seq.ID, want, got)
	}
	return r, nil
}

// defaults describes the header constants the file carries, as recorded and as the core has
// them; ok is false when the file carries none.
func (f faultFile) defaults() (want, got string, ok bool) {
	table := fault.DefaultTable()
	s := fault.NewMQFaultStrategy(table)
	var w, g []string
	add := func(name string, want, got any) {
		w = append(w, fmt.Sprintf("%s %v", name, want))
		g = append(g, fmt.Sprintf("%s %v", name, got))
	}
	if f.LatencyMax != nil {
		add("latencyMax", f.LatencyMax, table.LatencyMax())
	}
	if f.NotAvailableDuration != nil {
		add("notAvailableDuration", f.NotAvailableDuration, table.NotAvailableDuration())
	}
	if f.IsolationLatency != nil {
		add("isolationLatency", *f.IsolationLatency, table.IsolationLatency())
	}
	if f.IsolationDuration != nil {
		add("isolationDuration", *f.IsolationDuration, table.IsolationDuration())
	}
	if f.SendLatencyFaultEnableDefault != nil {
		add("sendLatencyFaultEnable", *f.SendLatencyFaultEnableDefault, s.SendLatencyFaultEnable())
	}
	if f.StartDetectorEnableDefault != nil {
		add("startDetectorEnable", *f.StartDetectorEnableDefault, s.StartDetectorEnable())
	}
	return strings.Join(w, ", "), strings.Join(g, ", "), len(w) > 0
}

// run replays one sequence; want == got when every check matched, else the first difference.
func (seq faultSequence) run() (want, got string, err error) {
	if seq.Steps == nil {
		return "", "", fmt.Errorf("missing \"steps\"")
	}
	if seq.SendLatencyFaultEnable == nil {
		return "", "", fmt.Errorf("missing \"sendLatencyFaultEnable\"")
	}
	table := fault.DefaultTable()
	if seq.LatencyMax != nil || seq.NotAvailableDuration != nil {
		latencyMax, durations := table.LatencyMax(), table.NotAvailableDuration()
		if seq.LatencyMax != nil {
			latencyMax = seq.LatencyMax
		}
		if seq.NotAvailableDuration != nil {
			durations = seq.NotAvailableDuration
		}
		// Java hard-codes the isolation latency 10000; only the arrays are settable.
		if table, err = fault.NewTable("override", latencyMax, durations, table.IsolationLatency()); err != nil {
			return "", "", fmt.Errorf("\"latencyMax\"/\"notAvailableDuration\": %w", err)
		}
	}
	s := fault.NewMQFaultStrategy(table)
	s.SetSendLatencyFaultEnable(*seq.SendLatencyFaultEnable)
	for i, st := range *seq.Steps {
		n := i + 1
		if st.AtMs == nil || st.BrokerName == nil {
			return "", "", fmt.Errorf("step %d: needs \"atMs\" and \"brokerName\"", n)
		}
		now, name := *st.AtMs, *st.BrokerName
		switch st.Op {
		case "update":
			if st.CurrentLatency == nil || st.Isolation == nil || st.Reachable == nil {
				return "", "", fmt.Errorf("step %d (update): needs \"currentLatency\", \"isolation\" and \"reachable\"", n)
			}
			s.UpdateFaultItem(name, *st.CurrentLatency, *st.Isolation, *st.Reachable, now)
		case "check":
			if st.Available == nil || st.Reachable == nil {
				return "", "", fmt.Errorf("step %d (check): needs \"available\" and \"reachable\"", n)
			}
			p := fmt.Sprintf("step %d at %dms %s", n, now, name)
			w := fmt.Sprintf("%s available %v reachable %v", p, *st.Available, *st.Reachable)
			g := fmt.Sprintf("%s available %v reachable %v", p, s.IsAvailable(name, now), s.IsReachable(name))
			if w != g {
				return w, g, nil
			}
		default:
			return "", "", fmt.Errorf("step %d: unknown \"op\" %q", n, st.Op)
		}
	}
	return "ok", "ok", nil
}
