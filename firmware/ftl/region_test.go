package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// pageAt is where a write went: its block and the page's index in it.
type pageAt struct{ block, page int }

// foregroundWriter returns a function that writes one logical page as a foreground write
// on die 0 of f and appends where it went to *got.
func foregroundWriter(t *testing.T, f *FTL, got *[]pageAt) func(int64) {
	return func(lpn int64) {
		p, err := f.WriteHost(lpn, 0, Foreground)
		require.NoError(t, err)
		*got = append(*got, pageAt{int(f.g.BlockOf(p)), int(p) % f.g.PagesPerBlock})
	}
}

// TestLSBOnlyRegionBoundsSkipping follows the latency-aware allocator page by page on one
// 2D-TLC die of 20-page blocks (page kinds, docs/sources.md §3.4: 0–5 LSB, 6–7 CSB, 8–9 LSB,
// 10–11 CSB, 12–13 MSB, 14–15 LSB, 16–17 CSB, 18–19 MSB) with an LSB-only region of one
// block (20 pages: a second open block would exceed it) and a skip region of one block.
// Foreground writes:
//   - 1–6 take pages 0–5 of block A;
//   - 7 skips 6–7 (A joins the region) and takes 8; 8 takes 9;
//   - 9 skips 10–13 (A is already in the region) and takes 14; 10 takes 15;
//   - 11 skips 16–19, filling A, and opens block B: page 0; 12–16 take B's pages 1–5;
//   - 17 and 18 find no block at an LSB page and the region full (A): B's CSB pages 6, 7,
//     nothing wasted; 19 takes B's LSB page 8.
//
// Once A is trimmed and erased the region is empty again and a write at a CSB page skips.
func TestLSBOnlyRegionBoundsSkipping(t *testing.T) {
	g := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	f := newFTL(t, g, func(c *Config) {
		c.Allocator = LatencyAware
		c.LSBOnlyPages, c.LSBOnlyBlocks = 20, 1
	})
	var got []pageAt
	write := foregroundWriter(t, f, &got)
	for lpn := int64(0); lpn < 19; lpn++ {
		write(lpn)
	}
	a, b := got[0].block, got[10].block
	require.NotEqual(t, a, b)
	want := []pageAt{{a, 0}, {a, 1}, {a, 2}, {a, 3}, {a, 4}, {a, 5}, {a, 8}, {a, 9}, {a, 14}, {a, 15},
		{b, 0}, {b, 1}, {b, 2}, {b, 3}, {b, 4}, {b, 5}, {b, 6}, {b, 7}, {b, 8}}
	require.Equal(t, want, got)
	require.Equal(t, int64(2+4+4), f.Stats.Wasted)
	// Writes 17 and 18 are the only foreground writes off LSB pages, and both for the bound.
	require.Equal(t, int64(19), f.Stats.ForegroundWr)
	require.Equal(t, int64(17), f.Stats.LSBForFG)
	require.Equal(t, int64(2), f.Stats.FGBounded)
	require.NoError(t, f.Check())

	// Free block A: trim its ten pages, erase it; the region is empty, so after write 20
	// takes B's LSB page 9, write 21, at B's CSB page 10, skips 10–13 to LSB page 14.
	for lpn := int64(0); lpn < 10; lpn++ {
		f.Trim(lpn)
	}
	f.Erase(BlockID(a))
	require.NoError(t, f.Check())
	got = got[:0]
	write(19)
	write(20)
	require.Equal(t, []pageAt{{b, 9}, {b, 14}}, got)
	require.Equal(t, int64(2+4+4+4), f.Stats.Wasted)
	require.Equal(t, int64(2), f.Stats.FGBounded, "both new writes on LSB pages")
	require.NoError(t, f.Check())
}

// TestLSBPagesAcrossBlocks: the latency-aware allocator takes foreground LSB pages across
// as many open blocks as its LSB-only region holds, and skips only when no LSB page is left.
// One 2D-TLC die of 20-page blocks (0–5 LSB, 6–7 CSB, 8–9 LSB, 10–11 CSB, 12–13 MSB, 14–15
// LSB, …), region 60 pages (the unprogrammed pages of the open blocks, plus a fresh block's
// 20, must stay within it):
//   - foreground writes 1–18 take pages 0–5 of blocks A, B and C, opening B when A's 14
//     unprogrammed pages + 20 = 34 ≤ 60 and C at 28 + 20 = 48 ≤ 60: all LSB, nothing wasted;
//   - two background writes fill A's CSB pages 6, 7; foreground writes 19, 20 take A's LSB
//     pages 8, 9;
//   - write 21 finds A at a CSB page (10) and B, C at 6: the region is 10 + 14 + 14 = 38, and
//     38 + 20 = 58 ≤ 60, so it opens D (page 0) rather than skipping; 22–26 take D's 1–5;
//   - write 27: the region is 10 + 3 × 14 = 52, a fresh block would make it 72 > 60, and no
//     open block is at an LSB page: it skips, in the block nearest one — B (6, 7 CSB, then 8
//     LSB: 2 pages) rather than A (10–13: 4) — and takes B's page 8. Waste: 2 pages, and every
//     foreground write is on an LSB page.
func TestLSBPagesAcrossBlocks(t *testing.T) {
	g := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	f := newFTL(t, g, func(c *Config) {
		c.Allocator = LatencyAware
		c.LSBOnlyPages, c.LSBOnlyBlocks = 60, 4
	})
	type at struct{ block, page int }
	lpn := int64(0)
	write := func(pur Purpose) at {
		p, err := f.WriteHost(lpn, 0, pur)
		require.NoError(t, err)
		lpn++
		return at{int(g.BlockOf(p)), int(p) % g.PagesPerBlock}
	}
	var got []at
	for i := 0; i < 18; i++ {
		got = append(got, write(Foreground))
	}
	a, b, c := got[0].block, got[6].block, got[12].block
	for i, x := range got {
		require.Equal(t, at{[]int{a, b, c}[i/6], i % 6}, x, "write %d", i+1)
	}
	require.Zero(t, f.Stats.Wasted)
	require.Equal(t, at{a, 6}, write(Background))
	require.Equal(t, at{a, 7}, write(Background))
	require.Equal(t, at{a, 8}, write(Foreground))
	require.Equal(t, at{a, 9}, write(Foreground))
	d := write(Foreground)
	require.Equal(t, 0, d.page, "a fresh block rather than a skip")
	require.NotContains(t, []int{a, b, c}, d.block)
	for i := 1; i < 6; i++ {
		require.Equal(t, at{d.block, i}, write(Foreground))
	}
	require.Zero(t, f.Stats.Wasted)
	require.Equal(t, at{b, 8}, write(Foreground))
	require.Equal(t, int64(2), f.Stats.Wasted)
	require.Equal(t, f.Stats.ForegroundWr, f.Stats.LSBForFG)
	require.NoError(t, f.Check())
}
