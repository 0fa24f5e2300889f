package buffer

import "unsafe"

// MemoryBytes returns the heap a Buffer of capacity pages takes: its slots, free list and
// LPN index (cells for twice the capacity, rounded up to a power of two). For an unbounded
// buffer (capacity 0) pass the most pages it can come to hold, the logical pages: its
// slots and index grow by doubling, so the figure is what holding that many needs, up to
// the slack of the last doubling, which is counted too (slot capacity rounded up to a power
// of two).
func MemoryBytes(capacity int, unbounded bool) int64 {
	slots := int64(capacity)
	if unbounded {
		slots = pow2(slots)
	}
	cells := pow2(max(16, 2*int64(capacity)))
	return int64(unsafe.Sizeof(Buffer{})) +
		slots*int64(unsafe.Sizeof(entry{})+unsafe.Sizeof(int32(0))) +
		cells*int64(unsafe.Sizeof(cell{}))
}

// pow2 returns the least power of two at or above n (1 for n ≤ 1).
func pow2(n int64) int64 {
	p := int64(1)
	for p < n {
		p *= 2
	}
	return p
}
