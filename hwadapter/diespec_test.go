package hwadapter

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestMeanProgramTime: the default half-life is the mean tPROG of a block's pages. A 2D TLC
// block of 512 pages (SimpleSSD's map: pages 0–5 LSB, 6–7 CSB, then pairs LSB, CSB, MSB)
// has 6 + 168 = 174 LSB, 2 + 168 = 170 CSB and 168 MSB pages: (174 × 558 + 170 × 2,201 +
// 168 × 5,001) / 512 = 1,311,430 / 512 = 2,561.38671875 µs. A one-shot block programs once a
// word line, at its MSB page: 5,001 µs. SLC: every page 300 µs.
func TestMeanProgramTime(t *testing.T) {
	d := die.SpecFor(die.TLC)
	d.PagesPerBlock = 512
	require.Equal(t, sim.Time(1311430)*sim.Microsecond/512, meanProgramTime(d))
	d.OneShot = true
	require.Equal(t, 5001*sim.Microsecond, meanProgramTime(d))
	require.Equal(t, 300*sim.Microsecond, meanProgramTime(die.SpecFor(die.SLC)))
}

// TestDieSpec: the firmware's view of the default 2D TLC die (die.SpecFor(die.TLC)): tR of
// 58, 78 and 107 µs for LSB, CSB and MSB (die/spec.go's preset, docs/sources.md §3.4), its
// page-type map (page 6 is the first CSB page, page 12 the first MSB: ((12−8)>>1) % 3 = 2),
// its word-line finality (page 0, LSB of word line 0, is final at that word line's MSB,
// page 12; page 8, LSB of word line 6, at page 30: die/final_test.go works the order out),
// one stamp a page, and no fault model.
func TestDieSpec(t *testing.T) {
	d := die.SpecFor(die.TLC)
	s := DieSpec(d)
	require.Equal(t, [nand.NumPageTypes]sim.Time{58 * sim.Microsecond, 78 * sim.Microsecond, 107 * sim.Microsecond, 0}, s.TRead)
	require.Equal(t, nand.CSB, s.PageType(6))
	require.Equal(t, nand.MSB, s.PageType(12))
	require.Equal(t, 12, s.FinalizingPage(0))
	require.Equal(t, 30, s.FinalizingPage(8))
	require.Equal(t, 1, s.StampsPerPage)
	require.False(t, s.Faults)
	require.Equal(t, d.Planes, s.Planes)
	require.Equal(t, d.PagesPerBlock, s.PagesPerBlock)
}
