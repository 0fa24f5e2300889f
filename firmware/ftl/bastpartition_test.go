package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// bastPartitions writes the logical pages of g (log_blocks 2) once in order (every logical
// block gets a full data block; each log block is switched in), then as uFLIP's
// partitioning micro-benchmark does (docs/sources.md §12: P partitions of the area, one sequential
// stream each, written round-robin one IO at a time), one page an IO: partition k is pages
// k·N/P … (k+1)·N/P − 1 of the N logical pages. It returns the merges and copies of the
// partitioned pass.
func bastPartitions(t *testing.T, g Geometry, p int) (switches, partials, fulls, copies int64) {
	t.Helper()
	f := newBASTFTL(t, g, 2)
	n := int(f.LogicalPages())
	for lpn := int64(0); lpn < int64(n); lpn++ {
		bastWriteOn(t, f, lpn)
	}
	s0 := f.Stats
	part := n / p
	for i := 0; i < part; i++ {
		for k := 0; k < p; k++ {
			bastWriteOn(t, f, int64(k*part+i))
		}
	}
	s := f.Stats
	return s.SwitchMerges - s0.SwitchMerges, s.PartialMerges - s0.PartialMerges,
		s.FullMerges - s0.FullMerges, s.MergeCopies - s0.MergeCopies
}

// bastWriteOn is bastWrite for any die: a write that waits must have queued a merge on
// its page's home die.
func bastWriteOn(t *testing.T, f *FTL, lpn int64) {
	t.Helper()
	for try := 0; ; try++ {
		_, err := f.WriteHost(lpn, f.HomeDie(lpn), Background)
		if err == nil {
			f.MergeNow()
			require.NoError(t, f.Check())
			return
		}
		require.ErrorIs(t, err, ErrNoSpace)
		require.Less(t, try, 1, "lpn %d still waits after a merge", lpn)
		require.True(t, f.NeedsGC(f.HomeDie(lpn), 0), "a waiting write of lpn %d queues a merge on its die", lpn)
		f.MergeNow()
		require.NoError(t, f.Check())
	}
}

func TestBASTPartitionsBreakPastTheLogBlocks(t *testing.T) {
	// oneDie(): 12 logical blocks of 8 pages on one die, log_blocks 2. Partitions of
	// 96/P pages start on logical-block boundaries for P = 1, 2, 3 (96, 48, 32 pages: 12, 6,
	// 4 logical blocks each), so each stream has exactly one logical block open at a time.
	//
	// P ≤ log_blocks = 2: every open logical block has its log block; each fills in offset
	// order and is switched in (no copy, the old data block erased): 96 / 8 = 12 switch
	// merges, 0 copies.
	for _, p := range []int{1, 2} {
		sw, pa, fu, cp := bastPartitions(t, oneDie(), p)
		require.Equal(t, [4]int64{12, 0, 0, 0}, [4]int64{sw, pa, fu, cp}, "P = %d", p)
	}
	// P = 3 = log_blocks + 1: write step t (0…95) is stream t mod 3's page t div 3, offset
	// (t div 3) mod 8. At step t ≥ 2 the pool holds the log blocks written at steps t−1 and
	// t−2, stream t mod 3's was merged at step t−1, so the write merges the least recently
	// written, the one claimed at step t−2, which holds that one page. A page at offset 0 is
	// in order: partial merge, the data block's offsets 1…7 copied (7 copies); at offset
	// k > 0 (written to log page 0) it is out of order: full merge, the 7 data-block pages
	// and the log page copied (8 copies). Merges at t = 2…95 take the pages of steps
	// 0…93; offset 0 at steps with t div 3 ∈ {0, 8, 16, 24}, i.e. 12 steps (0–2, 24–26,
	// 48–50, 72–74), all ≤ 93: 12 partial merges (84 copies) and 94 − 12 = 82 full merges
	// (656 copies): 740 copies for 96 writes, 7.7 a write, against 0 at P = 2.
	sw, pa, fu, cp := bastPartitions(t, oneDie(), 3)
	require.Equal(t, [4]int64{0, 12, 82, 740}, [4]int64{sw, pa, fu, cp}, "P = 3")
}

func TestBASTPartitionsBreakPerDieNotPerDevice(t *testing.T) {
	// Two dies of oneDie()'s blocks: 192 logical pages, lpn mod 2 the die, 12 logical blocks
	// a die, 4 log blocks in all. A stream's consecutive pages alternate dies, so every
	// partition has a logical block open on both dies: the pool of each die, not the
	// device's 2 × 2 log blocks, bounds the partitions. P = 2: all 192 / 8 = 24 logical
	// blocks filled in order, 24 switch merges, 0 copies. P = 3 (64 pages, 4 logical blocks
	// a die each): partition starts 0, 64, 128 are all on die 0, so each die sees the
	// one-die case's order (streams round-robin, 32 pages each): 12 partial and 82 full
	// merges, 740 copies, on each die: 24, 164 and 1480 in all — although 3 < 2 × 2 log blocks.
	g := oneDie()
	g.Channels = 2
	sw, pa, fu, cp := bastPartitions(t, g, 2)
	require.Equal(t, [4]int64{24, 0, 0, 0}, [4]int64{sw, pa, fu, cp}, "P = 2")
	sw, pa, fu, cp = bastPartitions(t, g, 3)
	require.Equal(t, [4]int64{0, 24, 164, 1480}, [4]int64{sw, pa, fu, cp}, "P = 3")
}
