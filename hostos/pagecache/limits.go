package pagecache

import (
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// The constants of mm/page-writeback.c and fs/fs-writeback.c the model uses, with HZ = 1000
// (one jiffy = 1 ms) and 4 KiB pages. All throttling arithmetic is in integer jiffies and
// pages, as in the kernel.
const (
	hz    = 1000
	jiffy = sim.Millisecond
	// maxPause is MAX_PAUSE = max(HZ/5, 1) jiffies = 200 ms (docs/sources.md §5.2).
	maxPause = hz / 5
	// bandwidthInterval is BANDWIDTH_INTERVAL = max(HZ/5, 1): how often write bandwidth,
	// dirty_ratelimit and the domain's dirty_limit are updated (docs/sources.md §5.2: 200 ms).
	bandwidthInterval = hz / 5 * jiffy
	// ratelimitCalcShift is RATELIMIT_CALC_SHIFT: pos_ratio is fixed point with 10 bits.
	ratelimitCalcShift = 10
	// dirtyPollThresh is DIRTY_POLL_THRESH = 128 >> (PAGE_SHIFT − 10) = 32 pages.
	dirtyPollThresh = 32
	// initRatelimitPages is a task's initial nr_dirtied_pause, 128 >> (PAGE_SHIFT − 10) = 32
	// (docs/sources.md §5.2: "ratelimit_pages starts at 32").
	initRatelimitPages = 32
	// exceededRatelimit is the ratelimit while wb->dirty_exceeded: 32 >> (PAGE_SHIFT−10) = 8
	// pages (docs/sources.md §5.2).
	exceededRatelimit = 8
	// initBW is INIT_BW = 100 MB/s in pages per second, the initial write bandwidth and
	// dirty_ratelimit of a bdi_writeback.
	initBW = 100 << (20 - 12)
	// bwPeriod is the averaging period of wb_update_write_bandwidth,
	// roundup_pow_of_two(3·HZ) = 4096 jiffies.
	bwPeriod = 4096
	// minWritebackPages is MIN_WRITEBACK_PAGES = 1024 pages = 4 MiB (docs/sources.md §5.3).
	minWritebackPages = 1024
	// dirtyScope is DIRTY_SCOPE = 8 (docs/sources.md §5.3, writeback_chunk_size).
	dirtyScope = 8
	// writebackSlice is the HZ/10 = 100 ms after which the flusher bails out of its inode
	// loop to re-check thresholds (docs/sources.md §5.3).
	writebackSlice = hz / 10 * jiffy
)

// ilog2 is the kernel's ilog2 for positive x (floor of log2); 0 for x ≤ 0.
func ilog2(x int64) int64 {
	if x <= 0 {
		return 0
	}
	return int64(bits.Len64(uint64(x)) - 1)
}

// roundupPow2 is roundup_pow_of_two.
func roundupPow2(x int64) int64 {
	if x <= 1 {
		return 1
	}
	return int64(1) << bits.Len64(uint64(x-1))
}

// dirtyLimits is domain_dirty_limits for the ratio sysctls (docs/sources.md §5.1): thresh =
// ratio·avail/100, bg = bgRatio·avail/100, and bg = thresh/2 if bg ≥ thresh. Pages.
func dirtyLimits(avail int64, ratio, bgRatio int) (thresh, bg int64) {
	thresh = int64(ratio) * avail / 100
	bg = int64(bgRatio) * avail / 100
	if bg >= thresh {
		bg = thresh / 2
	}
	return thresh, bg
}

// freerunCeiling is dirty_freerun_ceiling: (thresh + bg)/2 (docs/sources.md §5.2).
func freerunCeiling(thresh, bg int64) int64 { return (thresh + bg) / 2 }

// dirtyPollInterval is dirty_poll_interval: how many pages a task may dirty before the next
// balance_dirty_pages call while below freerun, 1 << (ilog2(thresh − dirty) >> 1) (docs/sources.md
// §5.2).
func dirtyPollInterval(dirty, thresh int64) int64 {
	if thresh > dirty {
		return 1 << (ilog2(thresh-dirty) >> 1)
	}
	return 1
}

// posRatio is wb_position_ratio for a single device (so wb_thresh = thresh and wb_dirty =
// dirty), in RATELIMIT_CALC_SHIFT fixed point. The global control line (docs/sources.md §5.2):
//
//	setpoint = (freerun + limit)/2
//	pos_ratio = 1 + ((setpoint − dirty)/(limit − setpoint))³, clamped to [0, 2];
//
// then the per-wb control line with span = 8·write_bw (thresh − wb_thresh = 0):
//
//	x_intercept = setpoint + span
//	pos_ratio ·= (x_intercept − dirty)/(x_intercept − setpoint) if dirty < x_intercept − span/4,
//	pos_ratio /= 4 otherwise.
//
// At or above the limit it is 0.
func posRatio(dirty, freerun, limit, writeBW int64) int64 {
	if dirty >= limit {
		return 0
	}
	setpoint := (freerun + limit) / 2
	x := ((setpoint - dirty) << ratelimitCalcShift) / ((limit - setpoint) | 1)
	pos := x
	pos = pos * x >> ratelimitCalcShift
	pos = pos * x >> ratelimitCalcShift
	pos += 1 << ratelimitCalcShift
	pos = min(max(pos, 0), 2<<ratelimitCalcShift)
	span := 8 * writeBW
	xIntercept := setpoint + span
	if dirty < xIntercept-span/4 {
		pos = pos * (xIntercept - dirty) / ((xIntercept - setpoint) | 1)
	} else {
		pos /= 4
	}
	return pos
}

// wbMaxPause is wb_max_pause in jiffies: wb_dirty/(1 + bw/roundup_pow_of_two(1 + HZ/8)) + 1,
// at most MAX_PAUSE (docs/sources.md §5.2; bw/128 at HZ = 1000).
func wbMaxPause(wbDirty, bw int64) int64 {
	t := wbDirty/(1+bw/roundupPow2(1+hz/8)) + 1
	return min(t, maxPause)
}

// wbMinPause is wb_min_pause: it returns the minimum pause in jiffies and the task's next
// nr_dirtied_pause. The target pause is 10 ms for one dirtier (docs/sources.md §5.2), scaled up by
// (log2 write_bw − log2 dirty_ratelimit)·10 ms for concurrent dirtiers and capped at
// 1 + max_pause/2; the page count is the dirty_ratelimit over that time, raised to
// DIRTY_POLL_THRESH pages (with max_pause) when tiny and lowered if the task's own rate
// would make the next pause exceed max_pause.
func wbMinPause(writeBW, dirtyRatelimit, taskRatelimit, maxP int64) (minP, nrDirtiedPause int64) {
	hi := ilog2(writeBW)
	lo := ilog2(dirtyRatelimit)
	t := max(int64(1), hz/100)
	if hi > lo {
		t += (hi - lo) * (10 * hz) / 1024
	}
	t = min(t, 1+maxP/2)
	pages := dirtyRatelimit * t / roundupPow2(hz)
	if pages < dirtyPollThresh {
		t = maxP
		pages = dirtyRatelimit * t / roundupPow2(hz)
		if pages > dirtyPollThresh {
			pages = dirtyPollThresh
			t = hz * dirtyPollThresh / max(dirtyRatelimit, 1)
		}
	}
	pause := hz * pages / (taskRatelimit + 1)
	if pause > maxP {
		t = maxP
		pages = taskRatelimit * t / roundupPow2(hz)
	}
	if pages >= dirtyPollThresh {
		return 1 + t/2, pages
	}
	return t, pages
}

// writebackChunk is writeback_chunk_size for WB_SYNC_NONE work (docs/sources.md §5.3):
// min(avg_write_bandwidth/2, dirty_limit/DIRTY_SCOPE, nr_pages) rounded down to a multiple
// of MIN_WRITEBACK_PAGES after adding MIN_WRITEBACK_PAGES, so at least 1024 pages (4 MiB).
func writebackChunk(avgBW, dirtyLimit, nrPages int64) int64 {
	pages := min(avgBW/2, dirtyLimit/dirtyScope, nrPages)
	return (pages + minWritebackPages) / minWritebackPages * minWritebackPages
}

// updateWriteBandwidth is wb_update_write_bandwidth: written pages over elapsed jiffies,
// averaged over a 4096-jiffy period with the previous estimate, then a second smoothing
// step for avg. It returns the new (write_bandwidth, avg_write_bandwidth) in pages/s.
func updateWriteBandwidth(old, avg, written, elapsed int64) (int64, int64) {
	bw := written * hz
	if elapsed > bwPeriod {
		bw /= elapsed
		return bw, max(bw, 1)
	}
	bw += old * (bwPeriod - elapsed)
	bw >>= ilog2(bwPeriod)
	if avg > old && old >= bw {
		avg -= (avg - old) >> 3
	}
	if avg < old && old <= bw {
		avg += (old - avg) >> 3
	}
	return bw, max(avg, 1)
}

// updateDirtyLimit is update_dirty_limit: the domain's dirty_limit follows a rising thresh
// at once and a falling one slowly (1/32 of the gap per BANDWIDTH_INTERVAL), never going
// below the dirty pages, so a lowered dirty_ratio does not throttle writers abruptly.
func updateDirtyLimit(limit, thresh, dirty int64) int64 {
	if limit < thresh {
		return thresh
	}
	target := max(thresh, dirty)
	if limit > target {
		limit -= (limit - target) >> 5
	}
	return limit
}
