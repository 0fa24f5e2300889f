package sim

import "unsafe"

// ResourceBytes returns the heap one Resource with activities registered activities takes:
// at build (the struct, its name and activity tables) and at most once its ring of kept
// intervals has been allocated (keptIntervals of them, on its first booking; a Followed
// resource grows it only while intervals are booked ahead, which models keep to a queue's
// worth). Activity names are counted at 16 bytes each, a typical short name.
func ResourceBytes(activities int) (build, peak int64) {
	n := int64(activities + 1) // "idle" too
	build = int64(unsafe.Sizeof(Resource{})) +
		n*int64(unsafe.Sizeof("")) + n*16 + // names
		n*int64(unsafe.Sizeof(Time(0))) // busy
	return build, build + keptIntervals*int64(unsafe.Sizeof(interval{}))
}
