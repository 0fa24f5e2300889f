package ftl

import "fmt"

// greedy ("greedy") takes the reclaimable block with the fewest valid pages, the first
// such block of the plane on a tie.
type greedy struct{ View }

// Victim implements VictimPolicy.
func (p greedy) Victim(die, plane int) (BlockID, bool) {
	first, n := p.PlaneBlocks(die, plane)
	best, bestValid := NoBlock, 0
	for i := 0; i < n; i++ {
		b := first + BlockID(i)
		if !p.Reclaimable(b) {
			continue
		}
		if v := p.ValidCount(b); best == NoBlock || v < bestValid {
			best, bestValid = b, v
		}
	}
	return best, best != NoBlock
}

// costBenefit ("cost-benefit") takes the reclaimable block maximising age·(1−u)/(2u), u
// the valid fraction and age the allocation clock since its last program, plus one
// (Rosenblum & Ousterhout's LFS cleaner; Kawaguchi et al. for flash); an empty block
// (u = 0) wins outright, the first such block of the plane on a tie.
type costBenefit struct {
	View
	pagesPerBlock int // mapping units per block (pages, with one unit a page)
}

// Victim implements VictimPolicy.
func (p costBenefit) Victim(die, plane int) (BlockID, bool) {
	first, n := p.PlaneBlocks(die, plane)
	now := p.Clock()
	best := NoBlock
	var bestScore float64
	for i := 0; i < n; i++ {
		b := first + BlockID(i)
		if !p.Reclaimable(b) {
			continue
		}
		valid := p.ValidCount(b)
		u := float64(valid) / float64(p.pagesPerBlock)
		score := 1e300
		if valid > 0 {
			score = float64(now-p.Written(b)+1) * (1 - u) / (2 * u)
		}
		if best == NoBlock || score > bestScore {
			best, bestScore = b, score
		}
	}
	return best, best != NoBlock
}

// PickVictim returns the block of the plane that GC should clean, chosen by the configured
// victim policy, or false if no full block has an invalid or wasted page to reclaim. On a
// plane with free blocks to spare of a die whose skip region is due for reclaim
// (reclaim.go), it is the plane's full skip-region block with the fewest valid pages, if
// any: GC is there for the region, not for room. A
// policy that names a block outside the plane or one that is not reclaimable is a
// programming error and panics.
func (f *FTL) PickVictim(die, plane int) (BlockID, bool) {
	if pi := die*f.g.Planes + plane; f.slc != nil && f.planes[pi].freeN > f.gcAt && f.slc.wantsFold(pi) {
		if b, ok := f.foldVictim(die, plane); ok { // folding, not GC for room (slccache.go)
			f.Stats.GCVictims++
			return b, true
		}
	}
	if pi := die*f.g.Planes + plane; f.dies[die].reclaim && f.planes[pi].freeN > f.gcAt && (f.slc == nil || !f.slc.wantsFold(pi)) {
		// The plane has room: GC is here only to reclaim the skip region (reclaim.go).
		b, ok := f.skipVictim(die, plane)
		if ok {
			f.Stats.GCVictims++
			f.Stats.SkipReclaims++
		}
		return b, ok
	}
	b, ok := f.victim.Victim(die, plane)
	if !ok {
		return NoBlock, false
	}
	v := View{f}
	if first, n := v.PlaneBlocks(die, plane); b < first || b >= first+BlockID(n) || !v.Reclaimable(b) {
		panic(fmt.Sprintf("ftl: gc victim policy %q picked block %d, not a reclaimable block of die %d plane %d",
			f.cfg.GCVictim, b, die, plane))
	}
	f.Stats.GCVictims++
	return b, true
}

// ValidUnits appends the valid units of block b to dst, in page and slot order, and
// returns it.
func (f *FTL) ValidUnits(b BlockID, dst []Unit) []Unit {
	first := Unit(f.g.FirstPage(b)) << f.shift
	for i := Unit(0); i < Unit(int(f.blocks[b].next)*f.k); i++ {
		if f.p2l.at(int64(first+i)) <= maxLPN {
			dst = append(dst, first+i)
		}
	}
	return dst
}

// allocateGC takes the next page of the GC write point of the die's next plane. GC may use
// the reserve; running out entirely means over-provisioning is too small for the workload.
func (f *FTL) allocateGC(die int) PPN {
	if p, ok := f.takeGCStream(die, 0); ok {
		return p
	}
	panic(fmt.Sprintf("ftl: die %d has no free block left for GC: over-provisioning too small or GC reserve exhausted", die))
}

// takeGCStream takes the next page of the GC write point of the die's next plane (round
// robin over planes), opening a free block for it on a plane with more than limit free
// blocks, or reports false if no plane has a page.
func (f *FTL) takeGCStream(die, limit int) (PPN, bool) {
	ds := &f.dies[die]
	for try := 0; try < f.g.Planes; try++ {
		plane := (ds.gcPlaneRR + try) % f.g.Planes
		pi := die*f.g.Planes + plane
		ps := &f.planes[pi]
		if ps.gcWP == NoBlock || f.blocks[ps.gcWP].state == stFull {
			b, ok := f.openAbove(pi, limit, true)
			if !ok {
				ps.gcWP = NoBlock
				continue
			}
			ps.gcWP = b
		}
		ds.gcPlaneRR = (plane + 1) % f.g.Planes
		return f.take(ps.gcWP), true
	}
	return NoPage, false
}

// MappedIn returns how many logical pages in [lo, hi) are mapped: the valid units of the
// programmed blocks whose owner is in the range (each mapped page has exactly one valid
// unit; check.go verifies it). It reads the reverse map only where blocks hold valid data,
// never the whole logical-to-physical map: a scan of that would make every page of the
// map resident on a kernel that gives read faults a page of their own (no shared zero
// page), which the memory estimate does not count (platforms.EstimateMemory).
func (f *FTL) MappedIn(lo, hi int64) int64 {
	var n int64
	for b := range f.blocks {
		if f.blocks[b].valid == 0 {
			continue
		}
		first := int64(f.g.FirstPage(BlockID(b))) << f.shift
		for i := int64(0); i < int64(f.blocks[b].next)*int64(f.k); i++ {
			if v := f.p2l.at(first + i); v <= maxLPN && int64(v) >= lo && int64(v) < hi {
				n++
			}
		}
	}
	return n
}
