package blk

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// loop is a closed-loop submitter: each time its bio completes it submits it again at
// the next block of its own region, until stop.
type loop struct {
	q    *Queue
	bio  Bio
	base int64
	n    int64
	stop sim.Time
}

func (l *loop) start() {
	l.bio = Bio{Op: l.bio.Op, Size: 4 * kib, Done: l}
	l.next()
}

func (l *loop) next() {
	l.bio.Offset = l.base + l.n*8*kib
	l.n = (l.n + 1) % 1024
	l.q.Submit(&l.bio)
}

func (l *loop) HandleEvent(ev *sim.Event) {
	if ev.Time < l.stop {
		l.next()
	}
}

// TestKyberThrottlesWrites: 16 read loops and 16 write loops on a device that takes 3 ms
// per request; from 310 ms reads take 1 ms and 48 more write loops start. Timer windows
// and percentiles by hand (docs/sources.md §6.1: buckets of target/4, bucket = (lat−1)/(target/4)):
//
//   - The first completion is at 3 ms, so the timer fires at 103 ms. Completions at 3, 6,
//     …, 102 ms: 34 waves × 16 = 544 ≥ 500 samples per domain. Reads: 3 ms in 0.5 ms
//     buckets → bucket 5 ≥ 4, so p90 says congestion. Writes: total latency 3 ms (no
//     queueing) in 2.5 ms buckets → p99 bucket 1, so depth = 128·(1+1)>>2 = 64. Reads:
//     256·6>>2 = 384, clamped to the maximum 256: no change.
//   - Next windows open at the first completion after each run (105 → 205 ms, 207 → 307
//     ms), again 544 samples each, reads still at 3 ms: 64 → 32 at 205 ms, 32 → 16 at 307.
//   - Window 309 → 409 ms: reads complete at 309 and 312 (3 ms, 32 samples) then every
//     1 ms from 313 to 408 (96 waves), 1568 samples with 2 % in bucket 5: p90 bucket 1, no
//     congestion. Writes are throttled at 16 tokens with 64 loops: the 48 new ones (queued at
//     310) finish at 315, 318 and 321 ms (5, 8, 11 ms: buckets 1, 3, 4); from 321 every write
//     waits 3 rounds (12 ms, bucket 4). Samples: 309, 312 (bucket 1), 315 (1), 318 (3), then
//     30 waves at 321…408 in bucket 4; p99 rank ⌈544·0.99⌉ = 539 falls in bucket 4 ≥ 4, so
//     the write domain is over target and eases: 16·(4+1)>>2 = 20.
func TestKyberThrottlesWrites(t *testing.T) {
	ms := sim.Millisecond
	spec := DefaultSpec()
	spec.Scheduler = SchedKyber
	spec.Merges = false
	spec.WBTLat = 0 // wbt off: the test is about the scheduler's own limits
	eng, q, _ := newTestQueue(t, spec, func(now sim.Time, rq *Request) sim.Time {
		if rq.Op == OpRead && now >= 310*ms {
			return ms
		}
		return 3 * ms
	})
	const stop = 500 * sim.Millisecond
	region := int64(16 << 20)
	for i := range 16 {
		(&loop{q: q, bio: Bio{Op: OpRead}, base: int64(i) * region, stop: stop}).start()
		(&loop{q: q, bio: Bio{Op: OpWrite}, base: int64(100+i) * region, stop: stop}).start()
	}
	eng.At(310*ms, func() {
		for i := range 48 {
			(&loop{q: q, bio: Bio{Op: OpWrite}, base: int64(200+i) * region, stop: stop}).start()
		}
	})
	eng.RunUntil(300 * ms)
	require.Equal(t, 32, q.KyberDepth(DomainWrite))
	require.Equal(t, 256, q.KyberDepth(DomainRead))
	eng.Run()

	var writes []DepthChange
	for _, c := range q.Stats().DepthChanges {
		require.NotEqual(t, DomainRead, c.Domain, "reads are over target: never throttled")
		if c.Domain == DomainWrite {
			writes = append(writes, c)
		}
	}
	require.GreaterOrEqual(t, len(writes), 4)
	require.Equal(t, []DepthChange{
		{103 * ms, DomainWrite, 128, 64},
		{205 * ms, DomainWrite, 64, 32},
		{307 * ms, DomainWrite, 32, 16},
		{409 * ms, DomainWrite, 16, 20},
	}, writes[:4])
	require.GreaterOrEqual(t, q.KyberDepth(DomainWrite), 20, "recovers while writes are over target")
	st := q.Stats()
	require.Positive(t, st.Throttled[DomainWrite])
	require.Zero(t, st.Throttled[DomainRead])
	require.Equal(t, int64(3), st.KyberCongested, "windows ending at 103, 205 and 307 ms")
	require.Equal(t, st.Completed, st.DomainDispatches[DomainRead]+st.DomainDispatches[DomainWrite])
}

