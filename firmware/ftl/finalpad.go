package ftl

// Word-line finality padding (docs/reliability.md, "Word-line finality"). A page is final
// only once its word line's finalizing program has completed (die.Spec.FinalizingPages);
// a Flush, an FUA write, the hold-up drain's end and an erase that waits for a copy's
// finality program the open block's next pages with no data until that program has run.
// The FTL gives out those pages here.

// PadNext takes open block b's next page for a program that carries no data (a finality
// pad: every slot is invalid from the start, Stats.FinalityPads) and returns it. It
// reports false, taking nothing, when b is not open (full, free, bad) or its pages are
// placed by position: a zone's member block (a page taken would be one the zone's
// capacity counts on), and under a hybrid mapping scheme any block but a log block no
// merge has queued (a data block's page i holds offset i). Padding a log block breaks its
// page order (no switch merge), and a pad that fills it queues its merge, as a host write
// that fills it does (the die's GC task must be notified).
func (f *FTL) PadNext(b BlockID) (PPN, bool) {
	m := &f.blocks[b]
	if m.state != stOpen || int(m.next) >= f.blockPages(b) {
		return NoPage, false
	}
	if f.zones != nil && f.zones.owned[b] {
		return NoPage, false
	}
	if f.hyb != nil {
		return f.hyb.pad(b)
	}
	p := f.take(b)
	f.padPage(p)
	return p, true
}

// padPage marks every slot of page p programmed with no data.
func (f *FTL) padPage(p PPN) {
	u := int64(p) << f.shift
	for i := int64(0); i < int64(f.k); i++ {
		f.p2l.put(u+i, pInvalid)
	}
	f.Stats.FinalityPads++
}

// pad is PadNext under BAST: only an unqueued log block is padded.
func (b *bast) pad(blk BlockID) (PPN, bool) {
	f := b.f
	die, _, _ := f.g.BlockAddr(blk)
	lo := die * b.per
	for s := lo; s < lo+b.per; s++ {
		l := &b.logs[s]
		if l.lbn < 0 || l.blk != blk || l.queued {
			continue
		}
		idx := int(f.blocks[blk].next)
		p := f.take(blk)
		f.padPage(p)
		l.inOrder = false
		if idx+1 == b.ppb {
			b.enqueue(int32(s))
		}
		return p, true
	}
	return NoPage, false
}

// Padded reports whether page p was programmed with no data (every slot invalid): a
// finality pad, or a page whose data was all superseded.
func (f *FTL) Padded(p PPN) bool {
	u := int64(p) << f.shift
	for i := int64(0); i < int64(f.k); i++ {
		if f.p2l.at(u+i) != pInvalid {
			return false
		}
	}
	return true
}

// Passed reports whether page p was passed over (skipped by an allocator, sealed, or
// wasted by a merge): it is never programmed until its block is erased.
func (f *FTL) Passed(p PPN) bool { return f.p2l.at(int64(p)<<f.shift) == pWasted }

// IsGCBlock reports whether open block b was opened by the GC stream (its programs go to
// the die's GC queue).
func (f *FTL) IsGCBlock(b BlockID) bool { return f.blocks[b].gc }
