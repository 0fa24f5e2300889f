package ftl

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestForegroundBackgroundBalance: the latency-aware FTL wastes nothing only when background
// writes fill the CSB/MSB pages before foreground writes need the LSB pages behind them —
// the paper's "we interleave the foreground and background evictions to access LSB and
// CSB/MSB pages, respectively, to balance the flash page usage" (Zhang et al., IEEE CAL
// 2020, §3). Past a block's first six pages a 2D-TLC block (docs/sources.md §3.4: 0–5 LSB, 6–7
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

// TestWasteAccounting works out by hand where each page of a latency-aware run goes and
// checks the waste counters (issue 31 item 7). One die, 20-page 2D-TLC blocks (0–5 LSB,
// 6–7 CSB, 8–9 LSB, 10–11 CSB, 12–13 MSB, 14–15 LSB, 16–19 CSB/MSB), an LSB-only region of
// one block (a second open block would exceed it) and a skip region of one block:
//
//	fg ×6  A0–A5 (LSB). A5 is followed by 6–7 (CSB) before the next LSB page (8): 2 pages
//	       left behind.
//	fg     no open block at an LSB page, no room for a second block: skip A6–A7 (both left
//	       behind, now skipped) to take A8.
//	fg     A9 (LSB); 10–13 follow before LSB 14: 4 more left behind (6).
//	bg ×2  background prefers the CSB/MSB group: A10, A11 (2 left-behind pages filled).
//	fg     skip A12–A13 (left behind; 4 skipped now) to take A14.
//	fg     A15; 16–19 run to the block's end: 4 more left behind (10).
//	fg     no LSB page left in A: skip A16–A19 (8 skipped), which close A with them (4 lost
//	       at block close); the region has room again, so B opens: B0.
//	fg     B1.
//
// Programmed: A0–A5, A8–A11, A14–A15 and B0–B1, 14 pages; wasted A6–A7, A12–A13, A16–A19,
// 8 pages; used share 14 / 22 = 63.6 %. Only pages left behind (not skipped) can be filled:
// NAND programs a block's pages in order (die/ops.go), so a skipped page stays unused until
// GC erases its block.
func TestWasteAccounting(t *testing.T) {
	g := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	f := newFTL(t, g, func(c *Config) {
		c.Allocator = LatencyAware
		c.LSBOnlyPages, c.LSBOnlyBlocks = 20, 1
	})
	fg, bg := Foreground, Background
	order := []Purpose{fg, fg, fg, fg, fg, fg, fg, fg, bg, bg, fg, fg, fg, fg}
	var pages []int
	var blocks []BlockID
	for lpn, pur := range order {
		p, err := f.WriteHost(int64(lpn), 0, pur)
		require.NoError(t, err)
		pages = append(pages, int(p)%g.PagesPerBlock)
		blocks = append(blocks, g.BlockOf(p))
	}
	require.NoError(t, f.Check())
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15, 0, 1}, pages)
	a, b := blocks[0], blocks[12]
	require.NotEqual(t, a, b)
	require.Equal(t, a, blocks[11])
	s := f.Stats
	var used int64
	for _, n := range s.Programmed {
		used += n
	}
	require.Equal(t, int64(14), used)
	require.Equal(t, int64(8), s.Wasted, "A6–A7, A12–A13, A16–A19")
	require.Equal(t, int64(4), s.LostAtClose, "A16–A19")
	require.Equal(t, int64(10), s.LeftBehind, "A6–A7, A10–A13, A16–A19")
	require.Equal(t, int64(2), s.BehindFilled, "A10–A11, by background")
	require.Equal(t, int64(8), s.BehindSkipped, "A6–A7, A12–A13, A16–A19")
	require.Equal(t, int64(12), s.LSBForFG)
	require.Equal(t, int64(3), s.LSBAfterSkip, "the writes to A8, A14 and B0")
	require.InDelta(t, 14.0/22, float64(used)/float64(used+s.Wasted), 1e-12)
}

// TestSkipToLSBLosesTheBlockEnd: the prior work's allocator skips to the next LSB page of its
// write point; with none left in the block (a 20-page 2D-TLC block's last LSB page is 15,
// then 16–17 CSB and 18–19 MSB) the skip runs to the block's end and closes it: those 4
// pages are lost at block close, and the write lands on the next block's page 0. The ten
// LSB pages 0–5, 8–9, 14–15 cost 6 skipped pages before (6–7, 10–13).
func TestSkipToLSBLosesTheBlockEnd(t *testing.T) {
	g := Geometry{Channels: 1, DiesPerChannel: 1, Planes: 1, BlocksPerPlane: 16, PagesPerBlock: 20, Kind: TLCKind}
	f := newFTL(t, g, func(c *Config) { c.Allocator = SkipToLSB })
	var pages []int
	for lpn := int64(0); lpn < 11; lpn++ {
		p, err := f.WriteHost(lpn, 0, Foreground)
		require.NoError(t, err)
		pages = append(pages, int(p)%g.PagesPerBlock)
	}
	require.Equal(t, []int{0, 1, 2, 3, 4, 5, 8, 9, 14, 15, 0}, pages)
	require.Equal(t, int64(6+4), f.Stats.Wasted)
	require.Equal(t, int64(4), f.Stats.LostAtClose)
	require.Zero(t, f.Stats.LeftBehind, "the prior work skips at once; it leaves nothing for later")
	require.NoError(t, f.Check())
}
