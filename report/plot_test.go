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
