package ftl

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// oneDie is 1 channel × 1 die × 1 plane × 16 blocks × 8 SLC pages = 128 pages; with 25 %
// over-provisioning 96 logical pages, 12 logical blocks of 8 pages (lpn = 8·lbn + offset,
// one die). A die needs 12 data + log_blocks + 1 (a full merge's block) + 1 (GC reserve)
// blocks: log_blocks 2 fits 16.
func oneDie() Geometry {
	return Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 8, Kind: SLCKind}
}

func newBASTFTL(t *testing.T, g Geometry, logBlocks int) *FTL {
	t.Helper()
	return newFTL(t, g, func(c *Config) { c.Mapping, c.LogBlocks = BASTMapping, logBlocks })
}

// write writes lpn, merging (MergeNow) and retrying once if its logical block has to wait
// for a merge; it returns how many retries it took.
func bastWrite(t *testing.T, f *FTL, lpn int64) int {
	t.Helper()
	for try := 0; ; try++ {
		_, err := f.WriteHost(lpn, 0, Background)
		if err == nil {
			f.MergeNow() // a log block filled by this write is merged now
			require.NoError(t, f.Check())
			return try
		}
		require.ErrorIs(t, err, ErrNoSpace)
		require.Less(t, try, 1, "lpn %d still waits after a merge", lpn)
		require.True(t, f.NeedsGC(0, 0), "a waiting write queues a merge")
		f.MergeNow()
		require.NoError(t, f.Check())
	}
}

func TestBASTSplitsLogicalPagesOverDies(t *testing.T) {
	// small(): 2 dies (channels), 16 pages a block. lpn → die InterleavedDie(lpn mod 2),
	// local lpn div 2, logical block (local div 16)·2 + lpn mod 2, offset local mod 16.
	f := newFTL(t, small(), func(c *Config) { c.Mapping, c.LogBlocks = BASTMapping, 1 })
	b := f.hyb.(*bast)
	for _, c := range []struct {
		lpn      int64
		lbn      int64
		off, die int
	}{
		{0, 0, 0, 0}, {1, 1, 0, 1}, {2, 0, 1, 0}, {31, 1, 15, 1}, {32, 2, 0, 0}, {35, 3, 1, 1},
	} {
		lbn, off := b.split(c.lpn)
		require.Equal(t, c.lbn, lbn, "lpn %d", c.lpn)
		require.Equal(t, c.off, off, "lpn %d", c.lpn)
		require.Equal(t, c.die, f.HomeDie(c.lpn), "lpn %d", c.lpn)
		require.Equal(t, c.lpn, b.lpnOf(lbn, off))
	}
	p, err := f.WriteHost(1, 0, Background) // die 0 asked, die 1 is lpn 1's
	require.NoError(t, err)
	require.Equal(t, 1, f.Geometry().Addr(p).Die)
}

func TestBASTSequentialWritesTakeSwitchMerges(t *testing.T) {
	f := newBASTFTL(t, oneDie(), 2)
	// Logical block 0 written in order: its log block fills in order at the 8th write and
	// is switched in: no copy, and no erase (there was no data block).
	for lpn := int64(0); lpn < 8; lpn++ {
		require.Zero(t, bastWrite(t, f, lpn))
	}
	require.Equal(t, int64(1), f.Stats.SwitchMerges)
	require.Zero(t, f.Stats.MergeCopies)
	require.Zero(t, f.Stats.Erases)
	// Written in order again: one switch merge, which erases the old data block: by hand,
	// 8 host programs, 0 copies, 1 erase for 8 writes (WAF 1).
	for lpn := int64(0); lpn < 8; lpn++ {
		require.Zero(t, bastWrite(t, f, lpn))
	}
	require.Equal(t, int64(2), f.Stats.SwitchMerges)
	require.Zero(t, f.Stats.MergeCopies)
	require.Equal(t, int64(1), f.Stats.Erases)
	require.Equal(t, 1.0, f.Stats.WAF())
	// Reads: the data block's page i holds offset i.
	d := f.hyb.(*bast).data[0]
	for lpn := int64(0); lpn < 8; lpn++ {
		require.Equal(t, f.g.FirstPage(d)+PPN(lpn), f.PageOf(f.Lookup(lpn)))
	}
}

// fillBlocks writes logical blocks 0 … n−1 in order (one switch merge each) and resets
// the statistics.
func fillBlocks(t *testing.T, f *FTL, n int64) {
	for lpn := int64(0); lpn < 8*n; lpn++ {
		bastWrite(t, f, lpn)
	}
	f.Stats = Stats{}
}

