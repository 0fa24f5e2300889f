// Package hal holds the firmware's vocabulary at its flash and host ports: the flash
// command it submits (FlashCmd: operation, addresses, out-of-band stamps, completion and
// results), the host command it serves (HostCmd: a submission queue entry decoded once),
// what it knows of the host interface (HostSpec: command slots, namespaces, Flexible Data
// Placement) and of a die's datasheet (DieSpec: geometry, page-type map, read and program
// times, fault model), and the calls a host port makes into the firmware (HostFirmware's
// Submit, DataSink's Land, HostReports). The port interfaces themselves are the firmware's
// (firmware/ports.go); this package holds only their vocabulary, so that an adapter to a
// hardware model (package hwadapter) can implement the ports without importing the
// firmware, and the firmware's tests can run on that adapter. It imports the kernel (sim)
// and the protocols' data (nand, nvme) only.
package hal
