package ftl

import "fmt"

// The bad-block table: blocks the FTL never allocates, never picks as a GC victim and never
// erases. A block becomes bad at build (MarkFactoryBad: the die's factory bad-block markers,
// which firmware scans at first boot) or when a program or erase on it fails (Retire, a
// grown bad block). NAND datasheets prescribe exactly this "block replacement" (Numonyx
// NAND08GW3C2A datasheet §9.2): re-program the failed page's data and copy the block's
// other current pages to a good block, then stop using it.

// The spare pool: each die can replace Config.SparePool bad blocks, factory and grown
// together (SpareLeft). A die whose bad blocks exceed its pool (SpareExhausted) has lost
// more than its NAND vendor allows and more than the firmware budgeted for, and the
// firmware puts the drive in read-only mode (firmware/readonly.go), as drives do when their
// spare capacity is gone (NVMe's SMART / Health log: Available Spare, and the critical
// warning bit "all of the media has been placed in read only mode").

// SparePool returns each die's spare pool, in blocks.
func (f *FTL) SparePool() int { return f.spare }

// SpareLeft returns how many more bad blocks die can take before it has no spare left: its
// pool less its factory and grown bad blocks. Negative once the pool is exceeded.
func (f *FTL) SpareLeft(die int) int { return f.spare - f.dies[die].factory - f.dies[die].grown }

// SpareExhausted reports whether die has more bad blocks than its spare pool.
func (f *FTL) SpareExhausted(die int) bool { return f.SpareLeft(die) < 0 }

// GrownBad returns the blocks of die retired after a failed program or erase.
func (f *FTL) GrownBad(die int) int { return f.dies[die].grown }

// AvailableSpare returns the spare capacity left, in per cent of the pool, as NVMe's
// Available Spare reports it: of the die with the least left (the first die to run out
// puts the drive in read-only mode, so the worst die is the drive's margin), rounded down
// (so 0 % is reported only when a die has none left, and 1 % never hides less). A pool of
// 0 blocks has 0 % from the start.
func (f *FTL) AvailableSpare() int {
	if f.spare == 0 {
		return 0
	}
	least := f.spare
	for d := range f.dies {
		least = min(least, f.SpareLeft(d))
	}
	return max(0, least) * 100 / f.spare
}

// GCRoom reports whether the GC stream of die has a page to give (Relocate, Rewrite): a GC
// write point with a free page, or a free block on some plane. Without one those calls
// panic, so firmware asks first; false means the die has no free block left at all.
func (f *FTL) GCRoom(die int) bool {
	for pl := 0; pl < f.g.Planes; pl++ {
		ps := &f.planes[die*f.g.Planes+pl]
		if ps.freeN > 0 || (ps.gcWP != NoBlock && f.blocks[ps.gcWP].state != stFull) {
			return true
		}
	}
	return false
}

// IsBad reports whether block b is in the bad-block table.
func (f *FTL) IsBad(b BlockID) bool { return f.blocks[b].state == stBad }

// BadBlocks returns the number of bad blocks, factory and grown.
func (f *FTL) BadBlocks() int { return f.bad }

// MarkFactoryBad enters free block b in the bad-block table and takes it off its plane's
// free list. Call it at build, before preconditioning; a block that is not free is an error.
func (f *FTL) MarkFactoryBad(b BlockID) error {
	if int(b) >= len(f.blocks) { // BlockID is unsigned: no lower bound to check
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
	f.dies[die].factory++
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
		f.leftSkipRegion(b, m)
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
	f.dies[die].grown++
	f.Stats.Retired++
	return true
}

// Unmap leaves the logical page held in unit u (a page whose program failed and could not
// be programmed again) with no unit, u invalid: its data is in the firmware's write buffer
// only. It does nothing if u holds no current data.
func (f *FTL) Unmap(u Unit) {
	if lpn, ok := f.Owner(u); ok {
		f.invalidate(u)
		f.l2p.put(lpn, NoUnit)
	}
}

// Restore maps the logical page held in unit u (a GC copy whose program failed and could
// not be programmed again) back to from, the original it was copied from, which still holds
// the same data (GC erases a victim only after its copies are programmed; a retired block is
// never erased). It does nothing if u holds no current data (the host wrote the page again).
func (f *FTL) Restore(u, from Unit) {
	if lpn, ok := f.Owner(u); ok {
		if f.p2l.at(int64(from)) != pInvalid || f.blocks[f.g.BlockOf(f.PageOf(from))].state == stFree {
			panic(fmt.Sprintf("ftl: restoring lpn %d to unit %d, which is not a superseded copy", lpn, from))
		}
		f.bind(lpn, from)
	}
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
	p := f.gcFor(lpn, f.g.Addr(PPN(old)).Die)
	f.Stats.Rewrites++
	f.bind(lpn, Unit(p))
	return Unit(p), lpn, true
}
