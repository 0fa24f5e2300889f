package runner

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestRunPowerCut: a scripted cut (firmware.power_loss.cut_at = 600 ms) in a 1-second run
// of the small fastdrain-tlc machine with a 1,024-page buffer. With protection the drain
// empties the buffer: nothing is lost, every eviction in flight or dirty at the cut is
// programmed (a page rewritten while its eviction was in flight needs two programs, so at
// least dirty + evicting), and the measured window ends at the cut. Without it the
// firmware stops at the cut: nothing is flushed, no hold-up is used, and exactly the
// dirty and evicting pages at the cut are lost (the buffer's occupancy is dirty +
// evicting). Both recover a mapping from flash, and the text output has the table.
func TestRunPowerCut(t *testing.T) {
	for _, plp := range []bool{true, false} {
		sets := append(append([]string(nil), smallSets...), "firmware.buffer.pages=1024", "firmware.power_loss.enabled=true",
			"firmware.power_loss.cut_at=600ms")
		if plp {
			sets = append(sets, "firmware.power_loss_protection=true")
		} else {
			sets = append(sets, "firmware.power_loss_protection=false")
		}
		c, sc := setup(t, "fd", "db-s+ungzip", sim.Second, sets...)
		r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
		require.NoError(t, err)
		pl := r.PowerLoss
		require.NotNil(t, pl)
		require.Equal(t, 600*sim.Millisecond, pl.At)
		require.Equal(t, plp, pl.Protected)
		if plp {
			require.True(t, pl.Drained)
			require.Zero(t, pl.Lost)
			require.GreaterOrEqual(t, pl.Flushed, int64(pl.Dirty+pl.Evicting))
		} else {
			require.Zero(t, pl.Flushed)
			require.Zero(t, pl.DrainTime())
			require.Equal(t, pl.Dirty+pl.Evicting, pl.Lost)
		}
		require.Positive(t, r.Recovery.Mapped)
		// The scan is simulated on the dies (firmware.RecoverOn): at least the closed
		// form's tR per page, plus the reads' bus cycles (about 0.4 % at 333 MT/s:
		// firmware.TestRecoverOnSimulatesScan works them out), well under 2 %.
		require.Positive(t, r.Recovery.Estimate)
		require.GreaterOrEqual(t, r.Recovery.Time, r.Recovery.Estimate)
		require.Less(t, r.Recovery.Time, r.Recovery.Estimate*102/100)
		if r.Began < pl.At {
			require.Equal(t, pl.At, r.Ended)
		}
		var b bytes.Buffer
		require.NoError(t, r.WriteText(&b))
		require.Contains(t, b.String(), "power loss (fd)")
		t.Logf("plp=%v: %+v; recovery scanned %d pages in %v (closed form %v)", plp, *pl, r.Recovery.Scanned, r.Recovery.Time, r.Recovery.Estimate)
	}
}

// TestRunPowerCutRefused: a cut with the data check, and a cut without the records, are
// refused with errors naming what is wrong.
func TestRunPowerCutRefused(t *testing.T) {
	c, sc := setup(t, "fd", "db-s+ungzip", sim.Second, append(append([]string(nil), smallSets...),
		"firmware.power_loss.enabled=true", "firmware.power_loss.cut_at=600ms")...)
	_, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}, CheckData: true})
	require.EqualError(t, err, "runner: --check-data cannot be used with a power cut (firmware.power_loss.cut_at): the check reads the device back after the run")
	_, err = platforms.Load(platforms.Options{Preset: "fastdrain-tlc", Variant: "fd", Sets: []string{"firmware.power_loss.cut_at=1s"}})
	require.ErrorContains(t, err, "firmware.power_loss.cut_at: 1s is set but firmware.power_loss.enabled is false")
}

// TestRunPowerCutAfterTheEnd: a cut the scenario ends before (issue 38: it was dropped
// without a word, and the run reported as if none had been asked for) is an error naming
// cut_at and when the run ended; the run's end (set-up and the 100 ms scenario) is well
// before 1000 s.
func TestRunPowerCutAfterTheEnd(t *testing.T) {
	c, sc := setup(t, "fd", "db-s+ungzip", 100*sim.Millisecond, append(append([]string(nil), smallSets...),
		"firmware.power_loss.enabled=true", "firmware.power_loss.cut_at=1000s")...)
	_, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
	require.ErrorContains(t, err, "firmware.power_loss.cut_at: 1000s is after the end of the run (it ended at ")
	require.ErrorContains(t, err, "no power cut happened; give a cut_at before the end")
}

// TestPowerCutKeepsMachineStats: the same machine with 3 factory-bad blocks per die reports
// the same factory bad blocks with and without a power cut — 3 × the dies (smallSets: one
// way of two dies per package on every channel) — and both write utilization.csv as
// fractions of the window (at most 1), as the issue-33 drift had it otherwise: the cut's
// result lacked the fault counters and kept only the percent table.
func TestPowerCutKeepsMachineStats(t *testing.T) {
	for _, cut := range []bool{false, true} {
		sets := append(append([]string(nil), smallSets...), "flash.die.faults.factory_bad=3")
		if cut {
			sets = append(sets, "firmware.power_loss.enabled=true", "firmware.power_loss.cut_at=300ms")
		}
		c, sc := setup(t, "fd", "db-s+ungzip", 400*sim.Millisecond, sets...)
		r, err := Run(Options{Label: "fd", Config: c, Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
		require.NoError(t, err)
		require.Equal(t, cut, r.PowerLoss != nil)
		dies := c.Flash.Channels * c.Flash.Ways * c.Flash.DiesPerPackage
		v, ok := r.Stats.Value(firmware.StatFactoryBad)
		require.True(t, ok, "cut=%v: the fault counters are reported", cut)
		require.Equal(t, float64(3*dies), v, "cut=%v", cut)
		require.Equal(t, int64(3*dies), r.Faults.FactoryBad)
		require.NotNil(t, r.UtilizationFrac)
		last := len(r.UtilizationFrac.Header) - 1
		for _, row := range r.UtilizationFrac.Rows {
			f, err := strconv.ParseFloat(row[last], 64)
			require.NoError(t, err, "cut=%v: %s busy %q", cut, row[0], row[last])
			require.LessOrEqual(t, f, 1.0)
		}
	}
}
