package powercut

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestZonedPowerCuts runs the checker on a zoned namespace (tiny machine, one zoned
// namespace of 2 MiB in zones of one block: 64 pages, 8 zones; 4 processes of 2 zones
// each, writes at write pointers, full zones reset), with and without power-loss
// protection, cut at every schedule: no durable write is lost, no read is stale, and
// every rebuilt write pointer lies between the end of the zone's durable writes and the
// pages issued to it since its last reset (zoned.go). The zones are small, so the
// processes fill and reset them during the run: resets are cut in flight too. A zoned
// namespace has no GC, so the gc-erase schedule waits for the erases of reset zones.
func TestZonedPowerCuts(t *testing.T) {
	p := filepath.Join(t.TempDir(), "zns.yaml")
	require.NoError(t, os.WriteFile(p, []byte("nvme:\n  namespaces:\n    - {type: zoned, size: 512KiB, zones: {blocks: 1}}\n"), 0o644))
	w := DefaultWorkload()
	w.Procs, w.Zoned = 2, true
	var resets int64
	for _, plp := range []bool{false, true} {
		c, err := platforms.Load(platforms.Options{Preset: "tiny", Files: []string{p},
			Sets: []string{"precondition.fill=0", "firmware.verify=true", "firmware.power_loss.enabled=true",
				map[bool]string{false: "firmware.power_loss_protection=false", true: "firmware.power_loss_protection=true"}[plp]}})
		require.NoError(t, err)
		for _, s := range Schedules() {
			if s.Cycles > 1 {
				continue // a zoned namespace is not mounted after a cut (platforms.Mountable)
			}
			for seed := uint64(1); seed <= 1; seed++ {
				cut, err := RunCut(c, w, Plan{Schedule: s, Seed: seed, From: 300 * sim.Millisecond, Window: 300 * sim.Millisecond})
				require.NoError(t, err)
				require.False(t, cut.Lost(), "plp %v, %s, seed %d: %s", plp, s.Name, seed, cut.First)
				require.Positive(t, cut.Writes)
				resets += cut.ZoneResets
				t.Logf("plp %v %s seed %d: at %v writes %d resets %d", plp, s.Name, seed, cut.At, cut.Writes, cut.ZoneResets)
			}
		}
	}
	require.Positive(t, resets, "the processes reset zones before the cuts")
}
