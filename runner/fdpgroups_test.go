package runner

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
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
// WAF rises. Each spilled page is reported to the host as a Media Reallocated controller
// event (80h): cold's, so PID 8001h (group 1, placement handle 1), NSID 1, handle 1, group
// 1, NLBAM 1 (4 KiB pages of 4 KiB blocks) and an LBA in cold's range [4 MiB, 44 MiB) /
// 4 KiB = [1024, 11264). The log keeps the first 63 controller events: with more than 63
// pages spilled it is full. The FDP Events log page (LSP 1) carries them: NEVENTS, and the
// first event's type, PIV|NSIDV, PID, and its Event Type Specific LBAV, NLBAM and LBA.
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

	ctrl := fw.FDPInfo().CtrlEvents
	require.Len(t, ctrl, 63, "%v pages spilled fill the log", spilled)
	var realloc []nvme.FDPEvent
	for _, e := range ctrl {
		if e.Type == nvme.EventMediaReallocated {
			realloc = append(realloc, e)
		}
	}
	require.NotEmpty(t, realloc)
	for _, e := range realloc {
		require.Equal(t, [4]uint16{0x8001, 1, 1, 1}, [4]uint16{e.PID, uint16(e.NSID), e.RUHID, e.RGID})
		require.Equal(t, uint16(1), e.NLBAM)
		require.GreaterOrEqual(t, e.LBA, uint64(1024))
		require.Less(t, e.LBA, uint64(11264))
	}
	page, ok := m.SSD.Ctrl.FDPLog(nvmectrl.LogFDPEvents, 1)
	require.True(t, ok)
	le := binary.LittleEndian
	require.Equal(t, uint32(63), le.Uint32(page[0:]), "NEVENTS")
	first := 64
	for i, e := range ctrl {
		if e.Type == nvme.EventMediaReallocated {
			first = 64 * (i + 1)
			break
		}
	}
	d := page[first:]
	require.Equal(t, []byte{0x80, 0x03}, d[0:2], "type 80h, PIV and NSIDV")
	require.Equal(t, uint16(0x8001), le.Uint16(d[2:]))
	require.Equal(t, byte(0x01), d[16], "LBAV")
	require.Equal(t, uint16(1), le.Uint16(d[18:]))
	require.Equal(t, realloc[0].LBA, le.Uint64(d[20:]))
}
