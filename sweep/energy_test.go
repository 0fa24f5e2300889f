package sweep

import (
	"slices"
	"testing"

	"github.com/fastdrain-sim/fastdrain/flashbench"
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

// TestFlashbenchPointEnergy: a flashbench point's energy columns are the array's records
// under the point's energy section. The tiny preset's defaults give every array operation
// 25 mA × 3.3 V = 82.5 mW, an idle die 30 µA × 3.3 V = 99 µW and a busy bus 10 mA × 3.3 V
// = 33 mW, so over the elapsed time T the dies spend 82.5 mW × their busy time plus 99 µW ×
// (dies × T − busy time), and the buses 33 mW × their busy time. The same point is run
// again with flashbench directly (2 channels × 2 dies, 2,000 operations of the 70/30 mix,
// as TestFlashbenchPointIsTheHandBuiltBench builds it) and its resources summed by hand.
func TestFlashbenchPointEnergy(t *testing.T) {
	p := DefaultFlashbench()
	p.Ops = 2000
	s := Spec{Kind: KindFlashbench, Base: Base{Preset: "tiny"}, Flashbench: &p,
		Axes: Grid{{Key: "flash.channels", Values: []string{"2"}}, {Key: "flash.ways", Values: []string{"2"}}}}
	r, err := Run(s, Options{})
	require.NoError(t, err)
	m := map[string]float64{}
	for i, col := range r.Columns {
		m[col] = r.Rows[0].Metrics[i]
	}
	c := flashbench.DefaultConfig()
	c.Channels = 2
	c.Channel.Dies = 2
	c.Channel.Die.Planes, c.Channel.Die.BlocksPerPlane, c.Channel.Die.PagesPerBlock, c.Channel.Die.PageSize = 2, 32, 64, 4096
	c.Ops, c.QueueDepth, c.Seed = 2000, 64, 1
	want, err := flashbench.Run(c)
	require.NoError(t, err)
	end := want.Elapsed
	var dieBusy, busBusy sim.Time
	dies := 0
	for _, ch := range want.Channels {
		busBusy += ch.Bus().TotalBusyAt(end)
		for i := 0; i < ch.NumDies(); i++ {
			dieBusy += ch.Die(i).Array().TotalBusyAt(end)
			dies++
		}
	}
	nand := dieBusy.Seconds()*0.0825 + (sim.Time(dies)*end-dieBusy).Seconds()*99e-6
	onfi := busBusy.Seconds() * 0.033
	t.Logf("T %v: dies busy %v, buses busy %v: NAND %.6g J, ONFI %.6g J", end, dieBusy, busBusy, nand, onfi)
	require.Positive(t, nand)
	require.InEpsilon(t, nand, m["nand_array_j"], 1e-9)
	require.InEpsilon(t, onfi, m["onfi_bus_j"], 1e-9)
	require.InEpsilon(t, (nand+onfi)/end.Seconds(), m["flash_avg_w"], 1e-9)
	// At most every die busy: the array cannot pass 4 × 82.5 mW plus its buses' 2 × 33 mW.
	require.LessOrEqual(t, m["flash_avg_w"], 4*0.0825+2*0.033)
}
