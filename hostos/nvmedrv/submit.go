package nvmedrv

import (
	"math"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// phaseDoorbell is the event phase of the batch doorbell: after every process step of the
// same instant, so requests dispatched at one time share one doorbell.
const phaseDoorbell = sim.PhaseProcess + 1

// evDoorbell is the only event kind the driver schedules: close a queue's batch.
const evDoorbell = 1

// QueueRequest implements blk.Driver (nvme_queue_rq). It maps rq to a queue pair, takes a
// free command identifier, lays out the data and writes the SQE into the submission ring;
// the doorbell follows at the end of the batch (see the package doc). It returns false,
// taking nothing, when the request's queue pair already holds q_depth − 1 commands; the
// driver then calls Upper.Restart after it completes some. A request the driver cannot
// express (misaligned, larger than MaxTransfer, an unknown operation) is a model bug and
// panics.
//
// QueueRequest is namespace 1's: each namespace's block queue calls its own
// (Namespace.QueueRequest).
func (d *Driver) QueueRequest(now sim.Time, rq *blk.Request) bool {
	return d.queueRequest(now, d.nss[0], rq)
}

// queueRequest is QueueRequest for namespace ns.
func (d *Driver) queueRequest(now sim.Time, ns *Namespace, rq *blk.Request) bool {
	q := ns.pick(rq)
	if q == nil {
		d.refused, ns.refused = true, true
		d.Stats.Refused++
		return false
	}
	cid := q.free[len(q.free)-1]
	q.free = q.free[:len(q.free)-1]
	s := &q.slots[cid]
	s.rq, s.ns = rq, ns
	d.build(&q.sqe, cid, s, rq)
	// nvme_sq_copy_cmd: the SQE goes to sq_cmds + (sq_tail << 6), and sq_tail wraps at
	// q_depth (docs/sources.md §1.8).
	d.mem.WriteSQE(q.sqBase+uint64(q.sqTail)*nvmectrl.SQESize, &q.sqe)
	if q.sqTail++; q.sqTail == q.depth {
		q.sqTail = 0
	}
	q.subFree = d.cpuAfter(q, max(now, q.subFree), d.spec.SubmitCycles)
	d.Stats.Submitted++
	// nvme_write_sq_db with bd->last unset: ring at once only if the next tail would reach
	// last_sq_tail, i.e. the ring is about to fill with entries not yet announced.
	if next := (q.sqTail + 1) % q.depth; next == q.lastTail {
		d.ringSQ(q, q.subFree)
	} else if !q.dbArmed {
		q.dbArmed = true
		d.eng.SchedulePhase(q.subFree, phaseDoorbell, d, q, evDoorbell)
	}
	return true
}

// Commit rings the SQ tail doorbell of every queue pair with entries not yet announced, as
// blk-mq's commit_rqs does, at now or when the driver finishes writing them if later.
func (d *Driver) Commit(now sim.Time) {
	for _, q := range d.queues {
		if q.sqTail != q.lastTail {
			d.ringSQ(q, max(now, q.subFree))
		}
	}
}

// HandleEvent implements sim.Handler: a queue's batch doorbell is due.
func (d *Driver) HandleEvent(ev *sim.Event) {
	if ev.Code != evDoorbell {
		d.bug("unknown event code %d", ev.Code)
	}
	q := ev.Data.(*queue)
	q.dbArmed = false
	switch {
	case q.subFree > ev.Time: // more requests joined the batch meanwhile
		q.dbArmed = true
		d.eng.SchedulePhase(q.subFree, phaseDoorbell, d, q, evDoorbell)
	case q.sqTail != q.lastTail:
		d.ringSQ(q, ev.Time)
	}
}

// ringSQ writes q's SQ tail doorbell at time t (writel(sq_tail, q_db)); the controller books
// the MMIO write on the link.
func (d *Driver) ringSQ(q *queue, t sim.Time) {
	d.ctrl.RingSQ(t, q.id, q.sqTail)
	q.lastTail = q.sqTail
	d.Stats.SQDoorbells++
}

// cpuAfter returns when n cycles of driver work on q's core end if they start at t.
func (d *Driver) cpuAfter(q *queue, t sim.Time, n int64) sim.Time {
	if n <= 0 {
		return t
	}
	return q.vec.core.Clock.After(t, n)
}

// pick returns the queue pair of the namespace for rq with a free command identifier, or
// nil.
func (ns *Namespace) pick(rq *blk.Request) *queue {
	qs, rr := ns.qs, &ns.rr
	if ns.rqs != nil && rq.Op == blk.OpRead { // HCTX_TYPE_READ
		qs, rr = ns.rqs, &ns.rrr
	}
	n := len(qs)
	if ns.d.spec.QueueMap == MapTag {
		if rq.Tag < 0 {
			ns.d.bug("tag mapping needs a request tag, got %d", rq.Tag)
		}
		q := qs[rq.Tag%n]
		if len(q.free) == 0 {
			return nil
		}
		return q
	}
	for i := range n {
		k := (*rr + i) % n
		if q := qs[k]; len(q.free) > 0 {
			*rr = (k + 1) % n
			return q
		}
	}
	return nil
}

// build fills e, byte-exact, for request rq on command identifier cid using slot s's
// buffer (nvme_setup_cmd and nvme_map_data). The entry starts from zeros: Linux clears the
// command, so CDW2, CDW3 and CDW13's DSM byte stay 0 unless a hint carrier sets them.
func (d *Driver) build(e *nvmectrl.SQE, cid uint16, s *slot, rq *blk.Request) {
	*e = nvmectrl.SQE{}
	ns := s.ns
	nsid, lba := ns.nsid, ns.lba
	switch rq.Op {
	case blk.OpRead, blk.OpWrite:
		if rq.Size <= 0 || rq.Size > int64(d.maxXfer) || rq.Offset < 0 || rq.Offset%lba != 0 || rq.Size%lba != 0 {
			d.bug("%v request [%d, +%d) is empty, misaligned to %d B blocks or above the %d B maximum transfer",
				rq.Op, rq.Offset, rq.Size, lba, d.maxXfer)
		}
		op := nvmectrl.OpRead
		if rq.Op == blk.OpWrite {
			op = nvmectrl.OpWrite
			d.putStamps(rq, s.buf)
		}
		prp1, prp2, _, err := nvmectrl.BuildPRP(d.mem, s.buf, int(rq.Size), s.lists)
		if err != nil {
			d.bug("%v", err)
		}
		e.SetRW(op, cid, nsid, prp1, prp2, uint64(rq.Offset/lba), int(rq.Size/lba))
		e.SetFUA(rq.FUA)
		if op == nvmectrl.OpWrite && d.spec.Hint && rq.Hint.Victim {
			pages := uint32(min(max(rq.Hint.Pages, 0), math.MaxUint32))
			d.cspec.HintCarrier.Encode(e, nvmectrl.Hint{Victim: true, Pages: pages})
			d.Stats.Hinted++
		}
		if rq.WriteStream != 0 && op == nvmectrl.OpWrite {
			// nvme_setup_rw (Linux 6.16): a write of stream s carries DTYPE 2h (data
			// placement) and the namespace's s-th placement identifier in DSPEC. The
			// request's write-lifetime hint (rq.WriteHint, bi_write_hint) is not read:
			// Linux's NVMe driver has sent nothing for it since its Streams directive
			// support went (5.18: commit 85e6c775762a, "nvme: remove support or stream
			// based temperature hint", drivers/nvme/host/core.c), and the 2024 patch that mapped hints to placement
			// identifiers ("nvme: enable FDP support") was not merged.
			if int(rq.WriteStream) > len(ns.plids) {
				d.bug("write stream %d on namespace %d, which has %d", rq.WriteStream, nsid, len(ns.plids))
			}
			e.SetPlacementID(ns.plids[rq.WriteStream-1])
		}
	case blk.OpFlush:
		e.SetOpcode(nvmectrl.OpFlush)
		e.SetCID(cid)
		e.SetNSID(nsid)
	case blk.OpDiscard:
		if rq.Offset < 0 || rq.Offset%lba != 0 || rq.Size%lba != 0 {
			d.bug("discard [%d, +%d) is misaligned to %d B blocks", rq.Offset, rq.Size, lba)
		}
		n := d.putRanges(rq, s.buf, lba)
		if n == 0 {
			d.bug("discard of 0 bytes")
		}
		e.SetOpcode(nvmectrl.OpDatasetManagement)
		e.SetCID(cid)
		e.SetNSID(nsid)
		e.SetPRP1(s.buf) // at most 256 × 16 B = one page
		e.SetDW(10, uint32(n-1))
		e.SetDW(11, dsmDeallocate)
	case blk.OpZoneReset:
		d.buildZoneReset(e, cid, nsid, rq, lba)
	case blk.OpZoneAppend:
		d.buildZoneAppend(e, cid, s, rq)
	default:
		d.bug("unsupported operation %v", rq.Op)
	}
}
