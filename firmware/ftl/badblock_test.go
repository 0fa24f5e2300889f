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

// TestSparePool, by hand on small() (2 dies of 2 planes × 8 blocks × 16 pages: 16 blocks, 256
// pages a die) with gc_threshold 2: a die's share of the logical space at over-provisioning
// 0.5 is 512 × 0.5 / 2 = 128 pages, 8 blocks, and GC keeps 2 planes × (2 + 1) = 6 free, so
// 16 − 8 − 6 = 2 blocks can be spare. The default pool is 2 % of 16 blocks rounded up,
// ⌈0.32⌉ = 1, within that; 2 may be set, 3 is refused. At over-provisioning 0.25 the share
// is 384 / 2 = 192 pages, 12 blocks: 16 − 12 − 6 = −2, so the default pool is 0. A die of
// 1,024 blocks at 7 % gets ⌈20.48⌉ = 21.
func TestSparePool(t *testing.T) {
	g := small()
	c := DefaultConfig()
	c.GCThreshold, c.GCReserve, c.LSBOnlyPages = 2, 1, 2*g.PagesPerBlock
	c.OverProvisioning = 0.5
	require.Equal(t, 2, c.spareRoom(g))
	require.Equal(t, 1, c.SparePool(g))
	c.SpareBlocks = 2
	require.NoError(t, c.Validate(g))
	require.Equal(t, 2, c.SparePool(g))
	c.SpareBlocks = 3
	require.EqualError(t, c.Validate(g), "ftl.spare_blocks: 3 spare blocks a die leave too few for the die's share of the logical space and GC: a die of 16 blocks can spare at most 2 at over_provisioning 0.5 and gc_threshold 2")
	c.SpareBlocks = -1
	require.ErrorContains(t, c.Validate(g), "ftl.spare_blocks: -1 must not be negative")
	c.SpareBlocks, c.SpareThreshold = 0, 101
	require.EqualError(t, c.Validate(g), "ftl.spare_threshold: 101 is not a percentage in 0 … 100")
	c.SpareThreshold, c.OverProvisioning = 10, 0.25
	require.Equal(t, -2, c.spareRoom(g))
	require.Equal(t, 0, c.SparePool(g))
	big := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 2, BlocksPerPlane: 512, PagesPerBlock: 64, Kind: TLCKind}
	c.OverProvisioning = 0.07
	require.Equal(t, 21, c.SparePool(big))
}

// TestSpareAccounting: a pool of 2 blocks a die (small(), over-provisioning 0.5). A factory
// bad block on die 0 leaves it 1 spare: available spare ⌊1 × 100 / 2⌋ = 50 % (die 1 has
// 100 %, the worst die counts). Retiring one block of die 0 leaves 0 spares, 0 %, not yet
// exhausted; a second leaves −1: exhausted, 2 grown bad blocks. A pool of 0 reports 0 %.
func TestSpareAccounting(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.OverProvisioning, c.SpareBlocks, c.Allocator = 0.5, 2, Sequential })
	require.Equal(t, 2, f.SparePool())
	require.Equal(t, 100, f.AvailableSpare())
	require.NoError(t, f.MarkFactoryBad(7)) // die 0, plane 0, block 7: free
	require.Equal(t, 1, f.SpareLeft(0))
	require.Equal(t, 2, f.SpareLeft(1))
	require.Equal(t, 50, f.AvailableSpare())
	var blocks []BlockID
	for lpn := int64(0); len(blocks) < 2; lpn++ {
		p, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
		if b := f.g.BlockOf(p); len(blocks) == 0 || blocks[len(blocks)-1] != b {
			blocks = append(blocks, b) // the sequential allocator alternates planes: two blocks after two writes
		}
	}
	require.True(t, f.Retire(blocks[0]))
	require.Equal(t, 0, f.SpareLeft(0))
	require.Equal(t, 0, f.AvailableSpare())
	require.False(t, f.SpareExhausted(0))
	require.True(t, f.Retire(blocks[1]))
	require.Equal(t, -1, f.SpareLeft(0))
	require.True(t, f.SpareExhausted(0))
	require.False(t, f.SpareExhausted(1))
	require.Equal(t, 2, f.GrownBad(0))
	require.Equal(t, 0, f.AvailableSpare())
	require.NoError(t, f.Check())
	none := newFTL(t, small(), nil) // over-provisioning 0.25: no room for a pool
	require.Equal(t, 0, none.SparePool())
	require.Equal(t, 0, none.AvailableSpare())
}

// TestGCRoom: a die's GC stream has room while a plane has a free block or an open GC
// write point; with every free block of die 0 taken (opened by GC, unwritten) it has none,
// and die 1 is untouched.
func TestGCRoom(t *testing.T) {
	f := newFTL(t, small(), nil)
	require.True(t, f.GCRoom(0))
	for pl := 0; pl < 2; pl++ {
		for f.FreeBlocks(0, pl) > 0 {
			_, ok := f.openBlock(pl, true)
			require.True(t, ok)
		}
	}
	require.False(t, f.GCRoom(0))
	require.True(t, f.GCRoom(1))
}

// TestUnmapAndRestore: lpn 5 written (unit u1), then moved by GC to u2. Restore(u2, u1) maps
// it back to u1 (its block's valid count back to 1, u2's block's to 0); Unmap(u1) leaves it
// with no unit (Lookup NoUnit, u1's block 0 valid); Unmap and Restore of a unit holding no
// current data change nothing. Check passes after each.
func TestUnmapAndRestore(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.Allocator = Sequential })
	p, err := f.WriteHost(5, 0, Background)
	require.NoError(t, err)
	u1 := Unit(p)
	u2, lpn := f.Relocate(u1)
	require.Equal(t, int64(5), lpn)
	b1, b2 := f.g.BlockOf(f.PageOf(u1)), f.g.BlockOf(f.PageOf(u2))
	require.NotEqual(t, b1, b2)
	require.Equal(t, 0, f.ValidCount(b1))
	f.Restore(u2, u1)
	require.Equal(t, u1, f.Lookup(5))
	require.Equal(t, 1, f.ValidCount(b1))
	require.Equal(t, 0, f.ValidCount(b2))
	require.NoError(t, f.Check())
	f.Restore(u2, u1) // u2 holds nothing current now
	require.Equal(t, u1, f.Lookup(5))
	f.Unmap(u1)
	require.Equal(t, NoUnit, f.Lookup(5))
	require.Equal(t, 0, f.ValidCount(b1))
	f.Unmap(u1)
	require.NoError(t, f.Check())
}
