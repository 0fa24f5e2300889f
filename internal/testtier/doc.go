// Package testtier holds the one rule that decides which tier of the test suite runs, so
// every long test asks the same question in the same words.
//
// The default tier is what the README's command, go test ./..., runs: the unit tests and
// short whole-stack tests, a few minutes on a 2-core machine. The long tier (the 10 M-I/O
// integrity run and anything else that takes minutes) runs only when the environment
// variable FASTDRAIN_LONG is set to 1; .ci/run sets it for its long pass, with explicit
// -timeout values. The -short flag skips even more: tests that call Skip here are skipped
// with -short whatever the environment says, and tests that check testing.Short themselves
// shrink or skip their own work. docs/testing.md lists the tiers.
package testtier
