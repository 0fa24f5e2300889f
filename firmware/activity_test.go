package firmware

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvme"
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

// TestBackgroundSkipsBusyDies: FD-Buf's background eviction sends pages only to dies idle
// of host work; Oracle-BG, the control, to every die without a host read queued or in
// flight. On the fake (4 dies, background_per_die 1), with idle_half_life 1 ms:
//   - 4 pages are written and evicted (one a die), and their buffer copies dropped;
//   - at 2 ms and 2.5 ms the host reads page 0 from flash, on its die X: at the second read
//     X's count is 1.75 reads, so X stays busy until 1.357 ms after it (TestHostActivityDecay
//     worked the numbers), whatever the few µs of parsing before each read reaches the
//     scheduler (the same for both);
//   - at 3 ms 4 new pages are written (no hint: background eviction).
//
// FD-Buf sends all 4 to the three other dies within microseconds (a die whose program has
// gone to the flash has room for another: background_per_die counts queued programs) and
// none to X, which is busy until 2.5 + 1.357 = 3.857 ms (plus the few µs). So no background
// page goes to a busy die. Oracle-BG sends one page to every die at once, X included: one
// background page to a busy die.
func TestBackgroundSkipsBusyDies(t *testing.T) {
	ms := sim.Millisecond
	run := func(p Policy) (*fake, int, sim.Time) {
		s := smallSpec(p, "sequential")
		s.Buffer.IdleHalfLife = ms
		r := newFake(t, s, 4096)
		x := -1
		var read2 sim.Time
		r.eng.Spawn("host", func(pr *sim.Proc) {
			w := []uint64{Stamp(0, 1), Stamp(1, 1), Stamp(2, 1), Stamp(3, 1)}
			r.cmd(pr, nvme.OpWrite, 0, 4, nvme.Hint{}, w)
			pr.SleepUntil(2 * ms)
			require.Equal(t, int64(4), r.flash.programs)
			for lpn := int64(0); lpn < 4; lpn++ {
				r.fw.buf.Invalidate(lpn)
			}
			x = r.fw.geo.Addr(ftl.PPN(r.fw.ftl.Lookup(0))).Die
			got := make([]uint64, 1)
			r.cmd(pr, nvme.OpRead, 0, 1, nvme.Hint{}, got)
			require.Equal(t, Stamp(0, 1), got[0])
			pr.SleepUntil(2*ms + ms/2)
			read2 = pr.Now()
			r.cmd(pr, nvme.OpRead, 0, 1, nvme.Hint{}, got)
			pr.SleepUntil(3 * ms)
			w = []uint64{Stamp(10, 1), Stamp(11, 1), Stamp(12, 1), Stamp(13, 1)}
			r.cmd(pr, nvme.OpWrite, 10, 4, nvme.Hint{}, w)
		})
		r.eng.Run()
		require.Equal(t, int64(2), r.flash.reads)
		require.Equal(t, int64(8), r.flash.programs)
		return r, x, read2
	}
	r, x, read2 := run(FastDrain)
	busyUntil := read2 + 1357*sim.Microsecond
	others := 0
	for _, p := range r.flash.progLog[4:] {
		if p.g == x {
			require.Greater(t, p.at, busyUntil, "a background page went to busy die %d at %v", x, p.at)
		} else if p.at < busyUntil {
			others++
		}
	}
	require.Equal(t, 4, others, "the three idle dies took all four pages")
	require.Zero(t, r.fw.Stats.BackgroundBusy)
	require.Equal(t, int64(8), r.fw.Stats.BackgroundIdle)

	r, x, read2 = run(OracleBG)
	busyUntil = read2 + 1357*sim.Microsecond
	toX := 0
	for _, p := range r.flash.progLog[4:] {
		if p.g == x && p.at < busyUntil {
			toX++
		}
	}
	require.Equal(t, 1, toX, "Oracle-BG sends to every die, busy or not")
	require.Equal(t, int64(1), r.fw.Stats.BackgroundBusy)
	require.Equal(t, int64(7), r.fw.Stats.BackgroundIdle)
}

// TestIdleHalfLifeValidated: idle_half_life must not be negative, and the error names the
// field; 0 (the default) takes the flash's mean program time.
func TestIdleHalfLifeValidated(t *testing.T) {
	s := DefaultSpec()
	require.Zero(t, s.Buffer.IdleHalfLife)
	require.NoError(t, s.Validate())
	s.Buffer.IdleHalfLife = -sim.Millisecond
	require.ErrorContains(t, s.Validate(), "firmware.buffer.idle_half_life: -1ms must not be negative")
}

// TestBackgroundShareBudget: under background_set share, background_share bounds the
// background programs in flight to that share of the dies, at least one, under
// background_max. Worked out:
//   - the budget: 480 dies × 0.01 = 4.8, so 4 (the paper's platform); 8 dies × 0.01 = 0.08,
//     so at least 1; 480 × 0.5 = 240, so background_max's 64; share 0, background_max.
//   - on the fake (4 dies, a program 558 µs, one die each for the sequential allocator's
//     stripe), 4 pages written at once and evicted in the background (FD-Buf, no hint):
//     share 0.25 gives a budget of 1, so each program is submitted only after the one before
//     it completes: 3 gaps of at least 558 µs; the next round's decision (400 cycles at
//     400 MHz, 1 µs), allocation and issue (500 cycles, 1.25 µs) and DRAM read-out (1 µs)
//     keep each gap under 558 + 10 µs. Share 0.5 (budget 2): two programs at once, the
//     other two at least 558 µs later. Share 0 (background_max 64): all four within 10 µs.
func TestBackgroundShareBudget(t *testing.T) {
	b := DefaultSpec().Buffer
	b.BackgroundSet = BackgroundSetShare
	require.Equal(t, 4, backgroundBudget(b, 480))
	require.Equal(t, 1, backgroundBudget(b, 8))
	b.BackgroundShare = 0.5
	require.Equal(t, 64, backgroundBudget(b, 480))
	b.BackgroundShare = 0
	require.Equal(t, 64, backgroundBudget(b, 480))

	slack := 10 * sim.Microsecond
	at := backgroundProgramTimes(t, BackgroundSetShare, 0.25, 4)
	for i := 1; i < 4; i++ {
		gap := at[i] - at[i-1]
		require.GreaterOrEqual(t, gap, fakeTPROG, "program %d", i)
		require.Less(t, gap, fakeTPROG+slack, "program %d", i)
	}
	at = backgroundProgramTimes(t, BackgroundSetShare, 0.5, 4)
	require.Less(t, at[1]-at[0], slack)
	require.GreaterOrEqual(t, at[2]-at[1], fakeTPROG)
	require.Less(t, at[3]-at[2], slack)
	at = backgroundProgramTimes(t, BackgroundSetShare, 0, 4)
	require.Less(t, at[3]-at[0], slack)
}

