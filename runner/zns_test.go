package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// znsMachine builds the tiny machine with one zoned namespace of superblock zones (8
// blocks × 64 pages = 2 MiB), open limit 4, nothing preconditioned, the firmware's
// invariant checks on.
func znsMachine(t *testing.T) (*platforms.Machine, *hostos.FioMachine, *hostos.RawDevice) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "zns.yaml")
	require.NoError(t, os.WriteFile(p, []byte("nvme:\n  namespaces:\n    - {type: zoned, zones: {max_open: 4}}\n"), 0o644))
	return znsMachineOf(t, p, "precondition.fill=0", "firmware.verify=true")
}

// znsMachineOf builds the tiny machine with the configuration file cfg and sets, and the
// fio view of its namespace 1.
func znsMachineOf(t *testing.T, cfg string, sets ...string) (*platforms.Machine, *hostos.FioMachine, *hostos.RawDevice) {
	t.Helper()
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Files: []string{cfg}, Sets: sets})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	raw, err := hostos.NewNamespaceDevice(m.Host, 1)
	require.NoError(t, err)
	fm, err := hostos.NewFioMachine(m.Host, raw, false)
	require.NoError(t, err)
	return m, fm, raw
}

// runJobs runs a fio job file on fm and returns the results.
func runJobs(t *testing.T, m *platforms.Machine, fm *hostos.FioMachine, doc string) []fio.JobResult {
	t.Helper()
	js, err := fio.Decode(strings.NewReader(doc), "zbd.fio")
	require.NoError(t, err)
	var res []fio.JobResult
	var runErr error
	m.Eng.Spawn("fio", func(p *sim.Proc) {
		defer m.Eng.Stop()
		res, runErr = fio.RunMachine(p, fm, js)
	})
	m.Eng.Run()
	require.NoError(t, runErr)
	return res
}

// TestFioZBDWholeStack runs fio's zonemode=zbd through the whole stack onto a zoned
// namespace, the integrity checker on (verify=crc32c reads every written block back and
// checks its data version; the firmware checks its invariants after every erase).
//
// fill: rw=write of 16 MiB (zones 0–7) at iodepth 4 in 128 KiB blocks. Its writes go to
// write pointers one zone at a time; zone write plugging keeps the four in flight in
// order. Worked by hand: every zone of the range is Full with its write pointer at its
// end, the rest Empty; 16 MiB / 4 KiB = 4,096 pages programmed, no GC, no erase (the drive
// is fresh: nothing to reset); verify finds nothing wrong.
//
// churn: rw=randwrite of 24 MiB in 4 KiB blocks over zones 8–15 (16 MiB) with
// max_open_zones=2. Once the range is full, a write that lands on a full zone resets it
// (fio's zbd_adjust_block), so by hand, whatever the order: the bytes below the write
// pointers are 24 MiB − 2 MiB × resets; each reset frees a zone of 8 fully written blocks
// with no copy, so the FTL erased 8 × resets blocks and moved nothing (WAF exactly 1: a
// ZNS drive has no device GC); the host's block layer counted the same resets as the
// device did.
func TestFioZBDWholeStack(t *testing.T) {
	m, fm, raw := znsMachine(t)
	res := runJobs(t, m, fm, `[global]
ioengine=io_uring
direct=1
zonemode=zbd
filename=/dev/nvme0n1
[fill]
rw=write
bs=128k
iodepth=4
size=16m
verify=crc32c
[churn]
stonewall
rw=randwrite
bs=4k
iodepth=4
offset=16m
size=16m
io_size=24m
max_open_zones=2
`)
	require.Equal(t, int64(0), res[0].VerifyFailures)
	require.Empty(t, res[0].Err)
	require.Empty(t, res[1].Err)
	require.Equal(t, int64(16<<20), res[0].Write.Bytes)
	require.Equal(t, int64(24<<20), res[1].Write.Bytes)
	const zone = 2 << 20
	zs := raw.Zones()
	for i := range 8 {
		require.Equal(t, nvmectrl.ZoneFull, zs[i].State, "zone %d", i)
		require.Equal(t, zs[i].Start+zone, zs[i].WP)
	}
	var below int64
	for i := 8; i < 16; i++ {
		below += zs[i].WP - zs[i].Start
	}
	for i := 16; i < len(zs); i++ {
		require.Equal(t, nvmectrl.ZoneEmpty, zs[i].State, "zone %d", i)
	}
	q := m.Host.Queues[0].Stats()
	resets := q.Zones.Resets
	require.Positive(t, resets)
	require.Equal(t, int64(24<<20)-zone*resets, below)
	f := m.SSD.FW.FTL()
	require.Equal(t, int64(0), f.Stats.GCWrites)
	require.Equal(t, 8*resets, f.Stats.Erases)
	require.Equal(t, resets, f.ZoneStats().Resets)
	require.Positive(t, q.Zones.Plugged)
	require.NoError(t, f.Check())
	t.Logf("zone resets %d, plugged writes %d", resets, q.Zones.Plugged)
}

