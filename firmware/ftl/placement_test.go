package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// fdpFTL is small() (2 dies × 2 planes × 8 blocks × 16 pages) with placement on and one
// handle per entry of persistent.
func fdpFTL(t *testing.T, persistent ...bool) *FTL {
	t.Helper()
	f := newFTL(t, small(), nil)
	require.NoError(t, f.EnablePlacement(persistent))
	return f
}

// writeAs writes lpn through handle h on die, failing the test on error, and returns the
// page's block.
func writeAs(t *testing.T, f *FTL, lpn int64, h, die int) BlockID {
	t.Helper()
	f.Place(lpn, h)
	p, err := f.WriteHost(lpn, die, Background)
	require.NoError(t, err)
	return f.Geometry().BlockOf(p)
}

// TestPlacementReclaimUnits works a reclaim unit by hand: on 2 dies × 2 planes, an RU is
// one block on each of the 4 planes, 4 × 16 = 64 pages. Handle 0's first four writes on
// die 0 alternate planes 0 and 1 (blocks 0 and 8, the planes' first free blocks), so die
// 0 holds two of the RU's blocks; handle 1's write on die 0 opens blocks of its own (1 and
// 9): the handles never share a block. After 32 pages of handle 0 on die 0 its two blocks
// there are full: a 33rd write on die 0 fails (the RU is not full: die 1's blocks are
// not), one on die 1 opens die 1's blocks (16 and 24). After 64 pages the RU is full and
// the next write starts a second RU.
func TestPlacementReclaimUnits(t *testing.T) {
	f := fdpFTL(t, false, false)
	require.Equal(t, int64(64), f.ReclaimUnitPages())
	var blocks []BlockID
	for lpn := int64(0); lpn < 4; lpn++ {
		blocks = append(blocks, writeAs(t, f, lpn, 0, 0))
	}
	require.Equal(t, []BlockID{0, 8, 0, 8}, blocks)
	b1 := writeAs(t, f, 100, 1, 0)
	require.NotContains(t, []BlockID{0, 8}, b1)
	for lpn := int64(4); lpn < 32; lpn++ {
		writeAs(t, f, lpn, 0, 0)
	}
	f.Place(32, 0)
	_, err := f.WriteHost(32, 0, Background)
	require.ErrorIs(t, err, ErrNoSpace, "die 0's blocks of the RU are full")
	require.Equal(t, int64(32), f.ReclaimUnitLeft(0, 0))
	require.Equal(t, BlockID(16), writeAs(t, f, 32, 0, 1))
	require.Equal(t, BlockID(24), writeAs(t, f, 33, 0, 1))
	for lpn := int64(34); lpn < 64; lpn++ {
		writeAs(t, f, lpn, 0, 1)
	}
	require.Equal(t, int64(0), f.ReclaimUnitLeft(0, 0))
	require.Equal(t, int64(1), f.HandleStats(0).ReclaimUnits)
	writeAs(t, f, 64, 0, 0)
	require.Equal(t, int64(2), f.HandleStats(0).ReclaimUnits, "the 65th page starts a second RU")
	require.Equal(t, int64(65), f.HandleStats(0).HostWrites)
	require.Equal(t, int64(1), f.HandleStats(1).HostWrites)
	require.NoError(t, f.Check())
}

// TestPlacementGCIsolation: handle 0 is initially isolated, handle 1 persistently. Each
// writes 16 pages on die 0 (one block on each plane of die 0, 8 pages each), then
// rewrites its first 8: GC relocating handle 0's surviving pages puts them in the shared GC
// stream, handle 1's in a GC block of handle 1's own; the isolation check passes. A page
// whose tag is changed by hand to the other handle is caught by the invariant checker as
// two handles' data in one reclaim unit.
func TestPlacementGCIsolation(t *testing.T) {
	f := fdpFTL(t, false, true)
	for h := 0; h < 2; h++ {
		for i := int64(0); i < 16; i++ {
			writeAs(t, f, int64(h)*100+i, h, 0)
		}
	}
	for h := 0; h < 2; h++ {
		for i := int64(0); i < 8; i++ {
			writeAs(t, f, int64(h)*100+i, h, 1)
		}
	}
	// Move each survivor (pages 8–15 of each handle) as GC would.
	for h := 0; h < 2; h++ {
		for i := int64(8); i < 16; i++ {
			lpn := int64(h)*100 + i
			nu, got := f.Relocate(f.Lookup(lpn))
			require.Equal(t, lpn, got)
			b := f.Geometry().BlockOf(f.PageOf(nu))
			if h == 0 {
				require.Equal(t, ownerShared, f.place.owner[b], "initially isolated: the shared GC stream")
			} else {
				require.Equal(t, uint8(2), f.place.owner[b], "persistently isolated: handle 1's own GC block")
			}
			require.Equal(t, h, f.HandleOf(lpn))
		}
	}
	require.Equal(t, int64(8), f.HandleStats(0).GCWrites)
	require.Equal(t, int64(8), f.HandleStats(1).GCWrites)
	require.InDelta(t, (24.0+8)/24, f.HandleStats(1).WAF(), 1e-12)
	require.NoError(t, f.Check())
	f.place.tag[9] = 1 // lpn 9 (handle 0's, in the shared stream) claimed by persistent handle 1
	f.place.tag[100+12] = 0
	err := f.Check()
	require.ErrorContains(t, err, "of the shared GC stream holds lpn 9 of persistently isolated handle 1")
	require.ErrorContains(t, err, "of reclaim unit handle 1 holds lpn 112 written through handle 0: two handles' data in one reclaim unit")
}

