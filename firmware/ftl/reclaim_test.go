package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSkipRegionReclaim follows the skip region's reclaim (reclaim.go) on one 2D-TLC die of
// one plane of 16 20-page blocks (kinds 0–5 LSB, 6–7 CSB, 8–9 LSB, 10–11 CSB, 12–13 MSB,
// 14–15 LSB, 16–17 CSB, 18–19 MSB), an LSB-only region of one block (20 pages) and a skip
// region of two blocks, GC at 2 free blocks. Foreground writes (lpn = write − 1):
//   - 1–6 take A's pages 0–5; 7 skips A's 6–7 (A joins the skip region) and takes 8; 8
//     takes 9; 9 skips 10–13 and takes 14; 10 takes 15; 11 skips 16–19, which fills A (10
//     valid pages, lpns 0–9; 10 skipped), and opens B: page 0;
//   - 12–16 take B's 1–5; 17 finds no block at an LSB page, no room for a fresh block
//     (B's 14 unprogrammed pages + 20 > 20) and the skip region at one of two blocks: it
//     skips B's 6–7 (B joins: two blocks, the bound) and takes 8; 18 takes 9; 19 skips
//     10–13, takes 14; 20 takes 15; 21 skips 16–19, which fills B (lpns 10–19), and opens C.
//
// After write 10 the region holds one block, below its bound: no GC. After write 21 it holds
// two, both full, and the plane has 16 − 3 = 13 free blocks, far above GC's 2: only the
// reclaim makes the die need GC. With lpns 10–12 trimmed, B holds 7 valid pages against A's
// 10, so B is the victim (the fewest to move). Once B is erased the region is one block,
// below the bound, and the die needs no GC. The control (lsb_only_reclaim false) never
// needs GC here.
func TestSkipRegionReclaim(t *testing.T) {
	g := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	for _, reclaim := range []bool{true, false} {
		f := newFTL(t, g, func(c *Config) {
			c.Allocator = LatencyAware
			c.LSBOnlyPages, c.LSBOnlyBlocks, c.LSBOnlyReclaim = 20, 2, reclaim
		})
		var got []pageAt
		write := foregroundWriter(t, f, &got)
		for lpn := int64(0); lpn < 10; lpn++ {
			write(lpn)
		}
		require.False(t, f.NeedsGC(0, 0), "one skip-region block, below the bound of two")
		for lpn := int64(10); lpn < 21; lpn++ {
			write(lpn)
		}
		a, b, c := got[0].block, got[10].block, got[20].block
		want := []pageAt{{a, 0}, {a, 1}, {a, 2}, {a, 3}, {a, 4}, {a, 5}, {a, 8}, {a, 9}, {a, 14}, {a, 15},
			{b, 0}, {b, 1}, {b, 2}, {b, 3}, {b, 4}, {b, 5}, {b, 8}, {b, 9}, {b, 14}, {b, 15}, {c, 0}}
		require.Equal(t, want, got)
		require.Equal(t, int64(2*(2+4+4)), f.Stats.Wasted)
		require.Zero(t, f.Stats.FGBounded)
		require.NoError(t, f.Check())
		require.Equal(t, 13, f.FreeBlocks(0, 0))
		if !reclaim {
			require.False(t, f.NeedsGC(0, 0), "without the reclaim a plane with 13 free blocks needs no GC")
			continue
		}
		require.True(t, f.NeedsGC(0, 0), "the skip region is at its bound of two and holds full blocks")
		for lpn := int64(10); lpn < 13; lpn++ {
			f.Trim(lpn)
		}
		v, ok := f.PickVictim(0, 0)
		require.True(t, ok)
		require.Equal(t, BlockID(b), v, "B holds 7 valid pages, A 10")
		require.Equal(t, int64(1), f.Stats.SkipReclaims)
		for lpn := int64(13); lpn < 20; lpn++ { // stands for GC's moves: B holds nothing valid
			f.Trim(lpn)
		}
		f.Erase(v)
		require.NoError(t, f.Check())
		require.False(t, f.NeedsGC(0, 0), "one skip-region block again, below the bound")
	}
}

// TestSkipReclaimRule is the reclaim's trigger (reclaimsSkip) at lsb_only_blocks 4, worked
// by hand: the region must be at its bound (4 blocks holding skipped pages) with at most one
// of them still open (3 or 4 full); a region below the bound never triggers it, and nor does
// an FTL without the reclaim (skipReclaimAt math.MaxInt: the control, or an allocator other
// than latency-aware).
func TestSkipReclaimRule(t *testing.T) {
	g := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	cases := []struct {
		allocator    string
		reclaim      bool
		region, full int
		want         bool
		why          string
	}{
		{LatencyAware, true, 4, 4, true, "every block of the full region is full"},
		{LatencyAware, true, 4, 3, true, "one block left to skip in"},
		{LatencyAware, true, 4, 2, false, "two blocks left to skip in"},
		{LatencyAware, true, 4, 0, false, "no block to collect"},
		{LatencyAware, true, 3, 3, false, "below the bound: the next skip opens a fourth block"},
		{LatencyAware, false, 4, 4, false, "the control: no reclaim"},
		{SkipToLSB, true, 4, 4, false, "skip-to-lsb has no bound to reclaim for"},
	}
	for _, c := range cases {
		f := newFTL(t, g, func(cfg *Config) {
			cfg.Allocator, cfg.LSBOnlyPages, cfg.LSBOnlyBlocks, cfg.LSBOnlyReclaim = c.allocator, 20, 4, c.reclaim
		})
		f.dies[0].lsbOnly, f.dies[0].skipFull = c.region, c.full
		require.Equal(t, c.want, f.reclaimsSkip(0), "%s, region %d, full %d, reclaim %v: %s", c.allocator, c.region, c.full, c.reclaim, c.why)
	}
}
