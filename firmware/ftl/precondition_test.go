package ftl

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFastPreconditionMatchesAllocator checks the closed-form precondition against writing
// every page through the allocator: the two FTLs must be equal field by field (map, reverse
// map, block states, free lists, cursors, clock, statistics), for every allocator, plane
// count, order, and overwrite amounts below, at and above the fill (the last wraps the
// overwrite permutation). It also checks PreconditionOwner against the slow path's record
// of which logical page each write went to.
func TestFastPreconditionMatchesAllocator(t *testing.T) {
	geos := []Geometry{
		{Channels: 2, DiesPerChannel: 2, Planes: 2, BlocksPerPlane: 32, PagesPerBlock: 20, Kind: TLCKind},
		{Channels: 3, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 40, PagesPerBlock: 16, Kind: MLCKind},
		{Channels: 1, DiesPerChannel: 3, Planes: 4, BlocksPerPlane: 24, PagesPerBlock: 9, Kind: SLCKind},
	}
	for gi, g := range geos {
		for _, alloc := range []string{Sequential, SkipToLSB, LatencyAware} {
			for _, random := range []bool{false, true} {
				for _, c := range []struct{ fill, over float64 }{{0, 0}, {0.001, 0}, {0.3, 0}, {0.5, 0.2}, {0.7, 0.05}, {0.2, 1}, {0.1, 2.5}, {1, 0.1}} {
					name := fmt.Sprintf("geo%d/%v/random=%v/fill=%v/over=%v", gi, alloc, random, c.fill, c.over)
					t.Run(name, func(t *testing.T) {
						mod := func(cfg *Config) { cfg.Allocator = alloc }
						slow, fast := newFTL(t, g, mod), newFTL(t, g, mod)
						errSlow := slow.precondition(c.fill, c.over, random, 7, false)
						errFast := fast.precondition(c.fill, c.over, random, 7, true)
						if errSlow != nil {
							require.EqualError(t, errFast, errSlow.Error())
							return
						}
						require.NoError(t, errFast)
						require.NotNil(t, fast.pre, "the closed form applies to a fresh FTL")
						pre := fast.pre
						fast.pre = nil
						requireSameFTL(t, slow, fast)
						require.NoError(t, fast.Check())
						fast.pre = pre
						// Every programmed page's owner: valid pages must match the map.
						for p := PPN(0); int64(p) < g.Pages(); p++ {
							lpn, ok := fast.PreconditionOwner(p)
							programmed := g.Addr(p).Page < fast.NextPage(g.BlockOf(p))
							require.Equal(t, programmed, ok, "page %d", p)
							if cur, valid := slow.Owner(Unit(p)); valid {
								require.Equal(t, cur, lpn, "page %d", p)
							}
						}
					})
				}
			}
		}
	}
}

// TestFastPreconditionWorkers: the closed form fills the same FTL whatever the number of
// workers sharing it, including more workers than blocks or logical pages, against the
// general path (writing every page through the allocator) as the reference.
func TestFastPreconditionWorkers(t *testing.T) {
	g := Geometry{Channels: 3, DiesPerChannel: 2, Planes: 2, BlocksPerPlane: 24, PagesPerBlock: 12, Kind: TLCKind}
	for _, alloc := range []string{Sequential, LatencyAware} {
		for _, c := range []struct{ fill, over float64 }{{0.001, 0}, {0.6, 0.3}, {0.2, 1.5}} {
			mod := func(cfg *Config) { cfg.Allocator = alloc }
			slow := newFTL(t, g, mod)
			require.NoError(t, slow.precondition(c.fill, c.over, true, 11, false))
			for _, workers := range []int{1, 2, 3, 7, 64} {
				t.Run(fmt.Sprintf("%v/fill=%v/over=%v/workers=%d", alloc, c.fill, c.over, workers), func(t *testing.T) {
					fast := newFTL(t, g, mod)
					n := int64(c.fill * float64(len(fast.l2p)))
					m := int64(c.over * float64(n))
					pc := fast.alloc.(Preconditioner)
					pre, ok := fast.planPrecondition(pc.PreconditionLayout(), n, m, true, newPermutation(n, 11), newPermutation(n, 11^0x9E3779B97F4A7C15))
					require.True(t, ok)
					fast.fastPrecondition(pc, pre, workers)
					fast.Stats = Stats{}
					requireSameFTL(t, slow, fast)
					require.NoError(t, fast.Check())
				})
			}
		}
	}
}

