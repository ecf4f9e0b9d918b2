package api

import "github.com/lbscope/lbscope/core/cluster"

// lessonState is the guided lessons' progress (to be filled in by the lessons feature).
type lessonState struct{}

func (a *API) lessonsFrame([]cluster.Event) []Note { return nil }
