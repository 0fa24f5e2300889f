package pagecache

import "github.com/fastdrain-sim/fastdrain/hostos/blk"

// raState is a file's read-ahead window (struct file_ra_state): the window [start,
// start+size) was read, and reaching page start+size−asyncSize (marked PG_readahead) starts
// reading the next window before it is needed.
type raState struct {
	start, size, asyncSize int64
	prev                   int64 // last page read, -1 before the first read
}

// raMax returns the read-ahead limit in pages.
func (c *Cache) raMax() int64 { return int64(c.spec.ReadAhead / PageSize) }

// initRASize is get_init_ra_size: the first window for a request of req pages is its size
// rounded up to a power of two, ×4 if that is at most max/32, ×2 if at most max/4, else max.
func initRASize(req, maxPages int64) int64 {
	n := roundupPow2(req)
	switch {
	case n <= maxPages/32:
		n *= 4
	case n <= maxPages/4:
		n *= 2
	default:
		n = maxPages
	}
	return n
}

// nextRASize is get_next_ra_size: ×4 while below max/16, ×2 up to max/2, then max.
func nextRASize(cur, maxPages int64) int64 {
	switch {
	case cur < maxPages/16:
		return 4 * cur
	case cur <= maxPages/2:
		return 2 * cur
	}
	return maxPages
}

// Read is a buffered read(2) of n bytes at off, clamped to the file size. Cached pages are
// copied (PageCopyCycles each, charged with the syscall up front); a missing page starts
// synchronous read-ahead and waits for it; reaching a PG_readahead page starts asynchronous
// read-ahead of the next window, as mm/readahead.c's on-demand read-ahead does for
// sequential streams. It returns the bytes read.
func (c *Cache) Read(t *Task, f *File, off, n int64) (int64, error) {
	if err := checkRange(f, off, n); err != nil {
		return 0, err
	}
	n = min(n, max(f.size-off, 0))
	if n == 0 {
		t.compute(c.spec.CPU.SyscallCycles)
		return 0, nil
	}
	first, last := off/PageSize, (off+n-1)/PageSize
	t.compute(c.spec.CPU.SyscallCycles + (last-first+1)*c.spec.CPU.PageCopyCycles)
	for idx := first; idx <= last; {
		if f.unlinked {
			return max(idx*PageSize-off, 0), ErrUnlinked
		}
		fr := f.frameOf(idx)
		if fr == noFrame {
			c.stats.ReadMisses++
			c.syncReadahead(t, f, idx, last-idx+1)
			if f.frameOf(idx) == noFrame {
				// No memory for the window: wait for a page like any allocation.
				c.readOne(t, f, idx)
			}
			if err := t.wait(); err != nil {
				return max(idx*PageSize-off, 0), err
			}
			continue
		}
		fm := &c.mem.frames[fr]
		if fm.flags&pgLocked != 0 {
			t.Proc.Wait(&f.readWait)
			continue
		}
		c.stats.ReadHits++
		// Touch before any read-ahead allocation, so reclaim for the next window cannot take
		// the page being read.
		c.mem.lruTouch(fr)
		if fm.flags&pgReadahead != 0 {
			fm.flags &^= pgReadahead
			c.asyncReadahead(t, f)
		}
		f.ra.prev = idx
		idx++
	}
	return n, nil
}

// syncReadahead is page_cache_sync_ra for a miss at idx with req pages wanted: a miss that
// continues a sequential stream ramps the window up; any other starts a fresh window sized
// from the request. Without read-ahead it reads just the requested pages.
func (c *Cache) syncReadahead(t *Task, f *File, idx, req int64) {
	maxPages := c.raMax()
	ra := &f.ra
	if t != nil && t.fadvise == FadvSequential {
		maxPages *= 2 // mm/fadvise.c: POSIX_FADV_SEQUENTIAL sets ra_pages to twice the device's
	}
	if t != nil && t.fadvise == FadvRandom {
		// mm/readahead.c page_cache_sync_ra: a file opened FMODE_RANDOM reads only the
		// requested pages (force_page_cache_ra), without touching the window.
		c.readPages(t, f, idx, min(req, max(maxPages, 1)))
		return
	}
	if maxPages == 0 {
		c.readPages(t, f, idx, req)
		return
	}
	if idx == ra.prev+1 || (ra.size > 0 && idx == ra.start+ra.size) {
		if ra.size == 0 {
			ra.size = initRASize(req, maxPages)
		} else {
			ra.size = nextRASize(ra.size, maxPages)
		}
		ra.asyncSize = ra.size
	} else {
		ra.size = initRASize(req, maxPages)
		ra.asyncSize = 0
		if ra.size > req {
			ra.asyncSize = ra.size - req
		}
	}
	ra.size = max(ra.size, min(req, maxPages))
	ra.start = idx
	c.readWindow(t, f)
	if req > ra.size {
		c.readPages(t, f, idx+ra.size, req-ra.size)
	}
}

