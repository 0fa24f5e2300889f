package ftl

import (
	"errors"
	"fmt"
)

// latencyAware is FD-FTL ("latency-aware"): block pointers grouped by the kind of their next
// free page; foreground writes take LSB pages across dies, background writes fill CSB/MSB
// pages (falling back to LSB), and the LSB-only region bounds the open blocks.
type latencyAware struct {
	Space
	planes, pagesPerBlock   int
	regionPages, skipBlocks int         // ftl.lsb_only_pages, ftl.lsb_only_blocks
	open                    [][]BlockID // per die: open host blocks, oldest first
	rr                      []int       // per die: the plane the next block is opened on first
	// behind, per block: the page index before which the block's next pages are CSB/MSB
	// pages a foreground write left behind (the waste accounting, Space.LeftBehind).
	behind []uint16
}

func newLatencyAware(s Space) Allocator {
	g, c := s.Geometry(), s.Config()
	a := &latencyAware{Space: s, planes: g.Planes, pagesPerBlock: g.PagesPerBlock,
		regionPages: c.LSBOnlyPages, skipBlocks: c.LSBOnlyBlocks,
		open: make([][]BlockID, g.Dies()), rr: make([]int, g.Dies()), behind: make([]uint16, g.Blocks())}
	for d := range a.open {
		a.open[d] = make([]BlockID, 0, c.regionBlocks(g))
	}
	if c.LSBOnlyReclaim && c.LSBOnlyBlocks > 0 {
		s.f.skipReclaimAt = c.LSBOnlyBlocks // GC reclaims the skip region (reclaim.go)
	}
	return a
}

// Allocate implements FD-FTL's grouping (the paper's block pointers, grouped by the kind of
// their next free page and listed per die): each open block is in the LSB, CSB or MSB group
// by the kind of its next free page. Foreground writes take LSB pages across every open
// block, oldest first, and open a fresh block (whose page 0 is LSB) whenever no open block
// is at an LSB page and the die's LSB-only region — the pages its open blocks have not yet
// programmed — has room for one more block within LSBOnlyPages. Only when no LSB page is
// left that way do they skip CSB/MSB pages to the nearest LSB page, in blocks of the skip
// region (at most LSBOnlyBlocks blocks per die holding skipped pages); with that full too,
// they program the oldest open block's next page, wasting nothing. Background writes take
// CSB/MSB-group blocks first, oldest first, then LSB-group ones, and open a block only when
// the die has none open or the region has room.
func (a *latencyAware) Allocate(_ int64, die int, purpose Purpose) (PPN, error) {
	var b BlockID
	if purpose == Foreground {
		b = a.pickOpen(die, true)
		if b == NoBlock && a.mayOpen(die) {
			b = a.openForDie(die)
		}
		for b == NoBlock && len(a.open[die]) > 0 {
			b = a.nearestLSB(die, a.SkipBlocks(die) < a.skipBlocks)
			if b == NoBlock {
				b = a.open[die][0] // the LSB-only region is full: no skipping
				a.Bounded()
				break
			}
			for !a.IsFull(b) && a.Kind(a.NextPage(b)) != LSB {
				if a.NextPage(b) < int(a.behind[b]) {
					a.SkippedBehind()
				}
				a.Skip(b)
			}
			if a.IsFull(b) {
				a.dropOpen(die, b)
				b = NoBlock
				if a.mayOpen(die) {
					b = a.openForDie(die)
				}
			}
		}
	} else {
		b = a.pickOpen(die, false)
		if b == NoBlock {
			b = a.pickOpen(die, true)
		}
		if b == NoBlock && a.mayOpen(die) {
			b = a.openForDie(die)
		}
	}
	if b == NoBlock {
		return NoPage, ErrNoSpace
	}
	p := a.take(b, purpose)
	if a.IsFull(b) {
		a.dropOpen(die, b)
	}
	return p, nil
}

// take takes b's next page and keeps the waste accounting: a page left behind is now
// filled; a foreground write on an LSB page followed by CSB/MSB pages leaves those pages
// (up to the block's next LSB page) behind for background writes.
func (a *latencyAware) take(b BlockID, purpose Purpose) PPN {
	i := a.NextPage(b)
	if i < int(a.behind[b]) {
		a.FilledBehind()
	}
	p := a.Take(b)
	if purpose == Foreground && a.Kind(i) == LSB {
		j := i + 1
		for j < a.pagesPerBlock && a.Kind(j) != LSB {
			j++
		}
		if j > i+1 {
			a.behind[b] = uint16(j)
			a.LeftBehind(j - i - 1)
		}
	}
	return p
}

