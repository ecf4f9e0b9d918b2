package api

import "github.com/lbscope/lbscope/core/cluster"

// narrState is the live region's narration state (to be filled in by the narration feature).
type narrState struct{}

func (a *API) narrateFrame([]cluster.Event) []Note { return nil }
