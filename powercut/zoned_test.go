package powercut

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/internal/testtier"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestZonedPowerCuts runs the checker on a zoned namespace (tiny machine, one zoned
// namespace of 512 KiB in zones of one block: 64 pages, 2 zones; 2 processes of one zone
// each, writes at write pointers, full zones reset), with and without power-loss
// protection, cut at every schedule and the zoned-only zone-backup (ZonedSchedules): no
// durable write is lost, no read is stale, and every rebuilt write pointer lies between
// the end of the zone's durable writes and the pages issued to it since its last reset
// (zoned.go). The zones are small, so the processes fill and reset them during the run:
// resets are cut in flight too. A zoned namespace has no GC, so the gc-erase schedule waits
// for the erases of reset zones. Without protection each Flush and FUA write backs up the
// zone's provisional pages (firmware/znsbackup.go): before that the processes stalled at
// their first Flush (4 writes in all by the first cut); they now write and reset zones.
func TestZonedPowerCuts(t *testing.T) {
	resets, writes := zonedCuts(t, 1)
	require.Positive(t, resets, "the processes reset zones before the cuts")
	require.Greater(t, writes[false], int64(12*20), "without protection the hosts are not stuck on a Flush")
}

// TestZonedPowerCutsLong is TestZonedPowerCuts at 5 seeds a schedule (long tier: about a
// minute): without protection the zone-backup schedule meets its condition (a backup
// program on a die) at every cut.
func TestZonedPowerCutsLong(t *testing.T) {
	testtier.SkipUnlessLong(t, "the zoned campaign at 5 cuts a schedule")
	zonedCuts(t, 5)
}

// zonedCuts runs TestZonedPowerCuts' cuts with seeds 1 … seeds and returns the zone resets
// acknowledged before the cuts and the writes, without and with protection.
func zonedCuts(t *testing.T, seeds uint64) (resets int64, writes map[bool]int64) {
	p := filepath.Join(t.TempDir(), "zns.yaml")
	require.NoError(t, os.WriteFile(p, []byte("nvme:\n  namespaces:\n    - {type: zoned, size: 512KiB, zones: {blocks: 1}}\n"), 0o644))
	w := DefaultWorkload()
	w.Procs, w.Zoned = 2, true
	writes = map[bool]int64{}
	for _, plp := range []bool{false, true} {
		c, err := platforms.Load(platforms.Options{Preset: "tiny", Files: []string{p},
			Sets: []string{"precondition.fill=0", "firmware.verify=true", "firmware.power_loss.enabled=true",
				map[bool]string{false: "firmware.power_loss_protection=false", true: "firmware.power_loss_protection=true"}[plp]}})
		require.NoError(t, err)
		for _, s := range append(Schedules(), ZonedSchedules()...) {
			if s.Cycles > 1 {
				continue // a zoned namespace is not mounted after a cut (platforms.Mountable)
			}
			met := 0
			for seed := uint64(1); seed <= seeds; seed++ {
				cut, err := RunCut(c, w, Plan{Schedule: s, Seed: seed, From: 300 * sim.Millisecond, Window: 300 * sim.Millisecond})
				require.NoError(t, err)
				require.False(t, cut.Lost(), "plp %v, %s, seed %d: %s", plp, s.Name, seed, cut.First)
				require.Positive(t, cut.Writes)
				resets += cut.ZoneResets
				writes[plp] += cut.Writes
				if cut.Met {
					met++
				}
				t.Logf("plp %v %s seed %d: at %v met %v writes %d resets %d flash lost %d volatile %d", plp, s.Name, seed, cut.At, cut.Met, cut.Writes, cut.ZoneResets, cut.FlashLost, cut.Volatile)
			}
			if s.Name == "zone-backup" && !plp {
				require.Equal(t, int(seeds), met, "a backup program is queued or on a die at every cut")
			}
		}
	}
	return resets, writes
}
