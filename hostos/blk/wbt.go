package blk

import "github.com/fastdrain-sim/fastdrain/sim"

// Writeback throttling (blk-wbt), after block/blk-wbt.c and block/blk-rq-qos.c of the
// v5.x–v6.x kernels (read in the kernel source; docs/sources.md has no wbt section). Linux enables
// it on every blk-mq queue unless the scheduler is BFQ (wbt_enable_default, CONFIG_BLK_WBT_MQ
// = y), with a latency target (sysfs wbt_lat_usec, Documentation/ABI/stable/sysfs-block) of
// 2 ms on non-rotational devices and 75 ms on rotational ones (wbt_default_latency_nsec).
const (
	wbtDefaultDepth = 16                         // RWB_DEF_DEPTH
	wbtWindow       = 100 * sim.Millisecond      // RWB_WINDOW_NSEC
	wbtMinWrites    = 3                          // RWB_MIN_WRITE_SAMPLES
	wbtUnknownBump  = 5                          // RWB_UNKNOWN_BUMP
	wbtCloseIO      = 100 * sim.Millisecond      // close_io: HZ/10
	wbtRecentWait   = 1000 * sim.Millisecond     // wb_recent_wait: HZ
	wbtNever        = -1000000 * sim.Millisecond // a time stamp that is never recent
)

// wbt classes (WBT_RWQ_*): buffered writes and discards have an in-flight count and a wait
// queue each. The kswapd class is not modelled: the model has no kswapd writing pages.
const (
	wbtBG = iota
	wbtDiscard
	wbtClasses
)

// Latency verdicts of one monitoring window (LAT_*).
const (
	latOK = iota + 1
	latUnknown
	latUnknownWrites
	latExceeded
)

// wbt is struct rq_wb: it bounds the buffered writes and discards in flight (from request
// allocation to completion) to a depth that it scales from the latency of reads.
//
//   - Depth: max_depth = min(16, queue depth) at scale step 0; at step s > 0 it is
//     1 + (max_depth0 − 1) >> s; at s < 0 (only writes seen) 1 + (max_depth0 − 1) << −s, at
//     most 3/4 of the queue depth. wb_normal = (max_depth + 1)/2 and wb_background =
//     (max_depth + 3)/4 (1 and max_depth when max_depth ≤ 2).
//   - Limit of a write (get_limit): a REQ_SYNC write (fsync's WB_SYNC_ALL writeback) or any
//     write within 1 s of a writer sleeping in balance_dirty_pages may have max_depth in
//     flight; a REQ_BACKGROUND write (background and periodic flusher work), or any write
//     within 100 ms of a read being issued or completed, wb_background; others wb_normal.
//     Discards always wb_background. O_DIRECT writes (REQ_SYNC|REQ_IDLE) and reads are not
//     throttled.
//   - Waiting (rq_qos_wait): a write that finds its class at its limit, or finds others
//     already waiting, waits in FIFO order. A completion wakes the waiters (in order, each
//     while the count is below its own limit) only once the count has fallen to the wake
//     limit — 0 when the device has a volatile write cache and no writer slept recently,
//     else wb_normal — and, if it is not 0, wb_background/2 below that limit.
//   - Scaling (wb_timer_fn): a window of 100 ms / sqrt(step + 1) (100 ms at step ≤ 0) starts
//     when a throttled write passes and none is running. At its end: a read issued longer
//     ago than the window and not completed, or longer ago than the target with no read
//     completed in the window, or a minimum read latency (dispatch to completion) above the
//     target with at least one read and three writes completed, scales down (step + 1; a
//     negative step goes to 0); a valid window under the target scales up (step − 1); a
//     window with writes but too few samples scales up too; five windows in a row without
//     any I/O move the step one towards 0. The window restarts while step ≠ 0 or writes
//     are in flight.
//
// Simplifications: time stamps are exact, not jiffies; the sleeping submitter is a parked
// bio (the flusher waits for its own, see Bio.Admitted), and a task that submits several
// bios at once (fsync) parks them all in order instead of one at a time.
type wbt struct {
	q      *Queue
	minLat sim.Time // min_lat_nsec
	wc     bool     // the device has a volatile write cache (QUEUE_FLAG_WC)

	queueDepth int // rq_depth.queue_depth
	step       int // scale_step
	scaledMax  bool
	maxDepth   int
	normal     int // wb_normal
	background int // wb_background
	unknown    int // unknown_cnt

	inflight [wbtClasses]int
	waiting  [wbtClasses]waitRing

	lastIssue, lastComp sim.Time // reads issued / completed (close_io)
	dirtySleep          sim.Time // wb->dirty_sleep
	syncIssue           sim.Time // dispatch time of the read tracked in syncRq
	syncRq              *Request // sync_cookie

	winActive bool
	dormant   bool     // step ≠ 0 but the queue is empty: windows are replayed, not ticked
	dormantAt sim.Time // when the last ticked window ended
	winGen    int64
	curWin    sim.Time
	reads     int64    // reads completed in the window
	writes    int64    // writes and discards completed in the window
	readMin   sim.Time // their smallest latency
}

