package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/stretchr/testify/require"
)

// TestFDPReclaimGroupsWholeStack runs docs/placement-jobs/tenants-fdp-groups.fio on the
// tiny drive with two reclaim groups (nvme.fdp.reclaim_groups=2): the namespace offers
// 2 × 2 write streams (placement IDs 0, 1, 8000h, 8001h: RGIF 1), hot writes through index
// 0 (group 0, handle 0), cold through index 3 (group 1, handle 1). Worked by hand: the FDP
// Statistics' host bytes are 2 × 32 MiB; cold's 8,192 distinct pages are the only ones
// written through handle 1; the invariant checker finds every page written for a group on
// that group's dies (and no block holding two handles' data). The direction against one
// group (TestFDPTenantsWholeStack's separated run, WAF 1.018): each tenant now has half
// the dies, and cold's 32 MiB go to group 1's half of a drive already half filled by
// preconditioning, so group 1's GC must move preconditioned data to make room, and when
// its planes are at the GC reserve cold pages spill to group 0 (fdp_group_fallback_pages):
// WAF rises.
func TestFDPReclaimGroupsWholeStack(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fdp.yaml")
	require.NoError(t, os.WriteFile(p, []byte("nvme:\n  hint_carrier: cdw2\n  fdp:\n    enabled: true\n    handles: 2\n    reclaim_groups: 2\n"), 0o644))
	m, fm, raw := tinyMachine(t, p)
	require.Equal(t, 4, raw.WriteStreams())
	b, err := os.ReadFile(filepath.Join("..", "docs", "placement-jobs", "tenants-fdp-groups.fio"))
	require.NoError(t, err)
	res := runJobs(t, m, fm, string(b))
	require.Empty(t, res[0].Err)
	require.Empty(t, res[1].Err)
	fw := m.SSD.FW
	f := fw.FTL()
	require.NoError(t, f.Check(), "isolation, per reclaim group")
	require.Equal(t, uint64(2*32<<20), fw.FDPInfo().HostBytes)
	tagged := 0
	for lpn := int64(1024); lpn < 1024+10240; lpn++ {
		if f.HandleOf(lpn) == 1 {
			tagged++
		}
	}
	require.Equal(t, 8192, tagged)
	one := runFDP(t, true, true).SSD.FW.FTL().Stats.WAF()
	sn := Snapshot(m, 0)
	spilled, ok := sn.Value(firmware.StatFDPGroupFallbacks)
	require.True(t, ok)
	t.Logf("WAF one group %.3f, two groups %.3f; pages spilled out of their group %v", one, f.Stats.WAF(), spilled)
	require.Greater(t, f.Stats.WAF(), one)
	require.Positive(t, spilled)
	require.Equal(t, float64(f.GroupFallbacks()), spilled)
}
