package firmware

import (
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/internal/bitset"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Block modes at recovery (an SLC cache with power-loss recovery). A block in SLC mode must
// be read in the die's pSLC mode (the die's SLC read: one read level, the SLC tR) and holds
// Geometry.SLCPages pages; read in the native mode its pages decode as nothing. So the
// recovery scan must know each block's mode before it reads the block's records, and the
// firmware's RAM (ftl.FTL.IsSLC) is gone at the cut.
//
// What the firmware does: the program of a block's first page carries, with the page's
// out-of-band record, a block header naming the mode the block was opened in — as Linux
// UBI writes an erase-counter and volume header at the start of every eraseblock and scans
// them when it attaches a device (docs.kernel.org, "UBI - Unsorted Block Images",
// "UBI headers"). Western Digital's "Erase Type Detection Mechanism" (US 2025/0123751 A1)
// identifies a block's SLC or native type by reading the block after an ungraceful
// shutdown, the same read. The header becomes durable with the first page's program and
// goes with the block's erase, so it is never ahead of the data: a block whose first
// program never completed has no header and no record to recover (pages of a block are
// programmed in order, each after the one below has completed on its die). The scan reads
// the header page first and the block's other pages in the mode it names; the header read
// is timed as a read in the block's own mode (a firmware that must try the native mode
// first would pay one more tR per pSLC block: not modelled). No table outside the blocks
// is needed, so no checkpoint of one (none is modelled, Recover).

// slcHeaders holds, per block, whether its first page carries a header in SLC mode: the
// flash's state, set when the first page's program completes and cleared when the block's
// erase is queued (with its records, eraseIssued). Nil without an SLC cache.
type slcHeaders = bitset.Set

// newSLCHeaders returns the headers' store for f, nil without an SLC cache or power-loss
// records.
func newSLCHeaders(f *Firmware) slcHeaders {
	if f.slc == nil || f.pl.oob == nil {
		return nil
	}
	return bitset.New(f.geo.Blocks())
}

// noteHeader records the block header of a completed program of a block's first page in
// SLC mode (op's).
func (p *powerState) noteHeader(op *flashOp) {
	if p.slcHdr == nil {
		return
	}
	g := p.f.geo
	b := g.BlockOf(op.ppn)
	if op.ppn == g.FirstPage(b) && p.f.ftl.IsSLC(b) {
		p.slcHdr.Put(int(b), true)
	}
}

// blockIsSLC reports whether the recovery scan reads block b in SLC mode: its header on
// flash says so.
// A zone backup block in pSLC mode names it in its header too (znsbackup.go).
func (p *powerState) blockIsSLC(b ftl.BlockID) bool {
	return p.slcHdr != nil && p.slcHdr.Has(int(b)) || p.f.zbak.slc && p.f.zbak.backupBlock(b)
}

// scanReadTimes returns the tR a recovery scan's read of each page index of a block costs
// in the native mode (by the page's type), and the SLC mode's, read for a block whose
// header names it: one table a scan, not a look-up of the die's spec a page.
func (f *Firmware) scanReadTimes() (native []sim.Time, slc sim.Time) {
	ds := f.flash.Die()
	native = make([]sim.Time, ds.PagesPerBlock)
	for i := range native {
		native[i] = ds.TRead[ds.PageType(i)]
	}
	return native, ds.SLCTRead
}
