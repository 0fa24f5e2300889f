// Package nvmedrv is the simulated host's NVMe driver, modelled on Linux
// drivers/nvme/host/pci.c (docs/sources.md §1.4–1.8). It sits between the block layer (hostos/blk),
// whose Driver it implements, and the NVMe controller (nvmectrl), which it reaches only
// through host memory, doorbells and interrupts, as a real driver reaches a device over PCIe.
//
// Data flow, submission: the block layer hands a request to QueueRequest. The driver picks
// an I/O queue pair, takes a free command identifier (one per tag: at most q_depth − 1 in
// flight per queue, docs/sources.md §1.4), lays the request's data out in that identifier's DMA
// buffer (PRP1/PRP2 or a PRP list, as nvme_pci_setup_prps does), builds the 64-byte SQE
// byte-exact (Read, Write, Flush or Dataset Management deallocate; FUA; FastDrain's hint for
// writeback-originated writes, in the controller's configured carrier), copies it into the
// submission ring in host memory, and rings the SQ tail doorbell with Linux's batching:
// once per dispatch batch, or early when the ring would otherwise fill with entries the
// controller has not been told about (nvme_write_sq_db).
//
// Data flow, completion: the controller's MSI-X message arrives as Interrupt; it wakes the
// interrupt handler process of that vector, which runs on a host core and pays a per-
// interrupt and a per-entry CPU cost. With Spec.IRQPreempts (the default) it runs in that
// core's interrupt context ("<core>.irq", IRQCores), so it never waits for the task work
// booked on the core, as a hardware interrupt preempts the running task. The handler consumes completion entries while their
// phase tag matches (nvme_process_cq), completes each request to the block layer, reports
// the SSD's buffer level decoded from each entry to OnLevel (FastDrain: the page cache
// switches its dirty-ratio set there), and rings the CQ head doorbell once per batch. The
// SQ head pointer in completions is never used for flow control (the paper's default
// status carrier overwrites it; docs/sources.md §1.8).
//
// Data contents: end-to-end integrity checks need real bytes. The first eight bytes of
// every 4 KiB logical page written carry a version stamp that the upper layer supplies per
// bio (see Stamper and Data); on reads the driver hands back the stamps the device wrote.
//
// # Batching: how bd->last is modelled
//
// blk-mq tells nvme_queue_rq whether a request is the last of a dispatch batch (bd->last).
// Here a batch closes by itself: every request queued on a queue pair costs SubmitCycles of
// driver time on that queue, and the doorbell is rung when that work runs out, in an event
// after every process step of that instant. Requests dispatched together (at one instant,
// or while the driver is still writing earlier SQEs of the batch) therefore share one
// doorbell, and the last of them is the one with bd->last set. Commit rings every queue at
// once, for a caller that wants to close a batch explicitly (commit_rqs).
package nvmedrv
