// Package ftl is the flash translation layer of fastdrain's SSD firmware: page-level
// mapping (LPN → PPN) with its reverse map, per-block state (next free page, valid and
// wasted counts, erase counts), the block allocators — sequential, skip-to-lsb (the prior
// work FastDrain compares with) and latency-aware (FD-FTL) — garbage-collection victim
// selection (greedy and cost-benefit), trim, fast preconditioning, and an invariant checker.
//
// The allocator and the victim policy are seams: interfaces (Allocator, VictimPolicy)
// whose implementations register under a name (RegisterAllocator, RegisterVictimPolicy),
// the name the configuration's ftl.allocator and ftl.gc_victim hold; the built-ins register
// themselves the same way. An allocator works through a Space (open a block, take or skip
// its next page), a victim policy through a read-only View. Optional capabilities:
// Preconditioner (a closed form of the allocator's background writes, for fast
// preconditioning) and Checker (invariants of a policy's own state, part of Check).
// docs/firmware.md ("FTL seams") describes them; examples/custompolicy registers an
// allocator from outside the module's firmware.
//
// It is pure bookkeeping with no notion of time: the firmware's processes (buffer manager,
// GC task, flash scheduler) call it when they decide where a page goes and when a flash
// operation is issued, and charge controller cycles for each call. Keeping it free of timing
// is what lets the same logic be reviewed as firmware and checked exhaustively in tests.
//
// Memory per physical mapping unit is 4 bytes of reverse map; per logical page 4 bytes of
// map; per block a few words (docs/design.md "FTL"; issue 3 asks for ≤ 8 bytes per 4 KiB physical
// page). A physical page holds Geometry.UnitsPerPage units (sub-page mapping: 4 KiB units in
// 8 or 16 KiB pages; one by default): the map and reverse map are per 4 KiB unit, the
// allocators place pages, GC packs valid units into pages (docs/firmware.md).
package ftl
