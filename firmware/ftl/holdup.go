package ftl

// DrainRoom returns the mapping units (pages, with one unit a page) the hold-up drain
// after a power cut could program now at most: the unprogrammed pages of the blocks host
// streams have open, and of the free blocks above the GC reserve (ftl.gc_reserve), which
// host streams may open. It walks every block: for checkers, not the firmware's hot path.
func (f *FTL) DrainRoom() int64 {
	var n int64
	for b := range f.blocks {
		if m := &f.blocks[b]; m.state == stOpen && !m.gc {
			n += int64(f.g.PagesPerBlock - int(m.next))
		}
	}
	for i := range f.planes {
		n += int64(max(0, f.planes[i].freeN-f.cfg.GCReserve)) * int64(f.g.PagesPerBlock)
	}
	return n * int64(f.k)
}
