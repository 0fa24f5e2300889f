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

// PrefetchVictims readies the cache for the next evictions: it returns the LPN of the next
// victim (the oldest dirty page), whose mapping the caller may prefetch, and asks the CPU
// to bring in the entry of the victim after it. It changes nothing.
func (b *Buffer) PrefetchVictims() (next int64, ok bool) {
	t := b.dirty.tail
	if t == nilSlot {
		return 0, false
	}
	e := &b.slots[t]
	if e.prev != nilSlot {
		prefetch.Line(unsafe.Pointer(&b.slots[e.prev]))
	}
	return e.lpn, true
}
