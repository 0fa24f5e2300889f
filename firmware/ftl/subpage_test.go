package ftl

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// smallUnits is small() with k mapping units a page.
func smallUnits(k int) Geometry {
	g := small()
	g.UnitsPerPage = k
	return g
}

// TestSubPageGCMovesHalfAPage works one 16 KiB page of four 4 KiB units by hand. The
// geometry is small(): 2 dies × 2 planes × 8 blocks × 16 pages, so 512 pages, 2,048 units,
// 75 % exported (25 % over-provisioning): 1,536 logical pages.
//
// Logical pages 0–3 written together go to one page P (the sequential allocator's first
// page on die 0: plane 0, block 0, page 0 = PPN 0), slots 0–3: units 0, 1, 2, 3. Its block
// then holds 4 valid units. Rewriting 1 and 3 (as a page with 2 padded slots, on die 1)
// invalidates units 1 and 3: block 0 has 2 valid units, 2 invalid. GC of it finds the 2
// valid units, 0 and 2, and packs them into ONE new page of the GC stream with 2 slots
// padded: moving 2 units costs one page program, half of it padding (2 of 4 slots), against
// two page programs with one unit a page. Stats: 4 + 2 host writes, 2 GC writes (WAF
// (6 + 2) / 6), padded 2 (the rewrite) + 2 (GC) = 4, one page programmed by GC.
func TestSubPageGCMovesHalfAPage(t *testing.T) {
	g := smallUnits(4)
	f := newFTL(t, g, nil)
	require.Equal(t, int64(1536), f.LogicalPages())
	p, err := f.WriteUnits([]int64{0, 1, 2, 3}, 0, Background)
	require.NoError(t, err)
	require.Equal(t, PPN(0), p)
	for lpn := int64(0); lpn < 4; lpn++ {
		require.Equal(t, Unit(lpn), f.Lookup(lpn))
		owner, ok := f.Owner(Unit(lpn))
		require.True(t, ok)
		require.Equal(t, lpn, owner)
	}
	require.Equal(t, 4, f.ValidCount(0))
	_, err = f.WriteUnits([]int64{1, 3}, 1, Background)
	require.NoError(t, err)
	require.Equal(t, 2, f.ValidCount(0))
	require.Equal(t, int64(2), f.Stats.Padded)
	require.Equal(t, []Unit{0, 2}, f.ValidUnits(0, nil))

	programmed := f.Stats.Programmed[LSB] + f.Stats.Programmed[CSB] + f.Stats.Programmed[MSB]
	np := f.RelocateUnits([]Unit{0, 2})
	after := f.Stats.Programmed[LSB] + f.Stats.Programmed[CSB] + f.Stats.Programmed[MSB]
	require.Equal(t, int64(1), after-programmed, "two units moved in one page program")
	require.Equal(t, 0, f.ValidCount(0))
	require.Equal(t, 2, f.ValidCount(g.BlockOf(np)))
	require.Equal(t, g.UnitOf(np, 0), f.Lookup(0))
	require.Equal(t, g.UnitOf(np, 1), f.Lookup(2))
	_, ok := f.Owner(g.UnitOf(np, 2))
	require.False(t, ok, "a padded slot holds no data")
	require.Equal(t, int64(4), f.Stats.Padded)
	require.Equal(t, int64(6), f.Stats.HostWrites)
	require.Equal(t, int64(2), f.Stats.GCWrites)
	require.InDelta(t, 8.0/6.0, f.Stats.WAF(), 1e-12)
	require.NoError(t, f.Check())

	// Trim is per unit: trimming 2 leaves 0 in the same page valid.
	f.Trim(2)
	require.Equal(t, NoUnit, f.Lookup(2))
	require.Equal(t, 1, f.ValidCount(g.BlockOf(np)))
	require.NoError(t, f.Check())

	// The checker sees a slot whose reverse map disagrees with the map.
	f.p2l.put(int64(g.UnitOf(np, 3)), 7)
	require.ErrorContains(t, f.Check(), fmt.Sprintf("unit %d claims lpn 7, which maps elsewhere", g.UnitOf(np, 3)))
}

// TestSubPageGeometry checks the unit arithmetic and the limits: unit = PPN·k + slot;
// k must be 1, 2 or 4; a block's units must fit its 16-bit valid count (65,535).
func TestSubPageGeometry(t *testing.T) {
	g := smallUnits(2)
	require.Equal(t, Unit(2*37+1), g.UnitOf(37, 1))
	require.Equal(t, PPN(37), g.PageOf(75))
	require.Equal(t, 1, g.SlotOf(75))
	require.Equal(t, int64(1024), g.AllUnits())
	g.UnitsPerPage = 3
	require.ErrorContains(t, g.Validate(), "3 mapping units per page; want 1, 2 or 4")
	g.UnitsPerPage, g.PagesPerBlock = 4, 16384
	require.ErrorContains(t, g.Validate(), "16384 pages per block of 4 units exceed the 65535 units a block's valid count holds")
}

