package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestResidentBytes: the maps are resident where entries were written. On 2 dies × 2
// planes × 64 blocks × 256 pages (65,536 physical pages: a 256 KiB reverse map) with 7 %
// over-provisioning (60,948 logical pages: a 238 KiB map), nothing written leaves both maps
// out; 1,025 mapped pages touch two 4 KiB pages of the map and 3,000 written units three of
// the reverse map; everything mapped gives back MemoryBytes. Preconditioning half the
// logical pages with 10 % rewrites maps 30,474 of them and writes 33,521 units.
func TestResidentBytes(t *testing.T) {
	g := Geometry{Channels: 2, DiesPerChannel: 1, Planes: 2, BlocksPerPlane: 64, PagesPerBlock: 256, Kind: TLCKind}
	c := DefaultConfig()
	c.LSBOnlyPages = 512
	require.NoError(t, c.Validate(g))
	logical := c.logicalPages(g)
	require.Equal(t, int64(60948), logical)
	all := MemoryBytes(g, c)
	none := all - 4*logical - 4*g.AllUnits()
	require.Equal(t, none, ResidentBytes(g, c, 0, 0))
	require.Equal(t, none+2*4096+3*4096, ResidentBytes(g, c, 1025, 3000))
	require.Equal(t, all, ResidentBytes(g, c, logical, g.AllUnits()))
	mapped, written := PreconditionWrites(g, c, 0.5, 0.1)
	require.Equal(t, int64(30474), mapped)
	require.Equal(t, int64(30474+3047), written)
	require.True(t, PreconditionClosedForm(g, c, false))
	require.False(t, PreconditionClosedForm(g, c, true), "bad blocks: through the allocator")
}
