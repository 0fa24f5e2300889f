package pagecache

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
)

// sectorSize is the logical block size O_DIRECT offsets and lengths must be multiples of.
const sectorSize = 512

// Create makes an empty file called name (open with O_CREAT|O_EXCL), charging one syscall.
func (c *Cache) Create(t *Task, name string) (*File, error) {
	t.compute(c.spec.CPU.SyscallCycles)
	if c.byName[name] != nil {
		return nil, fmt.Errorf("pagecache: create %q: file exists", name)
	}
	f := &File{c: c, ino: int32(len(c.files)), name: name}
	f.ra.prev = -1
	c.files = append(c.files, f)
	c.byName[name] = f
	return f, nil
}

// Fallocate gives f device space for size bytes and extends it to that size without I/O or
// CPU cost (set-up of files for direct I/O and read workloads; the content is whatever the
// device holds).
func (c *Cache) Fallocate(f *File, size int64) error {
	if f.unlinked {
		return ErrUnlinked
	}
	if size <= f.size {
		return nil
	}
	if !f.allocate(&c.space, (size-1)/PageSize) {
		return ErrNoSpace
	}
	f.size = size
	return nil
}

// Unlink removes f: it waits for the file's reads and writeback in flight, drops its cached
// pages (dirty pages are discarded unwritten, as truncate does), trims its extents with
// discard bios and waits for them, and frees its space. A discard the device fails (a
// read-only drive refuses them) does not fail the unlink: a file system issues its
// discards as advice and only logs their errors (ext4's ext4_issue_discard under the
// discard mount option), so the file is gone either way.
func (c *Cache) Unlink(t *Task, f *File) error {
	if f.unlinked {
		return ErrUnlinked
	}
	t.compute(c.spec.CPU.SyscallCycles)
	f.unlinked = true
	delete(c.byName, f.name)
	if f.list != nil {
		f.list.remove(f)
	}
	for f.nrWriteback > 0 || f.nrLocked > 0 {
		if f.nrWriteback > 0 {
			t.Proc.Wait(&f.wbWait)
		} else {
			t.Proc.Wait(&f.readWait)
		}
	}
	for idx := range int64(len(f.pages)) {
		if f.pages[idx] != noFrame {
			c.dropPage(f, idx)
		}
	}
	f.pages = nil
	for _, e := range f.ext {
		r := c.newReq(reqDiscard, blk.OpDiscard, f, 0, 0, t)
		r.bio.Offset = e.devPage * PageSize
		r.bio.Size = e.n * PageSize
		c.submit(r)
	}
	_ = t.wait() // a failed discard is the device's business (above)
	for _, e := range f.ext {
		c.space.release(e.devPage, e.n)
	}
	f.ext, f.allocated = nil, 0
	c.files[f.ino] = nil
	return nil
}

// Fsync is fsync(2) (docs/sources.md §5.3: file_write_and_wait_range with WB_SYNC_ALL, then
// blkdev_issue_flush): it writes every dirty page of the file that is not under writeback,
// waits until no page of the file is under writeback, writes the pages that were redirtied
// under writeback, waits again, and then issues a cache flush and waits for it. It returns
// the first I/O error, including one from earlier background writeback of the file.
func (c *Cache) Fsync(t *Task, f *File) error {
	if f.unlinked {
		return ErrUnlinked
	}
	t.compute(c.spec.CPU.SyscallCycles)
	t0 := c.eng.Now()
	if f.nrWriteback > 0 {
		c.stats.FsyncInherited++
	}
	c.writeAndWait(t, f, 0, int64(len(f.pages)))
	err := t.wait()
	t1 := c.eng.Now()
	c.stats.FsyncData.Record(int64(t1 - t0))
	r := c.newReq(reqFlush, blk.OpFlush, nil, 0, 0, t)
	r.bio.Sync = true
	c.submit(r)
	if ferr := t.wait(); err == nil {
		err = ferr
	}
	c.stats.FsyncFlush.Record(int64(c.eng.Now() - t1))
	if f.err != nil {
		if err == nil {
			err = f.err
		}
		f.err = nil
	}
	return err
}

// writeAndWait writes the dirty pages of [lo, hi) as synchronous bios and waits until the
// file has no page under writeback, twice, so pages redirtied while under writeback are
// written too (the WB_SYNC_ALL data-integrity pass).
func (c *Cache) writeAndWait(t *Task, f *File, lo, hi int64) {
	c.bandwidthEstimateStart()
	for round := 0; round < 2; round++ {
		idx := lo
		for {
			first, n := c.nextDirtyRun(f, idx, hi, hi-idx)
			if n == 0 {
				break
			}
			r := c.startWrite(f, first, n, reqSyncWrite, t)
			c.stats.PagesSynced += n
			if c.high {
				c.stats.SyncedHigh += n
			}
			c.submit(r)
			idx = first + n
		}
		for f.nrWriteback > 0 {
			t.Proc.Wait(&f.wbWait)
		}
		if f.nrDirty == 0 {
			break
		}
	}
	if f.nrDirty == 0 && f.list != nil {
		// The inode is clean: take it off the flusher's lists, as writeback_single_inode
		// in the fsync path does, so the periodic flusher stops when nothing is dirty.
		f.list.remove(f)
	}
}

