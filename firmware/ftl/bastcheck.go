package ftl

import "fmt"

// check implements hybrid: BAST's invariants.
//   - log slots and the log-block map agree; a slot's block is open or full, on its die;
//   - an in-order log block's page map is the identity up to its next page;
//   - every block of the array is free, bad, a data block, a log block, a running full
//     merge's new block or a block the hold-up drain dumped into after a power cut (Dump),
//     and no block is two of those;
//   - every mapped logical page is in its logical block's data block at its offset, in its
//     log block, or in its running merge's block at its offset;
//   - BAST's own lookup (log block, then data block) finds, for every logical page, the page
//     the FTL's map serves reads from, or nothing current for an unmapped one;
//   - queued slots are bound and marked queued; a running merge's slot is marked queued.
func (b *bast) check() []error {
	f := b.f
	var errs []error
	bad := func(format string, a ...any) {
		if len(errs) < maxReported {
			errs = append(errs, fmt.Errorf("bast: "+format, a...))
		}
	}
	role := make([]int8, len(f.blocks)) // 1 data, 2 log, 3 merge target
	claim := func(blk BlockID, r int8, what string) {
		if blk == NoBlock || int(blk) >= len(role) {
			bad("%s names block %d", what, blk)
			return
		}
		if role[blk] != 0 {
			bad("block %d is both role %d and %s", blk, role[blk], what)
		}
		if st := f.blocks[blk].state; st == stFree || st == stBad {
			bad("%s block %d is free or bad (state %d)", what, blk, st)
		}
		role[blk] = r
	}
	// A running merge erases the old data (and, in a full merge, log) block before MergeDone
	// rebinds the logical block: such a block may be free already.
	erasedByMerge := func(lbn int64, blk BlockID) bool {
		r := &b.run[b.dieOf(lbn)]
		return r.active && r.lbn == lbn && f.blocks[blk].state == stFree
	}
	for lbn, d := range b.data {
		if d != NoBlock && !erasedByMerge(int64(lbn), d) {
			claim(d, 1, fmt.Sprintf("data block of logical block %d", lbn))
			if die, _, _ := f.g.BlockAddr(d); die != b.dieOf(int64(lbn)) {
				bad("data block %d of logical block %d is on die %d, not %d", d, lbn, die, b.dieOf(int64(lbn)))
			}
		}
		if s := b.logOf[lbn]; s >= 0 && b.logs[s].lbn != int64(lbn) {
			bad("logical block %d maps to log slot %d, bound to %d", lbn, s, b.logs[s].lbn)
		}
	}
	for si := range b.logs {
		l := &b.logs[si]
		if l.lbn < 0 {
			if l.queued {
				bad("free log slot %d is queued", si)
			}
			continue
		}
		if b.logOf[l.lbn] != int32(si) {
			bad("log slot %d bound to logical block %d, which maps to slot %d", si, l.lbn, b.logOf[l.lbn])
		}
		if b.dieOf(l.lbn) != si/b.per {
			bad("log slot %d of die %d bound to logical block %d of die %d", si, si/b.per, l.lbn, b.dieOf(l.lbn))
		}
		if erasedByMerge(l.lbn, l.blk) {
			continue
		}
		claim(l.blk, 2, fmt.Sprintf("log block of slot %d", si))
		next := int(f.blocks[l.blk].next)
		for off, i := range l.at {
			if i == 0 {
				continue
			}
			if int(i) > next {
				bad("log slot %d maps offset %d to page %d at or past the next page %d", si, off, i-1, next)
			}
			if l.inOrder && int(i) != off+1 {
				bad("in-order log slot %d maps offset %d to page %d", si, off, i-1)
			}
		}
		if l.inOrder {
			first := f.g.FirstPage(l.blk)
			for off := 0; off < next; off++ {
				// A running partial merge leaves offsets with no current page unprogrammed.
				if l.at[off] == 0 && f.p2l.at(int64(first+PPN(off))) != pWasted {
					bad("in-order log slot %d has no page for offset %d below its next page %d", si, off, next)
				}
			}
		}
	}
	for die := range b.run {
		if f.dies[die].merges != len(b.queue[die]) {
			bad("die %d counts %d queued merges, its queue holds %d", die, f.dies[die].merges, len(b.queue[die]))
		}
		for _, s := range b.queue[die] {
			if l := &b.logs[s]; l.lbn < 0 || !l.queued || int(s)/b.per != die {
				bad("die %d queues log slot %d (logical block %d, queued %v)", die, s, l.lbn, l.queued)
			}
		}
		if r := &b.run[die]; r.active {
			if l := &b.logs[r.slot]; l.lbn != r.lbn || !l.queued {
				bad("die %d runs a merge of logical block %d in slot %d, bound to %d (queued %v)", die, r.lbn, r.slot, l.lbn, l.queued)
			}
			if r.kind == FullMerge {
				claim(r.target, 3, fmt.Sprintf("merge block of die %d", die))
			}
		}
	}
	for bi, m := range f.blocks {
		dump := m.gc && m.valid == 0 // the hold-up drain's (Dump): no mapped page
		if m.state != stFree && m.state != stBad && role[bi] == 0 && !dump {
			bad("block %d (state %d, %d valid pages) is neither free, data, log, a merge's nor the hold-up drain's", bi, m.state, m.valid)
		}
	}
	for lpn := int64(0); lpn < int64(len(f.l2p)); lpn++ {
		p := f.PageOf(f.l2p.at(lpn)) // one unit a page: NoUnit reads as NoPage
		lbn, off := b.split(lpn)
		found, ok := b.lookup(lpn)
		if p == NoPage {
			if ok {
				bad("lpn %d is unmapped but BAST's lookup finds it current in page %d", lpn, found)
			}
			continue
		}
		if !ok || found != p {
			bad("lpn %d maps to page %d but BAST's lookup finds page %d (current %v)", lpn, p, found, ok)
		}
		blk, idx := f.g.BlockOf(p), f.pageIndex(p)
		inLog := b.logOf[lbn] >= 0 && b.logs[b.logOf[lbn]].blk == blk
		inData := b.data[lbn] == blk && idx == off
		r := &b.run[b.dieOf(lbn)]
		inMerge := r.active && r.lbn == lbn && r.target == blk && idx == off
		if !inLog && !inData && !inMerge {
			bad("lpn %d (logical block %d offset %d) is in page %d of block %d, neither its data block %d at its offset nor its log block",
				lpn, lbn, off, idx, blk, b.data[lbn])
		}
	}
	return errs
}

// precondition implements hybrid: the state after the first fill·LogicalPages logical pages
// were written, in any order and with any overwrites, and every log block then merged,
// which is what BAST leaves once the writes' merges are done: each logical block's pages in
// its data block at their offsets, no log block bound, no invalid page. (The order and the
// overwrites change which merges the writes would have taken, not where the pages end.)
func (b *bast) precondition(fill float64, _ bool, _ uint64) error {
	f := b.f
	n := int64(fill * float64(len(f.l2p)))
	for lbn := int64(0); lbn < int64(len(b.data)); lbn++ {
		for off := 0; off < b.ppb; off++ {
			lpn := b.lpnOf(lbn, off)
			if lpn >= n {
				continue
			}
			d := b.data[lbn]
			if d == NoBlock {
				var ok bool
				if d, ok = b.open(b.dieOf(lbn), false); !ok {
					return fmt.Errorf("precondition: %w (die %d)", errNoBAST, b.dieOf(lbn))
				}
				b.data[lbn] = d
			}
			for int(f.blocks[d].next) < off {
				b.waste(d)
			}
			f.bind(lpn, Unit(f.take(d)))
		}
	}
	f.Stats = Stats{WastedNow: f.Stats.WastedNow}
	return nil
}
