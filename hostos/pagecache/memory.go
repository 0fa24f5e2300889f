package pagecache

import (
	"unsafe"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// MemoryBytes returns the most memory the page cache of spec takes while files on a device
// of devicePages 4 KiB pages are used: a frame record per page of memory it may cache,
// (Memory − Reserved) / 4 KiB of them, in a table allocated at that size (newFrameTable),
// and the files' page tables, 4 bytes a cached file page, for as many file pages as the
// cache holds (a run's files may span the whole device, but their page tables grow only
// where pages are cached), grown by appending with the arrays they outgrew
// (sim.AppendAllBytes: a run's large, mostly untouched tables put off the collection that
// would free them). The cached data itself is not held: the model keeps no page contents.
func (s Spec) MemoryBytes(devicePages int64) int64 {
	frames := max(0, int64(s.Memory-s.Reserved)/PageSize)
	return int64(unsafe.Sizeof(Cache{})) +
		frames*int64(unsafe.Sizeof(frame{})) +
		sim.AppendAllBytes(min(frames, devicePages), int64(unsafe.Sizeof(int32(0))))
}
