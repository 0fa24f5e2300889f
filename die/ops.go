package die

import (
	"math/bits"

	"github.com/fastdrain-sim/fastdrain/sim"
)

// The array operations. The channel calls each at the simulated time t when the command's
// last bus cycle (and tWB) is done; the die records the array and plane busy intervals and
// returns when the array work ends. Addresses follow the multi-plane rule checked by
// checkAddrs.

// Read starts a read of one page per plane at t, copies each page's out-of-band stamp into
// stamps (ErasedStamp for a page not programmed since its block's erase) and returns when tR
// ends. With several stamps a page (Spec.Slots) the whole page is sensed: stamps gets all of
// them, slot s of addrs[i] at stamps[i·StampsPerPage + s], and the channel moves only the
// bytes asked for (Transaction.Bytes, a column range of the page register). tR
// ends; tR is that of the page type (all planes read the same page index, so the same type).
//
// If the die is running a program or erase and Suspendable(t) holds, the read suspends it:
// the array spends TSuspend, then tR, then TResume, and the suspended operation's end moves
// later by TSuspend + tR + TResume (BusyUntil reports the new end). If a previous suspension
// is still resuming, the new one starts when that resume ends. A read of a die that is busy
// and cannot be suspended is a channel bug and panics.
func (d *Die) Read(t sim.Time, addrs []Addr, stamps []uint64) sim.Time {
	return d.read(t, false, addrs, stamps)
}

// ReadSLC is Read of pages of blocks in SLC mode (slc.go): tR is the SLC mode's, and every
// block named must be in SLC mode (or erased).
func (d *Die) ReadSLC(t sim.Time, addrs []Addr, stamps []uint64) sim.Time {
	return d.read(t, true, addrs, stamps)
}

// read is Read in SLC mode (slc) or the native mode.
func (d *Die) read(t sim.Time, slc bool, addrs []Addr, stamps []uint64) sim.Time {
	mask := d.checkAddrs(t, "read", addrs, true)
	if len(stamps) < len(addrs)*d.k {
		d.fail(t, "read of %d planes given room for %d stamps", len(addrs), len(stamps))
	}
	d.mustBeFreeToRead(t, addrs)
	pt := d.typeOf[addrs[0].Page]
	tR, act := d.tRead[pt], d.actRead
	if d.slc != nil || slc {
		d.checkMode(t, "read", addrs, slc)
		if slc {
			tR, act = d.spec.SLC.TRead, d.slc.actRead
		}
	}
	if d.opOpen && t >= d.opEnd {
		d.closeOp() // it ended at or before t; its completion event may not have fired yet
	}
	unreadable := d.unfinishedReads(addrs)
	start := t
	if d.opOpen {
		if !d.Suspendable(t) {
			d.fail(t, "read of %v while the die is busy with %s until %v and cannot suspend",
				addrs[0], d.array.Activities()[d.opAct], d.opEnd)
		}
		start = d.suspend(t, tR, mask, act)
	} else {
		d.occupyRead(start, start+tR, act, mask)
	}
	if d.k > 1 {
		for i, a := range addrs {
			d.readSlots(d.blockIndex(a.Plane, a.Block), a, stamps[i*d.k:(i+1)*d.k])
		}
	} else {
		for i, a := range addrs {
			b := d.blockIndex(a.Plane, a.Block)
			if a.Page < int(d.next[b]) {
				stamps[i] = d.stampOf(b, a) // readUnfinished replaces it if not readable
			} else {
				stamps[i] = ErasedStamp
			}
		}
	}
	if slc {
		d.stats.SLCReads += int64(len(addrs))
	} else {
		d.stats.Reads[pt] += int64(len(addrs))
	}
	d.failed, d.retryLeft = 0, 0
	if d.rs.reads != nil {
		d.readErrors(t, addrs)
	}
	if unreadable != 0 {
		d.readUnfinished(addrs, stamps, unreadable)
	}
	return d.endRead(start+tR, mask)
}

