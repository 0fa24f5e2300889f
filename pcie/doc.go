// Package pcie models the PCIe link between the host and the SSD controller: generation
// (Gen1–Gen5), width (x1–x16), line encoding (8b/10b or 128b/130b), TLP header and framing
// overhead, the ACK/flow-control DLLP and SKP share of the wire, MPS/MRRS/RCB splitting and a
// fixed one-way latency.
//
// # Place in the data flow
//
// The host (hostos/nvmedrv) rings doorbells with MMIO writes that travel down the link; the
// controller (nvmectrl) fetches commands and write data by DMA read (read requests up,
// completions down), returns read data and completion queue entries by DMA write (posted,
// up) and raises MSI-X interrupts (a posted 4 B write, up). Every one of these is a burst of
// TLPs on one or both directions of a Link.
//
// # Model
//
// Each direction is a sim.Resource (Link.Down is host→device, Link.Up is device→host) with
// FIFO serialization: a transfer starts at the later of the caller's time and the moment
// its direction is free, and occupies it for the wire time of its TLPs. The operations
// (MMIOWrite, DMAWrite, DMARead, HostDMARead, MSIX) never schedule events: they book wire
// time and return the time the last byte arrives at the far end (end of wire time plus
// Spec.Latency); the caller schedules what happens then.
//
// Busy intervals are named by TLP kind: "mwr" (memory write: MMIO, DMA write), "mrd" (memory
// read request), "cpld" (completion with data), "msix" (MSI-X message) and "dllp" (the
// link-layer share of a transfer: ACK and UpdateFC DLLPs and SKP ordered sets, charged right
// after the TLPs that caused it when Spec.DLLPOverhead is set).
//
// # Power states
//
// With Spec.ASPM on, a direction idle for ASPM.L0sEntry is in L0s and the whole link, idle
// in both directions for ASPM.L1Entry, in L1; the next transfer starts the state's exit
// latency later, and so does any other transfer asked for during the exit (in both
// directions for L1, in the exiting one for L0s): the exit is a window no TLP uses, so none
// passes the one that woke the link. This is computed from the end of the last booking when
// an operation is called, without events; Link.Residency gives the time spent in each state for the energy
// meter (docs/energy.md, "PCIe link power states").
//
// # Time arithmetic
//
// A byte on the wire takes an exact rational number of picoseconds (253.90625 ps on Gen3
// x4). Each direction keeps its free time as an exact fraction (whole ps plus a remainder),
// so back-to-back transfers never gain or lose time however many there are. Only the times
// handed to sim.Resource and returned to callers are rounded, always up to the next whole
// picosecond; an isolated transfer therefore takes exactly Spec.TLPTime of its TLP bytes.
//
// Numbers and their sources are in docs/sources.md §2.
package pcie
