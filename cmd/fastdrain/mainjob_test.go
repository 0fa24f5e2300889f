package main

import (
	"github.com/fastdrain-sim/fastdrain/runner/comparerun"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fastdrain-sim/fastdrain/runner"
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

// TestWallEstimate: with the CPUs free the runs share the jobs; under load each runnable task
// gets a fair share of the CPUs. 120 s of CPU on 2 jobs and 2 idle CPUs is 60 s; at a load
// of 18 the 2 jobs get 2 × 2/20 = 0.2 CPU, so 600 s.
func TestWallEstimate(t *testing.T) {
	require.Equal(t, "about 1m0s here (2 min of CPU; load average 0.0 on 2 CPUs)", wallEstimate(2*time.Minute, 24, 2, 2, 0))
	require.Equal(t, "about 10 min here (2 min of CPU; load average 18.0 on 2 CPUs)", wallEstimate(2*time.Minute, 24, 2, 2, 18))
	require.Equal(t, "about 2 min here (2 min of CPU; 2 CPUs)", wallEstimate(2*time.Minute, 1, 0, 2, -1), "one run uses one CPU")
	// 5 s of CPU on two idle CPUs: 2.5 s of wall, said as a bound, not "about under 10s".
	require.Equal(t, "under 10s here (under 10s of CPU; load average 0.0 on 2 CPUs)", wallEstimate(5*time.Second, 24, 2, 2, 0))
	require.Contains(t, compareEstimate("tiny", 4, sim.Second, 1, true), "no time estimate for this preset")
}

// TestNewResultDir: a second run with the same name gets name-2, then name-3; nothing is
// replaced.
func TestNewResultDir(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "compare")
	var got []string
	for range 3 {
		d, err := newResultDir(parent, "fastdrain-tlc-10s")
		require.NoError(t, err)
		got = append(got, filepath.Base(d))
		require.NoError(t, os.WriteFile(filepath.Join(d, "summary.json"), []byte("{}"), 0o644))
	}
	require.Equal(t, []string{"fastdrain-tlc-10s", "fastdrain-tlc-10s-2", "fastdrain-tlc-10s-3"}, got)
}
