package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fdpJobs are docs/placement-jobs' two tenants on the namespace, run side by side (the
// study of docs/placement.md): hot rewrites a 4 MiB region (1,024 pages) eight times over,
// cold writes 32 MiB once at random in a 40 MiB region (fio's random map: 8,192 distinct
// pages of its 10,240). With placement (tenants-fdp.fio), hot writes through placement ID
// index 0 and cold through index 1.
func fdpJobs(t *testing.T, placed bool) string {
	name := "tenants.fio"
	if placed {
		name = "tenants-fdp.fio"
	}
	b, err := os.ReadFile(filepath.Join("..", "docs", "placement-jobs", name))
	require.NoError(t, err)
	return string(b)
}

// runFDP runs fdpJobs on the tiny machine (its 64 MiB half filled by preconditioning)
// with FDP on or off in the controller and returns the machine.
func runFDP(t *testing.T, fdpOn, placed bool) *platforms.Machine {
	t.Helper()
	m, _ := runFDPJobs(t, fdpOn, placed)
	return m
}

// tinyMachine builds the tiny preset with the config files and opens namespace 1 for fio.
func tinyMachine(t *testing.T, files ...string) (*platforms.Machine, *hostos.FioMachine, *hostos.RawDevice) {
	t.Helper()
	c, err := platforms.Load(platforms.Options{Preset: "tiny", Files: files})
	require.NoError(t, err)
	m, err := platforms.Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	raw, err := hostos.NewRawDevice(m.Host, m.SSD.FW.LogicalPages()*int64(c.Firmware.PageSize))
	require.NoError(t, err)
	fm, err := hostos.NewFioMachine(m.Host, raw, false)
	require.NoError(t, err)
	return m, fm, raw
}

// runFDPJobs is runFDP returning the jobs' results too.
func runFDPJobs(t *testing.T, fdpOn, placed bool) (*platforms.Machine, []fio.JobResult) {
	t.Helper()
	files := []string{}
	if fdpOn {
		p := filepath.Join(t.TempDir(), "fdp.yaml")
		require.NoError(t, os.WriteFile(p, []byte("nvme:\n  hint_carrier: cdw2\n  fdp:\n    enabled: true\n    handles: 2\n"), 0o644))
		files = append(files, p)
	}
	m, fm, _ := tinyMachine(t, files...)
	jobs, err := fio.Decode(strings.NewReader(fdpJobs(t, placed)), "tenants.fio")
	require.NoError(t, err)
	var res []fio.JobResult
	var runErr error
	m.Eng.Spawn("fio", func(p *sim.Proc) {
		defer m.Eng.Stop()
		res, runErr = fio.RunMachine(p, fm, jobs)
	})
	m.Eng.Run()
	require.NoError(t, runErr)
	require.NoError(t, m.SSD.FW.FTL().Check(), "the invariant checker, isolation included")
	return m, res
}

// TestFDPTenantsWholeStack is FDP end to end: fio's fdp options become write streams, the
// NVMe driver's placement identifiers, the firmware's reclaim unit handles and the FTL's
// reclaim units. Worked by hand: the FDP Statistics' host bytes are the jobs' 2 × 32 MiB =
// 67,108,864; cold's 8,192 distinct pages are the only ones written through handle 1, so
// exactly 8,192 logical pages of its region are tagged with handle 1 when the run ends
// (the rest keep handle 0: the preconditioned data, or never written). The control: the
// same jobs without placement, on the conventional drive and on the FDP drive (everything
// through placement handle 0). Mixed, GC victims hold cold pages still valid beside dead
// hot ones and move them; separated, hot reclaim units die whole and cold ones stay valid,
// so GC moves far fewer pages and the WAF falls (measured: 1.386 conventional, 1.385
// mixed on the FDP drive, 1.018 separated).
func TestFDPTenantsWholeStack(t *testing.T) {
	conv := runFDP(t, false, false).SSD.FW.FTL().Stats.WAF()
	mixedM := runFDP(t, true, false)
	m := runFDP(t, true, true)
	mixed, sep := mixedM.SSD.FW.FTL().Stats.WAF(), m.SSD.FW.FTL().Stats.WAF()
	t.Logf("WAF conventional %.3f, FDP without placement %.3f, FDP with placement %.3f", conv, mixed, sep)
	require.Less(t, sep, conv)
	require.Less(t, sep, mixed)

	fw := m.SSD.FW
	info := fw.FDPInfo()
	require.Equal(t, uint64(2*32<<20), info.HostBytes)
	require.Empty(t, info.HostEvents)
	f := fw.FTL()
	tagged := 0
	for lpn := int64(1024); lpn < 1024+10240; lpn++ {
		if f.HandleOf(lpn) == 1 {
			tagged++
		}
	}
	require.Equal(t, 8192, tagged)
	for lpn := int64(0); lpn < 1024; lpn++ {
		require.Equal(t, 0, f.HandleOf(lpn), "hot lpn %d", lpn)
	}
	h0, h1 := f.HandleStats(0), f.HandleStats(1)
	require.Equal(t, f.Stats.HostWrites, h0.HostWrites+h1.HostWrites, "every flash write of host data went through a handle")
	require.Less(t, h1.GCWrites, mixedM.SSD.FW.FTL().HandleStats(0).GCWrites)
}

