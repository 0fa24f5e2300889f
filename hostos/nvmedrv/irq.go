package nvmedrv

import (
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// vector is one MSI-X vector and its interrupt handler, which runs nvme_irq on a host core
// for the completion queues bound to the vector. The handler is a small state machine of
// engine events rather than a process: each step books its CPU time on the core
// (sim.Core.Book) and schedules one event at the end, which is where the next step runs.
type vector struct {
	d       *Driver
	num     int
	core    *sim.Core
	qs      []*queue
	pending bool // an interrupt arrived that the handler has not started on
	running bool // the handler is between its interrupt entry and its return
	qi      int  // the queue the handler is processing
	found   int  // entries consumed in this run
	qFound  int  // entries consumed from qs[qi]
	actIRQ  sim.Activity
	actCQE  sim.Activity
}

// Handler steps, as the event code.
const (
	evIRQEntered = 1 // the interrupt entry cost is paid: start reading the CQs
	evCQEDone    = 2 // one entry's cost is paid: complete its request, read the next
)

func newVector(d *Driver, num int, core *sim.Core) *vector {
	return &vector{d: d, num: num, core: core, actIRQ: core.Res.Activity("nvme-irq"),
		actCQE: core.Res.Activity("nvme-cqe")}
}

// Interrupt implements nvmectrl.Host: the MSI-X message of vector arrived. It starts the
// vector's handler; an interrupt that arrives while the handler runs makes it run again.
func (d *Driver) Interrupt(now sim.Time, vector int) {
	if vector <= 0 || vector >= len(d.vectors) || d.vectors[vector] == nil {
		return // the admin vector: the driver issues no admin commands after set-up
	}
	v := d.vectors[vector]
	v.pending = true
	if !v.running {
		v.running = true
		v.enter(now)
	}
}

// enter starts one run of the handler: pay the interrupt entry cost.
func (v *vector) enter(now sim.Time) {
	v.pending = false
	v.d.Stats.Interrupts++
	end := v.core.Book(now, v.actIRQ, v.d.spec.IRQCycles)
	v.d.eng.SchedulePhase(end, sim.PhaseProcess, v, nil, evIRQEntered)
}

// HandleEvent implements sim.Handler: the next step of the handler.
func (v *vector) HandleEvent(ev *sim.Event) {
	now := ev.Time
	switch ev.Code {
	case evIRQEntered:
		v.qi, v.found, v.qFound = 0, 0, 0
	case evCQEDone:
		q := v.qs[v.qi]
		v.d.handleCQE(now, q, &q.cqe)
	default:
		v.d.bug("vector %d: unknown event code %d", v.num, ev.Code)
	}
	v.processCQs(now)
}

// processCQs is nvme_process_cq over the vector's queues, from where the handler stands:
// consume entries while their phase tag matches, one event per entry (its CPU cost is
// booked first), then ring each queue's CQ head doorbell once for its batch (docs/sources.md
// §1.8). When every queue is drained the run ends, and starts again if another interrupt
// arrived meanwhile.
func (v *vector) processCQs(now sim.Time) {
	d := v.d
	for ; v.qi < len(v.qs); v.qi, v.qFound = v.qi+1, 0 {
		q := v.qs[v.qi]
		d.mem.ReadCQE(q.cqBase+uint64(q.cqHead)*nvmectrl.CQESize, &q.cqe)
		if q.cqe.Phase() == q.phase {
			v.found++
			v.qFound++
			if q.cqHead++; q.cqHead == q.depth {
				q.cqHead, q.phase = 0, q.phase^1 // a wrap flips the expected phase
			}
			end := v.core.Book(now, v.actCQE, d.spec.CQECycles)
			d.eng.SchedulePhase(end, sim.PhaseProcess, v, nil, evCQEDone)
			return
		}
		if v.qFound > 0 {
			d.ctrl.RingCQ(now, q.id, q.cqHead)
			d.Stats.CQDoorbells++
		}
	}
	if v.found == 0 {
		d.Stats.Spurious++
	}
	if d.refused {
		d.refused = false
		for _, ns := range d.nss {
			if ns.refused && ns.upper != nil {
				ns.refused = false
				d.Stats.Restarts++
				ns.upper.Restart(now)
			}
		}
	}
	if v.pending {
		v.enter(now)
		return
	}
	v.running = false
}

// handleCQE is nvme_handle_cqe: find the request by command identifier, read back a read's
// stamps, report the buffer level, free the identifier and complete the request. SQHD is
// not looked at, except as the buffer-level carrier.
func (d *Driver) handleCQE(now sim.Time, q *queue, e *nvmectrl.CQE) {
	cid := e.CID()
	if int(cid) >= len(q.slots) || q.slots[cid].rq == nil {
		d.bug("CQ %d: completion for command identifier %d, which is not in flight", q.id, cid)
	}
	s := &q.slots[cid]
	rq, ns := s.rq, s.ns
	s.rq, s.ns = nil, nil
	q.free = append(q.free, cid)
	d.Stats.Completions++
	d.lastDone = now
	var err error
	if st := e.Status(); !st.OK() {
		d.Stats.Errors++
		err = &StatusError{Status: st}
	} else if rq.Op == blk.OpRead {
		d.getStamps(rq, s.buf)
	} else if rq.Op == blk.OpZoneAppend {
		// The ALBA is CQE DW0 and DW1; the firmware's namespaces have fewer than 2³²
		// blocks and DW1 may carry FastDrain's buffer level (firmware/zns.go, zoneWrite).
		rq.Result = uint64(e.DW0())
	}
	if l, ok := d.cspec.StatusCarrier.Decode(e); ok {
		d.Stats.Levels[l]++
		if d.OnLevel != nil {
			d.OnLevel(now, l)
		}
	}
	if ns.upper != nil {
		ns.upper.Complete(now, rq, err)
	}
}

// StatusError is the error a request completes with when the device reports a status
// other than success.
type StatusError struct {
	Status nvmectrl.Status
}

// Error returns the status in words: "the device reported Unrecovered Read Error: the read
// data could not be recovered from the media (NVMe status 2h/81h)".
func (e *StatusError) Error() string { return "the device reported " + e.Status.Describe() }

// BlockStatus implements blk.StatusReporter: the block layer's class of the status, as
// Linux's nvme_error_status (drivers/nvme/host/core.c) maps it: Capacity Exceeded is no
// space; LBA Out of Range a target error; Invalid Command Opcode, Invalid Field and
// Invalid Namespace not supported; Write Fault, Unrecovered Read Error and Attempted Write
// to Read Only Range (NVME_SC_READ_ONLY) medium errors; anything else an I/O error.
func (e *StatusError) BlockStatus() blk.Status {
	switch e.Status & 0x7FF {
	case nvmectrl.StatusCapacityExceeded:
		return blk.StatusNoSpace
	case nvmectrl.StatusLBAOutOfRange:
		return blk.StatusTarget
	case nvmectrl.StatusInvalidOpcode, nvmectrl.StatusInvalidField, nvmectrl.StatusInvalidNamespace:
		return blk.StatusNotSupp
	case nvmectrl.StatusWriteFault, nvmectrl.StatusUnrecoveredRead, nvmectrl.StatusWriteReadOnlyRange:
		return blk.StatusMedium
	}
	return blk.StatusIOErr
}
