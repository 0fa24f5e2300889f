package ftl

import "fmt"

// View is a policy's read-only window on an FTL: geometry, configuration and per-block
// state. It is a small value; copy it freely.
type View struct{ f *FTL }

// Geometry returns the array geometry.
func (v View) Geometry() Geometry { return v.f.g }

// Config returns the FTL's configuration.
func (v View) Config() Config { return v.f.cfg }

// Kind returns the kind of page index i within a block (0 ≤ i < PagesPerBlock).
func (v View) Kind(i int) PageKind { return v.f.kinds[i] }

// NextPage returns block b's next free page index (PagesPerBlock once it is full).
func (v View) NextPage(b BlockID) int { return int(v.f.blocks[b].next) }

// IsOpen reports whether block b has been opened and still has a free page.
func (v View) IsOpen(b BlockID) bool { return v.f.blocks[b].state == stOpen }

// IsFull reports whether every page of block b has been programmed or skipped.
func (v View) IsFull(b BlockID) bool { return v.f.blocks[b].state == stFull }

// Reclaimable reports whether block b is a GC candidate: full, and its valid units fill
// fewer pages than it has, so moving them frees at least one page. With one unit a page
// that is a block with at least one page invalid or skipped. With k units a page, GC packs
// the units it moves k to a page, in batches that hold a whole number of pages, so v valid
// units take ⌈v / k⌉ pages: a block of 64 pages and k = 4 with 253 valid units would take
// ⌈253 / 4⌉ = 64 pages to free 64, and a die whose blocks are all like it would collect
// them for ever without gaining a page. It is a candidate only with at most 63 · 4 = 252.
func (v View) Reclaimable(b BlockID) bool {
	m := &v.f.blocks[b]
	return m.state == stFull && int(m.valid) <= (v.f.g.PagesPerBlock-1)*v.f.k && !v.f.zoneBlock(b)
}

// ValidCount returns the units of block b holding current data (pages, with one unit a
// page: Geometry.UnitsPerPage).
func (v View) ValidCount(b BlockID) int { return int(v.f.blocks[b].valid) }

// WastedCount returns the pages of block b an allocator skipped (Space.Skip).
func (v View) WastedCount(b BlockID) int { return int(v.f.blocks[b].wasted) }

// Written returns the allocation clock at block b's last program, in blocks' worth of
// pages allocated (the unit of Clock).
func (v View) Written(b BlockID) uint32 { return v.f.blocks[b].age }

// Clock returns the pages allocated so far (host and GC) divided by the pages per block:
// the clock Written is read on, so Clock() − Written(b) is block b's age.
func (v View) Clock() uint32 { return uint32(v.f.clock / uint64(v.f.g.PagesPerBlock)) }

// Lookup returns the physical unit holding lpn (its page, with one unit a page), or NoUnit.
func (v View) Lookup(lpn int64) Unit { return v.f.l2p.at(lpn) }

// FreeBlocks returns the free blocks of a plane (the GC reserve included).
func (v View) FreeBlocks(die, plane int) int { return v.f.planes[die*v.f.g.Planes+plane].freeN }

// SkipBlocks returns the blocks of die holding pages an allocator skipped, until GC erases
// them (what ftl.lsb_only_blocks bounds).
func (v View) SkipBlocks(die int) int { return v.f.dies[die].lsbOnly }

// PlaneBlocks returns the first block of plane (die, plane) and its number of blocks:
// the plane's blocks are first, first+1, … first+n−1.
func (v View) PlaneBlocks(die, plane int) (first BlockID, n int) {
	return BlockID((die*v.f.g.Planes + plane) * v.f.g.BlocksPerPlane), v.f.g.BlocksPerPlane
}

// Space is an allocator's handle on an FTL: the View plus the operations that consume
// flash — open a free block, take a block's next page, skip one. Pages are taken in order
// within a block (NAND programs a block's pages in order), which Take and Skip enforce by
// construction.
type Space struct{ View }

// OpenBlock takes the next free block of plane (die, plane) for host writes and returns
// it, or false when only the GC reserve (ftl.gc_reserve) is left on the plane. Blocks come
// off the plane's free list oldest-erased first, which spreads wear.
func (s Space) OpenBlock(die, plane int) (BlockID, bool) {
	return s.f.openBlock(die*s.f.g.Planes+plane, false)
}

// Take consumes the next free page of open block b and returns it; the block becomes full
// with its last page. Taking from a block that is not open is a programming error and
// panics.
func (s Space) Take(b BlockID) PPN {
	if s.f.blocks[b].state != stOpen {
		s.notOpen(b, "take a page of")
	}
	return s.f.take(b)
}

// Skip marks the next free page of open block b wasted (not programmed, unusable until GC
// erases the block), as an allocator that wants a later page of b does. Skipping in a
// block that is not open panics.
func (s Space) Skip(b BlockID) {
	if s.f.blocks[b].state != stOpen {
		s.notOpen(b, "skip a page of")
	}
	s.f.skip(b)
}

// notOpen panics: the allocator used block b, which is not open.
func (s Space) notOpen(b BlockID, what string) {
	panic(fmt.Sprintf("ftl: allocator %q tried to %s block %d, which is not open", s.f.cfg.Allocator, what, b))
}

// LeftBehind records n CSB/MSB pages a foreground write left at the head of its block by
// taking the LSB page before them (Stats.LeftBehind); FilledBehind and SkippedBehind record
// one such page programmed or skipped later (Stats.BehindFilled, Stats.BehindSkipped).
func (s Space) LeftBehind(n int) { s.f.Stats.LeftBehind += int64(n) }

// FilledBehind records that a page left behind was programmed (Space.LeftBehind).
func (s Space) FilledBehind() { s.f.Stats.BehindFilled++ }

// SkippedBehind records that a page left behind was skipped (Space.LeftBehind).
func (s Space) SkippedBehind() { s.f.Stats.BehindSkipped++ }

// Bounded records that the current foreground allocation could not reach an LSB page
// within the allocator's bounds; if the page it returns is not LSB, Stats.FGBounded counts
// it.
func (s Space) Bounded() { s.f.bounded = true }
