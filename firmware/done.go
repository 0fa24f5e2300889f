package firmware

import (
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// opDone applies the completion of one flash operation at now (in the channel's event).
func (f *Firmware) opDone(now sim.Time, op *flashOp, stamps []uint64) {
	if f.pl.off {
		return // the firmware has stopped: the program never completed, for recovery
	}
	switch op.kind {
	case opHostRead, opGCRead:
		w := op.w
		w.stamps[op.idx] = stamps[op.slot]
		// The page moves from the channel into DRAM.
		t := f.mem.Access(now, f.stagingAddr(op.idx), f.spec.PageSize, true)
		w.ready = max(w.ready, t)
		f.release(now, w)
	case opEvict:
		f.programDone(op)
		if f.units > 1 {
			for _, v := range op.victims[:op.units] {
				f.buf.EvictDone(v)
			}
		} else {
			f.buf.EvictDone(op.victim)
		}
		if f.pl.cut {
			f.pl.report.Flushed++ // programs (power-loss records refuse sub-page mapping)
		}
		if op.bg {
			f.evict.bgInFlight--
		}
		f.roomChanged()
		f.evict.notify()
		if f.wb.flushers > 0 && f.buf.Occupancy() == 0 {
			f.bufferEmptied()
		}
	case opGCProgram:
		f.programDone(op)
		f.release(now, op.w)
	case opErase:
		f.release(now, op.w)
	case opPad:
		f.padDone(op)
	case opBackup:
		f.backupDone(op)
	}
}

// programDone forgets op's in-flight program (of each of its units).
func (f *Firmware) programDone(op *flashOp) {
	if f.fin.page == nil {
		f.pendingDone(op)
	}
	if f.pl.oob != nil {
		f.pl.recordProgram(op)
	}
	b := f.geo.BlockOf(op.ppn)
	f.inflightBlock[b]--
	if f.fin.page == nil {
		f.uncover(op)
	} else {
		f.programFinal(op, b) // the guards, and on 3D the in-flight record, go once the page is final (final.go)
	}
	f.gc.programsDone(f)
	if len(f.zerase.waiting) > 0 {
		f.zerase.programDone(f)
	}
}

// pendingDone forgets op's in-flight program of each of its units: reads of them go to
// the flash.
func (f *Firmware) pendingDone(op *flashOp) {
	if f.units > 1 {
		u := f.geo.UnitOf(op.ppn, 0)
		for i, s := range op.ustamps[:op.units] {
			f.pending.done(u+ftl.Unit(i), s)
		}
	} else {
		f.pending.done(ftl.Unit(op.ppn), op.stamp)
	}
}

// release counts one finished operation of w and, when all are done, runs its step at the
// time the last read's data is in DRAM (w.ready), or now.
func (f *Firmware) release(now sim.Time, w *waiter) {
	w.pending--
	if w.pending == 0 {
		f.at(max(now, w.ready), w.then)
	}
}

// stagingAddr is a DRAM address for read data in flight (outside the write-buffer
// region's hot rows; only the timing matters).
func (f *Firmware) stagingAddr(slot int) uint64 {
	capBytes := f.memCap
	return (capBytes/2 + uint64(slot)*uint64(f.spec.PageSize)) % (capBytes - uint64(f.spec.PageSize)) &^ 63
}
