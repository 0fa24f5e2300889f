package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlacementSizedGroups works reclaim groups of unequal sizes by hand on 2 channels × 2
// dies × 2 planes, 16 pages a block. Die d is channel d/2, way d%2; the channel-first
// interleaved positions 0, 1, 2, 3 are dies 0, 2, 1, 3. Groups of [3, 1] dies take
// positions 0–2 (dies 0, 2, 1) and 3 (die 3): group 0's reclaim unit is a block on each of
// its 6 planes, 6 × 16 = 96 pages, group 1's a block on die 3's 2 planes, 32 pages; the
// nominal size (RUNS) is the largest, 96. Handle 0's first page in group 1 (on die 3)
// leaves 31 of that unit; its 33rd page there finds the unit full (two blocks of 16) and
// starts the handle's second reclaim unit in group 1, while group 0's is untouched (96
// left, first unit). Equal sizes give what EnablePlacementGroups gives, and sizes that do
// not share out the dies, or a group without a die, are refused.
func TestPlacementSizedGroups(t *testing.T) {
	g := Geometry{Channels: 2, DiesPerChannel: 2, Planes: 2, BlocksPerPlane: 8, PagesPerBlock: 16, Kind: TLCKind}
	f := newFTL(t, g, nil)
	require.ErrorContains(t, f.EnablePlacementSized([]bool{false}, []int{2, 1}), "must share out the dies (3 given)")
	require.ErrorContains(t, f.EnablePlacementSized([]bool{false}, []int{4, 0}), "reclaim group 1 has 0 dies")
	require.NoError(t, f.EnablePlacementSized([]bool{false, false}, []int{3, 1}))
	require.Equal(t, 2, f.ReclaimGroups())
	require.Equal(t, []int{0, 0, 0, 1}, []int{f.GroupOf(0), f.GroupOf(1), f.GroupOf(2), f.GroupOf(3)})
	require.Equal(t, int64(96), f.ReclaimUnitPagesIn(0))
	require.Equal(t, int64(32), f.ReclaimUnitPagesIn(1))
	require.Equal(t, int64(96), f.ReclaimUnitPages())

	for lpn := int64(0); lpn < 33; lpn++ {
		f.PlaceGroup(lpn, 0, 1)
		_, err := f.WriteHost(lpn, 0, Background)
		require.ErrorIs(t, err, ErrNoSpace, "group 1's page on group 0's die 0")
		_, err = f.WriteHost(lpn, 3, Background)
		require.NoError(t, err)
		if lpn == 0 {
			require.Equal(t, int64(31), f.ReclaimUnitLeft(0, 1))
		}
	}
	require.Equal(t, int64(2), f.ReclaimUnitSeq(0, 1))
	require.Equal(t, int64(31), f.ReclaimUnitLeft(0, 1), "the second unit took the 33rd page")
	require.Equal(t, int64(1), f.ReclaimUnitSeq(0, 0))
	require.Equal(t, int64(96), f.ReclaimUnitLeft(0, 0))
	require.NoError(t, f.Check())

	eq, sized := newFTL(t, g, nil), newFTL(t, g, nil)
	require.NoError(t, eq.EnablePlacementGroups([]bool{false}, 2))
	require.NoError(t, sized.EnablePlacementSized([]bool{false}, []int{2, 2}))
	for d := range 4 {
		require.Equal(t, eq.GroupOf(d), sized.GroupOf(d), "die %d", d)
	}
	require.Equal(t, eq.ReclaimUnitPages(), sized.ReclaimUnitPages())
}
