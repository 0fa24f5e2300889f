package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestForegroundBackgroundBalance: the latency-aware FTL wastes nothing only when background
// writes fill the CSB/MSB pages before foreground writes need the LSB pages behind them —
// the paper's "we interleave the foreground and background evictions to access LSB and
// CSB/MSB pages, respectively, to balance the flash page usage" (Zhang et al., IEEE CAL
// 2020, §3). Past a block's first six pages a 2D-TLC block (FACTS.md §3.4: 0–5 LSB, 6–7
// CSB, 8–9 LSB, 10–11 CSB, 12–13 MSB, 14–15 LSB, 16–17 CSB, 18–19 MSB) holds two CSB/MSB
// pages for every LSB page, so each LSB page a foreground write takes there needs two
// CSB/MSB pages written by background (or GC) writes, or skipped. One die, 20-page blocks,
// an LSB-only region of one block (a second open block would exceed it), a skip region of
// one block; the same ten foreground and ten background writes in two orders:
//   - interleaved (fg ×6, bg ×2, fg ×2, bg ×4, fg ×2, bg ×4): foreground takes A's LSB pages
//     0–5, 8–9, 14–15 and background A's CSB/MSB pages 6–7, 10–13, 16–19; A is full with
//     twenty programmed pages, none wasted, every foreground write on an LSB page;
//   - foreground first (fg ×10, bg ×10): foreground takes A's 0–5, skips 6–7 for 8–9, skips
//     10–13 for 14–15 (6 pages wasted); background then takes A's CSB/MSB pages 16–19 (A
//     full) and opens B, whose pages 0–5 are LSB, and takes them: 6 of 26 touched pages
//     wasted (23 %), and B's six LSB pages spent on background data.
//
// Fig. 6b's waste is thus the foreground/background mix, not the allocator alone: with
// foreground eviction writing far more pages than background eviction, every order skips.
func TestForegroundBackgroundBalance(t *testing.T) {
	g := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	type at struct{ block, page int }
	run := func(order []Purpose) (*FTL, []at) {
		f := newFTL(t, g, func(c *Config) {
			c.Allocator = LatencyAware
			c.LSBOnlyPages, c.LSBOnlyBlocks = 20, 1
		})
		var got []at
		for lpn, pur := range order {
			p, err := f.WriteHost(int64(lpn), 0, pur)
			require.NoError(t, err)
			got = append(got, at{int(g.BlockOf(p)), int(p) % g.PagesPerBlock})
		}
		require.NoError(t, f.Check())
		return f, got
	}
	seq := func(parts ...any) []Purpose {
		var o []Purpose
		for i := 0; i < len(parts); i += 2 {
			for n := 0; n < parts[i+1].(int); n++ {
				o = append(o, parts[i].(Purpose))
			}
		}
		return o
	}
	fg, bg := Foreground, Background

	f, got := run(seq(fg, 6, bg, 2, fg, 2, bg, 4, fg, 2, bg, 4))
	a := got[0].block
	wantPages := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}
	for i, x := range got {
		require.Equal(t, at{a, wantPages[i]}, x, "interleaved write %d", i+1)
	}
	require.Zero(t, f.Stats.Wasted)
	require.Equal(t, int64(10), f.Stats.LSBForFG)
	require.Zero(t, f.Stats.LSBAfterSkip)

	f, got = run(seq(fg, 10, bg, 10))
	a, b := got[0].block, got[14].block
	require.NotEqual(t, a, b)
	want := []at{{a, 0}, {a, 1}, {a, 2}, {a, 3}, {a, 4}, {a, 5}, {a, 8}, {a, 9}, {a, 14}, {a, 15},
		{a, 16}, {a, 17}, {a, 18}, {a, 19}, {b, 0}, {b, 1}, {b, 2}, {b, 3}, {b, 4}, {b, 5}}
	require.Equal(t, want, got)
	require.Equal(t, int64(2+4), f.Stats.Wasted)
	require.Equal(t, int64(10), f.Stats.LSBForFG)
	require.Equal(t, int64(2), f.Stats.LSBAfterSkip, "the writes to pages 8 and 14")
}
