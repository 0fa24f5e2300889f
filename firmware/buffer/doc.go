// Package buffer is the bookkeeping of the SSD's DRAM write buffer: which logical pages it
// holds, in what state (dirty, being evicted, clean), in LRU or FIFO order, and the
// occupancy and watermark level that the FastDrain status report carries to the host.
//
// It decides nothing about time. The firmware's buffer manager (package firmware) charges
// DRAM time for data moves, asks this package for eviction victims according to the policy
// (vanilla, fastdrain, oracle, oracle-bg) and issues the flash programs.
package buffer