// TestZNSTenants runs docs/placement.md's study on the zoned namespace
// (docs/placement-jobs/tenants-zns.fio on zns.yaml) and checks it by hand: no GC (WAF
// exactly 1), and 112 erases: hot writes 32 MiB through its two 2 MiB zones, 16 fills of
// which the first two find the zones empty, so 14 resets of 8-block zones; cold writes
// its 8,192 pages at random over its 20 zones (about 410 of 512 each), fills none and
// resets none. Hot's writes wait longer than cold's, and the zone statistics (below).
func TestZNSTenants(t *testing.T) {
	m, fm, _ := znsMachineOf(t, filepath.Join("..", "docs", "placement-jobs", "zns.yaml"))
	b, err := os.ReadFile(filepath.Join("..", "docs", "placement-jobs", "tenants-zns.fio"))
	require.NoError(t, err)
	res := runJobs(t, m, fm, string(b))
	require.Empty(t, res[0].Err)
	require.Empty(t, res[1].Err)
	f := m.SSD.FW.FTL()
	require.Equal(t, int64(0), f.Stats.GCWrites)
	require.Equal(t, int64(8192+8192), f.Stats.HostWrites)
	require.Equal(t, int64(14), m.Host.Queues[0].Stats().Zones.Resets)
	require.Equal(t, int64(112), f.Stats.Erases)
	// Zone write plugging keeps one write in flight per zone: hot's eight I/O slots share
	// two zones, cold's twenty, so hot waits longer (measured mean 21.2 against 11.1 ms),
	// where on a conventional drive the two means are equal
	// (TestTenantsSameLatencyByLittlesLaw).
	require.Greater(t, res[0].Write.Lat.Mean(), 1.5*res[1].Write.Lat.Mean())

	// The zone statistics (only on a drive with a zoned namespace), by hand: 16,384 host
	// pages placed, none out of write-pointer order (a FIFO buffer). A zone's page k opens
	// member k mod 8's block, so a fill opens 8: hot's 16 fills 128, and each of cold's
	// zones min(its pages, 8) (read from the zone table: cold writes at random over all 20
	// zones and resets none). 14 resets, each erasing blocks, at the block layer and the
	// firmware.
	zs, ok := m.SSD.FW.ZoneInfo(1)
	require.True(t, ok)
	opened, full := int64(16*8), 0
	for _, z := range zs[2:] { // cold's zones (hot's are 0 and 1)
		opened += min(int64(z.WP-z.Start), 8)
		if z.State == nvmectrl.ZoneFull {
			full++
		}
	}
	t.Logf("cold's zones: %d of 20 full; member blocks opened %d", full, opened)
	sn := Snapshot(m, 0)
	want := map[*sim.Stat]float64{firmware.StatZonePages: 16384, firmware.StatZoneReordered: 0,
		firmware.StatZoneBlocks: float64(opened), firmware.StatZoneResets: 14, blk.StatZoneResets: 14,
		blk.StatZonePlugged: float64(m.Host.Queues[0].Stats().Zones.Plugged)}
	for st, w := range want {
		v, ok := sn.Value(st)
		require.True(t, ok, st.Name)
		require.Equal(t, w, v, st.Name)
	}
	require.Positive(t, m.Host.Queues[0].Stats().Zones.Plugged)
	conv := Snapshot(runFDP(t, false, false), 0) // the control: no zoned namespace, no zone statistics
	for st := range want {
		_, ok := conv.Value(st)
		require.False(t, ok, st.Name)
	}
}
