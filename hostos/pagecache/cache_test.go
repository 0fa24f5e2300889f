package pagecache

import (
	"errors"
	"testing"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
	"github.com/stretchr/testify/require"
)

func TestSequentialReadahead(t *testing.T) {
	// read_ahead 128 KiB = 32 pages, 64-page file at device page 0, 4 KiB reads in order.
	// Miss at 0 (req 1): window 4 (init: 1 ≤ 32/32 → ×4), async 3, mark page 1.
	// Hit the mark at 1: next window [4, 12) (4 ≤ 16 → ×2), mark page 4.
	// At 4: [12, 28) (8 → 16), mark 12. At 12: [28, 60) (16 → 32), mark 28.
	// At 28: [60, 92) clipped to the file end → [60, 64).
	r := newRig(t, testSpec(), 50*sim.Microsecond)
	var f *File
	r.spawn("reader", func(t2 *Task) {
		f, _ = r.c.Create(t2, "data")
		require.NoError(t, r.c.Fallocate(f, 64*PageSize))
		for i := int64(0); i < 64; i++ {
			n, err := r.c.Read(t2, f, i*PageSize, PageSize)
			require.NoError(t, err)
			require.Equal(t, int64(PageSize), n)
		}
		n, err := r.c.Read(t2, f, 64*PageSize, PageSize)
		require.NoError(t, err)
		require.Zero(t, n, "reading at end of file returns 0")
	})
	r.eng.Run()
	var got [][2]int64
	for _, rec := range r.dev.ops(blk.OpRead) {
		got = append(got, [2]int64{rec.Off / PageSize, rec.Size / PageSize})
	}
	require.Equal(t, [][2]int64{{0, 4}, {4, 8}, {12, 16}, {28, 32}, {60, 4}}, got)
	require.Equal(t, int64(1), r.c.Stats().ReadMisses)
	require.Equal(t, int64(64), r.c.Stats().ReadHits)
	require.Equal(t, int64(64), f.CachedPages())
}

func TestRandomReadsNoRamp(t *testing.T) {
	// Non-sequential misses each start a fresh 4-page window (initRASize(1) = 4).
	r := newRig(t, testSpec(), 50*sim.Microsecond)
	r.spawn("reader", func(t2 *Task) {
		f, _ := r.c.Create(t2, "data")
		require.NoError(t, r.c.Fallocate(f, 1024*PageSize))
		for _, p := range []int64{100, 500, 300} {
			_, err := r.c.Read(t2, f, p*PageSize, PageSize)
			require.NoError(t, err)
		}
	})
	r.eng.Run()
	var got [][2]int64
	for _, rec := range r.dev.ops(blk.OpRead) {
		got = append(got, [2]int64{rec.Off / PageSize, rec.Size / PageSize})
	}
	require.Equal(t, [][2]int64{{100, 4}, {500, 4}, {300, 4}}, got)
}

func TestReclaimKeepsMemoryBounded(t *testing.T) {
	// 64 pages of memory; reading a 128-page file must evict the oldest clean pages.
	s := testSpec()
	s.Memory = 64 * PageSize
	s.ReadAhead = 0
	r := newRig(t, s, 10*sim.Microsecond)
	var f *File
	r.spawn("reader", func(t2 *Task) {
		f, _ = r.c.Create(t2, "big")
		require.NoError(t, r.c.Fallocate(f, 128*PageSize))
		for i := int64(0); i < 128; i++ {
			_, err := r.c.Read(t2, f, i*PageSize, PageSize)
			require.NoError(t, err)
		}
	})
	r.eng.Run()
	require.Equal(t, int64(64), r.c.CachedPages())
	require.Equal(t, int64(64), r.c.Stats().Reclaimed, "128 pages read into 64 frames")
	require.Equal(t, noFrame, f.frameOf(0), "LRU: the first page went first")
	require.NotEqual(t, noFrame, f.frameOf(127))
}

func TestDirtyPagesWaitForWritebackWhenMemoryFull(t *testing.T) {
	// 64 pages of memory, dirty_ratio 100: a 100-page write fills memory with dirty pages; the
	// writer must wait for reclaim-driven writeback (vmscan) to clean some.
	s := testSpec()
	s.Memory = 64 * PageSize
	s.Dirty.Ratio, s.Dirty.BackgroundRatio = 100, 100
	// A slow device keeps pages under writeback long enough for memory to fill.
	r := newRig(t, s, 100*sim.Millisecond)
	var f *File
	r.spawn("writer", func(t2 *Task) {
		f, _ = r.c.Create(t2, "big")
		n, err := r.c.Write(t2, f, 0, 100*PageSize)
		require.NoError(t, err)
		require.Equal(t, int64(100*PageSize), n)
		require.NoError(t, r.c.Fsync(t2, f))
	})
	r.eng.Run()
	require.LessOrEqual(t, r.c.CachedPages(), int64(64))
	require.Equal(t, int64(100*PageSize), r.dev.writes, "every page reached the device once")
	require.NotEmpty(t, r.c.Stats().Victims)
}

