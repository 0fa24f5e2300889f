package firmware

import (
	"encoding/binary"

	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// The host interface layer (HIL) is written as firmware is: a command is served by a chain
// of run-to-completion steps, each a handler that does its work, starts what it needs (a
// DMA, a flash read, a core booking) and returns; the step that finishes that work runs when
// its completion arrives (hilsteps.go lists the steps). No step blocks, so one task slot
// (worker) can stand for the state of one command in flight, as a command slot does in a
// controller's main loop.

// worker is one HIL task slot. Workers take commands one at a time; a whole-page write is
// handed to a write context (a worker marked detached, with no place among the workers) so
// the worker can take the next command at once.
type worker struct {
	f    *Firmware
	core int // its core (CPU)
	w    waiter
	on   workerSteps
	b8   [8]byte
	dsm  []byte

	// held marks a worker that serves every command it takes itself, writes included,
	// until it finds the HIL's queue empty: it is set when it takes a command that needs
	// more than the common path (a partial-page write, a write that flushes, a flush, a
	// trim, an admin command) and at boot. It keeps the order in which commands were served
	// when those were served by a process of their own (docs/firmware.md, "One HIL").
	held bool
	// detached marks a write context: it serves one write and goes back to hil.spare.
	detached bool

	next    *hal.HostCmd // taken, its first step booked; on.start serves it
	cmd     *hal.HostCmd // being served, or nil
	ns      *fwNamespace // its namespace
	ruh     int          // a write's reclaim unit handle (Flexible Data Placement, fdp.go)
	rg      int          // and its reclaim group (ftl.AnyGroup: the controller's choice)
	dw0     uint32       // the completion's DW0 (a Zone Append's ALBA, zns.go)
	off, n  int64        // its byte range
	i, last int64        // next and last logical page
	k       int64        // pages of the write chunk in flight
	stalled bool         // the write chunk waited for buffer room
	// stallFrom is when the chunk started looking for room.
	stallFrom sim.Time

	// A chunk's page being stored (partial writes read the old data first).
	j     int64
	jStep pageStep // where storePages goes on with page j
	stamp uint64
	// flushTarget is the count of evictions a flush waits for (flush); fin, the blocks
	// whose provisional host pages it waits to see final (final.go), since when.
	flushTarget int64
	fin         []finTarget
	finFrom     sim.Time

	// Trims: the ranges of a Dataset Management command, the one being trimmed.
	nr, r       int
	tLo, tHi    int64
	writeZeroes bool
	// Write Zeroes: the (at most two) pages its range covers in part, whether it covers
	// each one's data word, the one being read-modify-written, and that one is (zeroing).
	zp      [2]int64
	zword   [2]bool
	zn, zi  int
	zeroing bool
}

func newWorker(f *Firmware, i int) *worker {
	wk := &worker{f: f, core: f.core(i)}
	wk.bind()
	return wk
}

// front returns the cycles of a command's first step, charged before it is served: parsing,
// and for a read the per-page work and mapping lookups too (all CPU work before the first
// flash operation is issued).
func (wk *worker) front(cmd *hal.HostCmd) int64 {
	c := &wk.f.spec.Cycles
	if !cmd.Admin && cmd.Op == nvme.OpRead {
		if _, _, first, last, ok := wk.f.span(wk.f.nsOf(cmd), cmd); ok {
			return c.Parse + (c.PerPage+c.Lookup)*(last-first+1)
		}
	}
	return c.Parse
}

// span returns the byte range of a read or write in the logical space (the namespace's
// first logical page is its LBA 0) and its logical pages, or false if it goes past the
// namespace (or names none).
func (f *Firmware) span(ns *fwNamespace, cmd *hal.HostCmd) (off, n, first, last int64, ok bool) {
	if ns == nil {
		return 0, 0, 0, 0, false
	}
	off = int64(cmd.SLBA) * int64(ns.lbaSize)
	n = int64(cmd.Blocks) * int64(ns.lbaSize)
	ps := int64(f.spec.PageSize)
	if off < 0 || off+n > ns.pages*ps {
		return 0, 0, 0, 0, false
	}
	off += ns.base * ps
	return off, n, off / ps, (off + n - 1) / ps, true
}

// common reports whether cmd takes the common path: a read, or a write of whole pages that
// needs no flush.
func (wk *worker) common(cmd *hal.HostCmd) bool {
	if cmd.Admin {
		return false
	}
	switch cmd.Op {
	case nvme.OpRead:
		return true
	case nvme.OpWrite:
		if cmd.FUA && !wk.f.spec.PowerLossProtection {
			return false
		}
		ps := int64(wk.f.spec.PageSize)
		off, n, _, _, ok := wk.f.span(wk.f.nsOf(cmd), cmd)
		return !ok || off%ps == 0 && n%ps == 0
	}
	return false
}

// start serves the command whose first step has ended (Submit, takeNext).
func (wk *worker) start() {
	f := wk.f
	cmd := wk.next
	wk.next = nil
	if !wk.common(cmd) {
		wk.held = true
	}
	wk.cmd = cmd
	f.Stats.Commands++
	if cmd.Admin {
		wk.finish(nvme.StatusInvalidOpcode)
		return
	}
	op := cmd.Op
	if wk.ns = f.nsOf(cmd); wk.ns == nil && op != nvme.OpFlush {
		wk.finish(nvme.StatusInvalidNamespace.WithDNR())
		return
	}
	switch op {
	case nvme.OpRead:
		f.Stats.Reads++
		wk.ns.stats.Reads++
		if wk.ns.zns != nil && !wk.zoneRead() {
			return
		}
		wk.read()
	case nvme.OpWrite, nvme.OpZoneAppend:
		f.Stats.Writes++
		wk.ns.stats.Writes++
		if f.ro.on {
			wk.refuseWrite()
			return
		}
		if wk.ns.zns == nil && op == nvme.OpZoneAppend {
			wk.finish(nvme.StatusInvalidOpcode) // not a command of the NVM command set
			return
		}
		if wk.ns.zns != nil && !wk.zoneWrite(op == nvme.OpZoneAppend) {
			return
		}
		wk.write()
	case nvme.OpZoneMgmtSend:
		wk.zoneSend()
	case nvme.OpZoneMgmtReceive:
		wk.zoneReceive()
	case nvme.OpFlush:
		f.Stats.Flushes++
		if f.spec.PowerLossProtection {
			wk.finish(nvme.StatusSuccess)
			return
		}
		wk.flush()
	case nvme.OpDatasetManagement:
		f.Stats.Trims++
		if f.ro.on {
			wk.refuseWrite()
			return
		}
		wk.deallocate()
	case nvme.OpIOMgmtReceive:
		wk.ioMgmtReceive()
	case nvme.OpIOMgmtSend:
		wk.ioMgmtSend()
	case nvme.OpWriteZeroes:
		f.Stats.Trims++
		if f.ro.on {
			wk.refuseWrite()
			return
		}
		wk.writeZeroes = true
		wk.nr, wk.r = 1, 0
		wk.trimNext()
	default:
		wk.finish(nvme.StatusInvalidOpcode)
	}
}

// finish completes the command: the completion step is booked on the core and the
// controller posts the CQE, with the buffer level, when it ends. A worker then takes the
// next command (takeNext), a write context goes back to the spares.
func (wk *worker) finish(st nvme.Status) {
	f := wk.f
	now := f.eng.Now()
	cmd := wk.cmd
	wk.cmd = nil
	if st != nvme.StatusSuccess {
		f.Stats.Errors++
	}
	end := f.cpu.Charge(now, wk.core, WorkHIL, f.spec.Cycles.Complete)
	lv := f.Level()
	if lv == bufferlevel.High {
		f.Stats.AboveHigh++
	}
	f.host.Complete(end, cmd, st, wk.dw0, lv)
	wk.dw0 = 0
	if wk.detached {
		f.hil.spare = append(f.hil.spare, wk)
		return
	}
	wk.takeNext(now)
}

// takeNext takes the worker's next command from the HIL's queue (its first step booked,
// then on.start), or puts the worker on the idle list.
func (wk *worker) takeNext(now sim.Time) {
	f := wk.f
	if next, ok := f.hil.cmds.TryRecv(); ok {
		wk.next = next
		if c := wk.front(next); c > 0 {
			f.at(f.cpu.Charge(now, wk.core, WorkHIL, c), &wk.on.start)
		} else {
			wk.start()
		}
		return
	}
	wk.held = false
	f.hil.idle.TrySend(wk) // it has a slot: no worker is on the list twice
}

// takeSpan sets the worker's byte range and first and last logical page from its command,
// or completes the command with LBA Out of Range and reports false.
func (wk *worker) takeSpan() bool {
	off, n, first, last, ok := wk.f.span(wk.ns, wk.cmd)
	if !ok {
		wk.finish(nvme.StatusLBAOutOfRange)
		return false
	}
	wk.off, wk.n, wk.i, wk.last = off, n, first, last
	return true
}

// read serves the command's pages from the buffer, from in-flight programs, or from flash,
// and moves them to the host once they are all in DRAM (readDone).
func (wk *worker) read() {
	f := wk.f
	if !wk.takeSpan() {
		return
	}
	wk.ns.stats.ReadPages += wk.last - wk.i + 1
	wk.w.then = &wk.on.read
	wk.readIssue(f.eng.Now(), wk.i, wk.last)
	if wk.w.pending == 0 {
		wk.readDone()
	}
}

// readIssue serves a read's pages from the buffer or from in-flight programs, or queues
// their flash reads, counting those in wk.w.
func (wk *worker) readIssue(now sim.Time, first, last int64) {
	f := wk.f
	k := int(last - first + 1)
	wk.grow(k)
	w := &wk.w
	w.pending, w.ready, w.failed = 0, now, false
	for j := 0; j < k; j++ {
		lpn := first + int64(j)
		f.Stats.ReadPages++
		if v, hit := f.buf.Read(lpn); hit {
			w.stamps[j] = v
			f.Stats.ReadHits++
			continue
		}
		u := f.ftl.Lookup(lpn)
		if u == ftl.NoUnit {
			w.stamps[j] = 0
			f.Stats.Unmapped++
			continue
		}
		if s, ok := f.pending.get(u); ok {
			w.stamps[j] = s
			f.Stats.PendingHits++
			continue
		}
		ppn := ftl.PPN(u)
		if f.units > 1 {
			ppn = f.ftl.PageOf(u)
		}
		g, a := f.addr(ppn)
		f.flash.Prefetch(g, a) // wall-clock only: the die reads its state when the read starts
		op := f.sched.get(opHostRead, g)
		op.ppn, op.w, op.idx = ppn, w, j
		if f.flows != nil {
			op.flow = flowSrc{wk.cmd.Flow, now}
		}
		if f.units > 1 {
			op.slot = uint8(f.ftl.SlotOf(u))
		}
		w.pending++
		f.Stats.FlashReads++
		if f.units > 1 {
			f.sched.hold(op) // dispatched with the command's other units (readmerge.go)
			continue
		}
		f.sched.enqueue(op)
	}
	if f.units > 1 {
		f.sched.dispatchHeld()
	}
}

// readDone moves a read's pages, all in DRAM by now, to the host and completes it.
func (wk *worker) readDone() {
	f := wk.f
	w := &wk.w
	cmd, off, n, first, last := wk.cmd, wk.off, wk.n, wk.i, wk.last
	if w.failed { // a page stayed uncorrectable after read retry (faults.go)
		f.faults.FailedReads++
		wk.finish(nvme.StatusUnrecoveredRead)
		return
	}
	out := f.dramMove(f.eng.Now(), first, int(n), false)
	ps := int64(f.spec.PageSize)
	for j := 0; j < int(last-first+1); j++ {
		if start := (first + int64(j)) * ps; start >= off {
			binary.LittleEndian.PutUint64(wk.b8[:], w.stamps[j])
			m := min(8, int(off+n-start))
			f.host.CopyToHost(cmd, int(start-off), wk.b8[:m])
		}
	}
	f.host.WriteHostData(out, cmd, 0, int(n))
	wk.finish(nvme.StatusSuccess)
}

func (wk *worker) grow(n int) {
	if cap(wk.w.stamps) < n {
		wk.w.stamps = make([]uint64, n)
	}
	wk.w.stamps = wk.w.stamps[:n]
}

// write starts a write: it records its hint and serves it chunk by chunk, each as much as
// the buffer has room for. A worker not held hands the write to a write context and takes
// the next command at once: a read is never held behind another command's data transfer or
// buffer wait for want of a worker. What a write still shares with other commands is named:
// the core's cycles, the controller's read tags, buffer room and command slots
// (MaxCommands bounds the contexts).
func (wk *worker) write() {
	f := wk.f
	if !wk.takeSpan() {
		return
	}
	wk.ns.stats.WritePages += wk.last - wk.i + 1
	if f.fdp != nil {
		wk.ruh, wk.rg = f.placementHandle(wk.ns, wk.cmd)
		f.fdp.hostBytes += uint64(wk.n)
	}
	f.announce(wk.cmd, wk.last-wk.i+1)
	if wk.held {
		wk.writeChunk()
		return
	}
	cx := f.hil.context(wk)
	cx.writeChunk()
	wk.takeNext(f.eng.Now())
}

// context returns a write context that takes over the write wk has started.
func (h *hil) context(wk *worker) *worker {
	var cx *worker
	if n := len(h.spare); n > 0 {
		cx = h.spare[n-1]
		h.spare = h.spare[:n-1]
	} else {
		cx = &worker{f: wk.f, detached: true}
		cx.bind()
	}
	cx.core, cx.cmd, cx.ns, cx.ruh, cx.rg, cx.off, cx.n, cx.i, cx.last = wk.core, wk.cmd, wk.ns, wk.ruh, wk.rg, wk.off, wk.n, wk.i, wk.last
	cx.dw0, wk.dw0 = wk.dw0, 0
	wk.cmd = nil
	return cx
}

// writeChunk starts the next chunk of a write, or ends the write: with a flush first if it
// is an FUA write and the buffer is not durable.
func (wk *worker) writeChunk() {
	f := wk.f
	if wk.i > wk.last {
		if wk.cmd.FUA && !f.spec.PowerLossProtection {
			wk.flush()
			return
		}
		wk.finish(nvme.StatusSuccess)
		return
	}
	wk.stalled, wk.stallFrom = false, f.eng.Now()
	wk.writeRoom()
}

// writeRoom moves the chunk's data in if the buffer has room, and otherwise queues the
// worker for a look when the room changes (roomChanged).
func (wk *worker) writeRoom() {
	f := wk.f
	if f.ro.on { // the drive went read-only while the write waited (readonly.go)
		f.victimReserved(wk.cmd, wk.last-wk.i+1) // its hinted pages will not come
		wk.refuseWrite()
		return
	}
	now := f.eng.Now()
	room := f.room()
	if room <= 0 {
		if !wk.stalled {
			wk.stalled = true
			f.Stats.Stalls++
		}
		f.wb.waitRoom(wk)
		return
	}
	if wk.stalled {
		f.Stats.StallTime += now - wk.stallFrom
	}
	ps := int64(f.spec.PageSize)
	k := min(wk.last-wk.i+1, int64(room))
	f.wb.reserved += int(k)
	f.victimReserved(wk.cmd, k)
	lo := max(wk.off, wk.i*ps)
	hi := min(wk.off+wk.n, (wk.i+k)*ps)
	wk.k = k
	// The controller's DMA engine fetches the chunk into DRAM now that the buffer has room
	// for it; if its read tags are all in use it tells the worker when the data is in
	// (on.fetched).
	if landed, ok := f.host.FetchHostData(now, wk.cmd, int(lo-wk.off), int(hi-lo), f, &wk.on.fetched); ok {
		wk.fetched(landed)
	}
}

// lookAtRoom is a waiting write's look at the buffer room when it has changed: it goes on
// with its chunk if there is room, and otherwise waits on at the back of the queue. It
// reports whether there was room. A look that finds none changes neither the room nor
// anything that must happen before the next look (the evictor's round it may start comes
// after).
func (wk *worker) lookAtRoom() bool {
	f := wk.f
	f.wb.roomWaiters--
	if f.room() > 0 || f.ro.on { // read-only: the write goes on to fail
		if wk.zeroing {
			wk.zeroRoom()
		} else {
			wk.writeRoom()
		}
		return true
	}
	f.wb.waitRoom(wk)
	return false
}

// fetched schedules a write chunk's per-page work (writeData) for when its data is in DRAM.
func (wk *worker) fetched(landed sim.Time) {
	f := wk.f
	f.at(max(landed, f.eng.Now()), &wk.on.data)
}

// Land implements hal.DataSink: a write's data that arrived from the host at t moves
// into its pages' buffer slots in DRAM (addressed from the page holding its first byte).
func (f *Firmware) Land(t sim.Time, cmd *hal.HostCmd, off, n int) sim.Time {
	ps := int64(f.spec.PageSize)
	ns := f.nsOf(cmd) // the controller moves data only for commands of an active namespace
	done := f.dramMove(t, ns.base+(int64(cmd.SLBA)*int64(ns.lbaSize)+int64(off))/ps, n, true)
	if f.flows != nil && cmd.Flow != 0 && done > t {
		f.flows.t.DRAMWrite(cmd.Flow, t, done)
	}
	return done
}

// writeData charges the chunk's per-page work once its data is in DRAM.
func (wk *worker) writeData() {
	f := wk.f
	if c := f.spec.Cycles.PerPage * wk.k; c > 0 {
		f.compute(wk.core, WorkHIL, c, &wk.on.pages)
		return
	}
	wk.writePages()
}

// writePages buffers the chunk's pages with their version stamps.
func (wk *worker) writePages() {
	wk.j, wk.jStep = wk.i, needStamp
	wk.storePages()
}

// pageStep is where storePages goes on with a page of a write's chunk when it is called
// again after a read of the page's old data.
type pageStep uint8

const (
	needStamp pageStep = iota // the page's stamp is needed (the host's, or the old one)
	needTail                  // the old data of the page's tail is needed (a partial last page)
	storeIt                   // store the page
)

// storePages stores the chunk's pages from wk.j on. A page the write does not cover in
// whole keeps the data it had, so it is read first (read-modify-write): a page the write
// starts inside keeps its version; the tail of a partial last page is read too. Such a read
// that must go to flash stops the loop; on.old goes on with it.
func (wk *worker) storePages() {
	f := wk.f
	cmd := wk.cmd
	ps := int64(f.spec.PageSize)
	for wk.j < wk.i+wk.k {
		j := wk.j
		switch wk.jStep {
		case needStamp:
			wk.jStep = needTail
			if j*ps >= wk.off {
				wk.stamp = f.host.Uint64FromHost(cmd, int(j*ps-wk.off))
			} else if s, ok := wk.oldStamp(j); ok {
				wk.stamp = s
			} else {
				return
			}
		case needTail:
			wk.jStep = storeIt
			if (j+1)*ps > wk.off+wk.n && j*ps >= wk.off {
				if _, ok := wk.oldStamp(j); !ok {
					return
				}
			}
		default:
			if f.fdp != nil {
				f.ftl.PlaceGroup(j, wk.ruh, wk.rg)
			}
			f.storePage(cmd, j, wk.stamp)
			wk.j++
			wk.jStep = needStamp
		}
	}
	f.evict.notify()
	wk.i += wk.k
	wk.writeChunk()
}

// oldDone goes on with storePages (or a Write Zeroes' zeroStore) once a page's old data is
// in DRAM.
func (wk *worker) oldDone() {
	if wk.zeroing {
		wk.stamp = wk.w.stamps[0]
		wk.zeroStore()
		return
	}
	if wk.jStep == needTail { // the stamp's read (needStamp) ended: it is the page's
		wk.stamp = wk.w.stamps[0]
	}
	wk.storePages()
}

// storePage puts logical page j of a write, whose slot was reserved, in the buffer with its
// version stamp (the hint's count of it moved to reserved with the slot: victimReserved).
func (f *Firmware) storePage(cmd *hal.HostCmd, j int64, stamp uint64) {
	f.wb.reserved--
	if !f.buf.Write(j, stamp) {
		panic("firmware: buffer refused a reserved write")
	}
	if f.flows != nil {
		f.flows.stored(j, stamp, cmd.Flow, f.eng.Now())
	}
	f.Stats.WritePages++
}

// oldStamp returns the current version of page lpn for a read-modify-write if it is in
// DRAM; otherwise it queues its flash read and reports false (on.old follows).
func (wk *worker) oldStamp(lpn int64) (uint64, bool) {
	f := wk.f
	if st, ok := f.buf.Contains(lpn); ok && st != 0 {
		v, _ := f.buf.Read(lpn)
		return v, true
	}
	u := f.ftl.Lookup(lpn)
	if u == ftl.NoUnit {
		return 0, true
	}
	if s, ok := f.pending.get(u); ok {
		return s, true
	}
	ppn := f.ftl.PageOf(u)
	w := &wk.w
	wk.grow(1)
	w.pending, w.ready, w.then, w.failed = 1, f.eng.Now(), &wk.on.old, false
	op := f.sched.get(opHostRead, f.geo.Addr(ppn).Die)
	op.ppn, op.slot, op.w, op.idx = ppn, uint8(f.ftl.SlotOf(u)), w, 0
	if f.flows != nil {
		op.flow = flowSrc{wk.cmd.Flow, f.eng.Now()}
	}
	f.sched.enqueue(op)
	return 0, false
}

// flush waits until the data buffered when it started has been written to flash: as many
// evictions as pages were occupied must complete (or the buffer must empty), then the
// command completes. With LRU order a page rewritten meanwhile may count in place of an
// older one; FIFO is exact.
func (wk *worker) flush() {
	f := wk.f
	wk.flushTarget = f.buf.Stats.Evicted + int64(f.buf.Occupancy())
	f.wb.flushers++
	f.evict.notify()
	wk.flushLook()
}

// flushLook completes the flush if its data has reached flash, and otherwise waits for the
// next time the buffer empties (opDone).
func (wk *worker) flushLook() {
	f := wk.f
	if f.buf.Occupancy() > 0 && f.buf.Stats.Evicted < wk.flushTarget {
		if f.ro.on { // read-only: the data may never reach the flash (readonly.go)
			f.wb.flushers--
			wk.refuseWrite()
			return
		}
		f.wb.flushQ = append(f.wb.flushQ, wk)
		return
	}
	f.wb.flushers--
	if f.fin.page != nil && f.awaitFinal(wk) {
		return // its pages are programmed, not all final yet (final.go): on.durable completes it
	}
	wk.finish(nvme.StatusSuccess)
}

// deallocate serves Dataset Management with the Deallocate attribute: every logical page
// wholly inside a range is trimmed from the buffer and the FTL. The range list is read from
// the host first (on.ranges).
func (wk *worker) deallocate() {
	f := wk.f
	cmd := wk.cmd
	wk.nr, wk.r, wk.writeZeroes = int(cmd.DW(10)&0xFF)+1, 0, false
	if cmd.DW(11)&(1<<2) == 0 {
		wk.finish(nvme.StatusSuccess) // attributes only: nothing to do
		return
	}
	if cap(wk.dsm) < 16*wk.nr {
		wk.dsm = make([]byte, 16*wk.nr)
	}
	now := f.eng.Now()
	f.at(max(now, f.host.ReadHostData(now, cmd, 0, 16*wk.nr)), &wk.on.ranges)
}

// ranges takes the range list, now in DRAM, and trims the ranges in turn.
func (wk *worker) ranges() {
	wk.f.host.CopyFromHost(wk.cmd, 0, wk.dsm[:16*wk.nr])
	wk.trimNext()
}

// trimNext trims the next range (Write Zeroes has one, its own), charging its per-page work
// first (on.trim), or completes the command.
func (wk *worker) trimNext() {
	f := wk.f
	if wk.r >= wk.nr {
		wk.finish(nvme.StatusSuccess)
		return
	}
	var slba, nlb int64
	if wk.writeZeroes {
		slba, nlb = int64(wk.cmd.SLBA), int64(wk.cmd.Blocks)
	} else {
		b := wk.dsm[16*wk.r:]
		nlb = int64(binary.LittleEndian.Uint32(b[4:]))
		slba = int64(binary.LittleEndian.Uint64(b[8:]))
	}
	ps := int64(f.spec.PageSize)
	ns := wk.ns
	off := slba * int64(ns.lbaSize)
	end := off + nlb*int64(ns.lbaSize)
	if off < 0 || end > ns.pages*ps || end < off {
		wk.finish(nvme.StatusLBAOutOfRange)
		return
	}
	off, end = off+ns.base*ps, end+ns.base*ps
	wk.tLo, wk.tHi = (off+ps-1)/ps, end/ps // pages wholly inside [off, end)
	if wk.tHi > wk.tLo {
		if c := f.spec.Cycles.PerPage * (wk.tHi - wk.tLo); c > 0 {
			f.compute(wk.core, WorkHIL, c, &wk.on.trim)
			return
		}
	}
	wk.trim()
}

// trim trims the range's pages and goes on with the next range, or, for Write Zeroes,
// with the pages its range covers in part (zeroPartials).
func (wk *worker) trim() {
	f := wk.f
	for lpn := wk.tLo; lpn < wk.tHi; lpn++ {
		f.buf.Invalidate(lpn)
		f.ftl.Trim(lpn)
	}
	wk.r++
	if wk.writeZeroes {
		wk.zeroPartials()
		return
	}
	wk.trimNext()
}

// zeroPartials finds the pages a Write Zeroes covers only in part, which LBAs smaller than
// a page allow: reads of the range must return zeroes until it is written again (NVMe base
// specification, Write Zeroes), so such a page is read-modify-written as a partial write
// is (zeroNext): its other sectors keep their data, and its data word (the first eight
// bytes, all of a page's data the model keeps) becomes 0 if the range covers it and keeps
// its value otherwise. The pages wholly inside the range were trimmed (an unmapped page
// reads as zeroes).
func (wk *worker) zeroPartials() {
	f := wk.f
	ps := int64(f.spec.PageSize)
	ns := wk.ns
	off := ns.base*ps + int64(wk.cmd.SLBA)*int64(ns.lbaSize)
	end := off + int64(wk.cmd.Blocks)*int64(ns.lbaSize)
	first, last := off/ps, (end-1)/ps
	wk.zn, wk.zi = 0, 0
	if off%ps != 0 || end < (first+1)*ps {
		wk.zp[wk.zn], wk.zword[wk.zn] = first, off == first*ps
		wk.zn++
	}
	if last != first && end%ps != 0 {
		wk.zp[wk.zn], wk.zword[wk.zn] = last, true
		wk.zn++
	}
	wk.zeroNext()
}

// zeroNext starts the read-modify-write of the next partly covered page, skipping one that
// is unmapped already (it reads as zeroes), or ends the command.
func (wk *worker) zeroNext() {
	f := wk.f
	for wk.zi < wk.zn {
		lpn := wk.zp[wk.zi]
		if _, ok := f.buf.Contains(lpn); !ok && f.ftl.Lookup(lpn) == ftl.NoUnit {
			wk.zi++
			continue
		}
		wk.zeroing = true
		wk.stalled, wk.stallFrom = false, f.eng.Now()
		wk.zeroRoom()
		return
	}
	wk.zeroing = false
	wk.trimNext() // the one range is done: the command completes
}

// zeroRoom reserves buffer room for the page (waiting like a write: lookAtRoom comes back
// here), then takes its old data (zeroStore, at once or after its flash read: oldDone).
func (wk *worker) zeroRoom() {
	f := wk.f
	if f.ro.on { // the drive went read-only while the command waited (readonly.go)
		wk.zeroing = false
		wk.refuseWrite()
		return
	}
	if f.room() <= 0 {
		if !wk.stalled {
			wk.stalled = true
			f.Stats.Stalls++
		}
		f.wb.waitRoom(wk)
		return
	}
	if wk.stalled {
		f.Stats.StallTime += f.eng.Now() - wk.stallFrom
	}
	f.wb.reserved++
	f.victimReserved(wk.cmd, 1)
	if s, ok := wk.oldStamp(wk.zp[wk.zi]); ok {
		wk.stamp = s
		wk.zeroStore()
	}
}

// zeroStore charges the page's per-page work (on.zero), then stores it (zeroPage).
func (wk *worker) zeroStore() {
	f := wk.f
	if c := f.spec.Cycles.PerPage; c > 0 {
		f.compute(wk.core, WorkHIL, c, &wk.on.zero)
		return
	}
	wk.zeroPage()
}

// zeroPage buffers the partly zeroed page and goes on with the next.
func (wk *worker) zeroPage() {
	f := wk.f
	stamp := wk.stamp
	if wk.zword[wk.zi] {
		stamp = 0
	}
	if f.fdp != nil { // Write Zeroes carries no directive: placement handle 0
		f.ftl.Place(wk.zp[wk.zi], int(wk.ns.ph[0]))
	}
	f.storePage(wk.cmd, wk.zp[wk.zi], stamp)
	f.evict.notify()
	wk.zi++
	wk.zeroNext()
}
