package report

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestTailPoints: 97 samples of 10 ps, 2 of 50 ps and 1 of 1001 ps (100 in all). Values
// below 128 have a bucket each; 1001 is in [512, 1024), split into 128 buckets 4 wide,
// so its bucket is 512 + 4·⌊(1001−512)/4⌋ = 1000 to 1003. The fraction at least as slow as
// each non-empty bucket's lower edge: ≥ 10 ps (the minimum) all 100 → 1; ≥ 50 ps 3 → 0.03;
// ≥ 1000 ps 1 → 0.01. Latencies in ms: 10 ps = 1e-8 ms, 50 ps = 5e-8, 1000 ps = 1e-6.
func TestTailPoints(t *testing.T) {
	var h sim.Histogram
	for range 97 {
		h.Record(10)
	}
	h.Record(50)
	h.Record(50)
	h.Record(1001)
	pts := TailPoints(&h)
	require.Len(t, pts, 3)
	want := [][2]float64{{1e-8, 1}, {5e-8, 0.03}, {1e-6, 0.01}}
	for i, w := range want {
		require.InDelta(t, w[0], pts[i].X, w[0]*1e-12, "point %d", i)
		require.InDelta(t, w[1], pts[i].Y, 1e-15, "point %d", i)
	}
	require.Nil(t, TailPoints(&sim.Histogram{}))

	// A minimum inside its bucket moves the first point to it: 1001 alone is (1001 ps, 1).
	var one sim.Histogram
	one.Record(1001)
	require.InDelta(t, 1.001e-6, TailPoints(&one)[0].X, 1e-18)
}

// TestNewPlotsWriteFiles: the heat map, throughput and tail plots write PNG and SVG files,
// byte-identical for identical input, and reject bad grids with what is wrong.
func TestNewPlotsWriteFiles(t *testing.T) {
	dir := t.TempDir()
	g := Grid{Rows: []string{"ch[0]", "ch[1]"}, Start: 0, Width: 0.01, Values: [][]float64{{0.3, 0.2, 1}, {0, 0.5, 0.7}}}
	var a, b sim.Histogram
	for i := int64(1); i <= 1000; i++ {
		a.Record(i * int64(sim.Microsecond))
		b.Record(i * i * int64(sim.Nanosecond))
	}
	lines := []Line{{"host read", []float64{0, 0.01, 0.02}, []float64{100, 50, 50}}, {"host write", []float64{0, 0.01, 0.02}, []float64{10, 20, 20}}}
	for _, ext := range []string{".png", ".svg"} {
		for i := range 2 {
			suffix := []string{"1", "2"}[i] + ext
			require.NoError(t, UtilizationHeatMap(filepath.Join(dir, "hm"+suffix), "busy", "channel", g))
			require.NoError(t, Throughput(filepath.Join(dir, "tp"+suffix), "throughput", lines))
			require.NoError(t, LatencyTail(filepath.Join(dir, "tail"+suffix), "tail", []Named{{"fast", &a}, {"slow", &b}, {"none", &sim.Histogram{}}}))
		}
		for _, f := range []string{"hm", "tp", "tail"} {
			x, err := os.ReadFile(filepath.Join(dir, f+"1"+ext))
			require.NoError(t, err)
			y, _ := os.ReadFile(filepath.Join(dir, f+"2"+ext))
			require.Positive(t, len(x), f+ext)
			require.True(t, bytes.Equal(x, y), f+ext)
		}
	}
	require.NoError(t, LatencyTail(filepath.Join(dir, "empty.svg"), "no requests", nil))
	bad := g
	bad.Values = [][]float64{{0.3, 0.2, 1}, {0, 0.5}}
	require.ErrorContains(t, UtilizationHeatMap(filepath.Join(dir, "bad.png"), "t", "y", bad), "row ch[1] has 2 intervals, row ch[0] 3")
	bad = g
	bad.Values = [][]float64{{0.3}, {0.1}}
	require.ErrorContains(t, UtilizationHeatMap(filepath.Join(dir, "bad.png"), "t", "y", bad), "1 intervals, want at least 2")
	bad = g
	bad.Rows = []string{"one"}
	require.ErrorContains(t, UtilizationHeatMap(filepath.Join(dir, "bad.png"), "t", "y", bad), "1 row names for 2 rows")
	require.ErrorContains(t, Throughput(filepath.Join(dir, "x.gif"), "t", lines), "want a .png or .svg file")
}

// TestPNGDPI: a 7 × 3.5-inch plot is 672 × 336 pixels at the default 96 DPI and
// 1344 × 672 at 192 DPI; the SVG of the same plot is the same bytes at either setting
// (vector output has no resolution). Out-of-range settings are refused with the range.
func TestPNGDPI(t *testing.T) {
	defer func() { require.NoError(t, SetPNGDPI(DefaultPNGDPI)) }()
	dir := t.TempDir()
	lines := []Line{{"x", []float64{0, 1}, []float64{1, 2}}}
	size := func(name string) (int, int) {
		f, err := os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		defer f.Close()
		c, err := png.DecodeConfig(f)
		require.NoError(t, err)
		return c.Width, c.Height
	}
	require.Equal(t, 96, PNGDPI())
	require.NoError(t, TimeSeries(filepath.Join(dir, "a.png"), "t", "y", lines, nil))
	require.NoError(t, TimeSeries(filepath.Join(dir, "a.svg"), "t", "y", lines, nil))
	w, h := size("a.png")
	require.Equal(t, [2]int{672, 336}, [2]int{w, h})
	require.NoError(t, SetPNGDPI(192))
	require.NoError(t, TimeSeries(filepath.Join(dir, "b.png"), "t", "y", lines, nil))
	require.NoError(t, TimeSeries(filepath.Join(dir, "b.svg"), "t", "y", lines, nil))
	w, h = size("b.png")
	require.Equal(t, [2]int{1344, 672}, [2]int{w, h})
	x, _ := os.ReadFile(filepath.Join(dir, "a.svg"))
	y, _ := os.ReadFile(filepath.Join(dir, "b.svg"))
	require.True(t, bytes.Equal(x, y))
	require.ErrorContains(t, SetPNGDPI(0), "plot DPI 0: want 24 to 1200 dots per inch")
	require.ErrorContains(t, SetPNGDPI(5000), "plot DPI 5000")
	require.Equal(t, 192, PNGDPI(), "a refused value leaves the setting")
}

// TestScaleTop: the colour scale's top is the smallest of 0.01, 0.02, 0.05, 0.1, 0.2, 0.5
// and 1 at or above the largest value: 0.3 → 0.5, 0.004 → 0.01, exactly 0.05 → 0.05,
// 0 → 0.01, 1.2 → 1.
func TestScaleTop(t *testing.T) {
	require.Equal(t, 0.5, ScaleTop([][]float64{{0.1, 0.3}, {0.2}}))
	require.Equal(t, 0.01, ScaleTop([][]float64{{0.004}}))
	require.Equal(t, 0.05, ScaleTop([][]float64{{0.05, 0.01}}))
	require.Equal(t, 0.01, ScaleTop([][]float64{{0}}))
	require.Equal(t, 1.0, ScaleTop([][]float64{{1.2}}))
}