// checkDirect validates an O_DIRECT request: offset and length multiples of 512 bytes.
func checkDirect(f *File, off, n int64) error {
	if err := checkRange(f, off, n); err != nil {
		return err
	}
	if off%sectorSize != 0 || n%sectorSize != 0 {
		return fmt.Errorf("pagecache: O_DIRECT on %s: offset %d and length %d must be multiples of %d", f.name, off, n, sectorSize)
	}
	return nil
}

// WriteDirect is an O_DIRECT|O_SYNC write(2): it allocates space, writes back and drops any
// cached pages of the range, then sends synchronous write bios (FUA if Spec.DirectFUA) of up
// to MaxBio bytes each, device-contiguous, and waits for all of them.
func (c *Cache) WriteDirect(t *Task, f *File, off, n int64) (int64, error) {
	if err := checkDirect(f, off, n); err != nil || n == 0 {
		return 0, err
	}
	t.compute(c.spec.CPU.SyscallCycles)
	first, last := off/PageSize, (off+n-1)/PageSize
	if !f.allocate(&c.space, last) {
		return 0, ErrNoSpace
	}
	c.invalidate(t, f, first, last+1)
	c.directBios(t, f, blk.OpWrite, off, n)
	if err := t.wait(); err != nil {
		return 0, err
	}
	f.size = max(f.size, off+n)
	return n, nil
}

// ReadDirect is an O_DIRECT read(2): it writes back dirty cached pages of the range, then
// reads straight from the device with synchronous bios and waits. A read past the end of
// the file is shortened to it (the I/O is rounded up to whole sectors).
func (c *Cache) ReadDirect(t *Task, f *File, off, n int64) (int64, error) {
	if err := checkDirect(f, off, n); err != nil {
		return 0, err
	}
	t.compute(c.spec.CPU.SyscallCycles)
	n = min(n, max(f.size-off, 0))
	if n == 0 {
		return 0, nil
	}
	if f.nrDirty > 0 {
		c.writeAndWait(t, f, off/PageSize, (off+n-1)/PageSize+1)
	}
	io := (n + sectorSize - 1) / sectorSize * sectorSize
	c.directBios(t, f, blk.OpRead, off, io)
	if err := t.wait(); err != nil {
		return 0, err
	}
	return n, nil
}

// directBios issues the bios of an O_DIRECT transfer, split at extent boundaries and MaxBio.
func (c *Cache) directBios(t *Task, f *File, op blk.Op, off, n int64) {
	maxBio := int64(c.spec.Writeback.MaxBio)
	for pos := off; pos < off+n; {
		dev, run := f.devRun(pos / PageSize)
		inPage := pos % PageSize
		size := min(off+n-pos, run*PageSize-inPage, maxBio)
		r := c.newReq(reqDirect, op, f, 0, 0, t)
		if op == blk.OpWrite {
			c.tagWrite(r, f) // iomap_dio_bio_iter: bi_write_hint = inode->i_write_hint
		}
		r.bio.Offset = dev*PageSize + inPage
		r.bio.Size = size
		r.bio.Sync = true
		r.bio.Idle = op == blk.OpWrite // O_DIRECT writes are REQ_SYNC|REQ_IDLE
		r.bio.FUA = op == blk.OpWrite && c.spec.DirectFUA
		c.submit(r)
		if op == blk.OpWrite {
			c.stats.DirectWriteBytes += size
		} else {
			c.stats.DirectReadBytes += size
		}
		pos += size
	}
}

// invalidate writes back and drops the cached pages of [lo, hi) before a direct write
// (filemap_write_and_wait_range + invalidate_inode_pages2_range). Pages with a read in
// flight are left alone.
func (c *Cache) invalidate(t *Task, f *File, lo, hi int64) {
	if f.nrCached == 0 {
		return
	}
	c.writeAndWait(t, f, lo, hi)
	hi = min(hi, int64(len(f.pages)))
	for idx := lo; idx < hi; idx++ {
		fr := f.pages[idx]
		if fr != noFrame && c.mem.frames[fr].flags&(pgDirty|pgWriteback|pgLocked) == 0 {
			c.dropPage(f, idx)
		}
	}
}

// FreeBytes returns the device space no file holds, in bytes.
func (c *Cache) FreeBytes() int64 {
	var n int64
	for _, r := range c.space.free {
		n += r.n
	}
	return n * PageSize
}

// Invalidate is posix_fadvise(POSIX_FADV_DONTNEED) over the whole file as fio's invalidate
// option uses it: it writes back the file's dirty pages and waits for them (the kernel only
// starts that writeback; waiting here lets every clean page go), then drops every cached
// page that no read holds. It charges one syscall.
func (c *Cache) Invalidate(t *Task, f *File) error {
	if f.unlinked {
		return ErrUnlinked
	}
	t.compute(c.spec.CPU.SyscallCycles)
	c.invalidate(t, f, 0, int64(len(f.pages)))
	return nil
}
