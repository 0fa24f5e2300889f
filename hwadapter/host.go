package hwadapter

import (
	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/nvmectrl"
	"github.com/fastdrain-sim/fastdrain/sim"
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
	// Dwords 10–15 one by one: constant indices need no bounds checks (a loop here cost
	// some 50 instructions a command, about a quarter of the host port's share).
	d.CDW[0], d.CDW[1], d.CDW[2] = e.DW(10), e.DW(11), e.DW(12)
	d.CDW[3], d.CDW[4], d.CDW[5] = e.DW(13), e.DW(14), e.DW(15)
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

// HostSpec returns what the firmware knows of the host interface of controller spec cs
// (hal.HostSpec): its command slots, its namespaces with their defaults filled in
// (nvmectrl.Spec.NamespaceList) and its Flexible Data Placement configuration.
func HostSpec(cs nvmectrl.Spec) hal.HostSpec {
	return hal.HostSpec{Slots: cs.MaxCommands, Namespaces: cs.NamespaceList(), FDP: cs.FDP}
}

// Host is the firmware's host port (a firmware.HostPort) over an NVMe controller: it hands
// the controller's fetched commands to the firmware as hal.HostCmd (HostCmds, decoded in
// place in the command's slot) and turns the firmware's calls on them back into the
// controller's, and it forwards the controller's questions to its firmware
// (nvmectrl.FDPReporter, HealthReporter, CacheReporter, NamespaceSource and ZoneSource) to
// the firmware's hal.HostReports. Per command it allocates nothing.
type Host struct {
	ctrl  *nvmectrl.Controller
	spec  hal.HostSpec
	cmds  *HostCmds
	fw    hal.HostFirmware
	sinks []hal.DataSink // by slot: the sink of the command's pending FetchHostData
}

// NewHost returns the host port over ctrl; the firmware attaches with SetFirmware.
func NewHost(ctrl *nvmectrl.Controller) *Host {
	cs := ctrl.Spec()
	return &Host{ctrl: ctrl, spec: HostSpec(cs), cmds: NewHostCmds(cs.MaxCommands),
		sinks: make([]hal.DataSink, cs.MaxCommands)}
}

// Spec returns what the firmware knows of the host interface (HostSpec of the
// controller's spec).
func (h *Host) Spec() hal.HostSpec { return h.spec }

// SetFirmware attaches fw: the controller's fetched commands go to fw.Submit, and, if fw
// implements hal.HostReports, the controller's questions for the admin commands and
// set-up reads go to it too. A firmware that implements none of the reports attaches with
// none, as on the controller itself (a health log of 100 % spare, a volatile write cache,
// no FDP log pages, namespace sizes or zones).
func (h *Host) SetFirmware(fw hal.HostFirmware) {
	h.fw = fw
	if r, ok := fw.(hal.HostReports); ok {
		h.ctrl.SetFirmware(&reporting{h, r})
		return
	}
	h.ctrl.SetFirmware(h)
}

// Submit implements nvmectrl.Firmware: the command the controller hands over is decoded
// into its slot's hal.HostCmd and handed to the firmware.
func (h *Host) Submit(now sim.Time, c *nvmectrl.Command) {
	h.fw.Submit(now, h.cmds.Decode(c))
}

// FetchHostData moves bytes [off, off+n) of cmd's data from the host into the controller
// (nvmectrl.Controller.FetchHostData), handing each piece to sink.Land as it arrives; it
// returns when the last byte has landed and true, or false and later runs done's step.
func (h *Host) FetchHostData(now sim.Time, cmd *hal.HostCmd, off, n int, sink hal.DataSink, done sim.Handler) (sim.Time, bool) {
	h.sinks[cmd.Slot] = sink
	return h.ctrl.FetchHostData(now, h.cmds.Command(cmd), off, n, h, done, 0)
}

// Land implements nvmectrl.DataSink: it hands the landed piece to the sink the firmware
// gave FetchHostData for the command, as the firmware's command.
func (h *Host) Land(t sim.Time, c *nvmectrl.Command, off, n int) sim.Time {
	return h.sinks[c.Slot].Land(t, &h.cmds.cmds[c.Slot], off, n)
}

// ReadHostData moves bytes [off, off+n) of cmd's other host data in (a range list) and
// returns when they have arrived (nvmectrl.Controller.ReadHostData).
func (h *Host) ReadHostData(now sim.Time, cmd *hal.HostCmd, off, n int) sim.Time {
	return h.ctrl.ReadHostData(now, h.cmds.Command(cmd), off, n)
}

// WriteHostData moves bytes [off, off+n) of cmd's data to the host from now on and returns
// when they have arrived (nvmectrl.Controller.WriteHostData).
func (h *Host) WriteHostData(now sim.Time, cmd *hal.HostCmd, off, n int) sim.Time {
	return h.ctrl.WriteHostData(now, h.cmds.Command(cmd), off, n)
}

// CopyFromHost copies bytes [off, off+len(dst)) of cmd's data out of host memory, with no
// timing.
func (h *Host) CopyFromHost(cmd *hal.HostCmd, off int, dst []byte) {
	h.ctrl.CopyFromHost(h.cmds.Command(cmd), off, dst)
}

// CopyToHost copies src into cmd's data at off, in host memory, with no timing.
func (h *Host) CopyToHost(cmd *hal.HostCmd, off int, src []byte) {
	h.ctrl.CopyToHost(h.cmds.Command(cmd), off, src)
}

// Uint64FromHost returns the little-endian 8 bytes at off of cmd's data in host memory,
// with no timing.
func (h *Host) Uint64FromHost(cmd *hal.HostCmd, off int) uint64 {
	return h.ctrl.Uint64FromHost(h.cmds.Command(cmd), off)
}

// Complete posts cmd's completion at t with status st, dword 0 and the buffer level the
// completion carries (nvmectrl.Controller.Complete); the command's slot is the
// controller's again.
func (h *Host) Complete(t sim.Time, cmd *hal.HostCmd, st nvme.Status, dw0 uint32, level bufferlevel.Level) {
	h.ctrl.Complete(t, h.cmds.Command(cmd), st, dw0, level)
}

// reporting is the Host as the controller's firmware when the firmware keeps the reports
// (hal.HostReports): it implements the controller's optional firmware interfaces by
// forwarding each.
type reporting struct {
	*Host
	r hal.HostReports
}

// FDPInfo implements nvmectrl.FDPReporter.
func (f *reporting) FDPInfo() nvme.FDPInfo { return f.r.FDPInfo() }

// HealthInfo implements nvmectrl.HealthReporter.
func (f *reporting) HealthInfo() nvme.HealthInfo { return f.r.HealthInfo() }

// VolatileWriteCache implements nvmectrl.CacheReporter.
func (f *reporting) VolatileWriteCache() bool { return f.r.VolatileWriteCache() }

// NamespaceInfo implements nvmectrl.NamespaceSource.
func (f *reporting) NamespaceInfo(nsid uint32) (nvme.NamespaceInfo, bool) {
	return f.r.NamespaceInfo(nsid)
}

// ZoneInfo implements nvmectrl.ZoneSource.
func (f *reporting) ZoneInfo(nsid uint32) ([]nvme.ZoneDescriptor, bool) { return f.r.ZoneInfo(nsid) }
