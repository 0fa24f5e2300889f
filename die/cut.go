package die

import "github.com/fastdrain-sim/fastdrain/sim"

// LostStamp is the word read back from a page a power cut destroyed (Cut): its program was
// interrupted, or a later program on its word line was. Such a page is neither erased nor
// holding its data; a firmware reading it sees this value and no version it wrote.
const LostStamp = ^uint64(0) - 1

// Cut is the die's side of a sudden power loss at t: the array stops, and the data that
// the programming scheme (scheme.go) had not made final is lost. It returns the lost pages
// in plane, block, page order and leaves the die as a power-on would find it:
//
//   - Page by page: the page whose program is running at t, and the lower pages already
//     programmed on its word line (WordLine; lower-page corruption) read back LostStamp.
//   - One-shot: the pages of a word line whose program is running at t read back
//     LostStamp; the pages only latched in the page registers (a word line not yet
//     complete) never reached the array: they are erased again (the block's next page
//     moves back to the word line's first).
//   - Two-pass: as one-shot, and every word line whose fine pass has not ended — the
//     coarse-only word line below each block's write pointer, and, during a program, the
//     word line whose fine pass is running — reads back LostStamp.
//
// A block in SLC mode (slc.go) holds one page a word line, each programmed on its own:
// a cut loses only the page whose program is running at t, as page by page without lower
// pages.
//
// An erase running at t leaves its block as the firmware must assume (it erases only
// blocks without valid data), so Cut reports no page for it. The firmware's power-loss
// code (w38pl's recovery) uses the list to drop the records of what was lost.
func (d *Die) Cut(t sim.Time) []Addr {
	var lost []Addr
	running := d.opOpen && t < d.opEnd && d.opProg
	bits := d.spec.Bits()
	for p := range d.spec.Planes {
		for blk := range d.spec.BlocksPerPlane {
			b := d.blockIndex(p, blk)
			// A block in SLC mode (slc.go) holds a page a word line, each programmed on its
			// own: a cut loses only the page whose program is running.
			scheme, slc := d.spec.ProgramScheme(), d.isSLC(b)
			if slc {
				scheme = PageByPage
			}
			n := int(d.next[b])
			floor := d.finalFloor(b) // pages filled before the run: final
			lo, hi := n, n           // [lo, hi): pages made LostStamp; latched pages are erased
			if scheme != PageByPage && n%bits != 0 {
				keep := max(n-n%bits, min(floor, n))
				lo, hi = keep, keep // the latched word line goes back to erased
				for pg := keep; pg < n; pg++ {
					lost = append(lost, Addr{Plane: p, Block: blk, Page: pg})
				}
				d.next[b] = uint16(keep)
				n = keep
			}
			if wl := n - n%bits; scheme == TwoPass && wl > 0 && n < d.spec.PagesPerBlock {
				lo = wl - bits // the word line whose fine pass has not run
			}
			if running && d.opPlanes&(1<<uint(p)) != 0 && int(d.opBlock[p]) == blk {
				if slc {
					lo = min(lo, d.opPage)
				} else {
					lo = min(lo, d.interrupted(d.opPage))
				}
				hi = max(hi, d.opPage+1)
			}
			if lo >= hi {
				continue
			}
			o := d.stored(b, p, blk)
			for pg := lo; pg < hi; pg++ {
				inOp := running && int(d.opBlock[p]) == blk && d.opPlanes&(1<<uint(p)) != 0
				if pg >= n || pg < floor || (slc && inOp && pg != d.opPage) || (!slc && !d.sameOrLowerPage(pg, d.opPage, inOp, scheme)) {
					continue
				}
				for s := 0; s < d.k; s++ {
					o[pg*d.k+s] = LostStamp
				}
				lost = append(lost, Addr{Plane: p, Block: blk, Page: pg})
			}
		}
	}
	if d.opOpen {
		d.opEnd = t // the array stops at the cut
		d.closeOp()
	}
	d.readEnd = min(d.readEnd, t)
	for i, e := range d.planeEnd {
		d.planeEnd[i] = min(e, t)
	}
	sortAddrs(lost)
	return lost
}