// TestPlacementUpdateHandle: a handle moved to a fresh RU after 5 pages reports 5 (not
// fully written); its open blocks are sealed (their other pages skipped, so GC can reclaim
// them); a handle whose RU holds nothing reports 0 and keeps it.
func TestPlacementUpdateHandle(t *testing.T) {
	f := fdpFTL(t, false, false)
	for i := int64(0); i < 5; i++ {
		writeAs(t, f, i, 0, 0)
	}
	require.Equal(t, int64(5), f.UpdateHandle(0, 0))
	require.Equal(t, int64(2), f.HandleStats(0).ReclaimUnits)
	require.True(t, (View{f}).IsFull(0) && (View{f}).IsFull(8), "die 0's two blocks sealed")
	require.Equal(t, int64(0), f.UpdateHandle(1, 0))
	require.Equal(t, int64(1), f.HandleStats(1).ReclaimUnits)
	require.NoError(t, f.Check())
	// The new RU opens new blocks, from plane 1 where die 0's round robin stands (its five
	// pages went to planes 0, 1, 0, 1, 0): plane 1's next free block is 9.
	require.Equal(t, BlockID(9), writeAs(t, f, 10, 0, 0))
}

// TestPlacementRefused: sub-page mapping and BAST are refused.
func TestPlacementRefused(t *testing.T) {
	g := small()
	g.UnitsPerPage = 2
	f := newFTL(t, g, nil)
	require.ErrorContains(t, f.EnablePlacement([]bool{false}), "one mapping unit a flash page")
	f = newFTL(t, small(), func(c *Config) { c.Mapping, c.LogBlocks, c.OverProvisioning = "bast", 2, 0.5 })
	require.ErrorContains(t, f.EnablePlacement([]bool{false}), "page-level mapping")
}

// TestPlacementImplicitUpdate works a blocked reclaim unit by hand on small() (2 dies × 2
// planes × 8 blocks of 16 pages, GC reserve 1 block a plane). Handle 1 writes one page on
// die 1 and is moved to a fresh RU, 14 times: its round robin alternates die 1's planes,
// so each gives up 7 blocks and keeps 8 − 7 = 1 free, the reserve. Handle 0 fills its RU's
// blocks on die 0 (32 pages: blocks 0 and 8). Its RU is now blocked: die 0's blocks are
// full, die 1's cannot be opened outside the reserve. A write on die 1, which has no
// block to open, fails (ErrNoSpace) and changes nothing. A write on die 0, which has free
// blocks, moves handle 0 to a fresh RU on the FTL's own (the implicit-update hook hears of
// handle 0 with 32 pages taken) and lands in plane 0's next free block, 1.
func TestPlacementImplicitUpdate(t *testing.T) {
	f := fdpFTL(t, false, false)
	type update struct {
		h       int
		written int64
	}
	var heard []update
	f.OnImplicitUpdate(func(h, _ int, written int64) { heard = append(heard, update{h, written}) })
	for i := int64(0); i < 14; i++ {
		writeAs(t, f, 200+i, 1, 1)
		require.Equal(t, int64(1), f.UpdateHandle(1, 0))
	}
	require.Equal(t, 1, f.planes[2].freeN)
	require.Equal(t, 1, f.planes[3].freeN)
	for lpn := int64(0); lpn < 32; lpn++ {
		writeAs(t, f, lpn, 0, 0)
	}
	f.Place(32, 0)
	_, err := f.WriteHost(32, 1, Background)
	require.ErrorIs(t, err, ErrNoSpace)
	require.Empty(t, heard)
	require.Equal(t, int64(1), f.HandleStats(0).ReclaimUnits)
	require.Equal(t, BlockID(1), writeAs(t, f, 32, 0, 0))
	require.Equal(t, []update{{0, 32}}, heard)
	require.Equal(t, int64(2), f.HandleStats(0).ReclaimUnits)
	require.NoError(t, f.Check())
}