// HasFastPage implements FastPager: a foreground write on the die would take an LSB page
// without skipping: an open block's next page is LSB, or the LSB-only region has room for a
// fresh block (whose page 0 is LSB) and a plane has a free block outside the GC reserve.
func (a *latencyAware) HasFastPage(die int) bool {
	if a.pickOpen(die, true) != NoBlock {
		return true
	}
	if !a.mayOpen(die) {
		return false
	}
	reserve := a.Config().GCReserve
	for p := 0; p < a.planes; p++ {
		if a.FreeBlocks(die, p) > reserve {
			return true
		}
	}
	return false
}

// mayOpen reports whether the die may open one more block: it has none open, or the pages
// its open blocks have not programmed (the LSB-only region) plus a fresh block's stay
// within LSBOnlyPages.
func (a *latencyAware) mayOpen(die int) bool {
	return len(a.open[die]) == 0 || a.region(die)+a.pagesPerBlock <= a.regionPages
}

// region returns the pages of the die's open blocks not yet programmed.
func (a *latencyAware) region(die int) int {
	n := 0
	for _, b := range a.open[die] {
		n += a.pagesPerBlock - a.NextPage(b)
	}
	return n
}

// pickOpen returns the oldest open block of the die whose next page is LSB (lsb true) or
// CSB/MSB (lsb false), or NoBlock.
func (a *latencyAware) pickOpen(die int, lsb bool) BlockID {
	for _, b := range a.open[die] {
		if (a.Kind(a.NextPage(b)) == LSB) == lsb {
			return b
		}
	}
	return NoBlock
}

// nearestLSB returns the open block with the fewest pages to skip before an LSB page,
// among the blocks already in the skip region (holding skipped pages), or among all open
// blocks if grow is set (the region may take one more); NoBlock if there is none.
func (a *latencyAware) nearestLSB(die int, grow bool) BlockID {
	best, bestDist := NoBlock, 1<<30
	for _, b := range a.open[die] {
		if !grow && a.WastedCount(b) == 0 {
			continue
		}
		d := 0
		for n := a.NextPage(b); n < a.pagesPerBlock && a.Kind(n) != LSB; n++ {
			d++
		}
		if d < bestDist {
			best, bestDist = b, d
		}
	}
	return best
}

// openForDie opens a fresh block on the die's next plane with a free block and adds it to
// the die's open list.
func (a *latencyAware) openForDie(die int) BlockID {
	for try := 0; try < a.planes; try++ {
		plane := (a.rr[die] + try) % a.planes
		if b, ok := a.OpenBlock(die, plane); ok {
			a.rr[die] = (plane + 1) % a.planes
			a.open[die] = append(a.open[die], b)
			return b
		}
	}
	return NoBlock
}

// dropOpen removes b from the die's open list, if present.
func (a *latencyAware) dropOpen(die int, b BlockID) {
	open := a.open[die]
	for i, o := range open {
		if o == b {
			copy(open[i:], open[i+1:])
			a.open[die] = open[:len(open)-1]
			return
		}
	}
}

// Erased drops b from its die's open list.
func (a *latencyAware) Erased(b BlockID) {
	die, _, _ := a.f.g.BlockAddr(b)
	a.dropOpen(die, b)
	a.behind[b] = 0
}

// PreconditionLayout implements Preconditioner: with no foreground write, the allocator
// fills one block at a time (a fresh block's next page is LSB, so background writes keep
// taking it until it is full) and opens the next on the next plane.
func (a *latencyAware) PreconditionLayout() Layout { return BlockFilled }

// Preconditioned implements Preconditioner: the die's partly written block, if any, is its
// one open block, and the next block opens on plane (blocks opened) mod P.
func (a *latencyAware) Preconditioned(die int, writes int64, last []BlockID) {
	for _, b := range last {
		if b != NoBlock && !a.IsFull(b) {
			a.open[die] = append(a.open[die], b)
		}
	}
	B := int64(a.pagesPerBlock)
	a.rr[die] = int((writes + B - 1) / B % int64(a.planes))
}

// Check implements Checker: per die, the skip region within lsb_only_blocks, every block
// on the open list open, and the LSB-only region within lsb_only_pages (at least a block).
func (a *latencyAware) Check() error {
	var errs []error
	for d, open := range a.open {
		if n := a.SkipBlocks(d); n > a.skipBlocks {
			errs = append(errs, fmt.Errorf("die %d: skip region of %d blocks exceeds lsb_only_blocks %d", d, n, a.skipBlocks))
		}
		for _, b := range open {
			if !a.IsOpen(b) {
				errs = append(errs, fmt.Errorf("die %d: block %d is on the open list but not open", d, b))
			}
		}
		if r := a.region(d); r > max(a.regionPages, a.pagesPerBlock) {
			errs = append(errs, fmt.Errorf("die %d: LSB-only region of %d unprogrammed pages exceeds lsb_only_pages %d", d, r, a.regionPages))
		}
	}
	return errors.Join(errs...)
}
