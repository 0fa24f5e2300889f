package ftl

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/internal/bitset"
)

// Mounting the FTL on the flash a power cut left (firmware.Firmware.Mount). The firmware's
// power-on scan (firmware.Recover) gives, per block, its write pointer as the flash stands
// (the first page no program was given) and its P/E count (the block header, as UBI keeps
// an erase counter at the start of every eraseblock: docs.kernel.org, "UBI - Unsorted Block
// Images", "UBI headers"), and per logical page the unit holding its newest copy. Mount
// rebuilds from them the map and reverse map, the blocks' states, valid counts, write
// pointers and P/E counts, and the free lists; the allocators and the GC stream start with
// no write point, as after New.
//
// The decision: every block the scan found partly written is closed, its unwritten pages
// abandoned (wasted until its erase, as an allocator's skipped pages are), and the
// allocators open fresh blocks. A block a cut left partly written may hold, on 2D MLC/TLC,
// lower pages whose word line's upper pages are still to come: a cut during one of those
// later programs destroys the lower page (the paired-page problem: Tseng, Grupp, Swanson,
// "Understanding the Impact of Power Loss on Flash Memory", DAC 2011), which held data
// durable before the first cut. Padding the block closed would run exactly those programs,
// so the pages are abandoned, not padded: nothing programs the block again before its erase,
// and GC reclaims it as any other (its valid pages relocated, the source kept until the
// copies are final). The waste is at most a block per open write point.

// MountImage is what a power-on scan found on the flash, as Mount takes it.
type MountImage struct {
	// Next is, per block, the scan's write pointer: its pages below it were given a
	// program before the cut (0: erased).
	Next []int
	// Erases is, per block, its P/E count.
	Erases []uint32
	// Map holds, per logical page, the unit holding its newest copy, NoUnit for none.
	Map []Unit
}

// MountReport says what Mount did: the blocks holding data, the blocks it closed (partly
// written) and the pages it abandoned in them, the blocks it resumed (the control), and the
// logical pages mapped.
type MountReport struct {
	Written, Closed, Resumed int
	Abandoned                int64
	Mapped                   int64
}

