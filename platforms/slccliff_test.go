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

// cliffRun is one run of TestSLCCacheCliffQLC's job on gen4-qlc with sets added: 512 MiB
// written sequentially (128 KiB at QD 32, fio) with the cache cut to its static region
// (dynamic 0, so its size does not move with the fill), the FTL's counters sampled every
// 50 µs. It returns the counters at the first sample with a direct write (the cliff) and at
// the end, and the times of the start, the cliff and the end.
type cliffRun struct {
	m                *Machine
	atCliff, end     ftl.SLCStats
	t0, tCliff, tEnd sim.Time
	left             int64 // pages still in the write buffer at the end
}

func runCliff(t *testing.T, sets ...string) cliffRun {
	t.Helper()
	r := runSeqWrite(t, "gen4-qlc", "512m", append([]string{
		"precondition.fill=0", "precondition.overwrite=0", "firmware.ftl.slc_cache.dynamic=0"}, sets...)...)
	fl := r.m.SSD.FW.FTL()
	require.Equal(t, int64(3_900_702), fl.LogicalPages())
	st, dyn := fl.SLCRegions()
	require.Equal(t, 2, st)
	require.Equal(t, 0, dyn)
	return r
}

// runSeqWrite writes size bytes sequentially (128 KiB at QD 32, fio, O_DIRECT, a flush at
// the end) on preset with sets, sampling the FTL's counters every 50 µs, and returns the
// counters and times at the cliff (the first sample with a direct write) and at the end.
func runSeqWrite(t *testing.T, preset, size string, sets ...string) cliffRun {
	t.Helper()
	c, err := Load(Options{Preset: preset, Sets: sets})
	require.NoError(t, err)
	m, err := Build(c)
	require.NoError(t, err)
	t.Cleanup(m.Eng.Close)
	fl := m.SSD.FW.FTL()
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
size=`+size+`
end_fsync=1
`), "seqwrite.fio")
	require.NoError(t, err)
	r := cliffRun{m: m}
	done := false
	m.Eng.Spawn("fio", func(p *sim.Proc) {
		defer m.Eng.Stop()
		r.t0 = p.Now()
		_, err = fio.Run(p, dev, capacity, jobs)
		r.tEnd, done = p.Now(), true
	})
	// Watch the FTL's counters every 50 µs: the cliff is the first sample with a direct write.
	m.Eng.Spawn("watch", func(p *sim.Proc) {
		for !done {
			s := fl.SLCStats()
			if r.tCliff == 0 && s.DirectWrites > 0 {
				r.tCliff, r.atCliff = p.Now(), s
			}
			p.Sleep(50 * sim.Microsecond)
		}
	})
	m.Eng.Run()
	require.NoError(t, err)
	r.end = fl.SLCStats()
	// With power-loss protection the end's flush leaves the buffer's pages where they are
	// (durable already).
	r.left = int64(m.SSD.FW.Buffer().Dirty())
	require.NoError(t, fl.Check())
	return r
}

// rates returns the host's rate into the FTL before the cliff (all to SLC) and after it
// (SLC and direct), in GB/s.
func (r cliffRun) rates() (slc, after float64) {
	slc = float64(r.atCliff.SLCWrites*4096) / (float64(r.tCliff-r.t0) / 1e12) / 1e9
	n := r.end.SLCWrites + r.end.DirectWrites - r.atCliff.SLCWrites - r.atCliff.DirectWrites
	after = float64(n*4096) / (float64(r.tEnd-r.tCliff) / 1e12) / 1e9
	return slc, after
}

// TestSLCCacheCliffQLC checks the cliff is at the cache size on gen4-qlc, with folding in
// idle only (firmware.ftl.slc_cache.fold=idle, so no write after the cliff goes to SLC
// again; TestSLCFoldUnderPressureQLC folds). Worked by hand:
//
//   - Logical pages: 16 dies × 4 planes × 32 blocks × 512 pages × 4 units × (1 − 0.07) =
//     3,900,702. The static region, 0.012 of it in SLC blocks of 512 pages / 4 (QLC) =
//     128 pages × 4 units = 512 units, over 64 planes: 0.012 × 3,900,702 / 512 / 64 =
//     1.43, rounded up to 2 blocks a plane: 2 × 64 × 512 = 65,536 units = 256 MiB.
//   - So the first 65,536 host units go to SLC and the other 131,072 − 65,536 = 65,536
//     directly to QLC.
//   - SLC phase: a page program is tPROG 250 µs a plane after its data-in (16 KiB at
//     1,600 MT/s = 10.2 µs a plane; the channel sends a program's data before the die
//     starts it, docs channel/doc.go); with no multi-plane merging the 16 dies move at most
//     16 × 16 KiB / 250 µs = 1.05 GB/s, with all four planes merged 16 × 64 KiB / 250 µs =
//     4.19 GB/s, and with the data-in of the four planes before each program 16 × 64 KiB /
//     (250 + 41) µs = 3.60 GB/s.
//   - Direct phase: a QLC word line holds 4 pages of 16 KiB a plane and costs a coarse
//     (2,000 µs) and a fine (2,800 µs) pass: 16 dies × 64 KiB / 4.8 ms = 218 MB/s with no
//     multi-plane merging, 874 MB/s with all four planes merged.
//
// The rates measured (host units entering the FTL over each phase) must fall in those
// ranges: the SLC phase above the two-plane 2.10 GB/s and the direct phase at most
// 0.874 GB/s, so the rate falls at the cliff by a factor of at least 2.10 / 0.874 = 2.4.
// foreground_per_die 16 lets the scheduler form four-plane programs (the preset's note):
// the SLC phase must pass the two-plane bound 2.10 GB/s the default of 2 held it under.
func TestSLCCacheCliffQLC(t *testing.T) {
	r := runCliff(t, "firmware.ftl.slc_cache.fold=idle")
	const cache = 2 * 64 * 512
	s := r.end
	require.Equal(t, int64(cache), s.SLCWrites, "host units to SLC: the cache's size")
	require.Equal(t, int64(131_072-cache)-r.left, s.DirectWrites, "the rest went directly to QLC")
	require.Zero(t, s.FoldUnits, "no idle time, the region did not shrink and fold=idle: no fold")
	// When the first direct write was seen, the dies had nearly filled their caches: they
	// fill them in turn, a die at a time going direct, and with up to 16 programs queued a
	// die (foreground_per_die) and 4 dies sharing a bus they run apart by up to a few
	// word lines (measured: 61,908 of 65,536, 5.5 % short, not worked by hand).
	require.InDelta(t, cache, r.atCliff.SLCWrites, 0.06*cache, "at the cliff")
	slc, direct := r.rates()
	t.Logf("SLC phase %.3f GB/s to %v, direct phase %.3f GB/s to %v", slc, r.tCliff, direct, r.tEnd)
	require.Greater(t, slc, 2.10, "past the two-plane bound")
	require.Less(t, slc, 3.60)
	require.Greater(t, direct, 0.218)
	require.Less(t, direct, 0.874)
	require.Less(t, direct, slc/2.4, "the cliff")
	// Direct mode runs from a direct program's issue to the end; an SLC program issued after
	// it (a die still filling its cache) ends it until the next direct one, so it is shorter
	// than the time from the first direct write seen by up to the dies' spread in filling
	// their caches: 3,628 units at 2.3 GB/s ≈ 6.5 ms, plus a sample.
	require.InDelta(t, float64(r.tEnd-r.tCliff), float64(r.m.SSD.FW.SLCDirectTime()), float64(10*sim.Millisecond))
}

// TestSLCFoldUnderPressureQLC: the same job with the preset's folding under pressure
// (ftl.slc_cache.fold "pressure", firmware/ftl/slccache.go). Past the cliff each plane is
// exhausted (its 2 SLC blocks full, none open), so it folds while the host writes go
// direct; a folded block is erased and the host's writes take it in SLC mode again. With
// no idle time and a region that does not move, every fold is pressure's. By hand:
//
//   - The control folds nothing (TestSLCCacheCliffQLC); here the units folded are more
//     than none, all of them past the cliff (before it no plane is exhausted).
//   - Every host unit past the cliff costs a QLC program either way (direct, or SLC then
//     folded); a folded unit costs its QLC program besides the SLC program and read, on the
//     dies the host's direct programs use. So the host's rate past the cliff cannot pass
//     the control's (fold=idle), and host plus fold units past the cliff stay within the
//     all-planes QLC rate, 874 MB/s (plus the pages allocated and still queued).
func TestSLCFoldUnderPressureQLC(t *testing.T) {
	ctl := runCliff(t, "firmware.ftl.slc_cache.fold=idle")
	r := runCliff(t)
	const cache = 2 * 64 * 512
	s := r.end
	require.Positive(t, s.FoldUnits, "folding under pressure")
	require.Zero(t, r.atCliff.FoldUnits, "no plane exhausted before the cliff")
	require.GreaterOrEqual(t, s.SLCWrites, int64(cache))
	_, after := r.rates()
	_, ctlAfter := ctl.rates()
	folded := float64((s.FoldUnits-r.atCliff.FoldUnits)*4096) / (float64(r.tEnd-r.tCliff) / 1e12) / 1e9
	t.Logf("past the cliff: host %.3f GB/s and fold %.3f GB/s (%d units, %d blocks); control %.3f GB/s",
		after, folded, s.FoldUnits, s.FoldBlocks, ctlAfter)
	// The fold takes its share of the dies (the preset's fold_share 0.25; TestFoldShareQLC
	// works it), so the host's rate falls.
	require.LessOrEqual(t, after, ctlAfter, "folding competes with the host's writes")
	// Units enter the FTL when allocated, before their programs: at the end up to 16 dies ×
	// 16 programs queued (foreground_per_die) × 16 KiB = 4 MiB more than were programmed.
	queued := float64(16*16*16384) / (float64(r.tEnd-r.tCliff) / 1e12) / 1e9
	require.Less(t, after+folded, 0.874+queued)
}

// TestFoldShareQLC: past the cliff of TestSLCCacheCliffQLC's job, the fold's own
// scheduling (firmware.scheduler.fold_share, firmware/foldshare.go) gives the fold its
// share of the dies' time. Each unit's die time worked by hand from the preset's timings
// (the command cycles, under 1 µs, left out):
//
//   - a host unit direct to QLC: a four-plane word line of 4 × 4 pages × 4 units = 64 units
//     costs the coarse and fine passes, 2,000 + 2,800 = 4,800 µs, 75 µs a unit, plus its
//     data-in, 4 KiB at 1,600 MT/s = 2.56 µs: 77.56 µs;
//   - a host unit to SLC (the host takes folded blocks again): a four-plane pSLC program
//     of 16 units costs tPROG 250 µs, 15.625 µs a unit, plus 2.56 µs: 18.185 µs;
//   - a folded unit: its SLC page sensed once for its 4 units (tR 25 µs, 6.25 µs a unit)
//     and its data-out (2.56 µs), then a QLC program as a direct unit's (77.56 µs):
//     86.37 µs.
//
// The fold's part of the work the dies did past the cliff, fold / (fold + host) in those
// costs, must be the share: 0.25 within 3 points (measured 0.232: a fold's operations wait
// in the channel for the bus as the host's do, and the charge counts that wait). The
// control (fold_share 0, folds scheduled as GC) gives the fold under 2 %. The work worked
// out is at most what the 16 dies can do in the time, and the fold's rate is at most
// its share of the dies: 0.25 × 16 × 4,096 B / 86.37 µs = 190 MB/s.
func TestFoldShareQLC(t *testing.T) {
	const direct, slc, fold = 77.56e-6, 18.185e-6, 86.37e-6 // s a unit, by hand
	work := func(r cliffRun) (host, folded, avail float64) {
		host = float64(r.end.DirectWrites-r.atCliff.DirectWrites)*direct +
			float64(r.end.SLCWrites-r.atCliff.SLCWrites)*slc
		folded = float64(r.end.FoldUnits-r.atCliff.FoldUnits) * fold
		return host, folded, 16 * float64(r.tEnd-r.tCliff) / 1e12
	}
	// Without cache program (the preset's flash.die.cache_program), so each program's
	// data-in holds the die as worked above.
	r := runCliff(t, "firmware.scheduler.fold_share=0.25", "flash.die.cache_program=false")
	host, folded, avail := work(r)
	_, after := r.rates()
	rate := float64((r.end.FoldUnits-r.atCliff.FoldUnits)*4096) / (float64(r.tEnd-r.tCliff) / 1e12) / 1e9
	t.Logf("past the cliff: host %.3f GB/s, fold %.3f GB/s; die work host %.3f s, fold %.3f s (%.3f), of %.3f s",
		after, rate, host, folded, folded/(host+folded), avail)
	require.InDelta(t, 0.25, folded/(host+folded), 0.03, "the fold's share of the dies' work")
	require.LessOrEqual(t, host+folded, avail, "no more work than the dies can do")
	require.LessOrEqual(t, rate, 0.25*16*4096/fold/1e9)
	ctl := runCliff(t, "firmware.scheduler.fold_share=0", "flash.die.cache_program=false")
	host, folded, _ = work(ctl)
	require.Less(t, folded/(host+folded), 0.02, "scheduled as GC, the fold is a trickle")
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
