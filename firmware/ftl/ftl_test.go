package ftl

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// small is 2 channels × 1 die × 2 planes × 8 blocks × 16 TLC pages = 512 pages.
func small() Geometry {
	return Geometry{Channels: 2, DiesPerChannel: 1, Planes: 2, BlocksPerPlane: 8, PagesPerBlock: 16, Kind: TLCKind}
}

func newFTL(t *testing.T, g Geometry, mod func(*Config)) *FTL {
	t.Helper()
	c := DefaultConfig()
	c.GCThreshold, c.GCReserve = 2, 1
	c.LSBOnlyPages = 2 * g.PagesPerBlock // a region of two blocks
	c.OverProvisioning = 0.25
	if mod != nil {
		mod(&c)
	}
	f, err := New(g, c)
	require.NoError(t, err)
	return f
}

func TestTLCKindMap(t *testing.T) {
	// docs/sources.md §3.4: 0–5 LSB, 6–7 CSB, then (8,9) LSB, (10,11) CSB, (12,13) MSB, (14,15) LSB …
	want := "llllllccllccmmllccmm"
	for i, c := range want {
		require.Equal(t, string(c), TLCKind(i).String()[:1], "page %d", i)
	}
	require.Equal(t, MSB, MLCKind(3))
	require.Equal(t, LSB, SLCKind(7))
}

func TestGeometryAddressing(t *testing.T) {
	g := small()
	a := Addr{Die: 1, Plane: 1, Block: 3, Page: 5}
	// ((1·2 + 1)·8 + 3)·16 + 5 = 27·16 + 5 = 437
	require.Equal(t, PPN(437), g.PPN(a))
	require.Equal(t, a, g.Addr(437))
	require.Equal(t, BlockID(27), g.BlockOf(437))
	// 4 channels × 2 dies: interleaved order visits channels first: 0,2,4,6,1,3,5,7.
	g2 := Geometry{Channels: 4, DiesPerChannel: 2}
	var order []int
	for i := 0; i < 8; i++ {
		order = append(order, g2.InterleavedDie(i))
	}
	require.Equal(t, []int{0, 2, 4, 6, 1, 3, 5, 7}, order)
}

func TestSequentialAllocatorRoundRobinsPlanes(t *testing.T) {
	f := newFTL(t, small(), nil)
	g := f.Geometry()
	var got []Addr
	for lpn := int64(0); lpn < 4; lpn++ {
		p, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
		got = append(got, g.Addr(p))
	}
	// Plane 0 block 0 page 0, plane 1 block 0 page 0, then page 1 of each.
	require.Equal(t, []Addr{{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 1}}, got)
	// Overwriting lpn 0 invalidates page (0,0,0,0).
	p, err := f.WriteHost(0, 0, Background)
	require.NoError(t, err)
	require.Equal(t, Addr{0, 0, 0, 2}, g.Addr(p))
	_, valid := f.Owner(Unit(g.PPN(Addr{0, 0, 0, 0})))
	require.False(t, valid)
	require.Equal(t, 2, f.ValidCount(0))
	require.NoError(t, f.Check())
}

func oneplane() Geometry {
	return Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 8, PagesPerBlock: 20, Kind: TLCKind}
}

func TestSkipToLSBWastesSkippedPages(t *testing.T) {
	f := newFTL(t, oneplane(), func(c *Config) { c.Allocator = SkipToLSB })
	var pages []int
	for lpn := int64(0); lpn < 9; lpn++ {
		p, err := f.WriteHost(lpn, 0, Foreground)
		require.NoError(t, err)
		pages = append(pages, f.g.Addr(p).Page)
	}
	// LSB pages of the TLC map in order: 0–5, 8, 9, 14, 15 — skipping 6,7 (2) then 10–13 (4).
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 8, 9, 14}, pages)
	require.Equal(t, int64(6), f.Stats.Wasted)
	require.Equal(t, int64(9), f.Stats.LSBForFG)
	// A background write takes the next page whatever its kind: 15 (LSB), then 16 (CSB).
	p, _ := f.WriteHost(100, 0, Background)
	require.Equal(t, 15, f.g.Addr(p).Page)
	p, _ = f.WriteHost(101, 0, Background)
	require.Equal(t, 16, f.g.Addr(p).Page)
	require.NoError(t, f.Check())
}

