package pagecache

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDirtyLimits(t *testing.T) {
	// 4 GiB = 1048576 pages of dirtyable memory (Reserved 0).
	cases := []struct {
		name              string
		avail             int64
		ratio, bg         int
		thresh, bgThresh  int64
		freerun, pollIntv int64 // freerun ceiling; dirty_poll_interval at dirty = freerun
	}{
		// FastDrain low set 5/3: 5·1048576/100 = 52428.8 → 52428; 3·1048576/100 = 31457.28 →
		// 31457; freerun (52428+31457)/2 = 41942; thresh − freerun = 10486, ilog2 13, >>1 = 6 →
		// 64 pages.
		{"4GiB low set", 1048576, 5, 3, 52428, 31457, 41942, 64},
		// High set 10/5: 104857.6 → 104857; 52428; freerun 78642; 104857−78642 = 26215,
		// ilog2 14 → 7 → 128 pages.
		{"4GiB high set", 1048576, 10, 5, 104857, 52428, 78642, 128},
		// Linux defaults 20/10 on 64 MiB = 16384 pages: 3276, 1638, freerun 2457; 819 → ilog2
		// 9 → 4 → 16 pages.
		{"64MiB default", 16384, 20, 10, 3276, 1638, 2457, 16},
		// bg ≥ thresh falls back to thresh/2: 10 % of 1000 = 100, bg 50, freerun 75; 25 →
		// ilog2 4 → 2 → 4 pages.
		{"bg above ratio", 1000, 10, 20, 100, 50, 75, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			th, bg := dirtyLimits(tc.avail, tc.ratio, tc.bg)
			require.Equal(t, tc.thresh, th)
			require.Equal(t, tc.bgThresh, bg)
			fr := freerunCeiling(th, bg)
			require.Equal(t, tc.freerun, fr)
			require.Equal(t, tc.pollIntv, dirtyPollInterval(fr, th))
		})
	}
}

func TestPosRatio(t *testing.T) {
	// Low set on 4 GiB: freerun 41942, limit 52428, setpoint (41942+52428)/2 = 47185.
	// write_bw = INIT_BW = 25600 pages/s → span = 204800, x_intercept = 251985.
	cases := []struct {
		name  string
		dirty int64
		want  int64
	}{
		// At the setpoint the cubic term is 0 → 1024; wb line 1024·204800/(204800|1 = 204801)
		// = 1023.99 → 1023 (the kernel's "| 1" guard against division by zero).
		{"setpoint", 47185, 1023},
		// At freerun: x = (5243<<10)/(5243|1 = 5243) = 1024 → 1 + 1 = 2048 (the clamp);
		// wb line 2048·(251985−41942)/204801 = 430168064/204801 = 2100.
		{"freerun", 41942, 2100},
		// Half-way between setpoint and limit, 49806: x = (−2621<<10)/5243 = −511 (Go and C
		// truncate toward zero), x³ term: −511·−511>>10 = 255, 255·−511>>10 = −128 (arithmetic
		// shift floors) → 1024−128 = 896; wb line 896·(251985−49806)/204801 = 884.
		{"three-quarters", 49806, 884},
		{"at limit", 52428, 0},
		{"above limit", 60000, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, posRatio(tc.dirty, 41942, 52428, initBW))
		})
	}
}