func TestBASTRandomWritesWithinThePoolMergeOnlyWhenALogBlockFills(t *testing.T) {
	f := newBASTFTL(t, oneDie(), 2)
	fillBlocks(t, f, 2)
	// k = 2 logical blocks ≤ log_blocks = 2, written out of order (offsets 7, 6, … 0 of
	// block 0 and of block 1, alternating): each has a log block; no merge until a log block
	// is full, at its 8th write (the 15th and 16th writes).
	for i := 0; i < 8; i++ {
		for lbn := int64(0); lbn < 2; lbn++ {
			_, err := f.WriteHost(8*lbn+int64(7-i), 0, Background)
			require.NoError(t, err)
			if i < 7 {
				require.False(t, f.NeedsGC(0, 0), "write %d of block %d", i, lbn)
			}
		}
	}
	require.True(t, f.NeedsGC(0, 0))
	f.MergeNow()
	require.NoError(t, f.Check())
	// Each log block holds offsets out of order: two full merges. By hand, per logical block:
	// 8 host writes, 8 copies (every offset's current page is in the log block) into a new
	// block, 2 erases (data and log block): WAF (16 + 16) / 16 = 2, 4 erases for 16 writes.
	require.Equal(t, int64(2), f.Stats.FullMerges)
	require.Equal(t, int64(16), f.Stats.MergeCopies)
	require.Equal(t, int64(4), f.Stats.Erases)
	require.Equal(t, 2.0, f.Stats.WAF())
}

func TestBASTPartialMergeCopiesTheRestOfTheDataBlock(t *testing.T) {
	f := newBASTFTL(t, oneDie(), 2)
	fillBlocks(t, f, 3)
	// Offsets 0–2 of block 0 in order, then block 1 and block 2: block 2 finds the pool
	// (blocks 0 and 1) in use and waits; the least recently written log block, block 0's,
	// is merged: in order with 3 pages, a partial merge copies offsets 3–7 of the data block
	// (5 pages) into it and erases the data block.
	for _, lpn := range []int64{0, 1, 2, 8} {
		require.Zero(t, bastWrite(t, f, lpn))
	}
	require.Equal(t, 1, bastWrite(t, f, 16))
	require.Equal(t, int64(1), f.Stats.PartialMerges)
	require.Equal(t, int64(5), f.Stats.MergeCopies)
	require.Equal(t, int64(1), f.Stats.Erases)
	// Block 0's data block is its old log block, page i offset i.
	d := f.hyb.(*bast).data[0]
	for lpn := int64(0); lpn < 8; lpn++ {
		require.Equal(t, f.g.FirstPage(d)+PPN(lpn), f.PageOf(f.Lookup(lpn)))
	}
}

func TestBASTMorePartitionsThanLogBlocksMergeOnEveryWrite(t *testing.T) {
	f := newBASTFTL(t, oneDie(), 2)
	fillBlocks(t, f, 3)
	// k + 1 = 3 sequential partitions (logical blocks 0, 1, 2) written round robin with
	// log_blocks = 2, offset r of each block in round r. By hand:
	//   - writes 1, 2 (blocks 0, 1 at offset 0) take the two log blocks;
	//   - from write 3 on, every write finds its block without a log block and the pool in
	//     use, and waits for the merge of the least recently written log block: the one
	//     written two writes before, holding one page;
	//   - writes 3, 4, 5 evict log blocks holding offset 0 in page 0, in order: partial
	//     merges, each copying offsets 1–7 of the data block (7 pages) and erasing it;
	//   - writes 6 … 24 evict log blocks holding offset r ≥ 1 in page 0, not in order: full
	//     merges, each copying the block's 8 current pages (7 from the data block, 1 from the
	//     log block) into a new block and erasing both (2 erases).
	// Steady state: each host write costs 8 copies and 2 erases (WAF 9).
	waits := 0
	for r := int64(0); r < 8; r++ {
		for lbn := int64(0); lbn < 3; lbn++ {
			waits += bastWrite(t, f, 8*lbn+r)
		}
	}
	require.Equal(t, 22, waits)
	require.Equal(t, int64(3), f.Stats.PartialMerges)
	require.Equal(t, int64(19), f.Stats.FullMerges)
	require.Equal(t, int64(3*7+19*8), f.Stats.MergeCopies)
	require.Equal(t, int64(3+19*2), f.Stats.Erases)
	require.Equal(t, int64(24), f.Stats.HostWrites)
}