// TestPlacementReclaimGroups works two reclaim groups on small() (2 channels × 1 die × 2
// planes × 16 pages a block) by hand: InterleavedDie puts die 0 in group 0 and die 1 in
// group 1, so an RU is one block on each plane of one die, 2 × 16 = 32 pages. A write of
// handle 1 naming group 1 is refused on die 0 (ErrNoSpace: the evictor tries another die)
// and lands on die 1's plane 0 in its first free block, 16; its RU there has 31 pages
// left, group 0's still 32. A write naming no group (AnyGroup) goes to the die's group:
// handle 0 on die 0 and on die 1 starts an RU in each group, never in handle 1's block.
// Updating handle 1 in group 1 seals block 16 (15 pages skipped) and starts its second RU
// there, group 0's untouched. The RU start hook hears each group's first page. The checker
// passes, and reports a page whose group tag names another group than its die's.
func TestPlacementReclaimGroups(t *testing.T) {
	f := newFTL(t, small(), nil)
	require.ErrorContains(t, f.EnablePlacementGroups([]bool{false, false}, 3), "must divide the dies")
	require.NoError(t, f.EnablePlacementGroups([]bool{false, false}, 2))
	require.Equal(t, 2, f.ReclaimGroups())
	require.Equal(t, []int{0, 1}, []int{f.GroupOf(0), f.GroupOf(1)})
	require.Equal(t, int64(32), f.ReclaimUnitPages())
	type start struct{ h, g int }
	var starts []start
	f.OnReclaimUnitStart(func(h, g int, seq int64) {
		require.Equal(t, int64(1), seq)
		starts = append(starts, start{h, g})
	})

	f.PlaceGroup(0, 1, 1)
	_, err := f.WriteHost(0, 0, Background)
	require.ErrorIs(t, err, ErrNoSpace, "group 1's page on group 0's die")
	p, err := f.WriteHost(0, 1, Background)
	require.NoError(t, err)
	require.Equal(t, BlockID(16), f.Geometry().BlockOf(p))
	require.Equal(t, int64(31), f.ReclaimUnitLeft(1, 1))
	require.Equal(t, int64(32), f.ReclaimUnitLeft(1, 0))

	b0 := writeAs(t, f, 5, 0, 0)
	b1 := writeAs(t, f, 6, 0, 1)
	require.Equal(t, BlockID(0), b0)
	require.NotEqual(t, BlockID(16), b1)
	require.Equal(t, int64(31), f.ReclaimUnitLeft(0, 0))
	require.Equal(t, int64(31), f.ReclaimUnitLeft(0, 1))
	require.Equal(t, []start{{1, 1}, {0, 0}, {0, 1}}, starts)

	skipped := f.Stats.Wasted
	require.Equal(t, int64(1), f.UpdateHandle(1, 1))
	require.Equal(t, int64(15), f.Stats.Wasted-skipped, "block 16 sealed")
	require.Equal(t, int64(2), f.ReclaimUnitSeq(1, 1))
	require.Equal(t, int64(1), f.ReclaimUnitSeq(1, 0))
	require.NoError(t, f.Check())

	f.place.rgTag[0] = 0
	require.ErrorContains(t, f.Check(), "block 16 of reclaim group 1 holds lpn 0 written for reclaim group 0")
}

// TestPlacementGroupFallback works a reclaim group's exhaustion by hand: on 2 dies × 2
// planes of 8 blocks of 16 pages, with 2 reclaim groups (group 0 die 0, group 1 die 1),
// an RU is one block on each of die 1's 2 planes, 32 pages. Handle 1 writing for group 1
// on die 1 can open blocks until each plane holds only the GC reserve (1 free block): 7
// blocks a plane, 14 blocks, 7 RUs, 224 pages (lpns 0–223); the handle's RU count is
// those 7 and its RU in group 0, never written. The 225th (lpn 224) fails on
// die 1 (its fresh RU can open nothing there) and, evicted to die 0, is written in group 0
// as the controller's choice: one fallback, told to OnGroupFallback as (224, handle 1,
// group 1), the group the host named.
func TestPlacementGroupFallback(t *testing.T) {
	f := newFTL(t, small(), nil)
	require.NoError(t, f.EnablePlacementGroups([]bool{false, false}, 2))
	type fell struct {
		lpn  int64
		h, g int
	}
	var got []fell
	f.OnGroupFallback(func(lpn int64, h, g int) { got = append(got, fell{lpn, h, g}) })
	for lpn := int64(0); lpn < 224; lpn++ {
		f.PlaceGroup(lpn, 1, 1)
		_, err := f.WriteHost(lpn, 1, Background)
		require.NoError(t, err, "lpn %d", lpn)
	}
	require.Equal(t, int64(1+7), f.HandleStats(1).ReclaimUnits, "group 0's RU (unused) and group 1's 7")
	f.PlaceGroup(224, 1, 1)
	_, err := f.WriteHost(224, 1, Background)
	require.ErrorIs(t, err, ErrNoSpace, "group 1's die holds only the GC reserve")
	require.Empty(t, got)
	p, err := f.WriteHost(224, 0, Background)
	require.NoError(t, err)
	require.Equal(t, 0, f.Geometry().Addr(p).Die)
	require.Equal(t, []fell{{224, 1, 1}}, got)
	require.Equal(t, int64(1), f.GroupFallbacks())
}