// readSlots copies the stamps of every slot of page a of block index b into dst.
func (d *Die) readSlots(b int, a Addr, dst []uint64) {
	if a.Page >= int(d.next[b]) {
		for s := range dst {
			dst[s] = ErasedStamp
		}
		return
	}
	copy(dst, d.oob[b][a.Page*d.k:])
}

// suspend interrupts the running operation for a read of length tR on the planes in
// readPlanes, records the intervals, and returns when the read's tR starts.
func (d *Die) suspend(t, tR sim.Time, readPlanes uint64, actRead sim.Activity) sim.Time {
	s := max(t, d.resumeAt) // a previous suspension may still be resuming
	remaining := d.opEnd - s
	rs := s + d.spec.TSuspend
	re := rs + tR
	d.resumeAt = re + d.spec.TResume
	d.opEnd = d.resumeAt + remaining
	d.opSuspends++
	d.stats.Suspends++

	d.array.End(s)
	d.array.Occupy(s, rs, d.actSuspend)
	d.array.Occupy(rs, re, actRead)
	d.array.Occupy(re, d.resumeAt, d.actSuspend)
	d.array.Begin(d.resumeAt, d.opAct)
	// Planes: close the operation's intervals, record the read, then reopen the operation.
	for m := d.opPlanes & d.planeBits; m != 0; m &= m - 1 {
		d.planes[bits.TrailingZeros64(m)].End(s)
	}
	for m := readPlanes & d.planeBits; m != 0; m &= m - 1 {
		d.planes[bits.TrailingZeros64(m)].Occupy(rs, re, actRead)
	}
	for m := d.opPlanes & d.planeBits; m != 0; m &= m - 1 {
		d.planes[bits.TrailingZeros64(m)].Begin(d.resumeAt, d.opAct)
	}
	return rs
}

// Program programs one page per plane at t with the given out-of-band stamps (any values,
// ErasedStamp included: see Programmed; with several stamps a page, StampsPerPage per
// address, slot s of addrs[i] at stamps[i·StampsPerPage + s]) and returns when tPROG ends. Pages of a block are
// programmed in ascending order: each page must be at or after its block's next free page (a full block must be erased first); programming a
// page below it is a firmware bug and panics naming the die, block, page and time. Pages
// passed over stay erased and cannot be programmed until the block is erased: this is how
// the skip-to-LSB allocator of FastDrain's prior work leaves CSB/MSB pages unused (counted
// in Stats.Skipped). tPROG is that of the page
// type. Under a one-shot or two-pass scheme (scheme.go) only a word line's last page starts
// the array, for its whole word line (and, two-pass, the previous word line's fine pass);
// its earlier pages are latched in the page registers and Program returns t. Such a
// program must not pass over pages inside a word line: it continues a partly loaded word
// line, or starts a word line at its first page.
//
// With a fault model (Spec.Faults), a page's program may fail: the page is still consumed
// (the write pointer moves past it; its content is not to be trusted) and Failed reports
// its plane until the die's next program or erase.
func (d *Die) Program(t sim.Time, addrs []Addr, stamps []uint64) sim.Time {
	return d.program(t, false, addrs, stamps)
}

// ProgramSLC is Program in SLC mode (slc.go): each block named must be erased (its first
// program sets its SLC mode) or in SLC mode, pages are within the block's SLCPages, and
// every page is programmed on its own, in tPROG of the SLC mode.
func (d *Die) ProgramSLC(t sim.Time, addrs []Addr, stamps []uint64) sim.Time {
	return d.program(t, true, addrs, stamps)
}

