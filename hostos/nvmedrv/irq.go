package nvmedrv

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// vector is one MSI-X vector and its interrupt handler: a process on a host core that runs
// nvme_irq for the completion queues bound to the vector.
type vector struct {
	d       *Driver
	num     int
	core    *sim.Core
	qs      []*queue
	pending bool // an interrupt arrived that the handler has not started on
	sig     sim.Signal
	actIRQ  sim.Activity
	actCQE  sim.Activity
}

func newVector(d *Driver, num int, core *sim.Core) *vector {
	v := &vector{d: d, num: num, core: core, actIRQ: core.Res.Activity("nvme-irq"),
		actCQE: core.Res.Activity("nvme-cqe")}
	d.eng.Spawn(fmt.Sprintf("%s.irq%d", d.name, num), v.run)
	return v
}

// Interrupt implements nvmectrl.Host: the MSI-X message of vector arrived. It wakes the
// vector's handler; an interrupt that arrives while the handler runs makes it run again.
func (d *Driver) Interrupt(now sim.Time, vector int) {
	if vector <= 0 || vector >= len(d.vectors) || d.vectors[vector] == nil {
		return // the admin vector: the driver issues no admin commands after set-up
	}
	v := d.vectors[vector]
	v.pending = true
	v.sig.Notify()
}

// run is the handler process: wait for an interrupt, pay its cost, process the CQs.
func (v *vector) run(p *sim.Proc) {
	d := v.d
	for {
		for !v.pending {
			p.Wait(&v.sig)
		}
		v.pending = false
		d.Stats.Interrupts++
		p.Compute(v.core, v.actIRQ, d.spec.IRQCycles)
		found := 0
		for _, q := range v.qs {
			found += d.processCQ(p, v, q)
		}
		if found == 0 {
			d.Stats.Spurious++
		}
		if d.refused && d.upper != nil {
			d.refused = false
			d.Stats.Restarts++
			d.upper.Restart(p.Now())
		}
	}
}

// processCQ is nvme_process_cq: consume entries while their phase tag matches, completing
// each request, then ring the CQ head doorbell once for the batch (FACTS.md §1.8). It
// returns the number of entries consumed.
func (d *Driver) processCQ(p *sim.Proc, v *vector, q *queue) int {
	found := 0
	for {
		d.mem.ReadCQE(q.cqBase+uint64(q.cqHead)*nvmectrl.CQESize, &q.cqe)
		if q.cqe.Phase() != q.phase {
			break
		}
		found++
		if q.cqHead++; q.cqHead == q.depth {
			q.cqHead, q.phase = 0, q.phase^1 // a wrap flips the expected phase
		}
		p.Compute(v.core, v.actCQE, d.spec.CQECycles)
		d.handleCQE(p.Now(), q, &q.cqe)
	}
	if found > 0 {
		d.ctrl.RingCQ(p.Now(), q.id, q.cqHead)
		d.Stats.CQDoorbells++
	}
	return found
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
	rq := s.rq
	s.rq = nil
	q.free = append(q.free, cid)
	d.Stats.Completions++
	var err error
	if st := e.Status(); !st.OK() {
		d.Stats.Errors++
		err = &StatusError{Status: st}
	} else if rq.Op == blk.OpRead {
		d.getStamps(rq, s.buf)
	}
	if l, ok := d.cspec.StatusCarrier.Decode(e); ok {
		d.Stats.Levels[l]++
		if d.OnLevel != nil {
			d.OnLevel(now, l)
		}
	}
	if d.upper != nil {
		d.upper.Complete(now, rq, err)
	}
}

// StatusError is the error a request completes with when the device reports a status
// other than success.
type StatusError struct {
	Status nvmectrl.Status
}

// Error returns the status in words.
func (e *StatusError) Error() string { return "nvme: " + e.Status.String() }
