package die

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/internal/prefetch"
)

// Prefetch asks the CPU to bring the state a read of a will touch (the die's fields, the
// block's write pointer and stamp storage) into the cache ahead of the read; the firmware
// calls it when it queues the read. Out-of-range addresses are ignored. It changes nothing.
func (d *Die) Prefetch(a Addr) {
	if a.Plane < 0 || a.Plane >= d.spec.Planes || a.Block < 0 || a.Block >= d.spec.BlocksPerPlane {
		return
	}
	b := d.blockIndex(a.Plane, a.Block)
	prefetch.Line(unsafe.Pointer(&d.next[b]))
	prefetch.Line(unsafe.Pointer(&d.oob[b]))
}
