// Package channel models one ONFI channel: a bus shared by the dies ("ways") on it, and the
// flash transactions that firmware (and the flashbench tool) submit to those dies.
//
// In the data flow it sits between the firmware's flash scheduler and the NAND dies. A die
// holds the bus only while commands, addresses and data move (package onfi gives the
// durations); during tR, tPROG and tBERS the bus is free for the other dies, so dies on one
// channel overlap their array time but serialize their bus time:
//
//	read:    cmd/addr on bus → tR on die (bus free) → [status] → data-out on bus
//	program: cmd/addr + data-in on bus → tPROG on die (bus free) → [status]
//	erase:   cmd/addr on bus → tBERS on die (bus free) → [status]
//
// The channel is event-driven: one event per phase end, none while idle, and no allocation
// per transaction once the caller's Transaction structs exist. Its bus is a sim.Resource
// with activities command, data-in and data-out; each die has its own Resources (package
// die), so utilization tables come from them.
//
// On dies with independent plane reads (die.Spec.IndependentPlaneReads) a read holds only
// its planes: reads of other planes of the die start beside it, a read of a free plane may
// overtake one waiting for its plane, and a read command to a free plane goes on the bus
// before waiting data-outs. A transaction with SLC set reads or programs in the die's
// pSLC mode (die.Die.ReadSLC, ProgramSLC).
package channel
