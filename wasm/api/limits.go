package api

import (
	"encoding/json"
	"errors"

	"github.com/lbscope/lbscope/core/cluster"
	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

// ArgLimit bounds one call's argument: its JSON text's length in characters, how deeply its
// arrays and objects nest, and its longest string. The page's JavaScript checks it before the
// argument reaches Go (web/loader.js, lbscopeArgText), so that no call carries more work in
// than it can refuse at once.
type ArgLimit struct {
	Chars  int `json:"chars"`
	Depth  int `json:"depth"`
	String int `json:"string"`
}

// ArgLimits is the limit of method name's argument ("dispatch" for lbscope.dispatch): the
// same for every method but dispatch, which carries a scenario file, and diagnose and
// diagnoseStage, whose pasted admin output (a log's slice) is one long string each.
func ArgLimits(name string) ArgLimit {
	l := ArgLimit{Chars: MaxArgBytes, Depth: cluster.MaxArgDepth, String: cluster.MaxArgString}
	switch name {
	case "dispatch":
		l.Chars = session.MaxCommandBytes
	case "diagnose", "diagnoseStage":
		l.String = MaxArgBytes
	}
	return l
}

// The stage's limits, what lbscope.diagnoseStage holds at most: the command line's for logs,
// one input and all together (core/admin's MaxLogBytes and MaxLogTotal, which a test holds
// these to). diagnoseStage runs in the reader's own wasm (wasm/paste, wasm/diagnose); the
// page's wasm only tells them, without linking the reader.
const (
	MaxStageInput = 32 << 20
	MaxStageTotal = 64 << 20
)

// Limits is what lbscope.limits() gives: every limit the page enforces, from the one set
// (core/cluster/limits.go and the work bounds), for a page's script to check against or show.
type Limits struct {
	Args    ArgLimit            `json:"args"`    // every method's argument…
	Methods map[string]ArgLimit `json:"methods"` // …but these
	Cluster map[string]int      `json:"cluster"`
	Work    map[string]int64    `json:"work"`
	// Fields are the limits of a scenario's settings, by path ("brokers[].queues"), from the
	// field table (cluster.Fields).
	Fields map[string]FieldLimit `json:"fields"`
	// Stage is what diagnoseStage holds at most, in bytes: one input, all together.
	Stage map[string]int `json:"stage"`
}

// FieldLimit is one setting's limits: a number's min…max (each entry's, for a list of
// numbers), a list's most entries, an enumeration's values.
type FieldLimit struct {
	Min  int64    `json:"min"`
	Max  int64    `json:"max"`
	Len  int      `json:"len,omitempty"`
	Unit string   `json:"unit,omitempty"`
	Enum []string `json:"enum,omitempty"`
}

// fieldLimits are the settings with limits a page's script can hold a value to: a seed takes
// any 64-bit number, beyond what JavaScript's numbers hold exactly, and has none.
func fieldLimits() map[string]FieldLimit {
	const exact = 1 << 53
	out := map[string]FieldLimit{}
	for _, f := range cluster.Fields() {
		l := FieldLimit{Min: f.Min, Max: f.Max, Len: f.Len, Unit: f.Unit}
		switch {
		case f.Type == cluster.ArgEnum && !f.Loose:
			l.Enum = f.Enum
		case f.Type == cluster.ArgList, f.Type == cluster.ArgInts, f.Type == cluster.ArgInt && f.Min < f.Max && f.Max < exact:
		default:
			continue
		}
		out[f.Path] = l
	}
	return out
}

func limits() Limits {
	return Limits{
		Args:    ArgLimits(""),
		Methods: map[string]ArgLimit{"dispatch": ArgLimits("dispatch"), "diagnose": ArgLimits("diagnose"), "diagnoseStage": ArgLimits("diagnoseStage")},
		Stage:   map[string]int{"input": MaxStageInput, "total": MaxStageTotal},
		Cluster: map[string]int{
			"brokers": cluster.MaxBrokers, "queues": cluster.MaxQueues, "consumers": cluster.MaxConsumers,
			"producers": cluster.MaxProducers, "rate": cluster.MaxRate, "consumeRate": cluster.MaxConsumeRate,
			"latencyMs": cluster.MaxLatencyMs, "nameLen": cluster.MaxNameLen, "topicLen": cluster.MaxTopicLen,
			"groupLen": cluster.MaxGroupLen, "virtualNodeCnt": cluster.MaxVirtualNodeCnt, "rooms": cluster.MaxRooms,
			"steps": scenario.MaxSteps, "shareLen": scenario.MaxShareLen, "fileBytes": scenario.MaxBytes,
		},
		Work: map[string]int64{
			"callUnits": session.MaxCallWork, "sliceUnits": session.MaxSliceWork, "compareUnits": MaxCompareWork,
			"stepMs": session.MaxStepMs, "durationMs": scenario.MaxDuration.Ms(),
		},
		Fields: fieldLimits(),
	}
}

func init() {
	// lbscope.limits() → {args: {chars, depth, string}, methods: {dispatch: {…}, diagnose: {…}},
	// cluster: {brokers: 64, …}, work: {callUnits, sliceUnits, compareUnits, …}}.
	register("limits", func(a *API, args json.RawMessage) (any, error) {
		if string(args) != "null" {
			return nil, errors.New("takes no argument")
		}
		return limits(), nil
	})
}
