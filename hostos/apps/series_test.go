package apps

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestSeriesKeepsEverythingUpToTheCap(t *testing.T) {
	s := NewSeries(SeriesSpec{MaxPoints: 10, Interval: sim.Millisecond, MaxIntervals: 100}, 1, "s")
	for i := range 10 {
		s.Add(sim.Time(9-i)*sim.Millisecond, sim.Time(i))
	}
	pts := s.Points()
	require.Len(t, pts, 10)
	for i, p := range pts {
		require.Equal(t, sim.Time(i)*sim.Millisecond, p.At, "sorted by completion")
	}
}

// TestSeriesReservoirIsUniform adds 1000 points to a 100-point reservoir many times: each
// point is kept with probability 100/1000, so over 200 seeds the first and second half of
// the points are each kept ≈ 200·50 = 10 000 times (σ ≈ 95).
func TestSeriesReservoirIsUniform(t *testing.T) {
	var early, late int
	for seed := range uint64(200) {
		s := NewSeries(SeriesSpec{MaxPoints: 100, Interval: sim.Second, MaxIntervals: 10}, seed, "r")
		for i := range 1000 {
			s.Add(sim.Time(i), 0)
		}
		require.EqualValues(t, 1000, s.Seen())
		for _, p := range s.Points() {
			if p.At < 500 {
				early++
			} else {
				late++
			}
		}
	}
	require.Equal(t, 20000, early+late)
	require.InDelta(t, 10000, early, 400)
}

func TestSeriesIntervalsAndCoarsening(t *testing.T) {
	s := NewSeries(SeriesSpec{MaxPoints: 1, Interval: 10 * sim.Millisecond, MaxIntervals: 4}, 1, "i")
	s.Add(1*sim.Millisecond, 5*sim.Millisecond)
	s.Add(9*sim.Millisecond, 1*sim.Millisecond)
	s.Add(25*sim.Millisecond, 2*sim.Millisecond)
	iv := s.Intervals()
	require.Len(t, iv, 3)
	require.Equal(t, Interval{Start: 0, Width: 10 * sim.Millisecond, Count: 2, Sum: 6 * sim.Millisecond, Max: 5 * sim.Millisecond}, iv[0])
	require.Equal(t, 3*sim.Millisecond, iv[0].Mean())
	require.Zero(t, iv[1].Count)
	require.Zero(t, iv[1].Mean())
	// 45 ms is interval 4 ≥ MaxIntervals: widths double to 20 ms ([0,20) [20,40) [40,60)).
	s.Add(45*sim.Millisecond, 7*sim.Millisecond)
	iv = s.Intervals()
	require.Len(t, iv, 3)
	require.Equal(t, Interval{Start: 0, Width: 20 * sim.Millisecond, Count: 2, Sum: 6 * sim.Millisecond, Max: 5 * sim.Millisecond}, iv[0])
	require.Equal(t, Interval{Start: 20 * sim.Millisecond, Width: 20 * sim.Millisecond, Count: 1, Sum: 2 * sim.Millisecond, Max: 2 * sim.Millisecond}, iv[1])
	require.Equal(t, Interval{Start: 40 * sim.Millisecond, Width: 20 * sim.Millisecond, Count: 1, Sum: 7 * sim.Millisecond, Max: 7 * sim.Millisecond}, iv[2])
	require.Len(t, s.Points(), 1)
}
