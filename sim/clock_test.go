package sim

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestClockWholePeriod(t *testing.T) {
	c := NewClock(400 * MHz) // 2500 ps
	require.Equal(t, Time(2500), c.Period())
	require.Equal(t, Time(0), c.NextEdge(0))
	require.Equal(t, Time(2500), c.NextEdge(1))
	require.Equal(t, Time(2500), c.NextEdge(2500))
	require.Equal(t, Time(5000), c.NextEdge(2501))
	// 10 cycles from t=1: first edge 2500, tenth after it 27500.
	require.Equal(t, Time(27500), c.After(1, 10))
	require.Equal(t, Time(25000), c.Cycles(10))
	require.Equal(t, int64(4), c.CyclesIn(10_000))
}

func TestClockFractionalPeriod(t *testing.T) {
	c := NewClock(333 * MHz) // 3003.003… ps
	// Edge n = floor(n·10¹²/333e6): by hand, edge 1 = 3003, edge 3 = 9009, edge 1000 = 3003003.
	require.Equal(t, Time(3003), c.Edge(1))
	require.Equal(t, Time(9009), c.Edge(3))
	require.Equal(t, Time(3_003_003), c.Edge(1000))
	// Edge 333e6 is exactly one second: no drift however long the run.
	require.Equal(t, Second, c.Edge(333_000_000))
	// Every edge is the first edge at or after itself, and one ps later moves to the next.
	for n := int64(0); n < 2000; n++ {
		e := c.Edge(n)
		require.Equal(t, e, c.NextEdge(e))
		require.Equal(t, c.Edge(n+1), c.NextEdge(e+1))
	}
}

func TestParseFreq(t *testing.T) {
	f, err := ParseFreq("1.6GHz")
	require.NoError(t, err)
	require.Equal(t, 1600*MHz, f)
	require.Equal(t, "1.6GHz", f.String())
	for _, bad := range []string{"", "400", "0MHz", "-1MHz", "fastHz"} {
		_, err := ParseFreq(bad)
		require.Error(t, err, bad)
	}
	require.Equal(t, 2*MHz, ClockFromPeriod(500*Nanosecond).Freq())
	require.Panics(t, func() { ClockFromPeriod(3 * Picosecond) })
}

// TestClockWholePeriodMatchesExact: a clock with a whole-picosecond period (edges computed
// with 64-bit operations) has the edges of the general 128-bit formulas floor(n·10¹²/f) and
// ceil(t·f/10¹²) (a Clock whose period is left 0); by hand: at 400 MHz, t = 2501 ps is
// 1.0004 periods, so its next edge is edge 2 = 5000 ps.
func TestClockWholePeriodMatchesExact(t *testing.T) {
	for _, f := range []Freq{400 * MHz, 1 * GHz, 800 * MHz, 2 * GHz, 125 * MHz} {
		c := NewClock(f)
		general := Clock{freq: f} // period 0: the 128-bit path
		for _, tm := range []Time{0, 1, 499, 500, 2499, 2500, 2501, 1_000_000_007, 86_400 * Second} {
			require.Equal(t, general.EdgeIndex(tm), c.EdgeIndex(tm), "%v at %v", f, tm)
			require.Equal(t, general.NextEdge(tm), c.NextEdge(tm), "%v at %v", f, tm)
			require.Equal(t, general.After(tm, 7), c.After(tm, 7), "%v at %v", f, tm)
		}
	}
	require.Equal(t, Time(5000), NewClock(400*MHz).NextEdge(2501))
}

// TestClockAfterWholePeriod checks After's whole-period shortcut by hand at 400 MHz
// (period 10¹²/4·10⁸ = 2500 ps) and against Edge(EdgeIndex(t)+n) around the edges.
func TestClockAfterWholePeriod(t *testing.T) {
	c := NewClock(400 * MHz)
	for _, tc := range []struct {
		t    Time
		n    int64
		want Time
	}{
		{0, 3, 7500},     // edge 0 is at 0: 3 cycles end at 3·2500
		{1, 3, 10000},    // waits for edge 1 at 2500, then 3 cycles: 2500+7500
		{2500, 3, 10000}, // on edge 1 already: 2500+7500
		{2501, 0, 5000},  // next edge is edge 2 at 5000, no cycles
		{-7, 2, 5000},    // before time zero: edge 0, then 2 cycles
	} {
		if got := c.After(tc.t, tc.n); got != tc.want {
			t.Errorf("After(%d, %d) = %d, want %d", tc.t, tc.n, got, tc.want)
		}
	}
	for ts := Time(-3); ts <= 3*2500+3; ts++ {
		for n := int64(0); n < 3; n++ {
			if got, want := c.After(ts, n), c.Edge(c.EdgeIndex(ts)+n); got != want {
				t.Fatalf("After(%d, %d) = %d, Edge(EdgeIndex+n) = %d", ts, n, got, want)
			}
		}
	}
}