// TestFastPreconditionNotFresh: a second precondition, or one after writes, takes the
// general path (the closed form assumes an empty device).
func TestFastPreconditionNotFresh(t *testing.T) {
	g := Geometry{Channels: 2, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 32, PagesPerBlock: 8, Kind: SLCKind}
	f := newFTL(t, g, nil)
	_, err := f.WriteHost(3, 0, Background)
	require.NoError(t, err)
	require.NoError(t, f.Precondition(0.25, 0, false, 1))
	require.Nil(t, f.pre)
	_, ok := f.PreconditionOwner(0)
	require.False(t, ok)
	require.NoError(t, f.Check())
}

func TestDivider(t *testing.T) {
	for _, d := range []uint64{1, 2, 3, 7, 480, 512, 1000003, 1<<32 - 1} {
		v := newDivider(d)
		for _, x := range []uint64{0, 1, d - 1, d, d + 1, 123456789, 1<<32 - 1, 1<<32 - 2} {
			require.Equal(t, x/d, v.div(x), "%d / %d", x, d)
		}
	}
}

func TestModInverse(t *testing.T) {
	for _, n := range []int64{1, 2, 97, 1000, 4096, 97_800_000} {
		p := newPermutation(n, 0xDEADBEEF)
		inv := modInverse(p.a, n)
		require.Equal(t, int64(1)%n, mulMod(p.a, inv, n))
	}
}

// BenchmarkPrecondition400GB preconditions the FTL of the 400 GB fastdrain-tlc device
// (480 dies × 512 blocks × 512 pages, 22.27 % over-provisioning) as the preset does: half
// the logical space in random order, then 10 % of that overwritten.
func BenchmarkPrecondition400GB(b *testing.B) {
	g := Geometry{Channels: 12, DiesPerChannel: 40, Planes: 1, BlocksPerPlane: 512, PagesPerBlock: 512, Kind: TLCKind}
	c := DefaultConfig()
	c.OverProvisioning = 0.2227
	b.ReportAllocs()
	for b.Loop() {
		f, err := New(g, c)
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Precondition(0.5, 0.1, true, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// requireSameFTL compares two FTLs field by field, reporting the first difference briefly.
func requireSameFTL(t *testing.T, want, got *FTL) {
	t.Helper()
	for i := range want.l2p {
		require.Equal(t, want.l2p[i], got.l2p[i], "l2p[%d]", i)
	}
	for i := range want.p2l {
		require.Equal(t, want.p2l[i], got.p2l[i], "p2l[%d]", i)
	}
	for i := range want.blocks {
		require.Equal(t, want.blocks[i], got.blocks[i], "block %d", i)
	}
	for i := range want.planes {
		require.Equal(t, want.planes[i], got.planes[i], "plane %d", i)
	}
	for i := range want.dies {
		require.Equal(t, want.dies[i], got.dies[i], "die %d", i)
	}
	require.Equal(t, want.clock, got.clock, "clock")
	require.Equal(t, want.Stats, got.Stats, "stats")
	require.Equal(t, allocState(want.alloc), allocState(got.alloc), "allocator state")
}

// allocState returns a built-in allocator's cursors (write points or open lists, and the
// per-die plane round robin), for comparing two FTLs' allocators.
func allocState(a Allocator) any {
	switch a := a.(type) {
	case *sequential:
		return []any{a.wp, a.rr}
	case *latencyAware:
		return []any{a.open, a.rr}
	}
	return nil
}
