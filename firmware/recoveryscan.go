package firmware

import (
	"errors"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// RecordBytes is the size of a page's out-of-band record on the bus: the logical page
// and the write sequence number, one 64-bit word (Stamp). A recovery scan's read moves
// only these bytes off the die (a column-addressed Read Page of the spare area).
const RecordBytes = 8

// RecoverOn is Recover with the scan simulated: every page Recover reads (each block from
// its first page up to its write pointer) is read through port, the flash as it is at the
// next power-on, on engine eng, which must be idle (nothing else scheduled): the run's
// engine stops at the cut with the dies' interrupted work still queued, so the caller
// builds fresh channels of the same spec on a fresh engine (platforms.RecoveryFlash). Each
// read is a single-plane Read Page of RecordBytes on the page's die (a tR of the page's
// type, or in SLC mode for a block whose header names it, recoverymode.go; its command and address cycles and the data-out on the die's channel); a die
// reads its pages one after the other, in block and page order, and the dies work in
// parallel. The map and counts are Recover's; Time is the simulated scan (from eng's
// start until the last read's data is off the bus) and Estimate Recover's closed form,
// which leaves out the bus time (FACTS §3.4 for the tR values; the difference is the
// reads' command, address and data-out cycles and their waits for a shared channel).
func (f *Firmware) RecoverOn(eng *sim.Engine, port FlashPort) (*Recovery, error) {
	r, err := f.Recover()
	if err != nil {
		return nil, err
	}
	if eng == nil || port == nil {
		return nil, errors.New("firmware: RecoverOn needs an engine and a flash port")
	}
	if pg, fg := port.Geometry(), f.flash.Geometry(); pg.Channels != fg.Channels || pg.DiesPerChannel != fg.DiesPerChannel ||
		pg.Planes != fg.Planes || pg.BlocksPerPlane != fg.BlocksPerPlane || pg.PagesPerBlock != fg.PagesPerBlock {
		return nil, errors.New("firmware: RecoverOn's flash port has another geometry than the firmware's")
	}
	g := f.geo
	s := &recoveryScan{f: f, port: port, start: eng.Now(),
		next: make([]scanCursor, g.Dies()), txs: make([]scanRead, g.Dies())}
	per := g.Planes * g.BlocksPerPlane // a die's blocks, die-major (ftl.Geometry.BlockAddr)
	for d := range s.next {
		lo := d * per
		s.next[d] = scanCursor{block: lo, n: f.ftl.NextPage(ftl.BlockID(lo)), hi: lo + per}
		s.issue(d)
	}
	eng.Run()
	if s.pending > 0 {
		return nil, errors.New("firmware: RecoverOn's scan did not finish (the engine stopped early)")
	}
	r.Estimate, r.Time = r.Time, s.end-s.start
	return r, nil
}

// scanCursor is where a die's scan is: the block (a global ftl.BlockID) and page of its
// next read, the block's write pointer n, and the die's last block hi (exclusive).
type scanCursor struct {
	block, page, n, hi int
}

// recoveryScan runs a simulated recovery scan: one read at a time on each die.
type recoveryScan struct {
	f       *Firmware
	port    FlashPort
	next    []scanCursor
	txs     []scanRead // one per die, reused
	start   sim.Time
	end     sim.Time
	pending int
}

// seek moves die d's cursor to the first page to read at or after its current block and
// page: the block's pages below its write pointer, then the next blocks'.
func (s *recoveryScan) seek(d int) {
	c := &s.next[d]
	for c.block < c.hi && c.page >= c.n {
		c.block++
		c.page = 0
		if c.block < c.hi {
			c.n = s.f.ftl.NextPage(ftl.BlockID(c.block))
		}
	}
}

// issue submits die d's next read, if it has one.
func (s *recoveryScan) issue(d int) {
	s.seek(d)
	c := &s.next[d]
	if c.block >= c.hi {
		return
	}
	_, plane, blk := s.f.geo.BlockAddr(ftl.BlockID(c.block))
	rd := &s.txs[d]
	rd.die = d
	tx := &rd.tx
	*tx = hal.FlashCmd{Op: hal.FlashRead, Addrs: append(tx.Addrs[:0], nand.Addr{Plane: plane, Block: blk, Page: c.page}),
		Stamps: tx.Stamps[:0], Bytes: RecordBytes, Done: s, Tag: rd, SLC: s.f.pl.blockIsSLC(ftl.BlockID(c.block))}
	c.page++
	s.pending++
	s.port.Submit(d, tx)
}

// HandleEvent takes a scan read's completion and issues the die's next read.
func (s *recoveryScan) HandleEvent(ev *sim.Event) {
	tx := ev.Data.(*hal.FlashCmd)
	s.pending--
	s.end = max(s.end, tx.Completed)
	s.issue(tx.Tag.(*scanRead).die)
}

// scanRead is a die's scan read, reused for each page: its Tag points back to it.
type scanRead struct {
	tx  hal.FlashCmd
	die int
}