// TestBackgroundIdleDiesSet: under background_set idle-dies no bound applies
// but background_per_die on each die, so the budget is dies × background_per_die
// whatever background_max and background_share say: 480 on the paper's 480 dies, 8 on 4
// dies with two a die. On the fake (4 dies, one each for the sequential allocator's
// stripe, a program 558 µs, the scheduler handing a die up to die_depth 2 transactions),
// 8 pages written at once and evicted in the background (FD-Buf, no hint, no host reads:
// every die idle):
//   - idle-dies, background_per_die 1: a budget of 4, one program in flight a die. Pages
//     1–4 go to the four dies within 10 µs (decision, allocation, DRAM read-out: a few µs,
//     TestBackgroundShareBudget); a die whose program has gone to its channel has room in
//     its queue, but the budget is spent, so page 5 waits for the first completion: at
//     least 558 µs after page 1, and within 10 µs of it (the next round's decision and
//     issue).
//   - pages 5–8 then go to the four dies together, within 10 µs of page 5;
//   - background_share does not apply: at 0.25 the share rule's budget would be one
//     program (TestBackgroundShareBudget: gaps of 558 µs), the idle-dies rule's timing is
//     the same as at 0.01.
func TestBackgroundIdleDiesSet(t *testing.T) {
	b := DefaultSpec().Buffer
	require.Equal(t, BackgroundSetPerEviction, b.BackgroundSet, "the default rule")
	b.BackgroundSet = BackgroundSetIdleDies
	require.Equal(t, 480, backgroundBudget(b, 480))
	b.BackgroundPerDie = 2
	require.Equal(t, 8, backgroundBudget(b, 4))

	slack := 10 * sim.Microsecond
	for _, share := range []float64{0.01, 0.25} {
		at := backgroundProgramTimes(t, BackgroundSetIdleDies, share, 8)
		require.Less(t, at[3]-at[0], slack, "one page to each of the four idle dies at once")
		require.GreaterOrEqual(t, at[4]-at[0], fakeTPROG, "the fifth waits for a completion")
		require.Less(t, at[4]-at[0], fakeTPROG+slack)
		require.Less(t, at[7]-at[4], slack, "pages 5–8 together")
	}
}

// backgroundProgramTimes writes n pages at once on the fake under FD-Buf (no hint, so
// evicted in the background) with the background set rule and share given, and returns
// when each program was submitted.
func backgroundProgramTimes(t *testing.T, set BackgroundSet, share float64, n int) []sim.Time {
	s := smallSpec(FastDrain, "sequential")
	s.Buffer.BackgroundSet, s.Buffer.BackgroundShare = set, share
	r := newFake(t, s, 4096)
	r.eng.Spawn("host", func(pr *sim.Proc) {
		w := make([]uint64, n)
		for i := range w {
			w[i] = Stamp(int64(i), 1)
		}
		r.cmd(pr, nvme.OpWrite, 0, n, nvme.Hint{}, w)
	})
	r.eng.Run()
	require.Equal(t, int64(n), r.fw.Stats.BackgroundEvictions)
	require.Zero(t, r.fw.Stats.ForegroundEvictions)
	var at []sim.Time
	for _, p := range r.flash.progLog {
		at = append(at, p.at)
	}
	require.Len(t, at, n)
	return at
}

// TestBackgroundShareValidated: background_share is a share of the dies, in 0 … 1, and
// background_set one of the three rules (idle-dies, share, per-eviction); the errors name
// the field.
func TestBackgroundShareValidated(t *testing.T) {
	s := DefaultSpec()
	for _, v := range []float64{-0.01, 1.5} {
		s.Buffer.BackgroundShare = v
		require.ErrorContains(t, s.Validate(), "firmware.buffer.background_share:")
	}
	s.Buffer.BackgroundShare = 1
	require.NoError(t, s.Validate())
	s.Buffer.BackgroundSet = BackgroundSetPerEviction
	require.NoError(t, s.Validate())
	s.Buffer.BackgroundSet = BackgroundSetPerEviction + 1
	require.ErrorContains(t, s.Validate(), "firmware.buffer.background_set: unknown rule 3 (idle-dies, share or per-eviction)")
	var b BackgroundSet
	require.EqualError(t, b.UnmarshalText([]byte("all")), `firmware.buffer.background_set: "all" is not one of idle-dies, share, per-eviction`)
	require.NoError(t, b.UnmarshalText([]byte("share")))
	require.Equal(t, BackgroundSetShare, b)
	require.NoError(t, b.UnmarshalText([]byte("per-eviction")))
	require.Equal(t, BackgroundSetPerEviction, b)
}
