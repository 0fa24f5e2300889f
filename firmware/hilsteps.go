package firmware

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// hil is the host interface layer's state: the commands no worker was free to take, the
// idle workers and the spare write contexts.
type hil struct {
	cmds *sim.Queue[*hal.HostCmd] // commands no worker was free to take
	// idle holds the workers waiting for a command, longest first: a ring (one slot per
	// worker), so taking the first does not move the others.
	idle *sim.Queue[*worker]
	// spare holds write contexts not in use: a worker hands each whole-page write to one
	// and goes back for the next command (worker.write).
	spare []*worker
}

// workerSteps are the steps of a command, each run to completion when what it waits for
// has happened (a core booking's end, a DMA's landing, a flash read's data in DRAM). Each
// is bound to its worker once (newWorker): a timer carries the step and nothing else.
type workerSteps struct {
	start     step // a command's first step (parsing, a read's lookups) has ended
	data      step // a write chunk's data is in DRAM
	pages     step // a write chunk's per-page work has ended
	read      step // a read's pages are in DRAM
	fetched   step // a write chunk's data has landed in DRAM (DMA engine, queued)
	old       step // a partial page's old data is in DRAM (read-modify-write)
	flush     step // the buffer has emptied: a flush looks again
	ranges    step // a Dataset Management range list is in DRAM
	trim      step // a trim range's per-page work has ended
	boot      step // the worker starts (boot)
	zero      step // a Write Zeroes partial page's per-page work has ended
	ruhUpdate step // a Reclaim Unit Handle Update's list is in DRAM (fdp.go)
	durable   step // a flush's pages are final (final.go)
}

// bind binds the worker's steps; no step runs once the power is cut (the command is never
// finished).
func (wk *worker) bind() {
	cut := &wk.f.pl.cut
	wk.on = workerSteps{
		start:     newStep("worker", "start", cut, wk.start),
		data:      newStep("worker", "write-data", cut, wk.writeData),
		pages:     newStep("worker", "write-pages", cut, wk.writePages),
		read:      newStep("worker", "read-done", cut, wk.readDone),
		fetched:   newStep("worker", "write-fetched", cut, func() { wk.fetched(wk.f.eng.Now()) }),
		old:       newStep("worker", "old-data", cut, wk.oldDone),
		flush:     newStep("worker", "flush-look", cut, wk.flushLook),
		ranges:    newStep("worker", "dsm-ranges", cut, wk.ranges),
		trim:      newStep("worker", "trim-page", cut, wk.trim),
		boot:      newStep("worker", "boot", cut, wk.boot),
		zero:      newStep("worker", "zero-page", cut, wk.zeroPage),
		ruhUpdate: newStep("worker", "ruh-update", cut, wk.ruhUpdate),
		durable:   newStep("worker", "flush-final", cut, wk.durable),
	}
}

// boot is the worker's first step: it serves every command it takes itself until it finds
// the HIL's queue empty (held), and takes the next command.
func (wk *worker) boot() {
	wk.held = true
	wk.takeNext(wk.f.eng.Now())
}

// Submit implements hal.HostFirmware: the command goes to the worker that has been idle
// longest, or joins the HIL's queue if every worker is busy. A worker handed a command
// here has its first step (parsing, and a read's lookups) booked on its core at once and
// takes the command when that step ends (on.start).
func (f *Firmware) Submit(now sim.Time, cmd *hal.HostCmd) {
	if f.pl.cut {
		return // no power: the command is dropped
	}
	f.prefetch(cmd)
	h := &f.hil
	if wk, ok := h.idle.TryRecv(); ok {
		wk.next = cmd
		f.at(max(now, f.cpu.Charge(now, wk.core, WorkHIL, wk.front(cmd))), &wk.on.start)
		return
	}
	if !h.cmds.TrySend(cmd) {
		panic(fmt.Sprintf("firmware %s at %v: command queue full (more commands than max_commands)", f.name, now))
	}
}

// waitRoom queues a write for a look at the buffer room when it changes, and tells the
// evictor a write waits.
func (b *writeBuffer) waitRoom(wk *worker) {
	b.roomWaiters++
	wk.f.evict.notify()
	b.roomQ = append(b.roomQ, wk)
}

// roomChanged gives every write waiting for buffer room a look at it, in the order they
// started waiting: each look (lookAtRoom) is made in turn, and only a write that finds room
// goes on; the others wait on, at the back of the queue.
func (f *Firmware) roomChanged() {
	b := &f.wb
	if b.hold > 0 {
		f.restoreLook()
	}
	if len(b.roomQ) == 0 {
		return
	}
	var l *roomLook
	if n := len(b.freeLooks); n > 0 {
		l = b.freeLooks[n-1]
		b.freeLooks = b.freeLooks[:n-1]
	} else {
		l = &roomLook{f: f}
	}
	// The queue becomes the look's list, and the look's empty (all nil) list the queue.
	l.wks, b.roomQ = b.roomQ, l.wks[:0]
	f.at(f.eng.Now(), l)
}

// roomLook is the looks at the buffer room of the writes that waited for it when it
// changed, in the order they started waiting. They are one step, not one each: the looks
// would be consecutive steps at the same time, and sim.Engine.Requeue puts the rest back in
// their place whenever a step started by an earlier look must come first.
type roomLook struct {
	f    *Firmware
	wks  []*worker
	head int
}

// HandleEvent looks at the room for each write in turn (worker.lookAtRoom). Once a look
// finds no room, the rest would find none either, one after the other with nothing in
// between (the failed look changed nothing they see and started nothing to come first), so
// they go to the back of the queue together, in order, as their looks would send them.
func (l *roomLook) HandleEvent(*sim.Event) {
	f := l.f
	if f.pl.cut {
		return
	}
	for first := true; l.head < len(l.wks); first = false {
		if !first && f.eng.Requeue() {
			return
		}
		wk := l.wks[l.head]
		l.wks[l.head] = nil
		l.head++
		if !wk.lookAtRoom() {
			rest := l.wks[l.head:]
			f.wb.roomQ = append(f.wb.roomQ, rest...)
			clear(rest)
			break
		}
	}
	l.wks, l.head = l.wks[:0], 0
	f.wb.freeLooks = append(f.wb.freeLooks, l)
}

// bufferEmptied gives every waiting flush a look (on.flush), in the order they started
// waiting.
func (f *Firmware) bufferEmptied() {
	for i, wk := range f.wb.flushQ {
		f.at(f.eng.Now(), &wk.on.flush)
		f.wb.flushQ[i] = nil
	}
	f.wb.flushQ = f.wb.flushQ[:0]
}
