package nvmedrv

import (
	"github.com/fastdrain-sim/fastdrain/hostos/blk"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// What the driver has outstanding, for a watchdog (platforms' stall detector) and for
// diagnosis: read when asked, never on the I/O path, except the one time stored at each
// completion.

// InFlight is one command the driver submitted and has not completed.
type InFlight struct {
	Queue  uint16 // its submission queue (SQID)
	CID    uint16 // its command identifier
	NSID   uint32
	Op     blk.Op      // the block request it carries
	Opcode nvme.Opcode // the NVMe command built for it
	// LBA and Blocks are its range in logical blocks (a Zone Append's LBA is its zone's
	// start; 0 and 0 for a Flush; a Dataset Management's range is the request's).
	LBA, Blocks int64
	// Submitted is when the block layer handed it to the driver (blk.Request.Dispatch).
	Submitted sim.Time
}

// QueueLoad is one queue pair's commands in flight.
type QueueLoad struct {
	SQID     uint16
	Commands int
}

// Oldest returns the command in flight the longest (the earliest Submitted; on a tie, the
// lowest queue, then command identifier); ok is false if none is.
func (d *Driver) Oldest() (c InFlight, ok bool) {
	for _, q := range d.queues {
		for cid := range q.slots {
			s := &q.slots[cid]
			if s.rq == nil || ok && s.rq.Dispatch >= c.Submitted {
				continue
			}
			ok = true
			c = InFlight{Queue: q.id, CID: uint16(cid), NSID: s.ns.nsid, Op: s.rq.Op, Opcode: opcodeOf(s.rq.Op),
				LBA: s.rq.Offset / s.ns.lba, Blocks: s.rq.Size / s.ns.lba, Submitted: s.rq.Dispatch}
		}
	}
	return c, ok
}

// Loads returns the queue pairs with commands in flight, by SQID.
func (d *Driver) Loads() []QueueLoad {
	var out []QueueLoad
	for _, q := range d.queues {
		if n := q.inflight(); n > 0 {
			out = append(out, QueueLoad{SQID: q.id, Commands: n})
		}
	}
	return out
}

// LastCompletion returns when the driver last handled a completion entry (0 if never).
func (d *Driver) LastCompletion() sim.Time { return d.lastDone }

// opcodeOf is the NVMe opcode build gives a request of op.
func opcodeOf(op blk.Op) nvme.Opcode {
	switch op {
	case blk.OpRead:
		return nvme.OpRead
	case blk.OpWrite:
		return nvme.OpWrite
	case blk.OpDiscard:
		return nvme.OpDatasetManagement
	case blk.OpZoneReset:
		return nvme.OpZoneMgmtSend
	case blk.OpZoneAppend:
		return nvme.OpZoneAppend
	}
	return nvme.OpFlush
}
