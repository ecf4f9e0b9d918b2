// Package series records the playground's metrics over virtual time, for its charts and their
// CSV and JSON exports. (Skeleton: the charts feature fills it in.)
package series

import "github.com/lbscope/lbscope/core/cluster"

// Recorder keeps samples of a session's snapshots at a fixed virtual interval.
type Recorder struct{}

// NewRecorder returns an empty recorder sampling every second of virtual time.
func NewRecorder() *Recorder { return &Recorder{} }

// IntervalMs is the current sampling period; the session samples at its multiples.
func (r *Recorder) IntervalMs() int64 { return 1000 }

// Sample records s at s.TimeMs.
func (r *Recorder) Sample(s *cluster.Snapshot) {}

// Mark records an action at time t for the charts' markers.
func (r *Recorder) Mark(t int64, text string) {}

// Truncate drops every sample and mark after t.
func (r *Recorder) Truncate(t int64) {}