func TestLatencyAwareGroups(t *testing.T) {
	f := newFTL(t, oneplane(), func(c *Config) { c.Allocator = LatencyAware; c.LSBOnlyPages = 40 })
	page := func(lpn int64, pur Purpose) Addr {
		p, err := f.WriteHost(lpn, 0, pur)
		require.NoError(t, err)
		return f.g.Addr(p)
	}
	// Six foreground writes fill block 0's LSB pages 0–5; its next page (6) is CSB.
	for i := int64(0); i < 6; i++ {
		require.Equal(t, Addr{0, 0, 0, int(i)}, page(i, Foreground))
	}
	// The seventh opens block 1 rather than skipping: the region (block 0's 14 unprogrammed
	// pages) plus a fresh block, 34 pages, fits in 40.
	require.Equal(t, Addr{0, 0, 1, 0}, page(6, Foreground))
	require.Equal(t, int64(0), f.Stats.Wasted)
	// Background writes take the CSB/MSB group first: block 0 pages 6, 7 (CSB).
	require.Equal(t, Addr{0, 0, 0, 6}, page(7, Background))
	require.Equal(t, Addr{0, 0, 0, 7}, page(8, Background))
	// Block 0 is now at page 8 (LSB): a foreground write takes it (oldest in the LSB group).
	require.Equal(t, Addr{0, 0, 0, 8}, page(9, Foreground))
	// Block 0 page 9 LSB, block 1 page 1 LSB: still no waste. Fill block 1 to page 6.
	require.Equal(t, Addr{0, 0, 0, 9}, page(10, Foreground))
	for i := 1; i < 6; i++ {
		require.Equal(t, Addr{0, 0, 1, i}, page(int64(10+i), Foreground))
	}
	// Both open blocks now sit on CSB pages (block 0 at 10, block 1 at 6), so no LSB page is
	// left: the region holds 10 + 14 = 24 unprogrammed pages and a third block would make it
	// 44 > 40. A foreground write skips in the block nearest an LSB page. Block 0: 10,11
	// CSB, 12,13 MSB, 14 LSB → 4 pages; block 1: 6,7 CSB, 8 LSB → 2 pages. Block 1 wins.
	require.Equal(t, Addr{0, 0, 1, 8}, page(20, Foreground))
	require.Equal(t, int64(2), f.Stats.Wasted)
	// Every foreground write landed on an LSB page.
	require.Equal(t, f.Stats.ForegroundWr, f.Stats.LSBForFG)
	require.NoError(t, f.Check())
}

func TestGreedyGCReclaims(t *testing.T) {
	g := oneplane()
	f := newFTL(t, g, func(c *Config) { c.OverProvisioning = 0.5 })
	// Fill blocks 0 and 1 (40 pages) with lpns 0–39, then overwrite 0–29: block 0 is fully
	// invalid (20 stale), block 1 has 10 stale of 20.
	for lpn := int64(0); lpn < 40; lpn++ {
		_, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
	}
	for lpn := int64(0); lpn < 30; lpn++ {
		_, err := f.WriteHost(lpn, 0, Background)
		require.NoError(t, err)
	}
	v, ok := f.PickVictim(0, 0)
	require.True(t, ok)
	require.Equal(t, BlockID(0), v, "greedy: block 0 has 0 valid pages")
	require.Equal(t, 0, f.ValidCount(v))
	f.Erase(v)
	v, ok = f.PickVictim(0, 0)
	require.True(t, ok)
	require.Equal(t, BlockID(1), v)
	valid := f.ValidUnits(v, nil)
	require.Len(t, valid, 10)
	for _, p := range valid {
		np, lpn := f.Relocate(p)
		require.Equal(t, np, f.Lookup(lpn))
	}
	f.Erase(v)
	require.NoError(t, f.Check())
	require.Equal(t, int64(10), f.Stats.GCWrites)
	require.Equal(t, int64(2), f.Stats.Erases)
	require.InDelta(t, 80.0/70.0, f.Stats.WAF(), 1e-12)
	require.Panics(t, func() { f.Erase(2) }, "block 2 holds valid data")
}

