package pagecache

import (
	"testing"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

// bgSpec: 64 MiB = 16384 pages, dirty_ratio 40 → thresh 40·16384/100 = 6553, background 12 →
// 12·16384/100 = 1966, freerun (6553+1966)/2 = 4259. The write chunk is
// min(12800, 6553/8 = 819, …) → round_down(819+1024, 1024) = 1024 pages, and MaxBio 1 MiB
// is 256 pages.
func bgSpec() Spec {
	s := testSpec()
	s.Dirty.Ratio, s.Dirty.BackgroundRatio = 40, 12
	return s
}

func TestBackgroundWritebackStartsAboveAndStopsBelowThreshold(t *testing.T) {
	r := newRig(t, bgSpec(), sim.Millisecond)
	thresh, bg, freerun := r.c.Thresholds()
	require.Equal(t, int64(6553), thresh)
	require.Equal(t, int64(1966), bg)
	require.Equal(t, int64(4259), freerun)

	var f *File
	task := r.spawn("writer", func(t2 *Task) {
		var err error
		f, err = r.c.Create(t2, "a")
		require.NoError(t, err)
		writePages(t, r.c, t2, f, 0, 1966) // exactly the background threshold: not above it
		t2.Proc.SleepUntil(sim.Second)
		// One write(2) of 2034 pages brings the file to 4000, above the threshold and below
		// freerun; the flusher, woken at the first check above 1966, runs when the writer
		// yields at the end of the call.
		_, err = r.c.Write(t2, f, 1966*PageSize, (4000-1966)*PageSize)
		require.NoError(t, err)
	})
	r.eng.RunUntil(sim.Second - 1)
	require.Empty(t, r.dev.ops(blk.OpWrite), "no writeback at the background threshold")
	require.Equal(t, int64(1966), r.c.DirtyPages())

	r.eng.RunUntil(2 * sim.Second)
	require.Zero(t, task.Throttled(), "4000 pages stay below freerun 4259")
	// The pass writes one 1024-page chunk, re-checks (4000−1024 = 2976 > 1966), writes a second
	// (1952 ≤ 1966) and stops: 2048 pages in 8 bios of 256 pages.
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 8)
	require.Equal(t, int64(4000-2048), r.c.DirtyPages())
	require.Equal(t, int64(2048), r.c.Stats().PagesWrittenBack)
	for i, rec := range w {
		require.Equal(t, int64(i)*256*PageSize, rec.Off, "sequential file pages are sequential LBAs")
		require.Equal(t, int64(256*PageSize), rec.Size)
		require.False(t, rec.Sync)
		// The hint is the count still to flush: the 4000 − 1966 = 2034 pages over the
		// background threshold rounded up to whole 1024-page chunks, 2048, at the start, 256
		// fewer per bio; the last bio announces only its own 256 pages.
		require.Equal(t, blk.Hint{Victim: true, Pages: 2048 - 256*i}, rec.Hint)
	}
	v := r.c.Stats().Victims
	require.Len(t, v, 1)
	require.Equal(t, int64(2048), v[0].Pages)
	require.Equal(t, "background", v[0].Reason)
	require.Equal(t, sim.Second+sim.Microsecond, v[0].Start, "the writer yields after its 1 µs syscall")
	require.Equal(t, v[0].Start+sim.Millisecond, v[0].Done, "all bios in flight at once, 1 ms each")
	require.Equal(t, sim.Millisecond, v[0].Duration())
}

func TestKupdateWritesExpiredInodesOnly(t *testing.T) {
	// expire 30 s, periodic wake-up every 5 s. File a is created (syscall 0–1 µs) and dirtied
	// at 2 µs (write syscall 1–2 µs), which arms the first wake-up at 5 s + 2 µs; the flusher
	// then wakes every 5 s. At 30 s + 2 µs a has been dirty for exactly 30 s (dirtied_when ≤
	// now − expire) and is written. File b, created from 27 s − 1 µs and dirtied at 27 s + 1 µs,
	// expires at 57 s + 1 µs and is written at the first wake-up after that, 60 s + 2 µs. Both
	// stay below the background threshold.
	r := newRig(t, bgSpec(), 100*sim.Microsecond)
	r.spawn("writer", func(t2 *Task) {
		a, _ := r.c.Create(t2, "a")
		r.c.Write(t2, a, 0, 100*PageSize)
		t2.Proc.SleepUntil(27*sim.Second - sim.Microsecond)
		b, _ := r.c.Create(t2, "b")
		r.c.Write(t2, b, 0, 50*PageSize)
	})
	r.eng.Run()
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 2)
	const us = sim.Microsecond
	require.Equal(t, 30*sim.Second+2*us, w[0].Issued)
	require.Equal(t, int64(100*PageSize), w[0].Size)
	require.Equal(t, 60*sim.Second+2*us, w[1].Issued)
	require.Equal(t, int64(50*PageSize), w[1].Size)
	require.Equal(t, blk.Hint{Victim: true, Pages: 50}, w[1].Hint)
	require.Zero(t, r.c.DirtyPages())
	// Run returned: once nothing is dirty the flusher does not re-arm (no idle ticking).
	require.Equal(t, 60*sim.Second+2*us+100*us, r.eng.Now())
	var reasons []string
	for _, v := range r.c.Stats().Victims {
		reasons = append(reasons, v.Reason)
	}
	require.Equal(t, []string{"periodic", "periodic"}, reasons)
}

