// Package nvmectrl models the NVMe controller front end of the simulated SSD: the part between
// the PCIe link and the firmware.
//
// Data flow: the host driver (hostos) writes 64-byte submission queue entries into rings in
// simulated host memory (HostMemory) and rings an SQ tail doorbell (Controller.RingSQ), which
// travels over the link as an MMIO write. When the doorbell arrives, the controller arbitrates
// among the submission queues with pending entries (round robin, or weighted round robin with
// an urgent class), fetches entries by DMA read, decodes them and hands each one to the
// firmware as a Command (Firmware.Submit). The firmware moves data with FetchHostData (a
// Write's payload, through the DMA engine, which keeps at most Spec.ReadTags read requests
// outstanding and shares them round robin among the commands waiting for data: dma.go),
// ReadHostData (metadata such as a range list, booked at once) and WriteHostData, which
// walk the command's PRP entries and book the DMA on the link, and
// finishes with Complete: the controller builds a 16-byte completion queue entry with the
// right phase tag, writes it by DMA into the host's completion ring, and raises an MSI-X
// interrupt subject to interrupt coalescing (Host.Interrupt).
//
// The wire formats (SQE, CQE, opcodes, status codes, PRP lists and the FastDrain hint and
// buffer-status carriers) are pure code with no timing. The host driver imports this package
// for them only; the firmware uses both the formats and the Controller.
//
// Layouts follow docs/sources.md §1 (NVMe base spec 1.3/1.4 as cross-checked from SPDK nvme_spec.h,
// Linux nvme.h and Microsoft's nvme.h documentation). All multi-byte fields are little-endian.
package nvmectrl
