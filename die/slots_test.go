package die

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// TestSlotStamps checks a die keeping four stamps a page (a 16 KiB page holding four 4 KiB
// mapping units): a two-plane program stores the eight stamps address-major, a read returns
// all four of each page in the same order, a page passed over reads back erased in every
// slot, and an erase clears them. tR is unchanged by the slots (the whole page is sensed):
// the TLC LSB read is 58 µs (docs/sources.md §3.4).
func TestSlotStamps(t *testing.T) {
	s := smallSpec()
	s.PageSize, s.Slots = 16384, 4
	d := newDie(t, s)
	now := d.Program(0, []Addr{{Plane: 0, Block: 1, Page: 0}, {Plane: 1, Block: 1, Page: 0}}, []uint64{10, 11, 12, 13, 20, 21, 22, 23})
	now = d.Program(now, []Addr{{Plane: 0, Block: 1, Page: 2}}, []uint64{30, 31, 32, 33}) // page 1 passed over
	got := make([]uint64, 8)
	start := now
	now = d.Read(now, []Addr{{Plane: 0, Block: 1, Page: 0}, {Plane: 1, Block: 1, Page: 0}}, got)
	require.Equal(t, []uint64{10, 11, 12, 13, 20, 21, 22, 23}, got)
	require.Equal(t, 58*us, now-start)
	now = d.Read(now, []Addr{{Plane: 0, Block: 1, Page: 1}}, got[:4])
	require.Equal(t, []uint64{ErasedStamp, ErasedStamp, ErasedStamp, ErasedStamp}, got[:4])
	now = d.Read(now, []Addr{{Plane: 0, Block: 1, Page: 2}}, got[:4])
	require.Equal(t, []uint64{30, 31, 32, 33}, got[:4])
	require.Equal(t, uint64(32), d.SlotStamp(Addr{Plane: 0, Block: 1, Page: 2}, 2))
	require.Equal(t, uint64(30), d.Stamp(Addr{Plane: 0, Block: 1, Page: 2}))
	now = d.Erase(now, []Addr{{Plane: 0, Block: 1, Page: 0}})
	require.True(t, d.Complete(now))
	require.Equal(t, ErasedStamp, d.SlotStamp(Addr{Plane: 0, Block: 1, Page: 2}, 3))

	// Fill gives stamp(page·4 + slot) to each slot.
	d.Fill(0, 2, 2, func(i int) uint64 { return uint64(100 + i) })
	require.Equal(t, uint64(107), d.SlotStamp(Addr{Plane: 0, Block: 2, Page: 1}, 3))
	// A stamp source keeps one stamp a page: refused.
	require.PanicsWithValue(t, "die ssd.ch[0].die[1] at 0s: fill of plane 0 block 3 from a stamp source, which keeps one stamp a page; the die keeps 4",
		func() { d.FillFrom(0, 3, 1, nil) })
	// Too few stamps for a program is the caller's bug.
	require.Panics(t, func() { d.Program(sim.Time(1e15), []Addr{{Plane: 1, Block: 2, Page: 0}}, []uint64{1}) })
}