// Mount rebuilds the state of a fresh FTL (New, nothing written) from img, closing every
// partly written block (see above). Page-level mapping only: a hybrid scheme, Flexible
// Data Placement, an SLC cache and zoned namespaces keep state the scan does not rebuild
// here, and Mount refuses them. Bad blocks (MarkFactoryBad at build) stay bad; a block
// holding data must not be one.
//
// With resume (the control firmware.power_loss.controls.reuse_open_block, which the
// two-cut power-cut schedule must catch), the first partly written block of each plane is
// left open instead, as the allocator's write point there (through its Preconditioner
// hook: the state Allocate would have left with that block last opened on the plane), and
// programmed on from its write pointer as if the power had never gone; an allocator
// without the hook resumes none.
func (f *FTL) Mount(img MountImage, resume bool) (MountReport, error) {
	var rep MountReport
	switch {
	case f.hyb != nil:
		return rep, errors.New("ftl: mounting after a power cut is not modelled for the hybrid mapping scheme")
	case f.place != nil:
		return rep, errors.New("ftl: mounting after a power cut is not modelled with Flexible Data Placement")
	case f.slc != nil:
		return rep, errors.New("ftl: mounting after a power cut is not modelled with an SLC cache")
	case f.zones != nil:
		return rep, errors.New("ftl: mounting after a power cut is not modelled with zoned namespaces")
	case f.clock != 0 || f.pre != nil:
		return rep, errors.New("ftl: Mount needs a fresh FTL (nothing written, not preconditioned)")
	case len(img.Next) != len(f.blocks) || len(img.Erases) != len(f.blocks) || len(img.Map) != len(f.l2p):
		return rep, fmt.Errorf("ftl: mount image of %d blocks, %d P/E counts and %d logical pages; the FTL has %d blocks and %d logical pages",
			len(img.Next), len(img.Erases), len(img.Map), len(f.blocks), len(f.l2p))
	}
	ppb := f.g.PagesPerBlock
	for bi, n := range img.Next {
		m := &f.blocks[bi]
		m.erases = img.Erases[bi]
		if n == 0 {
			continue
		}
		if n < 0 || n > ppb {
			return rep, fmt.Errorf("ftl: mount image: block %d's write pointer %d is outside [0, %d]", bi, n, ppb)
		}
		if m.state == stBad {
			return rep, fmt.Errorf("ftl: mount image: block %d holds data but is bad", bi)
		}
		m.state, m.next = stOpen, uint16(n)
		first := int64(f.g.FirstPage(BlockID(bi))) << f.shift
		for i := int64(0); i < int64(n*f.k); i++ {
			f.p2l.put(first+i, pInvalid) // written; live only if the map says so (below)
		}
		rep.Written++
	}
	for lpn, u := range img.Map {
		if u == NoUnit {
			continue
		}
		if int64(u) >= f.g.AllUnits() || f.pageIndex(f.PageOf(u)) >= int(f.blocks[f.g.BlockOf(f.PageOf(u))].next) {
			return rep, fmt.Errorf("ftl: mount image: logical page %d maps to unit %d, which the scan did not find written", lpn, u)
		}
		if f.p2l.at(int64(u)) != pInvalid {
			return rep, fmt.Errorf("ftl: mount image: unit %d holds two logical pages", u)
		}
		f.bind(int64(lpn), u)
		rep.Mapped++
	}
	var last [][]BlockID // resume: per die, each plane's block left open
	pc, _ := f.alloc.(Preconditioner)
	if resume && pc != nil {
		last = make([][]BlockID, f.g.Dies())
		for d := range last {
			last[d] = make([]BlockID, f.g.Planes)
			for p := range last[d] {
				last[d][p] = NoBlock
			}
		}
	}
	for bi := range f.blocks {
		b := BlockID(bi)
		if f.blocks[b].state != stOpen {
			continue
		}
		f.takeFree(b)
		if int(f.blocks[b].next) == ppb {
			f.blocks[b].state = stFull
			continue
		}
		if die, plane, _ := f.g.BlockAddr(b); last != nil && last[die][plane] == NoBlock {
			last[die][plane] = b // the control: left open, the plane's write point
			rep.Resumed++
			continue
		}
		rep.Abandoned += int64(f.abandon(b))
		rep.Closed++
		f.blocks[b].state = stFull
	}
	for die, bs := range last {
		pc.Preconditioned(die, 0, bs)
	}
	return rep, nil
}

// takeFree takes block b off its plane's free list, keeping the others' order.
func (f *FTL) takeFree(b BlockID) {
	die, plane, _ := f.g.BlockAddr(b)
	ps := &f.planes[die*f.g.Planes+plane]
	k := 0
	for i := 0; i < ps.freeN; i++ {
		if x := ps.free[(ps.freeHead+i)%len(ps.free)]; x != b {
			ps.free[(ps.freeHead+k)%len(ps.free)] = x
			k++
		}
	}
	ps.freeN = k
}

// abandon closes block b at mount: its unwritten pages are wasted until its erase, outside
// the allocators' skip region (the latency-aware allocator's bound counts its own skips:
// mounted is how Erase, Retire and Check tell them apart). It returns the pages abandoned.
func (f *FTL) abandon(b BlockID) int {
	m := &f.blocks[b]
	n := f.g.PagesPerBlock - int(m.next)
	u := int64(f.g.FirstPage(b)+PPN(m.next)) << f.shift
	for i := int64(0); i < int64(n*f.k); i++ {
		f.p2l.put(u+i, pWasted)
	}
	m.next, m.wasted = uint16(f.g.PagesPerBlock), uint16(n)
	f.Stats.Wasted += int64(n)
	f.Stats.WastedNow += int64(n)
	if f.mounted == nil {
		f.mounted = bitset.New(len(f.blocks))
	}
	f.mounted.Put(int(b), true)
	return n
}

// mountClosed reports whether block b is one Mount closed, its abandoned pages not yet
// erased: wasted, but outside the skip region.
func (f *FTL) mountClosed(b BlockID) bool { return f.mounted != nil && f.mounted.Has(int(b)) }
