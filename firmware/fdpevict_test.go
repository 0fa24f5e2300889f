package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestFDPPlacementLookahead: the lifetime workload (hot through handle 0, cold through
// handle 1, interleaved page by page) with strict age order and with a look-ahead window
// of 8 pages. In age order the oldest dirty page alternates between the handles, so when
// one handle's reclaim unit cannot take a page on a die the page after it, of the other
// handle, often can: with the window the evictor takes it instead of passing the die
// over. Expected, by the mechanism: the window takes pages out of order (the statistic
// counts them) and the refusals that end a die's visit fall; placement itself is the same
// rule (each page only in its own handle's reclaim units: the invariant checker passes,
// and every page ends tagged with the handle it was written through, as in the control).
// Strict age order reports refusals and no look-ahead statistic.
func TestFDPPlacementLookahead(t *testing.T) {
	ctl := lifetimeWorkloadLookahead(t, 0, 1, 0)
	la := lifetimeWorkloadLookahead(t, 0, 1, 8)
	t.Logf("refusals %d → %d, pages taken out of order %d; WAF %.3f → %.3f",
		ctl.fdp.headRefusals, la.fdp.headRefusals, la.fdp.lookaheadPages, ctl.ftl.Stats.WAF(), la.ftl.Stats.WAF())
	require.Positive(t, ctl.fdp.headRefusals, "the workload must fill reclaim units under the evictor")
	require.Zero(t, ctl.fdp.lookaheadPages)
	require.Positive(t, la.fdp.lookaheadPages)
	require.Less(t, la.fdp.headRefusals, ctl.fdp.headRefusals)
	for lpn := int64(0); lpn < 512+8000; lpn++ {
		want := 1
		if lpn < 512 {
			want = 0
		}
		require.Equal(t, want, la.ftl.HandleOf(lpn), "lpn %d", lpn)
	}
	for h := range 2 {
		require.Equal(t, ctl.ftl.HandleStats(h).HostWrites, la.ftl.HandleStats(h).HostWrites, "handle %d", h)
	}

	cat := sim.NewCatalogue(FDPStatList()...)
	sn := cat.NewSnapshot()
	ctl.PutFDPStats(sn)
	_, ok := sn.Value(StatFDPLookaheadPages)
	require.False(t, ok, "no look-ahead statistic in strict age order")
	refusals, ok := sn.Value(StatFDPHeadRefusals)
	require.True(t, ok)
	require.Equal(t, float64(ctl.fdp.headRefusals), refusals)
	sn = cat.NewSnapshot()
	la.PutFDPStats(sn)
	pages, ok := sn.Value(StatFDPLookaheadPages)
	require.True(t, ok)
	require.Equal(t, float64(la.fdp.lookaheadPages), pages)
}
