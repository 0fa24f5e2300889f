package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHoldupReserve: small() (2 dies × 2 planes × 8 blocks × 16 pages) with GCReserve 1,
// GCThreshold 2 and a hold-up reserve of 1 block a plane.
//   - The host streams' floor is 1 + 1 = 2 free blocks a plane, so GC must start above it:
//     at max(2, 2 + 1) = 3 free blocks (the threshold is raised by one).
//   - Host writes open blocks while a plane has more than 2 free: 8 − 2 = 6 blocks a plane,
//     4 planes × 6 × 16 = 384 pages, then ErrNoSpace on both dies (over-provisioning 0.25
//     leaves 384 logical pages: each is written once).
//   - The hold-up drain's Dump then opens one more block a plane, down to the GC reserve of
//     1: 4 × 16 = 64 pages, written in the GC stream's plane order, then ErrNoSpace; the GC
//     reserve's 4 blocks stay free. Dumped pages hold no mapped data (the map is unchanged,
//     Check passes, no valid page is added).
//   - DrainRoom counts exactly that room before the dump: 4 planes × (2 − 1) × 16 = 64.
func TestHoldupReserve(t *testing.T) {
	f := newFTL(t, small(), func(c *Config) { c.HoldupReserve = 1 })
	require.Equal(t, 2, f.HostFloor())
	require.False(t, f.NeedsGC(0, 0))
	lpn := int64(0)
	for die := 0; die < 2; die++ {
		for {
			if _, err := f.WriteHost(lpn, die, Background); err != nil {
				require.ErrorIs(t, err, ErrNoSpace)
				break
			}
			lpn++
		}
	}
	require.Equal(t, int64(384), lpn)
	for d := 0; d < 2; d++ {
		for p := 0; p < 2; p++ {
			require.Equal(t, 2, f.FreeBlocks(d, p))
			require.True(t, f.NeedsGC(d, p), "at 2 free blocks, below the raised threshold of 3")
		}
	}
	require.Equal(t, int64(64), f.DrainRoom())
	valid := func() (n int) {
		for b := 0; b < f.g.Blocks(); b++ {
			n += f.ValidCount(BlockID(b))
		}
		return n
	}
	before := valid()
	dumped := 0
	for die := 0; die < 2; die++ {
		for {
			p, err := f.Dump(die)
			if err != nil {
				require.ErrorIs(t, err, ErrNoSpace)
				break
			}
			require.Equal(t, die, f.g.Addr(p).Die)
			_, ok := f.Owner(Unit(p))
			require.False(t, ok, "a dumped page holds nothing the map points at")
			dumped++
		}
	}
	require.Equal(t, 64, dumped)
	require.Equal(t, int64(64), f.Stats.Dumped)
	require.Equal(t, int64(0), f.Stats.Padded)
	require.Equal(t, before, valid())
	for d := 0; d < 2; d++ {
		for p := 0; p < 2; p++ {
			require.Equal(t, 1, f.FreeBlocks(d, p), "the GC reserve is left whole")
		}
	}
	require.Zero(t, f.DrainRoom())
	require.NoError(t, f.Check())
}

// TestHoldupReserveThreshold: GC starts at the configured threshold when it is above the
// host streams' floor, and one block above the floor otherwise; validation names the
// reserve when the raised threshold does not fit the plane.
func TestHoldupReserveThreshold(t *testing.T) {
	c := DefaultConfig() // threshold 4, reserve 2
	c.HoldupReserve = 1
	require.Equal(t, 4, c.gcAt(), "2 + 1 + 1 = 4: the threshold already is above the floor")
	c.HoldupReserve = 3
	require.Equal(t, 6, c.gcAt(), "2 + 3 + 1 = 6 > 4")
	g := small()
	c.HoldupReserve = 6 // 2 + 6 + 1 = 9 ≥ 8 blocks a plane
	require.ErrorContains(t, c.Validate(g), "ftl.gc_threshold: 4 (with the hold-up reserve of 6 blocks a plane kept for the power-loss drain of the write buffer, GC starts at 9 free blocks) must be below the 8 blocks of a plane")
}
