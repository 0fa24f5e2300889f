package platforms

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/pagecache"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestPageCacheDataEndToEnd (issue 22, hole 9): the page-cache path that run and compare
// use, whole stack. On the tiny machine with the full FastDrain variant, FTL invariants
// checked after every GC, and 16 MiB of host memory (4,096 page frames), a process writes
// a 9,000-page file (of the device's 12,288 logical pages) sequentially, rewrites 6,000
// random pages of it, fsyncs, and reads it all back, twice; then deletes it (a discard of
// its extents) and writes and reads back a second file. The cache holds at most 4,096
// pages, so at least 9,000 − 4,096 = 4,904 pages come back from the device on the first
// pass: every one must hold the data word the cache last wrote there (GC moves much of it
// meanwhile).
func TestPageCacheDataEndToEnd(t *testing.T) {
	c, err := Load(Options{Preset: "tiny", Variant: "fd", Sets: []string{"firmware.verify=true", "host.pagecache.memory=16MiB"}})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	pc := m.Host.Cache
	d := pc.EnableDataCheck(m.SSD.FW.LogicalPages())
	const pages = 9000
	var afterFirst int64
	var failure error
	m.Eng.Spawn("app", func(p *sim.Proc) {
		task := m.Host.Task(p)
		do := func(_ int64, err error) {
			if err != nil && failure == nil {
				failure = err
			}
		}
		f, err := pc.Create(task, "a")
		do(0, err)
		for i := int64(0); i < pages; i += 16 {
			do(pc.Write(task, f, i*pagecache.PageSize, 16*pagecache.PageSize))
		}
		rng := sim.NewRNG(5, "datacheck")
		for range 6000 {
			do(pc.Write(task, f, rng.Int64N(pages)*pagecache.PageSize, pagecache.PageSize))
		}
		do(0, pc.Fsync(task, f))
		for pass := 0; pass < 2; pass++ {
			for i := int64(0); i < pages; i += 32 {
				do(pc.Read(task, f, i*pagecache.PageSize, 32*pagecache.PageSize))
			}
			if pass == 0 {
				afterFirst = d.Checked
			}
		}
		do(0, pc.Unlink(task, f))
		g, err := pc.Create(task, "b")
		do(0, err)
		for i := int64(0); i < 2000; i++ {
			do(pc.Write(task, g, i*pagecache.PageSize, pagecache.PageSize))
		}
		do(0, pc.Fsync(task, g))
		for i := int64(0); i < 2000; i += 8 {
			do(pc.Read(task, g, i*pagecache.PageSize, 8*pagecache.PageSize))
		}
		m.Eng.Stop()
	})
	m.Eng.Run()
	require.NoError(t, failure)
	require.NoError(t, d.Err())
	t.Logf("host mem pages %d; %d pages checked (%d on the first pass); %d GC runs, %d pages moved", m.Mem.Pages(), d.Checked, afterFirst,
		m.SSD.FW.Stats.GCRuns, m.SSD.FW.Stats.GCPagesMoved)
	require.GreaterOrEqual(t, afterFirst, int64(pages-4096))
	require.Positive(t, m.SSD.FW.Stats.GCPagesMoved, "GC moved written data")
	require.NoError(t, m.SSD.FW.FTL().Check())
}
