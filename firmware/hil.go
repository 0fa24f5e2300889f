package firmware

import (
	"encoding/binary"

	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// worker is one HIL process: it takes a command, splits it into 4 KiB logical pages and
// serves it. Several workers run so that a write waiting for buffer room does not hold up
// reads behind it (the queue is shared, as the controller's command slots are).
type worker struct {
	f    *Firmware
	core *sim.Core
	w    waiter
	b8   [8]byte
	dsm  []byte
	cmd  *nvmectrl.Command // handed over by Submit, its first step already booked
	sig  sim.Signal        // Submit wakes the idle worker through it
	// roomSig resumes the worker when it waits for buffer room and its check (HandleEvent)
	// found some.
	roomSig sim.Signal
	// dataSig resumes the process when a write chunk's data, queued in the controller's
	// DMA engine, has arrived (wkFetchedProc).
	dataSig sim.Signal

	// The command served in events (hilevents.go) while the process stays parked.
	next    *nvmectrl.Command // its first step is booked; wkStart takes it
	ev      *nvmectrl.Command // being served in events, or nil
	off, n  int64             // its byte range
	i, last int64             // next and last logical page
	k       int64             // pages of the write chunk in flight
	stalled bool              // the write chunk waited for buffer room
	// detached marks a write context: no process and no place among the workers; it
	// serves one write in events and goes back to Firmware.spare (hilevents.go, detach).
	detached  bool
	stallFrom sim.Time
}

func newWorker(f *Firmware, i int) *worker {
	return &worker{f: f, core: f.core(i)}
}

// run takes commands from the HIL's queue while there are any, and otherwise waits idle
// for Submit to hand one over.
func (wk *worker) run(p *sim.Proc) {
	f := wk.f
	for {
		if cmd, ok := f.cmds.TryRecv(); ok {
			p.Compute(wk.core, f.acts.hil, wk.front(cmd))
			wk.handle(p, cmd)
			continue
		}
		f.idle = append(f.idle, wk)
		for wk.cmd == nil {
			p.Wait(&wk.sig)
		}
		cmd := wk.cmd
		wk.cmd = nil
		wk.handle(p, cmd)
	}
}

// front returns the cycles of a command's first step, charged before it is served: parsing,
// and for a read the per-page work and mapping lookups too (all CPU work before the first
// flash operation is issued).
func (wk *worker) front(cmd *nvmectrl.Command) int64 {
	c := &wk.f.spec.Cycles
	if !cmd.IsAdmin() && cmd.SQE.Opcode() == nvmectrl.OpRead {
		if _, _, first, last, ok := wk.span(cmd); ok {
			return c.Parse + (c.PerPage+c.Lookup)*(last-first+1)
		}
	}
	return c.Parse
}

// handle serves one command, whose first step (front) has been charged, and posts its
// completion with the buffer level.
func (wk *worker) handle(p *sim.Proc, cmd *nvmectrl.Command) {
	f := wk.f
	f.Stats.Commands++
	st := nvmectrl.StatusInvalidOpcode
	if !cmd.IsAdmin() {
		switch cmd.SQE.Opcode() {
		case nvmectrl.OpRead:
			f.Stats.Reads++
			st = wk.read(p, cmd)
		case nvmectrl.OpWrite:
			f.Stats.Writes++
			st = wk.write(p, cmd)
		case nvmectrl.OpFlush:
			f.Stats.Flushes++
			if !f.spec.PowerLossProtection {
				wk.flush(p)
			}
			st = nvmectrl.StatusSuccess
		case nvmectrl.OpDatasetManagement:
			f.Stats.Trims++
			st = wk.deallocate(p, cmd)
		case nvmectrl.OpWriteZeroes:
			f.Stats.Trims++
			st = wk.writeZeroes(p, cmd)
		}
	}
	if st != nvmectrl.StatusSuccess {
		f.Stats.Errors++
	}
	// The completion step is booked on the core and the controller posts the CQE when it
	// ends; the worker goes back for the next command meanwhile (its next Compute queues
	// behind this one on the core), which saves a process switch per command.
	end := wk.core.Book(p.Now(), f.acts.hil, f.spec.Cycles.Complete)
	f.hw.Ctrl.Complete(end, cmd, st, 0, f.Level())
}

// span returns the byte range of a read or write and its logical pages, or false if it
// goes past the namespace.
func (wk *worker) span(cmd *nvmectrl.Command) (off, n, first, last int64, ok bool) {
	f := wk.f
	off = int64(cmd.SQE.SLBA()) * int64(f.lbaSize)
	n = int64(cmd.SQE.Blocks()) * int64(f.lbaSize)
	ps := int64(f.spec.PageSize)
	if off < 0 || off+n > f.pagesPerNS*ps {
		return 0, 0, 0, 0, false
	}
	return off, n, off / ps, (off + n - 1) / ps, true
}

// write buffers the command's pages, waiting for room as the policy dictates.
func (wk *worker) write(p *sim.Proc, cmd *nvmectrl.Command) nvmectrl.Status {
	f := wk.f
	off, n, first, last, ok := wk.span(cmd)
	if !ok {
		return nvmectrl.StatusLBAOutOfRange
	}
	f.announce(cmd, last-first+1)
	ps := int64(f.spec.PageSize)
	for i := first; i <= last; {
		room := wk.room(p)
		k := min(last-i+1, int64(room))
		f.reserved += int(k)
		lo := max(off, i*ps)
		hi := min(off+n, (i+k)*ps)
		done, ok := f.hw.Ctrl.FetchHostData(p.Now(), cmd, int(lo-off), int(hi-lo), f, wk, wkFetchedProc)
		if !ok {
			p.Wait(&wk.dataSig)
			done = p.Now()
		}
		p.SleepUntil(max(done, p.Now()))
		p.Compute(wk.core, f.acts.hil, f.spec.Cycles.PerPage*k)
		for j := i; j < i+k; j++ {
			var stamp uint64
			if j*ps >= off {
				stamp = f.hw.Ctrl.Uint64FromHost(cmd, int(j*ps-off))
			} else {
				// The write starts inside the page: the page keeps its version; its old
				// data is merged in (read-modify-write).
				stamp = wk.oldStamp(p, j)
			}
			if (j+1)*ps > off+n && j*ps >= off {
				wk.oldStamp(p, j) // the tail of a partial last page: read-modify-write
			}
			f.storePage(cmd, j, stamp)
		}
		f.evict.notify()
		i += k
	}
	if cmd.SQE.FUA() && !f.spec.PowerLossProtection {
		wk.flush(p)
	}
	return nvmectrl.StatusSuccess
}

// storePage puts logical page j of a write, whose slot was reserved, in the buffer with its
// version stamp, and counts it off the victimization the command's hint announced.
func (f *Firmware) storePage(cmd *nvmectrl.Command, j int64, stamp uint64) {
	f.reserved--
	if !f.buf.Write(j, stamp) {
		panic("firmware: buffer refused a reserved write")
	}
	f.Stats.WritePages++
	f.victimStored(cmd)
}

// room waits until the buffer can take at least one more page and returns how many it can.
func (wk *worker) room(p *sim.Proc) int {
	f := wk.f
	stalled := false
	start := p.Now()
	for {
		if avail := f.buf.Room() - f.reserved; avail > 0 {
			if stalled {
				f.Stats.StallTime += p.Now() - start
			}
			return avail
		}
		if !stalled {
			stalled = true
			f.Stats.Stalls++
		}
		f.roomWaiters++
		f.evict.notify()
		f.roomQ = append(f.roomQ, wk)
		p.Wait(&wk.roomSig) // lookAtRoom resumes it when there is room
	}
}

// roomChanged gives every worker waiting for buffer room a look at it, in the order they
// started waiting, as a broadcast to them would: each worker's look (lookAtRoom) is made
// where its wake-up would be, and only a worker that finds room goes on;
// the others wait on, at the back of the queue, without a process switch.
func (f *Firmware) roomChanged() {
	if len(f.roomQ) == 0 {
		return
	}
	var l *roomLook
	if n := len(f.freeLooks); n > 0 {
		l = f.freeLooks[n-1]
		f.freeLooks = f.freeLooks[:n-1]
	} else {
		l = &roomLook{f: f}
	}
	// The queue becomes the look's list, and the look's empty (all nil) list the queue.
	l.wks, f.roomQ = f.roomQ, l.wks[:0]
	f.eng.SchedulePhase(f.eng.Now(), sim.PhaseProcess, l, nil, 0)
}

// roomLook is the looks at the buffer room of the workers that waited for it when it
// changed, in the order they started waiting. They are one event, not one each: the
// looks would be consecutive events at the same time, and sim.Engine.Requeue puts the rest
// back in their place whenever an event scheduled by an earlier look must come first.
type roomLook struct {
	f    *Firmware
	wks  []*worker
	head int
}

// HandleEvent looks at the room for each worker in turn (worker.lookAtRoom). Once a look
// finds no room, the rest would find none either, one after the other with nothing in
// between (the failed look changed nothing they see and scheduled nothing to come first),
// so they go to the back of the queue together, in order, as their looks would send them.
func (l *roomLook) HandleEvent(*sim.Event) {
	f := l.f
	for first := true; l.head < len(l.wks); first = false {
		if !first && f.eng.Requeue() {
			return
		}
		wk := l.wks[l.head]
		l.wks[l.head] = nil
		l.head++
		if !wk.lookAtRoom() {
			rest := l.wks[l.head:]
			f.roomQ = append(f.roomQ, rest...)
			clear(rest)
			break
		}
	}
	l.wks, l.head = l.wks[:0], 0
	f.freeLooks = append(f.freeLooks, l)
}

// oldStamp returns the current version of page lpn for a read-modify-write, reading it
// from flash if it is not in DRAM.
func (wk *worker) oldStamp(p *sim.Proc, lpn int64) uint64 {
	f := wk.f
	if st, ok := f.buf.Contains(lpn); ok && st != 0 {
		v, _ := f.buf.Read(lpn)
		return v
	}
	ppn := f.ftl.Lookup(lpn)
	if ppn == ftl.NoPage {
		return 0
	}
	if s, ok := f.pending.get(ppn); ok {
		return s
	}
	w := &wk.w
	wk.grow(1)
	w.pending, w.ready = 1, p.Now()
	op := f.sched.get(opHostRead, f.geo.Addr(ppn).Die)
	op.ppn, op.w, op.idx = ppn, w, 0
	f.sched.enqueue(op)
	w.wait(p) // resumes once the data is in DRAM
	return w.stamps[0]
}

func (wk *worker) grow(n int) {
	if cap(wk.w.stamps) < n {
		wk.w.stamps = make([]uint64, n)
	}
	wk.w.stamps = wk.w.stamps[:n]
}

// read serves the command's pages from the buffer, from in-flight programs, or from flash.
func (wk *worker) read(p *sim.Proc, cmd *nvmectrl.Command) nvmectrl.Status {
	off, n, first, last, ok := wk.span(cmd)
	if !ok {
		return nvmectrl.StatusLBAOutOfRange
	}
	wk.readIssue(p.Now(), first, last)
	wk.w.wait(p) // resumes once every page is in DRAM
	wk.readFinish(p.Now(), cmd, off, n, first, last)
	return nvmectrl.StatusSuccess
}

// readIssue serves a read's pages from the buffer or from in-flight programs, or queues
// their flash reads, counting those in wk.w.
func (wk *worker) readIssue(now sim.Time, first, last int64) {
	f := wk.f
	k := int(last - first + 1)
	wk.grow(k)
	w := &wk.w
	w.pending, w.ready = 0, now
	for j := 0; j < k; j++ {
		lpn := first + int64(j)
		f.Stats.ReadPages++
		if v, hit := f.buf.Read(lpn); hit {
			w.stamps[j] = v
			f.Stats.ReadHits++
			continue
		}
		ppn := f.ftl.Lookup(lpn)
		if ppn == ftl.NoPage {
			w.stamps[j] = 0
			f.Stats.Unmapped++
			continue
		}
		if s, ok := f.pending.get(ppn); ok {
			w.stamps[j] = s
			f.Stats.PendingHits++
			continue
		}
		g, a := f.addr(ppn)
		ch, i := f.dieOf(g)
		ch.Die(i).Prefetch(a) // wall-clock only: the die reads its state when the read starts
		op := f.sched.get(opHostRead, g)
		op.ppn, op.w, op.idx = ppn, w, j
		w.pending++
		f.Stats.FlashReads++
		f.sched.enqueue(op)
	}
}

// readFinish moves a read's pages, all in DRAM by now, to the host.
func (wk *worker) readFinish(now sim.Time, cmd *nvmectrl.Command, off, n, first, last int64) {
	f := wk.f
	w := &wk.w
	out := f.dramMove(now, first, int(n), false)
	ps := int64(f.spec.PageSize)
	for j := 0; j < int(last-first+1); j++ {
		if start := (first + int64(j)) * ps; start >= off {
			binary.LittleEndian.PutUint64(wk.b8[:], w.stamps[j])
			m := min(8, int(off+n-start))
			f.hw.Ctrl.CopyToHost(cmd, int(start-off), wk.b8[:m])
		}
	}
	f.hw.Ctrl.WriteHostData(out, cmd, 0, int(n))
}

// flush waits until the data buffered when it started has been written to flash: as many
// evictions as pages were occupied must complete (or the buffer must empty). With LRU
// order a page rewritten meanwhile may count in place of an older one; FIFO is exact.
func (wk *worker) flush(p *sim.Proc) {
	f := wk.f
	target := f.buf.Stats.Evicted + int64(f.buf.Occupancy())
	f.flushers++
	f.evict.notify()
	for f.buf.Occupancy() > 0 && f.buf.Stats.Evicted < target {
		p.Wait(&f.flushSig)
	}
	f.flushers--
}

// deallocate serves Dataset Management with the Deallocate attribute: every logical page
// wholly inside a range is trimmed from the buffer and the FTL.
func (wk *worker) deallocate(p *sim.Proc, cmd *nvmectrl.Command) nvmectrl.Status {
	f := wk.f
	nr := int(cmd.SQE.DW(10)&0xFF) + 1
	if cmd.SQE.DW(11)&(1<<2) == 0 {
		return nvmectrl.StatusSuccess // attributes only: nothing to do
	}
	if cap(wk.dsm) < 16*nr {
		wk.dsm = make([]byte, 16*nr)
	}
	buf := wk.dsm[:16*nr]
	p.SleepUntil(max(p.Now(), f.hw.Ctrl.ReadHostData(p.Now(), cmd, 0, len(buf))))
	f.hw.Ctrl.CopyFromHost(cmd, 0, buf)
	for r := 0; r < nr; r++ {
		nlb := int64(binary.LittleEndian.Uint32(buf[16*r+4:]))
		slba := int64(binary.LittleEndian.Uint64(buf[16*r+8:]))
		if st := wk.trimRange(p, slba, nlb); st != nvmectrl.StatusSuccess {
			return st
		}
	}
	return nvmectrl.StatusSuccess
}

// writeZeroes serves Write Zeroes: reads of the range must return zeroes until it is
// written again (NVMe base specification, Write Zeroes; the libnvme nvme_write_zeros(2)
// page quotes it). The pages wholly inside the range are trimmed (an unmapped page reads as
// zeroes). A page the range covers only in part, which LBAs smaller than a page allow, is
// read-modify-written as a partial write is: its other sectors keep their data, and its
// data word (the first eight bytes, all of a page's data the model keeps) becomes 0 if the
// range covers it and keeps its value otherwise. A partial page that is unmapped already
// reads as zeroes and is left alone.
func (wk *worker) writeZeroes(p *sim.Proc, cmd *nvmectrl.Command) nvmectrl.Status {
	slba, nlb := int64(cmd.SQE.SLBA()), int64(cmd.SQE.Blocks())
	if st := wk.trimRange(p, slba, nlb); st != nvmectrl.StatusSuccess {
		return st
	}
	f := wk.f
	ps := int64(f.spec.PageSize)
	off := slba * int64(f.lbaSize)
	end := off + nlb*int64(f.lbaSize)
	first, last := off/ps, (end-1)/ps
	if off%ps != 0 || end < (first+1)*ps {
		wk.zeroPart(p, cmd, first, off == first*ps)
	}
	if last != first && end%ps != 0 {
		wk.zeroPart(p, cmd, last, true)
	}
	return nvmectrl.StatusSuccess
}

// zeroPart read-modify-writes logical page lpn for a Write Zeroes that covers part of it:
// its data word becomes 0 if the range covers the page's first bytes (word), and keeps
// its value otherwise.
func (wk *worker) zeroPart(p *sim.Proc, cmd *nvmectrl.Command, lpn int64, word bool) {
	f := wk.f
	if _, ok := f.buf.Contains(lpn); !ok && f.ftl.Lookup(lpn) == ftl.NoPage {
		return
	}
	wk.room(p)
	f.reserved++
	old := wk.oldStamp(p, lpn) // the page's other sectors are merged in
	p.Compute(wk.core, f.acts.hil, f.spec.Cycles.PerPage)
	if word {
		old = 0
	}
	f.storePage(cmd, lpn, old)
	f.evict.notify()
}

func (wk *worker) trimRange(p *sim.Proc, slba, nlb int64) nvmectrl.Status {
	f := wk.f
	ps := int64(f.spec.PageSize)
	off := slba * int64(f.lbaSize)
	end := off + nlb*int64(f.lbaSize)
	if off < 0 || end > f.pagesPerNS*ps {
		return nvmectrl.StatusLBAOutOfRange
	}
	first, last := (off+ps-1)/ps, end/ps // pages wholly inside [off, end)
	if last > first {
		p.Compute(wk.core, f.acts.hil, f.spec.Cycles.PerPage*(last-first))
	}
	for lpn := first; lpn < last; lpn++ {
		f.buf.Invalidate(lpn)
		f.ftl.Trim(lpn)
	}
	return nvmectrl.StatusSuccess
}
