package pagecache

// Page flags, kept in a frame.
const (
	pgDirty     uint8 = 1 << iota // PG_dirty: counted in NR_FILE_DIRTY
	pgWriteback                   // PG_writeback: counted in NR_WRITEBACK
	pgLocked                      // PG_locked, not uptodate: a read is in flight
	pgReadahead                   // PG_readahead: reaching it starts asynchronous read-ahead
	pgOnLRU                       // on the clean LRU list
)

// noFrame marks an empty link or an absent page.
const noFrame int32 = -1

// frame is one page of memory holding one file page. Frames live in one flat slice, so the
// page cache allocates nothing per page in steady state.
type frame struct {
	file       int32  // inode number
	index      uint32 // page index in the file
	prev, next int32  // clean-LRU links
	flags      uint8
}

// frameTable is the memory available to the page cache and its reclaim list. Linux keeps
// active and inactive file LRUs and rotates dirty pages found by reclaim; the model keeps
// one LRU of clean, unlocked pages only (a page leaves it when it is dirtied or locked and
// re-enters at the most-recently-used end when it becomes clean again), so reclaim takes
// the least recently used clean page in O(1).
type frameTable struct {
	frames   []frame
	capacity int     // frames the page cache may use: (Memory − Reserved)/4 KiB
	free     []int32 // frames released by unlink, reused first
	lruHead  int32   // least recently used clean page
	lruTail  int32
	lruLen   int
}

// newFrameTable allocates the table at its capacity at once: the operating system gives
// its pages memory only as frames are first taken, and growing it by appending instead
// left the outgrown copies in memory until a collection, which the models' large
// allocated-but-untouched tables put off (issue 38: 2–5 times the table's size).
func newFrameTable(capacity int) frameTable {
	return frameTable{frames: make([]frame, 0, capacity), capacity: capacity, lruHead: noFrame, lruTail: noFrame}
}

// used returns how many frames hold file pages (NR_FILE_PAGES).
func (ft *frameTable) used() int { return len(ft.frames) - len(ft.free) }

// take returns a never-used or released frame, or noFrame if memory is full.
func (ft *frameTable) take() int32 {
	if n := len(ft.free); n > 0 {
		fr := ft.free[n-1]
		ft.free = ft.free[:n-1]
		return fr
	}
	if len(ft.frames) < ft.capacity {
		ft.frames = append(ft.frames, frame{})
		return int32(len(ft.frames) - 1)
	}
	return noFrame
}

// release returns a frame (already off the LRU) to the free list.
func (ft *frameTable) release(fr int32) {
	ft.frames[fr] = frame{file: -1}
	ft.free = append(ft.free, fr)
}

// lruAdd puts a clean page at the most-recently-used end.
func (ft *frameTable) lruAdd(fr int32) {
	f := &ft.frames[fr]
	f.flags |= pgOnLRU
	f.prev, f.next = ft.lruTail, noFrame
	if ft.lruTail != noFrame {
		ft.frames[ft.lruTail].next = fr
	} else {
		ft.lruHead = fr
	}
	ft.lruTail = fr
	ft.lruLen++
}

// lruDel takes a page off the LRU if it is on it.
func (ft *frameTable) lruDel(fr int32) {
	f := &ft.frames[fr]
	if f.flags&pgOnLRU == 0 {
		return
	}
	if f.prev != noFrame {
		ft.frames[f.prev].next = f.next
	} else {
		ft.lruHead = f.next
	}
	if f.next != noFrame {
		ft.frames[f.next].prev = f.prev
	} else {
		ft.lruTail = f.prev
	}
	f.prev, f.next = noFrame, noFrame
	f.flags &^= pgOnLRU
	ft.lruLen--
}

// lruTouch marks a clean page as just used.
func (ft *frameTable) lruTouch(fr int32) {
	if ft.frames[fr].flags&pgOnLRU == 0 || ft.lruTail == fr {
		return
	}
	ft.lruDel(fr)
	ft.lruAdd(fr)
}
