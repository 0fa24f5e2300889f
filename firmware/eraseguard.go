package firmware

import "github.com/fastdrain-sim/fastdrain/firmware/ftl"

// The erase guard (durability without power-loss protection). When an eviction maps a
// logical page to a new flash page, the FTL marks its previous copy superseded at once,
// while the new copy's program is still in flight. GC may then find that block holding no
// valid page and erase it; if the power is cut before the new program completes, neither
// copy is on flash, and the previous one may have been durable (flushed, or written with
// FUA): recovery would return an older version, or none. So each program records the
// blocks whose units it supersedes (cover), each block counts the programs in flight that
// supersede one of its units (Firmware.newer), and a block is erased — by GC, by a BAST
// merge, by anything — only once its count is zero: every newer copy of its data is on
// flash. GC's own moves need no guard: a victim's erase already waits for the programs of
// its moved pages (gcTask.waitPrograms), and a merge's for its copies. The control
// firmware.power_loss.controls.unguarded_erase turns the guard off (Firmware.unguarded).

// cover records that op programs a newer copy of unit old (the unit the FTL unmapped for
// it; ftl.NoUnit: none): old's block is not erased until op's program completes.
func (f *Firmware) cover(op *flashOp, old ftl.Unit) {
	if f.unguarded {
		return
	}
	f.coverCopy(op, old)
}

// coverCopy is cover for a GC, merge or fold copy of old, which the control
// unguarded_erase leaves guarded: the source block is erased only once the copy is final
// (final.go), as it was erased only once the copy's program had completed before.
func (f *Firmware) coverCopy(op *flashOp, old ftl.Unit) {
	if old == ftl.NoUnit {
		return
	}
	b := f.geo.BlockOf(f.ftl.PageOf(old))
	op.covers[op.ncovers] = b
	op.ncovers++
	f.newer[b]++
}

// uncover forgets op's guards: its page is final (final.go).
func (f *Firmware) uncover(op *flashOp) {
	f.uncoverBlocks(op.covers[:op.ncovers])
	op.ncovers = 0
}

// uncoverBlocks forgets the guards of a final page on blocks bs.
func (f *Firmware) uncoverBlocks(bs []ftl.BlockID) {
	for _, b := range bs {
		f.newer[b]--
	}
}
