package runner

import (
	"fmt"

	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/platforms"
	"github.com/fastdrain-sim/fastdrain/report"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// TraceFlows gives the timeline one span per NVMe command, on the track of the controller
// slot holding it ("ssd.nvme.slot[3]": a slot holds one command at a time, from the SQE's
// arrival to the completion; the controller reuses the slot freed last, so commands one at a
// time share one track and k held at once use k), named by opcode, submission queue and command id (the pair
// NVMe makes unique among outstanding commands), and flow arrows from it to what it
// caused (firmware.FlowTracer): a read's sense on the die (its tR) and data-out on the
// channel bus, a write's data written into DRAM, and the program of an eviction that
// carries a page version the write stored. Call it after Attach, before the run starts.
func TraceFlows(ssd *platforms.SSD, tl *report.Timeline) {
	ft := &flowTracer{tl: tl, ssd: ssd}
	ssd.Ctrl.SetCommandTracer(ft)
	ssd.FW.TraceFlows(ft)
}

// flowTracer connects the controller's and the firmware's tracer calls to the timeline.
type flowTracer struct {
	tl    *report.Timeline
	ssd   *platforms.SSD
	slots []string // track name per controller slot, made on first use
}

// CommandStart implements nvmectrl.CommandTracer.
func (ft *flowTracer) CommandStart(t sim.Time, cmd *nvmectrl.Command) uint64 {
	for len(ft.slots) <= cmd.Slot {
		ft.slots = append(ft.slots, fmt.Sprintf("ssd.nvme.slot[%d]", len(ft.slots)))
	}
	name := fmt.Sprintf("%v sq %d cid %d", cmd.SQE.Opcode(), cmd.SQID, cmd.SQE.CID())
	if cmd.IsAdmin() {
		name = fmt.Sprintf("admin %#02x sq 0 cid %d", uint8(cmd.SQE.Opcode()), cmd.SQE.CID())
	}
	return ft.tl.StartSpan(ft.slots[cmd.Slot], t, name)
}

// CommandEnd implements nvmectrl.CommandTracer.
func (ft *flowTracer) CommandEnd(t sim.Time, cmd *nvmectrl.Command) { ft.tl.EndSpan(cmd.Flow, t) }

// Flash implements firmware.FlowTracer: the arrow ends on the die's array interval that
// ends at ArrayEnd (a read's tR, the last part of a program's tPROG) and, for a read, on
// the channel bus's last data-out, which ends at Completed. Each point is 1 ps before the
// interval's end, so it lies inside it.
func (ft *flowTracer) Flash(id uint64, from sim.Time, g int, tx *hal.FlashCmd) {
	per := ft.ssd.Channels[0].NumDies()
	ch := ft.ssd.Channels[g/per]
	if tx.ArrayEnd > tx.ArrayStart {
		ft.tl.Flow(id, from, ch.Die(g%per).Array(), tx.ArrayEnd-1)
	}
	if tx.Op == hal.FlashRead {
		ft.tl.Flow(id, from, ch.Bus(), tx.Completed-1)
	}
}

// DRAMWrite implements firmware.FlowTracer: the arrow ends on the DRAM bus's write burst
// that ends at end (the transfer's last).
func (ft *flowTracer) DRAMWrite(id uint64, from, end sim.Time) {
	ft.tl.Flow(id, from, ft.ssd.DRAM.Bus(), end-1)
}
