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
