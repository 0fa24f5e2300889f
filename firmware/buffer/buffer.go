package buffer

import "fmt"

// Order is the replacement order of buffered pages.
type Order uint8

// Orders.
const (
	// LRU evicts the least recently used page; reads and writes refresh a page's position.
	LRU Order = iota
	// FIFO evicts the page written longest ago; reads do not refresh.
	FIFO
)

// ParseOrder parses "lru" or "fifo".
func ParseOrder(s string) (Order, error) {
	switch s {
	case "lru":
		return LRU, nil
	case "fifo":
		return FIFO, nil
	}
	return 0, fmt.Errorf("buffer order %q: want lru or fifo", s)
}

// String returns "lru" or "fifo".
func (o Order) String() string {
	if o == FIFO {
		return "fifo"
	}
	return "lru"
}

// State is the state of a buffered page.
type State uint8

// Page states.
const (
	// Free slot.
	Free State = iota
	// Dirty: holds data not yet on flash.
	Dirty
	// Evicting: a flash program of this page is in flight; the page still serves reads.
	Evicting
	// Clean: the data is on flash too; the slot can be reused at once.
	Clean
)

const nilSlot = -1

type entry struct {
	lpn        int64
	version    uint64 // data version stamp of the latest write
	evicting   uint64 // version being programmed, while state is Evicting
	state      State
	redirtied  bool // written again while its eviction was in flight
	prev, next int32
}

// list is an intrusive doubly linked list of slots; head is the most recent.
type list struct {
	head, tail int32
	n          int
}

// Victim is a page handed out for eviction.
type Victim struct {
	LPN     int64
	Version uint64
	Slot    int32
}

// Buffer tracks the pages held in the DRAM write buffer. Capacity 0 means unbounded (the
// oracle policies' buffer, the paper's Fig. 2b).
type Buffer struct {
	capacity int
	order    Order
	slots    []entry
	freeList []int32
	index    lpnIndex
	dirty    list // dirty pages, most recent first
	clean    list // clean pages, most recent first
	evicting int
	Stats    Stats
}

// Stats are cumulative buffer counters.
type Stats struct {
	Writes, Overwrites    int64 // page writes; those that hit a page already buffered
	ReadHits, ReadMisses  int64
	Evicted               int64 // eviction programs completed
	Reclaimed             int64 // clean pages dropped to make room
	PeakOccupancy         int
	Invalidated           int64 // pages dropped by trim
	RedirtiedWhileEvicted int64
}

// New returns an empty buffer of capacity pages (0 = unbounded).
func New(capacity int, order Order) *Buffer {
	if capacity < 0 {
		panic("buffer: negative capacity")
	}
	b := &Buffer{capacity: capacity, order: order, index: newLPNIndex(capacity)}
	b.dirty = list{nilSlot, nilSlot, 0}
	b.clean = list{nilSlot, nilSlot, 0}
	if capacity > 0 {
		b.slots = make([]entry, capacity)
		b.freeList = make([]int32, capacity)
		for i := range b.freeList {
			b.freeList[i] = int32(capacity - 1 - i)
		}
	}
	return b
}

// Capacity returns the capacity in pages (0 = unbounded).
func (b *Buffer) Capacity() int { return b.capacity }

// Occupancy returns the pages that cannot be reused without a flash program: dirty plus
// being evicted.
func (b *Buffer) Occupancy() int { return b.dirty.n + b.evicting }

// Dirty returns the number of dirty pages (not counting those being evicted).
func (b *Buffer) Dirty() int { return b.dirty.n }

// Evicting returns the number of pages whose eviction is in flight.
func (b *Buffer) Evicting() int { return b.evicting }

// Clean returns the number of clean pages held for read hits.
func (b *Buffer) Clean() int { return b.clean.n }

// Room returns how many new pages can be written without waiting for an eviction.
func (b *Buffer) Room() int {
	if b.capacity == 0 {
		return int(^uint(0) >> 1)
	}
	return b.capacity - b.Occupancy()
}

// Contains reports whether lpn is buffered and its state.
func (b *Buffer) Contains(lpn int64) (State, bool) {
	s, ok := b.index.get(lpn)
	if !ok {
		return Free, false
	}
	return b.slots[s].state, true
}

