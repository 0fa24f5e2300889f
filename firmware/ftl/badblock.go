package ftl

import "fmt"

// The bad-block table: blocks the FTL never allocates, never picks as a GC victim and never
// erases. A block becomes bad at build (MarkFactoryBad: the die's factory bad-block markers,
// which firmware scans at first boot) or when a program or erase on it fails (Retire, a
// grown bad block). NAND datasheets prescribe exactly this "block replacement" (Numonyx
// NAND08GW3C2A datasheet §9.2): re-program the failed page's data and copy the block's
// other current pages to a good block, then stop using it.

// IsBad reports whether block b is in the bad-block table.
func (f *FTL) IsBad(b BlockID) bool { return f.blocks[b].state == stBad }

// BadBlocks returns the number of bad blocks, factory and grown.
func (f *FTL) BadBlocks() int { return f.bad }

// MarkFactoryBad enters free block b in the bad-block table and takes it off its plane's
// free list. Call it at build, before preconditioning; a block that is not free is an error.
func (f *FTL) MarkFactoryBad(b BlockID) error {
	if b < 0 || int64(b) >= int64(len(f.blocks)) {
		return fmt.Errorf("ftl: factory bad block %d is outside the array's %d blocks", b, len(f.blocks))
	}
	m := &f.blocks[b]
	if m.state != stFree {
		return fmt.Errorf("ftl: factory bad block %d is not free", b)
	}
	die, plane, _ := f.g.BlockAddr(b)
	ps := &f.planes[die*f.g.Planes+plane]
	if ps.freeN <= 1 {
		return fmt.Errorf("ftl: factory bad block %d would leave die %d plane %d without a free block", b, die, plane)
	}
	// Rebuild the ring without b, in the same order.
	kept := make([]BlockID, 0, ps.freeN-1)
	for k := 0; k < ps.freeN; k++ {
		if x := ps.free[(ps.freeHead+k)%len(ps.free)]; x != b {
			kept = append(kept, x)
		}
	}
	ps.freeHead, ps.freeN = 0, copy(ps.free, kept)
	m.state = stBad
	f.bad++
	f.Stats.FactoryBad++
	return nil
}

// Retire enters block b in the bad-block table after a failed program or erase on it. Its
// valid pages stay mapped, readable where they are, until the caller relocates each one
// (Rewrite); its pages no allocator wrote and the pages one skipped are never programmed
// again (skipped pages leave the skip region's count). The allocator and the GC stream stop
// using it as a write point (the allocator is told through Erased, which drops a write
// point). Retiring a bad block does nothing and returns false.
func (f *FTL) Retire(b BlockID) bool {
	m := &f.blocks[b]
	if m.state == stBad {
		return false
	}
	if m.state == stFree {
		panic(fmt.Sprintf("ftl: retiring free block %d (its failure was on a block the FTL had not opened)", b))
	}
	first := int64(f.g.FirstPage(b)) << f.shift
	for i := int64(0); i < int64(int(m.next)*f.k); i++ {
		if f.p2l.at(first+i) == pWasted {
			f.p2l.put(first+i, pInvalid)
		}
	}
	if m.wasted > 0 {
		die, _, _ := f.g.BlockAddr(b)
		f.dies[die].lsbOnly--
		f.Stats.WastedNow -= int64(m.wasted)
		m.wasted = 0
	}
	m.state = stBad
	die, plane, _ := f.g.BlockAddr(b)
	if ps := &f.planes[die*f.g.Planes+plane]; ps.gcWP == b {
		ps.gcWP = NoBlock
	}
	f.alloc.Erased(b)
	f.bad++
	f.Stats.Retired++
	return true
}

// Rewrite moves the current data of page old (one that failed to program, or a valid page
// of a retired block) to a new page of the die's GC stream, updates the mapping and
// returns the new page and its logical page; false if old holds no current data (it was
// overwritten or trimmed). The caller programs the new page.
//
// Rewrite needs one unit a page: with sub-page mapping a failed program holds several units
// (the configuration refuses fault models with it, docs/firmware.md).
func (f *FTL) Rewrite(old Unit) (Unit, int64, bool) {
	if f.k > 1 {
		panic("ftl: Rewrite with sub-page mapping (several units a page)")
	}
	lpn, ok := f.Owner(old)
	if !ok {
		return NoUnit, 0, false
	}
	p := f.allocateGC(f.g.Addr(PPN(old)).Die)
	f.Stats.Rewrites++
	f.bind(lpn, Unit(p))
	return Unit(p), lpn, true
}
