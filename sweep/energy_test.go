package sweep

import (
	"slices"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/runner"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestRunPointEnergy: a run point's energy columns are the run's own energy account
// (runner.Run of the same machine and scenario): ssd_avg_w its joules over the measured
// window's seconds, ssd_peak_w its peak over the last peak window (10 ms, the default
// [1ms, 10ms]), ssd_j_per_gb_written its joules per 10⁹ bytes the host wrote. 100 ms of
// apache-u+ungzip on fastdrain-tlc (fd): Ungzip writes, so the last is not zero.
func TestRunPointEnergy(t *testing.T) {
	p := DefaultRun()
	p.Scenario, p.Duration = "apache-u+ungzip", 100*sim.Millisecond
	s := Spec{Kind: KindRun, Base: Base{Preset: "fastdrain-tlc", Variant: "fd"}, Run: &p}
	r, err := Run(s, Options{})
	require.NoError(t, err)
	require.Len(t, r.Rows, 1)
	row := r.Rows[0]
	require.Equal(t, "", row.Error)
	col := func(name string) float64 {
		i := slices.Index(r.Columns, name)
		require.GreaterOrEqual(t, i, 0, name)
		return row.Metrics[i]
	}

	c, err := platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Variant: "fd"})
	require.NoError(t, err)
	sc, err := apps.LookupScenario("apache-u+ungzip")
	require.NoError(t, err)
	sc.Duration = 100 * sim.Millisecond
	want, err := runner.Run(runner.Options{Config: c, Workload: runner.Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.NoError(t, err)
	e := want.Energy
	require.NotNil(t, e)
	secs := (e.To - e.From).Seconds()
	require.Positive(t, e.Total())
	require.Positive(t, e.WriteBytes)
	require.Equal(t, e.Total()/secs, col("ssd_avg_w"))
	last := e.Peaks[len(e.Peaks)-1]
	require.Equal(t, 10*sim.Millisecond, last.Window)
	require.Equal(t, last.Watts, col("ssd_peak_w"))
	require.GreaterOrEqual(t, col("ssd_peak_w"), col("ssd_avg_w"))
	require.Equal(t, e.Total()/(float64(e.WriteBytes)/1e9), col("ssd_j_per_gb_written"))
	require.Equal(t, []string{"ssd_avg_w", "ssd_peak_w", "ssd_j_per_gb_written"}, r.Columns[len(r.Columns)-3:])
	t.Logf("%.3f W average, %.3f W peak over 10 ms, %.1f J/GB written", col("ssd_avg_w"), col("ssd_peak_w"), col("ssd_j_per_gb_written"))
}
