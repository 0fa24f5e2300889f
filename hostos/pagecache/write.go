package pagecache

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// ErrNoSpace is returned when the device has no room for a file's new pages (ENOSPC).
var ErrNoSpace = errors.New("pagecache: no space left on device")

// ErrUnlinked is returned for I/O on a file that has been unlinked.
var ErrUnlinked = errors.New("pagecache: file is unlinked")

// checkRange validates the arguments of a read or write.
func checkRange(f *File, off, n int64) error {
	if f.unlinked {
		return ErrUnlinked
	}
	if off < 0 || n < 0 {
		return fmt.Errorf("pagecache: bad range offset %d length %d on %s", off, n, f.name)
	}
	return nil
}

// Write is a buffered write(2) of n bytes at off: it charges the syscall and the page
// copies to the task's core, dirties the pages (reading a partially overwritten page that
// is not cached first), extends the file, and throttles the task in balance_dirty_pages as
// Linux's generic_perform_write does after each page. It returns the bytes written.
func (c *Cache) Write(t *Task, f *File, off, n int64) (int64, error) {
	if err := checkRange(f, off, n); err != nil || n == 0 {
		return 0, err
	}
	first, last := off/PageSize, (off+n-1)/PageSize
	t.compute(c.spec.CPU.SyscallCycles + (last-first+1)*c.spec.CPU.PageCopyCycles)
	if !f.allocate(&c.space, last) {
		return 0, ErrNoSpace
	}
	for idx := first; idx <= last; idx++ {
		partial := idx*PageSize < off || (idx+1)*PageSize > off+n
		fr, err := c.pageForWrite(t, f, idx, partial)
		if err != nil {
			return max(idx*PageSize-off, 0), err
		}
		if c.check != nil {
			c.check.wrote(f, idx, fr)
		}
		if c.markDirty(t, f, idx, fr) {
			t.nrDirtied++
		}
		f.size = max(f.size, min((idx+1)*PageSize, off+n))
		c.balanceDirtyPagesRatelimited(t)
	}
	return n, nil
}

// pageForWrite returns the frame of page idx ready to be written, waiting for a read in
// flight and reading the page first when the write covers it only partly and it holds file
// data (write_begin).
func (c *Cache) pageForWrite(t *Task, f *File, idx int64, partial bool) (int32, error) {
	for {
		if f.unlinked {
			return noFrame, ErrUnlinked
		}
		fr := f.frameOf(idx)
		switch {
		case fr == noFrame && partial && idx*PageSize < f.size:
			c.readOne(t, f, idx)
			if err := t.wait(); err != nil {
				return noFrame, err
			}
		case fr == noFrame:
			if fr = c.allocFrame(t, f, idx); fr != noFrame {
				return fr, nil
			}
		case c.mem.frames[fr].flags&pgLocked != 0:
			t.Proc.Wait(&f.readWait)
		default:
			return fr, nil
		}
	}
}

// balanceDirtyPagesRatelimited is balance_dirty_pages_ratelimited: a task enters
// balance_dirty_pages once it has dirtied nr_dirtied_pause pages, or 8 while the device is
// over its dirty threshold (docs/sources.md §5.2).
func (c *Cache) balanceDirtyPagesRatelimited(t *Task) {
	ratelimit := t.nrDirtiedPause
	if c.wb.dirtyExceeded {
		ratelimit = min(ratelimit, exceededRatelimit)
	}
	if t.nrDirtied >= ratelimit {
		c.balanceDirtyPages(t, t.nrDirtied)
	}
}

// balanceDirtyPages is balance_dirty_pages for one device (docs/sources.md §5.2):
//  1. wake the flusher if dirty pages exceed the background threshold and it is idle;
//  2. below the freerun ceiling (thresh + bg)/2, return at once and set the next check
//     interval to dirty_poll_interval;
//  3. otherwise sleep for the pause that makes the task dirty at task_ratelimit =
//     dirty_ratelimit·pos_ratio: pause = HZ·pages_dirtied/task_ratelimit minus the think
//     time since the last pause, clamped to [min_pause, max_pause ≤ 200 ms]; a pause below
//     min_pause is not slept but carried over; at or above the hard limit (pos_ratio 0) the
//     task sleeps max_pause and checks again.
//
// Thresholds are recomputed from the ratios in effect on every pass, so a FastDrain switch
// takes effect at the next call (docs/sources.md §5.1).
func (c *Cache) balanceDirtyPages(t *Task, pagesDirtied int64) {
	wb := &c.wb
	for {
		c.updateBandwidth()
		nowJ := int64(c.eng.Now() / jiffy)
		nrReclaimable := c.nrDirty
		dirty := c.nrDirty + c.nrWriteback
		thresh, bg, freerun := c.Thresholds()
		if nrReclaimable > bg && !wb.running {
			c.wbStartBackgroundWriteback()
		}
		if dirty <= freerun {
			wb.dirtyExceeded = false
			t.pausedWhen, t.pausedValid = nowJ, true
			t.nrDirtied = 0
			t.nrDirtiedPause = dirtyPollInterval(dirty, thresh)
			return
		}
		if !wb.running {
			c.wbStartBackgroundWriteback()
		}
		limit := max(thresh, wb.dirtyLimit)
		wb.dirtyExceeded = dirty > thresh
		pos := posRatio(dirty, freerun, limit, wb.avgWriteBW)
		dirtyRatelimit := wb.dirtyRatelimit
		taskRatelimit := dirtyRatelimit * pos >> ratelimitCalcShift
		maxP := wbMaxPause(dirty, wb.avgWriteBW)
		minP, nrPause := wbMinPause(wb.avgWriteBW, dirtyRatelimit, taskRatelimit, maxP)
		var pause int64
		if taskRatelimit == 0 {
			pause = maxP
		} else {
			period := hz * pagesDirtied / taskRatelimit
			pause = period
			if t.pausedValid {
				pause -= nowJ - t.pausedWhen
			}
			if pause < minP {
				switch {
				case pause < -hz:
					t.pausedWhen, t.pausedValid = nowJ, true
					t.nrDirtied = 0
				case period > 0:
					t.pausedWhen += period
					t.nrDirtied = 0
				case t.nrDirtiedPause <= pagesDirtied:
					t.nrDirtiedPause += pagesDirtied
				}
				return
			}
			if pause > maxP {
				nowJ += min(pause-maxP, maxP)
				pause = maxP
			}
		}
		d := sim.Time(pause) * jiffy
		if c.sleep != nil {
			c.sleep.DirtySleep(c.eng.Now())
		}
		t.Proc.Sleep(d)
		t.throttled += d
		t.pauses++
		c.stats.ThrottleTime += d
		c.stats.ThrottlePauses++
		c.stats.Pause.Record(int64(d))
		t.pausedWhen, t.pausedValid = nowJ+pause, true
		t.nrDirtied = 0
		t.nrDirtiedPause = nrPause
		// Linux leaves the loop after one pause unless the task is at the hard limit; then it
		// pauses again until the device's dirty + writeback pages drain (wb_dirty ≤
		// wb_stat_error, which is 0 here as the model's counters are exact).
		if taskRatelimit != 0 || c.nrDirty+c.nrWriteback == 0 {
			return
		}
	}
}
