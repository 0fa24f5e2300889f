package hal

import (
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// HostCmd is one host command as the firmware sees it at its host port: the submission
// queue entry decoded once, when the command is handed to the firmware, into the fields
// the firmware's command handling reads (NVMe Base Specification 2.1 §4.1 "Submission
// Queue Entry"; NVM Command Set Specification 1.0 §3.2.4 and §3.2.6 for the Read and Write
// dwords 10–13). The port keeps one HostCmd per command slot of the controller and reuses
// it; the firmware must not hold it after completing the command.
type HostCmd struct {
	Slot  int         // the controller's command slot, stable while the command is held
	Admin bool        // the command came from the admin submission queue
	Op    nvme.Opcode // CDW0 bits 7:0: an admin opcode if Admin, else an I/O one
	NSID  uint32      // namespace identifier (DW1)
	// SLBA is the starting LBA (CDW11:CDW10) of a command that addresses blocks; the
	// firmware may set it (a Zone Append's assigned LBA) before it serves the command.
	SLBA   uint64
	Blocks int  // number of logical blocks, NLB + 1 (CDW12 bits 15:0, 0's based)
	FUA    bool // Force Unit Access (CDW12 bit 30)
	// PID is the placement identifier of a write whose directive type is Data Placement
	// (CDW12 bits 23:20 = 2h, DSPEC in CDW13 bits 31:16); HasPID is false without one.
	PID    uint16
	HasPID bool
	// CDW holds command dwords 10–15 as fetched (CDW[0] is CDW10), for the command-specific
	// fields the firmware decodes itself (Dataset Management, Zone Management, I/O
	// Management).
	CDW  [6]uint32
	Hint nvme.Hint // FastDrain's hint of a write, decoded with the configured carrier
	// DataLen is the command's data transfer length in bytes (blocks × LBA size for a read
	// or write, the range list for Dataset Management, otherwise 0); firmware serving a
	// command with other data sets it before moving the data.
	DataLen int
	Flow    uint64 // the command's id in a timeline's flow arrows, 0 without a tracer
}

// DW returns command dword i, for i in 10..15.
func (c *HostCmd) DW(i int) uint32 { return c.CDW[i-10] }

// HostSpec is what the firmware knows of the host interface it serves: the controller's
// command slots (how many commands the port may hand over before one completes), its
// namespaces in NSID order with their defaults filled in (each one's LBA size set; one
// namespace of the whole capacity when none is configured), and the Flexible Data
// Placement configuration.
type HostSpec struct {
	Slots      int
	Namespaces []nvme.Namespace
	FDP        nvme.FDP
}

// HostFirmware is the firmware as its host port sees it: the port hands each fetched
// command to Submit, at the time the command's submission queue entry arrived; Submit
// must not block, and the command is the firmware's until it completes it.
type HostFirmware interface {
	Submit(now sim.Time, cmd *HostCmd)
}

// DataSink takes a write's data as it arrives from the host: Land is handed bytes
// [off, off+n) of cmd's data that arrived in the controller at t, and returns when they
// are stored in device memory.
type DataSink interface {
	Land(t sim.Time, cmd *HostCmd, off, n int) sim.Time
}

// HostReports are what the firmware reports to the host port for the controller's admin
// commands and set-up reads, none of them timed: FDPInfo the Flexible Data Placement log
// pages (nvme.FDPInfo; asked only with FDP enabled), HealthInfo the SMART / Health log,
// VolatileWriteCache the Identify Controller VWC bit (whether the write cache loses its
// contents on power loss), NamespaceInfo a namespace's Identify Namespace sizes and
// ZoneInfo a zoned namespace's zones as Report Zones returns them (false for an NSID that
// is not one). A port forwards them when its firmware implements them.
type HostReports interface {
	FDPInfo() nvme.FDPInfo
	HealthInfo() nvme.HealthInfo
	VolatileWriteCache() bool
	NamespaceInfo(nsid uint32) (nvme.NamespaceInfo, bool)
	ZoneInfo(nsid uint32) ([]nvme.ZoneDescriptor, bool)
}