func TestPauseBounds(t *testing.T) {
	// wb_max_pause: wb_dirty/(1 + bw/128) + 1 jiffies at HZ 1000, capped at 200.
	require.Equal(t, int64(200), wbMaxPause(52428, 25600), "52428/201+1 = 261 → MAX_PAUSE 200 ms")
	require.Equal(t, int64(9), wbMaxPause(1638, 25600), "1638/201+1 = 9")
	require.Equal(t, int64(5), wbMaxPause(1000, 25600), "1000/201+1 = 5")

	// wb_min_pause with one dirtier at INIT_BW: log2 terms equal (both 14) → target t = 10
	// jiffies; pages = 25600·10/1024 = 250 ≥ 32; next pause 1000·250/25601 = 9 ≤ max; so
	// min_pause = 1 + 10/2 = 6 and nr_dirtied_pause = 250.
	minP, pages := wbMinPause(25600, 25600, 25600, 200)
	require.Equal(t, int64(6), minP)
	require.Equal(t, int64(250), pages)

	// Four dirtiers: dirty_ratelimit 6400 (log2 12), write_bw 25600 (log2 14): t = 10 +
	// 2·10000/1024 = 10 + 19 = 29; pages = 6400·29/1024 = 181; min_pause 1 + 29/2 = 15.
	minP, pages = wbMinPause(25600, 6400, 6400, 200)
	require.Equal(t, int64(15), minP)
	require.Equal(t, int64(181), pages)

	// A tiny rate: dirty_ratelimit 1000: t = 10 + (14−9)·10000/1024 = 10 + 48 = 58, pages
	// 1000·58/1024 = 56; task_ratelimit 100 → next pause 1000·56/101 = 554 > max 200 → t =
	// 200, pages = 100·200/1024 = 19 < 32 → min_pause = t = 200.
	minP, pages = wbMinPause(25600, 1000, 100, 200)
	require.Equal(t, int64(200), minP)
	require.Equal(t, int64(19), pages)
}

func TestWritebackChunk(t *testing.T) {
	cases := []struct {
		bw, limit, nr, want int64
	}{
		// min(12800, 52428/8 = 6553, ∞) = 6553 → round_down(6553+1024, 1024) = 7168.
		{25600, 52428, 1 << 40, 7168},
		// Small memory: 1638/8 = 204 → round_down(1228, 1024) = 1024 (MIN_WRITEBACK_PAGES).
		{25600, 1638, 1 << 40, 1024},
		// Budget-limited: 100 pages left → 1024.
		{25600, 52428, 100, 1024},
		// Bandwidth-limited: 4000/2 = 2000 → 3024 → 2048.
		{4000, 1 << 30, 1 << 40, 2048},
	}
	for _, tc := range cases {
		require.Equal(t, tc.want, writebackChunk(tc.bw, tc.limit, tc.nr), "%+v", tc)
	}
}

func TestBandwidthAndDirtyLimit(t *testing.T) {
	// 200 jiffies, 10240 pages written: bw = (10240·1000 + 25600·(4096−200)) >> 12 =
	// (10240000 + 99737600)/4096 = 26850; avg (25600) < old (25600)? no; avg stays 25600.
	bw, avg := updateWriteBandwidth(25600, 25600, 10240, 200)
	require.Equal(t, int64(26850), bw)
	require.Equal(t, int64(25600), avg)
	// Longer than the 4096-jiffy period: plain average, 8192 pages over 8192 jiffies = 1000.
	bw, avg = updateWriteBandwidth(25600, 25600, 8192, 8192)
	require.Equal(t, int64(1000), bw)
	require.Equal(t, int64(1000), avg)

	// dirty_limit follows a rise at once and a fall by 1/32 of the gap per interval.
	require.Equal(t, int64(104857), updateDirtyLimit(52428, 104857, 0))
	require.Equal(t, int64(104857-(104857-52428)>>5), updateDirtyLimit(104857, 52428, 1000))
	// It never drops below the dirty pages: target max(thresh, dirty) = 90000.
	require.Equal(t, int64(104857-(104857-90000)>>5), updateDirtyLimit(104857, 52428, 90000))
}

func TestReadaheadSizes(t *testing.T) {
	// read_ahead_kb 128 → 32 pages. get_init_ra_size: 1 → 1 ≤ 32/32 → 4; 3 → 4 ≤ 8 → 8;
	// 16 → 16 > 8 → 32. get_next_ra_size: 1 < 2 → 4; 4 ≤ 16 → 8; 16 → 32; 32 → 32.
	require.Equal(t, int64(4), initRASize(1, 32))
	require.Equal(t, int64(8), initRASize(3, 32))
	require.Equal(t, int64(32), initRASize(16, 32))
	require.Equal(t, int64(4), nextRASize(1, 32))
	require.Equal(t, int64(8), nextRASize(4, 32))
	require.Equal(t, int64(32), nextRASize(16, 32))
	require.Equal(t, int64(32), nextRASize(32, 32))
}
