package ftl

// Reserved blocks: blocks the firmware takes out of allocation for an area of its own (the
// zone backup area, firmware/znsbackup.go). A reserved block is open (stOpen) but no
// write point names it, so no allocator places a page in it; it is never full (its pages
// are taken with ReservedTake only), so never a GC victim; it holds no valid page (its
// pages carry data the FTL does not map), so the invariants hold as for a padded block.
// The firmware erases it with Erase, which returns it to its plane's free list.

// ReserveBlock takes a free block of plane pi (die·Planes + plane) for the firmware's own
// use, and reports false if the plane has none. It takes from the GC reserve too: the
// caller sizes its area and takes its blocks at build, or right after erasing one.
func (f *FTL) ReserveBlock(pi int) (BlockID, bool) { return f.openAbove(pi, 0, false) }

// ReservedTake takes page idx of reserved block b for a program that carries data the FTL
// does not map (its slots are invalid from the start, as a pad's), passing over the pages
// from the block's next page up to idx (never programmed: marked invalid, so the block's
// pages below its next page stay accounted for, and an erase frees them). It reports
// false, taking nothing, if idx is below the block's next page or past its end.
func (f *FTL) ReservedTake(b BlockID, idx int) (PPN, bool) {
	m := &f.blocks[b]
	if m.state != stOpen || idx < int(m.next) || idx >= f.g.PagesPerBlock {
		return NoPage, false
	}
	first := f.g.FirstPage(b)
	for int(m.next) <= idx {
		u := int64(first+PPN(m.next)) << f.shift
		for i := int64(0); i < int64(f.k); i++ {
			f.p2l.put(u+i, pInvalid)
		}
		m.next++
	}
	return first + PPN(idx), true
}

// ZoneBlock reports whether block b is a zone's member block (ftl/zones.go).
func (f *FTL) ZoneBlock(b BlockID) bool { return f.zoneBlock(b) }