// interrupted returns the lowest page a program of page running at a cut destroys: its
// word line's first page (one-shot), the previous word line's first page (two-pass: its
// fine pass runs too) or, page by page, the lowest page of its word line.
func (d *Die) interrupted(page int) int {
	bits := d.spec.Bits()
	switch d.spec.ProgramScheme() {
	case OneShot:
		return page - page%bits
	case TwoPass:
		return max(0, page-page%bits-bits)
	}
	if d.wordLow == nil { // SLC: a page a word line
		return page
	}
	return int(d.wordLow[page])
}

// sameOrLowerPage reports whether page pg, in the range a cut destroys, is lost: always,
// except page by page, where only the interrupted page and the pages on its word line are
// (the range from the word line's lowest page also holds other word lines' pages).
func (d *Die) sameOrLowerPage(pg, opPage int, inOp bool, scheme Scheme) bool {
	if scheme != PageByPage || !inOp {
		return true
	}
	return pg == opPage || d.wordLine != nil && d.wordLine[pg] == d.wordLine[opPage]
}

// wordLines returns, page by page with several bits a cell, each page's word line (its
// rank among the block's pages of its type, Spec.WordLine) and its word line's lowest
// page, from the page types types; nil otherwise.
func wordLines(s Spec, types []PageType) (wl, low []uint16) {
	if s.Bits() == 1 || s.ProgramScheme() != PageByPage {
		return nil, nil
	}
	wl, low = make([]uint16, len(types)), make([]uint16, len(types))
	var rank [NumPageTypes]uint16
	first := make([]int, len(types)) // word line → its lowest page + 1, 0 until seen
	for p, pt := range types {
		wl[p] = rank[pt]
		rank[pt]++
		if first[wl[p]] == 0 {
			first[wl[p]] = p + 1
		}
		low[p] = uint16(first[wl[p]] - 1)
	}
	return wl, low
}

// sortAddrs sorts addresses by plane, block, page (insertion sort: a cut loses a few pages
// per open block).
func sortAddrs(a []Addr) {
	less := func(x, y Addr) bool {
		if x.Plane != y.Plane {
			return x.Plane < y.Plane
		}
		if x.Block != y.Block {
			return x.Block < y.Block
		}
		return x.Page < y.Page
	}
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && less(a[j], a[j-1]); j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// RunningLoss returns the pages a power cut at t would destroy because of the program
// running at t (none if none runs): the pages Cut(t) loses on the running program's
// blocks besides those lost whatever runs (latched pages, coarse-only word lines). Page by
// page: the interrupted page and the lower pages of its word line already programmed;
// one-shot: the word line being programmed; two-pass: it and the word line whose fine pass
// runs; a block in SLC mode: the page. Pages filled before the run are final (finalFloor).
// It changes nothing: a schedule aims its cut with it.
func (d *Die) RunningLoss(t sim.Time) []Addr {
	if !d.opOpen || !d.opProg || t >= d.opEnd {
		return nil
	}
	var lost []Addr
	scheme := d.spec.ProgramScheme()
	for p := range d.spec.Planes {
		if d.opPlanes&(1<<uint(p)) == 0 {
			continue
		}
		blk := int(d.opBlock[p])
		b := d.blockIndex(p, blk)
		lo, slc := d.interrupted(d.opPage), d.isSLC(b)
		if slc {
			lo = d.opPage
		}
		for pg := max(lo, d.finalFloor(b)); pg <= d.opPage; pg++ {
			if slc || d.sameOrLowerPage(pg, d.opPage, true, scheme) {
				lost = append(lost, Addr{Plane: p, Block: blk, Page: pg})
			}
		}
	}
	return lost
}

// RunningErase returns the blocks (Page 0) of the erase running at t, none if no erase
// runs. It changes nothing: a power-cut schedule aims its cut with it.
func (d *Die) RunningErase(t sim.Time) []Addr {
	if !d.opOpen || d.opProg || t >= d.opEnd {
		return nil
	}
	var blocks []Addr
	for p := range d.spec.Planes {
		if d.opPlanes&(1<<uint(p)) != 0 {
			blocks = append(blocks, Addr{Plane: p, Block: int(d.opBlock[p])})
		}
	}
	return blocks
}