func TestDirectIO(t *testing.T) {
	r := newRig(t, testSpec(), 20*sim.Microsecond)
	var done sim.Time
	r.spawn("db", func(t2 *Task) {
		f, _ := r.c.Create(t2, "table") // 0–1 µs
		_, err := r.c.WriteDirect(t2, f, 100, 512)
		require.Error(t, err, "O_DIRECT needs 512-byte alignment")
		// Syscall 1–2 (misaligned, rejected before cost) … the aligned write: syscall 1–2 µs,
		// one 16 KiB FUA write bio at 2 µs, done at 22 µs.
		n, err := r.c.WriteDirect(t2, f, 0, int64(16*KiB))
		require.NoError(t, err)
		require.Equal(t, int64(16*KiB), n)
		require.Equal(t, int64(16*KiB), f.Size())
		done = t2.Proc.Now()
		// A buffered write then a direct read of the same range: the dirty page is written
		// back first so the direct read sees it.
		_, err = r.c.Write(t2, f, 0, PageSize)
		require.NoError(t, err)
		n, err = r.c.ReadDirect(t2, f, 0, int64(32*KiB))
		require.NoError(t, err)
		require.Equal(t, int64(16*KiB), n, "short read at end of file")
		require.Zero(t, f.DirtyPages())
	})
	r.eng.Run()
	require.Equal(t, 22*sim.Microsecond, done)
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 2)
	require.Equal(t, ioRec{Op: blk.OpWrite, Off: 0, Size: 16 * 1024, Sync: true, FUA: true,
		Issued: 2 * sim.Microsecond, Complete: 22 * sim.Microsecond}, w[0])
	require.Equal(t, int64(PageSize), w[1].Size, "write-back of the dirty page before the direct read")
	rd := r.dev.ops(blk.OpRead)
	require.Len(t, rd, 1)
	require.Equal(t, int64(16*1024), rd[0].Size)
	require.Greater(t, rd[0].Issued, w[1].Complete-1)
}

func TestUnlinkTrimsAndFreesSpace(t *testing.T) {
	r := newRig(t, testSpec(), 10*sim.Microsecond)
	r.spawn("app", func(t2 *Task) {
		a, _ := r.c.Create(t2, "a")
		_, err := r.c.Write(t2, a, 0, 10*PageSize) // allocation: 10 pages at device page 0
		require.NoError(t, err)
		b, _ := r.c.Create(t2, "b")
		_, err = r.c.Write(t2, b, 0, PageSize) // b's page goes after a: device page 10
		require.NoError(t, err)
		require.Equal(t, [][2]int64{{10 * PageSize, PageSize}}, b.Extents())
		require.NoError(t, r.c.Unlink(t2, a))
		require.Nil(t, r.c.Lookup("a"))
		_, err = r.c.Write(t2, a, 0, PageSize)
		require.ErrorIs(t, err, ErrUnlinked)
		c, _ := r.c.Create(t2, "c")
		_, err = r.c.Write(t2, c, 0, PageSize) // the freed space is reused
		require.NoError(t, err)
		require.Equal(t, [][2]int64{{0, PageSize}}, c.Extents())
	})
	r.eng.Run()
	d := r.dev.ops(blk.OpDiscard)
	require.Len(t, d, 1)
	require.Equal(t, int64(0), d[0].Off)
	require.Equal(t, int64(10*PageSize), d[0].Size)
	require.Equal(t, int64(2*PageSize), r.dev.writes, "only b's and c's pages were ever written: a's were dropped")
}

func TestPartialOverwriteReadsPageFirst(t *testing.T) {
	r := newRig(t, testSpec(), 10*sim.Microsecond)
	r.spawn("app", func(t2 *Task) {
		f, _ := r.c.Create(t2, "f")
		require.NoError(t, r.c.Fallocate(f, 2*PageSize))
		_, err := r.c.Write(t2, f, 100, 200) // inside page 0, which holds data
		require.NoError(t, err)
		_, err = r.c.Write(t2, f, 2*PageSize, 10) // new page past EOF: no read
		require.NoError(t, err)
		require.Equal(t, int64(2*PageSize+10), f.Size())
	})
	r.eng.Run()
	rd := r.dev.ops(blk.OpRead)
	require.Len(t, rd, 1)
	require.Equal(t, int64(PageSize), rd[0].Size)
}

func TestSampledSeries(t *testing.T) {
	r := newRig(t, bgSpec(), sim.Millisecond)
	smp := sim.NewSampler(r.eng, 500*sim.Millisecond)
	r.c.Track(smp)
	r.spawn("w", func(t2 *Task) {
		f, _ := r.c.Create(t2, "a")
		_, err := r.c.Write(t2, f, 0, 100*PageSize)
		require.NoError(t, err)
	})
	r.eng.RunUntil(sim.Second)
	ser := smp.Series()
	require.Equal(t, "host.dirty_pages", ser[0].Name)
	require.Equal(t, []sim.Sample{{At: 0, Value: 0}, {At: 500 * sim.Millisecond, Value: 100},
		{At: sim.Second, Value: 100}}, ser[0].Samples)
	require.Equal(t, int64(40), ser[2].Samples[0].Value)
}

