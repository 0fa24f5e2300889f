// Package sampletraces finds the real block I/O traces the tests replay. The ones the
// repository may carry sit in testdata/traces at its root (sources and licences in the
// README there); two more are used only when a folder ../shared/traces sits beside the
// checkout, and a test that asks for one of those skips without it. Tests only.
package sampletraces
