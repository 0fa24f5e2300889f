// Package runner runs one experiment end to end: it builds a machine from a platform
// configuration, runs a workload on it (a co-location scenario of the paper's application
// models), and gathers everything observable into a Result — per-application latency,
// response time over time, every resource's utilization by activity, buffer, FTL and host
// statistics, victimization events and sampled time series — which it writes as text
// tables, JSON, CSV and plots.
//
// Each run has its own engine, so independent runs (variants of a comparison, points of a
// sweep) can run side by side on separate goroutines and each stays deterministic.
package runner
