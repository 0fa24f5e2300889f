package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// slcGeometry is 1 die × 2 planes × 16 blocks × 12 TLC pages, one unit a page, with a pSLC
// mode of 12 / 3 = 4 pages a block. newFTL's over-provisioning of 0.25 exports
// 2 · 16 · 12 · 0.75 = 288 logical pages.
func slcGeometry() Geometry {
	return Geometry{Channels: 1, DiesPerChannel: 1, Planes: 2, BlocksPerPlane: 16, PagesPerBlock: 12, Kind: TLCKind, SLCPages: 4}
}

// newSLCFTL returns an FTL on slcGeometry with a cache of static 0.02 and dynamic 0.1 of
// the capacity, gone at half full. An SLC block holds 4 units and there are 2 planes, so a
// fraction x of the 288 logical pages is x · 288 / 4 / 2 = 36x blocks a plane: the static
// region 0.72, rounded up to 1 block; the dynamic one 3.6, rounded down to 3; it is gone
// at a fill of 0.5 (144 native units).
func newSLCFTL(t *testing.T) *FTL {
	return newFTL(t, slcGeometry(), func(c *Config) {
		c.SLCCache = SLCCacheConfig{Static: 0.02, Dynamic: 0.1, FullAt: 0.5}
	})
}

// fold folds the victim PickVictim gives plane (0, plane) as the firmware's GC does
// (relocating every valid unit, then erasing it), checks it was an SLC block, and returns
// the units moved.
func fold(t *testing.T, f *FTL, plane int) int {
	t.Helper()
	b, ok := f.PickVictim(0, plane)
	require.True(t, ok)
	require.True(t, f.IsSLC(b), "victim %d is not in SLC mode", b)
	moved := 0
	for _, u := range f.ValidUnits(b, nil) {
		nu, _ := f.Relocate(u)
		require.False(t, f.IsSLC(f.g.BlockOf(f.PageOf(nu))), "a fold must move data to a native block, not to SLC again")
		moved++
	}
	f.Erase(b)
	return moved
}

func TestSLCRegionShrinksWithFill(t *testing.T) {
	f := newSLCFTL(t)
	static, dyn := f.SLCRegions()
	require.Equal(t, 1, static) // ⌈0.72⌉
	require.Equal(t, 3, dyn)    // ⌊3.6⌋
	// Empty: 1 + 3 · (0.5 − 0) / 0.5 = 4 blocks a plane.
	require.Equal(t, 4, f.SLCCapacity())
	for _, c := range []struct {
		fill float64
		want int
	}{
		{0.25, 2}, // 72 native units of 288: 1 + ⌊3 · (0.5 − 0.25) / 0.5⌋ = 1 + ⌊1.5⌋ = 2
		{0.4, 1},  // ⌊0.4 · 288⌋ = 115: 1 + ⌊3 · (0.5 − 115/288) / 0.5⌋ = 1 + ⌊0.60⌋ = 1
		{0.5, 1},  // 144 of 288: the dynamic region is gone, the static one stays
		{0.75, 1}, // past FullAt: still the static block
	} {
		f := newSLCFTL(t)
		require.NoError(t, f.Precondition(c.fill, 0, true, 1))
		require.Equal(t, c.want, f.SLCCapacity(), "fill %v", c.fill)
		blocks, units := f.SLCOccupancy()
		require.Zero(t, blocks, "preconditioning writes native blocks (the drive after an idle fold)")
		require.Zero(t, units)
		require.NoError(t, f.Check())
	}
}

// fillCache writes logical pages 0 … 39 to die 0: the empty cache's 4 blocks a plane hold
// 2 · 4 · 4 = 32 pages, so pages 0 … 31 go to SLC blocks, round robin over the planes
// (even pages on plane 0, odd on plane 1), and 32 … 39 directly to native blocks.
func fillCache(t *testing.T, f *FTL) {
	t.Helper()
	for lpn := int64(0); lpn < 40; lpn++ {
		p, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
		a := f.g.Addr(p)
		if lpn < 32 {
			require.True(t, f.IsSLC(f.g.BlockOf(p)), "lpn %d", lpn)
			// Plane lpn mod 2; on it the (lpn div 2)-th SLC page: block (lpn div 8), page
			// (lpn div 2) mod 4, the blocks taken from the free list in order.
			require.Equal(t, Addr{Die: 0, Plane: int(lpn % 2), Block: int(lpn / 8), Page: int(lpn/2) % 4}, a, "lpn %d", lpn)
		} else {
			require.False(t, f.IsSLC(f.g.BlockOf(p)), "lpn %d past the cache", lpn)
		}
	}
}