// TestSubPageRandomWorkload is TestRandomWorkload's reference check with 2 and 4 units a
// page: random groups of 1 … k distinct logical pages written as one page, trims, and GC
// packing each victim's valid units k to a page; after every GC the invariants (per slot)
// hold, and at the end every mapped unit is exactly the reference's.
func TestSubPageRandomWorkload(t *testing.T) {
	for _, k := range []int{2, 4} {
		t.Run(string(rune('0'+k)), func(t *testing.T) {
			g := smallUnits(k)
			f := newFTL(t, g, func(c *Config) { c.OverProvisioning = 0.5; c.GCThreshold, c.GCReserve = 3, 1 })
			r := rand.New(rand.NewPCG(7, uint64(k)))
			ref := make(map[int64]bool)
			n := f.LogicalPages()
			gcs, padded := 0, int64(0)
			var buf []Unit
			for i := 0; i < 20000; i++ {
				if r.IntN(20) == 0 {
					lpn := r.Int64N(n)
					f.Trim(lpn)
					delete(ref, lpn)
					continue
				}
				m := k // mostly whole pages, as the buffer packs them; some padded
				if r.IntN(4) == 0 {
					m = 1 + r.IntN(k)
				}
				lpns := make([]int64, 0, m)
				for len(lpns) < m {
					lpn := r.Int64N(n)
					dup := false
					for _, l := range lpns {
						dup = dup || l == lpn
					}
					if !dup {
						lpns = append(lpns, lpn)
					}
				}
				padded += int64(k - m)
				die := i % g.Dies()
				for {
					_, err := f.WriteUnits(lpns, die, Background)
					if err == nil {
						break
					}
					require.ErrorIs(t, err, ErrNoSpace)
					var cleaned int
					buf, cleaned = cleanDie(t, f, die, buf, func(valid []Unit) {
						for j := 0; j < len(valid); j += k {
							chunk := valid[j:min(j+k, len(valid))]
							padded += int64(k - len(chunk))
							f.RelocateUnits(chunk)
						}
					})
					gcs += cleaned
					require.Positive(t, cleaned, "write failed and GC found nothing to clean on die %d (op %d)", die, i)
				}
				for _, l := range lpns {
					ref[l] = true
				}
			}
			requireMapped(t, f, ref)
			require.NoError(t, f.Check())
			require.Positive(t, gcs)
			require.Equal(t, padded, f.Stats.Padded)
		})
	}
}

// TestSubPageMappingMemoryBudget: the map and reverse map are per 4 KiB unit, so with 4
// units a 16 KiB page they take 4 B per physical unit + 4 B per logical page ≤ 8 B per
// physical unit, 32 B per page (issue 3's budget, per 4 KiB of flash).
func TestSubPageMappingMemoryBudget(t *testing.T) {
	g := Geometry{Channels: 4, DiesPerChannel: 4, Planes: 2, BlocksPerPlane: 64, PagesPerBlock: 256, Kind: TLCKind, UnitsPerPage: 4}
	f := newFTL(t, g, func(c *Config) { c.OverProvisioning = 0.07 })
	require.Equal(t, 4*g.AllUnits()+4*f.LogicalPages(), f.MappingBytes())
	require.LessOrEqual(t, f.MappingBytes(), 8*g.AllUnits())
	// Against the same array with one unit a page: 4 B more per extra physical unit and per
	// extra logical page, nothing else.
	g1 := g
	g1.UnitsPerPage = 1
	f1 := newFTL(t, g1, func(c *Config) { c.OverProvisioning = 0.07 })
	require.Equal(t, 4*(g.AllUnits()-g1.Pages())+4*(f.LogicalPages()-f1.LogicalPages()),
		MemoryBytes(g, f.Config())-MemoryBytes(g1, f1.Config()))
}

// TestSubPagePrecondition: preconditioning through the allocator packs k consecutive
// writes into one page. Filling 1/4 of small()'s 1,536 logical pages with k = 4 in order
// writes 384 logical pages to 96 pages, lpns 4j … 4j+3 in page j's slots, dies in turn:
// lpn 0–3 on die 0's first page (PPN 0: units 0–3), lpn 4–7 on die 1's (PPN 256: units
// 1,024–1,027).
func TestSubPagePrecondition(t *testing.T) {
	f := newFTL(t, smallUnits(4), nil)
	require.NoError(t, f.Precondition(0.25, 0, false, 1))
	for lpn, want := range map[int64]Unit{0: 0, 3: 3, 4: 1024, 7: 1027} {
		require.Equal(t, want, f.Lookup(lpn), "lpn %d", lpn)
	}
	require.Equal(t, NoUnit, f.Lookup(384))
	require.NoError(t, f.Check())
	require.NoError(t, f.Precondition(0, 0, false, 1))
}
