package platforms

import (
	"strings"
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/hostos"
	"github.com/fastdrain-sim/fastdrain/hostos/fio"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestSLCCacheCliffQLC writes 512 MiB sequentially (128 KiB at QD 32, fio) to gen4-qlc
// with its cache cut to the static region (dynamic 0, so its size does not move with the
// fill), and checks the cliff is at the cache size. Worked by hand:
//
//   - Logical pages: 16 dies × 4 planes × 32 blocks × 512 pages × 4 units × (1 − 0.07) =
//     3,900,702. The static region, 0.012 of it in SLC blocks of 512 pages / 4 (QLC) =
//     128 pages × 4 units = 512 units, over 64 planes: 0.012 × 3,900,702 / 512 / 64 =
//     1.43, rounded up to 2 blocks a plane: 2 × 64 × 512 = 65,536 units = 256 MiB.
//   - So the first 65,536 host units go to SLC and the other 131,072 − 65,536 = 65,536
//     directly to QLC.
//   - SLC phase: a page program is tPROG 250 µs a plane; with no multi-plane merging the
//     16 dies move 16 × 16 KiB / 250 µs = 1.05 GB/s, with all four planes merged 4.19 GB/s.
//   - Direct phase: a QLC word line holds 4 pages of 16 KiB a plane and costs a coarse
//     (2,000 µs) and a fine (2,800 µs) pass: 16 dies × 64 KiB / 4.8 ms = 218 MB/s with no
//     multi-plane merging, 874 MB/s with all four planes merged.
//
// The rates measured (host units entering the FTL over each phase) must fall in those
// ranges and the direct phase be at most a third of the SLC phase: the cliff.
func TestSLCCacheCliffQLC(t *testing.T) {
	c, err := Load(Options{Preset: "gen4-qlc", Sets: []string{
		"precondition.fill=0", "precondition.overwrite=0", "firmware.ftl.slc_cache.dynamic=0"}})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	defer m.Eng.Close()
	fl := m.SSD.FW.FTL()
	require.Equal(t, int64(3_900_702), fl.LogicalPages())
	st, dyn := fl.SLCRegions()
	require.Equal(t, 2, st)
	require.Equal(t, 0, dyn)
	const cache = 2 * 64 * 512
	capacity := m.SSD.FW.LogicalPages() * int64(c.Firmware.PageSize)
	dev, err := hostos.NewRawDevice(m.Host, capacity)
	require.NoError(t, err)
	// end_fsync: the flush at the end sends the buffer's last pages to flash.
	jobs, err := fio.Decode(strings.NewReader(`
[seqwrite]
direct=1
rw=write
bs=128k
iodepth=32
size=512m
end_fsync=1
`), "seqwrite.fio")
	require.NoError(t, err)
	var t0, tCliff, tEnd sim.Time
	var atCliff ftl.SLCStats
	done := false
	m.Eng.Spawn("fio", func(p *sim.Proc) {
		defer m.Eng.Stop()
		t0 = p.Now()
		_, err = fio.Run(p, dev, capacity, jobs)
		tEnd, done = p.Now(), true
	})
	// Watch the FTL's counters every 50 µs: the cliff is the first sample with a direct write.
	m.Eng.Spawn("watch", func(p *sim.Proc) {
		for !done {
			s := fl.SLCStats()
			if tCliff == 0 && s.DirectWrites > 0 {
				tCliff, atCliff = p.Now(), s
			}
			p.Sleep(50 * sim.Microsecond)
		}
	})
	m.Eng.Run()
	require.NoError(t, err)
	s := fl.SLCStats()
	require.Equal(t, int64(cache), s.SLCWrites, "host units to SLC: the cache's size")
	// With power-loss protection the end's flush leaves the buffer's pages where they are
	// (durable already): the rest went directly to QLC.
	left := int64(m.SSD.FW.Buffer().Dirty())
	require.Equal(t, int64(131_072-cache)-left, s.DirectWrites)
	require.Zero(t, s.FoldUnits, "no idle time and the region did not shrink: no fold")
	// When the first direct write was seen, the cache was full to within one sample's writes
	// (the dies fill their caches in turn, a die at a time going direct).
	require.InDelta(t, cache, atCliff.SLCWrites, 0.02*cache, "at the cliff")
	slc := float64(atCliff.SLCWrites*4096) / (float64(tCliff-t0) / 1e12) / 1e9
	direct := float64((s.DirectWrites-atCliff.DirectWrites)*4096) / (float64(tEnd-tCliff) / 1e12) / 1e9
	t.Logf("SLC phase %.3f GB/s to %v, direct phase %.3f GB/s to %v", slc, tCliff, direct, tEnd)
	require.Greater(t, slc, 1.05*0.9)
	require.Less(t, slc, 4.19)
	require.Greater(t, direct, 0.218)
	require.Less(t, direct, 0.874)
	require.Less(t, direct, slc/3, "the cliff")
	// Direct mode runs from the first direct program's issue, within a sample and a die's
	// queue of the cliff seen here, to the end.
	require.InDelta(t, float64(tEnd-tCliff), float64(m.SSD.FW.SLCDirectTime()), float64(5*sim.Millisecond))
	require.NoError(t, fl.Check())
}

// TestSLCCacheRefusals: the combinations the cache does not serve are refused at build,
// naming the cache's key and the other one.
func TestSLCCacheRefusals(t *testing.T) {
	for _, c := range []struct{ set, want string }{
		{"flash.die.faults.erase_fail=0.001", "firmware.ftl.slc_cache: not with a fault model (flash.die.faults)"},
		{"firmware.ftl.mapping=bast", `ftl.slc_cache: an SLC cache needs page-level mapping, not ftl.mapping "bast"`},
	} {
		cfg, err := Load(Options{Preset: "gen4-qlc", Sets: []string{c.set}})
		if err == nil {
			var m *Machine
			m, err = Build(cfg)
			if err == nil {
				m.Eng.Close()
			}
		}
		require.Error(t, err, c.set)
		require.Contains(t, err.Error(), c.want, c.set)
	}
}