// TestKyberTimerIdle: the timer is armed only by completions: one request arms it once,
// and an idle queue schedules nothing.
func TestKyberTimerIdle(t *testing.T) {
	spec := DefaultSpec()
	spec.Scheduler = SchedKyber
	eng, q, _ := newTestQueue(t, spec, fixed(sim.Millisecond))
	q.Submit(&Bio{Op: OpRead, Size: 4 * kib})
	eng.Run()
	require.Equal(t, 1, eng.Pending(), "the timer, a daemon, is pending")
	eng.RunUntil(2 * sim.Second)
	require.Equal(t, int64(1), q.Stats().KyberTimerRuns)
	require.Equal(t, 0, eng.Pending())
}

// TestKyberBucket checks the latency buckets against add_latency_sample: target 2 ms gives
// 0.5 ms buckets; exactly 2 ms is the last good bucket (3), anything above 3.5 ms is 7.
func TestKyberBucket(t *testing.T) {
	k := newKyber(nil, DefaultSpec().Kyber)
	us := sim.Microsecond
	for _, c := range []struct {
		lat  sim.Time
		want int
	}{{0, 0}, {1, 0}, {500 * us, 0}, {500*us + 1, 1}, {2000 * us, 3}, {2000*us + 1, 4}, {3 * sim.Millisecond, 5}, {sim.Second, 7}} {
		require.Equal(t, c.want, k.bucket(DomainRead, c.lat), "%v", c.lat)
	}
}

// TestTrack samples the kyber depths: a sampler every 50 ms sees the write depth at 128
// until the first timer run at 103 ms and 64 after it.
func TestTrack(t *testing.T) {
	ms := sim.Millisecond
	spec := DefaultSpec()
	spec.Scheduler = SchedKyber
	spec.Merges = false
	spec.WBTLat = 0 // wbt off: the test is about the scheduler's own limits
	eng, q, _ := newTestQueue(t, spec, fixed(3*ms))
	s := sim.NewSampler(eng, 50*ms)
	q.Track(s)
	for i := range 16 {
		(&loop{q: q, bio: Bio{Op: OpRead}, base: int64(i) << 24, stop: 140 * ms}).start()
		(&loop{q: q, bio: Bio{Op: OpWrite}, base: int64(100+i) << 24, stop: 140 * ms}).start()
	}
	eng.RunUntil(150 * ms)
	var w *sim.Series
	for _, ser := range s.Series() {
		if ser.Name == "nvme0n1.kyber_depth.WRITE" {
			w = ser
		}
	}
	require.NotNil(t, w)
	require.Equal(t, []sim.Sample{{At: 0, Value: 128}, {At: 50 * ms, Value: 128}, {At: 100 * ms, Value: 128}},
		w.Samples[:3])
	require.Equal(t, sim.Sample{At: 150 * ms, Value: 64}, w.Samples[3])
}