func TestThrottlingStartsAboveFreerun(t *testing.T) {
	// testSpec with dirty_ratio 10/5: thresh 1638, bg 819, freerun (1638+819)/2 = 1228. The
	// device takes an hour, so dirty + writeback pages only grow.
	s := testSpec()
	s.Dirty.Ratio, s.Dirty.BackgroundRatio = 10, 5
	r := newRig(t, s, 3600*sim.Second)
	_, _, freerun := r.c.Thresholds()
	require.Equal(t, int64(1228), freerun)
	firstPauseAt := int64(-1)
	task := r.spawn("writer", func(t2 *Task) {
		f, _ := r.c.Create(t2, "a")
		writePages(t, r.c, t2, f, 0, freerun)
		require.Zero(t, t2.Pauses(), "no pause up to the freerun ceiling")
		for i := freerun; i < 1638; i++ {
			r.c.Write(t2, f, i*PageSize, PageSize)
			if t2.Pauses() > 0 {
				firstPauseAt = i + 1
				return
			}
		}
	})
	r.eng.RunUntil(10 * sim.Second)
	require.Positive(t, task.Pauses())
	require.Greater(t, firstPauseAt, freerun)
	require.Positive(t, r.c.Stats().ThrottleTime)
	require.Equal(t, task.Throttled(), r.c.Stats().ThrottleTime)
}

func TestHardLimitPausesMaxPause(t *testing.T) {
	// 4 GiB, low set 5/3 (FastDrain adaptive): thresh 52428. A writer dirtying 60000 pages into
	// a device that never completes reaches the limit, where pos_ratio = 0 and each pause is
	// wb_max_pause = 52428/201 + 1 = 261 jiffies → MAX_PAUSE, 200 ms.
	s := DefaultSpec()
	s.CPU.PageCopyCycles = 0
	s.FastDrain.Adaptive = true
	r := newRig(t, s, 3600*sim.Second)
	r.dev.noLog = true
	thresh, _, _ := r.c.Thresholds()
	require.Equal(t, int64(52428), thresh)
	task := r.spawn("writer", func(t2 *Task) {
		f, _ := r.c.Create(t2, "a")
		r.c.Write(t2, f, 0, 60000*PageSize)
	})
	r.eng.RunUntil(5 * sim.Second)
	require.Equal(t, 200*sim.Millisecond, sim.Time(r.c.Stats().Pause.Max()))
	require.Less(t, r.c.DirtyPages()+r.c.WritebackPages(), int64(60000), "the writer is held back")
	require.Greater(t, task.Throttled(), 4*sim.Second)
}

func TestFsyncWaitsForPagesAndFlush(t *testing.T) {
	// 300 dirty pages, 100 µs device. create: syscall 0–1 µs; write: 1–2 µs; fsync: syscall
	// 2–3 µs, two write bios (256 + 44 pages) at 3 µs, done at 103 µs; the flush is issued at
	// 103 µs and completes at 203 µs, when fsync returns.
	r := newRig(t, bgSpec(), 100*sim.Microsecond)
	var returned sim.Time
	var f *File
	r.spawn("app", func(t2 *Task) {
		f, _ = r.c.Create(t2, "log")
		r.c.Write(t2, f, 0, 300*PageSize)
		require.NoError(t, r.c.Fsync(t2, f))
		returned = t2.Proc.Now()
	})
	r.eng.Run()
	const us = sim.Microsecond
	require.Equal(t, 203*us, returned)
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 2)
	for _, rec := range w {
		require.Equal(t, 3*us, rec.Issued)
		require.True(t, rec.Sync)
		require.False(t, rec.Hint.Victim, "fsync writes are not writeback victimization")
	}
	require.Equal(t, int64(256*PageSize), w[0].Size)
	require.Equal(t, int64(44*PageSize), w[1].Size)
	fl := r.dev.ops(blk.OpFlush)
	require.Len(t, fl, 1)
	require.Equal(t, 103*us, fl[0].Issued, "the flush follows the data")
	require.Equal(t, returned, fl[0].Complete)
	require.Zero(t, f.DirtyPages())
	require.Zero(t, f.WritebackPages())
	require.Empty(t, r.c.Stats().Victims, "the flusher never had anything to do")
}

