package buffer

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/internal/prefetch"
)

// PrefetchIndex asks the CPU to bring the LPN index cell where a lookup of lpn starts into
// the cache ahead of the lookup. It changes nothing.
func (b *Buffer) PrefetchIndex(lpn int64) {
	prefetch.Line(unsafe.Pointer(&b.index.cells[b.index.home(lpn)]))
}

// NextVictims readies the cache for the next evictions, a pipeline called once per
// eviction: it returns how many of the next two victims (the oldest dirty pages) there are
// and their LPNs, and asks the CPU to bring in the entry of the third (the second's entry
// was brought in by the previous call). It changes nothing.
func (b *Buffer) NextVictims() (lpn1, lpn2 int64, n int) {
	t := b.dirty.tail
	if t == nilSlot {
		return 0, 0, 0
	}
	e1 := &b.slots[t]
	if e1.prev == nilSlot {
		return e1.lpn, 0, 1
	}
	e2 := &b.slots[e1.prev]
	if e2.prev != nilSlot {
		prefetch.Line(unsafe.Pointer(&b.slots[e2.prev]))
	}
	return e1.lpn, e2.lpn, 2
}

// prefetchReclaim readies the cache for the next reclaims of clean slots (alloc), a
// pipeline called once per reclaim: the LPN index cell of the oldest clean page (whose
// entry the previous call brought in) and the entry of the one after it.
func (b *Buffer) prefetchReclaim() {
	t := b.clean.tail
	if t == nilSlot {
		return
	}
	e := &b.slots[t]
	b.PrefetchIndex(e.lpn)
	if e.prev != nilSlot {
		prefetch.Line(unsafe.Pointer(&b.slots[e.prev]))
	}
}
