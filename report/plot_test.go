package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestPlotsWriteFiles(t *testing.T) {
	dir := t.TempDir()
	var a, b sim.Histogram
	for i := int64(1); i <= 1000; i++ {
		a.Record(i * int64(sim.Microsecond))
		b.Record(i * i * int64(sim.Nanosecond))
	}
	hs := []Named{{"fast", &a}, {"slow", &b}}
	for _, ext := range []string{".png", ".svg"} {
		p := filepath.Join(dir, "cdf"+ext)
		require.NoError(t, LatencyCDF(p, "latency", hs))
		st, err := os.Stat(p)
		require.NoError(t, err)
		require.Positive(t, st.Size())
	}
	require.NoError(t, TimeSeries(filepath.Join(dir, "ts.png"), "resp", "ms",
		[]Line{{"app", []float64{0, 1, 2}, []float64{1, 5, 2}}}, []Span{{0.5, 1.5}}))
	require.NoError(t, Bars(filepath.Join(dir, "bars.svg"), "p99", "normalized",
		[]string{"A", "B"}, []string{"x", "y"}, [][]float64{{1, 2}, {0.5, 0.7}}))
	require.Error(t, LatencyCDF(filepath.Join(dir, "x.gif"), "bad", hs))
	panels := []Panel{{"ms", []Line{{"app", []float64{0, 1, 2}, []float64{1, 5, 2}}}},
		{"pages", []Line{{"flushed", []float64{0.5, 0.5, 1.5, 1.5}, []float64{0, 300, 300, 0}}}}}
	require.NoError(t, TimeSeriesPanels(filepath.Join(dir, "panels.png"), "two panels", panels, []Span{{0.5, 1.5}}))
	require.NoError(t, TimeSeriesPanels(filepath.Join(dir, "panels.svg"), "two panels", panels, nil))
	require.Error(t, TimeSeriesPanels(filepath.Join(dir, "panels.gif"), "bad", panels, nil))

	// Same input, same bytes (reports must be reproducible).
	p1, p2 := filepath.Join(dir, "d1.svg"), filepath.Join(dir, "d2.svg")
	require.NoError(t, LatencyCDF(p1, "latency", hs))
	require.NoError(t, LatencyCDF(p2, "latency", hs))
	x, _ := os.ReadFile(p1)
	y, _ := os.ReadFile(p2)
	require.True(t, bytes.Equal(x, y))
}

// TestUflipPlots: a two-device band plot and a trace with a marked start-up write files,
// byte-identical for identical input; mismatched lengths and non-positive values on a log
// axis are errors naming the series.
func TestUflipPlots(t *testing.T) {
	dir := t.TempDir()
	bands := []Band{
		{"model", []float64{512, 4096, 32768}, []float64{10, 20, 40}, []float64{8, 15, 30}, []float64{12, 40, 90}},
		{"drive", []float64{512, 4096, 32768}, []float64{30, 35, 70}, []float64{20, 30, 60}, []float64{50, 60, 200}},
	}
	p1, p2 := filepath.Join(dir, "g1.svg"), filepath.Join(dir, "g2.svg")
	require.NoError(t, BandPlot(p1, "granularity SW", "IO size", "µs", true, true, bands))
	require.NoError(t, BandPlot(p2, "granularity SW", "IO size", "µs", true, true, bands))
	x, _ := os.ReadFile(p1)
	y, _ := os.ReadFile(p2)
	require.True(t, bytes.Equal(x, y))
	require.NoError(t, BandPlot(filepath.Join(dir, "a.png"), "alignment", "shift", "µs", false, false,
		[]Band{{"one", []float64{0}, []float64{1}, []float64{1}, []float64{1}}}))
	require.ErrorContains(t, BandPlot(filepath.Join(dir, "b.png"), "t", "x", "y", false, false,
		[]Band{{"short", []float64{1, 2}, []float64{1}, []float64{1, 2}, []float64{1, 2}}}), "short has 2 x values but 1 means")
	require.ErrorContains(t, BandPlot(filepath.Join(dir, "c.png"), "t", "x", "y", true, false,
		[]Band{{"zero", []float64{0, 2}, []float64{1, 1}, []float64{1, 1}, []float64{1, 1}}}), "zero has a non-positive value")

	tr := []Trace{{"model", []float64{0.1, 0.1, 0.1, 1, 1, 9, 1}, 3}, {"drive", []float64{1, 2, 1, 2}, 0}}
	require.NoError(t, IOTrace(filepath.Join(dir, "t.png"), "RW trace", "ms", true, tr))
	require.ErrorContains(t, IOTrace(filepath.Join(dir, "t2.png"), "RW", "ms", true, []Trace{{"z", []float64{0}, 0}}), "z has a non-positive")
}
