// Package firmware is fastdrain's SSD firmware: the host interface layer (HIL) that takes
// fetched NVMe commands, the DRAM write-buffer manager with the vanilla, fastdrain, oracle
// and oracle-bg eviction policies, the FTL (package ftl), garbage collection, and the
// flash scheduler that feeds the channels.
//
// It runs as processes on the controller's cores, charging cycles for each step, and
// touches hardware only through Hardware: flash transactions on channels, DRAM accesses,
// and the NVMe controller's data moves and completions. That keeps the logic reviewable as
// firmware. Data integrity is end to end: the first eight bytes of every 4 KiB logical page
// the host writes are its version stamp; the firmware keeps it in the buffer entry and in
// the flash page's out-of-band area and returns it on reads.
//
// Data flow: nvmectrl → Submit → command queue → worker processes (HIL) → buffer →
// evictor → FTL allocation → scheduler → channel; reads: buffer hit, or FTL lookup →
// scheduler → channel → DRAM → host.
package firmware
