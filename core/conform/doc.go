// Package conform checks the core against vectors recorded from the real Java classes (the
// schemas of testdata/conformance/README.md). It reads bytes and returns results; the command
// and the tests decide where the bytes come from.
package conform
