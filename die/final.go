package die

// FinalizingPages returns, for each page index of a block (in the die's native mode), the
// page of the same block whose program, once complete, makes that page final: no later
// program can destroy it, so a power cut from then on leaves it readable (Cut). It is the
// one rule the firmware's durability follows (docs/reliability.md, "Word-line finality"):
//
//   - SLC (one page a word line): the page itself.
//   - Page by page (2D): the highest page of its word line (WordLine). A cut during a
//     word line's CSB or MSB program destroys its lower pages (Cut; lower-page corruption,
//     Tseng, Grupp and Swanson, DAC 2011), so an LSB page is final only when its word
//     line's last page (MSB, or CSB or LSB on the block's last word lines, which the 2D TLC
//     shadow order leaves without one) has been programmed. 2D TLC, 384 pages
//     (docs/sources.md §3.4): page 0 (LSB, word line 0) → 12 (its MSB); page 8 (LSB, word
//     line 6) → 30, 22 pages later; page 368 (LSB, word line 126) → 382 (its CSB: word
//     line 126 has no MSB page).
//   - One-shot: the word line's last page, whose program starts the array for the whole
//     word line (the others are only latched until then).
//   - Two-pass: the last page of the next word line, whose program runs this word line's
//     fine pass; the block's last two word lines → the block's last page (its own fine
//     pass follows its coarse pass at once).
//
// A block in pSLC mode (slc.go) programs each page on its own: every page is final at its
// own completion, whatever this table says; the caller, which knows the block's mode,
// applies that.
func (s Spec) FinalizingPages() []int {
	n, b := s.PagesPerBlock, s.Bits()
	f := make([]int, n)
	switch {
	case b == 1:
		for p := range f {
			f[p] = p
		}
	case s.ProgramScheme() == OneShot:
		for p := range f {
			f[p] = p - p%b + b - 1
		}
	case s.ProgramScheme() == TwoPass:
		for p := range f {
			f[p] = min(p-p%b+2*b-1, n-1)
		}
	default:
		// Page by page: the word line of each page is its rank among the block's pages of
		// its type (WordLine), computed in one pass; the last page seen on a word line is
		// its highest.
		var rank [NumPageTypes]int
		wl := make([]int, n)
		last := make([]int, n)
		for p := range n {
			t := s.PageType(p)
			wl[p] = rank[t]
			rank[t]++
			last[wl[p]] = p
		}
		for p := range f {
			f[p] = last[wl[p]]
		}
	}
	return f
}
