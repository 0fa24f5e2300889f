package ftl

// PickVictim returns the full block of the plane that GC should clean, by the configured
// policy, or false if no full block has an invalid or wasted page to reclaim.
func (f *FTL) PickVictim(die, plane int) (BlockID, bool) {
	first := BlockID((die*f.g.Planes + plane) * f.g.BlocksPerPlane)
	best := noBlock
	var bestScore float64
	bestValid := f.g.PagesPerBlock + 1
	now := uint32(f.clock / uint64(f.g.PagesPerBlock))
	for i := 0; i < f.g.BlocksPerPlane; i++ {
		b := first + BlockID(i)
		m := &f.blocks[b]
		if m.state != stFull || int(m.valid) == f.g.PagesPerBlock {
			continue
		}
		switch f.cfg.Victim {
		case CostBenefit:
			// age·(1−u)/(2u); an empty block (u = 0) wins outright.
			u := float64(m.valid) / float64(f.g.PagesPerBlock)
			score := 1e300
			if m.valid > 0 {
				score = float64(now-m.age+1) * (1 - u) / (2 * u)
			}
			if best == noBlock || score > bestScore {
				best, bestScore = b, score
			}
		default:
			if int(m.valid) < bestValid {
				best, bestValid = b, int(m.valid)
			}
		}
	}
	if best == noBlock {
		return noBlock, false
	}
	f.Stats.GCVictims++
	return best, true
}

// ValidPages appends the valid pages of block b to dst and returns it.
func (f *FTL) ValidPages(b BlockID, dst []PPN) []PPN {
	first := f.g.FirstPage(b)
	for i := 0; i < int(f.blocks[b].next); i++ {
		if f.p2l.at(int64(first+PPN(i))) <= maxLPN {
			dst = append(dst, first+PPN(i))
		}
	}
	return dst
}
