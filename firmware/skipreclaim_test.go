package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// skipReclaimRun runs the latency-aware allocator on the fake (4 dies of 2D-TLC 64-page
// blocks) with an LSB-only region of one block (lsb_only_pages 64) and a skip region of one
// block (lsb_only_blocks 1), reclaim on or off. Vanilla without power-loss protection makes
// each flush's eviction foreground. The host writes 128 pages and flushes, waits a second
// of simulated time, writes 80 more and flushes. It returns the firmware.
func skipReclaimRun(t *testing.T, reclaim bool) *fake {
	s := smallSpec(Vanilla, "latency-aware")
	s.PowerLossProtection = false
	s.FTL.LSBOnlyPages, s.FTL.LSBOnlyBlocks, s.FTL.LSBOnlyReclaim = 64, 1, reclaim
	r := newFake(t, s, 4096)
	r.eng.Spawn("host", func(p *sim.Proc) {
		write := func(from, n int) {
			w := make([]uint64, n)
			for j := range w {
				w[j] = Stamp(int64(from+j), 1)
			}
			r.cmd(p, nvme.OpWrite, int64(from), n, nvme.Hint{}, w)
			r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
		}
		write(0, 128)
		p.Sleep(sim.Second)
		write(128, 80)
	})
	r.eng.Run()
	return r
}

// TestSkipRegionReclaimedByGC: the skip region's reclaim on the firmware (ftl/reclaim.go),
// against the control without it. 2D-TLC 64-page blocks (die.Spec.PageType): LSB pages 0–5
// and, from page 8, two of every six (8, 9, 14, 15, …, 62, 63): 26 LSB pages a block.
//   - The first flush's 128 foreground pages go 32 to a die. On each die block A takes
//     pages 0–5; with A open the region (58 unprogrammed + a fresh block's 64 > 64) has no
//     room, so the writes skip in A (it joins the skip region, one block: the bound) to its
//     20 remaining LSB pages, filling it (26 valid, 38 skipped); A full, B opens and takes
//     pages 0–5. 32 pages a die, all LSB: 4 × 38 = 152 wasted, nothing bounded.
//   - With the reclaim, each die's skip region is at its bound with its one block full, so
//     GC collects A (its 26 valid pages moved, then the erase) although each plane has 30
//     or more free blocks: 4 reclaims, 104 pages moved, 4 erases. The second flush's 80
//     pages (20 a die) find B at page 6 (CSB) and the region empty again: they skip in B to
//     its 20 LSB pages 8 … 63. All 208 foreground writes on LSB pages. That fills B (26
//     valid, 38 skipped), the region's one block, full: GC collects it too. 8 reclaims,
//     8 × 26 = 208 pages moved, 8 erases; 4 × 38 + 4 × 38 = 304 pages skipped.
//   - Without it A stays in the region and nothing may skip: the 20 writes a die take B's
//     pages 6–25 in order, 6 of them LSB (8, 9, 14, 15, 20, 21) and 14 CSB/MSB: 56 bounded.
func TestSkipRegionReclaimedByGC(t *testing.T) {
	on := skipReclaimRun(t, true)
	l := on.fw.ftl.Stats
	require.Equal(t, int64(208), l.ForegroundWr)
	require.Equal(t, int64(208), l.LSBForFG)
	require.Zero(t, l.FGBounded)
	require.Equal(t, int64(8), l.SkipReclaims)
	require.Equal(t, int64(8*26), on.fw.Stats.GCPagesMoved)
	require.Equal(t, int64(8), l.Erases)
	require.Equal(t, int64(4*38+4*38), l.Wasted, "A's 38 and B's 38 skipped pages a die")
	require.NoError(t, on.fw.ftl.Check())

	off := skipReclaimRun(t, false)
	l = off.fw.ftl.Stats
	require.Equal(t, int64(208), l.ForegroundWr)
	require.Equal(t, int64(128+4*6), l.LSBForFG)
	require.Equal(t, int64(4*14), l.FGBounded)
	require.Zero(t, l.SkipReclaims)
	require.Zero(t, off.fw.Stats.GCPagesMoved)
	require.Equal(t, int64(4*38), l.Wasted)
	require.NoError(t, off.fw.ftl.Check())
}
