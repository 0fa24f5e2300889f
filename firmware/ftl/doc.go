// Package ftl is the flash translation layer of fastdrain's SSD firmware: page-level
// mapping (LPN → PPN) with its reverse map, per-block state (next free page, valid and
// wasted counts, erase counts), the block allocators — sequential, skip-to-lsb (the prior
// work FastDrain compares with) and latency-aware (FD-FTL) — garbage-collection victim
// selection (greedy and cost-benefit), trim, fast preconditioning, and an invariant checker.
//
// It is pure bookkeeping with no notion of time: the firmware's processes (buffer manager,
// GC task, flash scheduler) call it when they decide where a page goes and when a flash
// operation is issued, and charge controller cycles for each call. Keeping it free of timing
// is what lets the same logic be reviewed as firmware and checked exhaustively in tests.
//
// Memory per physical page is 4 bytes of reverse map; per logical page 4 bytes of map; per
// block a few words (DESIGN.md "FTL"; issue 3 asks for ≤ 8 bytes per 4 KiB physical page).
package ftl
