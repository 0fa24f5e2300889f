// Package onfi holds the ONFI NAND interface: its timing modes (SDR, NV-DDR, NV-DDR2,
// NV-DDR3), the command/address timing parameters, the command sequences an SSD controller
// drives on a channel bus (read 00h-30h, multi-plane read, program 80h-10h, multi-plane
// program 80h-11h … 81h-10h, cache program 80h-15h, erase 60h-D0h, multi-plane erase
// 60h-D1h … 60h-D0h, read status 70h/78h), and pure functions from a timing Spec to the bus
// time of each phase.
//
// In the data flow it sits below package channel, which holds the bus for exactly the
// durations computed here (command/address, data-in, data-out, status) and releases it while
// the die is busy with tR, tPROG or tBERS (package die). Nothing here keeps state or schedules
// events: every function is a function of the Spec alone, so the channel can precompute the
// phase durations once.
//
// Numbers come from docs/sources.md §3.1 (data rates per mode) and §3.2 (command/address timing).
package onfi
