package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
)

// A zone reset's erases (zns.go). A reset zone's blocks hold no valid page once the FTL has
// unmapped them (ftl.ResetZone), so a ZNS firmware erases them with no copy: this is the
// only reclamation a zoned namespace has. A block is erased once no program to it is in
// flight (a page of the zone being programmed when the reset came: its program completes
// first, Firmware.inflightBlock); the erase goes to the die's queue as GC's do, and the
// block returns to its plane's free list when the erase completes (a failed erase retires
// it). The reset command completes without waiting for the erases, as a ZNS drive's does:
// the zone is Empty at once, its next writes take fresh blocks.
//
// Durability: the reset is durable when it completes. With power-loss records on, the
// records of the zone's pages are forgotten at the reset (the zone table a ZNS firmware
// persists says the zone is empty), and those of programs completing after it when their
// block's erase is issued, in the same step.

// zoneEraser holds the reset zones' blocks waiting for their programs, and counts.
type zoneEraser struct {
	waiting []ftl.BlockID
	scratch []ftl.BlockID
	resets  int64 // zones reset (that were not empty)
	erases  int64 // blocks erased for resets
}

// zoneErase is one block's erase in flight.
type zoneErase struct {
	f    *Firmware
	b    ftl.BlockID
	w    waiter
	done step
}

// erase takes a reset zone's blocks: each is erased now, or once its programs complete.
func (z *zoneEraser) erase(f *Firmware, blocks []ftl.BlockID) {
	for _, b := range blocks {
		if f.pl.oob != nil {
			f.pl.eraseIssued(f, b) // the reset is durable: its pages are no longer the zone's
		}
		f.erasing(b)
		if f.inflightBlock[b] > 0 {
			z.waiting = append(z.waiting, b)
			continue
		}
		z.issue(f, b)
	}
}

// programDone looks at the waiting blocks after a program completed.
func (z *zoneEraser) programDone(f *Firmware) {
	kept := z.waiting[:0]
	for _, b := range z.waiting {
		if f.inflightBlock[b] > 0 {
			kept = append(kept, b)
			continue
		}
		z.issue(f, b)
	}
	z.waiting = kept
}

// issue queues block b's erase.
func (z *zoneEraser) issue(f *Firmware, b ftl.BlockID) {
	die, _, _ := f.geo.BlockAddr(b)
	e := &zoneErase{f: f, b: b}
	e.done = newStep("zoneErase", "erased", &f.pl.off, e.erased)
	op := f.sched.get(opErase, die)
	op.ppn, op.w = f.geo.FirstPage(b), &e.w
	if f.pl.oob != nil {
		f.pl.eraseIssued(f, b)
	}
	// A program that was in flight at the reset completed since erase (above) released the
	// block's provisional pages: the pages it left provisional go now, with the block's
	// contents (a Flush waiting on them would otherwise wait for a block that is free).
	f.erasing(b)
	e.w.pending, e.w.then = 1, &e.done
	f.sched.enqueue(op)
	if f.OnErase != nil {
		f.OnErase()
	}
}

// erased applies the erase's completion: the block is free again, or retired if the die
// reported the erase failed.
func (e *zoneErase) erased() {
	f := e.f
	if e.w.failed {
		f.ftl.ReleaseZoneBlock(e.b)
		f.retire(e.b)
	} else {
		f.ftl.EraseZoneBlock(e.b)
	}
	f.zerase.erases++
	if f.spec.Verify {
		if err := f.ftl.Check(); err != nil {
			panic(fmt.Sprintf("firmware %s at %v: FTL invariants broken after a zone reset's erase of block %d:\n%v", f.name, f.eng.Now(), e.b, err))
		}
	}
	f.evict.notify()
	f.roomChanged()
}
