package pagecache

import (
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// reqKind says what a bio does for the page cache and so what its completion must do.
type reqKind uint8

const (
	reqRead      reqKind = iota // fills cached pages (read or read-ahead)
	reqWriteback                // flusher write of dirty pages
	reqSyncWrite                // fsync / O_DIRECT-flush write of dirty pages
	reqDirect                   // O_DIRECT read or write: no cached pages involved
	reqFlush                    // cache flush after fsync
	reqDiscard                  // trim of an unlinked file's extents
)

// req is a bio with the page cache's bookkeeping. reqs are pooled, so submitting I/O
// allocates nothing in steady state.
type req struct {
	bio    blk.Bio
	c      *Cache
	kind   reqKind
	f      *File
	first  int64 // first file page
	n      int64 // pages
	task   *Task // waiter, if any
	victim int   // index of the victimization event, or -1
	next   *req
	stamps []uint64 // the pages' data words, with the data check on (datacheck.go)
}

// HandleEvent completes the bio; it implements sim.Handler.
func (r *req) HandleEvent(*sim.Event) { r.c.complete(r) }

// newReq takes a req from the pool and prepares its bio.
func (c *Cache) newReq(kind reqKind, op blk.Op, f *File, first, n int64, t *Task) *req {
	r := c.reqFree
	if r != nil {
		c.reqFree = r.next
	} else {
		r = &req{c: c}
	}
	*r = req{c: c, kind: kind, f: f, first: first, n: n, task: t, victim: -1}
	r.bio = blk.Bio{Op: op, Done: r, Private: r}
	return r
}

// submit hands the bio to the device, counting it against its task.
func (c *Cache) submit(r *req) {
	if c.check != nil {
		c.check.submit(c, r)
	}
	if r.task != nil {
		r.task.pending++
	}
	c.dev.Submit(&r.bio)
}

// complete updates page state when a bio finishes and wakes whoever waits.
func (c *Cache) complete(r *req) {
	now := c.eng.Now()
	switch r.kind {
	case reqRead:
		if c.check != nil && r.bio.Err == nil {
			c.check.readDone(r)
		}
		c.readDone(r)
	case reqWriteback, reqSyncWrite:
		c.writeDone(r, now)
	}
	if t := r.task; t != nil {
		t.pending--
		if r.bio.Err != nil && t.err == nil {
			t.err = r.bio.Err
		}
		if t.pending == 0 {
			t.ioDone.Notify()
		}
	}
	r.f, r.task, r.bio = nil, nil, blk.Bio{}
	r.next = c.reqFree
	c.reqFree = r
}

// readDone marks the pages uptodate, unlocks them and puts them on the LRU. After a read
// error the pages are not uptodate: they are dropped (their frames freed), so the task
// that waits gets the error and a later read asks the device again, as Linux's
// filemap_read_folio does (the folio is unlocked without PG_uptodate, the read returns
// EIO, and the next read of it starts a new one); a read-ahead's error reaches no one.
func (c *Cache) readDone(r *req) {
	f := r.f
	for idx := r.first; idx < r.first+r.n; idx++ {
		fr := f.pages[idx]
		fm := &c.mem.frames[fr]
		if fm.flags&pgLocked == 0 {
			c.bug("read completion for unlocked page %d of %s", idx, f.name)
		}
		fm.flags &^= pgLocked
		f.nrLocked--
		if r.bio.Err != nil {
			f.pages[idx] = noFrame
			f.nrCached--
			c.mem.release(fr)
			c.stats.ReadErrors++
			if c.memWait.Waiting() > 0 {
				c.memWait.Broadcast()
			}
			continue
		}
		c.becameClean(fr)
	}
	f.readWait.Broadcast()
}

// writeDone ends writeback of the pages (end_page_writeback): a page not redirtied meanwhile
// becomes clean and reclaimable.
func (c *Cache) writeDone(r *req, now sim.Time) {
	f := r.f
	for idx := r.first; idx < r.first+r.n; idx++ {
		fr := f.pages[idx]
		fm := &c.mem.frames[fr]
		if fm.flags&pgWriteback == 0 {
			c.bug("write completion for page %d of %s not under writeback", idx, f.name)
		}
		fm.flags &^= pgWriteback
		if fm.flags&pgDirty == 0 {
			c.becameClean(fr)
		}
	}
	c.nrWriteback -= r.n
	f.nrWriteback -= r.n
	c.wb.written += r.n
	if r.bio.Err != nil {
		c.stats.WriteErrors += r.n
		if f.err == nil {
			f.err = r.bio.Err
		}
	}
	if f.nrWriteback == 0 {
		f.wbWait.Broadcast()
	}
	if r.kind == reqWriteback {
		c.wb.inflight--
		if r.victim >= 0 {
			c.stats.Victims[r.victim].Done = now
		}
	}
	c.wb.ioDone.Notify()
}
