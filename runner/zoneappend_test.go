package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestZNSTenantsZoneAppend runs the ZNS tenants (TestZNSTenants) with fio sending Zone
// Append by NVMe passthrough (docs/placement-jobs/tenants-zns-append.fio: io_uring_cmd,
// write_mode=zone_append), once as it is, with writefua=1, so each append waits for its data to be
// programmed as the block-layer writes of tenants-zns.fio do (the preset's O_DIRECT FUA),
// and once without. fio's zbd logic is the same, so by hand the same counts as
// TestZNSTenants: 14 resets of hot's zones, 14 × 8 = 112 erases, no GC. What differs is
// the zone write plug: the block layer keeps one write in flight per zone, where appends
// pass it (none plugged), so hot's eight I/O slots are no longer confined to its two
// zones' one write each and hot's mean latency falls to about cold's (both keep 8 in
// flight through one device: Little's law, TestTenantsSameLatencyByLittlesLaw), below the
// write version's hot mean (21.2 ms there). Without FUA an append completes once its data
// is in the write buffer, and a reset drops what of the zone is still buffered (a volatile
// cache: firmware/znserase.go), so fewer than 16,384 pages reach the flash.
func TestZNSTenantsZoneAppend(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "placement-jobs", "tenants-zns-append.fio"))
	require.NoError(t, err)
	cfg := filepath.Join("..", "docs", "placement-jobs", "zns.yaml")

	m, fm, _ := znsMachineOf(t, cfg)
	require.Contains(t, string(b), "writefua=1\n")
	res := runJobs(t, m, fm, string(b))
	require.Empty(t, res[0].Err)
	require.Empty(t, res[1].Err)
	f := m.SSD.FW.FTL()
	q := m.Host.Queues[0].Stats()
	require.Zero(t, f.Stats.GCWrites)
	require.Equal(t, int64(8192+8192), f.Stats.HostWrites, "FUA: every append is programmed")
	require.Equal(t, int64(14), q.Zones.Resets)
	require.Equal(t, int64(112), f.Stats.Erases)
	require.Zero(t, q.Zones.Plugged, "appends pass the zone write plugs")
	hot, cold := res[0].Write.Lat.Mean(), res[1].Write.Lat.Mean()
	t.Logf("zone append, FUA: mean hot %.2f ms, cold %.2f ms", hot/1e9, cold/1e9)
	require.InDelta(t, 1, hot/cold, 0.15, "hot no longer waits on its zones' plugs")

	m2, fm2, _ := znsMachineOf(t, cfg)
	res2 := runJobs(t, m2, fm2, strings.Replace(string(b), "writefua=1\n", "", 1))
	require.Empty(t, res2[0].Err)
	f2 := m2.SSD.FW.FTL()
	require.Equal(t, int64(14), m2.Host.Queues[0].Stats().Zones.Resets)
	require.Less(t, f2.Stats.HostWrites, int64(16384), "resets drop buffered pages of appends completed without FUA")
	require.Less(t, res2[0].Write.Lat.Mean(), hot, "without FUA an append completes at the buffer")
}

// TestZoneAppendWholeStack sends Zone Appends through the whole stack (passthrough from
// RawDevice.ZoneAppend to the firmware) on a fresh zoned namespace of the tiny preset,
// zones of 8 blocks × 64 pages × 4 KiB = 2 MiB, worked by hand from the ZNS Command Set
// Specification 1.1 ("Zone Append command": the data goes to the zone's write pointer,
// whose LBA the completion returns; Zone Is Full for a full zone; Zone Boundary Error
// when the blocks would pass the zone's capacity):
//
//   - zone 1 (from 2 MiB): 12 KiB then 8 KiB appended go to 2 MiB and 2 MiB + 12 KiB. The
//     second names the zone's start although the write pointer is 3 blocks on: a Write
//     there would be Zone Invalid Write, so its success shows the command is an append.
//   - zone 0: sixteen 128 KiB appends (the preset's largest request) fill its 512 blocks
//     (Full), at 0, 128, … 1,920 KiB; a seventeenth is Zone Is Full.
//   - zone 2 (from 4 MiB): 15 × 128 KiB + 112 KiB = 508 blocks; 32 KiB (8 blocks) more
//     would pass the 512-block capacity: Zone Boundary Error, and the write pointer stays,
//     so 16 KiB (4 blocks) then fit exactly and fill the zone.
func TestZoneAppendWholeStack(t *testing.T) {
	m, _, raw := znsMachine(t)
	const kib, mib = int64(1024), int64(1 << 20)
	type call struct {
		zone, size int64
		want       int64  // byte offset returned
		err        string // status expected instead
	}
	calls := []call{
		{zone: 2 * mib, size: 12 * kib, want: 2 * mib},
		{zone: 2 * mib, size: 8 * kib, want: 2*mib + 12*kib},
	}
	for k := range int64(16) {
		calls = append(calls, call{zone: 0, size: 128 * kib, want: k * 128 * kib})
	}
	calls = append(calls, call{zone: 0, size: 4 * kib, err: "Zone Is Full"})
	for k := range int64(15) {
		calls = append(calls, call{zone: 4 * mib, size: 128 * kib, want: 4*mib + k*128*kib})
	}
	calls = append(calls,
		call{zone: 4 * mib, size: 112 * kib, want: 4*mib + 1920*kib},
		call{zone: 4 * mib, size: 32 * kib, err: "Zone Boundary Error"},
		call{zone: 4 * mib, size: 16 * kib, want: 4*mib + 2032*kib})
	m.Eng.Spawn("append", func(p *sim.Proc) {
		defer m.Eng.Stop()
		for i, c := range calls {
			_, got, err := raw.ZoneAppend(p, c.zone, c.size, false)
			if c.err != "" {
				require.ErrorContains(t, err, c.err, "call %d", i)
				continue
			}
			require.NoError(t, err, "call %d", i)
			require.Equal(t, c.want, got, "call %d", i)
		}
	})
	m.Eng.Run()
	zs, ok := m.SSD.FW.ZoneInfo(1)
	require.True(t, ok)
	require.Equal(t, nvmectrl.ZoneFull, zs[0].State)
	require.Equal(t, nvmectrl.ZoneImplOpen, zs[1].State)
	require.Equal(t, uint64(5), zs[1].WP-zs[1].Start, "blocks")
	require.Equal(t, nvmectrl.ZoneFull, zs[2].State, "508 + 4 blocks fill zone 2")
}
