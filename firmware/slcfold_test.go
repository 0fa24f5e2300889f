package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/channel"
	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// slcDie gives newRig's dies a pSLC mode: 66 pages a block (a multiple of the 3 pages of a
// TLC word line), 22 in SLC mode, tR 25 µs and tPROG 300 µs (die.SpecFor(SLC)'s times).
func slcDie(c *channel.Spec) {
	c.Die.PagesPerBlock = 66
	c.Die.SLC = die.SLCSpec{TRead: 25 * sim.Microsecond, TProg: 300 * sim.Microsecond, Endurance: 10}
}

// TestIntegritySLCCache is the steady-state integrity run (spanRun: preconditioned 90 %
// full, 8 processes of random writes, reads checked against the reference, trims, flushes,
// and rewrites forced during programs in flight) on dies with a pSLC mode and an SLC cache:
// host writes go to SLC blocks, GC under pressure collects (folds) them into native blocks,
// and once the host is done the idle fold folds every full SLC block before the read-back
// of the whole span, so data versions are verified on reads after folding. The
// invariant checker (firmware.verify) runs after every GC erase.
func TestIntegritySLCCache(t *testing.T) {
	spec := steadySpec(Vanilla, "sequential")
	// The fill (90 %) is past full_at: the region is the static one, ⌈0.05 · 15,206 / 22 /
	// 8⌉ = 5 blocks a plane (15,206 logical pages of 4 dies × 2 planes × 32 × 66 at 10 %
	// over-provisioning; an SLC block holds 22).
	spec.FTL.SLCCache = ftl.SLCCacheConfig{Static: 0.05, Dynamic: 0.1, Idle: sim.Millisecond}
	// The same 3,000 I/Os in -short (CI's race step): with 1,500 no host read meets an SLC
	// page (0 hits; 2 at 3,000), and the run takes a quarter of a second either way.
	ios := 3000
	r, _, _ := spanRunOn(t, spec, slcDie, ios, 5, 5)
	fl := r.fw.FTL()
	st, _ := fl.SLCRegions()
	require.Equal(t, 5, st)
	s := fl.SLCStats()
	require.Positive(t, s.SLCWrites, "host writes to the cache")
	require.Positive(t, s.DirectWrites, "host writes past it (the free blocks at the GC threshold)")
	require.Positive(t, s.FoldUnits, "folds")
	require.Positive(t, r.fw.slc.hits, "host reads of SLC pages")
	// The watch folded every full SLC block once the host was idle; what is left in SLC
	// mode is the open write points (at most one a plane).
	require.False(t, fl.SLCFoldable())
	blocks, _ := fl.SLCOccupancy()
	require.LessOrEqual(t, blocks, 8)
	t.Logf("SLC writes %d, direct %d, folded %d units in %d blocks, hits %d, direct time %v",
		s.SLCWrites, s.DirectWrites, s.FoldUnits, s.FoldBlocks, r.fw.slc.hits, r.fw.slc.directTimeAt(r.eng.Now()))
}

// TestMergeFoldPrograms: a fold program taken from a die's GC queue carries the contiguous
// fold programs behind it on the die's other planes at the same page index, as host
// programs merge (one multi-plane transaction), and nothing else. On newRig's dies (2
// planes) with a queue, head first, of fold programs to (plane 0, page 5), (plane 1, page
// 5), (plane 0, page 6), (plane 1, page 6), then a GC program that is not a fold to
// (plane 0, page 7), then folds to (plane 0, page 8) and (plane 1, page 9): the first takes
// the second (2 planes: a die's whole width) and stops; the third takes the fourth; the
// fifth merges nothing; the sixth not the seventh (another page index).
func TestMergeFoldPrograms(t *testing.T) {
	r := newRig(t, steadySpec(Vanilla, "sequential"), nil)
	s := r.fw.sched
	g := r.fw.geo
	require.Equal(t, 2, g.Planes)
	q := &s.dies[0]
	mk := func(plane, page int, fold bool) *flashOp {
		op := s.get(opGCProgram, 0)
		op.ppn, op.fold = g.PPN(ftl.Addr{Die: 0, Plane: plane, Block: 3, Page: page}), fold
		return op
	}
	ops := []*flashOp{mk(0, 5, true), mk(1, 5, true), mk(0, 6, true), mk(1, 6, true), mk(0, 7, false), mk(0, 8, true), mk(1, 9, true)}
	for _, op := range ops {
		q.gc.push(op)
	}
	var got [][]*flashOp
	for q.gc.n > 0 {
		op := q.gc.pop()
		if op.fold {
			s.mergeFold(q, op)
		}
		got = append(got, append([]*flashOp{op}, op.merged...))
	}
	require.Equal(t, [][]*flashOp{{ops[0], ops[1]}, {ops[2], ops[3]}, {ops[4]}, {ops[5]}, {ops[6]}}, got)
}
