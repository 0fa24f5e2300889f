package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// fastPagesRun runs the latency-aware allocator on the fake with an LSB-only region of one
// block a die (lsb_only_pages 64: a die opens a fresh block only when it has none open).
// Before the host runs, each die in exhausted gets 6 background writes straight through the
// FTL, which take its open block's LSB pages 0–5 and leave it at page 6, a CSB page: that
// die has no LSB page to give without skipping. Then the host writes n pages and flushes;
// Vanilla without power-loss protection makes the flush's eviction foreground. It returns
// the firmware.
func fastPagesRun(t *testing.T, exhausted []int, n int) *fake {
	s := smallSpec(Vanilla, "latency-aware")
	s.PowerLossProtection = false
	s.FTL.LSBOnlyPages = 64
	r := newFake(t, s, 4096)
	lpn := int64(1000)
	for _, g := range exhausted {
		for range 6 {
			_, err := r.fw.ftl.WriteHost(lpn, g, ftl.Background)
			require.NoError(t, err)
			lpn++
		}
		require.False(t, r.fw.ftl.HasFastPage(g))
	}
	r.eng.Spawn("host", func(p *sim.Proc) {
		w := make([]uint64, n)
		for j := range w {
			w[j] = Stamp(int64(j), 1)
		}
		r.cmd(p, nvme.OpWrite, 0, n, nvme.Hint{}, w)
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
	})
	r.eng.Run()
	return r
}

// TestForegroundPassesOverDiesWithoutLSB: die 0 has no LSB page left without skipping, dies
// 1–3 have a fresh block each. The flush's foreground round sends its 6 pages 2 a die
// (foreground_per_die 2) to dies 1–3, all on LSB pages (each die's pages 0 and 1), and
// passes die 0 over rather than skipping its CSB pages 6 and 7: no page wasted, no page to
// die 0.
func TestForegroundPassesOverDiesWithoutLSB(t *testing.T) {
	r := fastPagesRun(t, []int{0}, 6)
	l := r.fw.ftl.Stats
	require.Equal(t, int64(6), l.ForegroundWr)
	require.Equal(t, int64(6), l.LSBForFG)
	require.Zero(t, l.LSBAfterSkip)
	require.Zero(t, l.Wasted)
	require.Positive(t, r.fw.Stats.ForegroundSlowDies)
	require.Zero(t, r.fw.Stats.ForegroundFallbacks)
	for _, p := range r.flash.progLog {
		require.NotEqual(t, 0, p.g, "a foreground page went to die 0")
	}
}

// TestForegroundFallsBackWithoutLSB: no die has an LSB page left without skipping, so the
// round passes all four over, then falls back once and lets the allocator skip: the 4 pages
// go 2 a die to two dies, the first of each skipping CSB pages 6 and 7 to LSB page 8 and the
// second taking LSB page 9. 4 foreground writes, all on LSB pages, 2 of them after skipping,
// 4 pages wasted.
func TestForegroundFallsBackWithoutLSB(t *testing.T) {
	r := fastPagesRun(t, []int{0, 1, 2, 3}, 4)
	l := r.fw.ftl.Stats
	require.Equal(t, int64(4), l.ForegroundWr)
	require.Equal(t, int64(4), l.LSBForFG)
	require.Equal(t, int64(2), l.LSBAfterSkip)
	require.Equal(t, int64(4), l.Wasted)
	require.Equal(t, int64(4), r.fw.Stats.ForegroundSlowDies)
	require.Equal(t, int64(1), r.fw.Stats.ForegroundFallbacks)
}