func TestBASTTrimAndRandomWritesKeepInvariants(t *testing.T) {
	// Random writes and trims over the whole logical space of a 2-die device, merging after
	// each write that waits; Check (map, reverse map, BAST's lookup against the map, block
	// roles) after every step; at the end every page written and not trimmed since is where
	// the map says, and each data block holds its pages at their offsets.
	f := newFTL(t, small(), func(c *Config) { c.Mapping, c.LogBlocks = BASTMapping, 1 })
	rng := rand.New(rand.NewPCG(3, 4))
	live := map[int64]bool{}
	n := f.LogicalPages()
	for i := 0; i < 3000; i++ {
		lpn := rng.Int64N(n)
		if rng.IntN(8) == 0 {
			f.Trim(lpn)
			delete(live, lpn)
		} else {
			for {
				if _, err := f.WriteHost(lpn, 0, Background); err == nil {
					break
				}
				f.MergeNow()
			}
			live[lpn] = true
		}
		if i%7 == 0 {
			f.MergeNow()
		}
		require.NoError(t, f.Check(), "step %d", i)
	}
	for lpn := int64(0); lpn < n; lpn++ {
		require.Equal(t, live[lpn], f.Lookup(lpn) != NoUnit, "lpn %d", lpn)
	}
	require.Positive(t, f.Stats.FullMerges)
	// MappedIn counts, from the blocks, the pages written and not trimmed in a range.
	for _, r := range [][2]int64{{0, n}, {0, n / 3}, {n / 3, n/2 + 1}, {n - 1, n}} {
		var want int64
		for lpn := range live {
			if lpn >= r[0] && lpn < r[1] {
				want++
			}
		}
		require.Equal(t, want, f.MappedIn(r[0], r[1]), "pages mapped in [%d, %d)", r[0], r[1])
	}
}

func TestBASTPreconditionPutsPagesInDataBlocks(t *testing.T) {
	// Fill 0.5 of oneDie's 96 logical pages: lpns 0 … 47, logical blocks 0 … 5 whole, in data
	// blocks at their offsets; no log block bound, nothing invalid, statistics reset.
	f := newBASTFTL(t, oneDie(), 2)
	require.NoError(t, f.Precondition(0.5, 0.1, true, 1))
	require.NoError(t, f.Check())
	b := f.hyb.(*bast)
	for lpn := int64(0); lpn < 96; lpn++ {
		lbn, off := b.split(lpn)
		if lpn < 48 {
			require.Equal(t, f.g.FirstPage(b.data[lbn])+PPN(off), f.PageOf(f.Lookup(lpn)))
		} else {
			require.Equal(t, NoUnit, f.Lookup(lpn))
		}
	}
	require.Equal(t, Stats{}, f.Stats)
	// The next sequential pass over block 0 is a switch merge erasing the old data block.
	for lpn := int64(0); lpn < 8; lpn++ {
		bastWrite(t, f, lpn)
	}
	require.Equal(t, int64(1), f.Stats.SwitchMerges)
	require.Equal(t, int64(1), f.Stats.Erases)
}

func TestBASTConfigValidation(t *testing.T) {
	c := DefaultConfig()
	c.Mapping = "fast"
	require.ErrorContains(t, c.Validate(Geometry{}), `ftl.mapping: unknown mapping "fast" (known: bast, page)`)
	c.Mapping, c.LogBlocks = BASTMapping, 0
	require.ErrorContains(t, c.Validate(Geometry{}), "ftl.log_blocks: 0 must be at least 1")
	// oneDie: 12 data blocks + log_blocks + 1 + 1 reserve ≤ 16 blocks: 2 fits, 3 does not.
	c.OverProvisioning, c.GCReserve, c.GCThreshold, c.LogBlocks, c.LSBOnlyPages = 0.25, 1, 2, 2, 8
	require.NoError(t, c.Validate(oneDie()))
	c.LogBlocks = 3
	require.ErrorContains(t, c.Validate(oneDie()), "ftl.log_blocks: 3 log blocks per die, with 12 data blocks")
	c.Mapping = ""
	require.NoError(t, c.Validate(oneDie()), "empty mapping is page-level mapping")
}

// TestBASTRefusesSubPageUnits: BAST's block map keeps one logical page a flash page, so a
// geometry with two 4 KiB units in an 8 KiB page is refused, naming the mapping.
func TestBASTRefusesSubPageUnits(t *testing.T) {
	c := DefaultConfig()
	c.Mapping, c.LogBlocks = BASTMapping, 4
	err := c.Validate(Geometry{UnitsPerPage: 2})
	require.ErrorContains(t, err, "ftl.mapping: bast maps whole flash pages; with 2 mapping units a page")
}
