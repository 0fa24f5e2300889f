package firmware

import "errors"

// What a power-cut campaign (package powercut) watches to choose its instants: the flash
// work the dies are doing, the flushes waiting, and what a cut now would recover. Nothing
// here changes the firmware's behaviour.

// FlashWork counts the flash operations the dies hold now (handed to a channel and not yet
// complete; those still queued in the firmware are not counted) and the flushes waiting for
// the flash.
type FlashWork struct {
	Erases      int // block erases (GC victims, merges)
	Relocations int // GC programs: relocated pages (and a merge's copies)
	Foreground  int // eviction programs from foreground eviction (and the hold-up drain)
	Background  int // eviction programs from background eviction
	// Folds counts the relocations out of an SLC block (the SLC cache's folding,
	// slcfold.go), also counted in Relocations; FoldErases the erases of folded SLC blocks
	// queued or on a die (from the instant GC queues one: its records are gone then,
	// eraseIssued).
	Folds, FoldErases int
	// Flushes counts the Flush commands (and FUA writes, which flush) waiting for their
	// data to reach flash, or for it to become final (final.go).
	Flushes int
	// Pads counts the finality pads (final.go): programs with no data that make a Flush's,
	// an FUA write's, the drain's end's or an erase's provisional pages final. A cut during
	// one on a 2D die destroys its word line's lower pages.
	Pads int
	// Backups counts the zone backup programs issued and not complete, queued or on a die
	// (znsbackup.go): copies of a zone's provisional pages a Flush, an FUA write or the
	// hold-up drain's end waits for.
	Backups int
}

// FlashWork returns the flash work in progress now.
func (f *Firmware) FlashWork() FlashWork {
	w := f.sched.work
	w.Flushes = f.wb.flushers + len(f.fin.waits)
	w.Backups = f.zbak.inflight
	if f.slc != nil {
		w.FoldErases = f.slc.erasing
	}
	return w
}

// track counts op (and the programs merged into its transaction) in or out of the flash
// work on the dies (d = +1 when handed to the channel, −1 when complete).
func (s *scheduler) track(op *flashOp, d int) {
	w := &s.work
	for i := 0; i <= len(op.merged); i++ {
		o := op
		if i > 0 {
			o = op.merged[i-1]
		}
		switch o.kind {
		case opErase:
			w.Erases += d
		case opGCProgram:
			w.Relocations += d
			if o.fold {
				w.Folds += d
			}
		case opPad:
			w.Pads += d
		case opEvict:
			if o.bg {
				w.Background += d
			} else {
				w.Foreground += d
			}
		}
	}
}

// RecoverNow is Recover of the flash as it is now, while the firmware runs: the mapping a
// cut without power-loss protection at this instant would recover (the programs in flight
// are lost, the blocks whose erase is queued hold nothing). The power is not cut. Its Time
// is the closed-form scan.
func (f *Firmware) RecoverNow() (*Recovery, error) {
	if f.pl.oob == nil {
		return nil, errors.New("firmware: RecoverNow needs firmware.power_loss.enabled")
	}
	return f.scanRecords(), nil
}

// DrainShort reports whether the hold-up drain of a cut now could not place every dirty
// page (with power-loss protection): the dirty pages exceed DrainRoom.
func (f *Firmware) DrainShort() bool { return int64(f.buf.Dirty()) > f.DrainRoom() }

// DrainRoom returns the mapping units the hold-up drain of a cut now could program at
// most (ftl.FTL.DrainRoom). An allocator that skips pages (skip-to-lsb, a latency-aware
// foreground write) may place fewer.
func (f *Firmware) DrainRoom() int64 { return f.ftl.DrainRoom() }
