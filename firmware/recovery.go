package firmware

import (
	"errors"
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Recovery is the mapping rebuilt from flash after a power cut, and what rebuilding it
// cost.
type Recovery struct {
	// Map holds, per logical page, the physical mapping unit holding its newest version on
	// flash (its page, with one unit a page), or ftl.NoUnit if flash holds none.
	Map []ftl.Unit
	// Mapped counts the logical pages found; Scanned the pages whose spare area was read;
	// Records the mapping units holding a completed program's record; SLCBlocks the blocks
	// whose header named SLC mode, read in it (recoverymode.go; 0 without an SLC cache).
	Mapped, Scanned, Records, SLCBlocks int64
	// Provisional counts the pages holding a record whose word line is not final as the
	// flash stands (their block's write pointer has not passed their finalizing page,
	// final.go: a 2D lower page whose CSB or MSB page is still to come), and Closed the
	// blocks holding them. A firmware resuming at this power-on must not program such a
	// block again: a cut during its next CSB or MSB program would destroy data that was
	// durable before this cut (docs/reliability.md, "across power cycles"); it closes them
	// (Mount closes every partly written block: mount.go), and GC relocates their valid
	// pages, keeping the block until the copies are final.
	Provisional, Closed int64
	// Restored counts the logical pages whose newest copy on flash is a zone backup page
	// (znsbackup.go): their zone's own copy did not survive the cut (a provisional page a
	// later program of its word line destroyed, or a latched one). A firmware resuming at
	// this power-on writes them back to their zone; the map points at the backup.
	Restored int64
	// Time is the scan's length. From Recover it is the closed-form estimate: the dies
	// scan in parallel, each reading its pages' spare areas one after the other, each read
	// a tR of the page's type. From RecoverOn it is the simulated scan on the dies and
	// channels, and Estimate holds the closed form (0 from Recover).
	Time, Estimate sim.Time
	// flash is what the scan read besides the map, for Mount: nil from RecoverNow.
	flash *scanImage
}

// Recover rebuilds the logical-to-physical mapping after a power cut (PowerCut, once the
// firmware has stopped) from the out-of-band records on flash, as firmware does at the
// next power-on without a checkpoint: every block is read from its first page up to its
// write pointer (the FTL's next page: the first page no program was given), and each
// logical page maps to the copy with the highest write sequence number. A page whose
// program the cut interrupted has no record (an interrupted program leaves the page
// unreadable) and is skipped; a GC copy keeps its original's sequence number, so either
// copy is the same version.
//
// With an SLC cache each block is read in the mode its header names (recoverymode.go): a
// block in SLC mode holds its SLC pages, each read in the SLC tR.
//
// The time is an estimate: a spare-area read costs the die a tR of the page's type (the
// spare area is read into the page register with the data, ONFI Read Page; docs/sources.md §3.4
// for the tR values), the dies work in parallel, a die reads one page at a time (no
// multi-plane reads: an upper bound), and the few bytes of each record cross the channel
// in well under 1 % of a tR (not counted). No checkpoint is modelled, and trims are not
// journaled: a page trimmed before the cut maps again to its last copy on flash.
func (f *Firmware) Recover() (*Recovery, error) {
	p := &f.pl
	if p.oob == nil {
		return nil, errors.New("firmware: Recover needs firmware.power_loss.enabled")
	}
	if !p.off {
		return nil, fmt.Errorf("firmware %s: Recover before the firmware stopped (call PowerCut and run the simulation until PoweredOff)", f.name)
	}
	r := f.scanRecords()
	r.flash = f.scanImage()
	return r, nil
}

// scanRecords is Recover's scan of the records on flash now, closed form.
func (f *Firmware) scanRecords() *Recovery {
	p := &f.pl
	g := f.geo
	r := &Recovery{Map: make([]ftl.Unit, f.ftl.LogicalPages())}
	seqs := make([]uint64, f.ftl.LogicalPages()) // the sequence number of Map's copy
	for i := range r.Map {
		r.Map[i] = ftl.NoUnit
	}
	dieTime := make([]sim.Time, g.Dies())
	final := f.flash.Die().FinalizingPage // nil: every page final at its program
	tRead, tSLC := f.scanReadTimes()
	var backed []bool // per logical page: Map's copy is a zone backup page
	if f.zbak.on {
		backed = make([]bool, len(r.Map))
	}
	for b := 0; b < g.Blocks(); b++ {
		n := f.ftl.NextPage(ftl.BlockID(b))
		if n == 0 {
			continue
		}
		d, _, _ := g.BlockAddr(ftl.BlockID(b))
		first := g.FirstPage(ftl.BlockID(b))
		slc := p.blockIsSLC(ftl.BlockID(b))
		if slc {
			r.SLCBlocks++
		}
		bak := f.zbak.backupBlock(ftl.BlockID(b)) // its pages are final at their own program
		open := !slc && !bak && final != nil && n < g.PagesPerBlock
		closed := false
		for i := 0; i < n; i++ {
			if slc {
				dieTime[d] += tSLC
			} else {
				dieTime[d] += tRead[i]
			}
			r.Scanned++
			for s := 0; s < f.units; s++ { // a page's spare area holds each unit's record
				u := g.UnitOf(first+ftl.PPN(i), s)
				lpn, seq, ok := StampParts(p.oob[u])
				if !ok {
					continue
				}
				if bak && f.staleBackup(lpn, seq) {
					continue // a backup of data its zone's reset removed
				}
				r.Records++
				if open && final(i) >= n {
					r.Provisional++
					if !closed {
						closed = true
						r.Closed++
					}
				}
				if seq > seqs[lpn] || seq == seqs[lpn] && backed != nil && backed[lpn] && !bak {
					if seqs[lpn] == 0 {
						r.Mapped++
					}
					seqs[lpn], r.Map[lpn] = seq, u
					if backed != nil {
						backed[lpn] = bak // the zone's own copy wins over its backup
					}
				}
			}
		}
	}
	for _, t := range dieTime {
		r.Time = max(r.Time, t)
	}
	for _, b := range backed {
		if b {
			r.Restored++
		}
	}
	return r
}
