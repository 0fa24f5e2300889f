package ftl

import (
	"errors"
	"fmt"
)

// Zoned namespaces in the FTL (NVM Express Zoned Namespace Command Set Specification 1.1):
// a zone is a stripe of erase blocks, as a ZNS drive's firmware maps it, with no page-level
// placement decision, no garbage collection and no copy: the host writes a zone
// sequentially at its write pointer and frees it whole with a reset, which erases the
// zone's blocks.
//
// Zone z of a zoned area spans B erase blocks, its members, one on each of B consecutive
// (die, plane) pairs in channel-first order starting at pair z·B (pair q is on die
// InterleavedDie(q mod dies), plane (q div dies) mod planes). Logical page k of the zone
// (k < B × pages a block, its capacity) lives on member k mod B, at page k div B of that
// member's block when the buffer evicts in write-pointer order (below). The member's block is taken
// from its plane's free list when the zone's first page for it comes (a free block of the
// plane, so wear spreads as the free lists turn), and returned by the reset's erase.
//
// A member block is programmed in the order the write buffer evicts the zone's pages
// (NAND pages of a block must be programmed in order): with a FIFO buffer that is the
// write pointer's order, so page k lands at page k div B of its member; a buffer that
// reorders (LRU, whose read hits move a page to its young end) can place a page at
// another page of the same block (ZoneStats.Reordered). The FTL binds each page in its
// map either way (reads look it up as any other); check verifies that every mapped page
// of a zone lies in its own member's block. No page ever leaves that block until the
// zone is reset: there is no relocation, so nothing for a map to track beyond it.
//
// Zone blocks are never GC victims (Reclaimable is false for them): a zone's pages are all
// valid until the reset invalidates them all at once.

// zoneArea is one zoned namespace's range of logical pages and its zones' blocks.
type zoneArea struct {
	lo, hi    int64     // logical pages [lo, hi)
	zonePages int64     // zone size in pages (a power of two ≥ cap)
	cap       int64     // zone capacity in pages: stripe × pages a block
	stripe    int       // B: blocks a zone spans
	first     int       // the area's first zone's index among all zoned areas (for pair rotation)
	blocks    []BlockID // per zone, per member: its block, NoBlock until opened
}

// zoned is the FTL's zoned areas (nil without a zoned namespace).
type zoned struct {
	areas []zoneArea
	owned []bool // per block: a zone's member
	Stats ZoneStats
}

// ZoneStats are the zone layer's counters.
type ZoneStats struct {
	Pages  int64 // zone pages placed
	Resets int64 // zone resets that freed blocks
	Blocks int64 // member blocks opened
	// Reordered counts zone pages placed at another page of their member block than
	// k div B: the write buffer evicted them out of write-pointer order (an LRU buffer
	// moves a page a read hits to its young end).
	Reordered int64
}

// AddZones makes logical pages [lo, lo + zones × zonePages) a zoned area of zones zones of
// stripe blocks each (capacity stripe × PagesPerBlock pages, at most zonePages). Call it on
// a fresh FTL, before preconditioning; it returns the area's index. It needs page-level
// mapping with one unit a page and no Flexible Data Placement.
func (f *FTL) AddZones(lo, zones, zonePages int64, stripe int) (int, error) {
	nplanes := len(f.planes)
	c := int64(stripe) * int64(f.g.PagesPerBlock)
	switch {
	case f.k > 1:
		return 0, errors.New("ftl: zoned namespaces need one mapping unit a flash page (firmware.page_size = flash.die.page_size)")
	case f.hyb != nil:
		return 0, fmt.Errorf("ftl: zoned namespaces need page-level mapping (firmware.ftl.mapping is %s)", f.cfg.mapping())
	case f.place != nil:
		return 0, errors.New("ftl: zoned namespaces and Flexible Data Placement cannot be combined")
	case stripe < 1 || stripe > nplanes:
		return 0, fmt.Errorf("ftl: a zone of %d blocks; 1 … %d (dies × planes)", stripe, nplanes)
	case c > zonePages:
		return 0, fmt.Errorf("ftl: zone capacity %d pages exceeds the zone size %d", c, zonePages)
	case zones < 1 || lo < 0 || lo+zones*zonePages > int64(len(f.l2p)):
		return 0, fmt.Errorf("ftl: %d zones of %d pages from page %d do not fit %d logical pages", zones, zonePages, lo, len(f.l2p))
	}
	if f.zones == nil {
		f.zones = &zoned{owned: make([]bool, len(f.blocks))}
	}
	z := f.zones
	first := 0
	for _, a := range z.areas {
		first += len(a.blocks) / a.stripe
	}
	a := zoneArea{lo: lo, hi: lo + zones*zonePages, zonePages: zonePages, cap: c, stripe: stripe, first: first,
		blocks: make([]BlockID, zones*int64(stripe))}
	for i := range a.blocks {
		a.blocks[i] = NoBlock
	}
	z.areas = append(z.areas, a)
	return len(z.areas) - 1, nil
}

// Zoned reports whether the FTL has a zoned area.
func (f *FTL) Zoned() bool { return f.zones != nil }

// ZoneStats returns the zone layer's counters.
func (f *FTL) ZoneStats() ZoneStats {
	if f.zones == nil {
		return ZoneStats{}
	}
	return f.zones.Stats
}

// zoneOf returns the area holding lpn, or nil.
func (z *zoned) zoneOf(lpn int64) *zoneArea {
	for i := range z.areas {
		if a := &z.areas[i]; lpn >= a.lo && lpn < a.hi {
			return a
		}
	}
	return nil
}