func newWBT(q *Queue, minLat sim.Time, queueDepth int, wc bool) *wbt {
	w := &wbt{q: q, minLat: minLat, wc: wc, queueDepth: queueDepth,
		lastIssue: wbtNever, lastComp: wbtNever, dirtySleep: wbtNever, curWin: wbtWindow}
	w.calcMaxDepth()
	w.calcLimits()
	return w
}

// calcMaxDepth is rq_depth_calc_max_depth; it reports whether the depth cannot grow further.
func (w *wbt) calcMaxDepth() bool {
	if w.queueDepth == 1 {
		if w.step > 0 {
			w.maxDepth = 1
			return false
		}
		w.maxDepth = 2
		return true
	}
	depth := min(wbtDefaultDepth, w.queueDepth)
	atMax := false
	switch {
	case w.step > 0:
		depth = 1 + (depth-1)>>min(31, w.step)
	case w.step < 0:
		maxd := 3 * w.queueDepth / 4
		depth = 1 + (depth-1)<<min(31, -w.step)
		if depth > maxd || depth <= 0 {
			depth, atMax = maxd, true
		}
	}
	w.maxDepth = depth
	return atMax
}

// calcLimits is calc_wb_limits.
func (w *wbt) calcLimits() {
	if w.maxDepth <= 2 {
		w.normal, w.background = w.maxDepth, 1
		return
	}
	w.normal = (w.maxDepth + 1) / 2
	w.background = (w.maxDepth + 3) / 4
}

// tracks reports whether wbt throttles b (wbt_should_throttle).
func tracks(b *Bio) bool {
	switch b.Op {
	case OpWrite:
		return !(b.Sync && b.Idle)
	case OpDiscard:
		return true
	}
	return false
}

func wbtClass(b *Bio) int {
	if b.Op == OpDiscard {
		return wbtDiscard
	}
	return wbtBG
}

func (w *wbt) recentWait(now sim.Time) bool { return now < w.dirtySleep+wbtRecentWait }

func (w *wbt) closeIO(now sim.Time) bool {
	return now < w.lastIssue+wbtCloseIO || now < w.lastComp+wbtCloseIO
}

// limit is get_limit for b at now.
func (w *wbt) limit(now sim.Time, b *Bio) int {
	switch {
	case b.Op == OpDiscard:
		return w.background
	case b.Sync || w.recentWait(now):
		return w.maxDepth
	case b.Background || w.closeIO(now):
		return w.background
	}
	return w.normal
}

// tryAcquire is the fast path of rq_qos_wait: b's part may go if nobody of its class waits
// and the class is below b's limit; it then counts as in flight.
func (w *wbt) tryAcquire(now sim.Time, b *Bio) bool {
	c := wbtClass(b)
	if w.waiting[c].size > 0 || w.inflight[c] >= w.limit(now, b) {
		return false
	}
	w.inflight[c]++
	w.passed(now)
	return true
}

// passed runs after a throttled part got its token (the end of wbt_wait): start a
// monitoring window if none runs.
func (w *wbt) passed(now sim.Time) {
	if !w.winActive {
		w.armTimer(now)
	}
}

// park puts a part that must wait at the end of its class's queue.
func (w *wbt) park(wt waiter) {
	wt.bio.held = true
	w.q.stats.WBTWaits++
	w.waiting[wbtClass(wt.bio)].push(wt)
}

