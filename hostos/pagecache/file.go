package pagecache

import (
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// File is one inode: its size, its cached pages, its place in the flusher's inode lists and
// its layout on the device.
type File struct {
	c    *Cache
	ino  int32
	name string
	size int64 // bytes

	pages       []int32 // page index → frame, noFrame if not cached
	nrCached    int64
	nrDirty     int64
	nrWriteback int64
	nrLocked    int64
	dirtyLo     int64 // all dirty pages lie in [dirtyLo, dirtyHi]; a bound, not exact
	dirtyHi     int64

	dirtiedWhen    sim.Time // time the inode went from clean to dirty (inode->dirtied_when)
	list           *inodeList
	lprev, lnext   *File
	writebackIndex int64 // range_cyclic position (mapping->writeback_index)

	ext       []extent // device layout, sorted by file page, covering [0, allocated)
	allocated int64    // pages with device space

	ra raState

	wbWait   sim.Signal // woken when the last page under writeback completes
	readWait sim.Signal // woken when a read of this file completes
	err      error      // writeback error, reported by the next fsync (AS_EIO)
	unlinked bool
	// writeHint is the inode's write-lifetime hint (i_write_hint, writehint.go).
	writeHint blk.WriteHint
}

// extent maps n file pages starting at filePage to device pages starting at devPage.
type extent struct {
	filePage, devPage, n int64
}

// Name returns the file's name.
func (f *File) Name() string { return f.name }

// Size returns the file's size in bytes.
func (f *File) Size() int64 { return f.size }

// CachedPages returns how many of the file's pages are in the page cache.
func (f *File) CachedPages() int64 { return f.nrCached }

// DirtyPages returns how many of the file's pages are dirty.
func (f *File) DirtyPages() int64 { return f.nrDirty }

// WritebackPages returns how many of the file's pages are under writeback.
func (f *File) WritebackPages() int64 { return f.nrWriteback }

// DirtiedWhen returns when the inode was last dirtied from clean (inode->dirtied_when).
func (f *File) DirtiedWhen() sim.Time { return f.dirtiedWhen }

// Extents returns the file's device layout as (device byte offset, bytes) pairs in file
// order.
func (f *File) Extents() [][2]int64 {
	out := make([][2]int64, len(f.ext))
	for i, e := range f.ext {
		out[i] = [2]int64{e.devPage * PageSize, e.n * PageSize}
	}
	return out
}

// frameOf returns the frame caching page idx, or noFrame.
func (f *File) frameOf(idx int64) int32 {
	if idx >= int64(len(f.pages)) {
		return noFrame
	}
	return f.pages[idx]
}

// setFrame records that page idx is cached in fr, growing the page table as needed.
func (f *File) setFrame(idx int64, fr int32) {
	for int64(len(f.pages)) <= idx {
		f.pages = append(f.pages, noFrame)
	}
	f.pages[idx] = fr
}

// noteDirty widens the dirty bound to include idx.
func (f *File) noteDirty(idx int64) {
	if f.nrDirty == 1 {
		f.dirtyLo, f.dirtyHi = idx, idx
		return
	}
	f.dirtyLo = min(f.dirtyLo, idx)
	f.dirtyHi = max(f.dirtyHi, idx)
}

// devRun returns the device page of file page idx and how many pages from idx on are
// device-contiguous within its extent. idx must be allocated.
func (f *File) devRun(idx int64) (dev, n int64) {
	lo, hi := 0, len(f.ext)
	for lo < hi {
		m := (lo + hi) / 2
		if f.ext[m].filePage+f.ext[m].n <= idx {
			lo = m + 1
		} else {
			hi = m
		}
	}
	e := f.ext[lo]
	return e.devPage + idx - e.filePage, e.filePage + e.n - idx
}

// inodeList is one of the flusher's intrusive inode lists (b_dirty, b_io, b_more_io), in
// order from oldest to newest.
type inodeList struct {
	head, tail *File
	n          int
}

func (l *inodeList) empty() bool { return l.head == nil }

func (l *inodeList) pushBack(f *File) {
	if f.list != nil {
		f.list.remove(f)
	}
	f.list = l
	f.lprev, f.lnext = l.tail, nil
	if l.tail != nil {
		l.tail.lnext = f
	} else {
		l.head = f
	}
	l.tail = f
	l.n++
}

func (l *inodeList) remove(f *File) {
	if f.lprev != nil {
		f.lprev.lnext = f.lnext
	} else {
		l.head = f.lnext
	}
	if f.lnext != nil {
		f.lnext.lprev = f.lprev
	} else {
		l.tail = f.lprev
	}
	f.lprev, f.lnext, f.list = nil, nil, nil
	l.n--
}

// spaceAllocator hands out device space in contiguous extents of 4 KiB pages. Free space
// is a sorted list of free runs; a file that grows is extended in place when the space just
// after its last extent is free, so sequential writes to a file produce sequential LBAs that
// the block layer can merge.
type spaceAllocator struct {
	free []extent // devPage, n; filePage unused; sorted by devPage, coalesced
}

func newSpaceAllocator(pages int64) spaceAllocator {
	return spaceAllocator{free: []extent{{devPage: 0, n: pages}}}
}

// alloc returns up to want pages, starting at hint if that is free, else from the first
// free run large enough, else from the largest run. n is 0 if the device is full.
func (s *spaceAllocator) alloc(want, hint int64) (start, n int64) {
	pick := -1
	for i, r := range s.free {
		if r.devPage == hint {
			pick = i
			break
		}
	}
	if pick < 0 {
		var best int64
		for i, r := range s.free {
			if r.n >= want {
				pick = i
				break
			}
			if r.n > best {
				pick, best = i, r.n
			}
		}
	}
	if pick < 0 {
		return 0, 0
	}
	r := &s.free[pick]
	start, n = r.devPage, min(want, r.n)
	r.devPage += n
	r.n -= n
	if r.n == 0 {
		s.free = append(s.free[:pick], s.free[pick+1:]...)
	}
	return start, n
}

// release returns [start, start+n) to the free list, merging neighbours.
func (s *spaceAllocator) release(start, n int64) {
	i := 0
	for i < len(s.free) && s.free[i].devPage < start {
		i++
	}
	s.free = append(s.free, extent{})
	copy(s.free[i+1:], s.free[i:])
	s.free[i] = extent{devPage: start, n: n}
	if i+1 < len(s.free) && s.free[i].devPage+s.free[i].n == s.free[i+1].devPage {
		s.free[i].n += s.free[i+1].n
		s.free = append(s.free[:i+1], s.free[i+2:]...)
	}
	if i > 0 && s.free[i-1].devPage+s.free[i-1].n == s.free[i].devPage {
		s.free[i-1].n += s.free[i].n
		s.free = append(s.free[:i], s.free[i+1:]...)
	}
}

// growChunk is the most a file's allocation grows by in one step beyond what a write needs:
// 2048 pages = 8 MiB, like an ext4 per-inode preallocation window.
const growChunk = 2048

// allocate gives the file device space up to page last (inclusive). Each step adds at least
// what is needed and, to keep a growing file contiguous, as much again as the file already
// has (doubling), capped at 8 MiB. It returns false if the device is full.
func (f *File) allocate(s *spaceAllocator, last int64) bool {
	for f.allocated <= last {
		need := last + 1 - f.allocated
		want := max(need, min(max(f.allocated, 1), growChunk))
		hint := int64(math.MinInt64)
		if k := len(f.ext); k > 0 {
			hint = f.ext[k-1].devPage + f.ext[k-1].n
		}
		start, n := s.alloc(want, hint)
		if n == 0 {
			return false
		}
		if k := len(f.ext); k > 0 && f.ext[k-1].devPage+f.ext[k-1].n == start {
			f.ext[k-1].n += n
		} else {
			f.ext = append(f.ext, extent{filePage: f.allocated, devPage: start, n: n})
		}
		f.allocated += n
	}
	return true
}
