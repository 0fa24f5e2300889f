package prefetch

import "unsafe"

// Line asks the CPU to load the cache line holding addr into all cache levels (x86
// PREFETCHT0). It never faults.
//
//go:noescape
func Line(addr unsafe.Pointer)
