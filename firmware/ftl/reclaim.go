package ftl

// The skip region's reclaim (ftl.lsb_only_reclaim, off by default). The latency-aware FTL's
// foreground writes skip CSB/MSB pages to reach an LSB page only in the blocks of the skip
// region, at most lsb_only_blocks a die (latencyaware.go); the paper: "the unused flash
// space (i.e., CSB/MSB pages) due to foreground eviction can be reclaimed by garbage
// collection, which would not hurt the total SSD capacity. We also constrain the maximum
// LSB-only flash space (cf. Table 1) to keep high effective SSD capacity" (Zhang et al.,
// IEEE CAL 2020, §3). GC that runs only when a plane is short of free blocks never reclaims
// the region on a drive with room to spare (no plane of fastdrain-tlc reaches its GC
// threshold in 30 s), so once the region is full its blocks stay until the drive fills and
// every later foreground write that finds no LSB page programs a CSB/MSB page. With the
// reclaim, a die whose skip region is at its bound with at most one block left to skip in
// collects the full block with the fewest valid pages as GC collects any victim (its valid
// pages moved through the GC write points, then the erase), so the region has room again.
// It costs the moves: docs/fidelity.md, "The skip region at 30 s", measures both.

// closed marks block b full and, if it holds skipped pages, counts it in its die's skip
// region's full blocks.
func (f *FTL) closed(b BlockID, m *blockMeta) {
	m.state = stFull
	if m.wasted > 0 {
		die, _, _ := f.g.BlockAddr(b)
		f.dies[die].skipFull++
		f.skipChanged(die)
	}
}

// leftSkipRegion takes block b, about to be erased or retired, out of its die's skip
// region if it holds skipped pages.
func (f *FTL) leftSkipRegion(b BlockID, m *blockMeta) {
	if m.wasted == 0 {
		return
	}
	if f.mountClosed(b) { // abandoned at a mount (mount.go): never in the region
		f.mounted.Put(int(b), false)
		return
	}
	die, _, _ := f.g.BlockAddr(b)
	f.dies[die].lsbOnly--
	if m.state == stFull {
		f.dies[die].skipFull--
	}
	f.skipChanged(die)
}

// skipChanged keeps the die's reclaim flag (NeedsGC reads a field, so it stays inlinable)
// after its skip region changed.
func (f *FTL) skipChanged(die int) { f.dies[die].reclaim = f.reclaimsSkip(die) }

// reclaimsSkip reports whether the die's GC should reclaim a block of its skip region: the
// region is at its bound (skipReclaimAt) and at most one of its blocks is still open, so
// foreground writes are about to find no block to skip in. Reclaiming no sooner moves no
// page the region did not need moved (a region with blocks still to skip in serves the
// foreground as it is); reclaiming while one block is left lets that block's LSB pages
// carry the foreground writes while GC moves the victim's valid pages and erases it.
func (f *FTL) reclaimsSkip(die int) bool {
	d := &f.dies[die]
	return d.skipFull > 0 && d.lsbOnly >= f.skipReclaimAt && d.skipFull >= d.lsbOnly-1
}

// skipVictim returns the full block of the plane's skip region with the fewest valid pages
// (the first such block on a tie), the one whose reclaim moves the least, or false if the
// plane holds none.
func (f *FTL) skipVictim(die, plane int) (BlockID, bool) {
	v := View{f}
	first, n := v.PlaneBlocks(die, plane)
	best, bestValid := NoBlock, 0
	for i := 0; i < n; i++ {
		b := first + BlockID(i)
		m := &f.blocks[b]
		if m.wasted == 0 || f.mountClosed(b) || !v.Reclaimable(b) {
			continue
		}
		if best == NoBlock || int(m.valid) < bestValid {
			best, bestValid = b, int(m.valid)
		}
	}
	return best, best != NoBlock
}
