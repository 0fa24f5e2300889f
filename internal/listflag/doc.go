// Package listflag splits the comma-separated values of list flags (--vs, --bench,
// --scenarios, --tracks, …), shared by cmd/fastdrain and the runner packages that parse
// flag values.
package listflag
