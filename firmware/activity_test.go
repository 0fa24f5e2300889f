package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/die"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestHostActivityDecay works the idle-die estimate out by hand with a half-life of 1 ms
// (countOne = 65,536 is one read):
//   - die 0: one read at 0. Its count is 1 read at 0 (busy: a read expected with
//     probability 1 − 2^-1 = 1/2), and below 1 as soon as the decay reaches one unit of
//     2^-16: 31 ns later, frac = 31,000 × 65,536 / 2,000,000,000 = 1, count 65,535 (idle).
//   - die 1: reads at 0 and 0.5 ms. At 0.5 ms the first has decayed along the chord to
//     1 − 0.5/2 = 0.75, so the count is 1.75 reads (114,688). It falls to one read when
//     1.75·(1 − x/2) = 1, x = 2·(1 − 1/1.75) = 0.857 ms after: busy until 1.357 ms. In
//     fixed point: at 1.357 ms, frac = 857,000,000·65,536 / 2,000,000,000 = 28,082 (in units
//     of 2^-16), 114,688 − 114,688·28,082/65,536 = 114,688 − 49,143 = 65,545 ≥ 65,536: busy;
//     at 1.358 ms, frac = 28,114, 114,688 − 49,199 = 65,489: idle.
//   - die 1 after two half-lives and a quarter (at 0.5 + 2.25 ms): 114,688 >> 2 = 28,672,
//     then × (1 − 0.125) = 28,672 − 3,584 = 25,088.
//   - a die never read is idle with count 0; a count is never read before its last update.
func TestHostActivityDecay(t *testing.T) {
	ms := sim.Millisecond
	us := sim.Microsecond
	h := newHostActivity(3, ms)
	h.note(0, 0)
	require.True(t, h.busy(0, 0))
	require.True(t, h.busy(0, 30*sim.Nanosecond))
	require.Equal(t, uint64(65535), h.decayed(0, 31*sim.Nanosecond))
	require.False(t, h.busy(0, 31*sim.Nanosecond))

	h.note(1, 0)
	h.note(1, ms/2)
	require.Equal(t, uint64(114688), h.decayed(1, ms/2))
	require.Equal(t, uint64(65545), h.decayed(1, ms/2+857*us))
	require.True(t, h.busy(1, ms/2+857*us))
	require.Equal(t, uint64(65489), h.decayed(1, ms/2+858*us))
	require.False(t, h.busy(1, ms/2+858*us))
	require.Equal(t, uint64(25088), h.decayed(1, ms/2+2*ms+ms/4))
	require.Zero(t, h.decayed(1, ms/2+40*ms))

	require.False(t, h.busy(2, 5*ms))
	require.Equal(t, uint64(114688), h.decayed(1, 0), "a time before the last update reads the count as it is")
}

// TestHostActivityBounded: a die read without pause saturates at maxCount instead of
// overflowing, and still decays back to idle.
func TestHostActivityBounded(t *testing.T) {
	h := newHostActivity(1, sim.Millisecond)
	for i := 0; i < 70000; i++ {
		h.note(0, 0)
	}
	require.Equal(t, uint64(maxCount), h.decayed(0, 0))
	require.False(t, h.busy(0, 40*sim.Millisecond))
}

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
