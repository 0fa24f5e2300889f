// Package golden compares a run's JSON output with a committed golden file field by field,
// as gem5's and SST's regression suites compare whole-simulation output, and rewrites the
// file when asked. A failure names every differing JSON path with the expected and the
// actual value, so a reviewer sees at once which results moved; docs/testing.md says when a
// golden file may change (a commit that says why).
package golden
