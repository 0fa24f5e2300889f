// Package firmware is fastdrain's SSD firmware: the host interface layer (HIL) that takes
// fetched NVMe commands, the DRAM write-buffer manager with the vanilla, fastdrain, oracle
// and oracle-bg eviction policies, the FTL (package ftl), garbage collection, and the
// flash scheduler that feeds the channels.
//
// It is written as controller firmware is: run-to-completion steps on the controller's
// cores. Each step does its work, charges its cycles to a core, starts what it needs (a
// DMA, a flash transaction) and returns; the step that goes on runs when that completes.
// The HIL serves each command in a task slot (worker, hil.go and hilsteps.go), the evictor
// works in rounds (evict.go), and each die has a GC task (gc.go); no step blocks, and there
// are no processes. It touches hardware only through ports of its own (ports.go): flash
// commands, buffer-memory moves, the host's commands, data moves and completions, and
// timers, each in the firmware's own types (firmware/hal); package hwadapter binds them to
// the simulated hardware, and tests use fakes. The eviction policy and the flash
// scheduler's ordering are seams with registries (policy.go, schedorder.go). That keeps
// the logic reviewable, and portable, as firmware (docs/firmware.md). Data integrity is end to
// end: the first eight bytes of every 4 KiB logical page the host writes are its version
// stamp; the firmware keeps it in the buffer entry and in the flash page's out-of-band
// area and returns it on reads. Flash faults the dies report — failed programs and
// erases, uncorrectable reads — are handled in faults.go: re-program elsewhere, retire the
// block to the FTL's bad-block table, fail the host read (docs/reliability.md).
//
// Data flow: host port (hal.HostCmd) → Submit → worker (HIL) → buffer → evictor → FTL allocation →
// scheduler → channel; reads: buffer hit, or FTL lookup → scheduler → channel → DRAM →
// host.
package firmware