func TestFastDrainRatioSwitch(t *testing.T) {
	// Adaptive, 64 MiB = 16384 pages. Low set 5/3: thresh 819, bg 491, freerun 655. High set
	// 10/5: thresh 1638, bg 819, freerun 1228.
	s := testSpec()
	s.FastDrain.Adaptive = true
	r := newRig(t, s, sim.Millisecond)
	th, bg, fr := r.c.Thresholds()
	require.Equal(t, [3]int64{819, 491, 655}, [3]int64{th, bg, fr})

	r.c.SetBufferLevel(0, bufferlevel.High) // a completion says the SSD buffer is above high
	require.True(t, r.c.HighRatios())
	th, bg, fr = r.c.Thresholds()
	require.Equal(t, [3]int64{1638, 819, 1228}, [3]int64{th, bg, fr})
	r.c.SetBufferLevel(0, bufferlevel.Mid) // between the watermarks: keep the set
	require.True(t, r.c.HighRatios())

	var f *File
	r.spawn("writer", func(t2 *Task) {
		f, _ = r.c.Create(t2, "a")
		// 600 dirty pages: above the low background threshold (491) but not the high one (819).
		writePages(t, r.c, t2, f, 0, 600)
		t2.Proc.SleepUntil(2 * sim.Second)
		// Checks came every 32 pages (1 << (ilog2(1638 − dirty) >> 1) = 32 while 1638 − dirty
		// ≥ 1024), the last at 576, so the next is at 608, 8 pages into this burst.
		writePages(t, r.c, t2, f, 600, 32)
	})
	r.eng.RunUntil(sim.Second)
	require.Empty(t, r.dev.ops(blk.OpWrite), "high set: 600 ≤ 819, no background writeback")

	r.eng.At(sim.Second, func() { r.c.SetBufferLevel(r.eng.Now(), bufferlevel.Low) })
	r.eng.RunUntil(2*sim.Second - 1)
	require.False(t, r.c.HighRatios())
	require.Empty(t, r.dev.ops(blk.OpWrite), "the switch takes effect at the next check, not before")

	r.eng.RunUntil(3 * sim.Second)
	// At the check at 608 > 491 the flusher is woken; it runs when the writer yields in its
	// next syscall and writes the 608 dirty pages (one 1024-page chunk) as bios of 256, 256 and
	// 96 pages; the 24 pages written after stay dirty (24 ≤ 491).
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 3)
	require.Equal(t, blk.Hint{Victim: true, Pages: 608}, w[0].Hint)
	require.Equal(t, blk.Hint{Victim: true, Pages: 352}, w[1].Hint)
	require.Equal(t, blk.Hint{Victim: true, Pages: 96}, w[2].Hint)
	require.Equal(t, 2*sim.Second+8*sim.Microsecond, w[0].Issued)
	require.Equal(t, int64(24), r.c.DirtyPages())
	require.Equal(t, []RatioSwitch{
		{At: 0, High: true, Ratio: 10, BackgroundRatio: 5},
		{At: sim.Second, High: false, Ratio: 5, BackgroundRatio: 3},
	}, r.c.Stats().Switches)
}

func TestSetBufferLevelIgnoredWhenNotAdaptive(t *testing.T) {
	r := newRig(t, testSpec(), sim.Millisecond)
	r.c.SetBufferLevel(0, bufferlevel.High)
	ratio, bg := r.c.Ratios()
	require.Equal(t, [2]int{20, 10}, [2]int{ratio, bg})
	require.Empty(t, r.c.Stats().Switches)
}