// wakeAll is wake_up_all on class c: waiters are given tokens in order while the count is
// below each one's limit, and each continues to request allocation. A waiter that parks
// again (the next part of a split bio) is not retried in the same pass.
func (w *wbt) wakeAll(now sim.Time, c int) {
	r := &w.waiting[c]
	for n := r.size; n > 0 && r.size > 0; n-- {
		wt := r.front()
		if w.inflight[c] >= w.limit(now, wt.bio) {
			return
		}
		w.inflight[c]++
		wt.token = true
		woken := *wt
		r.pop()
		woken.bio.held = false
		w.passed(now)
		w.q.resume(woken)
		if woken.bio.Admitted != nil && !woken.bio.held {
			woken.bio.Admitted.Notify()
		}
	}
}

// done is wbt_done for a tracked request: the class's count falls and waiters are woken
// once it is low enough (wbt_rqw_done).
func (w *wbt) done(now sim.Time, c int) {
	w.inflight[c]--
	inflight := w.inflight[c]
	var limit int
	switch {
	case c == wbtDiscard:
		limit = w.background
	case w.wc && !w.recentWait(now):
		limit = 0
	default:
		limit = w.normal
	}
	if inflight > 0 && inflight >= limit {
		return
	}
	if w.waiting[c].size > 0 && (inflight == 0 || limit-inflight >= w.background/2) {
		w.wakeAll(now, c)
	}
}

// readDone is wbt_done for a read: clear the tracked sync issue, stamp last_comp.
func (w *wbt) readDone(now sim.Time, rq *Request) {
	if w.syncRq == rq {
		w.syncRq, w.syncIssue = nil, 0
	}
	w.lastComp = now
}

// issued is wbt_issue: remember the first read dispatched while none is tracked.
func (w *wbt) issued(now sim.Time, rq *Request) {
	if rq.Op == OpRead && w.syncRq == nil {
		w.syncRq, w.syncIssue = rq, now
	}
}

// sample is blk_stat_add for wbt's callback: per window, reads (count, minimum latency)
// and writes and discards (count). Flushes are not counted (wbt_data_dir).
func (w *wbt) sample(now sim.Time, rq *Request) {
	if !w.winActive {
		return
	}
	switch rq.Op {
	case OpRead:
		lat := now - rq.Dispatch
		if w.reads == 0 || lat < w.readMin {
			w.readMin = lat
		}
		w.reads++
	case OpWrite, OpDiscard:
		w.writes++
	}
}

// isqrt is the kernel's int_sqrt: the floor of the square root.
func isqrt(x int64) int64 {
	r := int64(0)
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}

// winLen is the window at the current step: 100 ms·16/int_sqrt((step+1)·256) at a
// positive step (in whole nanoseconds, as div_u64 computes it), else 100 ms.
func (w *wbt) winLen() sim.Time {
	if w.step <= 0 {
		return wbtWindow
	}
	ns := int64(wbtWindow/sim.Nanosecond) << 4 / isqrt(int64(w.step+1)<<8)
	return sim.Time(ns) * sim.Nanosecond
}

// armTimer is rwb_arm_timer: a window starts now; its statistics restart.
func (w *wbt) armTimer(now sim.Time) { w.startWindow(now + w.winLen()) }

func (w *wbt) startWindow(end sim.Time) {
	w.curWin = w.winLen()
	w.winActive = true
	w.winGen++
	w.reads, w.writes, w.readMin = 0, 0, 0
	w.q.eng.Schedule(end, w, nil, w.winGen)
}

// idle reports whether the queue holds no request and wbt nothing in flight or waiting.
func (w *wbt) idle() bool {
	return w.q.allocated == 0 && w.inflight[wbtBG]+w.inflight[wbtDiscard] == 0 &&
		w.waiting[wbtBG].size+w.waiting[wbtDiscard].size == 0
}

// catchUp replays the windows that ended while the queue was empty, instead of ticking
// through them (the model never ticks on an idle queue): each saw no I/O, so it scales up
// within a second of a dirty-page sleep and otherwise counts towards RWB_UNKNOWN_BUMP.
// The window running at now is armed for its end; none is once the step is back at 0.
func (w *wbt) catchUp(now sim.Time) {
	if !w.dormant {
		return
	}
	w.dormant = false
	for t := w.dormantAt; w.step != 0; {
		end := t + w.winLen()
		if end > now {
			w.startWindow(end)
			return
		}
		w.q.stats.WBTWindows++
		if w.recentWait(end) {
			w.scaleUp(end)
		} else if w.unknown++; w.unknown >= wbtUnknownBump {
			if w.step > 0 {
				w.scaleUp(end)
			} else {
				w.scaleDown(end, false)
			}
		}
		t = end
	}
}

