package figures

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestSensitivityPoints: on fastdrain-tlc (12 channels × 5 ways × 8 dies per package = 480
// dies, a 131,072-page buffer in 512 MiB of DRAM, a 4 GiB host) the dies sweep is 8/4 = 2 and
// 8/2 = 4 dies per package, 12·5·2 = 120 and 12·5·4 = 240 dies; the buffer halves to 65,536
// pages in 256 MiB and doubles to 262,144 in 1 GiB; the host to 2 and 8 GiB. On
// fastdrain-small (2 dies per package) the ¼ point does not divide and is left out.
func TestSensitivityPoints(t *testing.T) {
	base, err := platforms.Load(platforms.Options{Preset: "fastdrain-tlc"})
	require.NoError(t, err)
	var labels, shorts []string
	for _, p := range sensitivityPoints(base) {
		labels, shorts = append(labels, p.label), append(shorts, p.short)
	}
	require.Equal(t, []string{
		"firmware.buffer.background_set=share;firmware.buffer.background_share=0.005",
		"firmware.buffer.background_set=share;firmware.buffer.background_share=0.01",
		"firmware.buffer.background_set=share;firmware.buffer.background_share=0.05",
		"firmware.buffer.background_set=share;firmware.buffer.background_share=0", "flash.dies_per_package=2", "flash.dies_per_package=4",
		"apps.ungzip.output_rate=80MB/s", "apps.ungzip.output_rate=320MB/s", "flash.die.suspend=true",
		"firmware.buffer.pages=65536;dram.capacity=256MiB", "firmware.buffer.pages=262144;dram.capacity=1GiB",
		"host.pagecache.memory=2GiB", "host.pagecache.memory=8GiB"}, labels)
	require.Contains(t, shorts, "120 dies")
	require.Contains(t, shorts, "240 dies")
	small, err := platforms.Load(platforms.Options{Preset: "fastdrain-small"})
	require.NoError(t, err)
	var dies []string
	for _, p := range sensitivityPoints(small) {
		if p.sweep == sweepDies {
			dies = append(dies, p.short)
		}
	}
	require.Equal(t, []string{"8 dies"}, dies, "4·2·(2/2) = 8 dies; 2/4 does not divide")
	// Every point's overrides load on both presets.
	for _, b := range []string{"fastdrain-tlc", "fastdrain-tlc-8x"} {
		c, err := platforms.Load(platforms.Options{Preset: b})
		require.NoError(t, err)
		for _, p := range sensitivityPoints(c) {
			_, err := platforms.Load(platforms.Options{Preset: b, Sets: p.sets})
			require.NoError(t, err, "%s: %s", b, p.label)
		}
	}
}

// TestOracleSpreadAndRegimeMap: made-up runs. The Oracle's p99 is 1.0, 1.2 and 0.9 ms on
// the three seeds: spread 1.2 − 0.9 = 0.3 ms. At the default Vanilla's buffer never fills
// (60 of 100 pages), so claim 2b is "n.e."; at the "bg 8" point it fills and the Oracle's
// 1 ms against Vanilla's 10 ms is a 90 % cut, within 91 ± 15 %: "✓ 90 %".
func TestOracleSpreadAndRegimeMap(t *testing.T) {
	set := &Set{runs: map[key]*runner.Result{}}
	ms := sim.Millisecond
	bg8 := point{label: "firmware.buffer.background_max=8", short: "bg 8", sweep: sweepBackground}
	set.points = []point{seedPoints[0], seedPoints[1], bg8}
	put := func(v, extra string, r func(app string) *runner.Result) {
		for _, a := range apps.LatencyCritical() {
			set.runs[key{scenario: a + "+" + apps.Ungzip, variant: v, extra: extra}] = r(a)
		}
	}
	put("vanilla", "", func(a string) *runner.Result { return fakeRun(a, 10*ms, 60, 100, 0) })
	put("oracle", "", func(a string) *runner.Result { return fakeRun(a, ms, 0, 0, 0) })
	put("oracle", seedPoints[0].label, func(a string) *runner.Result { return fakeRun(a, 12*ms/10, 0, 0, 0) })
	put("oracle", seedPoints[1].label, func(a string) *runner.Result { return fakeRun(a, 9*ms/10, 0, 0, 0) })
	put("vanilla", bg8.label, func(a string) *runner.Result { return fakeRun(a, 10*ms, 100, 100, 0) })
	put("oracle", bg8.label, func(a string) *runner.Result { return fakeRun(a, ms, 0, 0, 0) })

	// The histograms keep percentiles within 1 %: the spread is 0.3 ms ± 1 %.
	require.InEpsilon(t, float64(3*ms/10), set.oracleSpread(apps.ApacheU), 0.03)
	fig := set.sensitivity()
	require.NotNil(t, fig)
	col := -1
	for i, h := range fig.Table.Header {
		if h == "2b" {
			col = i
		}
	}
	require.Positive(t, col)
	require.Len(t, fig.Table.Rows, 2, "the default and the one sweep point")
	require.Equal(t, "n.e.", fig.Table.Rows[0][col])
	require.Equal(t, []string{sweepBackground, "bg 8"}, fig.Table.Rows[1][:2])
	require.Equal(t, "✓ 90 %", fig.Table.Rows[1][col])
	require.NoError(t, fig.plot(t.TempDir(), ".svg"))
}

// TestWrap: "a, bb, ccc" at width 6 is "a, bb" (5 bytes), then "ccc" on its own line.
func TestWrap(t *testing.T) {
	require.Equal(t, "a, bb,\nccc", wrap("a, bb, ccc", 6))
	require.Equal(t, "a, bb, ccc", wrap("a, bb, ccc", 10))
}