// TestTenantsSameLatencyByLittlesLaw explains why docs/placement.md's conventional and FDP
// runs give hot and cold the same latency figures although each job's figures come from
// its own requests (fiorun.TestTableTenantsOwnFigures): each job keeps iodepth D = 8 writes
// in flight until its last submission, so by Little's law the sum of its N = 8,192
// latencies is the integral of its writes in flight, D × its span less the drain after its
// last submission (at most D × its largest latency):
//
//	D × span / N − D × max / N ≤ mean ≤ D × span / N.
//
// The drive serves the two jobs' writes in one stream (one queue pair, the FIFO write
// buffer), so neither is favoured and both end together (measured 0.04 µs apart on the
// conventional drive): the same span, the same mean. On the zoned namespace they do not
// end together (hot waits on its two zones' plugs: TestZNSTenants) and their means differ.
func TestTenantsSameLatencyByLittlesLaw(t *testing.T) {
	_, res := runFDPJobs(t, false, false)
	require.Len(t, res, 2)
	const d, n = 8, 8192
	for _, r := range res {
		require.Equal(t, int64(n), r.Write.IOs, r.Name)
		span := float64(r.End - r.MeasureStart)
		mean, most := r.Write.Lat.Mean(), float64(r.Write.Lat.Max())
		require.LessOrEqual(t, mean, d*span/n, r.Name)
		require.GreaterOrEqual(t, mean, d*span/n-d*most/n, r.Name)
	}
	hot, cold := res[0], res[1]
	require.InDelta(t, float64(hot.End), float64(cold.End), float64(sim.Millisecond), "the jobs end together")
	require.InEpsilon(t, hot.Write.Lat.Mean(), cold.Write.Lat.Mean(), 0.01)
}

// TestFDPTenantNamespaces: the two tenants of TestFDPTenantsWholeStack on namespaces of
// their own (/dev/nvme0n1 and /dev/nvme0n2: 8 MiB and the 40 MiB left of the drive's 48 MiB
// logical space) with queue
// pairs of their own; namespace 1's one placement handle references reclaim unit handle 0,
// namespace 2's handle 1, so each job's fdp=1 writes (placement ID index 0 of its
// namespace) land in its tenant's reclaim units. Worked by hand: namespace 2 starts at
// logical page 8 MiB / 4 KiB = 2,048; cold writes 8,192 distinct pages of its 10,240
// (fio's random map), so exactly 8,192 pages from 2,048 on carry handle 1;
// hot's region (pages 0 … 1,023) is all handle 0's. A write without a directive goes
// through its namespace's placement handle 0 (the specification's default), which here
// already separates the tenants: the jobs without fdp=1 give the same WAF to the last
// digit. The control is the same two namespaces on a conventional drive (no FDP): there the
// WAF is higher (measured 1.373 against 1.018).
func TestFDPTenantNamespaces(t *testing.T) {
	cfg := `nvme:
  hint_carrier: cdw2
  fdp: {enabled: true, handles: 2}
  namespaces:
    - {size: 8MiB, lba_size: 4096, placement_handles: [0]}
    - {lba_size: 4096, placement_handles: [1]}
host:
  nvme:
    tenants:
      - {namespace: 1, queues: 1}
      - {namespace: 2, queues: 1}
`
	jobs := func(fdp string) string {
		return `[global]
ioengine=io_uring
direct=1
bs=4k
iodepth=8
rw=randwrite
io_size=32m
` + fdp + `
[hot]
filename=/dev/nvme0n1
size=4m
[cold]
filename=/dev/nvme0n2
size=40m
`
	}
	conventional := strings.NewReplacer("  hint_carrier: cdw2\n  fdp: {enabled: true, handles: 2}\n", "",
		", placement_handles: [0]", "", ", placement_handles: [1]", "").Replace(cfg)
	run := func(cfg, doc string) *platforms.Machine {
		p := filepath.Join(t.TempDir(), "ns.yaml")
		require.NoError(t, os.WriteFile(p, []byte(cfg), 0o644))
		c, err := platforms.Load(platforms.Options{Preset: "tiny", Files: []string{p}})
		require.NoError(t, err)
		m, err := platforms.Build(c)
		require.NoError(t, err)
		t.Cleanup(m.Eng.Close)
		raw, err := hostos.NewNamespaceDevice(m.Host, 1)
		require.NoError(t, err)
		fm, err := hostos.NewFioMachine(m.Host, raw, false)
		require.NoError(t, err)
		js, err := fio.Decode(strings.NewReader(doc), "ns.fio")
		require.NoError(t, err)
		var runErr error
		m.Eng.Spawn("fio", func(p *sim.Proc) {
			defer m.Eng.Stop()
			_, runErr = fio.RunMachine(p, fm, js)
		})
		m.Eng.Run()
		require.NoError(t, runErr)
		require.NoError(t, m.SSD.FW.FTL().Check())
		return m
	}
	conv := run(conventional, jobs(""))
	require.Zero(t, conv.SSD.FW.FDPHandles())
	undirected := run(cfg, jobs(""))
	m := run(cfg, jobs("fdp=1"))
	f := m.SSD.FW.FTL()
	require.Equal(t, int64(2048), m.SSD.FW.NamespaceBase(2))
	tagged := 0
	for lpn := int64(2048); lpn < 2048+10240; lpn++ {
		if f.HandleOf(lpn) == 1 {
			tagged++
		}
	}
	require.Equal(t, 8192, tagged)
	for lpn := int64(0); lpn < 1024; lpn++ {
		require.Equal(t, 0, f.HandleOf(lpn))
	}
	wc, wu, ws := conv.SSD.FW.FTL().Stats.WAF(), undirected.SSD.FW.FTL().Stats.WAF(), f.Stats.WAF()
	t.Logf("WAF tenants on namespaces: conventional %.3f, FDP without directives %.3f, with %.3f", wc, wu, ws)
	require.Less(t, ws, wc)
	require.Equal(t, ws, wu)
}
