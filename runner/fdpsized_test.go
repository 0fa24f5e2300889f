package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/stretchr/testify/require"
)

// groupsRun runs tenants-fdp-groups.fio (hot through group 0's handle 0, cold through
// group 1's handle 1) on the tiny FDP drive with the given config.
func groupsRun(t *testing.T, cfg string) *platforms.Machine {
	p := filepath.Join(t.TempDir(), "fdp.yaml")
	require.NoError(t, os.WriteFile(p, []byte(cfg), 0o644))
	m, fm, _ := tinyMachine(t, p)
	for _, r := range runJobs(t, m, fm, placementJobs(t, "tenants-fdp-groups.fio")) {
		require.Empty(t, r.Err)
	}
	require.NoError(t, m.SSD.FW.FTL().Check(), "isolation, per reclaim group")
	return m
}

// TestFDPSizedReclaimGroups: the two tenants in two reclaim groups, equal (2 + 2 dies,
// the control) and sized to what each writes (docs/placement-jobs/groups-1-3.yaml: hot's
// 4 MiB in a group of 1 die, 16 MiB raw; cold's 32 MiB of distinct pages in 3 dies, 48 MiB
// raw). From the geometry (a die is 2 planes × 32 blocks × 64 pages of 4 KiB, 16 MiB):
// with equal groups cold's 32 MiB must go to 2 dies, 32 MiB raw, which also hold their
// share of the preconditioned data, so the group runs out of room (pages spill out of it,
// GC moves preconditioned data); with 3 dies it has half as much again. Expected: fewer
// pages spilled and a lower WAF with the sized groups (measured: 1,025 → 0 pages, WAF
// 1.351 → 1.033, run 16.02 → 14.63 s); the hot group's reclaim units are half the size
// of the equal groups' (2 blocks, 128 pages, against 4), so hot starts more of them.
func TestFDPSizedReclaimGroups(t *testing.T) {
	const base = "nvme:\n  hint_carrier: cdw2\n  fdp:\n    enabled: true\n    handles: 2\n"
	eq := groupsRun(t, base+"    reclaim_groups: 2\n")
	b, err := os.ReadFile(filepath.Join("..", "docs", "placement-jobs", "groups-1-3.yaml"))
	require.NoError(t, err)
	sized := groupsRun(t, string(b))
	fe, fs := eq.SSD.FW.FTL(), sized.SSD.FW.FTL()
	require.Equal(t, []int{0, 1, 1, 1}, []int{fs.GroupOf(0), fs.GroupOf(2), fs.GroupOf(1), fs.GroupOf(3)},
		"interleaved positions 0–3 are dies 0, 2, 1, 3: group 0 takes the first")
	require.Equal(t, int64(2*64), fs.ReclaimUnitPagesIn(0))
	require.Equal(t, int64(6*64), fs.ReclaimUnitPagesIn(1))
	t.Logf("WAF equal %.3f, sized %.3f; spilled %d / %d; run %v / %v", fe.Stats.WAF(), fs.Stats.WAF(),
		fe.GroupFallbacks(), fs.GroupFallbacks(), eq.Eng.Now(), sized.Eng.Now())
	require.Positive(t, fe.GroupFallbacks())
	require.Zero(t, fs.GroupFallbacks())
	require.Less(t, fs.Stats.WAF(), fe.Stats.WAF())
	require.Greater(t, fs.HandleStats(0).ReclaimUnits, fe.HandleStats(0).ReclaimUnits)
}
