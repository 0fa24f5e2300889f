package sim

import "unsafe"

// ResourceBytes returns the heap one Resource with activities registered activities takes:
// at build (the struct, its name and activity tables) and at most once a Followed
// resource's log of recorded intervals has been allocated (keptIntervals of them, on its
// first booking; it grows only while intervals are booked ahead, which models keep to a
// queue's worth). Activity names are counted at 16 bytes each, a typical short name.
func ResourceBytes(activities int) (build, peak int64) {
	n := int64(activities + 1) // "idle" too
	build = int64(unsafe.Sizeof(Resource{})) +
		n*int64(unsafe.Sizeof("")) + n*16 + // names
		n*int64(unsafe.Sizeof(Time(0))) // busy
	return build, build + keptIntervals*int64(unsafe.Sizeof(interval{}))
}

// OSPageBytes is the operating system's page: a process's memory is resident in whole
// pages, and a page of a zeroed allocation only once it is first written (Go takes large
// allocations from fresh, zeroed memory of the operating system).
const OSPageBytes = 4096

// Touched returns b bytes rounded up to whole operating-system pages: what a contiguous
// range of b written bytes holds in memory.
func Touched(b int64) int64 {
	if b <= 0 {
		return 0
	}
	return (b + OSPageBytes - 1) / OSPageBytes * OSPageBytes
}

// largeObject is the size past which Go gives an allocation runtime pages of its own; a
// smaller one shares its pages with other small objects, which keep them in memory.
const largeObject = 32 << 10

// Resident returns what an allocation of size bytes, of which the first written bytes have
// been written and the rest are zeros, holds in memory: all of it if it is small (its pages
// are shared), else the written bytes' pages (Touched).
func Resident(size, written int64) int64 {
	if size <= largeObject {
		return size
	}
	return min(size, Touched(written))
}

// AppendBytes returns the bytes of the backing array of a slice of elem-byte elements
// grown to n elements one append at a time: Go's growth (runtime/slice.go nextslicecap:
// double below 256 elements, then by a quarter plus 192), each array rounded up to whole
// 8 KiB runtime pages once it is past the small size classes. The arrays it outgrew are
// garbage, in memory until a collection; this counts the last one.
func AppendBytes(n, elem int64) int64 {
	last, _ := appendGrowth(n, elem)
	return last
}

// AppendAllBytes is AppendBytes with the arrays the slice outgrew on the way: what growing
// it takes from the operating system when no collection frees them in between, as in a run
// whose models' large, mostly untouched tables put the next collection far off (Go
// collects when the heap doubles, and counts those tables whole).
func AppendAllBytes(n, elem int64) int64 {
	_, all := appendGrowth(n, elem)
	return all
}

// appendGrowth returns the last and the summed bytes of the backing arrays of a slice of
// elem-byte elements grown to n elements one append at a time.
func appendGrowth(n, elem int64) (last, all int64) {
	const threshold, runtimePage = 256, 8192
	var c, b int64
	for c < n {
		nc := c + c
		if c+1 > nc {
			nc = c + 1
		} else if c >= threshold {
			nc = c
			for nc < c+1 {
				nc += (nc + 3*threshold) >> 2
			}
		}
		b = nc * elem
		if b > largeObject {
			b = (b + runtimePage - 1) / runtimePage * runtimePage
		}
		c = b / elem
		all += b
	}
	return b, all
}
