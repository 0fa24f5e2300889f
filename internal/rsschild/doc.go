// Package rsschild runs a test of the calling test binary as a child process of its own and
// reads the numbers it prints, so that a memory test measures the peak resident set of one
// build or run (VmHWM, internal/sysmem) and not of the whole test binary. The parent names
// the child test and passes it a configuration ("preset;set;set…") in an environment
// variable; the child prints lines "key N".
package rsschild