func TestSLCCacheCliffAtItsSize(t *testing.T) {
	f := newSLCFTL(t)
	fillCache(t, f)
	s := f.SLCStats()
	require.Equal(t, int64(32), s.SLCWrites)
	require.Equal(t, int64(8), s.DirectWrites)
	require.Equal(t, int64(32), s.SLCPrograms)
	require.Equal(t, int64(8), s.PeakBlocks)
	require.True(t, f.SLCDirect())
	require.False(t, f.SLCHasRoom())
	// The native pages programmed are only the 8 direct writes: SLC pages are not counted
	// by page type.
	var native int64
	for _, n := range f.Stats.Programmed {
		native += n
	}
	require.Equal(t, int64(8), native)
	blocks, units := f.SLCOccupancy()
	require.Equal(t, 8, blocks)
	require.Equal(t, int64(32), units)
	// Not idle and within the region, but exhausted: folding under pressure (the default,
	// TestSLCFoldUnderPressure) would fold; the control folds only in idle.
	require.True(t, f.NeedsGC(0, 0))
	require.NoError(t, f.Check())
	f = newFTL(t, slcGeometry(), func(c *Config) {
		c.SLCCache = SLCCacheConfig{Static: 0.02, Dynamic: 0.1, FullAt: 0.5, Fold: FoldIdle}
	})
	fillCache(t, f)
	require.False(t, f.NeedsGC(0, 0), "fold: idle — nothing to fold until the host is idle")
	require.NoError(t, f.Check())
}

// TestSLCFoldUnderPressure: once a plane's cache is exhausted (its SLC blocks fill the
// region and none is open), the plane folds while the host writes go direct, and a folded
// block gives the host's writes SLC room again. Worked by hand on newSLCFTL's cache (the
// region empty is 1 + 3 = 4 blocks a plane of 4 SLC pages):
//
//   - fillCache writes lpn 0 … 31 to SLC (plane lpn mod 2, block lpn div 8) and 32 … 39
//     direct: each plane holds 4 full SLC blocks = its region, none open, so it is
//     exhausted and NeedsGC says so on both planes, with the host busy (not idle).
//   - The victim is the plane's oldest full SLC block, block 0: on plane 0 it holds lpn 0,
//     2, 4, 6 (4 units moved to a native block), on plane 1 lpn 1, 3, 5, 7.
//   - After folding block 0 of plane 0, the plane has 3 SLC blocks of a region of 4: not
//     exhausted, so no more folding (its free blocks are above the GC threshold); plane 1
//     still is.
//   - The next host write on die 0 takes plane 0's room (plane 1 is exhausted): a fresh SLC
//     block, so the write is in SLC mode and direct mode ends.
func TestSLCFoldUnderPressure(t *testing.T) {
	f := newSLCFTL(t)
	fillCache(t, f)
	require.True(t, f.SLCDirect())
	for plane := 0; plane < 2; plane++ {
		require.True(t, f.NeedsGC(0, plane), "plane %d exhausted: fold under pressure", plane)
	}
	b, ok := f.PickVictim(0, 0)
	require.True(t, ok)
	require.Equal(t, BlockID(0), b, "plane 0's oldest SLC block")
	var lpns []int64
	for _, u := range f.ValidUnits(b, nil) {
		lpn, valid := f.Owner(u)
		require.True(t, valid)
		lpns = append(lpns, lpn)
	}
	require.Equal(t, []int64{0, 2, 4, 6}, lpns)
	require.Equal(t, 4, fold(t, f, 0))
	require.False(t, f.NeedsGC(0, 0), "3 SLC blocks of a region of 4: room again, no fold")
	require.True(t, f.NeedsGC(0, 1), "plane 1 still exhausted")
	require.True(t, f.SLCHasRoom())
	p, err := f.WriteHost(200, 0, Background)
	require.NoError(t, err)
	require.True(t, f.IsSLC(f.g.BlockOf(p)), "the folded room takes host writes again")
	require.Equal(t, 0, f.g.Addr(p).Plane)
	require.False(t, f.SLCDirect())
	s := f.SLCStats()
	require.Equal(t, int64(4), s.FoldUnits)
	require.Equal(t, int64(1), s.FoldBlocks)
	require.Equal(t, int64(33), s.SLCWrites)
	require.NoError(t, f.Check())
}

