package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestWBTDepths pins rq_depth_calc_max_depth and calc_wb_limits (block/blk-rq-qos.c,
// block/blk-wbt.c), worked by hand. With a queue depth of 256 (kyber's nr_requests) the
// base depth is min(16, 256) = 16:
//
//	step  4: 1 + (15 >> 4) = 1           → normal 1, background 1 (max_depth ≤ 2)
//	step  3: 1 + (15 >> 3) = 2           → normal 2, background 1
//	step  2: 1 + (15 >> 2) = 4           → (4+1)/2 = 2, (4+3)/4 = 1
//	step  1: 1 + (15 >> 1) = 8           → 4, 2
//	step  0: 16                          → 8, 4
//	step −1: 1 + (15 << 1) = 31          → 16, 8
//	step −2: 1 + (15 << 2) = 61          → 31, 16
//	step −3: 1 + (15 << 3) = 121         → 61, 31
//	step −4: 1 + (15 << 4) = 241 > 3·256/4 = 192, so 192 and no further → 96, 48
//
// A queue of depth 8 starts at min(16, 8) = 8 (→ 4, 2); a queue of depth 1 at 2 (→ 2, 1),
// and 1 once scaled down.
func TestWBTDepths(t *testing.T) {
	cases := []struct {
		qd, step             int
		maxDepth, normal, bg int
		atMax                bool
	}{
		{256, 4, 1, 1, 1, false}, {256, 3, 2, 2, 1, false}, {256, 2, 4, 2, 1, false},
		{256, 1, 8, 4, 2, false}, {256, 0, 16, 8, 4, false}, {256, -1, 31, 16, 8, false},
		{256, -2, 61, 31, 16, false}, {256, -3, 121, 61, 31, false}, {256, -4, 192, 96, 48, true},
		{8, 0, 8, 4, 2, false}, {1, 0, 2, 2, 1, true}, {1, 1, 1, 1, 1, false},
	}
	for _, c := range cases {
		w := &wbt{queueDepth: c.qd, step: c.step}
		require.Equal(t, c.atMax, w.calcMaxDepth(), "qd %d step %d", c.qd, c.step)
		w.calcLimits()
		require.Equal(t, []int{c.maxDepth, c.normal, c.bg}, []int{w.maxDepth, w.normal, w.background},
			"qd %d step %d", c.qd, c.step)
	}
}

// TestWBTWindow pins rwb_arm_timer's window, 100 ms << 4 / int_sqrt((step+1) << 8) in
// whole nanoseconds: step 1: 1.6e9/int_sqrt(512) = 1.6e9/22 = 72,727,272 ns; step 2:
// 1.6e9/int_sqrt(768) = 1.6e9/27 = 59,259,259 ns; step 3: 1.6e9/32 = 50 ms; 100 ms at
// step 0 and below.
func TestWBTWindow(t *testing.T) {
	for step, want := range map[int]sim.Time{-2: 100 * sim.Millisecond, 0: 100 * sim.Millisecond,
		1: 72727272 * sim.Nanosecond, 2: 59259259 * sim.Nanosecond, 3: 50 * sim.Millisecond} {
		w := &wbt{step: step}
		require.Equal(t, want, w.winLen(), "step %d", step)
	}
	require.Equal(t, int64(22), isqrt(512))
	require.Equal(t, int64(27), isqrt(768))
}

// wbtQueue is a queue without scheduler and merges (nr_requests 1023, so wbt's depths are
// 16 / 8 / 4 at step 0) on a device that takes lat for every request.
func wbtQueue(t *testing.T, lat func(sim.Time, *Request) sim.Time) (*sim.Engine, *Queue) {
	spec := DefaultSpec()
	spec.Merges = false
	eng, q, _ := newTestQueue(t, spec, lat)
	return eng, q
}

// TestWBTBackgroundDepth: ten REQ_BACKGROUND 4 KiB writes at time 0 on a 100 µs device
// with a volatile write cache. Worked by hand: four get in (wb_background 4); the other
// six wait. A completion wakes waiters only once the count is back at 0 (wbt_rqw_done's
// limit is 0 with a write cache and no recent dirty sleep), so the four complete at 100 µs
// and the next four go, complete at 200 µs, and the last two complete at 300 µs. An fsync
// write (REQ_SYNC, limit max_depth 16) submitted after them waits behind the sleepers
// (rq_qos_wait's has_sleeper) although 4 < 16: it goes with the last two, at 200 µs, and
// completes at 300 µs. An O_DIRECT write (REQ_SYNC|REQ_IDLE) and a read are not throttled:
// 100 µs.
func TestWBTBackgroundDepth(t *testing.T) {
	us := sim.Microsecond
	eng, q := wbtQueue(t, fixed(100*us))
	done := newDoneLog()
	var bg []*Bio
	for i := range 10 {
		b := &Bio{Op: OpWrite, Offset: int64(i) * 64 * kib, Size: 4 * kib, Background: true, Done: done}
		bg = append(bg, b)
		q.Submit(b)
	}
	inflight, waiting := q.WBTInflight()
	require.Equal(t, []int{4, 6}, []int{inflight, waiting})
	fsync := &Bio{Op: OpWrite, Offset: 100 * 64 * kib, Size: 4 * kib, Sync: true, Done: done}
	direct := &Bio{Op: OpWrite, Offset: 200 * 64 * kib, Size: 4 * kib, Sync: true, Idle: true, Done: done}
	read := &Bio{Op: OpRead, Offset: 300 * 64 * kib, Size: 4 * kib, Done: done}
	for _, b := range []*Bio{fsync, direct, read} {
		q.Submit(b)
	}
	require.True(t, fsync.Held())
	require.False(t, direct.Held())
	eng.Run()
	for i, b := range bg {
		want := []sim.Time{100 * us, 200 * us, 300 * us}[min(i/4, 2)]
		require.Equal(t, []sim.Time{want}, done.at[b], "background write %d", i)
	}
	require.Equal(t, []sim.Time{300 * us}, done.at[fsync])
	require.Equal(t, []sim.Time{100 * us}, done.at[direct])
	require.Equal(t, []sim.Time{100 * us}, done.at[read])
	require.Equal(t, int64(7), q.Stats().WBTWaits, "six background writes and the fsync write")
	// The first window (armed by the first write at 0) ended at 100 ms with one read
	// (100 µs, under 2 ms) and eleven writes: latency is fine, scale up to step −1
	// (max_depth 1 + 15·2 = 31, normal 16, background 8); the queue is then empty, so no
	// further window is ticked.
	require.Equal(t, []WBTStep{{At: 100 * sim.Millisecond, Step: -1, MaxDepth: 31, Normal: 16, Background: 8}},
		q.Stats().WBTSteps)
	require.Equal(t, int64(1), q.Stats().WBTWindows)
}

// TestWBTScalesDownOnSlowReads: a read that takes 3 ms (over the 2 ms target) and three
// writes in the first window. Worked by hand: the window ending at 100 ms is valid (one
// read, three writes) and its minimum read latency 3 ms exceeds 2 ms: step 1 (max_depth
// 8, normal 4, background 2). The queue is then empty; the next bio, at 1 s, replays the
// windows since: at step 1 each is 72,727,272 ns and sees no I/O, so the fifth (RWB_UNKNOWN_BUMP)
// scales back up to step 0 at 100 ms + 5 × 72,727,272 ns = 463,636,360 ns, and no window
// runs after that.
func TestWBTScalesDownOnSlowReads(t *testing.T) {
	ms := sim.Millisecond
	eng, q := wbtQueue(t, func(_ sim.Time, rq *Request) sim.Time {
		if rq.Op == OpRead {
			return 3 * ms
		}
		return 100 * sim.Microsecond
	})
	q.Submit(&Bio{Op: OpRead, Offset: 0, Size: 4 * kib, Done: newDoneLog()})
	for i := range 3 {
		q.Submit(&Bio{Op: OpWrite, Offset: int64(i+1) * 64 * kib, Size: 4 * kib, Done: newDoneLog()})
	}
	eng.Run()
	require.Equal(t, []WBTStep{{At: 100 * ms, Step: 1, MaxDepth: 8, Normal: 4, Background: 2}}, q.Stats().WBTSteps)
	step, maxDepth, normal, bg := q.WBTDepths()
	require.Equal(t, []int{1, 8, 4, 2}, []int{step, maxDepth, normal, bg})
	eng.Schedule(sim.Second, handlerFunc(func(*sim.Event) {
		q.Submit(&Bio{Op: OpRead, Offset: 0, Size: 4 * kib, Done: newDoneLog()})
	}), nil, 0)
	eng.Run()
	require.Equal(t, WBTStep{At: 463636360 * sim.Nanosecond, Step: 0, MaxDepth: 16, Normal: 8, Background: 4},
		q.Stats().WBTSteps[1])
	require.Len(t, q.Stats().WBTSteps, 2)
	require.Equal(t, int64(6), q.Stats().WBTWindows, "the ticked one and five replayed")
}

// TestWBTRecentDirtySleep: within a second of a writer sleeping in balance_dirty_pages every
// buffered write may use max_depth (16 at step 0), background ones included, and windows
// without reads count as "only writes" (LAT_UNKNOWN_WRITES), which scale up. Worked by
// hand for a queue of depth 1023 (no scheduler, so the cap is 3·1023/4 = 767):
//
//   - 20 background writes at 0 after a dirty sleep at 0: 16 go, 4 wait.
//   - The window armed at 0 ends at 100 ms with 20 writes and no read: step −1 (31 / 16 / 8).
//     The queue is empty; a bio at 2 s replays the 100 ms windows since: at 200, 300, 400,
//     500 and 600 ms the dirty sleep is still recent (< 1 s): steps −2 (61), −3 (121),
//     −4 (241), −5 (481), −6 (1 + 15 << 6 = 961 > 767: 767, the cap); at 700–900 ms a
//     further scale-up is refused at the cap. From 1 s on nothing is recent: five unknown
//     windows (1.0–1.4 s) move the step one towards 0, to −5 at 1.4 s; five more, to −4
//     at 1.9 s; the window ending at 2 s is the first of the next five.
//   - So at 2 s a background write's limit is wb_background = (241 + 3)/4 = 61: twenty
//     writes all go. The window running then ends at 2.1 s with them and no read: −5.
func TestWBTRecentDirtySleep(t *testing.T) {
	ms := sim.Millisecond
	eng, q := wbtQueue(t, fixed(100*sim.Microsecond))
	q.NoteDirtySleep(0)
	for i := range 20 {
		q.Submit(&Bio{Op: OpWrite, Offset: int64(i) * 64 * kib, Size: 4 * kib, Background: true, Done: newDoneLog()})
	}
	inflight, waiting := q.WBTInflight()
	require.Equal(t, []int{16, 4}, []int{inflight, waiting})
	eng.Run()
	eng.Schedule(2*sim.Second, handlerFunc(func(*sim.Event) {
		for i := range 20 {
			q.Submit(&Bio{Op: OpWrite, Offset: int64(i) * 64 * kib, Size: 4 * kib, Background: true, Done: newDoneLog()})
		}
		inflight, waiting = q.WBTInflight()
	}), nil, 0)
	eng.Run()
	require.Equal(t, []int{20, 0}, []int{inflight, waiting})
	step := func(at sim.Time, s, d int) WBTStep {
		n, b := (d+1)/2, (d+3)/4
		return WBTStep{At: at, Step: s, MaxDepth: d, Normal: n, Background: b}
	}
	require.Equal(t, []WBTStep{step(100*ms, -1, 31), step(200*ms, -2, 61), step(300*ms, -3, 121),
		step(400*ms, -4, 241), step(500*ms, -5, 481), step(600*ms, -6, 767),
		step(1400*ms, -5, 481), step(1900*ms, -4, 241), step(2100*ms, -5, 481)}, q.Stats().WBTSteps)
}

// TestWBTDiscardClass: discards have their own count and queue, limited to wb_background.
func TestWBTDiscardClass(t *testing.T) {
	_, q := wbtQueue(t, fixed(100*sim.Microsecond))
	for i := range 6 {
		q.Submit(&Bio{Op: OpDiscard, Offset: int64(i) * 64 * kib, Size: 4 * kib, Done: newDoneLog()})
	}
	q.Submit(&Bio{Op: OpWrite, Offset: 100 * 64 * kib, Size: 4 * kib, Background: true, Done: newDoneLog()})
	inflight, waiting := q.WBTInflight()
	require.Equal(t, []int{4 + 1, 2}, []int{inflight, waiting}, "4 discards and the write in flight")
}

// TestWBTOff: wbt_lat 0 throttles nothing.
func TestWBTOff(t *testing.T) {
	spec := DefaultSpec()
	spec.WBTLat = 0
	_, q, _ := newTestQueue(t, spec, fixed(sim.Microsecond))
	for i := range 40 {
		q.Submit(&Bio{Op: OpWrite, Offset: int64(i) * 64 * kib, Size: 4 * kib, Background: true, Done: newDoneLog()})
	}
	require.Equal(t, 40, q.Allocated())
	require.Equal(t, int64(0), q.Stats().WBTWaits)
}

type handlerFunc func(*sim.Event)

func (f handlerFunc) HandleEvent(ev *sim.Event) { f(ev) }

// TestWriteThrough: without a volatile write cache a flush completes at once without a
// request, FUA is dropped, and wbt wakes waiters at wb_normal: of ten background writes
// four go at 0 (wb_background 4); the first completion at 100 µs leaves 3 in flight,
// 8 − 3 = 5 ≥ 4/2, so waiters are woken then — not only at 0 in flight as with a write
// cache (TestWBTBackgroundDepth) — and take the count back to 4. Every completion at
// 100 µs does the same, so the second four complete at 200 µs and the last two at 300 µs,
// as before, but each went the moment a slot freed.
func TestWriteThrough(t *testing.T) {
	us := sim.Microsecond
	spec := DefaultSpec()
	spec.Merges = false
	spec.WriteCache = WriteCacheOff
	eng, q, dev := newTestQueue(t, spec, fixed(100*us))
	done := newDoneLog()
	flush := &Bio{Op: OpFlush, Done: done}
	q.Submit(flush)
	fua := &Bio{Op: OpWrite, Offset: 0, Size: 4 * kib, Sync: true, Idle: true, FUA: true, Done: done}
	q.Submit(fua)
	eng.Run()
	require.Equal(t, []sim.Time{0}, done.at[flush])
	require.Len(t, dev.log, 1, "the flush never reached the device")
	require.False(t, fua.FUA)
	for i := range 10 {
		q.Submit(&Bio{Op: OpWrite, Offset: int64(i+1) * 64 * kib, Size: 4 * kib, Background: true, Done: done})
	}
	inflight, waiting := q.WBTInflight()
	require.Equal(t, []int{4, 6}, []int{inflight, waiting})
	// Stop at the first completion: woken at once, the count is back at 4.
	eng.RunUntil(eng.Now() + 100*us)
	inflight, waiting = q.WBTInflight()
	require.Equal(t, []int{4, 2}, []int{inflight, waiting})
}
