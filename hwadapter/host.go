package hwadapter

import (
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
)

// HostCmds maps the controller's commands (nvmectrl.Command) to the firmware's
// (hal.HostCmd) and back by command slot: one HostCmd per slot of the controller, decoded
// in place when the controller hands a command over, so the host port allocates nothing
// per command.
type HostCmds struct {
	cmds []hal.HostCmd
	ctrl []*nvmectrl.Command
}

// NewHostCmds returns the table for a controller with slots command slots
// (nvmectrl.Spec.MaxCommands).
func NewHostCmds(slots int) *HostCmds {
	h := &HostCmds{cmds: make([]hal.HostCmd, slots), ctrl: make([]*nvmectrl.Command, slots)}
	for i := range h.cmds {
		h.cmds[i].Slot = i
	}
	return h
}

// Decode fills the firmware's command for c's slot from c's submission queue entry and
// returns it; the table remembers c until the slot is decoded again.
func (h *HostCmds) Decode(c *nvmectrl.Command) *hal.HostCmd {
	e := &c.SQE
	d := &h.cmds[c.Slot]
	d.Admin, d.Op, d.NSID = c.IsAdmin(), e.Opcode(), e.NSID()
	d.SLBA, d.Blocks, d.FUA = e.SLBA(), e.Blocks(), e.FUA()
	d.PID, d.HasPID = e.PlacementID()
	for i := range d.CDW {
		d.CDW[i] = e.DW(10 + i)
	}
	d.Hint, d.DataLen, d.Flow = c.Hint, c.DataLen, c.Flow
	h.ctrl[c.Slot] = c
	return d
}

// Command returns the controller's command behind the firmware's cmd, with the data
// length the firmware set (HostCmd.DataLen) carried over.
func (h *HostCmds) Command(cmd *hal.HostCmd) *nvmectrl.Command {
	c := h.ctrl[cmd.Slot]
	c.DataLen = cmd.DataLen
	return c
}
