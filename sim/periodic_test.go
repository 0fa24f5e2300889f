package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOccupyPeriodicByHand: 1000 refreshes of 350 ps every 7800 ps from 10,000, recorded
// at once at now = 7,805,000. By hand: busy 1000 × 350 = 350,000 ps; the last interval is
// [10,000 + 999 × 7800, … + 350) = [7,802,200, 7,802,550), so lastEnd 7,802,550, and the one
// before it ended at 7,794,750: all but the last ended by now and were let go.
func TestOccupyPeriodicByHand(t *testing.T) {
	e := NewEngine()
	r := NewResource("dram.bus", "refresh")
	r.Follow(e)
	a := r.Activity("refresh")
	e.RunUntil(7_805_000)
	require.True(t, r.OccupyPeriodic(10_000, 7800, 350, 1000, a))
	require.Equal(t, Time(350_000), r.BusyAt(7_805_000, a))
	require.Equal(t, Time(7_802_550), r.FreeAt(0))
	require.Equal(t, 1, r.n, "only the last refresh is kept")
	require.Equal(t, Time(7_794_750), r.dropped)
	// Refused without an engine, with a hook, or with length > period: nothing recorded.
	require.False(t, NewResource("x", "r").OccupyPeriodic(0, 10, 5, 3, 1))
	require.False(t, r.OccupyPeriodic(8_000_000, 10, 11, 3, a))
	require.Equal(t, Time(350_000), r.BusyAt(7_805_000, a))
}

// TestOccupyPeriodicIsKOccupies: random periodic runs on one resource and the same
// intervals one Occupy at a time on another, both following one engine whose clock lands
// before, inside and after the runs, leave the same state: last end and busy time at now
// and later (nothing after now folded away).
func TestOccupyPeriodicIsKOccupies(t *testing.T) {
	rng := NewRNG(5, "periodic")
	e := NewEngine()
	one, two := NewResource("one", "x", "y"), NewResource("two", "x", "y")
	one.Follow(e)
	two.Follow(e)
	at := Time(0)
	for i := range 3000 {
		act := Activity(1 + rng.IntN(2))
		if rng.IntN(3) == 0 { // an ordinary booking between runs
			end := at + Time(rng.IntN(40))
			one.Occupy(at, end, act)
			two.Occupy(at, end, act)
			at = end
		}
		first := at + Time(rng.IntN(30))
		period := Time(1 + rng.IntN(50))
		length := Time(1 + rng.IntN(int(period)))
		k := int64(1 + rng.IntN(400))
		e.RunUntil(max(e.Now(), first+Time(rng.IntN(int(k)*int(period)+100))-50))
		require.True(t, one.OccupyPeriodic(first, period, length, k, act))
		for j := range k {
			s := first + Time(j)*period
			two.Occupy(s, s+length, act)
		}
		at = first + Time(k-1)*period + length
		require.LessOrEqual(t, one.dropped, e.Now(), "run %d", i)
		require.Equal(t, two.lastEnd, one.lastEnd, "run %d", i)
		for _, q := range []Time{e.Now(), at - length/2, at} {
			if q < e.Now() {
				continue
			}
			for a := Activity(1); a <= 2; a++ {
				require.Equal(t, two.BusyAt(q, a), one.BusyAt(q, a), "run %d, activity %d at %v", i, a, q)
			}
		}
	}
}