func TestCostBenefitPrefersOldColdBlock(t *testing.T) {
	f := newFTL(t, oneplane(), func(c *Config) { c.GCVictim = CostBenefit; c.OverProvisioning = 0.5 })
	// Block 0: lpns 0–19 written first; block 1: lpns 20–39; block 2: 40–59.
	for lpn := int64(0); lpn < 60; lpn++ {
		_, _ = f.WriteHost(lpn, 0, Background)
	}
	// Make block 0 (old) 50 % valid and block 2 (young) 40 % valid by overwriting.
	for lpn := int64(0); lpn < 10; lpn++ {
		_, _ = f.WriteHost(lpn, 0, Background)
	}
	for lpn := int64(40); lpn < 52; lpn++ {
		_, _ = f.WriteHost(lpn, 0, Background)
	}
	// Greedy would take block 2 (8 valid < 10 valid). Cost-benefit weighs age: block 0's
	// last program was at allocation clock 20 (age unit = 20 pages → 1), block 2's at 60
	// (→ 3); now = 82 → 4. Scores: block 0: (4−1+1)·0.5/1.0 = 2; block 2: (4−3+1)·0.6/0.8 = 1.5.
	v, ok := f.PickVictim(0, 0)
	require.True(t, ok)
	require.Equal(t, BlockID(0), v)
}

func TestTrim(t *testing.T) {
	f := newFTL(t, small(), nil)
	p, _ := f.WriteHost(7, 1, Background)
	f.Trim(7)
	require.Equal(t, NoUnit, f.Lookup(7))
	_, valid := f.Owner(Unit(p))
	require.False(t, valid)
	f.Trim(7) // trimming an unmapped page is a no-op
	require.Equal(t, int64(1), f.Stats.Trims)
	require.NoError(t, f.Check())
}

func TestConfigValidation(t *testing.T) {
	g := small()
	c := DefaultConfig()
	c.OverProvisioning = 1.5
	c.GCReserve = 0
	c.GCThreshold = 0
	c.LSBOnlyPages = 0
	err := c.Validate(g)
	require.Error(t, err)
	for _, field := range []string{"ftl.over_provisioning", "ftl.gc_reserve", "ftl.gc_threshold", "ftl.lsb_only_pages"} {
		require.Contains(t, err.Error(), field)
	}
	bad := g
	bad.Planes = 0
	bad.Kind = nil
	_, err = New(bad, DefaultConfig())
	require.ErrorContains(t, err, "planes must be positive")
	require.ErrorContains(t, err, "page kind map is missing")
}

func TestPrecondition(t *testing.T) {
	g := Geometry{Channels: 2, DiesPerChannel: 2, Planes: 2, BlocksPerPlane: 32, PagesPerBlock: 20, Kind: TLCKind}
	for _, random := range []bool{false, true} {
		f := newFTL(t, g, nil)
		require.NoError(t, f.Precondition(0.5, 0.2, random, 42))
		n := f.LogicalPages() / 2
		mapped := int64(0)
		for lpn := int64(0); lpn < f.LogicalPages(); lpn++ {
			if f.Lookup(lpn) != NoUnit {
				mapped++
				require.Less(t, lpn, n)
			}
		}
		require.Equal(t, n, mapped, "every lpn below the fill point written, none above")
		// Pages programmed = n + 0.2·n; invalid = 0.2·n.
		programmed := 0
		for b := 0; b < g.Blocks(); b++ {
			programmed += f.NextPage(BlockID(b))
		}
		require.Equal(t, int(n+n/5), programmed)
		require.Equal(t, int64(0), f.Stats.HostWrites, "statistics reset")
		require.NoError(t, f.Check())
	}
	f := newFTL(t, g, nil)
	require.ErrorContains(t, f.Precondition(0.95, 1, false, 1), "GC reserve")
	require.Error(t, f.Precondition(-0.1, 0, false, 1))
}

func TestPermutationIsBijection(t *testing.T) {
	for _, n := range []int64{1, 2, 10, 97, 1000, 4096} {
		p := newPermutation(n, 12345)
		seen := make([]bool, n)
		for i := int64(0); i < n; i++ {
			v := p.at(i)
			require.False(t, seen[v])
			seen[v] = true
		}
	}
}