// bytes converts a Size to int64 bytes.

func TestAllocationWaitsForReclaimWriteback(t *testing.T) {
	// Fill all 64 frames with dirty pages behind balance_dirty_pages' back (as many concurrent
	// dirtiers overshooting their ratelimits would), then write one more page: the allocation
	// finds no clean page, queues reclaim writeback of everything (vmscan) and waits for the
	// first completion (10 µs device) to free a frame.
	s := testSpec()
	s.Memory = 64 * PageSize
	r := newRig(t, s, 10*sim.Microsecond)
	var done sim.Time
	r.spawn("w", func(t2 *Task) {
		f, _ := r.c.Create(t2, "f") // 0–1 µs
		require.True(t, f.allocate(&r.c.space, 64))
		for i := int64(0); i < 64; i++ {
			fr := r.c.takeFrame(f, i)
			r.c.markDirty(t2, f, i, fr)
		}
		f.size = 64 * PageSize
		_, err := r.c.Write(t2, f, 64*PageSize, PageSize) // syscall 1–2 µs, then waits
		require.NoError(t, err)
		done = t2.Proc.Now()
	})
	r.eng.RunUntil(sim.Second)
	v := r.c.Stats().Victims
	require.Equal(t, "vmscan", v[0].Reason)
	require.Equal(t, int64(64), v[0].Pages)
	// The flusher submits 64 dirty pages at 2 µs as one 64-page bio (MaxBio 256); it
	// completes at 12 µs and the writer gets a frame then.
	require.Equal(t, 12*sim.Microsecond, done)
	require.Equal(t, int64(1), r.c.Stats().Reclaimed)
}

func TestDirectWriteInvalidatesCache(t *testing.T) {
	// Two cached dirty pages, then an O_DIRECT write over the first: it is written back,
	// dropped, then overwritten directly; the second stays cached and dirty.
	r := newRig(t, testSpec(), 10*sim.Microsecond)
	var f *File
	r.spawn("db", func(t2 *Task) {
		f, _ = r.c.Create(t2, "t")
		_, err := r.c.Write(t2, f, 0, 2*PageSize)
		require.NoError(t, err)
		_, err = r.c.WriteDirect(t2, f, 0, PageSize)
		require.NoError(t, err)
	})
	r.eng.RunUntil(sim.Second)
	require.Equal(t, noFrame, f.frameOf(0))
	require.NotEqual(t, noFrame, f.frameOf(1))
	require.Equal(t, int64(1), f.DirtyPages())
	w := r.dev.ops(blk.OpWrite)
	require.Len(t, w, 2)
	require.False(t, w[0].FUA, "write-back of the cached page")
	require.Equal(t, int64(PageSize), w[0].Size, "only the range [0, 1) is written back")
	require.True(t, w[1].FUA, "the direct write")
}

// TestReadErrorDropsPages: a read of page 0 of a fresh 64-page file misses and starts a
// read-ahead window of 4 pages (initRASize(1) = 4), which the device fails: the read
// returns the device's error after 1 µs of syscall and 50 µs of device time, the 4 pages
// are dropped (none cached, ReadErrors 4) instead of being marked up to date, and the
// same read, once the device reads again, goes back to it (a new read of page 0, its
// window ramped up as the stream's next) and succeeds.
func TestReadErrorDropsPages(t *testing.T) {
	r := newRig(t, testSpec(), 50*sim.Microsecond)
	bad := errors.New("medium error")
	r.dev.failReads = bad
	var f *File
	r.spawn("reader", func(t2 *Task) {
		f, _ = r.c.Create(t2, "data")
		require.NoError(t, r.c.Fallocate(f, 64*PageSize))
		t0 := r.eng.Now()
		_, err := r.c.Read(t2, f, 0, PageSize)
		require.ErrorIs(t, err, bad)
		require.Equal(t, t0+51*sim.Microsecond, r.eng.Now())
		require.Zero(t, f.CachedPages())
		r.dev.failReads = nil
		n, err := r.c.Read(t2, f, 0, PageSize)
		require.NoError(t, err)
		require.Equal(t, int64(PageSize), n)
	})
	r.eng.Run()
	reads := r.dev.ops(blk.OpRead)
	require.Equal(t, ioRec{Op: blk.OpRead, Off: 0, Size: 4 * PageSize, Sync: true, Issued: reads[0].Issued, Complete: reads[0].Complete}, reads[0])
	require.Zero(t, reads[1].Off, "page 0 is read from the device again")
	require.Equal(t, int64(4), r.c.Stats().ReadErrors)
	require.Positive(t, f.CachedPages())
}
