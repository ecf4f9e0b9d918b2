// Package scenario is LBScope's scenario layer: a versioned JSON format describing a cluster
// (cluster.Config) and a timeline of commands (cluster.Command) at virtual times, its
// validation, the built-in presets, the command line's "--at TIME:TYPE:ARG…" form, and Run,
// which plays a scenario on the engine and reports what happened.
//
// Scenario files are the tests' language (testdata/scenarios). Every limit is checked on the
// input before anything is built, so a stranger's file cannot ask for unbounded work, and
// unknown fields are errors, so a misspelt field cannot silently do nothing. Errors name the
// field path and the limit: "timeline[3].latencyMs: 700000; want 0…600000".
package scenario
