package pagecache

import (
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// writeback is the device's struct bdi_writeback (docs/sources.md §5.3): inode lists, the flusher
// process and its wake-up state, the write-bandwidth estimate and the domain's dirty limit.
type writeback struct {
	c       *Cache
	proc    *sim.Proc
	wake    sim.Signal
	pending bool     // wb_wakeup was called: the work item is queued to run now
	running bool     // WB_writeback_running
	vmscan  bool     // reclaim asked for all dirty pages to be written
	timerAt sim.Time // when the delayed work fires, sim.MaxTime if not armed
	timerID int64    // generation of the armed timer; stale timer events are ignored

	bDirty, bIO, bMoreIO inodeList

	lastOldFlush sim.Time // wb->last_old_flush
	inflight     int      // writeback bios in flight
	ioDone       sim.Signal
	admitted     sim.Signal // the block layer let a held bio of the flusher go

	written        int64    // pages whose writeback completed (WB_WRITTEN)
	bwStamp        sim.Time // bw_time_stamp
	writtenStamp   int64
	writeBW        int64 // write_bandwidth, pages/s
	avgWriteBW     int64 // avg_write_bandwidth, pages/s
	dirtyRatelimit int64 // dirty_ratelimit, pages/s
	dirtyLimit     int64 // global_wb_domain.dirty_limit, pages
	dirtyExceeded  bool
	gen            int64 // bandwidth interval number
	dirtiers       int64 // tasks that dirtied pages in the current interval

	victim    int   // current victimization event, -1 if none
	remaining int64 // pages the current event still has to flush (the hint)
}

// wbWork is one unit of flusher work (struct wb_writeback_work) of the kinds the model
// runs: background, periodic (kupdate) and reclaim-driven.
type wbWork struct {
	nrPages    int64
	background bool
	kupdate    bool
	reason     string
}

// initWriteback sets up the bdi_writeback and spawns its flusher.
func (c *Cache) initWriteback() {
	wb := &c.wb
	wb.c = c
	wb.timerAt = sim.MaxTime
	wb.victim = -1
	wb.writeBW, wb.avgWriteBW, wb.dirtyRatelimit = initBW, initBW, initBW
	// writeback_set_ratelimit: the domain's dirty_limit starts at the dirty threshold.
	wb.dirtyLimit, _, _ = c.Thresholds()
	wb.proc = c.eng.Spawn(c.name+".flush", c.flusher)
}

// HandleEvent fires the delayed work timer; it implements sim.Handler.
func (wb *writeback) HandleEvent(ev *sim.Event) {
	if ev.Code != wb.timerID || wb.timerAt == sim.MaxTime {
		return
	}
	wb.timerAt = sim.MaxTime
	wb.pending = true
	wb.wake.Notify()
}

// wbWakeup is wb_wakeup: run the flusher now (mod_delayed_work with delay 0).
func (c *Cache) wbWakeup() {
	wb := &c.wb
	wb.timerAt = sim.MaxTime
	wb.timerID++
	wb.pending = true
	wb.wake.Notify()
}

// wbStartBackgroundWriteback is wb_start_background_writeback, which only wakes the flusher
// (docs/sources.md §5.3); the flusher itself checks the background threshold.
func (c *Cache) wbStartBackgroundWriteback() { c.wbWakeup() }

// wbWakeupDelayed is wb_wakeup_delayed: run the flusher dirty_writeback_interval from now
// unless it is already queued (queue_delayed_work does nothing on a pending work).
func (c *Cache) wbWakeupDelayed() {
	wb := &c.wb
	iv := c.writebackInterval()
	if iv == 0 || wb.pending || wb.timerAt != sim.MaxTime {
		return
	}
	wb.timerID++
	wb.timerAt = c.eng.Now() + iv
	c.eng.Schedule(wb.timerAt, wb, nil, wb.timerID)
}

func (c *Cache) writebackInterval() sim.Time {
	return sim.Time(c.spec.Dirty.WritebackCentisecs) * 10 * sim.Millisecond
}

func (c *Cache) expireInterval() sim.Time {
	return sim.Time(c.spec.Dirty.ExpireCentisecs) * 10 * sim.Millisecond
}

// wbHasDirtyIO is wb_has_dirty_io: some inode is on b_dirty, b_io or b_more_io.
func (c *Cache) wbHasDirtyIO() bool {
	return !c.wb.bDirty.empty() || !c.wb.bIO.empty() || !c.wb.bMoreIO.empty()
}

// overBgThresh is wb_over_bg_thresh for a single device: NR_FILE_DIRTY above the background
// threshold (docs/sources.md §5.3). It uses the ratios in effect now, so a FastDrain switch takes
// effect at the next check (docs/sources.md §5.1).
func (c *Cache) overBgThresh() bool {
	_, bg, _ := c.Thresholds()
	return c.nrDirty > bg
}

// flusher is wb_workfn, the "flush-<dev>" worker: sleep until woken, run wb_do_writeback,
// re-arm the periodic wake-up while dirty inodes remain. It never ticks while idle.
func (c *Cache) flusher(p *sim.Proc) {
	wb := &c.wb
	for {
		for !wb.pending {
			p.Wait(&wb.wake)
		}
		wb.pending = false
		c.wbDoWriteback(p)
		if c.wbHasDirtyIO() {
			c.wbWakeupDelayed()
		}
	}
}

// wbDoWriteback is wb_do_writeback: queued (reclaim) work, then the periodic kupdate check,
// then the background check (docs/sources.md §5.3).
func (c *Cache) wbDoWriteback(p *sim.Proc) {
	wb := &c.wb
	wb.running = true
	if wb.vmscan {
		wb.vmscan = false
		c.wbWriteback(p, &wbWork{nrPages: c.nrDirty, reason: "vmscan"})
	}
	// wb_check_old_data_flush.
	if iv := c.writebackInterval(); iv > 0 && c.eng.Now() >= wb.lastOldFlush+iv {
		wb.lastOldFlush = c.eng.Now()
		// get_nr_dirty_pages: dirty pages plus dirty inodes.
		if n := c.nrDirty + int64(wb.bDirty.n+wb.bIO.n+wb.bMoreIO.n); n > 0 {
			c.wbWriteback(p, &wbWork{nrPages: n, kupdate: true, reason: "periodic"})
		}
	}
	// wb_check_background_flush.
	if c.overBgThresh() {
		c.wbWriteback(p, &wbWork{nrPages: 1<<62 - 1, background: true, reason: "background"})
	}
	wb.running = false
}

// olderThan is the dirtied_when cut-off of a work: expired inodes for kupdate, every inode
// dirtied up to now otherwise.
func (c *Cache) olderThan(w *wbWork) sim.Time {
	if w.kupdate {
		return c.eng.Now() - c.expireInterval()
	}
	return c.eng.Now()
}

// wbWriteback is wb_writeback: write inodes from b_io, refilling it with queue_io, until the
// work's page budget is used, background work is below the background threshold, or no
// inode is left (docs/sources.md §5.3). Each work is a page victimization: it starts an event with
// the count of dirty pages it is about to flush.
func (c *Cache) wbWriteback(p *sim.Proc, w *wbWork) {
	c.bandwidthEstimateStart()
	c.victimStart(w)
	for w.nrPages > 0 {
		if w.background && !c.overBgThresh() {
			break
		}
		if c.wb.bIO.empty() {
			c.queueIO(c.olderThan(w))
		}
		progress := c.writebackInodes(p, w)
		c.updateBandwidth()
		if progress > 0 {
			continue
		}
		if c.wb.bMoreIO.empty() || c.nrWriteback == 0 {
			break
		}
		// Nothing written, but inodes wait whose pages are all under writeback: sleep until
		// some writeback completes (inode_sleep_on_writeback).
		p.Wait(&c.wb.ioDone)
	}
	c.victimEnd()
}

// queueIO is queue_io: b_more_io goes to b_io, then the inodes of b_dirty dirtied at or
// before olderThan, oldest first.
func (c *Cache) queueIO(olderThan sim.Time) {
	wb := &c.wb
	for f := wb.bMoreIO.head; f != nil; f = wb.bMoreIO.head {
		wb.bIO.pushBack(f)
	}
	for f := wb.bDirty.head; f != nil && f.dirtiedWhen <= olderThan; f = wb.bDirty.head {
		wb.bIO.pushBack(f)
	}
}

// victimPages counts the dirty pages a work is about to flush: those of the inodes on b_io
// and b_more_io and of the inodes of b_dirty that queue_io will move (the paper walks the
// dirty inode list of bdi_writeback; docs/sources.md §5.3 detection hooks). A background work
// stops once the dirty pages are at or under the background threshold, which it checks
// after each round of write chunks: it is about to flush the pages over the threshold,
// rounded up to whole chunks, if it has that many (issue 20: counting every dirty page left
// the SSD expecting pages the pass never sent). So the pass's last bio announces only its
// own pages, nothing after it; if dirtying outruns the pass it flushes more than it
// counted, and writeInode starts a new count.
func (c *Cache) victimPages(w *wbWork) int64 {
	n := c.dirtyListPages(w)
	if w.background {
		_, bg, _ := c.Thresholds()
		chunk := writebackChunk(c.wb.avgWriteBW, c.wb.dirtyLimit, w.nrPages)
		over := max(c.nrDirty-bg, 0)
		n = min(n, (over+chunk-1)/chunk*chunk)
	}
	return n
}

// dirtyListPages counts the dirty pages of the inodes a work would visit, up to its budget.
func (c *Cache) dirtyListPages(w *wbWork) int64 {
	wb := &c.wb
	var n int64
	for f := wb.bIO.head; f != nil; f = f.lnext {
		n += f.nrDirty
	}
	for f := wb.bMoreIO.head; f != nil; f = f.lnext {
		n += f.nrDirty
	}
	cut := c.olderThan(w)
	for f := wb.bDirty.head; f != nil && f.dirtiedWhen <= cut; f = f.lnext {
		n += f.nrDirty
	}
	return min(n, w.nrPages)
}

// victimStart opens a victimization event if the work has pages to flush.
func (c *Cache) victimStart(w *wbWork) {
	wb := &c.wb
	n := c.victimPages(w)
	if n == 0 {
		wb.victim, wb.remaining = -1, 0
		return
	}
	c.stats.Victims = append(c.stats.Victims, VictimEvent{Start: c.eng.Now(), End: c.eng.Now(),
		Pages: n, Reason: w.reason})
	wb.victim, wb.remaining = len(c.stats.Victims)-1, n
}

// victimEnd closes the current event.
func (c *Cache) victimEnd() {
	wb := &c.wb
	if wb.victim >= 0 {
		c.stats.Victims[wb.victim].End = c.eng.Now()
	}
	wb.victim, wb.remaining = -1, 0
}

// writebackInodes is writeback_sb_inodes over b_io: one write chunk per inode, requeueing
// each by what is left, bailing out every 100 ms or when the budget is spent (docs/sources.md §5.3).
func (c *Cache) writebackInodes(p *sim.Proc, w *wbWork) int64 {
	wb := &c.wb
	start := c.eng.Now()
	var wrote int64
	for !wb.bIO.empty() {
		f := wb.bIO.head
		chunk := writebackChunk(wb.avgWriteBW, wb.dirtyLimit, w.nrPages)
		n := c.writeInode(p, f, chunk, w)
		w.nrPages -= n
		wrote += n
		if !f.unlinked && f.list == &wb.bIO {
			c.requeueInode(f, n >= chunk)
		}
		if wrote > 0 && (c.eng.Now()-start > writebackSlice || w.nrPages <= 0) {
			break
		}
	}
	return wrote
}

// requeueInode is requeue_inode: a clean inode leaves the lists; one that used its whole
// chunk goes to b_more_io for the next round; one that still has dirty pages it could not
// write goes back to b_dirty (redirty_tail), restamped if it would be older than the newest.
func (c *Cache) requeueInode(f *File, sliceUsed bool) {
	wb := &c.wb
	switch {
	case f.nrDirty == 0:
		f.list.remove(f)
	case sliceUsed:
		wb.bMoreIO.pushBack(f)
	default:
		if t := wb.bDirty.tail; t != nil && f.dirtiedWhen < t.dirtiedWhen {
			f.dirtiedWhen = c.eng.Now()
		}
		wb.bDirty.pushBack(f)
	}
}

// writeInode is do_writepages for WB_SYNC_NONE with range_cyclic: from the inode's
// writeback_index on, wrapping once, it writes up to chunk dirty pages not already under
// writeback, in file order, as bios of device-contiguous pages, keeping at most MaxInflight
// bios in flight. Every bio carries the victimization hint.
func (c *Cache) writeInode(p *sim.Proc, f *File, chunk int64, w *wbWork) int64 {
	wb := &c.wb
	var written int64
	start := f.writebackIndex
	idx, end := start, int64(len(f.pages))
	wrapped := start == 0
	for written < chunk && !f.unlinked {
		for wb.inflight >= c.spec.Writeback.MaxInflight {
			p.Wait(&wb.ioDone)
		}
		if f.unlinked {
			break
		}
		first, n := c.nextDirtyRun(f, idx, end, chunk-written)
		if n == 0 {
			if wrapped {
				break
			}
			wrapped, idx, end = true, 0, start
			continue
		}
		if wb.victim < 0 || wb.remaining <= 0 {
			// The work flushes more than it counted (pages were dirtied meanwhile): a new
			// victimization starts with a fresh count.
			c.victimEnd()
			c.victimStart(w)
		}
		r := c.startWrite(f, first, n, reqWriteback, nil)
		r.victim = wb.victim
		r.bio.Hint = blk.Hint{Victim: true, Pages: int(max(wb.remaining, n))}
		// wbc_to_write_flags: background and kupdate work writes REQ_BACKGROUND.
		r.bio.Background = w.background || w.kupdate
		r.bio.Admitted = &wb.admitted
		wb.remaining -= n
		wb.inflight++
		c.stats.PagesWrittenBack += n
		if c.high {
			c.stats.WrittenBackHigh += n
		}
		c.submit(r)
		written += n
		idx = first + n
		f.writebackIndex = idx
		// The flusher sleeps in wbt_wait while writeback throttling holds its bio; the block
		// layer notifies admitted when it lets the bio go (r may be recycled by then).
		if r.bio.Held() {
			p.Wait(&wb.admitted)
		}
	}
	return written
}

// nextDirtyRun finds the first dirty page at or after idx and before end that is not under
// writeback, and the run of such pages after it that is contiguous on the device, at most
// limit pages and MaxBio long.
func (c *Cache) nextDirtyRun(f *File, idx, end, limit int64) (first, n int64) {
	if f.nrDirty == 0 {
		return 0, 0
	}
	idx = max(idx, f.dirtyLo)
	end = min(end, f.dirtyHi+1)
	maxPages := min(limit, int64(c.spec.Writeback.MaxBio/PageSize))
	for ; idx < end; idx++ {
		if c.writable(f, idx) {
			break
		}
	}
	if idx >= end {
		return 0, 0
	}
	first = idx
	_, run := f.devRun(first)
	lim := min(first+maxPages, end)
	for idx = first; idx < lim; idx++ {
		if idx-first == run {
			// Crossing into the next extent: continue only if it is contiguous on the device.
			d0, _ := f.devRun(first)
			d1, r1 := f.devRun(idx)
			if d1 != d0+run {
				break
			}
			run += r1
		}
		if !c.writable(f, idx) {
			break
		}
	}
	return first, idx - first
}

// writable reports whether page idx of f is dirty and not under writeback.
func (c *Cache) writable(f *File, idx int64) bool {
	fr := f.pages[idx]
	return fr != noFrame && c.mem.frames[fr].flags&(pgDirty|pgWriteback) == pgDirty
}

// startWrite moves the pages [first, first+n) from dirty to writeback
// (clear_page_dirty_for_io, set_page_writeback) and prepares their write bio.
func (c *Cache) startWrite(f *File, first, n int64, kind reqKind, t *Task) *req {
	for idx := first; idx < first+n; idx++ {
		fm := &c.mem.frames[f.pages[idx]]
		fm.flags = fm.flags&^pgDirty | pgWriteback
	}
	c.nrDirty -= n
	f.nrDirty -= n
	c.nrWriteback += n
	f.nrWriteback += n
	dev, _ := f.devRun(first)
	r := c.newReq(kind, blk.OpWrite, f, first, n, t)
	c.tagWrite(r, f)
	r.bio.Offset = dev * PageSize
	r.bio.Size = n * PageSize
	r.bio.Sync = kind == reqSyncWrite
	return r
}

// bandwidthEstimateStart is wb_bandwidth_estimate_start: when writeback starts after more
// than a second with nothing under writeback, the bandwidth stamps restart now, so idle time
// does not count as slow writing.
func (c *Cache) bandwidthEstimateStart() {
	wb := &c.wb
	now := c.eng.Now()
	if now-wb.bwStamp > hz*jiffy && c.nrWriteback == 0 {
		wb.bwStamp = now
		wb.writtenStamp = wb.written
	}
}

// updateBandwidth is __wb_update_bandwidth, run at most every BANDWIDTH_INTERVAL (200 ms):
//   - write_bandwidth and avg_write_bandwidth from the pages written since the last update
//     (wb_update_write_bandwidth, exact);
//   - dirty_ratelimit: SIMPLIFIED. Linux estimates the balanced rate
//     task_ratelimit·write_bw/dirty_rate and steps dirty_ratelimit towards it; the model sets
//     it to that estimator's fixed point, avg_write_bandwidth/N, N being the number of tasks
//     that dirtied pages during the interval (at least 1), so N dirtiers together dirty at the
//     device's write bandwidth when dirty pages sit at the setpoint;
//   - the domain's dirty_limit (update_dirty_limit, exact).
func (c *Cache) updateBandwidth() {
	wb := &c.wb
	now := c.eng.Now()
	elapsed := now - wb.bwStamp
	if elapsed < bandwidthInterval {
		return
	}
	written := wb.written - wb.writtenStamp
	if written > 0 || c.nrWriteback > 0 {
		wb.writeBW, wb.avgWriteBW = updateWriteBandwidth(wb.writeBW, wb.avgWriteBW, written, int64(elapsed/jiffy))
	}
	wb.dirtyRatelimit = max(wb.avgWriteBW/max(wb.dirtiers, 1), 1)
	wb.gen++
	wb.dirtiers = 0
	thresh, _, _ := c.Thresholds()
	wb.dirtyLimit = updateDirtyLimit(wb.dirtyLimit, thresh, c.nrDirty+c.nrWriteback)
	wb.bwStamp = now
	wb.writtenStamp = wb.written
}
