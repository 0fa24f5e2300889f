package nvmectrl

import (
	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Complete finishes cmd at time now with status st, command-specific dword 0 dw0 and
// FastDrain buffer level level (bufferlevel.None for none). After CompletionCycles the controller
// builds the CQE: SQHD is the SQ's head at that moment unless Spec.StatusCarrier puts the
// level there, the phase tag is the CQ's current pass (docs/sources.md §1.3). If the CQ is full
// the CQE waits until a CQ head doorbell makes room; otherwise it is written to the CQ ring
// by a 16-byte DMA write, and an interrupt follows subject to coalescing. The command's slot
// is freed when the CQE has landed in host memory. Completing a command twice panics.
func (c *Controller) Complete(now sim.Time, cmd *Command, st Status, dw0 uint32, level bufferlevel.Level) {
	if !cmd.held || cmd.completed {
		c.panicf("Complete of slot %d (SQ %d CID %d): not held or already completed",
			cmd.Slot, cmd.SQID, cmd.SQE.CID())
	}
	cmd.completed = true
	cmd.level = level
	if c.tracer != nil {
		c.tracer.CommandEnd(now, cmd)
	}
	if cmd.SQID != 0 && cmd.SQE.Opcode() == OpRead {
		c.Reads.FetchWait.Record(int64(cmd.Fetched - cmd.Doorbell))
		c.Reads.Service.Record(int64(now - cmd.Fetched))
	}
	cmd.cqe = CQE{}
	cmd.cqe.SetDW0(dw0)
	cmd.cqe.SetSQID(cmd.SQID)
	cmd.cqe.SetCID(cmd.SQE.CID())
	cmd.cqe.SetStatus(st)
	c.schedule(c.clk.After(now, c.spec.CompletionCycles), evPost, 0, cmd)
}

// post writes cmd's CQE now, or queues it behind others if its CQ is full.
func (c *Controller) post(now sim.Time, cmd *Command) {
	q := c.cqs[c.sqs[cmd.SQID].cqid]
	c.cqArrived(now, q)
	if q.waitHead != nil || q.full() {
		c.Stats.CQFullWaits++
		if q.waitTail == nil {
			// The first to wait: the doorbells on their way must drain it on arrival.
			c.scheduleInFlight(q)
			q.waitHead = cmd
		} else {
			q.waitTail.next = cmd
		}
		q.waitTail = cmd
		return
	}
	c.write(now, q, cmd)
}

// write fills in the CQE's SQHD and phase, takes the next CQ slot and books the DMA write.
func (c *Controller) write(now sim.Time, q *complQueue, cmd *Command) {
	e := &cmd.cqe
	e.SetSQHD(uint16(c.sqs[cmd.SQID].head))
	c.spec.StatusCarrier.Encode(e, cmd.level)
	e.SetPhase(q.phase)
	cmd.cqAddr = q.base + uint64(q.tail)*CQESize
	if q.tail++; q.tail == q.size {
		q.tail, q.phase = 0, q.phase^1 // a new pass inverts the phase tag
	}
	// Posted writes stay in order: the CQE is issued no earlier than the command's data
	// writes (which may be booked for later, behind a PRP list read) and lands after them.
	issue := max(now, cmd.dataIssued)
	t := max(c.link.DMAWrite(issue, CQESize), cmd.dataDone)
	// The landing writes the CQE into the host's ring and frees the command's slot. Both
	// matter only when looked at: the host reads the ring after an interrupt that comes
	// after the landing (HostMemory.ReadCQE applies it), and the slot counts when the
	// arbiter next fetches (arbitrate, landed). So a CQE is kept with its landing time
	// and applied then, saving one engine event per command with the same result. It
	// needs an event of its own only where the landing would start something: while the
	// arbiter waits with no arbitration due (the landing kicks it), or on a CQ without
	// interrupts (nothing else follows it). One difference: a CQE landing at the very
	// picosecond of a look counts as landed, where two events at one time would go in the
	// order they were scheduled; it can matter only to a look that finds every command
	// slot taken, or to a host reading the CQ slot at that picosecond.
	if !q.ien || c.arb.waiting() && !c.arbQueued {
		c.schedule(t, evCQEArrive, 0, cmd)
	} else {
		c.keepLanding(t, cmd)
	}
	c.Stats.Completions++
	if q.ien {
		c.signal(now, q, issue, t)
	}
}

// cqeArrive puts the CQE's bytes into the host's CQ ring and frees the command's slot.
func (c *Controller) cqeArrive(now sim.Time, cmd *Command) {
	c.mem.WriteCQE(cmd.cqAddr, &cmd.cqe)
	if c.qstats {
		c.countQueue(now, cmd)
	}
	c.releaseSlot(now, cmd)
}

// landing is a CQE on its way to host memory (write): it lands at at.
type landing struct {
	at  sim.Time
	cmd *Command
}

// keepLanding keeps cmd's CQE, landing at t, until it is looked at; landings stay in
// order of time, and of posting at equal times (the order their events would fire in).
func (c *Controller) keepLanding(t sim.Time, cmd *Command) {
	c.landings = append(c.landings, landing{t, cmd})
	for i := len(c.landings) - 1; i > 0 && c.landings[i-1].at > t; i-- {
		c.landings[i], c.landings[i-1] = c.landings[i-1], c.landings[i]
	}
}

// landed applies the kept CQEs that have landed by now: their bytes go into the host's
// ring and their slots are freed. It kicks no arbitration: the caller is looking.
func (c *Controller) landed(now sim.Time) {
	n := 0
	for ; n < len(c.landings) && c.landings[n].at <= now; n++ {
		cmd := c.landings[n].cmd
		c.landings[n].cmd = nil
		c.mem.WriteCQE(cmd.cqAddr, &cmd.cqe)
		if c.qstats {
			c.countQueue(c.landings[n].at, cmd)
		}
		c.freeSlot(cmd)
	}
	if n > 0 {
		c.landings = append(c.landings[:0], c.landings[n:]...)
	}
}

// scheduleLandings gives each kept CQE still on its way its landing event, once the
// arbiter waits with no arbitration due: a landing then starts one.
func (c *Controller) scheduleLandings() {
	for i, l := range c.landings {
		c.schedule(l.at, evCQEArrive, 0, l.cmd)
		c.landings[i].cmd = nil
	}
	c.landings = c.landings[:0]
}
