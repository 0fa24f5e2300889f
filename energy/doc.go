// Package energy turns what an SSD's models already record into energy and power: the
// busy time per activity of every resource (die arrays, ONFI buses, DRAM bus, controller
// cores, PCIe directions) and the counters the models keep (DRAM activates, host
// commands). It adds nothing to the models' paths: a Meter reads the records at the start
// and end of a measurement and at the end of every bucket of a power trace
// (Spec.Resolution of simulated time), which the engine's boundary watch reports with no
// events of its own (sim.Engine.Observe).
//
// Each term is I × V × t from datasheet currents (NAND ICC1–ICC4, ISB; DRAM IDD0–IDD5B by
// the JEDEC/Micron method) or a power × time (controller cores, the PCIe link), so an
// account is exact for the intervals recorded. docs/energy.md lists the values, their
// sources and what is not modelled.
package energy
