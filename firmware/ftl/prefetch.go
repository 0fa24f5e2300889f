package ftl

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/internal/prefetch"
)

// PrefetchMapping asks the CPU to bring lpn's mapping-table entry into the cache ahead of
// a lookup or a write of it (the table is far larger than the cache, so each access to a
// random page misses). Out-of-range pages are ignored. It changes nothing.
func (f *FTL) PrefetchMapping(lpn int64) {
	if lpn >= 0 && lpn < int64(len(f.l2p)) {
		prefetch.Line(unsafe.Pointer(&f.l2p[lpn]))
	}
}

// PrefetchRebind asks the CPU to bring in what a write of lpn will update besides its
// mapping entry, which should be in the cache already (PrefetchMapping): the reverse-map
// entry and the block record of its current page. It changes nothing.
func (f *FTL) PrefetchRebind(lpn int64) {
	if lpn < 0 || lpn >= int64(len(f.l2p)) {
		return
	}
	if old := f.l2p.at(lpn); old != NoUnit {
		prefetch.Line(unsafe.Pointer(&f.p2l[old]))
		prefetch.Line(unsafe.Pointer(&f.blocks[f.g.BlockOf(f.PageOf(old))]))
	}
}
