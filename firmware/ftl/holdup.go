package ftl

// The hold-up drain's room (power-loss protection). After a power cut the firmware drains
// its dirty write buffer to flash on hold-up power, and GC no longer runs, so every page
// must find room in the flash as it is at the cut. Host streams may not open a block while
// a plane is down to its GC reserve plus Config.HoldupReserve; the drain places pages the
// allocator cannot (no room outside those reserves) with Dump, densely, in the die's GC
// stream down to the GC reserve. The GC reserve itself is left whole, so GC can run at the
// next power-on. The firmware sizes the hold-up reserve to hold its whole buffer and the
// pages GC may have moved into it (firmware.HoldupReserve).

// HostFloor returns the free blocks a plane keeps from host streams: the GC reserve plus
// the hold-up reserve.
func (f *FTL) HostFloor() int { return f.cfg.hostFloor() }

// Dump places one page of the hold-up drain after a power cut, when the allocator has no
// room for it: the next page of the GC write point of the die's next plane (GC no longer
// runs), opening a free block if the plane has more than its GC reserve, and returns it,
// or ErrNoSpace when no plane of the die has room left. The page's units hold no logical
// page in the FTL's map (they are marked superseded): the drained data is found at the
// next power-on by the recovery scan of the out-of-band records, which names the logical
// page and its write sequence, as a real drive's power-loss dump area is replayed. The
// caller programs the page with its records.
func (f *FTL) Dump(die int) (PPN, error) {
	p, ok := f.takeGCStream(die, f.cfg.GCReserve)
	if !ok {
		return NoPage, ErrNoSpace
	}
	f.pad(Unit(p)<<f.shift, 0)
	f.Stats.Padded -= int64(f.k) // not padding: drained data outside the map
	f.Stats.Dumped++
	return p, nil
}

// DrainRoom returns the mapping units (pages, with one unit a page) the hold-up drain
// after a power cut could program now at most: the unprogrammed pages of the blocks host
// streams have open and of the free blocks above the GC reserve, and, with a hold-up
// reserve (which Dump fills), those of GC's write points too. It walks every block: for
// checkers, not the firmware's hot path.
func (f *FTL) DrainRoom() int64 {
	var n int64
	dump := f.cfg.HoldupReserve > 0
	for b := range f.blocks {
		if m := &f.blocks[b]; m.state == stOpen && (dump || !m.gc) {
			n += int64(f.blockPages(BlockID(b)) - int(m.next))
		}
	}
	for i := range f.planes {
		n += int64(max(0, f.planes[i].freeN-f.cfg.GCReserve)) * int64(f.g.PagesPerBlock)
	}
	return n * int64(f.k)
}
