package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMarkFactoryBad: marking block 2 (die 0, plane 0) bad takes exactly one block off
// plane 0's free list (8 → 7) and none off the others; the plane's remaining blocks still
// come off in order, skipping 2 (0, 1, 3); marking it again, or a block already in use,
// is an error; Check passes.
func TestMarkFactoryBad(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.Allocator = "sequential" })
	require.NoError(t, f.MarkFactoryBad(2))
	require.Equal(t, 7, f.FreeBlocks(0, 0))
	require.Equal(t, 8, f.FreeBlocks(0, 1))
	require.Equal(t, 1, f.BadBlocks())
	require.True(t, f.IsBad(2))
	require.Error(t, f.MarkFactoryBad(2))
	require.NoError(t, f.Check())
	var opened []BlockID
	for i := 0; i < 3; i++ {
		b, ok := f.openBlock(0, false)
		require.True(t, ok)
		opened = append(opened, b)
	}
	require.Equal(t, []BlockID{0, 1, 3}, opened)
}

// TestRetireOpenBlock, worked by hand with skip-to-lsb on small() (TLCKind: pages 0–5 LSB,
// 6–7 CSB, 8–9 LSB). The sequential write point alternates planes from plane 0, so 13
// background writes leave plane 0's block 0 at page 7 and plane 1's block 8 at page 6. A
// foreground write then goes to plane 1: it skips 6 and 7 (CSB) and takes 8; the next, on
// plane 0, skips 7 and takes 8: 3 pages wasted, 2 blocks in the die's skip region.
// Retiring block 0: its skipped page leaves the counts (WastedNow 3 → 2, skip region
// 2 → 1), its 8 valid pages (0–6 and 8) stay mapped, it is no write point any more (the
// next write to plane 0 goes to another block), Check passes; Rewrite of its page 0 (lpn
// 0) moves it to another block, leaving 7 valid; erasing a bad block panics.
func TestRetireOpenBlock(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.Allocator = "skip-to-lsb" })
	g := f.Geometry()
	lpn := int64(0)
	write := func(p Purpose) PPN {
		pp, err := f.WriteHost(lpn, 0, p)
		require.NoError(t, err)
		lpn++
		return pp
	}
	for i := 0; i < 13; i++ {
		write(Background)
	}
	b := BlockID(0)
	require.Equal(t, 7, f.NextPage(b))
	require.Equal(t, Addr{Die: 0, Plane: 1, Block: 0, Page: 8}, g.Addr(write(Foreground)))
	require.Equal(t, Addr{Die: 0, Plane: 0, Block: 0, Page: 8}, g.Addr(write(Foreground)))
	require.Equal(t, int64(3), f.Stats.WastedNow)
	require.Equal(t, 2, f.dies[0].lsbOnly)
	require.True(t, f.Retire(b))
	require.False(t, f.Retire(b))
	require.Equal(t, int64(2), f.Stats.WastedNow)
	require.Equal(t, 1, f.dies[0].lsbOnly)
	require.Equal(t, 8, f.ValidCount(b))
	require.NoError(t, f.Check())
	write(Background) // plane 1
	q := write(Background)
	require.Equal(t, 0, g.Addr(q).Plane)
	require.NotEqual(t, b, g.BlockOf(q), "the retired block is no write point")
	np, l, ok := f.Rewrite(Unit(g.FirstPage(b)))
	require.True(t, ok)
	require.Equal(t, int64(0), l)
	require.NotEqual(t, b, g.BlockOf(PPN(np)))
	require.Equal(t, 7, f.ValidCount(b))
	require.Equal(t, np, f.Lookup(0))
	require.NoError(t, f.Check())
	require.Panics(t, func() { f.Erase(b) })
}
