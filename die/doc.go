// Package die models one NAND flash die: its planes, blocks and pages, the page type of every
// page (SLC, MLC, 2D TLC shadow programming, 3D one-shot), the array latencies tR and tPROG
// per page type and tBERS, in-order programming within a block, multi-plane operations with
// the same-page-offset rule, erase counts, an out-of-band stamp per page, and optional
// program/erase suspend for reads.
//
// In the data flow it sits under package channel. The channel moves commands and data over
// the ONFI bus (package onfi) and, when a command has reached the die, calls Read, Program or
// Erase with the current simulated time; the die updates its state, records the busy interval
// on its array and plane Resources and returns when the array operation ends. The die never
// schedules events itself, so it keeps no engine and never ticks: a 5 ms program is one
// interval. Firmware never calls a die directly; it submits transactions to a channel.
//
// A firmware bug (programming out of order, a page of a full block, a bad multi-plane
// address, an operation on a busy die) panics with the die's name, the address and the
// simulated time. A bad configuration is reported by Spec.Validate.
//
// An optional fault model (Spec.Faults, off by default) makes programs and erases fail by
// rate or script and draws factory bad blocks (faults.go), and gives reads a raw bit error
// rate, an ECC verdict and read-retry steps (readerrors.go); the die reports the outcome in
// Failed and ReadRetries and the channel carries it in the transaction.
//
// Two more options, both off by default: a pseudo-SLC mode (Spec.SLC, slc.go), in which a
// block of a multi-level die is programmed with one bit a cell (ProgramSLC, ReadSLC: one
// page a word line, the SLC mode's tR and tPROG, its own wear), the medium of a drive's
// SLC cache; and independent plane reads (Spec.IndependentPlaneReads, planes.go), with
// which each plane senses its own page while the others read.
//
// Timing defaults are the 2D TLC numbers of docs/sources.md §3.4 (SimpleSSD LatencyTLC.cc).
package die
