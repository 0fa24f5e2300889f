package ftl

import (
	"errors"
	"fmt"
)

// maxReported bounds the problems one Check returns.
const maxReported = 20

// Check verifies every FTL invariant and returns the problems found (at most 20), or nil:
//   - map and reverse map agree both ways (per unit, with sub-page mapping: every slot);
//   - every mapped unit is in a page below its block's next free page;
//   - each block's valid count equals its units' states, its wasted count its pages';
//   - units of pages below a block's next free page are programmed (valid, invalid or
//     padded) or wasted, a skipped page's slots all wasted; units above are free;
//   - free lists hold exactly the free blocks of their plane;
//   - the running wasted-page count equals the sum over blocks;
//   - bad blocks (the bad-block table) hold no skipped page and match the table's count
//     (they are never free: the free-list check covers that);
//   - the allocator's and the victim policy's own invariants, if they implement Checker
//     (the latency-aware allocator: its open lists hold open blocks, its LSB-only region
//     and skip region stay within lsb_only_pages and lsb_only_blocks);
//   - a hybrid mapping scheme's own (BAST: bastcheck.go);
//   - the SLC cache's (slccache.go: its blocks' states and per-plane counts).
//
// Tests call it after every GC and at the end of every run.
func (f *FTL) Check() error {
	var errs []error
	bad := func(format string, a ...any) {
		if len(errs) < maxReported {
			errs = append(errs, fmt.Errorf(format, a...))
		}
	}
	for lpn := range f.l2p {
		u := f.l2p.at(int64(lpn))
		if u == NoUnit {
			continue
		}
		if int64(u) >= f.g.AllUnits() {
			bad("lpn %d maps to unit %d beyond the array", lpn, u)
			continue
		}
		if f.p2l.at(int64(u)) != uint32(lpn) {
			bad("lpn %d maps to unit %d whose reverse map says %#x", lpn, u, f.p2l.at(int64(u)))
		}
		p := f.PageOf(u)
		b := f.g.BlockOf(p)
		if f.pageIndex(p) >= int(f.blocks[b].next) {
			bad("lpn %d maps to unit %d (page %d) at or past block %d's next free page %d", lpn, u, p, b, f.blocks[b].next)
		}
	}
	var wasted int64
	nbad := 0
	freePerPlane := make([]int, len(f.planes))
	lsbOnly := make([]int, len(f.dies))
	skipFull := make([]int, len(f.dies))
	for bi := range f.blocks {
		b := BlockID(bi)
		m := &f.blocks[b]
		first := Unit(f.g.FirstPage(b)) << f.shift
		valid, waste := 0, 0
		for i := 0; i < f.g.PagesPerBlock*f.k; i++ {
			u := first + Unit(i)
			v := f.p2l.at(int64(u))
			pg, slot := i>>f.shift, i&(f.k-1)
			switch {
			case pg >= int(m.next):
				if v != pFree {
					bad("block %d page %d slot %d is past the next free page %d but not free (%#x)", b, pg, slot, m.next, v)
				}
			case v == pFree:
				bad("block %d page %d slot %d is below the next free page %d but free", b, pg, slot, m.next)
			case v == pWasted:
				if slot == 0 {
					waste++
				}
				if w0 := f.p2l.at(int64(u) - int64(slot)); w0 != pWasted {
					bad("block %d page %d slot %d is wasted but slot 0 is not (%#x)", b, pg, slot, w0)
				}
			case v <= maxLPN:
				valid++
				if int64(v) >= int64(len(f.l2p)) || f.l2p.at(int64(v)) != u {
					bad("unit %d claims lpn %d, which maps elsewhere", u, v)
				}
			}
		}
		if valid != int(m.valid) {
			bad("block %d valid count %d, pages say %d", b, m.valid, valid)
		}
		if waste != int(m.wasted) {
			bad("block %d wasted count %d, pages say %d", b, m.wasted, waste)
		}
		wasted += int64(waste)
		if waste > 0 && !f.mountClosed(b) { // abandoned at mount: not in the skip region
			die, _, _ := f.g.BlockAddr(b)
			lsbOnly[die]++
			if m.state == stFull {
				skipFull[die]++
			}
		}
		switch m.state {
		case stFree:
			if m.next != 0 {
				bad("free block %d has next page %d", b, m.next)
			}
			die, plane, _ := f.g.BlockAddr(b)
			freePerPlane[die*f.g.Planes+plane]++
		case stFull:
			if int(m.next) != f.g.PagesPerBlock && !f.IsSLC(b) { // checkSLC checks SLC blocks'
				bad("full block %d has next page %d", b, m.next)
			}
		case stBad:
			nbad++
			if waste > 0 {
				bad("bad block %d holds %d skipped pages", b, waste)
			}
		}
	}
	for pi := range f.planes {
		ps := &f.planes[pi]
		if ps.freeN != freePerPlane[pi] {
			bad("plane %d free list holds %d blocks, %d blocks are free", pi, ps.freeN, freePerPlane[pi])
		}
		for k := 0; k < ps.freeN; k++ {
			b := ps.free[(ps.freeHead+k)%len(ps.free)]
			if f.blocks[b].state != stFree {
				bad("plane %d free list holds block %d which is not free", pi, b)
			}
		}
	}
	for d := range f.dies {
		if f.dies[d].lsbOnly != lsbOnly[d] {
			bad("die %d: %d blocks hold skipped pages, the LSB-only region count says %d", d, lsbOnly[d], f.dies[d].lsbOnly)
		}
		if f.dies[d].skipFull != skipFull[d] {
			bad("die %d: %d full blocks hold skipped pages, the skip region's full count says %d", d, skipFull[d], f.dies[d].skipFull)
		}
		if f.dies[d].reclaim != f.reclaimsSkip(d) {
			bad("die %d: the skip region's reclaim flag is %v, its counts say %v", d, f.dies[d].reclaim, f.reclaimsSkip(d))
		}
	}
	if nbad != f.bad {
		bad("%d blocks are bad, the bad-block table counts %d", nbad, f.bad)
	}
	if wasted != f.Stats.WastedNow {
		bad("wasted pages %d, running count %d", wasted, f.Stats.WastedNow)
	}
	if f.place != nil {
		f.place.check(bad)
	}
	if f.slc != nil {
		f.checkSLC(bad)
	}
	if f.zones != nil {
		f.zones.check(f, bad)
	}
	if f.hyb != nil {
		for _, e := range f.hyb.check() {
			bad("%v", e)
		}
	}
	for _, p := range []any{f.alloc, f.victim} {
		if c, ok := p.(Checker); ok {
			for _, e := range leaves(c.Check()) {
				bad("%v", e)
			}
		}
	}
	return errors.Join(errs...)
}

// CheckProgrammed compares the FTL's next free page of every block with the flash's own
// record (nextOnFlash returns the die's next programmable page of a block) and reports
// disagreements. Pages skipped by an allocator are not programmed on flash, so the flash
// may be behind the FTL by trailing wasted pages only (in a bad block, by any number: its
// skipped pages were turned invalid when it was retired).
func (f *FTL) CheckProgrammed(nextOnFlash func(b BlockID) int) error {
	var errs []error
	for bi := range f.blocks {
		b := BlockID(bi)
		m := &f.blocks[b]
		fl := nextOnFlash(b)
		lo := int(m.next)
		for lo > 0 && f.p2l.at(int64(f.g.FirstPage(b)+PPN(lo-1))<<f.shift) == pWasted {
			lo--
		}
		if m.state == stBad {
			lo = 0 // Retire counted its skipped pages invalid: trailing ones may be anywhere below
		}
		if fl < lo || fl > int(m.next) {
			errs = append(errs, fmt.Errorf("block %d: FTL next page %d, flash next page %d", b, m.next, fl))
			if len(errs) == maxReported {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// leaves returns the errors errors.Join joined into err (err itself if it joins none).
func leaves(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, leaves(e)...)
		}
		return out
	}
	return []error{err}
}
