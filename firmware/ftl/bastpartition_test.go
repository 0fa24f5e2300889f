package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// bastPartitions writes the 96 logical pages of oneDie() once in order (every logical block
// gets a full data block; each log block is switched in), then as uFLIP's partitioning
// micro-benchmark does (UFLIP.md: P partitions of the area, one sequential stream each,
// written round-robin one IO at a time), one page an IO: partition k is pages
// k·96/P … (k+1)·96/P − 1. It returns the merges and copies of the partitioned pass.
func bastPartitions(t *testing.T, p int) (switches, partials, fulls, copies int64) {
	t.Helper()
	f := newBASTFTL(t, oneDie(), 2)
	for lpn := int64(0); lpn < 96; lpn++ {
		bastWrite(t, f, lpn)
	}
	s0 := f.Stats
	part := 96 / p
	for i := 0; i < part; i++ {
		for k := 0; k < p; k++ {
			bastWrite(t, f, int64(k*part+i))
		}
	}
	s := f.Stats
	return s.SwitchMerges - s0.SwitchMerges, s.PartialMerges - s0.PartialMerges,
		s.FullMerges - s0.FullMerges, s.MergeCopies - s0.MergeCopies
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
		sw, pa, fu, cp := bastPartitions(t, p)
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
	sw, pa, fu, cp := bastPartitions(t, 3)
	require.Equal(t, [4]int64{0, 12, 82, 740}, [4]int64{sw, pa, fu, cp}, "P = 3")
}
