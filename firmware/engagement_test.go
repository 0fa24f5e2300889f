package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// TestHintEngagementCounters: FD-Buf on the fake with a 256-page buffer (high watermark
// 0.8 × 256 = 204.8 pages), four hinted writes of 8 pages each, one after the other:
//   - Z announces 8 pages (itself): the prediction stays near 8, under high. Received, not
//     acted on; its completion reports below-low.
//   - A announces 300: once its pages are stored the policy predicts 8 + 292 = 300 ≥ 204.8
//     with only 16 pages buffered or reserved, so it switches to foreground because of the
//     hint alone: one hint episode, and A is acted on. A's completion reports above-high
//     (300 predicted).
//   - B announces 292 and C announces 8, both while that episode is in force: acted on.
//     B's completion reports above-high (at least its 284 still to come); C's does not
//     (nothing announced after it and at most 32 pages buffered).
//
// So 4 hinted writes received, 3 acted on, 1 hint episode, 2 above-high completions, and
// the evictor spent some time in foreground. Vanilla, which ignores the hint, sees the same
// 4 hinted writes, acts on none and never evicts in the foreground (no write waits).
func TestHintEngagementCounters(t *testing.T) {
	run := func(p Policy) Stats {
		r := newFake(t, smallSpec(p, "sequential"), 4096)
		r.eng.Spawn("host", func(pr *sim.Proc) {
			for i, ann := range []uint32{8, 300, 292, 8} {
				w := make([]uint64, 8)
				for j := range w {
					w[j] = Stamp(int64(8*i+j), 1)
				}
				r.cmd(pr, nvme.OpWrite, int64(8*i), 8, nvme.Hint{Victim: true, Pages: ann}, w)
			}
		})
		r.eng.Run()
		return r.fw.StatsAt(r.eng.Now())
	}
	s := run(FastDrain)
	require.Equal(t, int64(4), s.HintedWrites)
	require.Equal(t, int64(3), s.HintActedOn)
	require.Equal(t, int64(1), s.HintEpisodes)
	require.Equal(t, int64(2), s.AboveHigh)
	require.Positive(t, s.ForegroundTime)

	v := run(Vanilla)
	require.Equal(t, int64(4), v.HintedWrites)
	require.Zero(t, v.HintActedOn)
	require.Zero(t, v.HintEpisodes)
	require.Equal(t, int64(2), v.AboveHigh, "the upcall reports the prediction whatever the policy")
	require.Zero(t, v.ForegroundTime)
	require.Zero(t, v.ForegroundEvictions)
}

// TestForegroundTime: Vanilla without power-loss protection, 16 pages written, then a
// Flush, which waits for them on flash and so makes eviction urgent (foreground). Each of
// the 4 dies takes 1 program in its channel and foreground_per_die 2 more queued: the
// first rounds send 12 pages at once, and the last 4 wait for room until the first
// programs end, one fake tPROG (558 µs) after they started. The round that sends them finds
// nothing dirty after it, so the evictor is in foreground from the first round's decision
// to just after the first programs end: at least 558 µs, and at most 558 µs plus the
// few µs of parsing, data and issue before the first programs start (under 20 µs).
func TestForegroundTime(t *testing.T) {
	s := smallSpec(Vanilla, "sequential")
	s.PowerLossProtection = false
	r := newFake(t, s, 4096)
	r.eng.Spawn("host", func(p *sim.Proc) {
		w := make([]uint64, 16)
		for j := range w {
			w[j] = Stamp(int64(j), 1)
		}
		r.cmd(p, nvme.OpWrite, 0, 16, nvme.Hint{}, w)
		r.cmd(p, nvme.OpFlush, 0, 0, nvme.Hint{}, nil)
	})
	r.eng.Run()
	st := r.fw.StatsAt(r.eng.Now())
	require.Equal(t, int64(16), st.ForegroundEvictions)
	require.GreaterOrEqual(t, st.ForegroundTime, fakeTPROG)
	require.Less(t, st.ForegroundTime, fakeTPROG+20*sim.Microsecond)
}