// program is Program in SLC mode (slc) or the native mode.
func (d *Die) program(t sim.Time, slc bool, addrs []Addr, stamps []uint64) sim.Time {
	mask := d.checkAddrs(t, "program", addrs, true)
	d.mustBeIdle(t, "program", addrs[0])
	if len(stamps) < len(addrs)*d.k {
		d.fail(t, "program of %d planes given %d stamps", len(addrs), len(stamps))
	}
	if d.slc != nil || slc {
		d.checkMode(t, "program", addrs, slc)
	}
	page := addrs[0].Page
	for _, a := range addrs {
		b := d.blockIndex(a.Plane, a.Block)
		if n := int(d.next[b]); n > page {
			if n == d.spec.PagesPerBlock || (slc && n == d.slc.pages) {
				d.fail(t, "program of %v, but the block is full (not erased)", a)
			}
			d.fail(t, "program of %v, but the block's next free page is %d (pages must be programmed in order)", a, n)
		} else if n < page && !slc && d.spec.ProgramScheme() != PageByPage && (n%d.spec.Bits() != 0 || page%d.spec.Bits() != 0) {
			d.fail(t, "program of %v, but the block's next free page is %d: a %v word line's pages are loaded in order, none passed over",
				a, n, d.spec.ProgramScheme())
		}
	}
	for i, a := range addrs {
		b := d.blockIndex(a.Plane, a.Block)
		o := d.stored(b, a.Plane, a.Block)
		for skipped := int(d.next[b]); skipped < page; skipped++ {
			for s := 0; s < d.k; s++ {
				o[skipped*d.k+s] = ErasedStamp // what the erased page reads back
			}
			d.markSkipped(b, skipped)
			d.stats.Skipped++
		}
		if d.k > 1 {
			copy(o[page*d.k:(page+1)*d.k], stamps[i*d.k:])
		} else {
			o[page] = stamps[i]
		}
		if d.rs.written != nil && d.next[b] == 0 {
			d.rs.written[b] = t // the block's data ages from its first program
		}
		if d.slc != nil && d.next[b] == 0 {
			d.slc.blocks.Put(b, slc) // a block takes its mode at its first program
		}
		d.next[b] = uint16(page + 1)
	}
	d.failed = 0
	if d.faults != nil {
		for _, a := range addrs {
			if d.faults.fails(t, "program", a, d.wear(d.blockIndex(a.Plane, a.Block))) {
				d.failed |= 1 << uint(a.Plane)
			}
		}
	}
	var end sim.Time
	if slc {
		d.stats.SLCPrograms += int64(len(addrs))
		end = t + d.spec.SLC.TProg
		d.begin(t, end, d.slc.actProg, mask)
	} else {
		pt := d.typeOf[page]
		d.stats.Programs[pt] += int64(len(addrs))
		tProg, starts := d.spec.wordLineProgram(page, d.tProg[pt])
		if !starts {
			return t // latched in the page registers until the word line's last page
		}
		end = t + tProg
		d.begin(t, end, d.actProg[pt], mask)
	}
	d.opProg, d.opPage = true, page
	for _, a := range addrs {
		d.opBlock[a.Plane] = int32(a.Block)
	}
	return end
}

// Erase erases one block per plane at t (the Page field is ignored) and returns when tBERS
// ends. Each block's erase count goes up by one and its pages read back as ErasedStamp.
// With a fault model, a block's erase may fail (Failed reports its plane): the firmware
// must retire the block.
func (d *Die) Erase(t sim.Time, addrs []Addr) sim.Time {
	mask := d.checkAddrs(t, "erase", addrs, false)
	d.mustBeIdle(t, "erase", addrs[0])
	d.failed = 0
	if d.faults != nil {
		for _, a := range addrs {
			if d.faults.fails(t, "erase", a, d.wear(d.blockIndex(a.Plane, a.Block))) {
				d.failed |= 1 << uint(a.Plane)
			}
		}
	}
	act := d.actErase
	for _, a := range addrs {
		b := d.blockIndex(a.Plane, a.Block)
		if d.isSLC(b) {
			// An erase in SLC mode: the block leaves the mode (its next program chooses again).
			d.slc.blocks.Put(b, false)
			d.slc.erases[b]++
			d.stats.SLCErases++
			act = d.slc.actErase
		}
		d.next[b] = 0
		d.erases[b]++
		if d.rs.reads != nil {
			d.rs.reads[b] = 0
		}
		if d.skipped != nil {
			delete(d.skipped, b)
		}
	}
	d.stats.Erases += int64(len(addrs))
	end := t + d.spec.TErase
	d.begin(t, end, act, mask)
	for _, a := range addrs {
		d.opBlock[a.Plane] = int32(a.Block) // for RunningErase
	}
	return end
}