func TestSLCIdleFoldMovesValidPages(t *testing.T) {
	f := newSLCFTL(t)
	fillCache(t, f)
	// Overwrite 0 … 7 (now direct to native): block 0 of plane 0 held 0, 2, 4, 6 and block
	// 0 of plane 1 held 1, 3, 5, 7, so both are left with no valid page; the cache holds
	// 32 − 8 = 24 valid pages.
	for lpn := int64(0); lpn < 8; lpn++ {
		_, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
	}
	_, units := f.SLCOccupancy()
	require.Equal(t, int64(24), units)
	f.SetSLCIdle(true)
	// Each plane folds its 4 SLC blocks oldest first: the first holds no valid page, each
	// of the other three holds 4.
	for plane := 0; plane < 2; plane++ {
		var moved []int
		for f.NeedsGC(0, plane) {
			moved = append(moved, fold(t, f, plane))
		}
		require.Equal(t, []int{0, 4, 4, 4}, moved, "plane %d", plane)
	}
	s := f.SLCStats()
	require.Equal(t, int64(24), s.FoldUnits)
	require.Equal(t, int64(8), s.FoldBlocks)
	require.Equal(t, int64(8), s.SLCErases)
	// pSLC wear is counted apart: block 0 was erased once in SLC mode, never natively.
	require.Equal(t, 1, f.SLCEraseCount(0))
	require.Equal(t, 0, f.EraseCount(0))
	blocks, units := f.SLCOccupancy()
	require.Zero(t, blocks)
	require.Zero(t, units)
	for lpn := int64(0); lpn < 40; lpn++ {
		u := f.Lookup(lpn)
		require.NotEqual(t, NoUnit, u, "lpn %d lost by the fold", lpn)
		require.False(t, f.IsSLC(f.g.BlockOf(f.PageOf(u))))
	}
	require.NoError(t, f.Check())
	// The cache has room again: the next host write goes to SLC and ends direct mode.
	require.True(t, f.SLCHasRoom())
	p, err := f.WriteHost(100, 0, Background)
	require.NoError(t, err)
	require.True(t, f.IsSLC(f.g.BlockOf(p)))
	require.False(t, f.SLCDirect())
}

func TestSLCFoldWhenRegionShrinks(t *testing.T) {
	// Folding in idle and on a shrinking region only: under pressure each plane, down to
	// its region of 2 blocks and none open, would be exhausted and fold a third
	// (TestSLCFoldUnderPressure).
	f := newFTL(t, slcGeometry(), func(c *Config) {
		c.SLCCache = SLCCacheConfig{Static: 0.02, Dynamic: 0.1, FullAt: 0.5, Fold: FoldIdle}
	})
	fillCache(t, f) // 8 native units (32 … 39)
	// 64 more direct writes: 72 native units of 288, so the region is 1 + ⌊3 · (0.5 −
	// 0.25) / 0.5⌋ = 2 blocks a plane, and each plane's 4 SLC blocks are 2 too many.
	for lpn := int64(40); lpn < 104; lpn++ {
		_, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
	}
	require.Equal(t, 4, f.SLCCapacity(), "the region is recomputed only by RefreshSLC")
	f.RefreshSLC()
	require.Equal(t, 2, f.SLCCapacity())
	for plane := 0; plane < 2; plane++ {
		n := 0
		for f.NeedsGC(0, plane) { // not idle: folding for the shrunk region only
			require.Equal(t, 4, fold(t, f, plane))
			n++
		}
		require.Equal(t, 2, n, "plane %d folds down to the region", plane)
	}
	blocks, units := f.SLCOccupancy()
	require.Equal(t, 4, blocks)
	require.Equal(t, int64(16), units)
	require.Equal(t, int64(16), f.SLCStats().FoldUnits)
	require.NoError(t, f.Check())
}

func TestSLCCacheConfigRefused(t *testing.T) {
	cache := SLCCacheConfig{Static: 0.02, Dynamic: 0.1}
	for _, c := range []struct {
		name string
		g    Geometry
		mod  func(*Config)
		want string
	}{
		{"no pSLC mode", small(), nil, "ftl.slc_cache: the die has no pSLC mode (flash.die.slc"},
		{"bast", slcGeometry(), func(c *Config) { c.Mapping = BASTMapping }, `ftl.slc_cache: an SLC cache needs page-level mapping, not ftl.mapping "bast"`},
		{"too big", slcGeometry(), func(c *Config) { c.SLCCache.Dynamic = 0.5 }, "ftl.slc_cache: static 0.02 and dynamic 0.5 make 1 + 18 SLC blocks a plane, more than the 13"},
		{"negative", slcGeometry(), func(c *Config) { c.SLCCache.Static = -1 }, "ftl.slc_cache.static: -1 is not a fraction"},
		{"full_at alone", slcGeometry(), func(c *Config) { c.SLCCache = SLCCacheConfig{FullAt: 0.5} }, "ftl.slc_cache: full_at, idle or fold set, but static and dynamic are 0"},
		{"fold mode", slcGeometry(), func(c *Config) { c.SLCCache.Fold = "always" }, `ftl.slc_cache.fold: "always" is not a fold mode (have "pressure", "idle")`},
	} {
		cfg := DefaultConfig()
		cfg.GCThreshold, cfg.GCReserve, cfg.OverProvisioning = 2, 1, 0.25
		cfg.LSBOnlyPages = 2 * c.g.PagesPerBlock
		cfg.SLCCache = cache
		if c.mod != nil {
			c.mod(&cfg)
		}
		err := cfg.Validate(c.g)
		require.Error(t, err, c.name)
		require.Contains(t, err.Error(), c.want, c.name)
	}
}
