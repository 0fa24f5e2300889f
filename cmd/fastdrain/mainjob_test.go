package main

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/runner/comparerun"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// oneApp is a result in which app's every request took lat picoseconds.
func oneApp(app string, lat int64) *runner.Result {
	h := &sim.Histogram{}
	for range 100 {
		h.Record(lat)
	}
	return &runner.Result{Apps: []runner.AppResult{{App: app, Requests: 100, Latency: h}}}
}

// TestCompareSummary: the lines after the comparison's tables say that lower is better,
// sort each app per variant into better (with its ratio), worse and the same (within 1 %),
// name the apps for which the variants were identical, and point to the figures command and
// docs/fidelity.md. The p99s are set by hand: a (1 ms base) halves under fd-buf and fd-ftl
// and is unchanged under fd; b (2 ms) triples under every variant.
func TestCompareSummary(t *testing.T) {
	p99 := map[string]map[string]int64{
		"a": {"vanilla": 1_000_000_000, "fd-buf": 500_000_000, "fd-ftl": 500_000_000, "fd": 1_000_000_000},
		"b": {"vanilla": 2_000_000_000, "fd-buf": 6_000_000_000, "fd-ftl": 6_000_000_000, "fd": 6_000_000_000},
	}
	cell := func(app, v string) runner.Cell {
		return runner.Cell{Scenario: app + "+ungzip", Variant: v, Result: oneApp(app, p99[app][v])}
	}
	var b strings.Builder
	require.NoError(t, comparerun.WriteVerdict(&b, []string{"a", "b"}, []string{"vanilla", "fd-buf", "fd-ftl", "fd"}, cell))
	out := b.String()
	require.Contains(t, out, "Lower is better. Each app's p99 under a variant divided by its p99 under vanilla")
	require.Contains(t, out, "  fd-buf  better for 1 of 2 (a 0.50); worse for 1 of 2 (b 3.00)\n")
	require.Contains(t, out, "  fd      worse for 1 of 2 (b 3.00); within 1 % for 1 of 2 (a)\n")
	require.Contains(t, out, "fd-buf, fd-ftl and fd gave the same p99, to the picosecond, for b.\n")
	require.Contains(t, out, "the figures command")
	require.Contains(t, out, "docs/fidelity.md")
}

// TestCompareHeader is the line printed before the comparison runs.
func TestCompareHeader(t *testing.T) {
	h := comparerun.Header("fastdrain-tlc", 10*sim.Second, []string{"a+ungzip", "b+ungzip"},
		[]string{"vanilla", "fd-buf", "fd"}, 2, "about 1m0s here")
	require.Equal(t, "FastDrain comparison on fastdrain-tlc: fd-buf and fd against vanilla (the baseline), "+
		"2 co-location scenarios (each latency-critical app beside ungzip), 10s simulated each: 6 runs on 2 parallel jobs; "+
		"about 1m0s here", h)
}