// HandleEvent ends a monitoring window (wb_timer_fn); it implements sim.Handler.
func (w *wbt) HandleEvent(ev *sim.Event) {
	if ev.Code != w.winGen || !w.winActive {
		return
	}
	w.winActive = false
	now := ev.Time
	inflight := w.inflight[wbtBG] + w.inflight[wbtDiscard]
	switch w.verdict(now, inflight) {
	case latExceeded:
		w.scaleDown(now, true)
	case latOK, latUnknownWrites:
		w.scaleUp(now)
	case latUnknown:
		w.unknown++
		if w.unknown >= wbtUnknownBump {
			if w.step > 0 {
				w.scaleUp(now)
			} else if w.step < 0 {
				w.scaleDown(now, false)
			}
		}
	}
	w.q.stats.WBTWindows++
	switch {
	case w.step != 0 && w.idle():
		w.dormant, w.dormantAt = true, now
	case w.step != 0 || inflight > 0:
		w.armTimer(now)
	}
}

// verdict is latency_exceeded.
func (w *wbt) verdict(now sim.Time, inflight int) int {
	var lat sim.Time
	if w.syncRq != nil {
		lat = now - w.syncIssue
	}
	if lat > w.curWin || (lat > w.minLat && w.reads == 0) {
		return latExceeded
	}
	if w.reads < 1 || w.writes < wbtMinWrites {
		if w.writes > 0 || w.recentWait(now) || inflight > 0 {
			return latUnknownWrites
		}
		return latUnknown
	}
	if w.readMin > w.minLat {
		return latExceeded
	}
	return latOK
}

// scaleUp is scale_up (rq_depth_scale_up): one step up unless the last one hit the maximum;
// waiters are woken.
func (w *wbt) scaleUp(now sim.Time) {
	if w.scaledMax {
		return
	}
	w.step--
	w.scaledMax = w.calcMaxDepth()
	w.stepped(now)
	for c := range w.waiting {
		if w.waiting[c].size > 0 {
			w.wakeAll(now, c)
		}
	}
}

// scaleDown is scale_down (rq_depth_scale_down): one step down unless the depth is 1; a
// latency violation at a negative step goes straight to step 0.
func (w *wbt) scaleDown(now sim.Time, hard bool) {
	if w.maxDepth == 1 {
		return
	}
	if w.step < 0 && hard {
		w.step = 0
	} else {
		w.step++
	}
	w.scaledMax = false
	w.calcMaxDepth()
	w.stepped(now)
}

// stepped recomputes the limits after a step change and records it.
func (w *wbt) stepped(now sim.Time) {
	w.calcLimits()
	w.unknown = 0
	w.q.stats.WBTSteps = append(w.q.stats.WBTSteps, WBTStep{At: now, Step: w.step, MaxDepth: w.maxDepth,
		Normal: w.normal, Background: w.background})
}

// NoteDirtySleep tells writeback throttling that a writer slept in balance_dirty_pages at t
// (wb->dirty_sleep): for the next second every buffered write may use the full depth.
func (q *Queue) NoteDirtySleep(t sim.Time) {
	if q.wbt != nil {
		q.wbt.catchUp(t)
		q.wbt.dirtySleep = t
	}
}

// WBTDepths returns writeback throttling's current scale step, max_depth, wb_normal and
// wb_background (all 0 when wbt is off).
func (q *Queue) WBTDepths() (step, maxDepth, normal, background int) {
	if q.wbt == nil {
		return 0, 0, 0, 0
	}
	w := q.wbt
	return w.step, w.maxDepth, w.normal, w.background
}

// WBTInflight returns the buffered writes wbt counts in flight (allocated, not completed)
// and the request parts waiting for it.
func (q *Queue) WBTInflight() (inflight, waiting int) {
	if q.wbt == nil {
		return 0, 0
	}
	w := q.wbt
	return w.inflight[wbtBG] + w.inflight[wbtDiscard], w.waiting[wbtBG].size + w.waiting[wbtDiscard].size
}