// Complete is called when the running program or erase was due to end, at t. It returns
// false if a suspension moved the end past t (call again at BusyUntil), and otherwise
// closes the operation and returns true. With no operation running it returns true.
func (d *Die) Complete(t sim.Time) bool {
	if !d.opOpen {
		return true
	}
	if t < d.opEnd {
		return false
	}
	d.closeOp()
	return true
}

// begin opens a program or erase interval [t, end) on the array and the planes in mask.
func (d *Die) begin(t, end sim.Time, act sim.Activity, mask uint64) {
	d.array.Begin(t, act)
	for m := mask & d.planeBits; m != 0; m &= m - 1 {
		d.planes[bits.TrailingZeros64(m)].Begin(t, act)
	}
	d.opOpen, d.opAct, d.opPlanes, d.opEnd, d.opProg = true, act, mask, end, false
	d.opSuspends, d.resumeAt = 0, t
}

// closeOp closes the running operation's intervals at its end time.
func (d *Die) closeOp() {
	d.array.End(d.opEnd)
	for m := d.opPlanes & d.planeBits; m != 0; m &= m - 1 {
		d.planes[bits.TrailingZeros64(m)].End(d.opEnd)
	}
	d.opOpen = false
}

// mustBeIdle panics unless the array is free at t for a program or erase.
func (d *Die) mustBeIdle(t sim.Time, op string, a Addr) {
	if d.opOpen && t < d.opEnd {
		d.fail(t, "%s of %v while the die is busy with %s until %v", op, a, d.array.Activities()[d.opAct], d.opEnd)
	}
	if d.opOpen {
		d.closeOp()
	}
	if t < d.readEnd {
		d.fail(t, "%s of %v while the die is reading until %v", op, a, d.readEnd)
	}
}

// checkAddrs enforces the multi-plane rule and returns the set of planes: one to Planes
// addresses, on distinct planes, every block and page in range, the same page index on
// every plane (for reads and programs), and the same block index if MultiPlaneSameBlock.
// Blocks may otherwise differ.
func (d *Die) checkAddrs(t sim.Time, op string, addrs []Addr, paged bool) uint64 {
	if len(addrs) == 0 || len(addrs) > d.spec.Planes {
		d.fail(t, "%s of %d planes; the die has %d", op, len(addrs), d.spec.Planes)
	}
	var mask uint64
	first := addrs[0]
	for _, a := range addrs {
		if a.Plane < 0 || a.Plane >= d.spec.Planes || a.Block < 0 || a.Block >= d.spec.BlocksPerPlane {
			d.fail(t, "%s of %v: out of range (%d planes × %d blocks)", op, a, d.spec.Planes, d.spec.BlocksPerPlane)
		}
		if paged && (a.Page < 0 || a.Page >= d.spec.PagesPerBlock) {
			d.fail(t, "%s of %v: page out of range (%d pages per block)", op, a, d.spec.PagesPerBlock)
		}
		if paged && a.Page != first.Page {
			d.fail(t, "multi-plane %s of %v and %v: pages must have the same index", op, first, a)
		}
		if d.spec.MultiPlaneSameBlock && a.Block != first.Block {
			d.fail(t, "multi-plane %s of %v and %v: blocks must have the same index", op, first, a)
		}
		bit := uint64(1) << uint(a.Plane)
		if mask&bit != 0 {
			d.fail(t, "multi-plane %s names plane %d twice", op, a.Plane)
		}
		mask |= bit
	}
	return mask
}
