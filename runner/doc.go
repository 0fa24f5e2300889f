// Package runner runs one experiment end to end: it builds a machine from a platform
// configuration, runs a workload on it (a co-location scenario of the paper's application
// models), and gathers everything observable into a Result — per-application latency,
// response time over time, every resource's utilization by activity, buffer, FTL and host
// statistics, victimization events and sampled time series — which it writes as text
// tables, JSON, CSV and plots.
//
// Open is the one entry to a machine for every command: run's scenarios (Run), and the
// workloads that drive the raw block device themselves, each in a package of its own that
// runs it on Open's Machine and shapes its results — runner/fiorun (fio job files),
// runner/replayrun (block traces), runner/ufliprun (uFLIP plans) — and runner/comparerun,
// the comparison of variants over scenarios built on Run. The command line
// (cmd/fastdrain) keeps the flags and calls these.
//
// Each run has its own engine, so independent runs (variants of a comparison, points of a
// sweep) can run side by side on separate goroutines and each stays deterministic.
package runner
