package firmware

import (
	"github.com/fastdrain-sim/fastdrain/bufferlevel"
	"github.com/fastdrain-sim/fastdrain/firmware/ftl"
	"github.com/fastdrain-sim/fastdrain/firmware/hal"
	"github.com/fastdrain-sim/fastdrain/nand"
	"github.com/fastdrain-sim/fastdrain/nvme"
	"github.com/fastdrain-sim/fastdrain/sim"
)

// Ports are everything the firmware uses of the hardware: each is a small interface of its
// own, the contract a real controller's hardware abstraction layer (HAL) would implement.
// Package hwadapter implements them over the simulated hardware; tests also use fakes.
type Ports struct {
	Flash  FlashPort
	Memory BufferMemory
	Host   HostPort
	// Timers arms the firmware's steps; nil means the engine the firmware is built on.
	Timers Timers
	// CPU is charged the firmware's work; nil means the firmware's own cores
	// (firmware.cores of firmware.core_freq, Firmware.Cores).
	CPU CPU
}

// CPU is the controller's processors as the firmware's steps charge their work (the
// CPU-cost port): a step's cost in cycles is booked on its task's core, and its next step
// runs when that work ends. Contract: Charge books cycles of work w on core (in
// [0, Cores())) arriving at now, after the work booked on that core before it, and returns
// when it ends (now if cycles ≤ 0). On a real controller the cost is the code's own
// running time; here it is the modelled cycle count (firmware.cycles).
type CPU interface {
	Charge(now sim.Time, core int, w Work, cycles int64) sim.Time
	Cores() int
}

// FlashPort is the flash interface: the controller's channel engines (on a real controller
// the flash controller's command queues, one per channel or way).
//
// Contract: Submit takes one of the firmware's flash commands (hal.FlashCmd) for die g (a
// global index, channel-major: die g is die g mod DiesPerChannel of channel g /
// DiesPerChannel) and returns at once; the port owns cmd until it completes, fills its
// results and then calls cmd.Done.HandleEvent with an event whose Data is cmd, at the
// simulated time the command completed (for a read, when its data is off the bus;
// cmd.Stamps then holds each page's out-of-band stamp). The port may run the commands
// queued for a die in any order the flash allows; the firmware bounds how many it has
// queued on a die (scheduler.die_depth). Prefetch is a wall-clock hint that a read of a is
// coming (it may do nothing). Geometry is the array's shape, the one geometry type the
// firmware and its FTL share (ftl.GeometryOf the channels, the dies per channel and the
// die: all channels are alike); Die is what the firmware knows of every die's datasheet
// (hal.DieSpec: shape, page-type map, timings, faults, multi-plane rule).
type FlashPort interface {
	Geometry() ftl.Geometry
	Die() hal.DieSpec
	Submit(g int, cmd *hal.FlashCmd)
	Prefetch(g int, a nand.Addr)
}

// FlashImage is an optional capability of a FlashPort: writing a precondition image into
// the dies without simulating the programs (Firmware.Precondition needs it). It stands for
// a factory image, not for anything the firmware does at run time. Fill programs pages
// [0, n) of a block with the stamps stamp returns; FillFrom does so lazily, asking src for
// a page's stamp when it is read.
type FlashImage interface {
	Fill(g, plane, block, n int, stamp func(page int) uint64)
	FillFrom(g, plane, block, n int, src nand.StampSource)
}

// FlashScan is an optional capability of a FlashPort: the write pointer of a block as a
// power-on scan reading its pages finds it (Mount): one past its last programmed page, the
// pages above reading erased. A program the firmware allocated but never issued, or one a
// cut dropped from its queue, leaves its page erased: the FTL's own next page (the
// recovery scan's bound, Recover) may be past the flash's. Without it Mount takes the
// FTL's.
type FlashScan interface {
	WritePointer(g, plane, block int) int
}

// BufferMemory is the controller DRAM that holds the write buffer and staging space for
// reads. Contract: Access moves n bytes at addr (a write if write) starting no earlier
// than t and returns when the move ends; Capacity is its size in bytes (the firmware
// addresses [0, Capacity)).
type BufferMemory interface {
	Access(t sim.Time, addr uint64, n int, write bool) sim.Time
	Capacity() uint64
}

// HostPort is the NVMe front end: the controller's command fetch, data DMA engines and
// completion posting (on a real controller, the NVMe IP block and its DMA descriptors).
// The firmware speaks its own command type at it (hal.HostCmd: the submission queue entry
// decoded once); package hwadapter's Host implements it over the NVMe controller model.
//
// Contract: the port hands each fetched command to the firmware's Submit
// (hal.HostFirmware), which SetFirmware registers, and asks the firmware for its reports
// (hal.HostReports) if it keeps them. A command is the firmware's from Submit to
// Complete; the port may reuse its hal.HostCmd after that. FetchHostData moves bytes
// [off, off+n) of a write's data from the host into device memory, handing each piece to
// sink.Land as it arrives; it returns when the last byte has landed and true, or false and
// later runs done's step when it has. ReadHostData moves a command's other host data (a
// Dataset Management range list) in and returns when it has arrived; WriteHostData moves a
// read's data to the host starting at t. The Copy and Uint64 methods read and write the
// host's bytes without timing (the data the timed moves carry). Complete posts the
// command's completion at t, with status st, dword 0 and the buffer level the completion
// carries (FastDrain's upcall). Spec gives the command slots, the namespaces and the
// Flexible Data Placement configuration (hal.HostSpec).
type HostPort interface {
	Spec() hal.HostSpec
	SetFirmware(fw hal.HostFirmware)
	FetchHostData(now sim.Time, cmd *hal.HostCmd, off, n int, sink hal.DataSink, done sim.Handler) (sim.Time, bool)
	ReadHostData(now sim.Time, cmd *hal.HostCmd, off, n int) sim.Time
	WriteHostData(now sim.Time, cmd *hal.HostCmd, off, n int) sim.Time
	CopyFromHost(cmd *hal.HostCmd, off int, dst []byte)
	CopyToHost(cmd *hal.HostCmd, off int, src []byte)
	Uint64FromHost(cmd *hal.HostCmd, off int) uint64
	Complete(t sim.Time, cmd *hal.HostCmd, st nvme.Status, dw0 uint32, level bufferlevel.Level)
}

// Timers are the firmware's clock and timer: a controller's main loop runs each armed step
// when it is due. Contract: Now is the current time; SchedulePhase arms step code of h at t
// (not before Now), run after the steps already due at t in the same phase (the firmware
// uses sim.PhaseProcess for its steps); Requeue, called between two of a batch of steps
// run in one event, reports whether a step armed since must run first, and if so re-arms
// the current one in its place (the caller returns and goes on when it runs). *sim.Engine
// implements it.
type Timers interface {
	Now() sim.Time
	SchedulePhase(t sim.Time, ph sim.Phase, h sim.Handler, data any, code int64)
	Requeue() bool
}