// asyncReadahead is page_cache_async_ra: the next window follows the current one, ramped
// up, and is read without waiting.
func (c *Cache) asyncReadahead(t *Task, f *File) {
	ra := &f.ra
	ra.start += ra.size
	maxPages := c.raMax()
	if t != nil && t.fadvise == FadvSequential {
		maxPages *= 2
	}
	ra.size = nextRASize(ra.size, maxPages)
	ra.asyncSize = ra.size
	c.readWindow(nil, f)
}

// readWindow reads the window's missing pages and marks its async trigger page.
func (c *Cache) readWindow(t *Task, f *File) {
	ra := &f.ra
	c.readPages(t, f, ra.start, ra.size)
	if ra.asyncSize > 0 {
		mark := ra.start + ra.size - ra.asyncSize
		if fr := f.frameOf(mark); fr != noFrame && c.mem.frames[fr].flags&pgLocked != 0 {
			c.mem.frames[fr].flags |= pgReadahead
		}
	}
}

// readPages allocates and locks the missing pages of [first, first+n) within the file and
// issues read bios for runs of them that are contiguous on the device. With a task, the
// bios count as the task's I/O (it waits for them with t.wait); without, nobody waits.
// Pages already cached are skipped; memory for the pages is taken without waiting, and the
// window stops early if memory is full of dirty pages.
func (c *Cache) readPages(t *Task, f *File, first, n int64) {
	end := min(first+n, (f.size+PageSize-1)/PageSize, f.allocated)
	maxPages := int64(c.spec.Writeback.MaxBio / PageSize)
	for idx := first; idx < end; {
		if f.frameOf(idx) != noFrame {
			idx++
			continue
		}
		start := idx
		_, run := f.devRun(start)
		lim := min(end, start+run, start+maxPages)
		for ; idx < lim && f.frameOf(idx) == noFrame; idx++ {
			fr := c.takeFrame(f, idx)
			if fr == noFrame {
				break
			}
			c.mem.frames[fr].flags |= pgLocked
			f.nrLocked++
		}
		if idx == start {
			return
		}
		dev, _ := f.devRun(start)
		r := c.newReq(reqRead, blk.OpRead, f, start, idx-start, t)
		r.bio.Offset = dev * PageSize
		r.bio.Size = (idx - start) * PageSize
		r.bio.Sync = t != nil
		c.stats.PagesRead += idx - start
		c.submit(r)
	}
}

// readOne reads page idx of f for the task, waiting for memory if needed; it does nothing if
// the page appeared meanwhile.
func (c *Cache) readOne(t *Task, f *File, idx int64) {
	fr := c.allocFrame(t, f, idx)
	if fr == noFrame {
		return
	}
	c.mem.frames[fr].flags |= pgLocked
	f.nrLocked++
	dev, _ := f.devRun(idx)
	r := c.newReq(reqRead, blk.OpRead, f, idx, 1, t)
	r.bio.Offset = dev * PageSize
	r.bio.Size = PageSize
	r.bio.Sync = true
	c.stats.PagesRead++
	c.submit(r)
}

// takeFrame is allocFrame without waiting: noFrame if memory holds no clean page.
func (c *Cache) takeFrame(f *File, idx int64) int32 {
	fr := c.mem.take()
	if fr == noFrame && c.mem.lruHead != noFrame {
		fr = c.mem.lruHead
		c.evict(fr)
		c.stats.Reclaimed++
	}
	if fr != noFrame {
		c.mem.frames[fr] = frame{file: f.ino, index: uint32(idx), prev: noFrame, next: noFrame}
		f.setFrame(idx, fr)
		f.nrCached++
	}
	return fr
}