func TestWritebackPerInodeOrder(t *testing.T) {
	// Three files of 300 pages dirtied in the order b, a, c, at 2, 4 and 6 µs (create and
	// write cost 1 µs each). bgSpec's background threshold is 1966, so only kupdate writes:
	// the first wake-up is at 5 s + 2 µs, and at 30 s + 2 µs only b has expired; a and c are
	// written at 35 s + 2 µs, a first (older dirtied_when), each in file order.
	r := newRig(t, bgSpec(), 10*sim.Microsecond)
	r.spawn("w", func(t2 *Task) {
		for _, name := range []string{"b", "a", "c"} {
			f, _ := r.c.Create(t2, name)
			_, err := r.c.Write(t2, f, 0, 300*PageSize)
			require.NoError(t, err)
		}
	})
	r.eng.Run()
	// Layout: b at device pages [0, 300), a at [300, 600), c at [600, 900). Bios of at most
	// 256 pages: b 256+44, a 256+44, c 256+44, in that order. The first pass counts b's 300
	// pages, the second a's and c's 600.
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 6)
	wantOff := []int64{0, 256, 300, 556, 600, 856}
	wantHint := []int{300, 44, 600, 344, 300, 44}
	require.Equal(t, 30*sim.Second+2*sim.Microsecond, w[0].Issued)
	require.Equal(t, 35*sim.Second+2*sim.Microsecond, w[2].Issued)
	for i, rec := range w {
		require.Equal(t, wantOff[i]*PageSize, rec.Off)
		require.Equal(t, wantHint[i], rec.Hint.Pages)
	}
}

func TestDeterministic(t *testing.T) {
	run := func() []ioRec {
		r := newRig(t, bgSpec(), 30*sim.Microsecond)
		for k := 0; k < 3; k++ {
			name := string(rune('a' + k))
			r.spawn(name, func(t2 *Task) {
				f, _ := r.c.Create(t2, name)
				for i := int64(0); i < 1500; i++ {
					r.c.Write(t2, f, i*PageSize, PageSize)
					if i%100 == 99 {
						r.c.Fsync(t2, f)
					}
				}
			})
		}
		r.eng.Run()
		return r.dev.log
	}
	a, b := run(), run()
	require.NotEmpty(t, a)
	require.Equal(t, a, b)
}

// TestHighSetCounters: the pages the flusher and fsync submit while FastDrain's high ratio
// set is in force are counted apart (Stats.WrittenBackHigh, SyncedHigh): what the switch did
// not stop. 64 MiB = 16384 pages; low set 5/3 (background threshold 491), high set 10/5
// (background threshold 819, freerun 1228).
//   - Low set: 300 dirty pages (≤ 491: the flusher stays asleep), fsync: 300 synced, none
//     in the high set.
//   - High set: 300 more (≤ 819), fsync: 300 synced in the high set (fsync ignores the
//     ratios). Then one write(2) of 1000 pages (> 819, < freerun 1228, so no throttling):
//     the flusher, woken at a check above 819, runs when the writer yields at the end of
//     the call and writes all 1000 in one 1024-page chunk (then 0 ≤ 819: it stops), 1000
//     written back in the high set.
func TestHighSetCounters(t *testing.T) {
	s := testSpec()
	s.FastDrain.Adaptive = true
	r := newRig(t, s, sim.Millisecond)
	r.spawn("writer", func(t2 *Task) {
		f, _ := r.c.Create(t2, "a")
		writePages(t, r.c, t2, f, 0, 300)
		require.NoError(t, r.c.Fsync(t2, f))
		r.c.SetBufferLevel(r.eng.Now(), bufferlevel.High)
		writePages(t, r.c, t2, f, 300, 300)
		require.NoError(t, r.c.Fsync(t2, f))
		g, _ := r.c.Create(t2, "b")
		_, err := r.c.Write(t2, g, 0, 1000*PageSize)
		require.NoError(t, err)
	})
	r.eng.RunUntil(5 * sim.Second)
	st := r.c.Stats()
	require.True(t, r.c.HighRatios())
	require.Equal(t, int64(600), st.PagesSynced)
	require.Equal(t, int64(300), st.SyncedHigh)
	require.Equal(t, int64(1000), st.PagesWrittenBack)
	require.Equal(t, int64(1000), st.WrittenBackHigh)
	require.Zero(t, r.c.DirtyPages())
}

func TestSetBufferLevelIgnoresNonLevels(t *testing.T) {
	// A completion without a report decodes to bufferlevel.None (0xFF), and a DW1 carrier's
	// two bits can hold 3, which no firmware writes: neither is "above high". The low set
	// (5 %/3 %) stays in force and no switch is recorded; High then switches as usual.
	s := testSpec()
	s.FastDrain.Adaptive = true
	r := newRig(t, s, sim.Millisecond)
	r.c.SetBufferLevel(0, bufferlevel.None)
	r.c.SetBufferLevel(0, bufferlevel.Level(3))
	ratio, bg := r.c.Ratios()
	require.Equal(t, [2]int{5, 3}, [2]int{ratio, bg})
	require.False(t, r.c.HighRatios())
	require.Empty(t, r.c.Stats().Switches)
	r.c.SetBufferLevel(0, bufferlevel.High)
	require.True(t, r.c.HighRatios())
}
