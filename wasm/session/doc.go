// Package session drives the browser playground as a pure state machine: a loaded scenario,
// the cluster built from it, a queue of commands from the page and the clock that moves
// virtual time at a chosen speed. It has no browser code, so it is tested natively; the js/wasm
// main feeds it commands (Enqueue, from any goroutine) and frames (Tick, from the game loop)
// and reads what it publishes (State, Snapshot, DrainEvents).
package session
