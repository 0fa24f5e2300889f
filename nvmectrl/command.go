package nvmectrl

import (
	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Command is one fetched submission queue entry while the controller holds it, in one of
// the controller's MaxCommands slots. The firmware receives it from Firmware.Submit, may
// read every exported field, and hands it back with Controller.Complete; after that the slot
// is reused and the firmware must not touch it.
type Command struct {
	SQE      SQE      // the entry as fetched
	SQID     uint16   // submission queue it came from (0 = admin)
	Slot     int      // slot index, 0..MaxCommands-1, stable while the command is held
	Doorbell sim.Time // when the doorbell that published the entry arrived
	Fetched  sim.Time // when the entry arrived in the controller
	Hint     Hint     // FastDrain hint of a Write, decoded with Spec.HintCarrier
	// DataLen is the command's data transfer length in bytes: blocks × LBA size for Read,
	// Write and Compare, the range list for Dataset Management, otherwise 0. Firmware
	// serving another command with data (Identify, say) sets it before moving data.
	DataLen int
	// Flow is the command's id in a timeline's flow arrows (CommandTracer), 0 when no
	// tracer is attached: firmware copies it to the work the command causes.
	Flow uint64

	prp        PRPs
	prpReady   bool     // prp walked for DataLen
	listRead   int      // PRP list pieces fetched so far
	dataIssued sim.Time // latest time a data write to the host was booked at
	dataDone   sim.Time // latest arrival of this command's data written to the host
	cqe        CQE
	cqAddr     uint64
	level      bufferlevel.Level
	held       bool    // between fetch and slot release
	completed  bool    // Complete has been called
	dma        dmaWait // FetchHostData's range while it waits for read tags
	next       *Command
}

// IsAdmin reports whether the command came from the admin submission queue.
func (cmd *Command) IsAdmin() bool { return cmd.SQID == 0 }

// fetch is one outstanding SQE fetch DMA: n contiguous entries of q from index first.
type fetch struct {
	q     *subQueue
	first uint32
	n     int
}

// issueFetch books a DMA read of n SQEs of q on the link and schedules their arrival.
func (c *Controller) issueFetch(now sim.Time, q *subQueue, n int) {
	f := c.freeFetch[len(c.freeFetch)-1]
	c.freeFetch = c.freeFetch[:len(c.freeFetch)-1]
	*f = fetch{q: q, first: q.next, n: n}
	q.next = (q.next + uint32(n)) % q.size
	q.busy += n
	c.slotFree -= n
	c.Stats.Fetches++
	c.schedule(c.link.DMARead(now, n*SQESize), evFetchDone, 0, f)
}

// fetchDone decodes the fetched entries, advances the SQ head and delivers the commands.
func (c *Controller) fetchDone(now sim.Time, f *fetch) {
	q := f.q
	first, n := f.first, f.n
	c.freeFetch = append(c.freeFetch, f)
	q.head = (first + uint32(n)) % q.size
	for i := range uint32(n) {
		idx := (first + i) % q.size
		cmd := c.takeSlot()
		c.mem.ReadSQE(q.base+uint64(idx)*SQESize, &cmd.SQE)
		cmd.SQID = q.id
		cmd.Doorbell = q.dbTime[idx]
		cmd.Fetched = now
		c.Stats.Commands++
		if c.tracer != nil {
			cmd.Flow = c.tracer.CommandStart(now, cmd)
		}
		c.deliver(now, cmd)
	}
	if c.arb.waiting() {
		c.kick(now)
	}
}

func (c *Controller) takeSlot() *Command {
	cmd := c.freeCmd
	if cmd == nil {
		c.panicf("no free command slot for a fetched SQE")
	}
	c.freeCmd = cmd.next
	// Cleared in place, then the kept fields put back: a composite literal naming them
	// would be built on the stack and copied over (344 bytes, twice).
	slot, prp := cmd.Slot, cmd.prp
	*cmd = Command{}
	cmd.Slot, cmd.prp, cmd.held = slot, prp, true
	return cmd
}

// releaseSlot returns a command's slot once its CQE has landed.
func (c *Controller) releaseSlot(now sim.Time, cmd *Command) {
	c.freeSlot(cmd)
	if c.arb.waiting() {
		c.kick(now)
	}
}

// freeSlot returns a command's slot to the free list.
func (c *Controller) freeSlot(cmd *Command) {
	cmd.held = false
	cmd.next = c.freeCmd
	c.freeCmd = cmd
	c.slotFree++
	if q := c.sq(cmd.SQID); q != nil {
		q.busy--
	}
}

// deliver routes a fetched command: admin commands the controller implements are executed
// here, malformed I/O commands are failed at once, and the rest go to the firmware.
func (c *Controller) deliver(now sim.Time, cmd *Command) {
	e := &cmd.SQE
	if cmd.SQID == 0 && c.ownsAdmin(e.Opcode()) {
		c.schedule(c.clk.After(now, c.spec.AdminCycles), evAdmin, 0, cmd)
		return
	}
	if e.Fuse() != 0 || e.PSDT() != 0 { // fused operations and SGLs are not supported
		c.fail(now, cmd, StatusInvalidField)
		return
	}
	if cmd.SQID != 0 {
		nsid := e.NSID()
		if nsid-1 >= uint32(len(c.ns)) && !(nsid == BroadcastNSID && e.Opcode() == OpFlush) {
			c.fail(now, cmd, StatusInvalidNamespace.WithDNR()) // NSID 0 wraps past the list
			return
		}
		switch op := e.Opcode(); op {
		case OpRead, OpWrite, OpCompare:
			cmd.DataLen = e.Blocks() * c.ns[nsid-1].LBASize
			if op == OpWrite {
				cmd.Hint = c.spec.HintCarrier.Decode(e)
			}
		case OpDatasetManagement:
			cmd.DataLen = (int(e.DW(10)&0xFF) + 1) * 16 // NR is 0's based; 16 B per range
		case OpZoneAppend:
			cmd.DataLen = e.Blocks() * c.ns[nsid-1].LBASize
		case OpIOMgmtReceive:
			cmd.DataLen = (int(e.DW(11)) + 1) * 4 // NUMD, 0's based dwords
		case OpIOMgmtSend:
			cmd.DataLen = (int(e.DW(10)>>16) + 1) * 2 // MOS: placement identifiers, 0's based
		case OpZoneMgmtReceive:
			cmd.DataLen = (int(e.DW(12)) + 1) * 4 // NUMD, 0's based dwords
		}
		if cmd.DataLen > c.spec.MaxTransfer {
			c.fail(now, cmd, StatusInvalidField)
			return
		}
		if cmd.DataLen > 0 && c.preparePRP(cmd) != nil {
			c.fail(now, cmd, StatusInvalidField.WithDNR())
			return
		}
	}
	if c.fw == nil {
		c.panicf("command fetched with no firmware attached")
	}
	c.fw.Submit(now, cmd)
}

// fail completes a command the controller rejects itself.
func (c *Controller) fail(now sim.Time, cmd *Command, st Status) {
	c.Complete(now, cmd, st, 0, bufferlevel.None)
}

// preparePRP walks the command's PRP entries for DataLen bytes.
func (c *Controller) preparePRP(cmd *Command) error {
	e := &cmd.SQE
	if err := cmd.prp.Walk(c.mem, e.PRP1(), e.PRP2(), cmd.DataLen); err != nil {
		return err
	}
	cmd.prpReady = true
	return nil
}
