package ftl

import "fmt"

// allocateHost picks the page for a host write on die according to the allocator.
func (f *FTL) allocateHost(die int, purpose Purpose) (PPN, error) {
	switch f.cfg.Allocator {
	case SkipToLSB:
		return f.allocSequential(die, purpose == Foreground)
	case LatencyAware:
		return f.allocLatencyAware(die, purpose)
	default:
		return f.allocSequential(die, false)
	}
}

// allocSequential takes the next page of the write point of the die's next plane (round
// robin over planes, so consecutive pages of a die can merge into multi-plane programs).
// With skipLSB it first skips CSB/MSB pages to reach an LSB page, wasting them.
func (f *FTL) allocSequential(die int, skipLSB bool) (PPN, error) {
	ds := &f.dies[die]
	for try := 0; try < f.g.Planes; try++ {
		plane := (ds.planeRR + try) % f.g.Planes
		pi := die*f.g.Planes + plane
		ps := &f.planes[pi]
		for {
			if ps.hostWP == noBlock || f.blocks[ps.hostWP].state == stFull {
				b, ok := f.openBlock(pi, false)
				if !ok {
					ps.hostWP = noBlock
					break
				}
				ps.hostWP = b
			}
			b := ps.hostWP
			if skipLSB {
				for f.blocks[b].state != stFull && f.kinds[f.blocks[b].next] != LSB {
					f.skip(b)
				}
				if f.blocks[b].state == stFull {
					continue // the rest of the block was not LSB: open another
				}
			}
			ds.planeRR = (plane + 1) % f.g.Planes
			return f.take(b), nil
		}
	}
	return NoPage, ErrNoSpace
}

// allocLatencyAware implements FD-FTL's grouping (the paper's block pointers, grouped by the
// kind of their next free page and listed per die): each open block is in the LSB, CSB or
// MSB group by the kind of its next free page. Foreground writes take LSB pages across
// every open block, oldest first, and open a fresh block (whose page 0 is LSB) whenever no
// open block is at an LSB page and the die's LSB-only region — the pages its open blocks
// have not yet programmed — has room for one more block within LSBOnlyPages. Only when no
// LSB page is left that way do they skip CSB/MSB pages to the nearest LSB page, in blocks of
// the skip region (at most LSBOnlyBlocks blocks per die holding skipped pages); with that
// full too, they program the oldest open block's next page, wasting nothing. Background
// writes take CSB/MSB-group blocks first, oldest first, then LSB-group ones, and open a
// block only when the die has none open or the region has room.
func (f *FTL) allocLatencyAware(die int, purpose Purpose) (PPN, error) {
	ds := &f.dies[die]
	var b BlockID
	f.bounded = false
	if purpose == Foreground {
		b = f.pickOpen(ds, true)
		if b == noBlock && f.mayOpen(ds) {
			b = f.openForDie(die)
		}
		for b == noBlock && len(ds.open) > 0 {
			b = f.nearestLSB(ds, ds.lsbOnly < f.cfg.LSBOnlyBlocks)
			if b == noBlock {
				b = ds.open[0] // the LSB-only region is full: no skipping
				f.bounded = true
				break
			}
			for f.blocks[b].state != stFull && f.kinds[f.blocks[b].next] != LSB {
				f.skip(b)
			}
			if f.blocks[b].state == stFull {
				f.dropOpen(b)
				b = noBlock
				if f.mayOpen(ds) {
					b = f.openForDie(die)
				}
			}
		}
	} else {
		b = f.pickOpen(ds, false)
		if b == noBlock {
			b = f.pickOpen(ds, true)
		}
		if b == noBlock && f.mayOpen(ds) {
			b = f.openForDie(die)
		}
	}
	if b == noBlock {
		return NoPage, ErrNoSpace
	}
	p := f.take(b)
	if f.blocks[b].state == stFull {
		f.dropOpen(b)
	}
	return p, nil
}

// mayOpen reports whether the die may open one more latency-aware block: it has none open,
// or the pages its open blocks have not programmed (the LSB-only region) plus a fresh
// block's stay within LSBOnlyPages.
func (f *FTL) mayOpen(ds *dieState) bool {
	return len(ds.open) == 0 || f.regionPages(ds)+f.g.PagesPerBlock <= f.cfg.LSBOnlyPages
}

// regionPages returns the pages of the die's open latency-aware blocks not yet programmed.
func (f *FTL) regionPages(ds *dieState) int {
	n := 0
	for _, b := range ds.open {
		n += f.g.PagesPerBlock - int(f.blocks[b].next)
	}
	return n
}

// pickOpen returns the oldest open block of the die whose next page is LSB (lsb true) or
// CSB/MSB (lsb false), or noBlock.
func (f *FTL) pickOpen(ds *dieState, lsb bool) BlockID {
	for _, b := range ds.open {
		if (f.kinds[f.blocks[b].next] == LSB) == lsb {
			return b
		}
	}
	return noBlock
}

// nearestLSB returns the open block with the fewest pages to skip before an LSB page,
// among the blocks already in the LSB-only region, or among all open blocks if grow is set
// (the region may take one more); noBlock if there is none.
func (f *FTL) nearestLSB(ds *dieState, grow bool) BlockID {
	best, bestDist := noBlock, 1<<30
	for _, b := range ds.open {
		if !grow && f.blocks[b].wasted == 0 {
			continue
		}
		d := 0
		for n := int(f.blocks[b].next); n < f.g.PagesPerBlock && f.kinds[n] != LSB; n++ {
			d++
		}
		if d < bestDist {
			best, bestDist = b, d
		}
	}
	return best
}

// openForDie opens a fresh host block on the die's next plane with a free block and adds
// it to the die's open list.
func (f *FTL) openForDie(die int) BlockID {
	ds := &f.dies[die]
	for try := 0; try < f.g.Planes; try++ {
		plane := (ds.planeRR + try) % f.g.Planes
		if b, ok := f.openBlock(die*f.g.Planes+plane, false); ok {
			ds.planeRR = (plane + 1) % f.g.Planes
			ds.open = append(ds.open, b)
			return b
		}
	}
	return noBlock
}

// allocateGC takes the next page of the GC write point of the die's next plane. GC may use
// the reserve; running out entirely means over-provisioning is too small for the workload.
func (f *FTL) allocateGC(die int) PPN {
	ds := &f.dies[die]
	for try := 0; try < f.g.Planes; try++ {
		plane := (ds.gcPlaneRR + try) % f.g.Planes
		pi := die*f.g.Planes + plane
		ps := &f.planes[pi]
		if ps.gcWP == noBlock || f.blocks[ps.gcWP].state == stFull {
			b, ok := f.openBlock(pi, true)
			if !ok {
				ps.gcWP = noBlock
				continue
			}
			ps.gcWP = b
		}
		ds.gcPlaneRR = (plane + 1) % f.g.Planes
		return f.take(ps.gcWP)
	}
	panic(fmt.Sprintf("ftl: die %d has no free block left for GC: over-provisioning too small or GC reserve exhausted", die))
}
