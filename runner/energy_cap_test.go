package runner

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/apps"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestPowerCapPeak: Ungzip on fastdrain-tlc (480 dies) for 300 ms with a small buffer
// (2,048 pages) and host dirty ratios of 1 % / 2 %, so programs reach flash within the
// run. Array reads are charged at the standby current (icc1 = isb = 30 µA), so the NAND
// array's power is exactly k·82.5 mW + (480 − k)·99 µW with k dies programming or erasing
// (25 mA and 30 µA at 3.3 V). With a 3 W cap k ≤ 35 (firmware TestPowerCapValidate:
// 35 × 82.5 mW + 445 × 99 µW = 2,887.5 + 44.055 = 2,931.555 mW), so no 1 ms bucket of
// the power trace may pass 2,932 mW (the series rounds to whole mW); the programs keep the
// slots busy, so the peak is near it (above 2.8 W). Without the cap every die programs at
// once: 480 × 82.5 mW = 39.6 W.
func TestPowerCapPeak(t *testing.T) {
	peak := func(capw string) int64 {
		c, sc := setup(t, "vanilla", "ungzip", 300*sim.Millisecond, "firmware.scheduler.power_cap="+capw,
			"firmware.buffer.pages=2048", "host.pagecache.dirty.background_ratio=1", "host.pagecache.dirty.ratio=2",
			"energy.nand.icc1=30uA")
		r, err := Run(Options{Label: "vanilla", Config: c, SampleInterval: sim.Millisecond,
			Workload: Workload{Scenario: sc, Apps: apps.DefaultSpec()}})
		require.NoError(t, err)
		require.Positive(t, r.FlashUsed, "no programs reached flash")
		var p int64
		for _, s := range r.Series {
			if s.Name == "energy.nand_array_mW" {
				for _, x := range s.Samples[:len(s.Samples)-1] { // the last bucket may be short
					p = max(p, x.Value)
				}
			}
		}
		return p
	}
	capped := peak("3W")
	require.LessOrEqual(t, capped, int64(2932))
	require.Greater(t, capped, int64(2800))
	require.Greater(t, peak("0"), int64(30_000))
}
