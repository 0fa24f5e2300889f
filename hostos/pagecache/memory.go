package pagecache

import "unsafe"

// MemoryBytes returns the most heap the page cache of spec takes while files on a device
// of devicePages 4 KiB pages are used: a frame record per page of memory it may cache,
// (Memory − Reserved) / 4 KiB of them (the frame table grows to that as pages are cached,
// by appending, whose last doubling is counted), and each file's page table, 4 bytes a
// file page, for files that together span at most the device. The cached data itself is
// not held: the model keeps no page contents.
func (s Spec) MemoryBytes(devicePages int64) int64 {
	frames := int64(s.Memory-s.Reserved) / PageSize
	if frames < 0 {
		frames = 0
	}
	return int64(unsafe.Sizeof(Cache{})) +
		pow2(frames)*int64(unsafe.Sizeof(frame{})) +
		devicePages*int64(unsafe.Sizeof(int32(0)))
}

// pow2 returns the least power of two at or above n (1 for n ≤ 1).
func pow2(n int64) int64 {
	p := int64(1)
	for p < n {
		p *= 2
	}
	return p
}
