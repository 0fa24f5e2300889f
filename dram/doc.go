// Package dram models the SSD controller's DRAM: the buffer that every host write lands in
// before it goes to flash, and that read hits are served from.
//
// In the data flow (docs/design.md "Hardware models: dram") the firmware's write buffer charges
// each data move through a DRAM — PCIe → DRAM when a host write arrives, DRAM → channel when
// a page is evicted to flash, DRAM → PCIe on a read hit — by calling Access. Access books
// the bank timing (activate, column command, precharge; open-row hits skip the first and
// last) and the data-bus time on the DRAM's bus resource, and returns when the last byte
// has moved. It never schedules events and never allocates: the caller sleeps until the
// returned time or schedules its own completion there.
//
// The model is a single-rank DDR3/DDR4 device behind an in-order (first-come first-served)
// controller with an open-page policy. Concurrent movers share the one data bus: a mover
// that calls Access while the bus is booked is served after the bookings already made. Long
// moves should be charged in pieces as their data arrives (for example one call per 4 KiB
// page), so that movers interleave at that granularity.
//
// Timing numbers and their sources are in docs/sources.md §4.1 (DDR3-1600 11-11-11).
package dram
