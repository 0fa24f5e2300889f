package runner

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// lookaheadRun runs docs/placement.md's placed tenants (tenants-fdp.fio) on the tiny FDP
// drive with the evictor's placement look-ahead window of n pages.
func lookaheadRun(t *testing.T, n int) *platforms.Machine {
	p := filepath.Join(t.TempDir(), "fdp.yaml")
	cfg := "nvme:\n  hint_carrier: cdw2\n  fdp:\n    enabled: true\n    handles: 2\nfirmware:\n  buffer:\n    placement_lookahead: " + strconv.Itoa(n) + "\n"
	require.NoError(t, os.WriteFile(p, []byte(cfg), 0o644))
	m, fm, _ := tinyMachine(t, p)
	for _, r := range runJobs(t, m, fm, placementJobs(t, "tenants-fdp.fio")) {
		require.Empty(t, r.Err)
	}
	require.NoError(t, m.SSD.FW.FTL().Check(), "isolation")
	return m
}

// TestFDPPlacementLookaheadWholeStack: the placed tenants with strict age order and with a
// look-ahead of 8 pages. Placement is the same rule either way (every page in its own
// handle's reclaim units: the host pages per handle are the jobs' 8,192 each in both
// runs), so the WAF is unchanged; what changes is how often a die visit ends on a page
// its handle cannot place there (measured: 1,760 refusals in age order, 1,220 with the
// window, which took 293 pages of the other handle out of order) and so the time the run
// takes (11.85 → 11.70 s: the evictor keeps more dies busy).
func TestFDPPlacementLookaheadWholeStack(t *testing.T) {
	ctl, la := lookaheadRun(t, 0), lookaheadRun(t, 8)
	snC, snL := Snapshot(ctl, 0), Snapshot(la, 0)
	refC, _ := snC.Value(firmware.StatFDPHeadRefusals)
	refL, _ := snL.Value(firmware.StatFDPHeadRefusals)
	taken, ok := snL.Value(firmware.StatFDPLookaheadPages)
	require.True(t, ok)
	t.Logf("refusals %v → %v, pages taken out of order %v; run %v → %v", refC, refL, taken, ctl.Eng.Now(), la.Eng.Now())
	require.Positive(t, taken)
	require.Less(t, refL, refC)
	require.Less(t, la.Eng.Now(), ctl.Eng.Now())
	for h := range 2 {
		require.Equal(t, int64(8192), la.SSD.FW.FTL().HandleStats(h).HostWrites)
		require.Equal(t, int64(8192), ctl.SSD.FW.FTL().HandleStats(h).HostWrites)
	}
	require.Equal(t, ctl.SSD.FW.FTL().Stats.WAF(), la.SSD.FW.FTL().Stats.WAF())
}