// Read looks lpn up for a host read: on a hit it returns the buffered version and, in LRU
// order, makes the page most recent.
func (b *Buffer) Read(lpn int64) (version uint64, hit bool) {
	s, ok := b.index.get(lpn)
	if !ok {
		b.Stats.ReadMisses++
		return 0, false
	}
	b.Stats.ReadHits++
	e := &b.slots[s]
	if b.order == LRU {
		switch e.state {
		case Dirty:
			b.unlink(&b.dirty, s)
			b.pushFront(&b.dirty, s)
		case Clean:
			b.unlink(&b.clean, s)
			b.pushFront(&b.clean, s)
		}
	}
	return e.version, true
}

// Write stores version of lpn in the buffer as dirty. It fails (false) only when the page
// is not buffered and there is no room; the caller then waits for an eviction.
func (b *Buffer) Write(lpn int64, version uint64) bool {
	b.Stats.Writes++
	if s, ok := b.index.get(lpn); ok {
		b.Stats.Overwrites++
		e := &b.slots[s]
		e.version = version
		switch e.state {
		case Dirty:
			if b.order == LRU {
				b.unlink(&b.dirty, s)
				b.pushFront(&b.dirty, s)
			}
		case Clean:
			if b.Room() == 0 {
				// Turning a clean page dirty takes a slot of occupancy.
				b.Stats.Writes--
				b.Stats.Overwrites--
				return false
			}
			b.unlink(&b.clean, s)
			e.state = Dirty
			b.pushFront(&b.dirty, s)
		case Evicting:
			// The program in flight carries the old version; the page must be written again.
			e.redirtied = true
			b.Stats.RedirtiedWhileEvicted++
		}
		b.peak()
		return true
	}
	if b.Room() == 0 {
		b.Stats.Writes--
		return false
	}
	s := b.alloc()
	b.slots[s] = entry{lpn: lpn, version: version, state: Dirty}
	b.index.put(lpn, s)
	b.pushFront(&b.dirty, s)
	b.peak()
	return true
}

func (b *Buffer) peak() {
	if o := b.Occupancy(); o > b.Stats.PeakOccupancy {
		b.Stats.PeakOccupancy = o
	}
}

// alloc returns a free slot, reclaiming the least recent clean page if needed.
func (b *Buffer) alloc() int32 {
	if n := len(b.freeList); n > 0 {
		s := b.freeList[n-1]
		b.freeList = b.freeList[:n-1]
		return s
	}
	if b.capacity == 0 {
		b.slots = append(b.slots, entry{})
		return int32(len(b.slots) - 1)
	}
	s := b.clean.tail
	if s == nilSlot {
		panic("buffer: no free or clean slot although Room() > 0")
	}
	b.unlink(&b.clean, s)
	b.index.del(b.slots[s].lpn)
	b.Stats.Reclaimed++
	b.prefetchReclaim() // wall-clock only
	return s
}

// PickVictims hands out up to n of the oldest dirty pages for eviction, marking them
// Evicting, and appends them to dst.
func (b *Buffer) PickVictims(n int, dst []Victim) []Victim {
	for n > 0 && b.dirty.tail != nilSlot {
		s := b.dirty.tail
		b.unlink(&b.dirty, s)
		e := &b.slots[s]
		e.state = Evicting
		e.evicting = e.version
		e.redirtied = false
		b.evicting++
		dst = append(dst, Victim{LPN: e.lpn, Version: e.version, Slot: s})
		n--
	}
	return dst
}

// PickPage hands out the dirty page lpn for eviction out of age order, marking it
// Evicting as PickVictims does (a placement-aware evictor takes a younger page when the
// oldest cannot go where it is evicting). It reports false, changing nothing, when lpn is
// not dirty in the buffer.
func (b *Buffer) PickPage(lpn int64) (Victim, bool) {
	s, ok := b.index.get(lpn)
	if !ok {
		return Victim{}, false
	}
	e := &b.slots[s]
	if e.state != Dirty || e.lpn != lpn {
		return Victim{}, false
	}
	b.unlink(&b.dirty, s)
	e.state = Evicting
	e.evicting = e.version
	e.redirtied = false
	b.evicting++
	return Victim{LPN: e.lpn, Version: e.version, Slot: s}, true
}