// TestRandomWorkloadInvariants drives random writes (foreground and background), trims and
// greedy GC on a small device with each allocator, checks every invariant after every GC,
// and checks the mapping against a reference map throughout.
func TestRandomWorkloadInvariants(t *testing.T) {
	ops := 200_000
	if testing.Short() {
		ops = 20_000
	}
	g := Geometry{Channels: 2, DiesPerChannel: 2, Planes: 2, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	// latency-aware runs twice: with the default LSB-only region (Check verifies the region
	// never exceeds it) and with an unbounded one (every foreground write then gets an LSB
	// page).
	for _, tc := range []struct {
		alloc   string
		seed    uint64
		region  int
		allLSB  bool
		subtest string
	}{{Sequential, 0, 4, false, "sequential"}, {SkipToLSB, 1, 4, false, "skip-to-lsb"},
		{LatencyAware, 2, 1, false, "latency-aware"}, {LatencyAware, 2, 1 << 20, true, "latency-aware-unbounded"}} {
		alloc := tc.alloc
		t.Run(tc.subtest, func(t *testing.T) {
			f := newFTL(t, g, func(c *Config) {
				c.Allocator = alloc
				c.OverProvisioning = 0.3
				c.GCThreshold, c.GCReserve = 3, 1
				c.LSBOnlyBlocks = tc.region
			})
			r := rand.New(rand.NewPCG(7, tc.seed))
			ref := make(map[int64]bool) // lpn → mapped
			n := f.LogicalPages()
			gcs := 0
			var buf []Unit
			for i := 0; i < ops; i++ {
				lpn := r.Int64N(n)
				if r.IntN(20) == 0 {
					f.Trim(lpn)
					delete(ref, lpn)
					continue
				}
				die := i % g.Dies()
				pur := Background
				if r.IntN(3) == 0 {
					pur = Foreground
				}
				for {
					_, err := f.WriteHost(lpn, die, pur)
					if err == nil {
						break
					}
					require.ErrorIs(t, err, ErrNoSpace)
					// Clean every plane of this die that needs it, then retry.
					var cleaned int
					buf, cleaned = cleanDie(t, f, die, buf, func(valid []Unit) {
						for _, p := range valid {
							f.Relocate(p)
						}
					})
					gcs += cleaned
					require.Positive(t, cleaned, "write failed and GC found nothing to clean on die %d", die)
				}
				ref[lpn] = true
			}
			requireMapped(t, f, ref)
			require.NoError(t, f.Check())
			require.Positive(t, gcs)
			if tc.allLSB {
				require.Equal(t, f.Stats.ForegroundWr, f.Stats.LSBForFG, "latency-aware foreground writes are all LSB")
			} else if alloc == LatencyAware {
				require.Less(t, f.Stats.LSBForFG, f.Stats.ForegroundWr, "a region of one block makes some foreground writes CSB/MSB")
			}
			if alloc == Sequential {
				require.Zero(t, f.Stats.Wasted)
			}
		})
	}
}

func TestMappingMemoryBudget(t *testing.T) {
	g := Geometry{Channels: 4, DiesPerChannel: 4, Planes: 2, BlocksPerPlane: 64, PagesPerBlock: 256, Kind: TLCKind}
	f := newFTL(t, g, func(c *Config) { c.OverProvisioning = 0.07 })
	// 4 B per physical page (reverse map) + 4 B per logical page (93 % of them).
	require.LessOrEqual(t, f.MappingBytes(), 8*g.Pages())
	require.Equal(t, 4*g.Pages()+4*f.LogicalPages(), f.MappingBytes())
}

// cleanDie collects every plane of die that needs GC, as the firmware's GC task does: each
// victim's valid units go to move (which relocates them), then the victim is erased and the
// FTL's invariants checked. It returns buf (reused for the valid units) and the blocks erased.
func cleanDie(t *testing.T, f *FTL, die int, buf []Unit, move func(valid []Unit)) ([]Unit, int) {
	t.Helper()
	erased := 0
	for pl := 0; pl < f.g.Planes; pl++ {
		for f.NeedsGC(die, pl) {
			v, ok := f.PickVictim(die, pl)
			if !ok {
				break
			}
			buf = f.ValidUnits(v, buf[:0])
			move(buf)
			f.Erase(v)
			erased++
			require.NoError(t, f.Check())
		}
	}
	return buf, erased
}

// requireMapped checks that exactly the logical pages in ref are mapped, each to a unit
// whose reverse map names it.
func requireMapped(t *testing.T, f *FTL, ref map[int64]bool) {
	t.Helper()
	for lpn := int64(0); lpn < f.LogicalPages(); lpn++ {
		u := f.Lookup(lpn)
		require.Equal(t, ref[lpn], u != NoUnit, "lpn %d", lpn)
		if u != NoUnit {
			owner, ok := f.Owner(u)
			require.True(t, ok)
			require.Equal(t, lpn, owner)
		}
	}
}
