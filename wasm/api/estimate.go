package api

import (
	"encoding/json"
	"fmt"

	"github.com/lbscope/lbscope/core/scenario"
	"github.com/lbscope/lbscope/wasm/session"
)

// estimate({ms}) → {units, maxUnits, fitsMs, frames}: the work of running the published state
// on to virtual time ms (scenario.WorkSpan's units), what one frame does at most, the moment
// one frame reaches, and about how many frames a seek or a step there takes (session.Reaching
// shows the way while it runs). A moment before now costs nothing from here: a seek back
// replays from a checkpoint.
type estimateArgs struct {
	Ms *int64 `json:"ms"`
}

// Estimate is what lbscope.estimate returns.
type Estimate struct {
	Units    int64 `json:"units"`
	MaxUnits int64 `json:"maxUnits"`
	FitsMs   int64 `json:"fitsMs"`
	Frames   int64 `json:"frames"`
}

func init() {
	register("estimate", func(a *API, args json.RawMessage) (any, error) {
		const want = "{ms: a virtual time, 0…86400000}"
		var in estimateArgs
		if err := decode(args, &in, want); err != nil {
			return nil, err
		}
		if in.Ms == nil || *in.Ms < 0 || *in.Ms > scenario.MaxDuration.Ms() {
			return nil, fmt.Errorf("needs ms: %s", want)
		}
		units, fits := a.Sess.Estimate(*in.Ms)
		return Estimate{Units: units, MaxUnits: session.MaxCallWork, FitsMs: fits,
			Frames: max(1, (units+session.MaxCallWork-1)/session.MaxCallWork)}, nil
	})
}