// EvictDone records that the program of victim v finished. The page becomes clean unless
// it was written again meanwhile, in which case it is dirty (most recent) and will be
// evicted again. It reports whether the page became clean.
func (b *Buffer) EvictDone(v Victim) bool {
	e := &b.slots[v.Slot]
	// An entry invalidated while in flight stores −1−lpn.
	if e.state != Evicting || (e.lpn != v.LPN && e.lpn != -1-v.LPN) || e.evicting != v.Version {
		panic(fmt.Sprintf("buffer: eviction of lpn %d version %d completed but slot %d holds lpn %d in state %d",
			v.LPN, v.Version, v.Slot, e.lpn, e.state))
	}
	b.evicting--
	b.Stats.Evicted++
	if e.redirtied {
		e.state = Dirty
		e.redirtied = false
		b.pushFront(&b.dirty, v.Slot)
		return false
	}
	if e.lpn < 0 { // invalidated while in flight
		b.freeSlot(v.Slot)
		return true
	}
	e.state = Clean
	b.pushFront(&b.clean, v.Slot)
	return true
}

// EvictFailed records that the program of victim v failed and will not be retried: the
// page is dirty again (most recent), to be evicted again, unless it was invalidated while
// in flight (then it is dropped). It is not counted as evicted.
func (b *Buffer) EvictFailed(v Victim) {
	e := &b.slots[v.Slot]
	if e.state != Evicting || (e.lpn != v.LPN && e.lpn != -1-v.LPN) || e.evicting != v.Version {
		panic(fmt.Sprintf("buffer: eviction of lpn %d version %d failed but slot %d holds lpn %d in state %d",
			v.LPN, v.Version, v.Slot, e.lpn, e.state))
	}
	b.evicting--
	e.redirtied = false
	if e.lpn < 0 { // invalidated while in flight
		b.freeSlot(v.Slot)
		return
	}
	e.state = Dirty
	b.pushFront(&b.dirty, v.Slot)
}

// Invalidate drops lpn from the buffer (trim). A page being evicted is dropped when its
// program completes.
func (b *Buffer) Invalidate(lpn int64) {
	s, ok := b.index.get(lpn)
	if !ok {
		return
	}
	b.Stats.Invalidated++
	b.index.del(lpn)
	e := &b.slots[s]
	switch e.state {
	case Dirty:
		b.unlink(&b.dirty, s)
		b.freeSlot(s)
	case Clean:
		b.unlink(&b.clean, s)
		b.freeSlot(s)
	case Evicting:
		e.lpn = -1 - e.lpn // keep it distinguishable until EvictDone
		e.redirtied = false
	}
}

func (b *Buffer) freeSlot(s int32) {
	b.slots[s] = entry{state: Free}
	b.freeList = append(b.freeList, s)
}

func (b *Buffer) pushFront(l *list, s int32) {
	e := &b.slots[s]
	e.prev, e.next = nilSlot, l.head
	if l.head != nilSlot {
		b.slots[l.head].prev = s
	} else {
		l.tail = s
	}
	l.head = s
	l.n++
}

func (b *Buffer) unlink(l *list, s int32) {
	e := &b.slots[s]
	if e.prev != nilSlot {
		b.slots[e.prev].next = e.next
	} else {
		l.head = e.next
	}
	if e.next != nilSlot {
		b.slots[e.next].prev = e.prev
	} else {
		l.tail = e.prev
	}
	e.prev, e.next = nilSlot, nilSlot
	l.n--
}

// OldestN writes the logical pages of the len(dst) oldest dirty pages (fewer if there are
// fewer), oldest first, into dst and returns how many: the pages PickVictims(len(dst))
// would hand out, in its order, without marking them.
func (b *Buffer) OldestN(dst []int64) int {
	n := 0
	for s := b.dirty.tail; s != nilSlot && n < len(dst); s = b.slots[s].prev {
		dst[n] = b.slots[s].lpn
		n++
	}
	return n
}

// Oldest returns the dirty page PickVictims would hand out next, without marking it.
func (b *Buffer) Oldest() (lpn int64, ok bool) {
	if b.dirty.tail == nilSlot {
		return 0, false
	}
	return b.slots[b.dirty.tail].lpn, true
}

// Held calls fn for each logical page the buffer holds (dirty, being evicted or clean), in
// slot order. A page trimmed while its eviction was in flight is no longer held.
func (b *Buffer) Held(fn func(lpn int64)) {
	for s := range b.slots {
		e := &b.slots[s]
		if e.state == Free || e.lpn < 0 {
			continue
		}
		if i, ok := b.index.get(e.lpn); ok && int(i) == s {
			fn(e.lpn)
		}
	}
}