// pair returns member m of zone zi's (die, plane) pair index (die·Planes + plane).
func (f *FTL) zonePair(a *zoneArea, zi int64, m int) int {
	n := len(f.planes)
	q := int((int64(a.first)+zi)*int64(a.stripe)%int64(n)) + m
	q %= n
	d := f.g.InterleavedDie(q % f.g.Dies())
	pl := (q / f.g.Dies()) % f.g.Planes
	return d*f.g.Planes + pl
}

// ZoneDie returns the die zone page lpn must be programmed on (its member's), and false if
// lpn is in no zoned area.
func (f *FTL) ZoneDie(lpn int64) (int, bool) {
	if f.zones == nil {
		return 0, false
	}
	a := f.zones.zoneOf(lpn)
	if a == nil {
		return 0, false
	}
	off := lpn - a.lo
	return f.zonePair(a, off/a.zonePages, int(off%a.zonePages%int64(a.stripe))) / f.g.Planes, true
}

// zoneAllocate places zone page lpn on the next page of member k mod B's block, opening
// the block if the zone has none there yet. It fails with ErrNoSpace if die is not the
// member's die or the plane has no free block outside the GC reserve.
func (f *FTL) zoneAllocate(a *zoneArea, lpn int64, die int) (PPN, error) {
	off := lpn - a.lo
	zi, k := off/a.zonePages, off%a.zonePages
	if k >= a.cap {
		panic(fmt.Sprintf("ftl: zone page %d at offset %d past the zone capacity %d", lpn, k, a.cap))
	}
	m := int(k % int64(a.stripe))
	pi := f.zonePair(a, zi, m)
	if pi/f.g.Planes != die {
		return NoPage, ErrNoSpace
	}
	slot := &a.blocks[zi*int64(a.stripe)+int64(m)]
	if *slot == NoBlock {
		b, ok := f.openBlock(pi, false)
		if !ok {
			return NoPage, ErrNoSpace
		}
		*slot = b
		f.zones.owned[b] = true
		f.zones.Stats.Blocks++
	}
	if int64(f.blocks[*slot].next) != k/int64(a.stripe) {
		f.zones.Stats.Reordered++
	}
	f.zones.Stats.Pages++
	return f.take(*slot), nil
}

// ResetZone frees zone page range [lo, lo + zone size): it unmaps every page of the zone
// (they become invalid) and returns the zone's member blocks, which the caller erases
// (EraseZoneBlock) once no program to them is in flight. The zone's blocks are forgotten:
// its next pages go to fresh blocks.
func (f *FTL) ResetZone(lo int64, dst []BlockID) []BlockID {
	a := f.zones.zoneOf(lo)
	if a == nil || (lo-a.lo)%a.zonePages != 0 {
		panic(fmt.Sprintf("ftl: ResetZone(%d): not the first page of a zone", lo))
	}
	for lpn := lo; lpn < lo+a.cap; lpn++ {
		if u := f.l2p.at(lpn); u != NoUnit {
			f.invalidate(u)
			f.l2p.put(lpn, NoUnit)
		}
	}
	zi := (lo - a.lo) / a.zonePages
	for m := range a.stripe {
		slot := &a.blocks[zi*int64(a.stripe)+int64(m)]
		if *slot != NoBlock {
			dst = append(dst, *slot)
			*slot = NoBlock
		}
	}
	if len(dst) > 0 {
		f.zones.Stats.Resets++
	}
	return dst
}

// EraseZoneBlock returns a reset zone's block to its plane's free list (its erase has
// completed).
func (f *FTL) EraseZoneBlock(b BlockID) {
	f.zones.owned[b] = false
	f.Erase(b) // an open block too: the pages the zone had not written are never programmed
}

// ReleaseZoneBlock forgets that a reset zone's block is the zone's, for a block whose
// erase failed: the caller retires it (Retire) instead of freeing it.
func (f *FTL) ReleaseZoneBlock(b BlockID) { f.zones.owned[b] = false }

// zoneBlock reports whether block b is a zone's member (never a GC victim).
func (f *FTL) zoneBlock(b BlockID) bool { return f.zones != nil && f.zones.owned[b] }

// check verifies the zone layer: every member block is owned, a reset zone's block
// awaiting its erase holds no valid page, and every mapped page of a zone lies in its
// member's block.
func (z *zoned) check(f *FTL, bad func(format string, a ...any)) {
	named := make([]bool, len(f.blocks))
	for ai := range z.areas {
		a := &z.areas[ai]
		for i, b := range a.blocks {
			if b == NoBlock {
				continue
			}
			if !z.owned[b] {
				bad("zone %d member %d names block %d, not marked a zone block", int64(i)/int64(a.stripe), i%a.stripe, b)
			}
			named[b] = true
		}
		for lpn := a.lo; lpn < a.hi; lpn++ {
			u := f.l2p.at(lpn)
			if u == NoUnit {
				continue
			}
			off := lpn - a.lo
			zi, k := off/a.zonePages, off%a.zonePages
			m := int(k % int64(a.stripe))
			b := a.blocks[zi*int64(a.stripe)+int64(m)]
			p := f.PageOf(u)
			if k >= a.cap || b == NoBlock || f.g.BlockOf(p) != b {
				bad("zone page %d (zone %d offset %d) maps to page %d, outside its member %d's block %d", lpn, zi, k, p, m, b)
			}
		}
	}
	for b, o := range z.owned {
		if o && !named[b] && f.blocks[b].valid > 0 {
			bad("block %d is a reset zone's block awaiting erase but holds %d valid pages", b, f.blocks[b].valid)
		}
	}
}
