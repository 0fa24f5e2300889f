package die

// Reads of pages whose word line the programming scheme has not finished (scheme.go).
//
// One-shot: a word line's lower pages are loaded into the page-buffer latches (each ended
// by 1Ah) and reach the cells only when its last page's program (10h) runs; until then the
// cells are erased. A Read Page (00h–30h) senses the array into the page register, so a
// read of a latched page returns erased data, never the latched data. (Some dies move the
// latched data aside to serve a read in the middle of a word line's load: SK hynix, Korean
// patent application 10-2015-0063233; the read still senses the array.)
//
// Two-pass (foggy/fine, e.g. QLC 16-16): a word line that has had its coarse (foggy) pass
// and not its fine pass cannot be read: "The foggy state is unreadable, and the data needs
// to be protected in case of a possible power loss event" (Western Digital, US 11,137,944
// B1, "Combined QLC Programming Method", 2021, background). The controller keeps the data
// (it sends it again for the fine pass: Spec.ResendBytes), and after an ungraceful shutdown
// it has to find out whether an open block's last word lines are foggy or fine (Western
// Digital, US 11,416,058 B2, claims 2–4).
//
// The die models both: a latched page reads back ErasedStamp; a page of a coarse-only word
// line, or of a word line whose one-shot, coarse or fine program is running (a read that
// suspends it: its cells are between levels), is uncorrectable — the die reports it
// (Failed) and its stamp reads back LostStamp. Stats.UnfinishedReads counts both. A firmware
// that serves such a read from the die has not kept the data it had to keep: it must serve
// reads of a word line not yet final from its own DRAM. Page by page (2D) every programmed
// page reads back its data: a lower page is readable before its word line's upper pages
// are programmed (it is only provisional, FinalizingPages); a read of the page whose
// program a read suspended returns its data too (not modelled finer). Pages filled before
// the run are final (finalFloor).

// Unfinished is what the array holds, at a read, for a page below its block's write
// pointer (Die.unfinished).
type Unfinished uint8

// The states of a page below its block's write pointer.
const (
	// Done: the page's program has ended (it may still be provisional: a later program on
	// its word line can destroy it at a cut, FinalizingPages), and its data reads back.
	Done Unfinished = iota
	// Latched: one-shot or two-pass, the page's word line is not complete; the page is
	// only in the die's page registers and its cells are still erased.
	Latched
	// Coarse: two-pass, the page's word line has had its coarse (foggy) pass and not its
	// fine pass.
	Coarse
	// Programming: one-shot or two-pass, the page is on a word line whose program (one-shot
	// or coarse pass) or fine pass is running.
	Programming
)

// unfinished classifies page pg of block index b (plane p, block blk), below the block's
// write pointer, at a read at which the running operation, if any, is still open.
func (d *Die) unfinished(b, p, blk, pg int) Unfinished {
	scheme := d.spec.ProgramScheme()
	if scheme == PageByPage || d.isSLC(b) || pg < d.finalFloor(b) {
		return Done
	}
	bits := d.spec.Bits()
	n := int(d.next[b])
	if n%bits != 0 && pg >= n-n%bits {
		return Latched
	}
	if d.opOpen && d.opProg && d.opPlanes&(1<<uint(p)) != 0 && int(d.opBlock[p]) == blk &&
		pg >= d.interrupted(d.opPage) && pg <= d.opPage {
		return Programming
	}
	if wl := n - n%bits; scheme == TwoPass && wl > 0 && n < d.spec.PagesPerBlock && pg >= wl-bits {
		return Coarse
	}
	return Done
}

// unfinishedReads returns the planes of addrs whose page is not readable (unfinished),
// before the read changes the die's state: bit i for addrs[i]. 0 on a page-by-page die.
func (d *Die) unfinishedReads(addrs []Addr) uint64 {
	if d.spec.ProgramScheme() == PageByPage {
		return 0
	}
	var m uint64
	for i, a := range addrs {
		b := d.blockIndex(a.Plane, a.Block)
		if a.Page < int(d.next[b]) && d.unfinished(b, a.Plane, a.Block, a.Page) != Done {
			m |= 1 << uint(i)
		}
	}
	return m
}

// readUnfinished gives the pages of addrs in m (unfinishedReads) what the array returns:
// ErasedStamp for a latched page, LostStamp and an uncorrectable verdict (Failed, no retry
// helps) for the others.
func (d *Die) readUnfinished(addrs []Addr, stamps []uint64, m uint64) {
	for i, a := range addrs {
		if m&(1<<uint(i)) == 0 {
			continue
		}
		d.stats.UnfinishedReads++
		b := d.blockIndex(a.Plane, a.Block)
		w := LostStamp
		if d.unfinished(b, a.Plane, a.Block, a.Page) == Latched {
			w = ErasedStamp // the cells are erased
		} else {
			d.failed |= 1 << uint(a.Plane)
			d.stats.Uncorrectable++
		}
		for s := 0; s < d.k; s++ {
			stamps[i*d.k+s] = w
		}
	}
	if d.failed != 0 {
		d.retryLeft = 0 // no read level decodes a word line between levels
	}
}
