package firmware

import (
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// A worker serves the common commands — reads, and writes of whole pages that need no
// flush — in events instead of in its process: each step is an event with the worker as
// handler, scheduled exactly where the process's wake-up would be (same time, phase
// PhaseProcess, same place in the order), doing what the process would do on waking. The
// results are those of the process; only the coroutine switches are saved. The process
// stays parked, idle, meanwhile, and serves the other commands (partial-page writes, which
// read-modify-write; writes that must flush; trims; admin commands): the wkStart event
// resumes it with the command.

// Codes of a worker's events.
const (
	wkStart       int64 = iota // a command's first step has ended
	wkData                     // a write chunk's data is in DRAM
	wkPages                    // a write chunk's per-page work has ended
	wkRead                     // a read's pages are in DRAM (release)
	wkFetched                  // a write chunk's data has landed in DRAM (DMA engine, queued)
	wkFetchedProc              // the same for the chunk of a write served by the process
)

// HandleEvent runs one step of the worker (see the codes above).
func (wk *worker) HandleEvent(ev *sim.Event) {
	switch ev.Code {
	case wkStart:
		wk.start()
	case wkData:
		wk.writeData()
	case wkPages:
		wk.writePages()
	case wkRead:
		wk.readDone()
	case wkFetched:
		wk.fetched(ev.Time)
	case wkFetchedProc:
		wk.dataSig.Resume()
	}
}

// lookAtRoom does what a worker waiting for buffer room does on waking: it goes on with its
// write if there is room, and otherwise waits on at the back of the queue. It reports
// whether there was room. A look that finds none changes neither the room nor anything
// that must happen before the next look (the evictor's round it may start comes after).
func (wk *worker) lookAtRoom() bool {
	f := wk.f
	f.roomWaiters--
	if f.buf.Room()-f.reserved > 0 {
		if wk.ev != nil {
			wk.writeRoom()
		} else {
			wk.roomSig.Resume()
		}
		return true
	}
	f.roomWaiters++
	f.evict.notify()
	f.roomQ = append(f.roomQ, wk)
	return false
}

// inEvents reports whether cmd is served in events.
func (wk *worker) inEvents(cmd *nvmectrl.Command) bool {
	if cmd.IsAdmin() {
		return false
	}
	switch cmd.SQE.Opcode() {
	case nvmectrl.OpRead:
		return true
	case nvmectrl.OpWrite:
		if cmd.SQE.FUA() && !wk.f.spec.PowerLossProtection {
			return false
		}
		ps := int64(wk.f.spec.PageSize)
		off, n, _, _, ok := wk.span(cmd)
		return !ok || off%ps == 0 && n%ps == 0
	}
	return false
}

// start takes the command whose first step has ended (Submit, finish): the process
// resumes to serve it, or the events do.
func (wk *worker) start() {
	f := wk.f
	cmd := wk.next
	wk.next = nil
	if !wk.inEvents(cmd) {
		wk.cmd = cmd
		wk.sig.Resume()
		return
	}
	wk.ev = cmd
	f.Stats.Commands++
	off, n, first, last, ok := wk.span(cmd)
	wk.off, wk.n, wk.i, wk.last = off, n, first, last
	if cmd.SQE.Opcode() == nvmectrl.OpRead {
		f.Stats.Reads++
		if !ok {
			wk.finish(nvmectrl.StatusLBAOutOfRange)
			return
		}
		wk.w.h = wk // release schedules wkRead when the pages are in DRAM
		wk.readIssue(f.eng.Now(), first, last)
		if wk.w.pending == 0 {
			wk.readDone()
		}
		return
	}
	f.Stats.Writes++
	if !ok {
		wk.finish(nvmectrl.StatusLBAOutOfRange)
		return
	}
	f.announce(cmd, last-first+1)
	cx := wk.detach()
	cx.writeChunk()
	wk.takeNext(f.eng.Now())
}

// detach hands the write the worker has started to a write context, which serves the rest
// of it (buffer room, data fetch, per-page work, completion) in events on the worker's
// core, so the worker takes the next command at once: a read is never held behind another
// command's data transfer or buffer wait for want of a worker. What a write still shares
// with other commands is named: the core's cycles, the controller's read tags, buffer room
// and command slots (MaxCommands bounds the contexts).
func (wk *worker) detach() *worker {
	f := wk.f
	var cx *worker
	if n := len(f.spare); n > 0 {
		cx = f.spare[n-1]
		f.spare = f.spare[:n-1]
	} else {
		cx = &worker{f: f, detached: true}
	}
	cx.core, cx.ev, cx.off, cx.n, cx.i, cx.last = wk.core, wk.ev, wk.off, wk.n, wk.i, wk.last
	wk.ev = nil
	return cx
}

// readDone ends a read whose pages are in DRAM (read, after its wait).
func (wk *worker) readDone() {
	wk.w.h = nil
	wk.readFinish(wk.f.eng.Now(), wk.ev, wk.off, wk.n, wk.i, wk.last)
	wk.finish(nvmectrl.StatusSuccess)
}

// writeChunk starts the next chunk of a write (the top of write's loop).
func (wk *worker) writeChunk() {
	if wk.i > wk.last {
		wk.finish(nvmectrl.StatusSuccess)
		return
	}
	wk.stalled, wk.stallFrom = false, wk.f.eng.Now()
	wk.writeRoom()
}

// writeRoom is room's loop: it moves the chunk's data in if the buffer has room, and
// otherwise queues the worker for a look when it changes.
func (wk *worker) writeRoom() {
	f := wk.f
	now := f.eng.Now()
	room := f.buf.Room() - f.reserved
	if room <= 0 {
		if !wk.stalled {
			wk.stalled = true
			f.Stats.Stalls++
		}
		f.roomWaiters++
		f.evict.notify()
		f.roomQ = append(f.roomQ, wk)
		return
	}
	if wk.stalled {
		f.Stats.StallTime += now - wk.stallFrom
	}
	ps := int64(f.spec.PageSize)
	k := min(wk.last-wk.i+1, int64(room))
	f.reserved += int(k)
	lo := max(wk.off, wk.i*ps)
	hi := min(wk.off+wk.n, (wk.i+k)*ps)
	wk.k = k
	// The controller's DMA engine fetches the chunk into DRAM now that the buffer has room
	// for it; if its read tags are all in use it tells the worker when the data is in
	// (wkFetched).
	if landed, ok := f.hw.Ctrl.FetchHostData(now, wk.ev, int(lo-wk.off), int(hi-lo), f, wk, wkFetched); ok {
		wk.fetched(landed)
	}
}

// fetched schedules a write chunk's per-page work (writeData) for when its data is in DRAM.
func (wk *worker) fetched(landed sim.Time) {
	f := wk.f
	f.eng.SchedulePhase(max(landed, f.eng.Now()), sim.PhaseProcess, wk, nil, wkData)
}

// Land implements nvmectrl.DataSink: a write's data that arrived from the host at t moves
// into its pages' buffer slots in DRAM (addressed from the page holding its first byte).
func (f *Firmware) Land(t sim.Time, cmd *nvmectrl.Command, off, n int) sim.Time {
	ps := int64(f.spec.PageSize)
	return f.dramMove(t, (int64(cmd.SQE.SLBA())*int64(f.lbaSize)+int64(off))/ps, n, true)
}

// writeData charges the chunk's per-page work once its data is in DRAM.
func (wk *worker) writeData() {
	f := wk.f
	if c := f.spec.Cycles.PerPage * wk.k; c > 0 {
		f.eng.SchedulePhase(wk.core.Book(f.eng.Now(), f.acts.hil, c), sim.PhaseProcess, wk, nil, wkPages)
		return
	}
	wk.writePages()
}

// writePages buffers the chunk's pages (whole pages: no read-modify-write).
func (wk *worker) writePages() {
	f := wk.f
	cmd := wk.ev
	ps := int64(f.spec.PageSize)
	for j := wk.i; j < wk.i+wk.k; j++ {
		f.storePage(cmd, j, f.hw.Ctrl.Uint64FromHost(cmd, int(j*ps-wk.off)))
	}
	f.evict.notify()
	wk.i += wk.k
	wk.writeChunk()
}

// finish completes the command served in events as handle does; a worker then takes the
// next one (takeNext), a write context goes back to the spares.
func (wk *worker) finish(st nvmectrl.Status) {
	f := wk.f
	now := f.eng.Now()
	cmd := wk.ev
	wk.ev = nil
	if st != nvmectrl.StatusSuccess {
		f.Stats.Errors++
	}
	end := wk.core.Book(now, f.acts.hil, f.spec.Cycles.Complete)
	f.hw.Ctrl.Complete(end, cmd, st, 0, f.Level())
	if wk.detached {
		f.spare = append(f.spare, wk)
		return
	}
	wk.takeNext(now)
}

// takeNext takes the worker's next command as run does: from the HIL's queue (its first
// step booked, then wkStart), or by going idle.
func (wk *worker) takeNext(now sim.Time) {
	f := wk.f
	if next, ok := f.cmds.TryRecv(); ok {
		wk.next = next
		if c := wk.front(next); c > 0 {
			f.eng.SchedulePhase(wk.core.Book(now, f.acts.hil, c), sim.PhaseProcess, wk, nil, wkStart)
		} else {
			wk.start()
		}
		return
	}
	f.idle = append(f.idle, wk)
}
